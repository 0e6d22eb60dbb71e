"""trec_eval's measures as ``evalkit trec_eval`` prints them: their kinds, default parameters,
help lines, releases, printing order and nicknames (``official``, ``all_trec``, ``set``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import _evaluate as _evaluation

__all__ = ["TrecMeasure", "ALL_MEASURES", "SUPPORTED", "BY_NAME", "NOT_COMPUTED", "OTHER_TREC_EVAL",
           "NICKNAMES", "VERSIONS", "DEFAULT_VERSION", "LONG", "FLOAT", "CUT_LONG", "CUT_FLOAT",
           "PARAM_FLOAT", "SPECIAL", "STRING"]

VERSIONS = ("10.0", "9.0.8")
DEFAULT_VERSION = "10.0"
LONG, FLOAT, CUT_LONG, CUT_FLOAT, PARAM_FLOAT, SPECIAL, STRING = (
    "long", "float", "cut_long", "cut_float", "param_float", "special", "string")


@dataclass(frozen=True)
class TrecMeasure:
    """One trec_eval measure: its kind, evalkit's metric name, default parameters, a one-line
    definition (``--help``) and the releases that have it."""

    name: str
    kind: str
    evalkit: str | None
    definition: str
    defaults: tuple = field(default=())
    summed: bool = False
    versions: tuple = VERSIONS
_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_LEVELS = tuple(i / 10 for i in range(11))
#: Every measure of trec_eval's ``te_trec_measures`` (measures.c) that reads qrels and a run,
#: in its printing order. ``evalkit`` is the metric of :func:`evalkit.evaluate` behind it.
ALL_MEASURES = [
    TrecMeasure("runid", SPECIAL, None, "the run id of the run file's last line"),
    TrecMeasure("num_q", SPECIAL, None, "queries averaged over (-c: every query in the qrels)"),
    TrecMeasure("num_ret", LONG, "NumRet", "documents retrieved (summed over queries)",
                summed=True),
    TrecMeasure("num_rel", LONG, "NumRel", "relevant documents in the qrels, R (summed)",
                summed=True),
    TrecMeasure("num_rel_ret", LONG, "NumRelRet", "relevant documents retrieved (summed)",
                summed=True),
    TrecMeasure("map", FLOAT, "AP", "average precision: precision at each relevant document "
                "retrieved, summed, divided by R"),
    TrecMeasure("gm_map", SPECIAL, "AP", "geometric mean over queries of AP (floored at "
                "1e-5); summary only"),
    TrecMeasure("Rprec", FLOAT, "Rprec", "precision after R documents"),
    TrecMeasure("bpref", FLOAT, "Bpref", "binary preference: relevant documents ranked above "
                "judged non-relevant ones (Buckley & Voorhees 2004)"),
    TrecMeasure("recip_rank", FLOAT, "RR", "1 / rank of the first relevant document"),
    TrecMeasure("iprec_at_recall", CUT_FLOAT, "IPrec", "interpolated precision at recall "
                "levels (default 0.0,0.1,...,1.0)", _LEVELS),
    TrecMeasure("P", CUT_LONG, "P", "precision at cutoffs k: relevant in the top k / k "
                "(default 5,10,15,20,30,100,200,500,1000)", _CUTS),
    TrecMeasure("relstring", STRING, "RelString", "the grades of the top documents as a string "
                "(per query only)"),
    TrecMeasure("recall", CUT_LONG, "R", "recall at cutoffs k: relevant in the top k / R",
                _CUTS),
    TrecMeasure("infAP", FLOAT, "infAP", "inferred AP (Yilmaz & Aslam 2006)"),
    TrecMeasure("gm_bpref", SPECIAL, "Bpref", "geometric mean over queries of bpref (floored "
                "at 1e-5); summary only"),
    TrecMeasure("Rprec_mult", CUT_FLOAT, "RprecMult", "precision at multiples m of R, at rank "
                "(long)(m R + 0.9) (default 0.2,0.4,...,2.0)",
                (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    TrecMeasure("utility", FLOAT, "Utility", "utility of the retrieved set"),
    TrecMeasure("11pt_avg", PARAM_FLOAT, "IPrec", "interpolated precision averaged over "
                "recall levels (default the 11 levels 0.0,...,1.0)", _LEVELS),
    TrecMeasure("binG", FLOAT, "BinG", "binary gain"),
    TrecMeasure("G", FLOAT, "G", "gain"),
    TrecMeasure("dcg", FLOAT, "DCG", "discounted cumulative gain", versions=("10.0",)),
    TrecMeasure("ideal_dcg", FLOAT, "IdealDCG", "ideal DCG", versions=("10.0",)),
    TrecMeasure("ndcg", FLOAT, "nDCG", "nDCG, gains = qrels grades, ideal ranking from the "
                "qrels (Jarvelin & Kekalainen 2002)"),
    TrecMeasure("ndcg_rel", FLOAT, "nDCGRel", "nDCG averaged over relevant documents"),
    TrecMeasure("Rndcg", FLOAT, "RnDCG", "nDCG at R"),
    TrecMeasure("ndcg_cut", CUT_LONG, "nDCG", "nDCG at cutoffs k", _CUTS),
    TrecMeasure("map_cut", CUT_LONG, "AP", "average precision of the top k, divided by R",
                _CUTS),
    TrecMeasure("relative_P", CUT_LONG, "RelP", "relative precision at cutoffs", _CUTS),
    TrecMeasure("success", CUT_LONG, "Success", "1 if a relevant document is in the top k "
                "(default 1,5,10)", (1, 5, 10)),
    TrecMeasure("set_P", FLOAT, "SetP", "relevant retrieved / retrieved"),
    TrecMeasure("set_relative_P", FLOAT, "SetRelP", "relative set precision"),
    TrecMeasure("set_recall", FLOAT, "SetR", "relevant retrieved / R"),
    TrecMeasure("set_map", FLOAT, "SetAP", "set precision times set recall"),
    TrecMeasure("set_F", PARAM_FLOAT, "SetF", "(b+1) P R / (b P + R) of set_P and set_recall "
                "(default b = 1.0)", (1.0,)),
    TrecMeasure("num_nonrel_judged_ret", LONG, "NumNonRelJudgedRet", "judged non-relevant "
                "documents retrieved (summed)", summed=True),
    TrecMeasure("rbp", FLOAT, "RBP", "rank-biased precision (Moffat & Zobel 2008)",
                versions=("10.0",)),
    TrecMeasure("rbp_resid", FLOAT, "RBPResid", "rank-biased precision's residual",
                versions=("10.0",)),
    TrecMeasure("unj", CUT_LONG, "Unjudged", "unjudged documents in the top k", (5, 10, 20),
                versions=("10.0",)),
]
_BY_NAME_ALL = {m.name: m for m in ALL_MEASURES}
#: trec_eval's measures whose parameters are not cutoffs (evaluate reads them: utility's
#: coefficients, gains, rbp's p, relstring's length).
_PARAMETERS = getattr(_evaluation, "TREC_EVAL_PARAMETERS", {})


def _computed(measure: TrecMeasure) -> bool:
    """Whether :func:`evalkit.evaluate` computes this measure (its registry may grow)."""
    if measure.kind == SPECIAL and measure.evalkit is None:
        return measure.name in ("runid", "num_q")
    if measure.evalkit is not None:
        return measure.evalkit in _evaluation.METRICS
    return False
#: The measures evalkit computes, in trec_eval's printing order.
SUPPORTED = [m for m in ALL_MEASURES if _computed(m)]
BY_NAME = {m.name: m for m in SUPPORTED}
#: trec_eval's qrels measures that evalkit does not compute (``all_trec`` leaves them out).
NOT_COMPUTED = [m.name for m in ALL_MEASURES if not _computed(m)]
OTHER_TREC_EVAL = [
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
    "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
    "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
    "prefs_avgjg_imp", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "yaap",
]
_OFFICIAL = ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
             "bpref", "recip_rank", "iprec_at_recall", "P"]
_ALL_TREC_9 = ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
               "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "relstring", "recall",
               "infAP", "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P", "Rprec_mult",
               "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P",
               "set_recall", "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret"]
_ALL_TREC_10 = (_ALL_TREC_9[:14] + ["unj", "rbp", "rbp_resid"] + _ALL_TREC_9[14:])
_SET = ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
        "set_recall", "set_relative_P", "set_map", "set_F"]
_PREFS = ["all_prefs", "prefs", "qrels_jg"]
NICKNAMES = {"official": _OFFICIAL, "all_trec": _ALL_TREC_10, "set": _SET}
_NICKNAMES = {"10.0": NICKNAMES, "9.0.8": {"official": _OFFICIAL, "all_trec": _ALL_TREC_9,
                                          "set": _SET}}

