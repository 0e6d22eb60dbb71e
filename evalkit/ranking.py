r"""Measures of one ranked list: P@k, recall@k, R-precision, AP, RR, the P-R curve, DCG/nDCG.

Every function takes ``relevance``: the relevance grades of the retrieved documents in rank
order, top first (0 = not relevant). A document counts as relevant when its grade is at least
``relevance_level`` (default 1), as with trec_eval's ``-l``. Negative grades (trec_eval reads -1
as "in the pool but not judged") are never relevant and carry no gain.

``n_relevant`` is R, the number of relevant documents the query has in the whole collection.
By default it is the number of relevant documents in the list, which is right only when every
relevant document was retrieved. trec_eval always takes R from the qrels: pass it when some
relevant documents were missed (``evalkit.trec.evaluate`` does this for whole runs).

The definitions follow trec_eval (``m_P.c``, ``m_map.c``, ``m_Rprec.c``, ``m_recip_rank.c``,
``m_iprec_at_recall.c``, ``m_ndcg.c``); where textbooks differ, a keyword names the choice.

Each formula is written once, in the measure of :mod:`evalkit.trec._measures` that
:func:`evalkit.trec.evaluate` runs on whole runs: a function here checks its arguments, makes
the list a run of one query (:meth:`~evalkit.trec._measures.JudgedRun.from_grades`), and
returns that measure's one value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ._docs import DCG_FORMULAS, DCG_TIES, fill_doc
from ._ranking_core import (
    DCG_VARIANTS,
    ELEVEN_POINTS,
    INTERPOLATION_CONVENTIONS,
    TIES,
    is_relevant,
    precision_recall_by_rank,
)
from ._validation import (
    check_1d,
    check_grades,
    check_option,
    check_ranked_scores,
    check_scalar,
    check_zero_division,
    keyword_only,
)
from .trec._measures import JudgedRun as _JudgedRun
from .trec._measures import average_precision as _batch_average_precision
from .trec._measures import dcg as _batch_dcg
from .trec._measures import eleven_point_average as _batch_eleven_point_average
from .trec._measures import interpolated_precision as _batch_interpolated_precision
from .trec._measures import ndcg as _batch_ndcg
from .trec._measures import precision as _batch_precision
from .trec._measures import r_precision as _batch_r_precision
from .trec._measures import recall as _batch_recall
from .trec._measures import reciprocal_rank as _batch_reciprocal_rank

__all__ = [
    "AP_DENOMINATORS",
    "DCG_VARIANTS",
    "ELEVEN_POINTS",
    "INTERPOLATION_CONVENTIONS",
    "TIES",
    "precision_at_k",
    "recall_at_k",
    "r_precision",
    "average_precision",
    "reciprocal_rank",
    "precision_recall_points",
    "interpolated_precision",
    "eleven_point_average",
    "dcg",
    "ndcg",
]

AP_DENOMINATORS = ("n_relevant", "retrieved_relevant")


# ---------------------------------------------------------------------------------------------
# Argument checks shared by the functions below
# ---------------------------------------------------------------------------------------------


def _level(relevance_level: Any) -> float:
    return check_scalar(relevance_level, "relevance_level", kind="real")


def _cutoff(k: Any, name: str = "k") -> int:
    return check_scalar(k, name, kind="int", low=1)


def _n_relevant(n_relevant: Any, found: int) -> int:
    """R: given, or the relevant documents in the list; never fewer than the list holds."""
    if n_relevant is None:
        return found
    total = check_scalar(n_relevant, "n_relevant", kind="int", low=0)
    if total < found:
        raise ValueError(
            f"n_relevant is {total}, but the ranking already holds {found} relevant "
            "documents; n_relevant counts every relevant document of the query"
        )
    return total


def _one_query(relevance: Any, relevance_level: Any, n_relevant: Any = None
               ) -> _JudgedRun:
    """The ranked list as a run of one query, its grades, level and R checked."""
    grades, level = check_grades(relevance), _level(relevance_level)
    found = int(np.count_nonzero(is_relevant(grades, level)))
    return _JudgedRun.from_grades(grades, level, n_relevant=_n_relevant(n_relevant, found))


def _value(per_query: np.ndarray) -> float:
    """The one query's value."""
    return float(per_query[0])


