"""What every explorer shares: it displays as its widget."""

from __future__ import annotations

import pytest

from evalkit import widgets

#: Explorers that build with no arguments (on their own example), one per line.
DEFAULT_EXPLORERS = [
    "TestSetExplorer",
    "ContingencyExplorer",
    "InterpolationExplorer",
    "RareClassExplorer",
    "PeekingExplorer",
    "DiscountExplorer",
    "ROCThresholdExplorer",
    "WeightedKappaExplorer",
    "MeasureAgreementExplorer",
    "RunsExplorer",
]


@pytest.mark.parametrize("name", DEFAULT_EXPLORERS)
def test_explorers_display_as_their_widget(name):
    explorer = getattr(widgets, name)(plot=False)
    bundle = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


#: Every explorer, one per line: each must keep importing from evalkit.widgets.
OLD_EXPLORER_NAMES = [
    "TestSetExplorer",
    "ContingencyExplorer",
    "DCGExplorer",
    "RelevanceExplorer",
    "AveragingExplorer",
    "CostExplorer",
    "ROCExplorer",
    "KappaExplorer",
    "RankingExplorer",
    "TemperatureExplorer",
    "PowerExplorer",
    "EstimationExplorer",
    "InterpolationExplorer",
    "RareClassExplorer",
    "PeekingExplorer",
    "DiscountExplorer",
    "MulticlassAveragingExplorer",
    "CostMatrixExplorer",
    "ROCThresholdExplorer",
    "WeightedKappaExplorer",
    "MeasureAgreementExplorer",
    "ConfidenceExplorer",
    "BrierExplorer",
    "SpreadExplorer",
    "ResamplesExplorer",
    "SeedsExplorer",
    "RunsExplorer",
    "IncompleteJudgementsExplorer",
]


@pytest.mark.parametrize("name", OLD_EXPLORER_NAMES)
def test_every_explorer_still_imports_from_evalkit_widgets(name):
    import importlib

    namespace: dict = {}
    exec(f"from evalkit.widgets import {name}", namespace)  # the notebooks' own spelling
    explorer_class = namespace[name]
    model_class = getattr(importlib.import_module("evalkit.widgets"),
                          name.replace("Explorer", "Model"))
    # One file holds the explorer and its model, named with the same stem.
    assert explorer_class.__module__ == model_class.__module__
    assert explorer_class.__module__.startswith("evalkit.widgets.")


