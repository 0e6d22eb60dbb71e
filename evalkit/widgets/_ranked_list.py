"""One ranked list with editable judgements: the state behind the DCG and relevance explorers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_grades, check_scalar
from ..ranking import (
    DCG_VARIANTS,
    dcg,
    interpolated_precision,
    ndcg,
    precision_recall_points,
)
from ._state import SettingsModel, check_changes, keyword_options


def _relevant_mask(grades: np.ndarray, relevance_level: float) -> np.ndarray:
    """Which ranks count as relevant, by the rule of :func:`evalkit.precision_recall_points`."""
    points = precision_recall_points(grades, relevance_level=relevance_level)
    return points["relevant"].to_numpy(dtype=bool)


@keyword_options
class _RankedList(SettingsModel):
    """One ranked list with editable relevance, and every measure of it.

    The shared state of :class:`evalkit.widgets.RelevanceModel` and
    :class:`evalkit.widgets.DCGModel`: the two explorers edit one kind of object (a click on a
    rank calls :meth:`toggle`, a reordering calls :meth:`move`) and differ in what they read
    from it, so each has its own subclass named after its explorer.

    Parameters
    ----------
    relevance : array-like of numbers
        Grades in rank order, top first.
    n_relevant : int, optional
        R. By default R is the number of relevant documents in the list (and follows toggles).
    ideal : array-like of numbers, optional
        All judged grades of the query, for nDCG; default: the grades in the list.
    relevance_level : number, default 1
        Grades at or above this count as relevant.
    k : int, default 5
        The cutoff of P@k, R@k and nDCG@k.
    doc_ids : list of str, optional
        Names of the documents, kept in step with :meth:`move`; default d1, d2, ...

    Examples
    --------
    >>> model = _RankedList([1, 0, 1, 0, 0, 0, 0, 0, 1, 1])
    >>> model.n_relevant
    4
    >>> model.toggle(2)  # rank 2 becomes relevant
    >>> model.n_relevant, model.relevant[:3].tolist()
    (5, [True, True, True])
    """

    def __init__(
        self,
        relevance: Any,
        *,
        n_relevant: int | None = None,
        ideal: Any = None,
        relevance_level: float = 1,
        k: int = 5,
        doc_ids: Any = None,
    ) -> None:
        relevance = check_grades(relevance, self._LIST_NAME)
        checked = check_changes({"k": k, "relevance_level": relevance_level, "ideal": ideal},
                                self._checks())
        if n_relevant is not None:
            n_relevant = check_scalar(n_relevant, "n_relevant", kind="int", low=0)
            found = int(_relevant_mask(relevance, checked["relevance_level"]).sum())
            if n_relevant < found:
                raise ValueError(
                    f"n_relevant is {n_relevant}, but the ranking already holds {found} "
                    "relevant documents; n_relevant counts every relevant document of the query"
                )
        if doc_ids is None:
            doc_ids = [f"d{i}" for i in range(1, relevance.size + 1)]
        doc_ids = [str(d) for d in doc_ids]
        if len(doc_ids) != relevance.size:
            raise ValueError(
                f"doc_ids and {self._LIST_NAME} have different lengths "
                f"({len(doc_ids)} != {relevance.size})"
            )
        self.relevance, self.doc_ids, self._fixed_n_relevant = relevance, doc_ids, n_relevant
        for name, value in checked.items():
            setattr(self, name, value)

    SETTINGS = ("k", "relevance_level", "ideal")
    #: The name of the list in messages: what the subclass's constructor calls it.
    _LIST_NAME = "relevance"

    @staticmethod
    def _checks() -> dict[str, Any]:
        return {
            "k": lambda v: check_scalar(v, "k", kind="int", low=1),
            "relevance_level": lambda v: check_scalar(v, "relevance_level"),
            "ideal": lambda v: None if v is None else check_grades(v, "ideal"),
        }

    @property
    def relevant(self) -> np.ndarray:
        """Boolean mask of the relevant ranks."""
        return _relevant_mask(self.relevance, self.relevance_level)

    @property
    def n_relevant(self) -> int:
        """R: fixed at construction, or the relevant documents currently in the list."""
        found = int(self.relevant.sum())
        if self._fixed_n_relevant is None:
            return found
        return max(self._fixed_n_relevant, found)

    def _rank_index(self, rank: int) -> int:
        rank = check_scalar(rank, "rank", kind="int", low=1)
        if rank > self.relevance.size:
            raise ValueError(f"rank must be between 1 and {self.relevance.size}; got {rank}")
        return rank - 1

    def toggle(self, rank: int) -> None:
        """Flip the document at ``rank`` (1 = top) between relevant (grade 1) and not (0)."""
        index = self._rank_index(rank)
        self.relevance = self.relevance.copy()
        self.relevance[index] = 0.0 if self.relevant[index] else 1.0

    def set_grade(self, rank: int, grade: float) -> None:
        """Give the document at ``rank`` a new grade."""
        index = self._rank_index(rank)
        self.relevance = self.relevance.copy()
        self.relevance[index] = check_grades([grade], "grade")[0]

    def move(self, from_rank: int, to_rank: int) -> None:
        """Move the document at ``from_rank`` to ``to_rank``; the others shift up or down."""
        source, target = self._rank_index(from_rank), self._rank_index(to_rank)
        order = list(range(self.relevance.size))
        order.insert(target, order.pop(source))
        self.relevance = self.relevance[order]
        self.doc_ids = [self.doc_ids[i] for i in order]

    def dcg_table(self, k: int | None = None) -> pd.DataFrame:
        """DCG, IDCG and nDCG under each convention (rows), for the whole list or the top k."""
        ideal = self.ideal if self.ideal is not None else self.relevance
        rows = {}
        for variant in DCG_VARIANTS:
            rows[variant] = {
                "DCG": dcg(self.relevance, k=k, variant=variant),
                "IDCG": dcg(np.sort(ideal)[::-1], k=k, variant=variant),
                "nDCG": ndcg(self.relevance, k=k, variant=variant, ideal=ideal,
                             zero_division=0.0),
            }
        return pd.DataFrame(rows).T

    def points(self) -> pd.DataFrame:
        """The precision-recall points of the current list."""
        return precision_recall_points(self.relevance, n_relevant=self.n_relevant,
                                       relevance_level=self.relevance_level)

    def interpolated(self, recall_levels: Any = None) -> np.ndarray:
        """Interpolated precision at ``recall_levels`` (default: the 11 standard levels)."""
        return interpolated_precision(self.relevance, recall_levels=recall_levels,
                                      n_relevant=self.n_relevant,
                                      relevance_level=self.relevance_level)
