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
