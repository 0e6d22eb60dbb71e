"""The registry of confusion-matrix metrics that :func:`evalkit.bootstrap_ci` evaluates on a
stack of resampled confusion matrices (``evalkit._confusion_stack``).

A metric registers itself where it is defined (``@stacked(kernel, options)``). These tests
fail when a public metric of two label arrays is not registered (it would silently lose the
fast path), when a registered one has no Spec in tests/test_common.py or is not public, when
the stack's values differ from the metric called on the resampled rows, and when a formula is
written twice: the public function must compute with the very kernel the stack path calls.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import pathlib
import sys
import warnings

import numpy as np
import pytest

import evalkit as ek
from evalkit import _confusion_stack, agreement, classification
from evalkit._confusion_stack import kernel_of, registered_metrics, stacked_metric
from tests.test_common import SPEC_BY_NAME

REGISTERED = registered_metrics()
#: Public functions of two label arrays that return a table, not one number.
NOT_ONE_NUMBER = {"confusion_matrix", "classification_report"}


def _data_names(function):
    return list(inspect.signature(function).parameters)[:2]


def _options(function):
    """The Spec's options for ``function`` (its valid call without the two label arrays)."""
    kwargs = dict(SPEC_BY_NAME[function.__name__].kwargs)
    data = [kwargs.pop(name) for name in _data_names(function)]
    return data, kwargs


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def test_the_registry_holds_the_thirteen_metrics():
    assert sorted(f.__name__ for f in REGISTERED) == sorted([
        "accuracy", "error_rate", "precision", "recall", "f_score", "f1_score", "sensitivity",
        "specificity", "cohen_kappa", "matthews_corrcoef", "balanced_accuracy", "informedness",
        "markedness"])


@pytest.mark.parametrize("module", [classification, agreement], ids=lambda m: m.__name__)
def test_every_public_metric_of_two_label_arrays_is_registered(module):
    label_pairs = ({"y_true", "y_pred"}, {"rater_a", "rater_b"})
    candidates = {
        name for name in module.__all__
        if inspect.isfunction(getattr(module, name)) and name not in NOT_ONE_NUMBER
        and set(_data_names(getattr(module, name))) in label_pairs
    }
    registered = {f.__name__ for f in REGISTERED}
    assert candidates, "no metric of two label arrays found: the signature test is wrong"
    missing = candidates - registered
    assert not missing, f"decorate with @stacked(...) beside the definition: {sorted(missing)}"


@pytest.mark.parametrize("function", REGISTERED, ids=lambda f: f.__name__)
def test_a_registered_metric_is_public_and_has_a_spec(function):
    assert getattr(ek, function.__name__) is function
    module = classification if hasattr(classification, function.__name__) else agreement
    assert function.__name__ in module.__all__
    assert function.__name__ in SPEC_BY_NAME, "add a Spec to tests/test_common.py"


@pytest.mark.parametrize("function", REGISTERED, ids=lambda f: f.__name__)
def test_bootstrap_ci_takes_the_fast_path_and_it_scores_as_the_rows(function):
    (y_true, y_pred), options = _options(function)
    metric = functools.partial(function, **options)
    result = _quiet(ek.bootstrap_ci, metric, y_true, y_pred, n_resamples=50, seed=0)
    assert result.resampling == "multinomial"

    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    stacked = stacked_metric(metric, y_true, y_pred)
    classes, _, checked_true = stacked.confusion(y_true, y_pred)
    n = len(y_true)
    rows = np.random.default_rng(1).integers(0, n, size=(100, n))
    stack = np.zeros((len(rows), len(classes), len(classes)), dtype=np.int64)
    for r, row in enumerate(rows):
        np.add.at(stack[r], (np.searchsorted(classes, y_true[row]),
                             np.searchsorted(classes, y_pred[row])), 1)
    from_rows = np.array([_quiet(metric, y_true[row], y_pred[row]) for row in rows])
    np.testing.assert_allclose(_quiet(stacked, classes, stack, n, checked_true), from_rows,
                               rtol=1e-12, atol=1e-15)