# ---------------------------------------------------------------------------------------------
# Binary measures
# ---------------------------------------------------------------------------------------------


@keyword_only
def precision_at_k(relevance: Any, *, k: int, relevance_level: float = 1) -> float:
    r"""Precision at rank k: the share of the top k documents that are relevant.

    .. math::

        P@k = \frac{1}{k} \sum_{i=1}^{k} [\mathrm{rel}_i \ge \ell]

    A list shorter than k counts as padded with non-relevant documents, so P@10 of a list of 5
    divides by 10, as trec_eval's ``P_10`` does.

    Parameters
    ----------
    relevance : array-like of numbers
        Relevance grades in rank order, top first.
    k : int
        The cutoff rank, >= 1.
    relevance_level : number, default 1
        Grades at or above this count as relevant (trec_eval ``-l``).

    Returns
    -------
    float

    References
    ----------
    Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to Information Retrieval,
    section 8.4. Cambridge University Press.

    Examples
    --------
    Five results, two of them relevant:

    >>> precision_at_k([1, 0, 0, 1, 0], k=5)
    0.4
    >>> precision_at_k([1, 0, 0, 1, 0], k=10)  # padded with non-relevant documents
    0.2
    """
    k = _cutoff(k)
    return _value(_batch_precision(_one_query(relevance, relevance_level), k))


@keyword_only
def recall_at_k(
    relevance: Any,
    *,
    k: int,
    n_relevant: int | None = None,
    relevance_level: float = 1,
    zero_division: Any = "warn",
) -> float:
    r"""Recall at rank k: the share of the query's R relevant documents found in the top k.

    .. math::

        R@k = \frac{1}{R} \sum_{i=1}^{k} [\mathrm{rel}_i \ge \ell]

    Parameters
    ----------
    relevance : array-like of numbers
        Relevance grades in rank order, top first.
    k : int
        The cutoff rank, >= 1.
    n_relevant : int, optional
        R, the query's relevant documents in the collection; default: those in the list.
    relevance_level : number, default 1
        Grades at or above this count as relevant.
    zero_division : "warn", 0.0, 1.0 or np.nan, default "warn"
        The value when R = 0 ("warn": 0.0 with a warning; trec_eval reports 0).

    Returns
    -------
    float

    References
    ----------
    Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to Information Retrieval,
    section 8.4. Cambridge University Press.

    Examples
    --------
    >>> recall_at_k([1, 0, 0, 1, 0], k=3, n_relevant=4)
    0.25
    """
    k = _cutoff(k)
    zero_division = check_zero_division(zero_division)
    run = _one_query(relevance, relevance_level, n_relevant)
    return _value(_batch_recall(run, k, zero_division=zero_division))


@keyword_only
def r_precision(
    relevance: Any,
    *,
    n_relevant: int | None = None,
    relevance_level: float = 1,
    zero_division: Any = "warn",
) -> float:
    r"""R-precision: precision at rank R, where R is the number of relevant documents.

    .. math::

        \mathrm{R\text{-}prec} = \frac{1}{R} \sum_{i=1}^{R} [\mathrm{rel}_i \ge \ell]

    At rank R precision equals recall, so R-precision is also the break-even point of the two.

    Parameters
    ----------
    relevance : array-like of numbers
        Relevance grades in rank order, top first.
    n_relevant : int, optional
        R, the query's relevant documents in the collection; default: those in the list.
    relevance_level : number, default 1
        Grades at or above this count as relevant.
    zero_division : "warn", 0.0, 1.0 or np.nan, default "warn"
        The value when R = 0 (trec_eval reports 0).

    Returns
    -------
    float

    References
    ----------
    Buckley, C. and Voorhees, E. M. (2000). Evaluating evaluation measure stability.
    Proceedings of SIGIR 2000, 33–40.

    Examples
    --------
    Four relevant documents, two of them in the top four:

    >>> r_precision([1, 0, 1, 0, 0, 0, 0, 0, 1, 1])
    0.5
    """
    zero_division = check_zero_division(zero_division)
    run = _one_query(relevance, relevance_level, n_relevant)
    return _value(_batch_r_precision(run, None, zero_division=zero_division))


