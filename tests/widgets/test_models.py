"""What every explorer model promises: a change is checked whole, errors name the setting."""

from __future__ import annotations

import copy
import math

import numpy as np
import pandas as pd
import pytest

from evalkit.widgets import (
    AveragingModel,
    BrierModel,
    ConfidenceModel,
    ContingencyModel,
    CostMatrixModel,
    CostModel,
    CriticalDifferenceModel,
    DCGModel,
    DiscountModel,
    EstimationModel,
    IncompleteJudgementsModel,
    InterpolationModel,
    KappaModel,
    MeasureAgreementModel,
    MulticlassAveragingModel,
    PeekingModel,
    PowerModel,
    RankingModel,
    RareClassModel,
    RelevanceModel,
    ResamplesModel,
    ROCModel,
    ROCThresholdModel,
    RunsModel,
    SeedsModel,
    SpreadModel,
    TemperatureModel,
    TestSetModel,
    WeightedKappaModel,
)


def _estimation_table() -> pd.DataFrame:
    """A small table of estimates (two sample sizes, four samples each), as simulate_estimates
    would return it, with made-up accuracies."""
    rng = np.random.default_rng(0)
    rows = []
    for size in (50, 100):
        for repeat in range(4):
            rows.append((size, repeat, "truth", np.nan, rng.uniform(0.8, 0.9)))
            rows += [(size, repeat, "holdout", f, rng.uniform(0.7, 1.0)) for f in (0.2, 1 / 3)]
            rows += [(size, repeat, "k-fold", float(k), rng.uniform(0.7, 1.0)) for k in (5, 10)]
    return pd.DataFrame(rows, columns=["n_available", "repeat", "method", "parameter",
                                       "estimate"])


# One small instance of every model.
MODELS = {
    "TestSetModel": lambda: TestSetModel(n_repeats=200),
    "ContingencyModel": lambda: ContingencyModel(),
    "DCGModel": lambda: DCGModel([2, 1, 0, 2, 0], ideal=[2, 2, 1, 1, 0]),
    "RelevanceModel": lambda: RelevanceModel([1, 0, 1, 0, 0, 0, 0, 0, 1, 1]),
    "AveragingModel": lambda: AveragingModel(n_samples=200),
    "CostModel": lambda: CostModel([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], cost_fn=5),
    "ROCModel": lambda: ROCModel(n_pool=20, cost_matrix=[[0, 1], [10, 0]]),
    "KappaModel": lambda: KappaModel(),
    "RankingModel": lambda: RankingModel(),
    "TemperatureModel": lambda: TemperatureModel([0, 1, 2, 1], [[0.7, 0.2, 0.1],
                                                                 [0.2, 0.5, 0.3],
                                                                 [0.1, 0.3, 0.6],
                                                                 [0.4, 0.4, 0.2]]),
    "PowerModel": lambda: PowerModel(n_repeats=200),
    "EstimationModel": lambda: EstimationModel(_estimation_table()),
    "InterpolationModel": lambda: InterpolationModel([1, 0, 1, 0, 0, 0, 0, 0, 1, 1]),
    "RareClassModel": lambda: RareClassModel(),
    "PeekingModel": lambda: PeekingModel(n_repeats=100),
    "DiscountModel": lambda: DiscountModel(rank=2),
    "MulticlassAveragingModel": lambda: MulticlassAveragingModel(),
    "CostMatrixModel": lambda: CostMatrixModel(),
    "ROCThresholdModel": lambda: ROCThresholdModel(threshold=0.6),
    "WeightedKappaModel": lambda: WeightedKappaModel(),
    "MeasureAgreementModel": lambda: MeasureAgreementModel(n_repeats=20),
    "ConfidenceModel": lambda: ConfidenceModel([0, 1, 2, 1, 0], [[0.7, 0.2, 0.1],
                                                                [0.2, 0.5, 0.3],
                                                                [0.1, 0.3, 0.6],
                                                                [0.4, 0.4, 0.2],
                                                                [0.3, 0.3, 0.4]], n_samples=3),
    "BrierModel": lambda: BrierModel([0, 1, 1, 0, 1], [0.2, 0.7, 0.4, 0.1, 0.9], n_bins=4),
    "SpreadModel": lambda: SpreadModel(n_items=50, n_resamples=20),
    "ResamplesModel": lambda: ResamplesModel(n_resamples=30, n_repeats=20),
    "SeedsModel": lambda: SeedsModel(),
    "IncompleteJudgementsModel": lambda: IncompleteJudgementsModel(
        pd.DataFrame({"query_id": "1", "doc_id": list("abcd"), "relevance": [1, 0, 1, 0]}),
        {"x": pd.DataFrame({"query_id": "1", "doc_id": list("abcd"), "score": [4, 3, 2, 1]}),
         "y": pd.DataFrame({"query_id": "1", "doc_id": list("dcba"), "score": [4, 3, 2, 1]})}),
    "CriticalDifferenceModel": lambda: CriticalDifferenceModel(pd.DataFrame(
        {"a": [0.9, 0.8, 0.7, 0.9], "b": [0.5, 0.6, 0.4, 0.6], "c": [0.3, 0.2, 0.5, 0.4]})),
    "RunsModel": lambda: RunsModel(
        pd.DataFrame({"query_id": ["1", "2", "3"], "doc_id": "a", "relevance": [1, 0, 1]}),
        {"x": pd.DataFrame({"query_id": ["1", "2", "3"], "doc_id": "a", "score": 1.0})}),
}

