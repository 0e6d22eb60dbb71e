"""What every explorer shares: it displays as its widget."""

from __future__ import annotations

import pytest

from evalkit.widgets import ContingencyExplorer, TestSetExplorer


@pytest.mark.parametrize("explorer_class", [TestSetExplorer, ContingencyExplorer])
def test_explorers_display_as_their_widget(explorer_class):
    explorer = explorer_class(plot=False)
    bundle = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