@keyword_only
def average_precision(
    relevance: Any,
    *,
    n_relevant: int | None = None,
    k: int | None = None,
    relevance_level: float = 1,
    denominator: str = "n_relevant",
    zero_division: Any = "warn",
) -> float:
    r"""Average precision: the mean of the precisions at the ranks of the relevant documents.

    .. math::

        \mathrm{AP} = \frac{1}{R} \sum_{i=1}^{n} [\mathrm{rel}_i \ge \ell]\, P@i

    A relevant document that was never retrieved contributes a precision of 0, because the sum
    is divided by all R relevant documents (trec_eval's ``map``). With a cutoff ``k`` only the
    top k count, and the sum is still divided by R (trec_eval's ``map_cut``).

    Some textbooks and course notes divide by the relevant documents *retrieved* instead; that
    is ``denominator="retrieved_relevant"``. It rewards a system that retrieves one relevant
    document at rank 1 and nothing else with a perfect 1.0.

    Parameters
    ----------
    relevance : array-like of numbers
        Relevance grades in rank order, top first.
    n_relevant : int, optional
        R, the query's relevant documents in the collection; default: those in the list.
    k : int, optional
        Only the top k documents count (AP@k).
    relevance_level : number, default 1
        Grades at or above this count as relevant.
    denominator : {"n_relevant", "retrieved_relevant"}, default "n_relevant"
        Divide by R (trec_eval) or by the relevant documents in the (cut) list.
    zero_division : "warn", 0.0, 1.0 or np.nan, default "warn"
        The value when the denominator is 0 (trec_eval reports 0).

    Returns
    -------
    float

    References
    ----------
    Buckley, C. and Voorhees, E. M. (2000). Evaluating evaluation measure stability.
    Proceedings of SIGIR 2000, 33–40.
    Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to Information Retrieval,
    section 8.4. Cambridge University Press.

    Examples
    --------
    Relevant documents at ranks 1, 3 and 6, and two more that were never retrieved:

    >>> round(average_precision([1, 0, 1, 0, 0, 1], n_relevant=5), 4)
    0.4333
    >>> round(average_precision([1, 0, 1, 0, 0, 1], denominator="retrieved_relevant"), 4)
    0.7222
    """
    denominator = check_option(denominator, "denominator", AP_DENOMINATORS)
    zero_division = check_zero_division(zero_division)
    k = None if k is None else _cutoff(k)
    run = _one_query(relevance, relevance_level, n_relevant)
    return _value(_batch_average_precision(run, k, denominator=denominator,
                                             zero_division=zero_division))


@keyword_only
def reciprocal_rank(relevance: Any, *, k: int | None = None, relevance_level: float = 1) -> float:
    r"""Reciprocal rank: 1 / the rank of the first relevant document, 0 when there is none.

    .. math::

        \mathrm{RR} = \frac{1}{\min\{i : \mathrm{rel}_i \ge \ell\}}

    The mean over queries is MRR. With a cutoff ``k`` a first relevant document below rank k
    scores 0 (RR@k).

    Parameters
    ----------
    relevance : array-like of numbers
        Relevance grades in rank order, top first.
    k : int, optional
        Only the top k documents count.
    relevance_level : number, default 1
        Grades at or above this count as relevant.

    Returns
    -------
    float

    References
    ----------
    Voorhees, E. M. (1999). The TREC-8 question answering track report. Proceedings of
    TREC-8, 77–82.

    Examples
    --------
    >>> reciprocal_rank([0, 0, 1, 0, 1])
    0.3333333333333333
    >>> reciprocal_rank([0, 0, 1, 0, 1], k=2)
    0.0
    """
    k = None if k is None else _cutoff(k)
    return _value(_batch_reciprocal_rank(_one_query(relevance, relevance_level), k))


# ---------------------------------------------------------------------------------------------
# The precision-recall curve
# ---------------------------------------------------------------------------------------------