# Every numeric setting: (model, setting, an accepted value, a value of the right kind that is
# refused: out of range, NaN, infinite or a fraction where a whole number is meant).
NUMERIC = [
    ("TestSetModel", "n_test", 50, 0),
    ("TestSetModel", "true_accuracy", 0.9, 1.5),
    ("TestSetModel", "confidence", 0.9, 1.0),
    ("TestSetModel", "n_repeats", 100, 2.5),
    ("TestSetModel", "seed", 1, -1),
    ("ContingencyModel", "tp", 5, -1),
    ("ContingencyModel", "fp", 5, 1.5),
    ("ContingencyModel", "fn", 5, -3),
    ("ContingencyModel", "tn", 5, float("nan")),
    ("ContingencyModel", "beta", 2.0, -1.0),
    ("DCGModel", "k", 3, 0),
    ("DCGModel", "relevance_level", 2, float("nan")),
    ("RelevanceModel", "k", 3, 1.5),
    ("RelevanceModel", "relevance_level", 2, float("inf")),
    ("AveragingModel", "n_classes", 4, 1),
    ("AveragingModel", "skew", 2.0, 11.0),
    ("AveragingModel", "rare_weakness", 1.0, -0.5),
    ("AveragingModel", "top_recall", 0.5, 0.0),
    ("AveragingModel", "n_samples", 300, 0),
    ("AveragingModel", "seed", 1, -1),
    ("CostModel", "cost_tn", -1.0, float("inf")),
    ("CostModel", "cost_fp", 2.0, float("nan")),
    ("CostModel", "cost_fn", 3.0, float("-inf")),
    ("CostModel", "cost_tp", -2.0, float("nan")),
    ("CostModel", "threshold", 0.3, float("nan")),
    ("ROCModel", "prevalence", 0.2, 1.5),
    ("ROCModel", "threshold", 0.5, float("inf")),
    ("ROCModel", "separation", 2.0, float("nan")),
    ("ROCModel", "n_pool", 30, 0),
    ("ROCModel", "seed", 1, -1),
    ("KappaModel", "both_yes", 5, -1),
    ("KappaModel", "a_yes_b_no", 5, 0.5),
    ("KappaModel", "a_no_b_yes", 5, -2),
    ("KappaModel", "both_no", 5, float("nan")),
    ("TemperatureModel", "temperature", 2.0, 0.0),
    ("TemperatureModel", "n_bins", 5, 0),
    ("PowerModel", "n_topics", 10, 1),
    ("PowerModel", "effect_size", 0.8, 3.5),
    ("PowerModel", "alpha", 0.01, 0.0),
    ("PowerModel", "n_repeats", 100, 0),
    ("PowerModel", "seed", 1, -1),
    ("EstimationModel", "n_available", 50, 1),
    ("EstimationModel", "k", 5, 1.5),
    ("EstimationModel", "test_fraction", 0.2, 1.0),
    ("InterpolationModel", "recall_level", 0.7, 1.5),
    ("RareClassModel", "n_documents", 5000, 1),
    ("RareClassModel", "n_relevant", 20, 0),
    ("RareClassModel", "recall_target", 0.5, 1.5),
    ("RareClassModel", "n_false_alarms", 30, -1),
    ("PeekingModel", "n_models", 5, 0),
    ("PeekingModel", "n_test", 100, 0.5),
    ("PeekingModel", "true_accuracy", 0.9, float("nan")),
    ("PeekingModel", "n_repeats", 50, 1),
    ("PeekingModel", "seed", 1, -1),
    ("DiscountModel", "rank", 3, 11),
    ("DiscountModel", "grade", 2, 0),
    ("DiscountModel", "n_ranks", 12, 1),
    ("MulticlassAveragingModel", "scale", 2.0, 0.0),
    ("CostMatrixModel", "cost_tn", -1.0, float("inf")),
    ("CostMatrixModel", "cost_fp", 2.0, float("nan")),
    ("CostMatrixModel", "cost_fn", 30.0, float("-inf")),
    ("CostMatrixModel", "cost_tp", -2.0, float("nan")),
    ("CostMatrixModel", "prevalence", 0.5, 1.5),
    ("WeightedKappaModel", "n_agreed", 3, 0),
    ("WeightedKappaModel", "n_disagreements", 4, -1),
    ("WeightedKappaModel", "distance", 2, 4),
    ("MeasureAgreementModel", "spread", 0.5, 1.5),
    ("MeasureAgreementModel", "noise", 0.2, 0.0),
    ("MeasureAgreementModel", "correlation", 0.5, 1.5),
    ("MeasureAgreementModel", "n_topics", 20, 0),
    ("MeasureAgreementModel", "n_systems", 10, 2),
    ("MeasureAgreementModel", "n_repeats", 20, 5),
    ("MeasureAgreementModel", "seed", 1, -1),
    ("ConfidenceModel", "n_samples", 4, 6),
    ("ConfidenceModel", "temperature", 2.0, 0.0),
    ("BrierModel", "temperature", 2.0, -1.0),
    ("BrierModel", "odds_factor", 3.0, 0.0),
    ("BrierModel", "n_bins", 5, 0),
    ("SpreadModel", "n_items", 100, 1),
    ("SpreadModel", "n_resamples", 30, 2.5),
    ("SpreadModel", "seed", 1, -1),
    ("ResamplesModel", "n_resamples", 100, 2),
    ("ResamplesModel", "variance_ratio", 0.8, 0.0),
    ("ResamplesModel", "alpha", 0.01, 1.0),
    ("ResamplesModel", "n_repeats", 10, 0),
    ("ResamplesModel", "seed", 1, -1),
    ("SeedsModel", "n_runs", 10, 1),
    ("SeedsModel", "effect_size", 0.5, 5.5),
    ("SeedsModel", "alpha", 0.01, 0.0),
    ("SeedsModel", "seed", 1, -1),
    ("IncompleteJudgementsModel", "fraction", 0.3, 0.0),
    ("IncompleteJudgementsModel", "depth", 2, 0),
    ("IncompleteJudgementsModel", "seed", 1, -1),
    ("CriticalDifferenceModel", "n_topics", 3, 5),
    ("CriticalDifferenceModel", "alpha", 0.1, 1.0),
    ("CriticalDifferenceModel", "seed", 1, 1.5),
    ("RunsModel", "n_skipped", 2, 3),
]

