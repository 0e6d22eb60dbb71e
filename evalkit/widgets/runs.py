"""The runs explorer: one topic, one system, one measure of a real test collection, with the tie
rule and the counting of missing queries as switches."""

from __future__ import annotations

import html
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pandas as pd

from .._validation import check_option, check_scalar
from ..trec import evaluate, trec_ranking
from ._base import _Explorer, _format, _grid
from ._state import SettingsModel, keyword_options

if TYPE_CHECKING:  # ipywidgets loads when a view is built, not with the model
    import ipywidgets as widgets

#: The measures the explorer offers, as :func:`evalkit.evaluate` names them.
__all__ = ["RunsModel", "RunsExplorer", "RUN_MEASURES", "TIE_RULES", "MISSING_QUERIES"]

RUN_MEASURES = ("nDCG@10", "nDCG", "P@10", "AP", "RR")
#: trec_eval's order (ties by doc_id descending) or McSherry & Najork's tie average.
TIE_RULES = ("trec_eval", "average")
#: The values of :func:`evalkit.evaluate`'s ``missing_queries``.
MISSING_QUERIES = ("ignore", "zero")


def _tie_averaged_name(measure: str) -> str | None:
    """The name under which :func:`evalkit.evaluate` averages ties for ``measure``, or None
    when it has no tie-averaged form (it has one for nDCG and DCG only)."""
    if measure.startswith("nDCG"):
        return "nDCG(ties=average)" + measure[len("nDCG"):]
    return None