def test_a_partial_fixing_keywords_is_recognised_and_one_fixing_data_is_not():
    y_true, y_pred = np.array([0, 1, 1, 2]), np.array([0, 1, 2, 2])
    macro = functools.partial(ek.precision, average="Macro")  # any case, as the metric takes it
    stacked = stacked_metric(macro, y_true, y_pred)
    assert stacked is not None and stacked.arguments["average"] == "Macro"
    classes, matrix, checked = stacked.confusion(y_true, y_pred)
    assert stacked(classes, matrix, 4, checked) == pytest.approx(macro(y_true, y_pred))
    assert stacked_metric(functools.partial(ek.precision, y_true), y_pred, y_pred) is None
    assert stacked_metric(ek.roc_auc, y_true, y_pred) is None


def test_the_stack_module_imports_no_public_module():
    tree = ast.parse(pathlib.Path(_confusion_stack.__file__).read_text())
    imported = [node.module for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.level == 1]
    assert imported and all(name.startswith("_") for name in imported), imported


# ---------------------------------------------------------------------------------------------
# One kernel per formula
# ---------------------------------------------------------------------------------------------


def _spy_on(formula, monkeypatch):
    """Replace every binding of ``formula`` in evalkit's modules by a spy; its calls."""
    calls = []

    def spy(*args, **kwargs):
        calls.append((args, kwargs))
        return formula(*args, **kwargs)

    for name, module in list(sys.modules.items()):
        if name == "evalkit" or name.startswith("evalkit."):
            for attribute, value in list(vars(module).items()):
                if value is formula:
                    monkeypatch.setattr(module, attribute, spy)
    return spy, calls


@pytest.mark.parametrize("function", REGISTERED, ids=lambda f: f.__name__)
def test_the_public_metric_and_its_stack_compute_with_one_kernel(function, monkeypatch):
    record = kernel_of(function)
    spy, calls = _spy_on(record.formula, monkeypatch)
    if record.kernel is record.formula:
        monkeypatch.setitem(_confusion_stack._KERNELS, function,
                            dataclasses.replace(record, kernel=spy, formula=spy))
    (y_true, y_pred), options = _options(function)
    value = _quiet(function, y_true, y_pred, **options)
    assert len(calls) == 1, (
        f"{function.__name__} did not compute with {record.formula.__qualname__}, the formula "
        "its stack path uses: is the formula written a second time?")
    assert np.asarray(value, dtype=float) == pytest.approx(
        np.asarray(_quiet(record.formula, *calls[0][0], **calls[0][1]), dtype=float), nan_ok=True)

    stacked = stacked_metric(functools.partial(function, **options), y_true, y_pred)
    classes, matrix, checked_true = stacked.confusion(y_true, y_pred)
    _quiet(stacked, classes, matrix[None], len(checked_true), checked_true)
    assert len(calls) == 2, "the stack path did not compute with the registered kernel"


def _functions_defined(package_root):
    """(module path, function name) of every function defined in evalkit's source."""
    found = []
    for path in sorted(package_root.rglob("*.py")):
        tree = ast.parse(path.read_text())
        found += [(path.relative_to(package_root).as_posix(), node.name)
                  for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]
    return found


def test_each_kernel_is_defined_once_and_no_public_module_writes_one():
    root = pathlib.Path(ek.__file__).parent
    defined = _functions_defined(root)
    kernels = {f for metric in REGISTERED
               for f in (kernel_of(metric).kernel, kernel_of(metric).formula)}
    for kernel in kernels:
        homes = [path for path, name in defined if name == kernel.__name__]
        assert len(homes) == 1, f"{kernel.__name__} is defined in {homes}"
        assert kernel.__module__.rsplit(".", 1)[-1].startswith("_"), (
            f"{kernel.__qualname__} belongs in a private kernel module")
    # A stack evaluator beside a public metric is the formula's second home.
    public_kernels = [(path, name) for path, name in defined
                      if name.endswith(("_of_stack", "_of_correct"))
                      and not path.rsplit("/", 1)[-1].startswith("_")]
    assert not public_kernels, public_kernels