# A change that every model accepts (the first half of the mixed changes below).
GOOD = {
    "TestSetModel": {"n_test": 200, "confidence": 0.99},
    "ContingencyModel": {"tp": 12, "beta": 0.5},
    "DCGModel": {"k": 2, "relevance_level": 2},
    "RelevanceModel": {"k": 2, "relevance_level": 2},
    "AveragingModel": {"skew": 2.0, "top_recall": 0.7},
    "CostModel": {"threshold": 0.35, "cost_fp": 3.0},
    "ROCModel": {"prevalence": 0.1, "separation": 0.5},
    "KappaModel": {"both_no": 3, "both_yes": 7},
    "RankingModel": {"order": ["5", "4", "3", "2", "1"]},
    "TemperatureModel": {"temperature": 0.5, "n_bins": 4},
    "PowerModel": {"n_topics": 20, "effect_size": 0.6},
    "EstimationModel": {"k": 5, "test_fraction": 0.2},
    "InterpolationModel": {"recall_level": 0.7, "convention": "trec_eval"},
    "RareClassModel": {"n_relevant": 100, "recall_target": 0.5},
    "PeekingModel": {"n_models": 5, "n_test": 100},
    "DiscountModel": {"rank": 4, "marginal_on_top": True},
    "MulticlassAveragingModel": {"scale": 3.0, "exclude_focus": True},
    "CostMatrixModel": {"cost_fn": 20.0, "same_mix": True},
    "ROCThresholdModel": {"threshold": 0.7},
    "WeightedKappaModel": {"distance": 2, "n_disagreements": 3},
    "MeasureAgreementModel": {"spread": 0.3, "noise": 0.2},
    "ConfidenceModel": {"n_samples": 5, "temperature": 0.5},
    "BrierModel": {"temperature": 0.5, "odds_factor": 2.0},
    "SpreadModel": {"n_items": 100, "n_resamples": 30},
    "ResamplesModel": {"n_resamples": 100, "variance_ratio": 0.8},
    "SeedsModel": {"n_runs": 10, "effect_size": 0.5},
    "IncompleteJudgementsModel": {"fraction": 0.3, "measure": "bpref"},
    "CriticalDifferenceModel": {"n_topics": 3, "systems": ("a", "c")},
    "RunsModel": {"measure": "AP", "n_skipped": 1},
}