@keyword_only
def precision_recall_points(
    relevance: Any, *, n_relevant: int | None = None, relevance_level: float = 1
) -> pd.DataFrame:
    r"""Precision and recall after each rank: the points of the precision-recall curve.

    .. math::

        P@i = \frac{1}{i}\sum_{j \le i} [\mathrm{rel}_j \ge \ell], \qquad
        R@i = \frac{1}{R}\sum_{j \le i} [\mathrm{rel}_j \ge \ell]

    Parameters
    ----------
    relevance : array-like of numbers
        Relevance grades in rank order, top first.
    n_relevant : int, optional
        R, the query's relevant documents in the collection; default: those in the list.
    relevance_level : number, default 1
        Grades at or above this count as relevant.

    Returns
    -------
    pandas.DataFrame
        One row per rank with columns ``rank`` (from 1), ``relevant`` (bool), ``precision``
        and ``recall`` (NaN when R = 0).

    References
    ----------
    Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to Information Retrieval,
    section 8.4. Cambridge University Press.

    Examples
    --------
    >>> precision_recall_points([1, 0, 1], n_relevant=4).round(3)
       rank  relevant  precision  recall
    0     1      True      1.000    0.25
    1     2     False      0.500    0.25
    2     3      True      0.667    0.50
    """
    relevant = is_relevant(check_grades(relevance), _level(relevance_level))
    total = _n_relevant(n_relevant, int(np.count_nonzero(relevant)))
    ranks, precision, recall = precision_recall_by_rank(relevant, total)
    return pd.DataFrame(
        {"rank": ranks, "relevant": relevant, "precision": precision, "recall": recall}
    )


@keyword_only
def interpolated_precision(
    relevance: Any,
    *,
    recall_levels: Any = None,
    n_relevant: int | None = None,
    relevance_level: float = 1,
    convention: str = "textbook",
) -> np.ndarray:
    r"""Interpolated precision: the best precision at any recall at or above each level.

    .. math::

        P_{\mathrm{interp}}(r) = \max_{i \,:\, R@i \,\ge\, r} P@i

    and 0 when the list never reaches recall r. The default levels 0.0, 0.1, …, 1.0 give the
    classic 11-point curve (trec_eval's ``iprec_at_recall``); their mean is 11-point average
    precision.

    Recall only moves in steps of 1/R, so each level is in effect turned into a number c of
    relevant documents: the value is the best precision at or below the rank of the c-th
    relevant document. Tools turn levels into counts differently:

    - ``"textbook"`` (default): the smallest c with recall :math:`c / R \ge r`, the formula
      above (Manning et al. 2008, section 8.4);
    - ``"trec_eval"``: trec_eval 9, the version pytrec_eval bundles and what
      :func:`evalkit.trec.evaluate` reports as ``IPrec@r``:
      :math:`c = (\mathrm{long})(rR + 0.9)`, truncated in floating point. For R = 3 and
      r = 0.7, 0.7 × 3 + 0.9 = 2.9999…, so c = 2 (recall 0.67 < 0.7);
    - ``"trec_eval_10"``: trec_eval 10 rounds to the nearest count, :math:`c =
      \mathrm{lround}(rR)`; for R = 3 and r = 0.4 that is c = 1 (recall 0.33 < 0.4).

    A count of 0 (level 0, or a small level that rounds to 0) means the first relevant
    document.

    Parameters
    ----------
    relevance : array-like of numbers
        Relevance grades in rank order, top first.
    recall_levels : array-like of floats in [0, 1], optional
        Default: 0.0, 0.1, …, 1.0.
    n_relevant : int, optional
        R, the query's relevant documents in the collection; default: those in the list.
    relevance_level : number, default 1
        Grades at or above this count as relevant.
    convention : {"textbook", "trec_eval", "trec_eval_10"}, default "textbook"
        How a recall level becomes a count of relevant documents (see above).

    Returns
    -------
    ndarray of float, one value per recall level (all 0 when R = 0, as trec_eval)

    References
    ----------
    Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to Information Retrieval,
    section 8.4. Cambridge University Press.
    NIST. trec_eval, ``m_iprec_at_recall.c`` (versions 9 and 10).
    https://github.com/usnistgov/trec_eval

    Examples
    --------
    Relevant documents at ranks 1, 3 and 7 (R = 3): precision 1, 2/3 and 3/7 there.

    >>> ranking = [1, 0, 1, 0, 0, 0, 1]
    >>> levels = [0.3, 0.4, 0.7, 0.8]
    >>> interpolated_precision(ranking, recall_levels=levels).round(4)
    array([1.    , 0.6667, 0.4286, 0.4286])
    >>> interpolated_precision(ranking, recall_levels=levels, convention="trec_eval").round(4)
    array([1.    , 0.6667, 0.6667, 0.4286])
    >>> interpolated_precision(ranking, recall_levels=levels, convention="trec_eval_10").round(4)
    array([1.    , 1.    , 0.6667, 0.6667])
    """
    convention = check_option(convention, "convention", INTERPOLATION_CONVENTIONS)
    run = _one_query(relevance, relevance_level, n_relevant)
    if recall_levels is None:
        levels = ELEVEN_POINTS.copy()
    else:
        levels = check_1d(recall_levels, "recall_levels").astype(np.float64)
        if np.isnan(levels).any() or (levels < 0).any() or (levels > 1).any():
            raise ValueError(f"recall_levels must lie in [0, 1]; got {levels.tolist()}")
    return _batch_interpolated_precision(run, levels, convention=convention)[:, 0]


