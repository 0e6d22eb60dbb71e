r"""Incomplete judgements: a pool of runs to a depth (:func:`pool`) and judgements removed at
random (:func:`sample_qrels`), the two ways a test collection's qrels fall short of judging
every document.

TREC judges, per topic, the union of the top ``depth`` documents of each submitted run (the
pool); a document outside it is unjudged and :func:`evaluate` counts it as not relevant
(Voorhees & Harman 2005, ch. 3). :func:`pool` builds that set from runs ranked as trec_eval
ranks them, so the qrels of a shallower pool are the judgements of its documents.
:func:`sample_qrels` keeps a random share of each query's judgements: the experiment of
Buckley & Voorhees (2004) and, with the rest marked -1 ("pooled but not judged"), the sampled
pool that infAP assumes (Yilmaz & Aslam 2006).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from .._factorize import factorize
from .._validation import check_option, check_scalar, check_seed, keyword_only
from ._measures import group_positions
from ._ordering import _trec_order
from ._pairs import _check_pair_duplicates
from ._parsing import _read_qrels, _read_run
from ._tables import _as_table, _qrels_arrays, _run_arrays

__all__ = ["pool", "sample_qrels", "UNJUDGED"]

#: What :func:`sample_qrels` does with the judgements it removes.
UNJUDGED = ("drop", "mark")


def _run_list(runs: Any) -> list[Any]:
    if isinstance(runs, pd.DataFrame):
        return [runs]
    if isinstance(runs, Mapping):
        runs = list(runs.values())
    elif isinstance(runs, (list, tuple)):
        runs = list(runs)
    else:
        raise TypeError(f"runs must be a run (DataFrame or path), or a list or dict of runs; "
                        f"got {type(runs).__name__}")
    if not runs:
        raise ValueError("runs is empty; give at least one run")
    return runs


@keyword_only
def pool(runs: Any, *, depth: int) -> pd.DataFrame:
    r"""The pool of a set of runs: each query's documents in the top ``depth`` of any run.

    For query :math:`q`, with :math:`\mathrm{rank}_s(d)` the rank of document :math:`d` in run
    :math:`s` (trec_eval's order: score descending, ties by doc_id descending),

    .. math::

        \mathrm{Pool}_k(q) = \bigcup_{s} \{d : \mathrm{rank}_s(d) \le k\}.

    Parameters
    ----------
    runs : pandas.DataFrame, path, or list or dict of them
        Runs with columns ``query_id``, ``doc_id``, ``score`` (see :func:`read_run`); a
        dict's values are the runs.
    depth : int
        How deep each run is pooled (>= 1); TREC pools often went to 100.

    Returns
    -------
    pandas.DataFrame
        One row per pooled (query, document), sorted by query_id and doc_id, with the columns
        ``query_id``, ``doc_id``, ``rank`` (the best rank any run gave the document: the pool
        to a smaller depth k is the rows with ``rank <= k``) and ``n_runs`` (how many runs
        have it in their top ``depth``).

    Raises
    ------
    ValueError
        For a depth below 1, an empty list of runs, missing columns, NaN scores, or a
        document listed twice for one query in a run.

    References
    ----------
    Sparck Jones, K. and van Rijsbergen, C. J. (1975). Report on the need for and provision
    of an "ideal" information retrieval test collection. British Library R&D Report 5266.
    Voorhees, E. M. and Harman, D. K., eds. (2005). TREC: Experiment and Evaluation in
    Information Retrieval, chapter 3. MIT Press.
    Zobel, J. (1998). How reliable are the results of large-scale information retrieval
    experiments? Proceedings of SIGIR 1998, 307-314.

    Examples
    --------
    >>> import pandas as pd
    >>> a = pd.DataFrame({"query_id": "1", "doc_id": ["x", "y", "z"], "score": [3, 2, 1]})
    >>> b = pd.DataFrame({"query_id": "1", "doc_id": ["w", "x", "y"], "score": [3, 2, 1]})
    >>> pool([a, b], depth=2)  # doctest: +NORMALIZE_WHITESPACE
      query_id doc_id  rank  n_runs
    0        1      w     1       1
    1        1      x     1       2
    2        1      y     2       1
    """
    depth = check_scalar(depth, "depth", kind="int", low=1)
    queries, docs, ranks = [], [], []
    for run in _run_list(runs):
        table = _as_table(run, "runs", _read_run)
        r_query, r_doc, r_score = _run_arrays(table)
        r_code, names = factorize(r_query)
        _check_pair_duplicates(r_code, r_doc, np.asarray(names, dtype=object), "run",
                               "retrieved twice")
        order = _trec_order(r_code, r_score, r_doc)
        rank = group_positions(r_code[order])
        top = rank <= depth
        queries.append(r_query[order][top])
        docs.append(r_doc[order][top])
        ranks.append(rank[top])
    # Grouped on numbers in the order of the ids (a groupby on str would number them with
    # pandas' own factorize, which cuts ids at a NUL before pandas 3: see evalkit._factorize).
    ids = {}
    for column, values in (("query_id", queries), ("doc_id", docs)):
        code, names = factorize(np.concatenate(values))
        # The distinct names sorted (Python's order of str, as groupby's) and each one's place.
        ordered, place = np.unique(np.asarray(names, dtype=object), return_inverse=True)
        ids[column] = (place.reshape(-1)[code], ordered)
    pooled = pd.DataFrame({"query_id": ids["query_id"][0], "doc_id": ids["doc_id"][0],
                           "rank": np.concatenate(ranks)})
    grouped = pooled.groupby(["query_id", "doc_id"], sort=True)["rank"]
    result = grouped.agg(["min", "size"]).reset_index()
    for column, (_, names) in ids.items():
        result[column] = names[result[column].to_numpy()]
    return result.rename(columns={"min": "rank", "size": "n_runs"}).astype(
        {"rank": np.int64, "n_runs": np.int64})


@keyword_only
def sample_qrels(qrels: Any, *, fraction: float, seed: Any = None,
                 unjudged: str = "drop") -> pd.DataFrame:
    r"""Keep a random share of each query's judgements, as if the rest had not been judged.

    For a query with :math:`n_q` judgements (negative grades included), a uniformly random
    subset of

    .. math::

        m_q = \lceil f \, n_q \rceil

    of them is kept (:math:`f` = ``fraction``), each query on its own, so every judged query
    keeps at least one judgement. With ``unjudged="drop"`` the others are removed (the
    documents become unjudged, absent from the qrels: Buckley & Voorhees 2004's reduced
    judgement sets); with ``unjudged="mark"`` they stay with grade -1, trec_eval's "in the pool
    but not judged", which infAP reads as a random sample of the pool (Yilmaz & Aslam 2006).

    Parameters
    ----------
    qrels : pandas.DataFrame or path
        Columns ``query_id``, ``doc_id``, ``relevance`` (see :func:`read_qrels`).
    fraction : float
        Share of each query's judgements to keep, in (0, 1].
    seed : None, int or numpy.random.Generator
        The random draw (see ``numpy.random.default_rng``).
    unjudged : {"drop", "mark"}, default "drop"
        What becomes of the judgements not kept.

    Returns
    -------
    pandas.DataFrame
        The qrels' columns, rows in the qrels' order: only the kept ones ("drop"), or every
        one with the removed grades set to -1 ("mark").

    Raises
    ------
    ValueError
        For a fraction outside (0, 1], an unknown ``unjudged``, missing columns or grades
        that are not whole numbers.

    References
    ----------
    Buckley, C. and Voorhees, E. M. (2004). Retrieval evaluation with incomplete
    information. Proceedings of SIGIR 2004, 25-32 (section 4).
    Yilmaz, E. and Aslam, J. A. (2006). Estimating average precision with incomplete and
    imperfect judgments. Proceedings of CIKM 2006, 102-111.

    Examples
    --------
    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"query_id": ["1"] * 4 + ["2"] * 2,
    ...                       "doc_id": ["a", "b", "c", "d", "a", "b"],
    ...                       "relevance": [1, 0, 2, 0, 1, 0]})
    >>> kept = sample_qrels(qrels, fraction=0.5, seed=0)
    >>> kept.groupby("query_id").size().tolist()
    [2, 1]
    >>> marked = sample_qrels(qrels, fraction=0.5, seed=0, unjudged="mark")
    >>> int((marked.relevance == -1).sum()), len(marked)
    (3, 6)
    """
    fraction = check_scalar(fraction, "fraction", low=0.0, high=1.0, low_inclusive=False)
    unjudged = check_option(unjudged, "unjudged", UNJUDGED)
    rng = check_seed(seed)
    qrels = _as_table(qrels, "qrels", _read_qrels)
    q_query, _, _ = _qrels_arrays(qrels)
    code, _ = factorize(q_query)
    # A random key per judgement; within each query the m_q smallest keys are kept.
    order = np.lexsort((rng.random(code.size), code))
    position = np.empty(code.size, dtype=np.int64)
    position[order] = group_positions(code[order])
    # Rounded first so that 0.3 x 10 (3.0000000000000004) keeps 3, not 4.
    keep_count = np.ceil(np.round(fraction * np.bincount(code), 9)).astype(np.int64)
    kept = position <= keep_count[code]
    if unjudged == "drop":
        return qrels[kept].reset_index(drop=True)
    result = qrels.copy()
    result["relevance"] = np.where(kept, result["relevance"].to_numpy(), -1)
    return result
