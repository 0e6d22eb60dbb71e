r"""The one record of each ranking measure, read by :func:`evalkit.trec.evaluate`, by
``evalkit trec_eval`` (its names, ``-m`` parameters, printing and ``--help``) and by the docs.

As trec_eval keeps one ``TREC_MEAS`` record per measure (``trec_eval.h``; each ``m_*.c``
defines its own, ``measures.c`` lists them in printing order), evalkit keeps one
:class:`Measure` per measure: its ir_measures name, its kernel (a function of a
:class:`~evalkit.trec._measures.JudgedRun`), whether it takes a cutoff ``@k`` and which
options, a one-line summary for the docs, and its names in trec_eval, each a
:class:`TrecEvalName` with trec_eval's kind, default parameters, ``--help`` line, how the
summary line adds it up and the releases that have it. Every other table of measures in the
package (``METRICS``, ``TREC_EVAL_NAMES``, ``TREC_EVAL_FAMILIES``, ``TREC_EVAL_PARAMETERS``,
the command's measure list and ``--help``, the list in :func:`evalkit.trec.evaluate`'s
docstring) is computed from these records.

Adding a measure is one kernel (in ``_measures`` or ``_measures_extra``), one record in
``RECORDS`` below, and one test. A trec_eval name also goes into ``PRINTING_ORDER`` (trec_eval's
``te_trec_measures``) and, when trec_eval has it there, a nickname list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

import numpy as np

from ._measures import (
    average_precision,
    dcg,
    eleven_point_average,
    ideal_dcg,
    interpolated_precision,
    ndcg,
    precision,
    r_precision,
    recall,
    reciprocal_rank,
)
from ._measures_extra import (
    binary_g,
    bpref,
    inferred_average_precision,
    judged,
    ndcg_relevant,
    normalized_gain,
    num_nonrelevant_judged_retrieved,
    num_relevant,
    num_relevant_retrieved,
    num_retrieved,
    r_ndcg,
    r_precision_multiple,
    rank_biased_precision,
    rbp_residual,
    relative_precision,
    relevance_string,
    set_average_precision,
    set_f,
    set_precision,
    set_recall,
    set_relative_precision,
    success,
    unjudged,
    utility,
)

__all__ = ["Measure", "TrecEvalName", "MEASURES", "RECORDS", "TREC_EVAL", "ALL_MEASURES",
           "SUPPORTED", "BY_NAME", "NOT_COMPUTED", "OTHER_TREC_EVAL", "NICKNAMES",
           "NICKNAMES_BY_VERSION", "PREFS", "PRINTING_ORDER", "VERSIONS", "DEFAULT_VERSION",
           "LONG", "FLOAT", "CUT_LONG", "CUT_FLOAT", "PARAM_FLOAT", "SPECIAL", "STRING",
           "index_records", "measure_list"]

#: The trec_eval releases ``evalkit trec_eval`` reproduces, and its default.
VERSIONS = ("10.0", "9.0.8")
DEFAULT_VERSION = "10.0"

#: trec_eval's kinds of measure (how ``-m`` parameters are read and the value printed):
#: a count (``%ld``), a value, one value per whole-number or real cutoff (``P_10``,
#: ``iprec_at_recall_0.10``), one value from real parameters (``set_F.0.5``), a special one
#: (the run id, a count of queries, a geometric mean) and a string (``relstring``).
LONG, FLOAT, CUT_LONG, CUT_FLOAT, PARAM_FLOAT, SPECIAL, STRING = (
    "long", "float", "cut_long", "cut_float", "param_float", "special", "string")
_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_LEVELS = tuple(i / 10 for i in range(11))
_SUMMARIES = ("mean", "sum", "geometric mean", "none")


@dataclass(frozen=True)
class TrecEvalName:
    """One of trec_eval's names for a measure: what its ``TREC_MEAS`` record says.

    Parameters
    ----------
    name : str
        trec_eval's name (``map``, ``P``, ``ndcg_cut``).
    kind : str
        One of LONG, FLOAT, CUT_LONG, CUT_FLOAT, PARAM_FLOAT, SPECIAL, STRING.
    definition : str
        Its ``--help`` line.
    defaults : tuple
        Its default parameters (cutoffs, recall levels, set_F's b).
    summary : str
        How the ``all`` line adds it up over queries: "mean", "sum", "geometric mean"
        (gm_map, gm_bpref: of the values floored at 1e-5) or "none" (per query only).
    parameters : str or None
        How ``-m name.text`` is read when its parameters are not cutoffs: "coefficients"
        (``utility.1,-1,0,0``), "gains" (``ndcg.1=3.5,2=9``), "rbp" (``rbp.p=0.8,2=3``),
        "persistence" (``rbp_resid.p=0.8``), "length" (``relstring.20``).
    averages : str or None
        The measure whose values at the parameters it averages (11pt_avg: IPrec).
    versions : tuple of str
        The trec_eval releases that have it.
    zeroed_for_bogus : str
        trec_eval 10.0 sets the value of a query the run misses (``-c``) to 0 after scoring
        it on its one-document "bogus" ranking, by the printed name (``trec_eval.c``):
        "name" (the plain name only), "prefix" (any printed name starting with it) or "".
    shares_gains : bool
        trec_eval 10.0's dcg, ideal_dcg and ndcg share one block of gains (``m_ndcg.c``).
    refused : str
        Why :func:`evalkit.trec.evaluate` does not take the name (a summary over queries).
    evalkit : str or None
        The measure it belongs to (set by :class:`Measure`); None for runid and num_q.
    """

    name: str
    kind: str
    definition: str
    defaults: tuple = ()
    summary: str = "mean"
    parameters: str | None = None
    averages: str | None = None
    versions: tuple[str, ...] = VERSIONS
    zeroed_for_bogus: str = ""
    shares_gains: bool = False
    refused: str = ""
    evalkit: str | None = None

    def __post_init__(self) -> None:
        if self.summary not in _SUMMARIES:
            raise ValueError(f"{self.name}: summary must be one of {_SUMMARIES}")

    @property
    def family(self) -> bool:
        """Whether the name takes its cutoff after ``_`` or ``.`` (``P_10``, ``P.10``)."""
        return self.kind in (CUT_LONG, CUT_FLOAT)

    @property
    def summed(self) -> bool:
        """Whether the ``all`` line is the sum over queries (counts) rather than the mean."""
        return self.summary == "sum"


@dataclass(frozen=True)
class Measure:
    """A measure of :func:`evalkit.trec.evaluate`: its one record.

    Parameters
    ----------
    name : str
        Its ir_measures name (``AP``, ``nDCG``, ``Judged``).
    function : callable
        The kernel: ``function(run, k, **options)`` (``version=`` too when ``versioned``),
        one value per query of a :class:`~evalkit.trec._measures.JudgedRun`.
    cutoff : str
        Whether it takes ``@k``: "optional", "required" or "none".
    summary : str
        One line for the docs.
    trec_eval : tuple of TrecEvalName
        Its names in trec_eval (empty when trec_eval has none).
    options : tuple of str
        The keyword options it takes in brackets (``RBP(p=0.8)``).
    versioned : bool
        Whether its value depends on the trec_eval release (it then takes ``version``).
    real_cutoff : str or None
        For a cutoff that is a real number, not a rank: what it is, for messages.
    cutoff_max : float
        The largest such cutoff allowed (1 for a recall level).
    value : str
        What a value is: "real", "count" or "string".
    evaluate_only : str
        Why it has no trec_eval name, when it has none.
    nonrelevant_as_unjudged : bool
        Whether, asked for without options, it reads a judged document that is not relevant
        (below the relevance level, and of grade 0 or less when ``gains_are_grades``)
        exactly as an unjudged one: ``evaluate`` may then leave such a document unordered
        among the unjudged documents it ties with (trec_eval orders them by doc_id).
    gains_are_grades : bool
        Whether each document gains its grade, whatever the relevance level (nDCG, DCG).
    """

    name: str
    function: Callable[..., np.ndarray]
    cutoff: str
    summary: str
    trec_eval: tuple[TrecEvalName, ...] = ()
    options: tuple[str, ...] = ()
    versioned: bool = False
    real_cutoff: str | None = None
    cutoff_max: float = float("inf")
    value: str = "real"
    evaluate_only: str = ""
    nonrelevant_as_unjudged: bool = False
    gains_are_grades: bool = False

    def __post_init__(self) -> None:
        if self.cutoff not in ("optional", "required", "none"):
            raise ValueError(f"{self.name}: cutoff must be 'optional', 'required' or 'none'")
        if not self.trec_eval and not self.evaluate_only:
            raise ValueError(f"{self.name}: a measure without a trec_eval name says why "
                             "(evaluate_only)")
        # Each trec_eval name knows the measure it belongs to.
        object.__setattr__(self, "trec_eval",
                           tuple(replace(t, evalkit=self.name) for t in self.trec_eval))


def _summary_only(measure: str, name: str) -> str:
    return (f"is trec_eval's summary over queries (the geometric mean of {measure}, each "
            f"floored at 1e-5), not a per-query value; ask for '{name}' and average with "
            "scipy.stats.gmean")


#: Every measure, in the order :func:`evalkit.trec.evaluate` lists them.
RECORDS: tuple[Measure, ...] = (
    Measure("AP", average_precision, "optional", "average precision (of the top k with @k)", (
        TrecEvalName("map", FLOAT, "average precision: precision at each relevant document "
                     "retrieved, summed, divided by R"),
        TrecEvalName("gm_map", SPECIAL, "geometric mean over queries of AP (floored at "
                     "1e-5); summary only", summary="geometric mean",
                     refused=_summary_only("AP", "map")),
        TrecEvalName("map_cut", CUT_LONG, "average precision of the top k, divided by R",
                     _CUTS),
    ), nonrelevant_as_unjudged=True),
    Measure("P", precision, "required", "precision at k: relevant in the top k / k", (
        TrecEvalName("P", CUT_LONG, "precision at cutoffs k: relevant in the top k / k "
                     "(default 5,10,15,20,30,100,200,500,1000)", _CUTS),
    ), nonrelevant_as_unjudged=True),
    Measure("R", recall, "required", "recall at k: relevant in the top k / R", (
        TrecEvalName("recall", CUT_LONG, "recall at cutoffs k: relevant in the top k / R",
                     _CUTS),
    ), nonrelevant_as_unjudged=True),
    Measure("RR", reciprocal_rank, "optional", "reciprocal rank of the first relevant "
            "document (in the top k with @k)", (
        TrecEvalName("recip_rank", FLOAT, "1 / rank of the first relevant document"),
    ), nonrelevant_as_unjudged=True),
    Measure("nDCG", ndcg, "optional", "normalised discounted cumulative gain, gains the "
            "grades, the ideal ranking from the qrels", (
        TrecEvalName("ndcg", FLOAT, "nDCG, gains = qrels grades, ideal ranking from the qrels "
                     "(Jarvelin & Kekalainen 2002)", parameters="gains", shares_gains=True),
        TrecEvalName("ndcg_cut", CUT_LONG, "nDCG at cutoffs k", _CUTS),
    ), options=("gains", "ties"), nonrelevant_as_unjudged=True, gains_are_grades=True),
    Measure("Rprec", r_precision, "none", "precision in the top R", (
        TrecEvalName("Rprec", FLOAT, "precision after R documents"),
    ), nonrelevant_as_unjudged=True),
    Measure("Bpref", bpref, "none", "binary preference (Buckley & Voorhees 2004)", (
        TrecEvalName("bpref", FLOAT, "binary preference: relevant documents ranked above "
                     "judged non-relevant ones (Buckley & Voorhees 2004)"),
        TrecEvalName("gm_bpref", SPECIAL, "geometric mean over queries of bpref (floored "
                     "at 1e-5); summary only", summary="geometric mean",
                     refused=_summary_only("bpref", "bpref")),
    )),
    Measure("IPrec", interpolated_precision, "required", "interpolated precision at the recall "
            "level x", (
        TrecEvalName("iprec_at_recall", CUT_FLOAT, "interpolated precision at recall "
                     "levels (default 0.0,0.1,...,1.0)", _LEVELS),
    ), versioned=True, real_cutoff="a recall level in [0, 1]", cutoff_max=1.0,
       nonrelevant_as_unjudged=True),
    Measure("NumRet", num_retrieved, "none", "documents retrieved", (
        TrecEvalName("num_ret", LONG, "documents retrieved (summed over queries)",
                     summary="sum", zeroed_for_bogus="name"),
    ), value="count", nonrelevant_as_unjudged=True),
    Measure("NumRel", num_relevant, "none", "relevant documents in the qrels, R", (
        TrecEvalName("num_rel", LONG, "relevant documents in the qrels, R (summed)",
                     summary="sum"),
    ), value="count", nonrelevant_as_unjudged=True),
    Measure("NumRelRet", num_relevant_retrieved, "none", "relevant documents retrieved", (
        TrecEvalName("num_rel_ret", LONG, "relevant documents retrieved (summed)",
                     summary="sum"),
    ), value="count", nonrelevant_as_unjudged=True),
    Measure("NumNonRelJudgedRet", num_nonrelevant_judged_retrieved, "none", "judged "
            "non-relevant documents retrieved", (
        TrecEvalName("num_nonrel_judged_ret", LONG, "judged non-relevant documents "
                     "retrieved (summed)", summary="sum"),
    ), value="count"),
    Measure("Success", success, "required", "1 if a relevant document is in the top k", (
        TrecEvalName("success", CUT_LONG, "1 if a relevant document is in the top k "
                     "(default 1,5,10)", (1, 5, 10)),
    ), nonrelevant_as_unjudged=True),
    Measure("SetP", set_precision, "none", "relevant retrieved / retrieved", (
        TrecEvalName("set_P", FLOAT, "relevant retrieved / retrieved"),
    ), nonrelevant_as_unjudged=True),
    Measure("SetR", set_recall, "none", "relevant retrieved / R", (
        TrecEvalName("set_recall", FLOAT, "relevant retrieved / R"),
    ), nonrelevant_as_unjudged=True),
    Measure("SetF", set_f, "optional", "(x + 1) P R / (x P + R) of SetP and SetR (default "
            "x = 1)", (
        TrecEvalName("set_F", PARAM_FLOAT, "(b+1) P R / (b P + R) of set_P and set_recall "
                     "(default b = 1.0)", (1.0,)),
    ), real_cutoff="a weight b >= 0", nonrelevant_as_unjudged=True),
    Measure("RprecMult", r_precision_multiple, "required", "precision at rank (long)(x R + 0.9)", (
        TrecEvalName("Rprec_mult", CUT_FLOAT, "precision at multiples m of R, at rank "
                     "(long)(m R + 0.9) (default 0.2,0.4,...,2.0)",
                     (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    ), real_cutoff="a multiple of R >= 0", nonrelevant_as_unjudged=True),
    Measure("IPrecAvg", eleven_point_average, "none", "interpolated precision averaged over "
            "the 11 recall levels 0.0, 0.1, ..., 1.0", (
        TrecEvalName("11pt_avg", PARAM_FLOAT, "interpolated precision averaged over "
                     "recall levels (default the 11 levels 0.0,...,1.0)", _LEVELS,
                     averages="IPrec"),
    ), versioned=True, nonrelevant_as_unjudged=True),
    Measure("infAP", inferred_average_precision, "none", "inferred AP (Yilmaz & Aslam "
            "2006)", (
        TrecEvalName("infAP", FLOAT, "inferred AP (Yilmaz & Aslam 2006)"),
    )),
    Measure("SetAP", set_average_precision, "none", "unranked AP: SetP times SetR", (
        TrecEvalName("set_map", FLOAT, "set precision times set recall"),
    ), nonrelevant_as_unjudged=True),
    Measure("SetRelP", set_relative_precision, "none", "relevant retrieved / min(retrieved, "
            "R)", (
        TrecEvalName("set_relative_P", FLOAT, "relative set precision"),
    ), nonrelevant_as_unjudged=True),
    Measure("RelP", relative_precision, "required", "relevant in the top k / min(k, R)", (
        TrecEvalName("relative_P", CUT_LONG, "relative precision at cutoffs", _CUTS),
    ), nonrelevant_as_unjudged=True),
    Measure("Utility", utility, "none", "linear utility of the retrieved set", (
        TrecEvalName("utility", FLOAT, "utility of the retrieved set",
                     parameters="coefficients", zeroed_for_bogus="name"),
    ), options=("a", "b", "c", "d", "n_docs")),
    Measure("BinG", binary_g, "none", "binary gain (experimental in trec_eval)", (
        TrecEvalName("binG", FLOAT, "binary gain"),
    )),
    Measure("G", normalized_gain, "none", "normalised gain (experimental in trec_eval)", (
        TrecEvalName("G", FLOAT, "gain", parameters="gains"),
    ), options=("gains",)),
    Measure("DCG", dcg, "optional", "discounted cumulative gain", (
        TrecEvalName("dcg", FLOAT, "discounted cumulative gain", parameters="gains",
                     versions=("10.0",), shares_gains=True),
    ), options=("gains", "ties"), nonrelevant_as_unjudged=True, gains_are_grades=True),
    Measure("IdealDCG", ideal_dcg, "optional", "DCG of the ideal ranking", (
        TrecEvalName("ideal_dcg", FLOAT, "ideal DCG", parameters="gains", versions=("10.0",),
                     shares_gains=True),
    ), options=("gains",)),
    Measure("nDCGRel", ndcg_relevant, "none", "nDCG averaged over the documents of positive "
            "gain", (
        TrecEvalName("ndcg_rel", FLOAT, "nDCG averaged over relevant documents",
                     parameters="gains"),
    ), options=("gains",)),
    Measure("RnDCG", r_ndcg, "none", "nDCG averaged at the depths where the ideal gain "
            "changes", (
        TrecEvalName("Rndcg", FLOAT, "nDCG at R", parameters="gains"),
    ), options=("gains",)),
    Measure("RBP", rank_biased_precision, "none", "rank-biased precision (Moffat & Zobel "
            "2008; default p = 0.9, trec_eval's)", (
        TrecEvalName("rbp", FLOAT, "rank-biased precision (Moffat & Zobel 2008)",
                     parameters="rbp", versions=("10.0",)),
    ), options=("p", "gains")),
    Measure("RBPResid", rbp_residual, "none", "how much RBP could still rise", (
        TrecEvalName("rbp_resid", FLOAT, "rank-biased precision's residual",
                     parameters="persistence", versions=("10.0",), zeroed_for_bogus="name"),
    ), options=("p",)),
    Measure("Unjudged", unjudged, "required", "share of the top k absent from the qrels or "
            "graded negative", (
        TrecEvalName("unj", CUT_LONG, "unjudged documents in the top k", (5, 10, 20),
                     versions=("10.0",), zeroed_for_bogus="prefix"),
    )),
    Measure("Judged", judged, "optional", "share of the top k (of the whole ranking without "
            "@k) that is judged, ir_measures' Judged", evaluate_only="ir_measures' measure; "
            "trec_eval has none (its unj counts the unjudged documents, over k)"),
    Measure("RelString", relevance_string, "optional", "the grades of the top k (default "
            "10) as a string", (
        TrecEvalName("relstring", STRING, "the grades of the top documents as a string "
                     "(per query only)", summary="none", parameters="length"),
    ), value="string"),
)

#: trec_eval's names that no evalkit measure stands behind.
_TREC_EVAL_ONLY = (
    TrecEvalName("runid", SPECIAL, "the run id of the run file's last line", summary="none",
                 refused="is the run's name, not a measure; see the run's run_id column"),
    TrecEvalName("num_q", SPECIAL, "queries averaged over (-c: every query in the qrels)",
                 summary="none", refused="is trec_eval's count of queries, not a per-query "
                 "value; use len() of the result"),
)

#: trec_eval's printing order (``te_trec_measures`` in measures.c): the measures that read
#: qrels and a run.
PRINTING_ORDER = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
    "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref",
    "Rprec_mult", "utility", "11pt_avg", "binG", "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel",
    "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P", "set_relative_P",
    "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "rbp", "rbp_resid", "unj",
)
#: trec_eval's measures that read preferences, not qrels (evalkit computes none of them).
OTHER_TREC_EVAL = (
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
    "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
    "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
    "prefs_avgjg_imp", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "yaap",
)
#: trec_eval's nicknames for preference measures.
PREFS = ("all_prefs", "prefs", "qrels_jg")

# trec_eval's nicknames (measures.c), as it lists them.
_OFFICIAL = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
             "bpref", "recip_rank", "iprec_at_recall", "P")
_ALL_TREC_9 = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
               "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "relstring", "recall",
               "infAP", "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P", "Rprec_mult",
               "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P",
               "set_recall", "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret")
_ALL_TREC_10 = _ALL_TREC_9[:14] + ("unj", "rbp", "rbp_resid") + _ALL_TREC_9[14:]
_SET = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
        "set_recall", "set_relative_P", "set_map", "set_F")


def index_records(records: Iterable[Measure], trec_eval_only: Iterable[TrecEvalName] = ()
                  ) -> tuple[dict[str, Measure], dict[str, TrecEvalName]]:
    """The measures by name and trec_eval's names by name; a name given twice is an error
    (a measure is described once)."""
    measures: dict[str, Measure] = {}
    names: dict[str, TrecEvalName] = {}
    for record in records:
        if record.name in measures:
            raise ValueError(f"measure {record.name!r} has two records")
        measures[record.name] = record
        for trec in record.trec_eval:
            if trec.name in names:
                raise ValueError(f"trec_eval's {trec.name!r} is in two records")
            names[trec.name] = trec
    for trec in trec_eval_only:
        if trec.name in names:
            raise ValueError(f"trec_eval's {trec.name!r} is in two records")
        names[trec.name] = trec
    return measures, names


#: ir_measures name -> :class:`Measure`, in the order :func:`evalkit.trec.evaluate` lists them.
#: trec_eval name -> :class:`TrecEvalName`.
MEASURES, TREC_EVAL = index_records(RECORDS, _TREC_EVAL_ONLY)
if set(PRINTING_ORDER) != set(TREC_EVAL) or len(PRINTING_ORDER) != len(TREC_EVAL):
    raise ImportError("PRINTING_ORDER must list every trec_eval name of the records once")

#: Every trec_eval measure that reads qrels and a run, in its printing order.
ALL_MEASURES = [TREC_EVAL[name] for name in PRINTING_ORDER]
#: The ones evalkit computes (all of them), and those it does not (none).
SUPPORTED = [m for m in ALL_MEASURES if m.evalkit in MEASURES or m in _TREC_EVAL_ONLY]
BY_NAME = {m.name: m for m in SUPPORTED}
NOT_COMPUTED = [m.name for m in ALL_MEASURES if m.name not in BY_NAME]

NICKNAMES = {"official": list(_OFFICIAL), "all_trec": list(_ALL_TREC_10), "set": list(_SET)}
NICKNAMES_BY_VERSION = {"10.0": NICKNAMES,
                        "9.0.8": {**NICKNAMES, "all_trec": list(_ALL_TREC_9)}}


def measure_list() -> str:
    """The measures as a reST list, for :func:`evalkit.trec.evaluate`'s docstring: each
    ir_measures name (with ``@k`` when it takes one), its summary and its trec_eval names."""
    lines = []
    for measure in RECORDS:
        name = {"optional": f"``{measure.name}``, ``{measure.name}@k``",
                "required": f"``{measure.name}@k``", "none": f"``{measure.name}``"}
        shown = name[measure.cutoff]
        if measure.cutoff != "none" and measure.real_cutoff:
            shown = shown.replace("@k", "@x") + f" (x: {measure.real_cutoff})"
        if measure.options:
            shown += " (options: " + ", ".join(measure.options) + ")"
        trec = [f"``{t.name}``" + (" (summary only)" if t.refused else "")
                + ("" if t.versions == VERSIONS else f" ({t.versions[0]})")
                for t in measure.trec_eval]
        where = ("trec_eval " + ", ".join(trec)) if trec else "not in trec_eval"
        kind = {"count": " (a count)", "string": " (a column of strings, a character per "
                "document)"}.get(measure.value, "")
        lines.append(f"- {shown}: {measure.summary}{kind}; {where}.")
    return "\n".join(lines)