def _same(a, b) -> bool:
    """Deep equality for model state: arrays, frames, dicts, lists, NaN equal to NaN."""
    if isinstance(a, pd.DataFrame | pd.Series):
        return isinstance(b, type(a)) and a.equals(b)
    if isinstance(a, np.ndarray):
        return (isinstance(b, np.ndarray) and a.shape == b.shape
                and np.array_equal(a, b, equal_nan=a.dtype.kind == "f"))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(
            _same(a[key], b[key]) for key in a)
    if isinstance(a, list | tuple):
        return type(a) is type(b) and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def _state(model) -> dict:
    return copy.deepcopy(vars(model))


def _assert_unchanged(model, before: dict) -> None:
    after = vars(model)
    assert after.keys() == before.keys()
    for name in before:
        assert _same(before[name], after[name]), f"{name} changed"


@pytest.mark.parametrize("model_name, setting, good, bad", NUMERIC,
                         ids=[f"{m}.{s}" for m, s, _, _ in NUMERIC])
def test_a_refused_change_leaves_the_model_exactly_as_it_was(model_name, setting, good, bad):
    model = MODELS[model_name]()
    model.set(**{setting: good})  # accepted on its own
    before = _state(model)
    # A good value of another setting alongside the bad one: neither may be applied.
    other = next((name, value) for name, value in GOOD[model_name].items() if name != setting)
    with pytest.raises(ValueError, match=rf"^{setting} must be"):
        model.set(**{other[0]: other[1], setting: bad})
    _assert_unchanged(model, before)
    with pytest.raises(TypeError, match=rf"^{setting} must be"):
        model.set(**{other[0]: other[1], setting: "x"})
    _assert_unchanged(model, before)


@pytest.mark.parametrize("model_name, setting, good, bad", NUMERIC,
                         ids=[f"{m}.{s}" for m, s, _, _ in NUMERIC])
@pytest.mark.parametrize("wrong", [True, "x", None, [1]], ids=repr)
def test_the_wrong_kind_of_value_is_a_type_error_naming_the_setting(model_name, setting, good,
                                                                   bad, wrong):
    model = MODELS[model_name]()
    with pytest.raises(TypeError, match=rf"^{setting} must be"):
        model.set(**{setting: wrong})


