"""The ranking explorer: permute a ranking, watch every pair, Kendall's tau and Spearman's rho."""

from __future__ import annotations

import html
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .._validation import check_1d, check_consistent_length, check_scalar
from ..correlation import PairCounts, concordant_discordant, kendall_tau, spearman_rho
from ..exceptions import UndefinedMetricWarning
from ._base import _Explorer, _format, _grid, _table
from ._state import check_changes, keyword_options

if TYPE_CHECKING:  # ipywidgets loads when a view is built, not with the model
    import ipywidgets as widgets

_VERDICTS = ("concordant", "discordant", "tied in reference")


@keyword_options
class RankingModel:
    r"""A reference ranking and a second ranking of the same items, compared pair by pair.

    This is the state behind :class:`evalkit.widgets.RankingExplorer`. The reference gives
    every item a place :math:`x_i` (1 = best; equal places are ties, as when documents share a
    grade). The second ranking is an order of the items, top first, and gives item *i* its
    position :math:`y_i`; being an order, it never ties. A pair :math:`\{i, j\}` is

    .. math::

        \text{concordant if } (x_i - x_j)(y_i - y_j) > 0, \quad
        \text{discordant if } (x_i - x_j)(y_i - y_j) < 0, \quad
        \text{tied if } x_i = x_j,

    and with :math:`n_0 = n(n-1)/2` pairs, :math:`n_1` of them tied in the reference,

    .. math::

        \tau_a = \frac{C - D}{n_0}, \qquad
        \tau_b = \frac{C - D}{\sqrt{(n_0 - n_1)\, n_0}}, \qquad
        \rho = \operatorname{corr}\bigl(\operatorname{rank}(x), y\bigr).

    :meth:`pairs` lists every pair by brute force (all :math:`n_0` of them, vectorised);
    :meth:`counts`, :meth:`tau` and :meth:`rho` call :func:`concordant_discordant`,
    :func:`kendall_tau` and :func:`spearman_rho`, so the two routes check each other.

    The second ranking is edited with :meth:`swap` (two neighbours), :meth:`move` (one item up
    or down), :meth:`set_order` (any order, e.g. one of :meth:`presets`), :meth:`reset` (the
    order the model was built with) and :meth:`scramble`: ``scramble(d)`` starts from the
    reference order and makes ``d`` random swaps of neighbours, each of which turns one
    concordant pair discordant, so the result has exactly ``d`` discordant pairs and, without
    ties, :math:`\tau = 1 - 2d / n_0`. The swaps follow one fixed random path (``seed``), so
    ``scramble(d + 1)`` is ``scramble(d)`` with one more swap.

    Parameters
    ----------
    items : sequence, default ("1", "2", "3", "4", "5")
        Names of the items (turned into strings; must be distinct), at least 2.
    order : sequence, optional
        The second ranking: every item once, top first. Default: the reference order.
    reference : array-like of numbers, optional
        Each item's place in the reference ranking, lower = better, ties allowed (for grades
        or scores where higher is better, pass their negatives). Default 1, 2, ..., n: the
        items as listed.
    seed : int, default 0
        Seed of ``np.random.default_rng`` for the path of :meth:`scramble`.

    Raises
    ------
    ValueError
        If the items repeat or are fewer than 2, ``order`` is not an order of the items,
        ``reference`` has the wrong length or holds NaN, or ``seed`` is negative.

    References
    ----------
    Kendall, M. G. (1938). A new measure of rank correlation. Biometrika 30(1/2), 81–93.
    Kendall, M. G. (1945). The treatment of ties in ranking problems. Biometrika 33(3),
    239–251.

    Examples
    --------
    The course notes' example: ground truth 1 2 3 4 5, result 2 1 5 3 4.

    >>> model = RankingModel(order=["2", "1", "5", "3", "4"])
    >>> s = model.summary()
    >>> s["concordant"], s["discordant"], s["tau_b"], round(s["rho"], 3)
    (7, 3, 0.4, 0.6)
    >>> model.pairs().query("verdict == 'discordant'")[["first", "second"]].values.tolist()
    [['1', '2'], ['3', '5'], ['4', '5']]
    >>> model.move(3, -2)  # item 5 from position 3 to the top
    1
    >>> model.order, model.summary()["discordant"]
    (['5', '2', '1', '3', '4'], 5)
    >>> model.scramble(2).summary()["discordant"], model.summary()["tau_a"]
    (2, 0.6)
    """

    def __init__(self, items: Any = ("1", "2", "3", "4", "5"), order: Any = None,
                 reference: Any = None, *, seed: int = 0) -> None:

        items = check_1d(items, "items")
        names = [str(item) for item in items.tolist()]
        if len(names) < 2:
            raise ValueError(f"items needs at least 2 items to form a pair; got {len(names)}")
        if len(set(names)) != len(names):
            repeated = sorted({name for name in names if names.count(name) > 1})
            raise ValueError(f"items must be distinct; repeated: {', '.join(repeated)}")
        self.items = names
        if reference is None:
            reference = np.arange(1, len(names) + 1, dtype=float)
        else:
            reference = check_1d(reference, "reference")
            check_consistent_length(reference=reference, items=np.asarray(names))
            if reference.dtype.kind not in "biuf":
                raise ValueError(f"reference must hold numbers (places); got {reference.dtype}")
            reference = reference.astype(float)
            if np.isnan(reference).any():
                position = int(np.flatnonzero(np.isnan(reference))[0])
                raise ValueError(f"reference contains NaN at position {position}; every item "
                                 "needs a place")
        self.reference = reference
        self.seed = check_scalar(seed, "seed", kind="int", low=0)
        self._index = {name: i for i, name in enumerate(names)}
        self._path: list[int] | None = None
        self.order = self.reference_order if order is None else self._checked(order)
        self.initial_order = list(self.order)

    def __repr__(self) -> str:
        return (f"RankingModel(reference order {' '.join(self.reference_order)}, "
                f"order {' '.join(self.order)})")

    @classmethod
    def course_notes(cls) -> RankingModel:
        """The notes' example: ground truth 1 2 3 4 5, result 2 1 5 3 4 (7 C, 3 D, tau 0.4)."""
        return cls(order=["2", "1", "5", "3", "4"])

    # -- the two rankings ---------------------------------------------------------------------

    def _checked(self, order: Any, name: str = "order") -> list[str]:
        names = [str(item) for item in check_1d(order, name).tolist()]
        missing = [item for item in self.items if item not in names]
        unknown = [item for item in names if item not in self._index]
        if missing or unknown or len(names) != len(self.items):
            problems = []
            if missing:
                problems.append(f"missing {', '.join(missing)}")
            if unknown:
                problems.append(f"unknown {', '.join(unknown)}")
            if not problems:
                problems.append("some items appear twice")
            raise ValueError(f"{name} must list every item exactly once ({'; '.join(problems)}); "
                             f"items are {', '.join(self.items)}")
        return names

    @property
    def n_items(self) -> int:
        """n, the number of items."""
        return len(self.items)

    @property
    def n_pairs(self) -> int:
        """n(n-1)/2, the number of pairs."""
        return self.n_items * (self.n_items - 1) // 2

    @property
    def reference_order(self) -> list[str]:
        """The items in reference order, best first (tied items in the order listed)."""
        return [self.items[i] for i in np.argsort(self.reference, kind="stable")]

    @property
    def x(self) -> np.ndarray:
        """Each item's place in the reference (in the order of :attr:`items`)."""
        return self.reference.copy()

    @property
    def y(self) -> np.ndarray:
        """Each item's position in the second ranking, 1 = top (in the order of :attr:`items`)."""
        positions = np.empty(self.n_items, dtype=np.int64)
        positions[[self._index[item] for item in self.order]] = np.arange(1, self.n_items + 1)
        return positions

    @property
    def max_discordant(self) -> int:
        """The most discordant pairs possible: every pair not tied in the reference."""
        # A pair untied in the reference is concordant with the reference itself.
        return int(concordant_discordant(self.reference, self.reference).concordant)

    # -- pairs and coefficients -----------------------------------------------------------------

    def pairs(self) -> Any:
        """Every pair once, in reference order, with its verdict.

        Returns
        -------
        pandas.DataFrame
            Columns ``first``, ``second`` (``first`` is placed above or tied with ``second`` in
            the reference), ``in reference``, ``in ranking`` (e.g. ``"2 above 1"``) and
            ``verdict`` (``"concordant"``, ``"discordant"`` or ``"tied in reference"``).
        """

        by_reference = np.argsort(self.reference, kind="stable")
        i, j = np.triu_indices(self.n_items, k=1)
        first, second = by_reference[i], by_reference[j]
        x, y = self.reference, self.y
        sign_x = np.sign(x[second] - x[first])
        sign_y = np.sign(y[second] - y[first])
        verdict = np.where(sign_x == 0, _VERDICTS[2],
                           np.where(sign_x == sign_y, _VERDICTS[0], _VERDICTS[1]))
        names = np.array(self.items, dtype=object)
        a, b = names[first], names[second]
        return pd.DataFrame({
            "first": a,
            "second": b,
            "in reference": np.where(sign_x == 0, "tied", a + " above " + b),
            "in ranking": np.where(sign_y > 0, a + " above " + b, b + " above " + a),
            "verdict": verdict,
        })

    def counts(self) -> PairCounts:
        """C, D and the ties, from :func:`concordant_discordant`."""
        return concordant_discordant(self.reference, self.y)

    def tau(self, variant: str = "b") -> float:
        """Kendall's tau between the reference and the second ranking (:func:`kendall_tau`);
        NaN, without the library's warning, while a slider makes one ranking constant (the
        explorer shows the NaN)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            return kendall_tau(self.reference, self.y, variant=variant)

    def rho(self) -> float:
        """Spearman's rho between the reference and the second ranking (:func:`spearman_rho`);
        NaN, without the warning, for a constant ranking."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            return spearman_rho(self.reference, self.y)

    def summary(self) -> dict[str, Any]:
        """n, the pair counts, tau-a, tau-b and rho in one dictionary."""
        counts = self.counts()
        return {
            "n_items": self.n_items,
            "n_pairs": self.n_pairs,
            "concordant": counts.concordant,
            "discordant": counts.discordant,
            "tied": counts.tied_x + counts.tied_y + counts.tied_xy,
            "tau_a": self.tau("a"),
            "tau_b": self.tau("b"),
            "rho": self.rho(),
        }

    # -- editing the second ranking -------------------------------------------------------------

    def _position(self, position: Any, name: str, last: int) -> int:

        position = check_scalar(position, name, kind="int", low=1)
        if position > last:
            raise ValueError(f"{name} must be between 1 and {last}; got {position}")
        return position

    def swap(self, position: int) -> RankingModel:
        """Swap the items at ``position`` and ``position + 1`` (1 = top); return the model."""
        position = self._position(position, "position", self.n_items - 1)
        order = list(self.order)
        order[position - 1], order[position] = order[position], order[position - 1]
        self.order = order
        return self

    def move(self, position: int, step: int) -> int:
        """Move the item at ``position`` by ``step`` places (-1 = up); return its new position."""
        position = self._position(position, "position", self.n_items)
        step = check_scalar(step, "step", kind="int")
        target = position + int(step)
        if not 1 <= target <= self.n_items:
            raise ValueError(f"cannot move position {position} by {step}: the target "
                             f"{target} is outside 1..{self.n_items}")
        order = list(self.order)
        order.insert(target - 1, order.pop(position - 1))
        self.order = order
        return target

    def set(self, **changes: Any) -> RankingModel:
        """Change the setting ``order`` (the second ranking, every item once, top first).

        The change is checked before it is applied: a bad order or an unknown name leaves
        the model as it was. Returns the model.
        """
        checked = check_changes(changes, {"order": self._checked})
        for name, value in checked.items():
            setattr(self, name, value)
        return self

    def set_order(self, order: Any) -> RankingModel:
        """Replace the second ranking (every item once, top first); return the model."""
        self.order = self._checked(order)
        return self

    def reset(self) -> RankingModel:
        """Go back to the order the model was built with; return the model."""
        self.order = list(self.initial_order)
        return self

    def _scramble_path(self) -> list[int]:
        """Positions (0-based) of the swaps, each making one concordant pair discordant."""
        if self._path is None:
            rng = np.random.default_rng(self.seed)
            places = np.sort(self.reference)  # the reference order's places, top first
            path = []
            while True:
                # A swap of neighbours changes the order of that pair only: swapping a pair
                # that the reference orders the same way adds exactly one discordant pair.
                candidates = np.flatnonzero(places[:-1] < places[1:])
                if candidates.size == 0:
                    break
                at = int(candidates[rng.integers(candidates.size)])
                places[[at, at + 1]] = places[[at + 1, at]]
                path.append(at)
            self._path = path
        return self._path

    def scramble(self, n_discordant: int) -> RankingModel:
        """Reference order plus ``n_discordant`` random neighbour swaps; return the model.

        Each swap exchanges two neighbours that are still in reference order, so the result
        has exactly ``n_discordant`` discordant pairs (at most :attr:`max_discordant`).
        """

        n_discordant = check_scalar(n_discordant, "n_discordant", kind="int", low=0)
        if n_discordant > self.max_discordant:
            raise ValueError(f"n_discordant must be at most {self.max_discordant} (every pair "
                             f"not tied in the reference); got {n_discordant}")
        order = self.reference_order
        for at in self._scramble_path()[:n_discordant]:
            order[at], order[at + 1] = order[at + 1], order[at]
        self.order = order
        return self

    def presets(self) -> dict[str, list[str]]:
        """Named orders to try: as built, the reference, reversed, one swap at the top or bottom."""
        reference = self.reference_order
        top = reference[1::-1] + reference[2:]
        bottom = reference[:-2] + reference[:-3:-1]
        return {
            "as built": list(self.initial_order),
            "same as the reference": reference,
            "reversed": reference[::-1],
            "top two swapped": top,
            "bottom two swapped": bottom,
            "best item last": reference[1:] + reference[:1],
        }