@keyword_only
def eleven_point_average(
    relevance: Any,
    *,
    n_relevant: int | None = None,
    relevance_level: float = 1,
    convention: str = "textbook",
) -> float:
    r"""11-point interpolated average precision: the mean of the interpolated precision at
    recall 0.0, 0.1, …, 1.0.

    .. math::

        \mathrm{11pt} = \frac{1}{11} \sum_{r \in \{0, 0.1, \ldots, 1\}} P_{\mathrm{interp}}(r)

    with :math:`P_{\mathrm{interp}}` from :func:`interpolated_precision` under the same
    ``convention`` (trec_eval's ``11pt_avg`` is the ``"trec_eval"`` convention, and
    :func:`evalkit.evaluate` reports it as ``IPrecAvg``). 0 when R = 0, as trec_eval.

    Parameters
    ----------
    relevance : array-like of numbers
        Relevance grades in rank order, top first.
    n_relevant : int, optional
        R, the query's relevant documents in the collection; default: those in the list.
    relevance_level : number, default 1
        Grades at or above this count as relevant.
    convention : {"textbook", "trec_eval", "trec_eval_10"}, default "textbook"
        How a recall level becomes a count of relevant documents (see
        :func:`interpolated_precision`).

    Returns
    -------
    float

    References
    ----------
    Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to Information Retrieval,
    section 8.4. Cambridge University Press.
    NIST. trec_eval, ``m_11pt_avg.c``. https://github.com/usnistgov/trec_eval

    Examples
    --------
    Relevant documents at ranks 1, 3 and 7 (R = 3): interpolated precision 1 up to recall 1/3,
    2/3 up to 2/3 and 3/7 above, so (4 × 1 + 3 × 2/3 + 4 × 3/7) / 11 = 0.7013.

    >>> round(eleven_point_average([1, 0, 1, 0, 0, 0, 1]), 4)
    0.7013

    trec_eval's counts keep 2/3 up to recall 0.7 (0.7 × 3 + 0.9 truncates to 2), so
    (4 × 1 + 4 × 2/3 + 3 × 3/7) / 11:

    >>> round(eleven_point_average([1, 0, 1, 0, 0, 0, 1], convention="trec_eval"), 4)
    0.7229
    """
    convention = check_option(convention, "convention", INTERPOLATION_CONVENTIONS)
    run = _one_query(relevance, relevance_level, n_relevant)
    return _value(_batch_eleven_point_average(run, None, convention=convention))


# ---------------------------------------------------------------------------------------------
# Graded relevance: DCG and nDCG
# ---------------------------------------------------------------------------------------------


def _graded_run(gains: Any, k: Any, variant: Any, scores: Any, ties: Any, ideal: Any = None
                ) -> tuple[_JudgedRun, int | None, str, str]:
    """The list as a run of one query (with its tie blocks for ``ties="average"``), and the
    checked cutoff, variant and tie rule."""
    grades = check_grades(gains, "gains")
    variant, ties = check_option(variant, "variant", DCG_VARIANTS), check_option(ties, "ties", TIES)
    if scores is None and ties == "average":
        raise ValueError("ties='average' needs scores, the score of each document in gains")
    tied = None if scores is None else check_ranked_scores(scores, "scores", gains=grades)
    run = _JudgedRun.from_grades(grades, 1.0, None if ideal is None else check_grades(
        ideal, "ideal"), scores=tied if ties == "average" else None)
    return run, None if k is None else _cutoff(k), variant, ties