@pytest.mark.parametrize("model_name", MODELS)
def test_an_unknown_setting_lists_the_known_ones_and_changes_nothing(model_name):
    model = MODELS[model_name]()
    before = _state(model)
    with pytest.raises(ValueError, match="unknown setting 'colour'; the settings are ") as error:
        model.set(**GOOD[model_name], colour="red")
    for name in GOOD[model_name]:
        assert name in str(error.value)
    _assert_unchanged(model, before)


@pytest.mark.parametrize("model_name", MODELS)
def test_a_good_change_is_applied_and_returns_the_model(model_name):
    model = MODELS[model_name]()
    assert model.set(**GOOD[model_name]) is model
    for name, value in GOOD[model_name].items():
        assert _same(getattr(model, name), value)


def test_the_test_set_model_does_not_apply_half_a_change():
    # The case of issue 11: n_test used to stay at 200 although the change was refused.
    model = TestSetModel()
    with pytest.raises(TypeError, match="true_accuracy"):
        model.set(n_test=200, true_accuracy="x")
    assert model.n_test == 100


def test_the_contingency_model_refuses_a_bool_beta_as_f_score_does():
    import evalkit as ek

    with pytest.raises((TypeError, ValueError), match="beta"):
        ek.f_score([1, 0], [1, 1], beta=True)
    model = ContingencyModel()
    with pytest.raises(TypeError, match="beta must be a real number >= 0; got True"):
        model.set(tp=5, beta=True)
    assert model.tp == 30 and model.beta == 1.0


def test_cross_setting_rules_are_checked_before_anything_is_applied():
    contingency = ContingencyModel(tp=1, fp=0, fn=0, tn=0)
    with pytest.raises(ValueError, match="collection is empty"):
        contingency.set(tp=0, beta=2.0)
    assert (contingency.tp, contingency.beta) == (1, 1.0)
    averaging = AveragingModel(n_classes=4, n_samples=200)
    with pytest.raises(ValueError, match="n_samples must be at least n_classes"):
        averaging.set(n_classes=10, n_samples=8, skew=0.0)
    assert (averaging.n_classes, averaging.n_samples, averaging.skew) == (4, 200, 1.0)
    kappa = KappaModel(1, 0, 0, 0)
    with pytest.raises(ValueError, match="the table is empty"):
        kappa.set(both_yes=0)
    assert kappa.both_yes == 1
    ranking = RankingModel()
    with pytest.raises(ValueError, match="order must list every item"):
        ranking.set(order=["1", "1", "2", "3", "4"])
    assert ranking.order == ["1", "2", "3", "4", "5"]
    discount = DiscountModel(rank=4)
    with pytest.raises(ValueError, match="rank must be between 1 and n_ranks = 3"):
        discount.set(n_ranks=3, grade=1)
    assert (discount.rank, discount.n_ranks, discount.grade) == (4, 10, 3)


@pytest.mark.parametrize("model_name", MODELS)
def test_summary_keys_are_snake_case(model_name):
    import re

    summary = MODELS[model_name]().summary()
    assert isinstance(summary, dict) and summary
    for key in summary:
        assert re.fullmatch("[a-z][a-z0-9_]*", key), f"{model_name}.summary() key {key!r}"


def test_summaries_keep_what_the_views_show():
    assert TestSetModel().summary().keys() >= {
        "true_accuracy", "n_test", "mean_measured", "sd_measured", "sd_theory", "middle_low",
        "middle_high", "one_test_set", "ci_low", "ci_high", "coverage"}
    assert ContingencyModel().summary().keys() >= {
        "accuracy", "error_rate", "precision", "recall", "specificity", "f1", "f_beta"}
    assert RelevanceModel([1, 0, 1]).summary().keys() >= {
        "n_relevant", "precision_at_k", "recall_at_k", "r_precision", "average_precision",
        "reciprocal_rank"}
    assert {"dcg_trec", "idcg_exponential", "ndcg_jarvelin"} <= DCGModel([2, 1]).summary().keys()
    assert {"accuracy", "f1_micro", "f1_macro", "f1_gap", "entropy_breaks_d1"} <= (
        AveragingModel(n_samples=100).summary().keys())
    assert {"total_cost", "cheapest_threshold", "p_star", "p_star_issue"} <= (
        CostModel([0, 1], [0.2, 0.7]).summary().keys())
    assert {"observed_agreement", "chance_pooled", "kappa_separate", "landis_koch_pooled",
            "carletta_separate"} <= KappaModel().summary().keys()


