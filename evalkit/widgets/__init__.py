"""Interactive explorers for the notebooks.

One file per explorer holds its model (plain Python: the state, validation and what is shown)
and its thin ipywidgets view side by side; ``_base`` holds the views' shared plumbing. A test
can set a control's ``value`` and read :attr:`summary` ``.value`` without a browser; the
notebooks display the explorer by leaving it as the last expression of a cell.

Callbacks run inside ``with self.output:`` so that an error in one shows up in the notebook
(and in tests) instead of vanishing.
"""

from ._ranked_list import RankedListModel
from .averaging import AveragingExplorer, ClassImbalanceModel
from .contingency import ContingencyExplorer, SetRetrievalModel
from .cost import CostExplorer, CostThresholdModel
from .dcg import DCGExplorer
from .kappa import AgreementTableModel, KappaExplorer
from .ranking import RankingExplorer, RankingPairsModel
from .relevance import RelevanceExplorer
from .roc import ClassBalanceModel, ROCExplorer
from .testset import AccuracySamplingModel, TestSetExplorer

__all__ = [
    "TestSetExplorer",
    "ContingencyExplorer",
    "DCGExplorer",
    "RelevanceExplorer",
    "AveragingExplorer",
    "CostExplorer",
    "ROCExplorer",
    "KappaExplorer",
    "RankingExplorer",
    "AccuracySamplingModel",
    "SetRetrievalModel",
    "RankedListModel",
    "ClassImbalanceModel",
    "CostThresholdModel",
    "ClassBalanceModel",
    "AgreementTableModel",
    "RankingPairsModel",
]
