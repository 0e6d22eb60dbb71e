"""The kappa explorer: two judges' yes/no table, agreement, chance agreement and kappa."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import check_option, check_scalar
from ..agreement import (
    KAPPA_MARGINALS,
    KAPPA_SCALES,
    interpret_kappa,
    kappa_from_table,
    kappa_terms,
    labels_from_table,
)
from ..plots import OKABE_ITO
from ._base import _Explorer, _format, _grid, _table
from ._state import check_changes, keyword_options

if TYPE_CHECKING:  # ipywidgets loads when a view is built, not with the model
    import ipywidgets as widgets

# kappa_curve's tables are scaled by this before rounding to whole counts.
_CURVE_SCALE = 1_000_000


class KappaModel:
    r"""Two judges' yes/no labels of the same items as a 2×2 table: agreement, chance, kappa.

    The state behind :class:`evalkit.widgets.KappaExplorer`. Rows are judge A, columns judge
    B (``table`` is ``[[both_yes, a_yes_b_no], [a_no_b_yes, both_no]]``). With *n* items and
    :math:`p_A`, :math:`p_B` the shares of items each judge calls "yes":

    .. math::

        P(a) = \frac{\text{both\_yes} + \text{both\_no}}{n}, \qquad
        P(e)_{\text{separate}} = p_A\, p_B + (1 - p_A)(1 - p_B), \qquad
        P(e)_{\text{pooled}} = \bar p^2 + (1 - \bar p)^2,\ \bar p = \frac{p_A + p_B}{2},

    and :math:`\kappa = (P(a) - P(e)) / (1 - P(e))` either way (Cohen 1960 with separate
    marginals; Scott's pi, Siegel & Castellan, Carletta 1996 with pooled ones). The kappas
    come from :func:`kappa_from_table`, :math:`P(a)`, :math:`P(e)` and the marginals from
    :func:`evalkit.kappa_terms` (the same code). Since :math:`P(e)_{\text{pooled}} -
    P(e)_{\text{separate}} = (p_A - p_B)^2 / 2 \ge 0`, the pooled kappa is never above the
    separate one, and the two are equal exactly when the judges say "yes" equally often.

    The explorer sets the table through three shares, which keep *n* fixed (see
    :meth:`set_shares`): ``agreement`` (:math:`P(a)`), ``yes_share`` (the share of the agreed
    items that both call "yes": the prevalence among agreements) and ``a_yes_share`` (the
    share of the disagreements where A says "yes" and B "no"). Moving ``yes_share`` leaves
    :math:`P(a)` alone but moves kappa: the first kappa paradox (Feinstein & Cicchetti 1990),
    high agreement with low kappa when one label dominates. Moving ``a_yes_share`` away from
    one half makes the judges' marginals differ, which *raises* the separate-marginals kappa
    (the second paradox) and leaves the pooled one unchanged.

    Parameters
    ----------
    both_yes, a_yes_b_no, a_no_b_yes, both_no : int
        The four cells; whole numbers >= 0, not all 0. The defaults are the 400-document
        relevance table of Manning, Raghavan & Schütze (2008), section 8.5.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
    Psychological Measurement 20(1), 37–46.
    Scott, W. A. (1955). Reliability of content analysis: the case of nominal scale coding.
    Public Opinion Quarterly 19(3), 321–325.
    Feinstein, A. R. and Cicchetti, D. V. (1990). High agreement but low kappa: I. The problems
    of two paradoxes. Journal of Clinical Epidemiology 43(6), 543–549.
    Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to Information
    Retrieval, section 8.5. Cambridge University Press.

    Examples
    --------
    >>> model = KappaModel(both_yes=300, a_yes_b_no=20, a_no_b_yes=10, both_no=70)
    >>> model.observed_agreement()
    0.925
    >>> round(model.chance_agreement("pooled"), 4), round(model.kappa("pooled"), 4)
    (0.6653, 0.7759)
    >>> round(model.chance_agreement("separate"), 4), round(model.kappa("separate"), 4)
    (0.665, 0.7761)
    >>> model.interpret("pooled"), model.interpret("pooled", scale="carletta")
    ('substantial', 'tentative')
    >>> # the same P(a), but almost every agreed item is a "yes": kappa falls
    >>> model.set_shares(yes_share=0.95).table.tolist()
    [[352, 20], [10, 18]]
    >>> model.observed_agreement(), round(model.kappa(), 4)
    (0.925, 0.5056)
    """

    CELLS = ("both_yes", "a_yes_b_no", "a_no_b_yes", "both_no")
    SHARES = ("agreement", "yes_share", "a_yes_share")
    CURVE_PARAMETERS = ("yes_share", "a_yes_share")

    def __init__(self, both_yes: int = 300, a_yes_b_no: int = 20, a_no_b_yes: int = 10,
                 both_no: int = 70) -> None:
        self.both_yes = self.a_yes_b_no = self.a_no_b_yes = self.both_no = 0
        self.set(both_yes=both_yes, a_yes_b_no=a_yes_b_no, a_no_b_yes=a_no_b_yes,
                 both_no=both_no)

    def __repr__(self) -> str:
        cells = ", ".join(f"{name}={getattr(self, name)}" for name in self.CELLS)
        return f"{type(self).__name__}({cells})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KappaModel):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.CELLS)

    __hash__ = None  # mutable, like a dataclass with eq=True

    # -- setting the table --------------------------------------------------------------------

    def set(self, **cells: Any) -> KappaModel:
        """Change some of the four cells and return the model.

        The whole change is checked before any of it is applied (each cell a whole number
        >= 0, and the table not empty): a bad change leaves the model as it was.
        """
        checks = {name: (lambda v, name=name: check_scalar(v, name, kind="int", low=0))
                  for name in self.CELLS}
        checked = check_changes(cells, checks)
        new = {name: checked.get(name, getattr(self, name)) for name in self.CELLS}
        if sum(new.values()) == 0:
            raise ValueError("the table is empty (all four cells are 0); two judges need at "
                             "least one item to agree or disagree on")
        for name, value in new.items():
            setattr(self, name, value)
        return self

    @staticmethod
    def _check_share(value: Any, name: str) -> float:
        return check_scalar(value, name, low=0.0, high=1.0)

    def set_shares(self, *, agreement: float | None = None, yes_share: float | None = None,
                   a_yes_share: float | None = None) -> KappaModel:
        r"""Rebuild the table from shares, keeping the number of items *n*; return the model.

        Counts are rounded half up: :math:`n_{agree} = \lfloor n\,P(a) + \tfrac12\rfloor`,
        ``both_yes`` :math:`= \lfloor n_{agree}\cdot` ``yes_share`` :math:`+ \tfrac12\rfloor`,
        ``a_yes_b_no`` :math:`= \lfloor n_{disagree}\cdot` ``a_yes_share``
        :math:`+ \tfrac12\rfloor`; the other two cells take the rest. A share left as None
        keeps its current value (one half when it is undefined: no agreements, or no
        disagreements).
        """
        agreement = (self.observed_agreement() if agreement is None
                     else self._check_share(agreement, "agreement"))
        current = self.yes_share
        yes_share = ((0.5 if np.isnan(current) else current) if yes_share is None
                     else self._check_share(yes_share, "yes_share"))
        current = self.a_yes_share
        a_yes_share = ((0.5 if np.isnan(current) else current) if a_yes_share is None
                       else self._check_share(a_yes_share, "a_yes_share"))
        n = self.n_items
        n_agree = int(np.floor(n * agreement + 0.5))
        both_yes = int(np.floor(n_agree * yes_share + 0.5))
        n_disagree = n - n_agree
        a_yes_b_no = int(np.floor(n_disagree * a_yes_share + 0.5))
        return self.set(both_yes=both_yes, both_no=n_agree - both_yes, a_yes_b_no=a_yes_b_no,
                        a_no_b_yes=n_disagree - a_yes_b_no)

    @classmethod
    def from_shares(cls, n_items: int, agreement: float, yes_share: float = 0.5,
                    a_yes_share: float = 0.5) -> KappaModel:
        """A table of ``n_items`` items built from the three shares of :meth:`set_shares`.

        >>> KappaModel.from_shares(100, 0.85, yes_share=80 / 85, a_yes_share=10 / 15)
        KappaModel(both_yes=80, a_yes_b_no=10, a_no_b_yes=5, both_no=5)
        """

        n_items = check_scalar(n_items, "n_items", kind="int", low=1)
        model = cls(both_yes=n_items, a_yes_b_no=0, a_no_b_yes=0, both_no=0)
        return model.set_shares(agreement=agreement, yes_share=yes_share,
                                a_yes_share=a_yes_share)

    # -- the table and its shares -------------------------------------------------------------

    @property
    def table(self) -> np.ndarray:
        """``[[both_yes, a_yes_b_no], [a_no_b_yes, both_no]]``: rows judge A, columns B."""
        return np.array([[self.both_yes, self.a_yes_b_no], [self.a_no_b_yes, self.both_no]])

    @property
    def n_items(self) -> int:
        return self.both_yes + self.a_yes_b_no + self.a_no_b_yes + self.both_no

    @property
    def n_agreements(self) -> int:
        return self.both_yes + self.both_no

    @property
    def n_disagreements(self) -> int:
        return self.a_yes_b_no + self.a_no_b_yes

    @property
    def yes_share(self) -> float:
        """Share of the agreed items that both judges call "yes" (NaN without agreements)."""
        return self.both_yes / self.n_agreements if self.n_agreements else float("nan")

    @property
    def a_yes_share(self) -> float:
        """Share of the disagreements where A says "yes", B "no" (NaN without any)."""
        return self.a_yes_b_no / self.n_disagreements if self.n_disagreements else float("nan")

    def to_labels(self) -> tuple[np.ndarray, np.ndarray]:
        """The items themselves: two arrays of labels, 1 = "yes" and 0 = "no", in table order.

        >>> a, b = KappaModel(2, 1, 0, 1).to_labels()
        >>> a.tolist(), b.tolist()
        ([1, 1, 1, 0], [1, 1, 0, 0])
        """
        return labels_from_table(self.table, labels=[1, 0])

    # -- agreement, chance, kappa -------------------------------------------------------------

    def terms(self, marginals: str = "separate") -> Any:
        """:func:`evalkit.kappa_terms` of the table: P(a), P(e), kappa and the marginals."""
        return kappa_terms(self.table, marginals=marginals, zero_division=np.nan)

    def observed_agreement(self) -> float:
        """P(a): the share of items the two judges label alike."""
        return self.terms().observed

    def marginals(self) -> dict[str, tuple[float, float]]:
        """Shares of ("yes", "no") for judge A, judge B and the two pooled."""
        terms = self.terms()
        return {name: (float(shares[0]), float(shares[1])) for name, shares in
                (("judge A", terms.row_marginals), ("judge B", terms.column_marginals),
                 ("pooled", terms.pooled_marginals))}

    def chance_agreement(self, marginals: str = "separate") -> float:
        """P(e): the agreement expected by chance, from separate or pooled marginals."""
        return self.terms(check_option(marginals, "marginals", KAPPA_MARGINALS)).expected

    def kappa(self, marginals: str = "separate") -> float:
        """Kappa with separate (Cohen) or pooled (Scott) marginals; NaN when P(e) = 1."""
        return kappa_from_table(self.table, marginals=marginals, zero_division=np.nan)

    def interpret(self, marginals: str = "separate", scale: str = "landis-koch") -> str:
        """:func:`interpret_kappa` of :meth:`kappa`; "undefined" when kappa is."""
        kappa = self.kappa(marginals)
        return "undefined" if np.isnan(kappa) else interpret_kappa(kappa, scale=scale)

    def summary(self) -> dict[str, Any]:
        """Every number the explorer shows, by name.

        Keys: ``n_items``, ``observed_agreement`` (:math:`P(a)`), ``a_yes``, ``b_yes`` and
        ``pooled_yes`` (shares of "yes"), then for ``<m>`` in ``separate`` and ``pooled``:
        ``chance_<m>`` (:math:`P(e)`), ``kappa_<m>``, ``landis_koch_<m>`` and
        ``carletta_<m>`` (the verbal labels of :func:`evalkit.interpret_kappa`).
        """
        shares = self.marginals()
        result: dict[str, Any] = {
            "n_items": self.n_items,
            "observed_agreement": self.observed_agreement(),
            "a_yes": shares["judge A"][0],
            "b_yes": shares["judge B"][0],
            "pooled_yes": shares["pooled"][0],
        }
        for marginals in KAPPA_MARGINALS:
            result[f"chance_{marginals}"] = self.chance_agreement(marginals)
            result[f"kappa_{marginals}"] = self.kappa(marginals)
            for scale in KAPPA_SCALES:
                result[f"{scale.replace('-', '_')}_{marginals}"] = self.interpret(marginals,
                                                                                   scale)
        return result

    def kappa_curve(self, parameter: str, values: Any, *, marginals: str = "separate"
                    ) -> np.ndarray:
        r"""Kappa as one share varies and the rest of the table stays as it is.

        ``parameter="yes_share"`` splits the current agreements into ``both_yes`` and
        ``both_no`` in the given shares (the disagreement cells stay);
        ``"a_yes_share"`` splits the current disagreements into ``a_yes_b_no`` and
        ``a_no_b_yes`` (the agreement cells stay). :math:`P(a)` is the same all along the
        curve. Counts may be fractional here, so the curve is smooth; NaN where
        :math:`P(e) = 1`.

        Parameters
        ----------
        parameter : {"yes_share", "a_yes_share"}
        values : array-like of floats in [0, 1]
        marginals : {"separate", "pooled"}, default "separate"

        Returns
        -------
        ndarray of shape (len(values),)
        """
        parameter = check_option(parameter, "parameter", self.CURVE_PARAMETERS)
        marginals = check_option(marginals, "marginals", KAPPA_MARGINALS)
        try:
            shares = np.asarray(values, dtype=np.float64).reshape(-1)
        except (TypeError, ValueError):
            raise ValueError("values must be numbers from 0 to 1") from None
        if not np.isfinite(shares).all() or (shares < 0).any() or (shares > 1).any():
            raise ValueError("values must be numbers from 0 to 1")
        n = self.n_items
        if parameter == "yes_share":
            both_yes = self.n_agreements * shares
            a_yes_b_no = np.full_like(shares, self.a_yes_b_no)
            a_no_b_yes = np.full_like(shares, self.a_no_b_yes)
        else:
            both_yes = np.full_like(shares, self.both_yes)
            a_yes_b_no = self.n_disagreements * shares
            a_no_b_yes = self.n_disagreements - a_yes_b_no
        both_no = n - both_yes - a_yes_b_no - a_no_b_yes
        # Kappa depends on the table's shares only, so each fractional table is scaled up and
        # rounded to the whole counts kappa_from_table takes (shares off by < 1e-6 / n).
        tables = np.stack([both_yes, a_yes_b_no, a_no_b_yes, both_no], axis=1)
        whole = np.rint(tables * _CURVE_SCALE).astype(np.int64).reshape(-1, 2, 2)
        return np.array([kappa_from_table(table, marginals=marginals, zero_division=np.nan)
                         for table in whole])


@keyword_options
class KappaExplorer(_Explorer):
    """Two judges' yes/no table: move the prevalence and watch kappa move while P(a) stays.

    Controls, in this order: ``yes_share`` (the share of the agreed items that both judges
    call "yes"; moving it leaves the observed agreement alone and produces the first kappa
    paradox, high agreement with low kappa when one label dominates), ``agreement`` (the
    observed agreement :math:`P(a)`) and ``a_yes_share`` (the share of the disagreements
    where judge A says "yes" and B "no"; moving it away from one half makes the marginals
    lopsided, which raises Cohen's kappa but not Scott's: the second paradox). The number of
    items stays that of the model. The summary shows the table, :math:`P(a)`, each judge's
    share of "yes", :math:`P(e)` and kappa with separate (Cohen) and pooled (Scott) marginals,
    and the Landis & Koch and Carletta labels; the figure draws kappa against the first and
    the third control with :math:`P(a)` fixed. The state is an
    :class:`evalkit.widgets.KappaModel`.

    Examples
    --------
    >>> explorer = KappaExplorer(plot=False)  # the 400-document table of IIR section 8.5
    >>> round(explorer.model.kappa(), 4), round(explorer.model.kappa("pooled"), 4)
    (0.7761, 0.7759)
    >>> explorer.controls["yes_share"].value = 0.95
    >>> explorer.model.table.tolist()
    [[352, 20], [10, 18]]
    >>> explorer.model.observed_agreement(), round(explorer.model.kappa(), 4)
    (0.925, 0.5056)
    """

    def __init__(self, model: Any = None, *, plot: bool = True) -> None:

        import ipywidgets as widgets

        self.model = model or KappaModel()

        def start(share: float) -> float:
            return 0.5 if math.isnan(share) else share

        style = {"description_width": "200px"}
        layout = widgets.Layout(width="540px")
        slider = {"style": style, "layout": layout, "continuous_update": False}
        controls: dict[str, widgets.Widget] = {
            "yes_share": widgets.FloatSlider(
                value=start(self.model.yes_share), min=0.0, max=1.0, step=0.01,
                readout_format=".0%", description="agreed items that are 'yes'", **slider),
            "agreement": widgets.FloatSlider(
                value=self.model.observed_agreement(), min=0.0, max=1.0, step=0.005,
                readout_format=".1%", description="observed agreement P(a)", **slider),
            "a_yes_share": widgets.FloatSlider(
                value=start(self.model.a_yes_share), min=0.0, max=1.0, step=0.05,
                readout_format=".0%", description="disagreements: A yes, B no", **slider),
        }
        super().__init__(controls, plot=plot)

    def update_model(self) -> None:
        self.model.set_shares(**{name: control.value for name, control in self.controls.items()})

    def render_summary(self) -> str:
        m = self.model
        s = m.summary()
        a_yes = m.both_yes + m.a_yes_b_no
        b_yes = m.both_yes + m.a_no_b_yes
        table = _grid(
            ["", "B yes", "B no", "total"],
            [["A yes", str(m.both_yes), str(m.a_yes_b_no), str(a_yes)],
             ["A no", str(m.a_no_b_yes), str(m.both_no), str(m.n_items - a_yes)],
             ["total", str(b_yes), str(m.n_items - b_yes), str(m.n_items)]],
            f"{m.n_items} items judged by A (rows) and B (columns)",
        )
        shares = [
            ("observed agreement P(a)", _format(s["observed_agreement"], 4)),
            ("judge A says yes", _format(s["a_yes"], 4)),
            ("judge B says yes", _format(s["b_yes"], 4)),
            ("pooled share of yes", _format(s["pooled_yes"], 4)),
        ]
        kappas = [
            ("P(e), separate marginals", _format(s["chance_separate"], 4)),
            ("P(e), pooled marginals", _format(s["chance_pooled"], 4)),
            ("kappa, separate (Cohen)", _format(s["kappa_separate"], 4)),
            ("kappa, pooled (Scott)", _format(s["kappa_pooled"], 4)),
            ("Landis & Koch: separate | pooled",
             f"{s['landis_koch_separate']} | {s['landis_koch_pooled']}"),
            ("Carletta: separate | pooled",
             f"{s['carletta_separate']} | {s['carletta_pooled']}"),
        ]
        return table + _table(shares, "Agreement") + _table(kappas, "Chance and kappa")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt
        import numpy as np

        m = self.model
        grid = np.linspace(0.0, 1.0, 201)
        observed = m.observed_agreement()
        figure, axes = plt.subplots(1, 2, figsize=(10.5, 3.8), sharey=True)
        panels = [
            ("yes_share", "share of agreed items both call 'yes'",
             "Prevalence: same P(a), different kappa"),
            ("a_yes_share", "share of disagreements where A says yes",
             "Lopsided disagreements raise Cohen's kappa"),
        ]
        lowest = 0.0
        for ax, (parameter, xlabel, title) in zip(axes, panels, strict=True):
            now = getattr(m, parameter)
            for marginals, style, color in (("separate", "-", OKABE_ITO["blue"]),
                                            ("pooled", "--", OKABE_ITO["vermillion"])):
                curve = m.kappa_curve(parameter, grid, marginals=marginals)
                name = "Cohen (separate)" if marginals == "separate" else "Scott (pooled)"
                ax.plot(grid, curve, style, color=color, label=f"kappa, {name}")
                if np.isfinite(curve).any():
                    lowest = min(lowest, float(np.nanmin(curve)))
                if not math.isnan(now) and not math.isnan(m.kappa(marginals)):
                    ax.plot([now], [m.kappa(marginals)], "o", color=color)
            ax.axhline(observed, color="#555555", linestyle=":",
                       label=f"P(a) = {observed:.3f}")
            ax.set_xlabel(xlabel)
            ax.set_title(title, fontsize=10)
            ax.set_xlim(0, 1)
            ax.grid(alpha=0.3)
        axes[0].set_ylabel("kappa")
        axes[0].set_ylim(lowest - 0.05, 1.05)
        axes[1].legend(loc="lower center", fontsize=8)
        figure.tight_layout()
        return figure