#: What each model takes as data (by position); every setting is keyword-only.
MODEL_DATA = {
    "TestSetModel": [], "ContingencyModel": ["tp", "fp", "fn", "tn"],
    "DCGModel": ["gains"], "RelevanceModel": ["relevance"], "AveragingModel": [],
    "CostModel": ["y_true", "y_score"], "ROCModel": [],
    "KappaModel": ["both_yes", "a_yes_b_no", "a_no_b_yes", "both_no"],
    "RankingModel": ["items", "order", "reference"], "TemperatureModel": ["y_true", "y_proba"],
    "PowerModel": [], "EstimationModel": ["estimates"], "InterpolationModel": ["relevance"],
    "RareClassModel": [], "PeekingModel": [], "DiscountModel": [],
    "MulticlassAveragingModel": ["confusion"], "CostMatrixModel": ["confusions"],
    "ROCThresholdModel": ["y_true", "y_score"], "WeightedKappaModel": [],
    "MeasureAgreementModel": [], "ConfidenceModel": ["y_true", "y_proba"],
    "BrierModel": ["y_true", "y_score"], "SpreadModel": ["y_true", "y_proba"],
    "ResamplesModel": [], "SeedsModel": [], "IncompleteJudgementsModel": ["qrels", "runs"],
    "CriticalDifferenceModel": ["scores"],
    "RunsModel": ["qrels", "runs"],
}


@pytest.mark.parametrize("name", sorted(MODEL_DATA))
def test_models_take_their_data_by_position_and_every_setting_by_keyword(name):
    import inspect

    from evalkit import widgets

    assert sorted(MODEL_DATA) == sorted(MODELS)
    model_class = getattr(widgets, name)
    parameters = inspect.signature(model_class).parameters.values()
    assert [p.name for p in parameters if p.kind == p.POSITIONAL_OR_KEYWORD] == MODEL_DATA[name]
    assert all(p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in parameters)
    explorer_class = getattr(widgets, name.replace("Model", "Explorer"))
    parameters = inspect.signature(explorer_class).parameters.values()
    assert [p.name for p in parameters if p.kind == p.POSITIONAL_OR_KEYWORD] == ["model"]


@pytest.mark.parametrize(("call", "shown"), [
    (lambda: TestSetModel(50), "TestSetModel() takes its data (none) by position and every "
                               "option by keyword; write TestSetModel(n_test=50)"),
    (lambda: ContingencyModel(1, 2, 3, 4, 2.0), "write ContingencyModel(tp, fp, fn, tn, beta=2.0)"),
    (lambda: DCGModel([1, 0], 3), "write DCGModel(gains, n_relevant=3)"),
    (lambda: CostModel([0, 1], [0.2, 0.8], 1), "write CostModel(y_true, y_score, pos_label=1)"),
    (lambda: WeightedKappaModel(5, 1), "write WeightedKappaModel(n_agreed=5, n_disagreements=1)"),
])
def test_a_positional_setting_is_a_type_error_that_shows_the_keyword_call(call, shown):
    import re

    with pytest.raises(TypeError, match=re.escape(shown)):
        call()


def test_a_positional_option_of_an_explorer_shows_the_keyword_call():
    import re

    from evalkit.widgets import ContingencyExplorer

    shown = "write ContingencyExplorer(model, max_count=50)"
    with pytest.raises(TypeError, match=re.escape(shown)):
        ContingencyExplorer(ContingencyModel(), 50)
    explorer = ContingencyExplorer(ContingencyModel(), max_count=50, plot=False)
    assert explorer.model.tp == 30
