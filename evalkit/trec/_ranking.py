r"""A run's documents in trec_eval's order, with their judgements: :func:`trec_ranking`.

What every measure of :func:`evalkit.trec.evaluate` sees of a query, as a table a reader can
look at: each retrieved document's rank as trec_eval ranks it (score descending, ties by
doc_id descending; :mod:`evalkit.trec._ordering`, the engine's own order), its grade in the
qrels and whether it counts as relevant. The course's notebooks take a query's ranked grades
from here instead of sorting by hand.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import pandas as pd

from .._factorize import factorize, unique
from .._ranking_core import is_relevant
from .._validation import check_scalar, keyword_only
from ._measures import group_positions
from ._ordering import _trec_order
from ._pairs import _check_pair_duplicates
from ._parsing import _read_qrels, _read_run
from ._tables import _as_table, _qrels_arrays, _run_arrays

__all__ = ["trec_ranking", "RANKING_COLUMNS"]

#: The columns of :func:`trec_ranking`'s table, in order.
RANKING_COLUMNS = ("query_id", "rank", "doc_id", "score", "relevance", "judged", "relevant")


def _query_id(query_id: Any) -> str | None:
    """One query id as the tables hold it (str; a whole number becomes its digits)."""
    if query_id is None or isinstance(query_id, str):
        return query_id
    if isinstance(query_id, numbers.Integral) and not isinstance(query_id, bool):
        return str(query_id)
    raise TypeError(f"query_id must be a str (one query's id) or None (every query); got "
                    f"{type(query_id).__name__}")


@keyword_only
def trec_ranking(
    qrels: Any,
    run: Any,
    *,
    query_id: str | None = None,
    relevance_level: float = 1,
) -> pd.DataFrame:
    r"""A run's documents ranked as trec_eval ranks them, with their grades in the qrels.

    Within each query, document :math:`d` comes before :math:`d'` when

    .. math::

        s_d > s_{d'} \quad\text{or}\quad (s_d = s_{d'} \text{ and }
        \mathrm{id}_d > \mathrm{id}_{d'}),

    scores :math:`s` descending and ties broken by doc_id *descending*, compared byte by byte
    (C's ``strcmp``, Python's order of ``str``); the run's own rank column is ignored. This is
    the ranking every measure of :func:`evaluate` reads, from the same code.

    Parameters
    ----------
    qrels : pandas.DataFrame or path
        Columns ``query_id``, ``doc_id``, ``relevance`` (see :func:`read_qrels`).
    run : pandas.DataFrame or path
        Columns ``query_id``, ``doc_id``, ``score``; other columns are ignored (see
        :func:`read_run`).
    query_id : str, optional
        One query (a whole number is read as its digits); default: every query of the run.
    relevance_level : float, default 1
        Grades at or above it are relevant (trec_eval ``-l``).

    Returns
    -------
    pandas.DataFrame
        One row per retrieved document, query by query in the run's order of first
        appearance, each query in trec_eval's order, with the columns ``query_id``,
        ``rank`` (1-based), ``doc_id``, ``score``, ``relevance`` (the qrels grade, nullable
        ``Int64``: ``<NA>`` when the qrels do not list the document), ``judged`` (the qrels
        grade it 0 or more: a negative grade is trec_eval's "in the pool but not judged")
        and ``relevant`` (judged with a grade >= ``relevance_level``; unjudged documents
        count as not relevant, as in trec_eval). A query of the run that the qrels lack is
        listed, every document unjudged (:func:`evaluate` leaves such a query out).

    Raises
    ------
    ValueError
        For missing columns, NaN scores, non-integer grades, a document listed twice for one
        query, or a ``query_id`` the run does not have.

    References
    ----------
    NIST. trec_eval, ``trec_eval.c`` and ``form_res_rels.c`` (the ranking and the join with
    the qrels). https://github.com/usnistgov/trec_eval
    Voorhees, E. M. and Harman, D. K., eds. (2005). TREC: Experiment and Evaluation in
    Information Retrieval, chapter 3. MIT Press.

    Examples
    --------
    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b", "c"],
    ...                       "relevance": [2, 0, 1]})
    >>> run = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b", "c", "x"],
    ...                     "score": [0.5, 0.9, 0.5, 0.5]})
    >>> trec_ranking(qrels, run)  # doctest: +NORMALIZE_WHITESPACE
      query_id  rank doc_id  score  relevance  judged  relevant
    0        1     1      b    0.9          0    True     False
    1        1     2      x    0.5       <NA>   False     False
    2        1     3      c    0.5          1    True      True
    3        1     4      a    0.5          2    True      True

    The grades in rank order, unjudged as 0, are what the single-list functions take:

    >>> ranked = trec_ranking(qrels, run, query_id="1")
    >>> ranked.relevance.fillna(0).tolist()
    [0, 0, 1, 2]
    """
    wanted = _query_id(query_id)
    level = check_scalar(relevance_level, "relevance_level", kind="real")
    qrels = _as_table(qrels, "qrels", _read_qrels)
    run = _as_table(run, "run", _read_run)
    q_query, q_doc, q_grade = _qrels_arrays(qrels)
    r_query, r_doc, r_score = _run_arrays(run)
    if wanted is not None:
        keep = r_query == wanted
        if not keep.any():
            queries = unique(r_query)
            shown = ", ".join(map(repr, queries[:5]))
            raise ValueError(f"query_id {wanted!r} is not in the run (its queries: {shown}"
                             f"{', ...' if queries.size > 5 else ''})")
        r_query, r_doc, r_score = r_query[keep], r_doc[keep], r_score[keep]
    q_code, q_names = factorize(q_query)
    _check_pair_duplicates(q_code, q_doc, np.asarray(q_names, dtype=object), "qrels",
                           "judged twice")
    r_code, r_names = factorize(r_query)
    _check_pair_duplicates(r_code, r_doc, np.asarray(r_names, dtype=object), "run",
                           "retrieved twice")
    order = _trec_order(r_code, r_score, r_doc)
    query, doc, score = r_query[order], r_doc[order], r_score[order]
    # The (query, doc) pairs as numbers (a MultiIndex of str would number them with pandas'
    # own factorize, which cuts ids at a NUL before pandas 3: see evalkit._factorize).
    n_judged = q_query.size
    query_code = factorize(np.concatenate([q_query, query]))[0]
    doc_code = factorize(np.concatenate([q_doc, doc]))[0]
    found = pd.MultiIndex.from_arrays([query_code[:n_judged], doc_code[:n_judged]]).get_indexer(
        pd.MultiIndex.from_arrays([query_code[n_judged:], doc_code[n_judged:]]))
    listed = found >= 0
    grade = np.zeros(found.size, dtype=np.int64)
    grade[listed] = q_grade[found[listed]]
    judged = listed & (grade >= 0)
    return pd.DataFrame({
        "query_id": query,
        "rank": group_positions(r_code[order]),
        "doc_id": doc,
        "score": score,
        "relevance": pd.arrays.IntegerArray(grade, ~listed),
        "judged": judged,
        "relevant": listed & is_relevant(grade, level),
    })
