r"""trec_eval's conventions for ranked lists, the terms every ranking measure is built from.

The measures of :mod:`evalkit.trec._measures` apply these rules to the rows of every query at
once and add them up per query (``np.bincount``); :mod:`evalkit.ranking`'s single-list
functions call those measures on a run of one query, and :mod:`evalkit.plots` draws the terms.
Every function is element-wise over numpy arrays, trusts its inputs (the public functions
validate) and states the convention it encodes and where trec_eval writes it.

- What counts as relevant: a grade at or above the relevance level, never a negative grade
  (``form_res_rels.c``: -1 means "pooled but not judged").
- The cutoff rule: ranks are 1-based, the top k are ranks 1..k, and a list shorter than k
  counts as padded with non-relevant documents (``m_P.c``: P@k always divides by k).
- The precision at the rank of each relevant document, the terms of AP and of interpolation.
- DCG's gain and discount (``m_ndcg.c``: gain = grade, discount = log2(rank + 1)).
- How a recall level becomes a number of relevant documents for interpolated precision
  (``m_iprec_at_recall.c``; it changed between trec_eval 9 and 10).
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "DCG_VARIANTS",
    "ELEVEN_POINTS",
    "INTERPOLATION_CONVENTIONS",
    "TIES",
    "discount",
    "discounted_gain",
    "gain",
    "is_relevant",
    "precision_at_relevant",
    "precision_recall_by_rank",
    "relevant_needed",
    "within_cutoff",
]

DCG_VARIANTS = ("trec", "exponential", "jarvelin")
INTERPOLATION_CONVENTIONS = ("textbook", "trec_eval", "trec_eval_10")
#: How DCG treats documents of equal score: ``"trec_eval"`` gives each its own rank
#: (trec_eval's order, ties broken by doc_id descending; in one list, the list's order);
#: ``"average"`` gives each tied document the mean discount of the ranks its block of ties
#: occupies, its expected term over every order of the block (McSherry & Najork 2008).
TIES = ("trec_eval", "average")
#: The recall levels of the 11-point curve (trec_eval's ``iprec_at_recall`` and ``11pt_avg``):
#: 0.0, 0.1, …, 1.0.
ELEVEN_POINTS = np.round(np.linspace(0.0, 1.0, 11), 1)


def is_relevant(grades: np.ndarray, relevance_level: float) -> np.ndarray:
    """Relevant: grade >= the level and not negative (trec_eval ``-l`` and ``form_res_rels.c``)."""
    return (grades >= relevance_level) & (grades >= 0)


def within_cutoff(ranks: np.ndarray, k: float | None) -> np.ndarray:
    """Whether each 1-based rank is in the top k (every rank when k is None).

    Measures "at k" that divide by k (P@k) count the ranks a short list lacks as non-relevant;
    this mask only says which retrieved ranks count.
    """
    if k is None:
        return np.ones(np.shape(ranks), dtype=bool)
    return ranks <= k


def precision_at_relevant(found: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """P@i at the rank i of the found-th relevant document: found / i (AP's terms)."""
    return found / ranks


def precision_recall_by_rank(relevant: np.ndarray, n_relevant: int
                             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The points of one list's precision-recall curve: each 1-based rank, P@rank and R@rank
    (recall NaN when R = 0)."""
    hits = np.cumsum(relevant)
    ranks = np.arange(1, relevant.size + 1)
    recall = hits / n_relevant if n_relevant else np.full(relevant.size, np.nan)
    return ranks, precision_at_relevant(hits, ranks), recall


def gain(grades: np.ndarray, variant: str) -> np.ndarray:
    """DCG's gain of a grade: the grade (trec, jarvelin) or 2^grade - 1 (exponential).

    Negative grades carry no gain, as in trec_eval's ``m_ndcg.c``.
    """
    grades = np.maximum(grades, 0.0)
    if variant == "exponential":
        return 2.0**grades - 1.0
    return grades.astype(np.float64, copy=False)


def discount(ranks: np.ndarray, variant: str) -> np.ndarray:
    """DCG's discount of a 1-based rank: log2(rank + 1), or log2(max(rank, 2)) for jarvelin.

    Järvelin & Kekäläinen (2002) with log base 2 leave ranks 1 and 2 undiscounted.
    """
    ranks = np.asarray(ranks, dtype=np.float64)
    if variant == "jarvelin":
        return np.log2(np.maximum(ranks, 2.0))
    return np.log2(ranks + 1.0)


def discounted_gain(grades: np.ndarray, ranks: np.ndarray, variant: str = "trec") -> np.ndarray:
    """Each document's term of DCG: gain(grade) / discount(rank)."""
    return gain(grades, variant) / discount(ranks, variant)


def relevant_needed(recall_levels: np.ndarray, n_relevant: np.ndarray,
                    convention: str) -> np.ndarray:
    r"""How many relevant documents must be retrieved to reach each recall level (at least 1).

    Interpolated precision at level r is the best precision at or below the rank of this
    relevant document (0 when fewer relevant documents were retrieved). The conventions:

    - ``"textbook"``: the smallest count c with recall c / R >= r, computed in floating point
      as a reader computes recall (Manning et al. 2008, section 8.4);
    - ``"trec_eval"``: trec_eval 9, :math:`(\text{long})(rR + 0.9)`, C truncation in double
      precision: 0.7 × 3 + 0.9 is 2.9999…, so level 0.7 needs 2 of R = 3;
    - ``"trec_eval_10"``: trec_eval 10, ``lround(r R)``, halves rounded away from zero.

    Level 0 (and any level that rounds to 0) needs the first relevant document.
    """
    levels = np.asarray(recall_levels, dtype=np.float64)
    total = np.asarray(n_relevant)
    scaled = levels * total
    if convention == "trec_eval":
        needed = (scaled + 0.9).astype(np.int64)
    elif convention == "trec_eval_10":
        whole = np.floor(scaled)
        needed = (whole + (scaled - whole >= 0.5)).astype(np.int64)
    else:
        # ceil(r R) can be one off from the float comparison c / R >= r: correct both ways.
        divisor = np.maximum(total, 1)
        needed = np.ceil(scaled).astype(np.int64)
        needed = np.where((needed - 1) / divisor >= levels, needed - 1, needed)
        needed = np.where(needed / divisor < levels, needed + 1, needed)
    return np.maximum(needed, 1)