@keyword_only
@fill_doc(formulas=DCG_FORMULAS, ties=DCG_TIES)
def dcg(gains: Any, *, k: int | None = None, variant: str = "trec", scores: Any = None,
        ties: str = "trec_eval") -> float:
    r"""Discounted cumulative gain of a ranked list of graded relevance values.

    {{formulas}}

    Parameters
    ----------
    gains : array-like of numbers
        Graded relevance in rank order, top first (e.g. 0–3).
    k : int, optional
        Only the top k documents count (DCG@k); default: the whole list.
    variant : {"trec", "exponential", "jarvelin"}, default "trec"
        The gain and discount convention (see above).
    {{ties}}

    Returns
    -------
    float

    References
    ----------
    Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation of IR techniques.
    ACM Transactions on Information Systems 20(4), 422–446.
    Burges, C. et al. (2005). Learning to rank using gradient descent. Proceedings of ICML
    2005, 89–96.
    McSherry, F. and Najork, M. (2008). Computing information retrieval performance measures
    efficiently in the presence of tied scores. Proceedings of ECIR 2008, 414–421.

    Examples
    --------
    >>> round(dcg([2, 1, 0, 2, 0], variant="jarvelin"), 2)
    4.0
    >>> round(dcg([2, 1, 0, 2, 0]), 2)  # trec_eval and scikit-learn
    3.49

    Tied ranks 2 and 3 share their discounts: 3 + 2 (1/log2 3 + 1/log2 4)/2 + 1/log2 5.

    >>> round(dcg([3, 2, 0, 1], scores=[0.9, 0.5, 0.5, 0.1], ties="average"), 4)
    4.5616
    """
    run, k, variant, ties = _graded_run(gains, k, variant, scores, ties)
    return _value(_batch_dcg(run, k, variant=variant, ties=ties))


@keyword_only
@fill_doc(formulas=DCG_FORMULAS, ties=DCG_TIES)
def ndcg(
    gains: Any,
    *,
    k: int | None = None,
    variant: str = "trec",
    ideal: Any = None,
    scores: Any = None,
    ties: str = "trec_eval",
    zero_division: Any = "warn",
) -> float:
    r"""Normalised DCG: DCG divided by the DCG of the best possible ranking (IDCG).

    {{formulas}}

    .. math::

        \mathrm{nDCG@k} = \frac{\mathrm{DCG@k}}{\mathrm{IDCG@k}}

    IDCG@k is the DCG@k of the ideal ranking: all the query's judged grades sorted from high
    to low. trec_eval builds it from the qrels, not from what was retrieved, so pass the
    query's judged grades as ``ideal``. By default the ideal is built from ``gains`` itself,
    which flatters a system that missed highly relevant documents.

    Parameters
    ----------
    gains : array-like of numbers
        Graded relevance in rank order, top first.
    k : int, optional
        Only the top k documents count, in the ranking and in the ideal.
    variant : {"trec", "exponential", "jarvelin"}, default "trec"
        The gain and discount convention.
    ideal : array-like of numbers, optional
        All judged grades of the query, in any order; default: the grades in ``gains``.
        Ties in the run do not change the ideal DCG.
    {{ties}}
    zero_division : "warn", 0.0, 1.0 or np.nan, default "warn"
        The value when IDCG = 0, i.e. the query has no relevant document (trec_eval: 0).

    Returns
    -------
    float

    References
    ----------
    Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation of IR techniques.
    ACM Transactions on Information Systems 20(4), 422–446.
    McSherry, F. and Najork, M. (2008). Computing information retrieval performance measures
    efficiently in the presence of tied scores. Proceedings of ECIR 2008, 414–421.

    Examples
    --------
    >>> round(ndcg([2, 1, 0, 2, 0], variant="jarvelin"), 2)
    0.86
    >>> round(ndcg([2, 1, 0, 2, 0], ideal=[2, 2, 1, 3, 0, 0]), 3)  # a grade-3 document missed
    0.613
    >>> round(ndcg([2, 1, 0], scores=[5, 5, 1], ties="average"), 4)  # 1.0 untied
    0.9299
    """
    run, k, variant, ties = _graded_run(gains, k, variant, scores, ties, ideal)
    zero_division = check_zero_division(zero_division)
    return _value(_batch_ndcg(run, k, variant=variant, zero_division=zero_division, ties=ties))
