"""Notebooks 25-27 (the reproductions): what they import, and the evalkit calls their
statistics rest on, checked against the reference libraries."""

from __future__ import annotations

import ast
import json
import re
import tomllib

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import evalkit as ek

from .conftest import REPO

REPRODUCTIONS = sorted(p for p in (REPO / "notebooks").glob("2[5-7]-*.ipynb"))
# Distributions whose import name is not their name with "-" as "_".
IMPORT_NAMES = {"scikit-learn": "sklearn", "pytrec-eval-terrier": "pytrec_eval",
                "scikit-posthocs": "scikit_posthocs"}


def _import_name(requirement: str) -> str:
    name = re.match(r"[A-Za-z0-9_.\-]+", requirement).group(0).lower()
    return IMPORT_NAMES.get(name, name.replace("-", "_"))


def _dev_only_modules() -> set[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    installed = {_import_name(r) for r in project["dependencies"] + extras["notebooks"]}
    return {_import_name(r) for r in extras["dev"]} - installed


def _imported_modules(path) -> set[str]:
    modules = set()
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] != "code":
            continue
        for node in ast.walk(ast.parse("".join(cell["source"]))):
            if isinstance(node, ast.Import):
                modules.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                modules.add(node.module.split(".")[0])
    return modules


def test_the_reproductions_are_found():
    assert [p.name[:2] for p in REPRODUCTIONS] == ["25", "26", "27"]


def test_dev_only_modules_are_read_from_pyproject():
    # The check below is only as good as this list: it must hold the oracles.
    assert {"statsmodels", "mlxtend", "scikit_posthocs", "hypothesis"} <= _dev_only_modules()
    assert not {"numpy", "scipy", "sklearn", "pandas"} & _dev_only_modules()


@pytest.mark.parametrize("path", REPRODUCTIONS, ids=lambda p: p.name)
def test_notebook_imports_nothing_only_the_dev_extra_installs(path):
    # A student installs evalkit[notebooks]; an exercise check that imports statsmodels
    # (which only the dev extra brings) fails for them with ModuleNotFoundError.
    assert not _imported_modules(path) & _dev_only_modules()


def test_imported_modules_sees_every_import_form(tmp_path):
    source = ["import numpy as np\n", "from statsmodels.stats import power\n",
              "import scipy.stats, sklearn\n"]
    path = tmp_path / "imports.ipynb"
    path.write_text(json.dumps({"cells": [{"cell_type": "markdown", "source": ["import os"]},
                                          {"cell_type": "code", "source": source}]}))
    assert _imported_modules(path) == {"numpy", "statsmodels", "scipy", "sklearn"}


def test_compare_runs_on_differences_against_zero_is_the_paired_t_test_with_holm():
    # Notebook 27 tests five averages of two models' paired runs in one call:
    # ek.compare_runs((b - a).assign(zero=0.0), baseline="zero"). Each column's test is then
    # scipy's ttest_rel(b, a), its d_z that of the differences, and the adjustment Holm's.
    multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests
    rng = np.random.default_rng(27)
    for _ in range(300):
        n_runs, n_columns = rng.integers(3, 12), rng.integers(1, 7)
        a = pd.DataFrame(rng.normal(50, 5, (n_runs, n_columns))).add_prefix("average ")
        shift = rng.normal(0, 3, n_columns) * rng.integers(0, 2, n_columns)
        b = a + shift + rng.normal(0, rng.uniform(0.5, 4), (n_runs, n_columns))
        table = ek.compare_runs((b - a).assign(zero=0.0), baseline="zero")
        assert list(table.index) == list(a.columns)
        expected = [stats.ttest_rel(b[c], a[c]) for c in a.columns]
        np.testing.assert_allclose(table["statistic"], [r.statistic for r in expected], rtol=1e-9)
        np.testing.assert_allclose(table["pvalue"], [r.pvalue for r in expected], rtol=1e-9)
        np.testing.assert_allclose(table["difference"], (b - a).mean(), rtol=1e-9, atol=1e-12)
        d_z = [ek.cohens_d(b[c], a[c], paired=True) for c in a.columns]
        np.testing.assert_allclose(table["cohens_d"], d_z, rtol=1e-9)
        reject, adjusted, _, _ = multipletests(table["pvalue"], alpha=0.05, method="holm")
        np.testing.assert_allclose(table["pvalue_adjusted"], adjusted, rtol=1e-12)
        assert (table["significant"].to_numpy() == reject).all()


def test_hedges_g_of_five_runs_each_is_d_times_28_over_31():
    # Notebook 27's g = d (1 - 3 / (4 (n_a + n_b) - 9)): with 5 + 5 runs 1 - 3/31 = 28/31.
    rng = np.random.default_rng(5)
    for _ in range(200):
        a, b = rng.normal(0, 1, 5), rng.normal(rng.normal(), rng.uniform(0.2, 3), 5)
        assert np.isclose(ek.cohens_d(a, b, kind="g_s"), ek.cohens_d(a, b) * 28 / 31)