def test_models_import_without_ipywidgets():
    import subprocess
    import sys

    code = ("import sys; from evalkit.widgets import ContingencyModel, KappaModel, ROCModel; "
            "ContingencyModel(); KappaModel().summary(); "
            "print('ipywidgets' in sys.modules, 'matplotlib.pyplot' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["False", "False"]


def test_maths_modules_import_neither_widgets_nor_plots_nor_each_others_private_names():
    import re
    from pathlib import Path

    import evalkit

    package = Path(evalkit.__file__).parent
    for path in sorted(package.rglob("*.py")):
        source = path.read_text()
        relative = path.relative_to(package)
        if len(relative.parts) == 1 and path.stem not in ("__init__",):
            assert not re.search(r"^\s*from \.(widgets|plots)\b|import evalkit\.(widgets|plots)",
                                 source, re.M), relative
        # A module uses another module's public names only (its own package's _-files are
        # its private plumbing: widgets/_base, plots/_common, ...).
        imports = re.findall(r"^\s*from (\.+)(\w*) import \(([^)]*)\)", source, re.M)
        imports += re.findall(r"^\s*from (\.+)(\w*) import ([^(\n]+)$", source, re.M)
        for dots, module, names in imports:
            if module.startswith("_"):
                continue
            private = [n.strip() for n in names.split(",") if n.strip().startswith("_")]
            if dots == "." and not module:  # `from . import _x`: a private module of its own
                private = [n for n in private  # package, its plumbing like a _-file above
                           if not (path.parent / f"{n.split()[0]}.py").is_file()]
            assert not private, f"{relative} imports {private} from {dots}{module}"


def test_costs_and_curves_do_not_import_each_other_both_ways():
    from pathlib import Path

    import evalkit

    package = Path(evalkit.__file__).parent
    curves = (package / "curves.py").read_text()
    assert "from .costs" not in curves and "import costs" not in curves


@pytest.mark.parametrize("name", DEFAULT_EXPLORERS)
def test_the_summary_keeps_its_width_beside_the_plot(name):
    # Squeezed by a wide plot, the summary table wrapped one word per line at 1280 px; the
    # browser tests measure that, this pins the layout that prevents it.
    explorer = getattr(widgets, name)(plot=False)
    row = explorer.widget.children[-1]
    assert explorer.summary in row.children and explorer.output in row.children
    assert explorer.summary.layout.flex == "0 0 auto"
    assert row.layout.flex_flow == "row wrap"


def test_a_plot_reaches_the_output_widget_without_being_captured_by_the_notebook_runner(
        monkeypatch):
    """In a kernel, the explorer sets its Output widget's ``outputs`` itself. A figure shown
    with ``display`` inside ``with output:`` would be captured by nbclient, which answers every
    capture on the shell channel; under Voila that message can race the cell's own reply and
    leave the page at "Executing 5 of 37" (about one load in four, before this was changed)."""
    pytest.importorskip("ipykernel")
    nbclient = pytest.importorskip("nbclient")
    import nbformat
    from nbclient.output_widget import OutputWidget

    sent: list[dict] = []
    monkeypatch.setattr(OutputWidget, "sync_state", lambda widget: sent.append(widget.outputs))
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("from evalkit.widgets import ROCExplorer\n"
                                  "explorer = ROCExplorer()\nexplorer"),
        nbformat.v4.new_code_cell("explorer.controls['threshold'].value = 0.5"),
    ])
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3")
    client.execute()

    assert sent == [], "the runner had to mirror a captured output back to the kernel"
    state = notebook.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    outputs = [model["state"]["outputs"] for model in state.values()
               if model["model_name"] == "OutputModel"]
    assert len(outputs) == 1 and len(outputs[0]) == 1, outputs
    assert outputs[0][0]["output_type"] == "display_data"
    assert outputs[0][0]["data"]["image/png"]  # the inline backend's PNG of the figure
    assert all(output.output_type != "error" for cell in notebook.cells
               for output in cell.outputs)


def test_outside_a_kernel_the_plot_output_is_the_figures_text():
    import matplotlib.pyplot as plt

    from evalkit.widgets._base import _display_output

    figure = plt.figure()
    try:
        assert _display_output(figure) == {"output_type": "display_data",
                                           "data": {"text/plain": repr(figure)},
                                           "metadata": {}}
    finally:
        plt.close(figure)


#: Telltale signs of a metric written out by hand: DCG's discount or exponential gain, a
#: precision or recall ratio from the cells, F's harmonic mean, accuracy from a trace, the
#: noncentral t of a power calculation, a binomial standard error, the normal CDF (erf) of a
#: population AUC, a t test or d_z over simulated experiments, kappa's chance and observed
#: agreement from the cells, a macro average of a per-class table. Plots and explorers call
#: the maths for all of these.
HAND_WRITTEN_FORMULAS = {
    "DCG discount": r"np\.log2\(",
    "DCG exponential gain": r"2(\.0)?\s*\*\*\s*\w*grade",
    "precision or recall from the cells": r"/\s*\(\s*tp\s*\+\s*f[pn]\s*\)",
    "F from precision and recall": (r"precision\s*\*\s*recall\s*/|\bbeta2?\s*\*\*\s*2"
                                    r"|1\s*\+\s*beta"),
    "accuracy from the diagonal": r"trace\([^/\n]*\)\s*/",
    "noncentral t": r"\bnct\b",
    "binomial standard error": r"sqrt\(\s*\w+\s*\*\s*\(\s*1(\.0)?\s*-\s*\w+\s*\)\s*/",
    "normal CDF": r"\berfc?\(|\bnorm\.(cdf|sf|ppf)\(|\bndtri?\(",
    "t test or t quantile": r"\bttest_\w+\(|\bt\.(ppf|sf|cdf)\(",
    "d_z from a mean and an SD": r"\.mean\([^)]*\)\s*/\s*[\w.]+\.std\(",
    "kappa's chance agreement": r"\w*yes\s*\*\s*\w*yes\s*\+\s*\w*no\s*\*\s*\w*no\b",
    "kappa's observed agreement": r"n_agreements\s*/|\(\s*both_yes\s*\+\s*both_no\s*\)\s*/",
    "a macro average of a per-class column": (r"\[\s*[\"'](c_)?(f1|precision|recall)[\"']\s*\]"
                                              r"\.mean\("),
    "a hand-written bool check": r"isinstance\([^)]*\bbool\b",
}