@keyword_options
class RunsModel(SettingsModel):
    r"""One topic, one run and one measure of a test collection, under a tie rule and a rule
    for the queries a run does not answer.

    Every number comes from :func:`evalkit.evaluate` (the value per topic and the means) and
    :func:`evalkit.trec_ranking` (the ranked list). The tie rule is trec_eval's order (ties
    broken by doc_id descending) or the tie average of McSherry & Najork (2008),
    ``"nDCG(ties=average)@10"``, which :func:`evalkit.evaluate` computes for nDCG only (for
    P@10, AP and RR the tie-averaged values are NaN). To show what ``missing_queries`` does,
    the chosen run can skip its ``n_skipped`` worst topics (by the chosen measure in
    trec_eval's order), as a system that returns nothing where it is weak: with
    ``missing_queries="ignore"`` they leave the mean, with ``"zero"`` they count as 0.

    Parameters
    ----------
    qrels : pandas.DataFrame, optional
        Columns ``query_id``, ``doc_id``, ``relevance``. Default (with ``runs``): the
        ``stdlib-docs`` collection of :func:`evalkit.datasets.load_collection`.
    runs : mapping of str to pandas.DataFrame, optional
        The systems' runs by name (columns ``query_id``, ``doc_id``, ``score``).
    topic : str, optional
        A judged topic (a query_id of the qrels); default the first.
    system : str, optional
        A name of ``runs``; default the first.
    measure : {"nDCG@10", "nDCG", "P@10", "AP", "RR"}, default "nDCG@10"
    ties : {"trec_eval", "average"}, default "trec_eval"
    missing_queries : {"ignore", "zero"}, default "ignore"
        As in :func:`evalkit.evaluate`.
    n_skipped : int, default 0
        How many of its worst topics the chosen run skips (0 to the number of topics - 1).
    queries : mapping of str to str, optional
        The text of each topic, shown beside its id.
    depth : int, default 10
        How many documents of the ranked list :meth:`ranked_list` shows.

    References
    ----------
    McSherry, F. and Najork, M. (2008). Computing information retrieval performance measures
    efficiently in the presence of tied scores. Proceedings of ECIR 2008, 414–421.

    Examples
    --------
    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"query_id": ["1", "1", "2"], "doc_id": ["a", "b", "a"],
    ...                       "relevance": [1, 0, 1]})
    >>> run = pd.DataFrame({"query_id": ["1", "1", "2", "2"], "doc_id": ["a", "b", "a", "c"],
    ...                     "score": [1.0, 1.0, 1.0, 2.0]})
    >>> model = RunsModel(qrels, {"sys": run}, measure="RR")
    >>> model.summary()["value"]  # ties by doc_id descending: b before a, RR = 1/2
    0.5
    >>> model.set(topic="2").summary()["value"]
    0.5
    >>> s = model.set(n_skipped=1).summary()  # the run skips its worst topic...
    >>> s["skipped_topics"], s["mean"], s["n_topics_averaged"]  # ...and its mean rises
    ('1', 0.5, 1)
    >>> model.set(missing_queries="zero").summary()["mean"]
    0.25
    """

    SETTINGS = ("topic", "system", "measure", "ties", "missing_queries", "n_skipped")

    def __init__(self, qrels: Any = None, runs: Any = None, *, topic: Any = None,
                 system: str | None = None, measure: str = "nDCG@10", ties: str = "trec_eval",
                 missing_queries: str = "ignore", n_skipped: int = 0, queries: Any = None,
                 depth: int = 10) -> None:
        if qrels is None and runs is None:
            from ..datasets import load_collection

            collection = load_collection("stdlib-docs")
            qrels, runs = collection.qrels, collection.runs
            if queries is None:
                queries = dict(zip(collection.topics.topic_id.astype(str),
                                   collection.topics["query"], strict=True))
        if not isinstance(qrels, pd.DataFrame):
            raise TypeError(f"qrels must be a pandas DataFrame; got {type(qrels).__name__}")
        if not isinstance(runs, Mapping) or not runs:
            raise ValueError("runs must be a non-empty mapping of system name to run "
                             f"DataFrame; got {runs!r:.60}")
        for name, run in runs.items():
            if not isinstance(run, pd.DataFrame):
                raise TypeError(f"runs[{name!r}] must be a pandas DataFrame; "
                                f"got {type(run).__name__}")
        self.qrels, self.runs = qrels, dict(runs)
        self.systems = tuple(str(name) for name in self.runs)
        self.topics = tuple(evaluate(qrels, next(iter(self.runs.values())), ["RR"],
                                     missing_queries="zero").index.astype(str))
        queries = {} if queries is None else dict(queries)
        self.queries = {str(k): str(v) for k, v in queries.items()}
        self.depth = check_scalar(depth, "depth", kind="int", low=1)
        self._cache: dict[tuple, pd.Series] = {}
        self.topic, self.system, self.measure = self.topics[0], self.systems[0], measure
        self.ties, self.missing_queries, self.n_skipped = "trec_eval", "ignore", 0
        self.set(topic=self.topics[0] if topic is None else topic,
                 system=self.systems[0] if system is None else system, measure=measure,
                 ties=ties, missing_queries=missing_queries, n_skipped=n_skipped)

    def _checks(self) -> dict[str, Any]:
        def topic(value: Any) -> str:
            if not isinstance(value, str):  # a whole number is read as its digits
                value = str(check_scalar(value, "topic", kind="int"))
            return check_option(value, "topic", self.topics)

        return {
            "topic": topic,
            "system": lambda v: check_option(v, "system", self.systems),
            "measure": lambda v: check_option(v, "measure", RUN_MEASURES),
            "ties": lambda v: check_option(v, "ties", TIE_RULES),
            "missing_queries": lambda v: check_option(v, "missing_queries", MISSING_QUERIES),
            "n_skipped": lambda v: check_scalar(v, "n_skipped", kind="int", low=0,
                                                high=len(self.topics) - 1),
        }

    # -- the numbers, all from evaluate -------------------------------------------------------

    def _scores(self, system: str, name: str, missing_queries: str,
                skipped: tuple[str, ...] = ()) -> pd.Series:
        """Per-topic values of ``name`` for ``system`` from :func:`evalkit.evaluate`, its run
        without the ``skipped`` topics."""
        key = (system, name, missing_queries, skipped)
        if key not in self._cache:
            run = self.runs[system]
            if skipped:
                run = run[~run.query_id.astype(str).isin(skipped)]
            scores = evaluate(self.qrels, run, [name], missing_queries=missing_queries)[name]
            scores.index = scores.index.astype(str)
            self._cache[key] = scores
        return self._cache[key]

    def _name(self, ties: str) -> str | None:
        return self.measure if ties == "trec_eval" else _tie_averaged_name(self.measure)

    def skipped_topics(self, system: str | None = None) -> tuple[str, ...]:
        """The topics the run of ``system`` skips: if it is the chosen one, its
        ``n_skipped`` worst topics by the chosen measure in trec_eval's order (earlier topic
        first among equal values); other systems skip none."""
        system = self.system if system is None else system
        if system != self.system or self.n_skipped == 0:
            return ()
        full = self._scores(system, self.measure, "zero")
        return tuple(full.sort_values(kind="stable").index[:self.n_skipped])

    def per_topic(self, *, system: str | None = None, ties: str | None = None,
                  missing_queries: str | None = None) -> pd.Series:
        """The values per topic (index: the topics averaged) for the settings given, the
        model's own for those left out; NaN throughout when ``ties="average"`` and the
        measure has no tie-averaged form."""
        system = self.system if system is None else system
        ties = self.ties if ties is None else ties
        missing = self.missing_queries if missing_queries is None else missing_queries
        name = self._name(ties)
        skipped = self.skipped_topics(system)
        if name is None:
            shown = self._scores(system, self.measure, missing, skipped)
            return pd.Series(math.nan, index=shown.index, name=self.measure)
        return self._scores(system, name, missing, skipped)

    def means_table(self) -> pd.DataFrame:
        """Mean over the topics of every system under the four settings: columns
        ``"<ties>/<missing_queries>"`` and ``n_topics_<missing_queries>``."""
        rows = {}
        for system in self.systems:
            row: dict[str, float] = {}
            for ties in TIE_RULES:
                for missing in MISSING_QUERIES:
                    values = self.per_topic(system=system, ties=ties, missing_queries=missing)
                    row[f"{ties}/{missing}"] = float(values.mean())
                    row[f"n_topics_{missing}"] = int(values.size)
            rows[system] = row
        return pd.DataFrame(rows).T

    def ranked_list(self) -> pd.DataFrame:
        """The chosen run's top ``depth`` documents for the chosen topic in trec_eval's order
        (:func:`evalkit.trec_ranking`): rank, doc_id, score, relevance (``<NA>`` unjudged),
        and ``tie_first``/``tie_last``/``tie_size``, the ranks of the block of documents that
        share its score."""
        ranked = trec_ranking(self.qrels, self.runs[self.system], query_id=self.topic)
        by_score = ranked.groupby("score")["rank"]
        ranked = ranked.assign(tie_first=by_score.transform("min"),
                               tie_last=by_score.transform("max"),
                               tie_size=by_score.transform("size"))
        return ranked.head(self.depth).reset_index(drop=True)

    def summary(self) -> dict[str, Any]:
        """The numbers the explorer shows.

        Keys: the settings (``topic``, ``query``, ``system``, ``measure``, ``ties``,
        ``missing_queries``, ``n_skipped``); ``skipped_topics`` (comma-separated ids);
        ``ties_apply`` (the measure has a tie-averaged form); ``value_trec_eval`` and
        ``value_tie_averaged`` (the topic's value when the run answers it); ``value`` (under
        the chosen settings: NaN when the topic is skipped and left out, 0 when it counts as
        0); ``tied_in_top`` (documents of the top ``depth`` that share a score with another);
        ``mean`` and ``n_topics_averaged`` (the chosen system's mean and how many topics it
        is over); ``mean_<ties>_<missing_queries>`` for the four settings; ``order`` (the
        systems from the highest mean to the lowest under the chosen settings).
        """
        table = self.means_table()
        current = f"{self.ties}/{self.missing_queries}"
        full = {ties: self._scores(self.system, name, "zero") if (name := self._name(ties))
                else None for ties in TIE_RULES}
        values = self.per_topic()
        ranked = self.ranked_list()
        order = table[current].sort_values(ascending=False, kind="stable")
        return {
            "topic": self.topic,
            "query": self.queries.get(self.topic, ""),
            "system": self.system,
            "measure": self.measure,
            "ties": self.ties,
            "missing_queries": self.missing_queries,
            "n_skipped": int(self.n_skipped),
            "skipped_topics": ", ".join(self.skipped_topics()),
            "ties_apply": _tie_averaged_name(self.measure) is not None,
            "value_trec_eval": float(full["trec_eval"][self.topic]),
            "value_tie_averaged": (float(full["average"][self.topic])
                                   if full["average"] is not None else math.nan),
            "value": float(values.get(self.topic, math.nan)),
            "tied_in_top": int((ranked.tie_size > 1).sum()),
            "mean": float(table.loc[self.system, current]),
            "n_topics_averaged": int(table.loc[self.system, f"n_topics_{self.missing_queries}"]),
            **{f"mean_{ties}_{missing}": float(table.loc[self.system, f"{ties}/{missing}"])
               for ties in TIE_RULES for missing in MISSING_QUERIES},
            "order": " > ".join(order.index) if order.notna().all() else "",
        }


