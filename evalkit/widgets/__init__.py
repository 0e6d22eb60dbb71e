"""Interactive explorers for the notebooks.

One file per explorer holds its model (plain Python: the state, validation and what is shown)
and its thin ipywidgets view side by side; ``_base`` holds the views' shared plumbing. A test
can set a control's ``value`` and read :attr:`summary` ``.value`` without a browser; the
notebooks display the explorer by leaving it as the last expression of a cell.

Callbacks run inside ``with self.output:`` so that an error in one shows up in the notebook
(and in tests) instead of vanishing. The models import nothing from ipywidgets, and a view
imports it only when it is built, so ``from evalkit.widgets import KappaModel`` works without
loading a front end.
"""

from .averaging import AveragingExplorer, AveragingModel
from .brier import BrierExplorer, BrierModel
from .confidence import ConfidenceExplorer, ConfidenceModel
from .contingency import ContingencyExplorer, ContingencyModel
from .cost import CostExplorer, CostModel
from .cost_matrix import CostMatrixExplorer, CostMatrixModel
from .critical_difference import CriticalDifferenceExplorer, CriticalDifferenceModel
from .dcg import DCGExplorer, DCGModel
from .discount import DiscountExplorer, DiscountModel
from .estimation import EstimationExplorer, EstimationModel
from .incomplete import IncompleteJudgementsExplorer, IncompleteJudgementsModel
from .interpolation import InterpolationExplorer, InterpolationModel
from .kappa import KappaExplorer, KappaModel
from .mcnemar import McNemarExplorer, McNemarModel
from .measure_agreement import MeasureAgreementExplorer, MeasureAgreementModel
from .multiclass import MulticlassAveragingExplorer, MulticlassAveragingModel
from .peeking import PeekingExplorer, PeekingModel
from .power import PowerExplorer, PowerModel
from .ranking import RankingExplorer, RankingModel
from .rare_class import RareClassExplorer, RareClassModel
from .relevance import RelevanceExplorer, RelevanceModel
from .resamples import ResamplesExplorer, ResamplesModel
from .roc import ROCExplorer, ROCModel
from .roc_threshold import ROCThresholdExplorer, ROCThresholdModel
from .runs import RunsExplorer, RunsModel
from .seeds import SeedsExplorer, SeedsModel
from .spread import SpreadExplorer, SpreadModel
from .temperature import TemperatureExplorer, TemperatureModel
from .testset import TestSetExplorer, TestSetModel
from .weighted_kappa import WeightedKappaExplorer, WeightedKappaModel

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
    "IncompleteJudgementsExplorer",
    "CriticalDifferenceExplorer",
    "McNemarExplorer",
    "RunsExplorer",
    "TestSetModel",
    "ContingencyModel",
    "DCGModel",
    "RelevanceModel",
    "AveragingModel",
    "CostModel",
    "ROCModel",
    "KappaModel",
    "RankingModel",
    "TemperatureModel",
    "PowerModel",
    "McNemarModel",
    "EstimationModel",
    "InterpolationModel",
    "RareClassModel",
    "PeekingModel",
    "DiscountModel",
    "MulticlassAveragingModel",
    "CostMatrixModel",
    "ROCThresholdModel",
    "WeightedKappaModel",
    "MeasureAgreementModel",
    "ConfidenceModel",
    "BrierModel",
    "SpreadModel",
    "ResamplesModel",
    "SeedsModel",
    "IncompleteJudgementsModel",
    "CriticalDifferenceModel",
    "RunsModel",
]