_VERDICT_COLOURS = {"concordant": "#d8f3dc", "discordant": "#fde2d7",
                    "tied in reference": "#e9ecef"}


@keyword_options
class RankingExplorer(_Explorer):
    """Permute a ranking and watch every pair, C, D, Kendall's tau and Spearman's rho.

    Controls, in this order: ``discordant`` (a slider: start from the reference order and
    make that many random swaps of neighbours, each of which turns one more pair discordant;
    the same value always gives the same ranking), ``selected`` (a position in the second
    ranking) and ``preset`` (named orders from
    :meth:`evalkit.widgets.RankingModel.presets`). The buttons in :attr:`buttons`,
    ``"up"``, ``"down"`` and ``"reset"``, move the selected item one place (the selection
    follows it) or go back to the order the model was built with. After every change the
    ``discordant`` slider shows the current D and ``preset`` the matching name, if any.

    The summary shows both rankings, the counts and coefficients, and every pair marked
    concordant or discordant; the figure draws the two rankings with a line per item, where
    every crossing is a discordant pair (:func:`evalkit.plots.plot_rank_crossings`). The state
    is a :class:`evalkit.widgets.RankingModel`.

    Examples
    --------
    >>> explorer = RankingExplorer(plot=False)  # the notes' 2 1 5 3 4
    >>> explorer.model.summary()["tau_b"]
    0.4
    >>> explorer.controls["selected"].value = 3  # item 5
    >>> explorer.buttons["down"].click()
    >>> explorer.model.order, explorer.controls["discordant"].value
    (['2', '1', '3', '5', '4'], 2)
    >>> explorer.controls["discordant"].value = 0
    >>> explorer.model.order, explorer.controls["preset"].value
    (['1', '2', '3', '4', '5'], 'same as the reference')
    """

    MAX_LISTED_PAIRS = 45  # list every pair up to 10 items; beyond, only the discordant ones

    def __init__(self, model: Any = None, *, plot: bool = True) -> None:

        import ipywidgets as widgets

        self.model = model or RankingModel.course_notes()
        self._presets = self.model.presets()
        self._syncing = False
        n = self.model.n_items
        style = {"description_width": "150px"}
        controls: dict[str, widgets.Widget] = {
            "discordant": widgets.IntSlider(
                value=self.model.counts().discordant, min=0, max=self.model.max_discordant,
                description="discordant pairs D", style=style,
                layout=widgets.Layout(width="460px")),
            "selected": widgets.IntSlider(value=1, min=1, max=n, description="selected position",
                                          style=style, layout=widgets.Layout(width="400px")),
            "preset": widgets.Dropdown(options=list(self._presets), value=None,
                                       description="set the ranking to", style=style,
                                       layout=widgets.Layout(width="400px")),
        }
        self.buttons = {
            "up": widgets.Button(description="move up", icon="arrow-up",
                                 layout=widgets.Layout(width="120px")),
            "down": widgets.Button(description="move down", icon="arrow-down",
                                   layout=widgets.Layout(width="120px")),
            "reset": widgets.Button(description="reset", icon="undo",
                                    layout=widgets.Layout(width="120px")),
        }
        self.buttons["up"].on_click(lambda _: self.move_selected(-1))
        self.buttons["down"].on_click(lambda _: self.move_selected(+1))
        self.buttons["reset"].on_click(lambda _: self.reset())
        super().__init__(controls, plot=plot)
        hint = widgets.HTML("<i>The slider starts from the reference order and swaps "
                            "neighbours at random: each step adds one discordant pair.</i>")
        self.widget = widgets.VBox([
            controls["discordant"], hint,
            widgets.HBox([controls["selected"], self.buttons["up"], self.buttons["down"]]),
            widgets.HBox([controls["preset"], self.buttons["reset"]]),
            self._summary_beside_plot(),
        ])

    def _on_change(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return  # update_model is setting the controls to match the model
        with self.output:
            owner = change["owner"]
            if owner is self.controls["discordant"]:
                self.model.scramble(change["new"])
            elif owner is self.controls["preset"] and change["new"] is not None:
                self.model.set_order(self._presets[change["new"]])
        self.refresh()

    def move_selected(self, step: int) -> None:
        """Move the selected item ``step`` places (-1: up, +1: down); the selection follows."""
        with self.output:
            position = self.controls["selected"].value
            target = min(max(position + step, 1), self.model.n_items)
            if target == position:
                return  # already at the top (or bottom)
            self.model.move(position, target - position)
            self.controls["selected"].value = target  # the slider's observer redraws

    def reset(self) -> None:
        """Go back to the order the model was built with."""
        with self.output:
            self.model.reset()
        self.refresh()

    def update_model(self) -> None:
        # The model changes through actions (slider, buttons, preset); here the controls are
        # set to show its state, without acting on their own change.
        self._syncing = True
        try:
            self.controls["discordant"].value = self.model.counts().discordant
            matching = [name for name, order in self._presets.items()
                        if order == self.model.order]
            self.controls["preset"].value = matching[0] if matching else None
        finally:
            self._syncing = False

    def render_summary(self) -> str:
        m = self.model
        s = m.summary()
        position = self.controls["selected"].value
        item = m.order[position - 1]
        places = dict(zip(m.items, m.reference.tolist(), strict=True))
        rankings = _grid(
            ["position"] + [str(i) for i in range(1, m.n_items + 1)],
            [["reference"] + m.reference_order,
             ["your ranking"] + list(m.order),
             ["its reference place"] + [f"{places[name]:g}" for name in m.order]],
            shaded_column=position,
        )
        difference = s["concordant"] - s["discordant"]
        rows = [
            ("items n", str(s["n_items"])),
            ("pairs n(n-1)/2", str(s["n_pairs"])),
            ("concordant pairs C", str(s["concordant"])),
            ("discordant pairs D", str(s["discordant"])),
            ("pairs tied in the reference", str(s["tied"])),
            ("Kendall's τ-a = (C - D) / pairs", _format(s["tau_a"])),
            ("Kendall's τ-b (scipy's default)", _format(s["tau_b"])),
            ("Spearman's ρ", _format(s["rho"])),
        ]
        sums = (f"τ-a = ({s['concordant']} - {s['discordant']}) / {s['n_pairs']} = "
                f"{difference} / {s['n_pairs']} = {_format(s['tau_a'])}")
        pairs = m.pairs()
        caption = "Every pair"
        if len(pairs) > self.MAX_LISTED_PAIRS:
            pairs = pairs[pairs.verdict == "discordant"]
            caption = f"The {len(pairs)} discordant pairs"
        body = "".join(
            "<tr>" + "".join(
                f"<td style='padding:1px 8px;font-family:monospace'>{html.escape(cell)}</td>"
                for cell in (f"{{{row.first}, {row.second}}}", row[2], row[3]))
            + f"<td style='padding:1px 8px;background:{_VERDICT_COLOURS[row.verdict]}'>"
            f"{html.escape(row.verdict)}</td></tr>"
            for row in pairs.itertuples(index=False))
        head = "".join(f"<th style='padding:1px 8px;text-align:left'>{name}</th>"
                       for name in ("pair", "reference", "your ranking", "verdict"))
        pair_table = (f"<table class='evalkit-pairs'><caption style='text-align:left'><b>"
                      f"{caption}</b></caption><tr>{head}</tr>{body}</table>")
        return (
            f"<p><b>Selected:</b> position {position}, item {html.escape(item)} "
            f"(reference place {places[item]:g})</p>" + rankings
            + _table(rows, "Counts and coefficients")
            + f"<p style='max-width:440px'>{html.escape(sums)}</p>" + pair_table
        )

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from ..plots import plot_rank_crossings

        m = self.model
        selected = m.order[self.controls["selected"].value - 1]
        figure, ax = plt.subplots(figsize=(4.2, 0.45 * m.n_items + 1.6))
        plot_rank_crossings(m.reference, m.y, labels=m.items, highlight=selected,
                            right_title="your ranking", ax=ax)
        figure.tight_layout()
        return figure