@keyword_options
class RunsExplorer(_Explorer):
    """Pick a topic, a system and a measure on a real test collection; switch the tie rule
    and how the queries a run skips are counted.

    Controls: ``topic``, ``system`` and ``measure`` (dropdowns), ``ties`` (trec_eval's order
    or tie-averaged), ``missing_queries`` (left out or counted as 0) and ``n_skipped`` (how
    many of its worst topics the chosen run skips). Shows the topic's ranked list with its
    grades, scores and tied blocks, the topic's value under both tie rules, and every
    system's mean under the four settings (from :meth:`RunsModel.summary` and
    :meth:`RunsModel.means_table`).

    Examples
    --------
    >>> explorer = RunsExplorer(plot=False)  # stdlib-docs
    >>> explorer.controls["system"].value = "title"
    >>> explorer.controls["ties"].value = "average"
    >>> explorer.model.summary()["ties"]
    'average'
    """

    TIE_OPTIONS = (("trec_eval's order", "trec_eval"), ("tie-averaged", "average"))
    MISSING_OPTIONS = (("left out", "ignore"), ("counted as 0", "zero"))

    def __init__(self, model: RunsModel | None = None, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or RunsModel()
        m = self.model
        style = {"description_width": "150px"}
        toggle_style = {"description_width": "150px", "button_width": "170px"}
        layout = widgets.Layout(width="520px")

        def label(topic: str) -> str:
            query = m.queries.get(topic)
            return f"{topic}: {query}" if query else topic

        controls: dict[str, widgets.Widget] = {
            "topic": widgets.Dropdown(options=[(label(t), t) for t in m.topics], value=m.topic,
                                      description="topic", style=style, layout=layout),
            "system": widgets.Dropdown(options=list(m.systems), value=m.system,
                                       description="system (run)", style=style, layout=layout),
            "measure": widgets.Dropdown(options=list(RUN_MEASURES), value=m.measure,
                                        description="measure", style=style, layout=layout),
            "ties": widgets.ToggleButtons(options=list(self.TIE_OPTIONS), value=m.ties,
                                          description="tie rule", style=toggle_style),
            "missing_queries": widgets.ToggleButtons(
                options=list(self.MISSING_OPTIONS), value=m.missing_queries,
                description="skipped topics are", style=toggle_style),
            "n_skipped": widgets.IntSlider(value=m.n_skipped, min=0,
                                           max=min(20, len(m.topics) - 1),
                                           description="run skips its worst", style=style,
                                           layout=layout, continuous_update=False),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        s = self.model.summary()
        ranked = self.model.ranked_list()
        rows = []
        for r in ranked.itertuples():
            grade = "unjudged" if pd.isna(r.relevance) else str(int(r.relevance))
            tie = f"ranks {r.tie_first}-{r.tie_last}" if r.tie_size > 1 else ""
            rows.append([str(r.rank), str(r.doc_id), f"{r.score:.4g}", grade, tie])
        query = f" ({html.escape(s['query'])})" if s["query"] else ""
        head = (f"<p><b>Topic {html.escape(s['topic'])}</b>{query}, "
                f"<b>{html.escape(s['system'])}</b>: top {len(ranked)} in trec_eval's order, "
                f"{s['tied_in_top']} of them tied</p>")
        listing = _grid(["rank", "document", "score", "grade", "same score as"], rows)
        skipped = s["skipped_topics"]
        if s["topic"] in skipped.split(", "):
            answered = ("this topic is skipped by the run: "
                        + ("left out of the mean" if s["missing_queries"] == "ignore"
                           else "counted as 0"))
        else:
            answered = f"{s['measure']} under the chosen settings {_format(s['value'], 4)}"
        tie_value = (_format(s["value_tie_averaged"], 4) if s["ties_apply"]
                     else "not defined (ek.evaluate averages ties for nDCG only)")
        topic_rows = _grid(["this topic", "trec_eval's order", "tie-averaged"],
                           [[s["measure"], _format(s["value_trec_eval"], 4), tie_value]])
        table = self.model.means_table()
        columns = [f"{t}/{m}" for t in TIE_RULES for m in MISSING_QUERIES]
        current = columns.index(f"{s['ties']}/{s['missing_queries']}")
        mean_rows = [[name] + [_format(table.loc[name, c], 4) for c in columns]
                     + [f"{int(table.loc[name, 'n_topics_ignore'])}"]
                     for name in self.model.systems]
        means = _grid(["system", "trec, left out", "trec, as 0", "tie-avg, left out",
                       "tie-avg, as 0", "topics answered"], mean_rows,
                      bold_row=self.model.systems.index(s["system"]),
                      shaded_column=current + 1,
                      caption=f"mean {s['measure']} over the topics (shaded: chosen settings)")
        order = (f"<p>Order at the chosen settings: {html.escape(s['order'])}</p>"
                 if s["order"] else "")
        skipped_text = (f"<p>{html.escape(s['system'])} skips topics {html.escape(skipped)}; "
                        f"its mean {_format(s['mean'], 4)} is over {s['n_topics_averaged']} "
                        "topics</p>" if skipped else
                        f"<p>{html.escape(s['system'])} answers every topic</p>")
        return (head + listing + f"<p>{html.escape(answered)}</p>" + topic_rows + means
                + order + skipped_text)

    def draw(self) -> Any:
        import matplotlib.pyplot as plt
        import numpy as np

        m = self.model
        name = m._name(m.ties) or m.measure  # no tie average for this measure: trec_eval's
        heights = m._scores(m.system, name, "zero").reindex(list(m.topics)).to_numpy()
        skipped = set(m.skipped_topics())
        figure, ax = plt.subplots(figsize=(6.5, 3.2))
        x = np.arange(len(m.topics))
        answered = np.array([t not in skipped for t in m.topics])
        ax.bar(x[answered], heights[answered], color="#0072B2", label="answered")
        if skipped:
            ax.bar(x[~answered], heights[~answered], color="white", edgecolor="#E69F00",
                   hatch="//", label="skipped (its value if answered)")
        chosen = m.topics.index(m.topic)
        ax.bar([chosen], [heights[chosen]], fill=False, edgecolor="black", linewidth=2,
               label=f"topic {m.topic}")
        for missing, style in (("ignore", "--"), ("zero", ":")):
            mean = m.per_topic(missing_queries=missing).mean()
            if not math.isnan(mean):
                ax.axhline(mean, color="#D55E00", linestyle=style,
                           label=f"mean, {'left out' if missing == 'ignore' else 'as 0'} "
                                 f"{mean:.3f}")
        ax.set_xticks(x[::5], [m.topics[i] for i in range(0, len(m.topics), 5)])
        ax.set(xlabel="topic id", ylabel=f"{m.measure} (0 to 1)", ylim=(0, 1.05),
               title=f"{m.system}: {name} per topic")
        ax.legend(fontsize=7, loc="upper right")
        figure.tight_layout()
        return figure