def _formula_sites(source: str) -> list[str]:
    """The names of the hand-written formulas in ``source``, code lines only."""
    import re

    code = "\n".join(line.split("#")[0] for line in source.splitlines())
    return [name for name, pattern in HAND_WRITTEN_FORMULAS.items() if re.search(pattern, code)]


def test_the_formula_guard_recognises_the_hand_written_formulas_it_replaced():
    # What plots/ranking.py, plots/retrieval.py, widgets/roc.py, cost.py, averaging.py,
    # power.py, testset.py, kappa.py and confidence.py held before they called the maths.
    old = {
        "DCG discount": "gain, discount = grades, np.maximum(np.log2(ranks), 1.0)",
        "DCG exponential gain": "gain = 2.0**grades - 1.0 if variant == 'exponential' else g",
        "precision or recall from the cells": '"precision": tp / (tp + fp) if tp + fp else 0',
        "F from precision and recall": "f = (1 + beta2) * precision * recall / denominator",
        "accuracy from the diagonal": "return float(np.trace(self.confusion()) / self.n_samples)",
        "noncentral t": "power = stats.nct.sf(critical, df, shift)",
        "binomial standard error": '"sd_theory": float(np.sqrt(p * (1.0 - p) / self.n_test)),',
        "normal CDF": "return 0.5 * (1.0 + math.erf(self.separation / 2.0))",
        "t test or t quantile": "result = stats.ttest_1samp(differences, 0.0, axis=1)",
        "d_z from a mean and an SD": (
            "observed = differences.mean(axis=1) / differences.std(axis=1, ddof=1)"),
        "kappa's chance agreement": "return a_yes * b_yes + a_no * b_no",
        "kappa's observed agreement": "return self.n_agreements / self.n_items",
        "a macro average of a per-class column": 'result["f1_macro"] = float(table["f1"].mean())',
        "a hand-written bool check": "if not isinstance(value, bool | np.bool_):",
    }
    for name, line in old.items():
        assert _formula_sites(line) == [name], name
    assert _formula_sites('"cheapest_accuracy": float(best.trace() / self.n_samples),') == [
        "accuracy from the diagonal"]
    assert _formula_sites("x = 1  # np.log2( in a comment is fine") == []
    # the other spellings of the same formulas (widgets/kappa.py, confidence.py, power.py)
    assert _formula_sites("return yes * yes + no * no") == ["kappa's chance agreement"]
    assert _formula_sites('result["c_f1_macro"] = float(table["c_f1"].mean())') == [
        "a macro average of a per-class column"]
    assert _formula_sites("z = stats.norm.ppf(0.975); q = stats.t.ppf(0.975, df)") == [
        "normal CDF", "t test or t quantile"]
    assert _formula_sites('("SD in theory, sqrt(p(1-p)/n)", _format(s["sd_theory"]))') == []


def test_plots_and_explorers_compute_no_metric_themselves():
    from pathlib import Path

    import evalkit

    package = Path(evalkit.__file__).parent
    found = {}
    for folder in ("plots", "widgets"):
        for path in sorted((package / folder).glob("*.py")):
            sites = _formula_sites(path.read_text())
            if sites:
                found[f"{folder}/{path.name}"] = sites
    assert found == {}, "call the maths instead of writing the formula: " + repr(found)


def test_the_data_scripts_do_not_import_the_explorers():
    import re
    from pathlib import Path

    import evalkit

    data = Path(evalkit.__file__).parent.parent / "data"
    scripts = sorted(data.rglob("*.py"))
    assert scripts  # data/estimation/make_estimates.py at least
    for path in scripts:
        assert not re.search(r"evalkit\.widgets|from \.*widgets\b", path.read_text()), path
