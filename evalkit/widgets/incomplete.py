"""The incomplete-judgements explorer: remove judgements, or pool shallower, and watch each
system's score and rank."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_option, check_scalar
from ..correlation import kendall_tau
from ..trec import evaluate, pool, sample_qrels
from ._base import _Explorer, _format, _grid
from ._state import SettingsModel, keyword_options

#: The measures the explorer offers: label -> (evaluate's name, condensed lists?).
MEASURES = {
    "AP": ("AP", False),
    "P@10": ("P@10", False),
    "nDCG@10": ("nDCG@10", False),
    "bpref": ("Bpref", False),
    "infAP": ("infAP", False),
    "condensed AP": ("AP", True),
    "condensed nDCG@10": ("nDCG@10", True),
}
#: How the judgements are reduced: a random share kept, or the pool cut to a depth.
REDUCTIONS = ("sample", "depth")
SEPARATOR = "\x1f"  # joins system and query ids into one query id of the stacked run


def _stack(runs: dict[str, pd.DataFrame]) -> pd.DataFrame:
    parts = [run[["query_id", "doc_id", "score"]].assign(
        query_id=name + SEPARATOR + run["query_id"].astype(str)) for name, run in runs.items()]
    return pd.concat(parts, ignore_index=True)


@keyword_options
class IncompleteJudgementsModel(SettingsModel):
    r"""Many systems scored with all the judgements and with fewer of them.

    The systems' runs are scored once with the full qrels and once with reduced qrels:
    either each query keeps a random share ``fraction`` of its judgements
    (:func:`evalkit.sample_qrels`; the rest are marked -1, "pooled but not judged", which
    only infAP reads differently from absent), or only the documents in the pool of
    ``pool_runs`` to ``depth`` stay judged (:func:`evalkit.pool`). Every system is scored by
    :func:`evalkit.evaluate` (``missing_queries="zero"``; condensed measures with
    ``judged_only=True``), and the two orders of systems are compared with Kendall's
    :math:`\tau_b` (:func:`evalkit.kendall_tau`).

    This is the state behind :class:`evalkit.widgets.IncompleteJudgementsExplorer`.

    Parameters
    ----------
    qrels : pandas.DataFrame
        The full judgements.
    runs : dict of str to pandas.DataFrame
        The systems' runs, by name (at least 2).
    pool_runs : dict of str to pandas.DataFrame, optional
        The runs whose top ``depth`` makes the shallower pool; default ``runs``.
    reduction : {"sample", "depth"}, default "sample"
    fraction : float, default 0.5
        Share of each query's judgements kept, in (0, 1].
    depth : int, default 10
        Pool depth, >= 1.
    measure : str, default "AP"
        One of ``MEASURES``.
    seed : int, default 0

    Examples
    --------
    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"query_id": "1", "doc_id": list("abcd"),
    ...                       "relevance": [1, 0, 1, 0]})
    >>> runs = {"x": pd.DataFrame({"query_id": "1", "doc_id": list("abcd"),
    ...                            "score": [4, 3, 2, 1]}),
    ...         "y": pd.DataFrame({"query_id": "1", "doc_id": list("dcba"),
    ...                            "score": [4, 3, 2, 1]})}
    >>> model = IncompleteJudgementsModel(qrels, runs, reduction="depth", depth=1)
    >>> model.summary()["reduced"]
    {'x': 1.0, 'y': 0.25}
    """

    def __init__(self, qrels: pd.DataFrame, runs: dict[str, pd.DataFrame], *,
                 pool_runs: dict[str, pd.DataFrame] | None = None, reduction: str = "sample",
                 fraction: float = 0.5, depth: int = 10, measure: str = "AP",
                 seed: int = 0) -> None:
        if not isinstance(runs, dict) or len(runs) < 2:
            raise ValueError("runs must be a dict of at least 2 runs by system name")
        self.systems = [str(name) for name in runs]
        self.qrels = qrels
        self.pool_runs = runs if pool_runs is None else pool_runs
        self._run = _stack(runs)
        self._qrels = pd.concat([qrels.assign(query_id=name + SEPARATOR
                                              + qrels["query_id"].astype(str))
                                 for name in self.systems], ignore_index=True)
        self.reduction, self.fraction, self.depth, self.measure, self.seed = (
            "sample", 0.5, 10, "AP", 0)
        self._full: dict[str, pd.Series] = {}
        self.set(reduction=reduction, fraction=fraction, depth=depth, measure=measure,
                 seed=seed)

    @staticmethod
    def _checks() -> dict[str, Any]:
        return {
            "reduction": lambda v: check_option(v, "reduction", REDUCTIONS),
            "fraction": lambda v: check_scalar(v, "fraction", low=0.0, high=1.0,
                                               low_inclusive=False),
            "depth": lambda v: check_scalar(v, "depth", kind="int", low=1),
            "measure": lambda v: check_option(v, "measure", tuple(MEASURES)),
            "seed": lambda v: check_scalar(v, "seed", kind="int", low=0),
        }

    def _scores(self, qrels: pd.DataFrame) -> pd.Series:
        name, condensed = MEASURES[self.measure]
        per_query = evaluate(qrels, self._run, [name], missing_queries="zero",
                             judged_only=condensed)[name]
        system = per_query.index.str.split(SEPARATOR, n=1).str[0]
        return per_query.groupby(system).mean().reindex(self.systems)

    def reduced_qrels(self) -> pd.DataFrame:
        """The judgements left (stacked per system): sampled, or those in the shallow pool."""
        if self.reduction == "sample":
            kept = sample_qrels(self.qrels, fraction=self.fraction, seed=self.seed,
                                unjudged="mark")
        else:
            pooled = pool(self.pool_runs, depth=self.depth)[["query_id", "doc_id"]]
            kept = self.qrels.merge(pooled, on=["query_id", "doc_id"])
        return pd.concat([kept.assign(query_id=name + SEPARATOR + kept["query_id"].astype(str))
                          for name in self.systems], ignore_index=True)

    def summary(self) -> dict[str, Any]:
        """The numbers the explorer shows.

        Keys: ``measure``, ``reduction``, ``fraction``, ``depth``, ``judgements_kept`` (share
        of the qrels' lines still judged), ``full`` and ``reduced`` (mean score per system),
        ``full_rank`` and ``reduced_rank`` (1 = best; ties share the lower rank number) and
        ``kendall_tau`` (τ-b of the two score lists).
        """
        if self.measure not in self._full:
            self._full[self.measure] = self._scores(self._qrels)
        full = self._full[self.measure]
        qrels = self.reduced_qrels()
        reduced = self._scores(qrels)
        kept = float((qrels["relevance"] >= 0).sum() / len(self._qrels))
        return {
            "measure": self.measure, "reduction": self.reduction,
            "fraction": float(self.fraction), "depth": int(self.depth),
            "judgements_kept": kept,
            "full": {k: float(v) for k, v in full.items()},
            "reduced": {k: float(v) for k, v in reduced.items()},
            "full_rank": {k: int(v) for k, v in full.rank(ascending=False,
                                                          method="min").items()},
            "reduced_rank": {k: int(v) for k, v in reduced.rank(ascending=False,
                                                                method="min").items()},
            "kendall_tau": float(kendall_tau(full.to_numpy(), reduced.to_numpy())),
        }


@keyword_options
class IncompleteJudgementsExplorer(_Explorer):
    """What happens to each system's score and rank with fewer judgements?

    Controls: ``reduction`` (random sample or shallower pool), ``fraction`` (share of
    judgements kept), ``depth`` (pool depth), ``measure`` and ``seed`` (another random
    sample). Shows each system's score and rank with all and with the reduced judgements,
    and Kendall's τ between the two orders, with a plot of reduced against full scores.

    Examples
    --------
    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"query_id": "1", "doc_id": list("abcd"),
    ...                       "relevance": [1, 0, 1, 0]})
    >>> runs = {"x": pd.DataFrame({"query_id": "1", "doc_id": list("abcd"),
    ...                            "score": [4, 3, 2, 1]}),
    ...         "y": pd.DataFrame({"query_id": "1", "doc_id": list("dcba"),
    ...                            "score": [4, 3, 2, 1]})}
    >>> explorer = IncompleteJudgementsExplorer(IncompleteJudgementsModel(qrels, runs),
    ...                                         plot=False)
    >>> explorer.controls["measure"].value = "bpref"
    >>> explorer.model.measure
    'bpref'
    """

    def __init__(self, model: IncompleteJudgementsModel, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        if not isinstance(model, IncompleteJudgementsModel):
            raise TypeError("model must be an IncompleteJudgementsModel (built from the qrels "
                            f"and the runs); got {type(model).__name__}")
        self.model = model
        style = {"description_width": "150px"}
        layout = widgets.Layout(width="520px")
        controls = {
            "reduction": widgets.ToggleButtons(
                options=[("remove at random", "sample"), ("shallower pool", "depth")],
                value=model.reduction, description="judgements", style=style),
            "fraction": widgets.FloatSlider(value=model.fraction, min=0.05, max=1.0, step=0.05,
                                            description="share kept (random)", style=style,
                                            layout=layout, continuous_update=False),
            "depth": widgets.IntSlider(value=model.depth, min=1, max=max(20, model.depth),
                                       description="pool depth", style=style, layout=layout,
                                       continuous_update=False),
            "measure": widgets.Dropdown(options=list(MEASURES), value=model.measure,
                                        description="measure", style=style),
            "seed": widgets.IntSlider(value=model.seed, min=0, max=max(20, model.seed),
                                      description="random sample (seed)", style=style,
                                      layout=layout, continuous_update=False),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        s = self.model.summary()
        if s["reduction"] == "sample":
            what = f"{s['fraction']:.0%} of each query's judgements kept (seed {self.model.seed})"
        else:
            what = f"pool to depth {s['depth']}"
        rows = [[name, _format(s["full"][name]), str(s["full_rank"][name]),
                 _format(s["reduced"][name]), str(s["reduced_rank"][name])]
                for name in sorted(s["full"], key=lambda n: s["full_rank"][n])]
        table = _grid(["system", "full", "rank", "reduced", "rank"], rows,
                      f"{s['measure']}: {what}")
        return (table + f"<p>judgements left: {s['judgements_kept']:.1%}; "
                f"Kendall's τ (full vs reduced order): {s['kendall_tau']:.3f}</p>")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        s = self.model.summary()
        full = np.array([s["full"][n] for n in self.model.systems])
        reduced = np.array([s["reduced"][n] for n in self.model.systems])
        figure, ax = plt.subplots(figsize=(4.6, 4.0))
        ax.plot(full, reduced, "o", color="#0072B2")
        low = float(min(full.min(), reduced.min(), 0))
        high = float(max(full.max(), reduced.max())) * 1.05 or 1.0
        ax.plot([low, high], [low, high], ":", color="0.5", label="same score")
        ax.set(xlabel=f"{s['measure']}, all judgements", ylabel=f"{s['measure']}, reduced",
               title=f"one dot per system; τ = {s['kendall_tau']:.3f}")
        ax.legend(loc="upper left")
        figure.tight_layout()
        return figure
