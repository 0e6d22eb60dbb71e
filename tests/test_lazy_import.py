"""``import evalkit`` is lazy (PEP 562): no topic module, no pandas, scipy or matplotlib until a
name is used, and then the very objects the topic modules define."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import evalkit

INIT = Path(evalkit.__file__)
HEAVY = ("pandas", "scipy", "matplotlib", "ipywidgets", "pyarrow", "sklearn")


def _modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running code."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, cwd=INIT.parent.parent)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def _heavy(modules: set[str]) -> set[str]:
    return {name for name in modules if name.split(".")[0] in HEAVY}


def test_import_evalkit_imports_no_topic_module_and_no_heavy_dependency():
    modules = _modules_after("import evalkit")
    assert not _heavy(modules), sorted(_heavy(modules))[:10]
    assert {name for name in modules if name.startswith("evalkit")} == {"evalkit"}


def test_a_name_loads_its_topic_module_and_what_it_needs():
    modules = _modules_after("import evalkit as ek; ek.f1_score")
    assert "evalkit.classification" in modules
    assert "evalkit.stats" not in modules and "matplotlib" not in modules
    # the proof that the probe sees an import: the TREC engine does import pandas
    assert "pandas" in _modules_after("import evalkit as ek; ek.evaluate")


def test_star_import_gives_every_public_name():
    probe = ("from evalkit import *\nimport evalkit\n"
             "missing = [n for n in evalkit.__all__ if n not in globals()]\n"
             "assert not missing, missing\n"
             "assert 'plot_reliability_diagram' not in globals()")
    modules = _modules_after(probe)
    assert "matplotlib" not in modules


def _static_table() -> dict[str, str]:
    """name -> module from the ``if TYPE_CHECKING:`` block of evalkit/__init__.py."""
    table: dict[str, str] = {}
    for node in ast.walk(ast.parse(INIT.read_text())):
        if (isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
                and not node.module.startswith("_")):
            for alias in node.names:
                table[alias.name] = node.module
    return table


def test_the_lazy_table_agrees_with_the_static_imports_and_all():
    static = _static_table()
    lazy = {name: module for name, module in evalkit._LAZY_ATTRIBUTES.items()
            if name != "plot_reliability_diagram"}
    assert static == lazy
    assert set(evalkit.__all__) == set(lazy)
    static_modules = {alias.name for node in ast.walk(ast.parse(INIT.read_text()))
                      if isinstance(node, ast.ImportFrom) and node.level == 1
                      and node.module is None for alias in node.names}
    assert static_modules | {"course", "plots", "widgets"} == set(evalkit._LAZY_MODULES)


@pytest.mark.parametrize("name", sorted(evalkit._LAZY_ATTRIBUTES))
def test_each_public_name_is_its_modules_object(name):
    module = importlib.import_module(f"evalkit.{evalkit._LAZY_ATTRIBUTES[name]}")
    assert getattr(evalkit, name) is getattr(module, name)
    assert name in dir(evalkit)


def test_modules_version_and_unknown_names():
    assert evalkit.trec is importlib.import_module("evalkit.trec")
    assert evalkit.evaluate is evalkit.trec.evaluate
    assert "stats" in dir(evalkit) and "__version__" in dir(evalkit)
    from evalkit._version import find_version

    assert evalkit.__version__ == find_version()
    with pytest.raises(AttributeError, match="no attribute 'no_such_metric'"):
        evalkit.no_such_metric  # noqa: B018
    assert not hasattr(evalkit, "no_such_metric")


def test_the_command_line_imports_only_what_the_subcommand_needs():
    version = _modules_after("from evalkit.cli import main\n"
                             "try:\n    main(['--version'])\nexcept SystemExit:\n    pass")
    assert not _heavy(version) and "numpy" not in version
    assert "evalkit.trec" not in version
    # the proof: the trec_eval subcommand's parser does load the TREC engine
    trec_eval = _modules_after("from evalkit.cli import build_parser\nbuild_parser()")
    assert "evalkit.trec._command" in trec_eval
    # the installed version (importlib.metadata) is read only for --version
    assert "evalkit._version" not in trec_eval and "evalkit._version" in version


# ---------------------------------------------------------------------------------------------
# evalkit.trec is lazy too: `evalkit trec_eval` on a plain file never loads pandas
# ---------------------------------------------------------------------------------------------
TREC_INIT = INIT.parent / "trec" / "__init__.py"
NUMERIC_HEAVY = ("pandas", "pyarrow", "scipy")


def _trec_static_table() -> dict[str, str]:
    """name -> module from the ``if TYPE_CHECKING:`` block of evalkit/trec/__init__.py."""
    return {alias.name: node.module for node in ast.walk(ast.parse(TREC_INIT.read_text()))
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
            for alias in node.names}


def test_the_trec_lazy_table_agrees_with_the_static_imports_and_all():
    import evalkit.trec as trec

    static = _trec_static_table()
    assert static == trec._LAZY_ATTRIBUTES
    assert set(trec.__all__) == set(static)
    assert set(trec.__all__) <= set(dir(trec))


@pytest.mark.parametrize("name", sorted(_trec_static_table()))
def test_each_trec_name_is_its_modules_object(name):
    import evalkit.trec as trec

    module = importlib.import_module(f"evalkit.trec.{_trec_static_table()[name]}")
    assert getattr(trec, name) is getattr(module, name)
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        trec.nothing_here  # noqa: B018


def test_trec_star_import_and_from_import():
    probe = ("from evalkit.trec import *\nimport evalkit.trec\n"
             "missing = [n for n in evalkit.trec.__all__ if n not in globals()]\n"
             "assert not missing, missing\n"
             "from evalkit.trec import evaluate\nassert evaluate is evalkit.evaluate")
    assert "pandas" in _modules_after(probe)


def test_import_evalkit_trec_and_the_command_load_no_pandas():
    for code in ("import evalkit.trec", "from evalkit.trec._command import run",
                 "from evalkit.cli import build_parser\nbuild_parser()"):
        modules = _modules_after(code)
        assert not {m for m in modules if m.split(".")[0] in NUMERIC_HEAVY}, code
    assert "pandas" in _modules_after("import evalkit.trec\nevalkit.trec.read_qrels")


def _command_modules(qrels: Path, run: Path) -> tuple[str, set[str]]:
    """stdout of ``python -m evalkit trec_eval -q qrels run`` and the modules it loaded."""
    probe = ("import json, runpy, sys\n"
             f"sys.argv = ['evalkit', 'trec_eval', '-q', {str(qrels)!r}, {str(run)!r}]\n"
             "try:\n    runpy.run_module('evalkit', run_name='__main__')\n"
             "except SystemExit as done:\n    assert not done.code, done.code\n"
             "sys.stdout.flush()\nprint()\nprint(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, cwd=INIT.parent.parent)
    *out, _, modules = done.stdout.split("\n")[:-1]
    return "\n".join(out) + "\n", set(json.loads(modules))


def test_the_command_on_plain_files_never_imports_pandas_pyarrow_or_scipy(tmp_path):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\nq2 0 d1 1\n")
    lines = ["q1 Q0 d2 1 3.5 sys", "q1 Q0 d1 2 3.5 sys", "q1 Q0 d9 3 1 sys",
             "q2 Q0 d1 1 0.25 sys", "q2 Q0 d3 2 -1.5 sys"]
    run.write_text("\n".join(lines) + "\n")
    out, modules = _command_modules(qrels, run)
    assert not {m for m in modules if m.split(".")[0] in NUMERIC_HEAVY}
    assert "evalkit.trec._command_fast" in modules
    # by hand: q1's one relevant doc d1 ranks 2nd (d2 first at equal score: descending ids),
    # AP 1/2; q2's d1 and d3 rank 1st and 2nd, AP (1/1 + 2/2) / 2
    assert "map                   \tq1\t0.5000\n" in out
    assert "map                   \tq2\t1.0000\n" in out
    assert "map                   \tall\t0.7500\n" in out
    assert "num_rel_ret           \tall\t3\n" in out
    # the proof that the probe sees pandas: a run with a comment line is read the general
    # way (the same values), and that way loads pandas
    run.write_text("# a comment\n" + "\n".join(lines) + "\n")
    general, modules = _command_modules(qrels, run)
    assert "pandas" in modules and general == out
