"""``evalkit trec_eval -m``: which measures are asked for, with which parameters, and the
columns (printed names and the :func:`evalkit.trec.evaluate` labels behind them) in
trec_eval's order (``meas_init.c``, ``measures.c``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from ._command_files import TrecEvalError, c_atof, c_atol
from ._metric_names import _parse_metrics
from ._registry import (
    BY_NAME,
    CUT_FLOAT,
    CUT_LONG,
    DEFAULT_VERSION,
    MEASURES,
    NICKNAMES_BY_VERSION,
    NOT_COMPUTED,
    OTHER_TREC_EVAL,
    PARAM_FLOAT,
    PREFS,
    SUPPORTED,
    TREC_EVAL,
    TrecEvalName,
)

__all__ = ["Selection", "Column", "select_measures", "plan"]


# ---------------------------------------------------------------------------------------------
# -m: which measures, with which parameters
# ---------------------------------------------------------------------------------------------
@dataclass
class Selection:
    """The measures asked for (names), each family's parameter text, and the nickname
    members evalkit leaves out."""

    names: set[str] = field(default_factory=set)
    params: dict[str, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)


def _known(name: str, version: str) -> bool:
    measure = TREC_EVAL.get(name)
    return (measure is not None and version in measure.versions) or name in NOT_COMPUTED


def select_measures(arguments: Sequence[str], version: str = DEFAULT_VERSION) -> Selection:
    """Apply each ``-m`` as trec_eval's ``mark_measure`` does."""
    selection = Selection()
    nicknames = NICKNAMES_BY_VERSION[version]
    for argument in arguments or ["official"]:
        name, dot, param = argument.partition(".")
        if dot:
            if not param:
                raise TrecEvalError(f"improper measure in parameter '{name}' (-m {argument})")
            selection.params.setdefault(name, param)  # the first one given wins
        if name in nicknames:
            for member in nicknames[name]:
                if member in BY_NAME:
                    selection.names.add(member)
                elif member not in selection.skipped:
                    selection.skipped.append(member)
        elif name in BY_NAME and _known(name, version):
            selection.names.add(name)
        elif _known(name, version) or name in OTHER_TREC_EVAL or name in PREFS:
            raise TrecEvalError(
                f"measure '{name}' is trec_eval {version}'s but evalkit does not compute it; "
                f"see 'evalkit trec_eval --help' for the measures it does")
        else:
            raise TrecEvalError(f"illegal measure '{argument}'{_suggest(name, version)}")
    return selection


def _suggest(name: str, version: str) -> str:
    import difflib

    if name == "all":
        return "; did you mean 'all_trec'?"
    names = [m.name for m in SUPPORTED if version in m.versions]
    names += list(NICKNAMES_BY_VERSION[version])
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
    return f"; did you mean '{close[0]}'?" if close else ""


@dataclass(frozen=True)
class Column:
    """One printed value: its trec_eval name, and the evalkit labels it is computed from."""

    name: str
    measure: TrecEvalName
    labels: tuple[str, ...]  # evalkit labels; PARAM_FLOAT averages them
    crashes: bool = False  # trec_eval crashes right after printing this one's summary line
def _shared_gains(selection: Selection, version: str) -> dict[str, tuple[str | None, str | None,
                                                                     bool]]:
    """10.0's dcg, ideal_dcg and ndcg share one parameter block (``m_ndcg.c``): each one
    asked for, in trec_eval's order, stores its own ``-m`` parameters there (replacing what
    an earlier one stored) and takes its printed name from what is there when it is set up;
    all of them compute with what is there at the end. When two or more are asked for and
    one has parameters, the summary frees the block once per measure (``meas_print_final.c``)
    and trec_eval crashes: after the first one's summary line if its name is its plain name
    (a string constant it frees), else after the second one's (a double free).

    Returns, per name: (printed parameters, gains computed with, crashes after its line)."""
    asked = [m.name for m in SUPPORTED if m.shares_gains
             and m.name in selection.names and version in m.versions]
    if version != "10.0":
        return {name: (selection.params.get(name),) * 2 + (False,) for name in asked}
    current: str | None = None
    printed: dict[str, str | None] = {}
    for name in asked:
        current = selection.params.get(name, current)
        printed[name] = current
    crash_at = None
    if len(asked) >= 2 and current is not None:
        crash_at = asked[0] if printed[asked[0]] is None else asked[1]
    return {name: (printed[name], current, name == crash_at) for name in asked}


def _split(text: str) -> list[str]:
    return text.split(",")


def plan(selection: Selection, version: str = DEFAULT_VERSION) -> list[Column]:
    """The printed names in trec_eval's order, with the evalkit measures behind them
    (``meas_init.c``: whole-number cutoffs by ``atol``, sorted, positive and distinct; other
    cutoffs by ``atof``, sorted and distinct)."""
    columns: list[Column] = []
    shared = _shared_gains(selection, version)
    for measure in SUPPORTED:
        if measure.name not in selection.names or version not in measure.versions:
            continue
        text = selection.params.get(measure.name)
        name = measure.name
        if name in shared:
            printed, gains, crashes = shared[name]
            if text is not None:  # trec_eval reads each one's own parameters as it sets it up
                _check_parameters(name, text)
            label = measure.evalkit if gains is None else f"{name}.{gains}"
            columns.append(Column(name if printed is None else f"{name}_{printed}", measure,
                                  (label,), crashes))
            continue
        if measure.kind == CUT_LONG:
            cuts = list(measure.defaults) if text is None else sorted(
                c_atol(part) for part in _split(text))
            if cuts[0] <= 0:
                raise TrecEvalError(f"-m {name}.{text}: negative cutoff; trec_eval cannot "
                                    f"initialize measure '{name}'", code=2)
            if len(set(cuts)) != len(cuts):
                raise TrecEvalError(f"-m {name}.{text}: duplicate cutoffs; trec_eval cannot "
                                    f"initialize measure '{name}'", code=2)
            columns += [Column(f"{name}_{k}", measure, (f"{measure.evalkit}@{k}",))
                        for k in cuts]
        elif measure.kind == CUT_FLOAT:
            values = list(measure.defaults) if text is None else sorted(
                c_atof(part) for part in _split(text))
            if len(set(values)) != len(values):
                raise TrecEvalError(f"-m {name}.{text}: duplicate cutoffs; trec_eval cannot "
                                    f"initialize measure '{name}'", code=2)
            _check_levels(measure, text, values)
            columns += [Column(f"{name}_{v:3.2f}", measure, (f"{measure.evalkit}@{v!r}",))
                        for v in values]
        elif measure.kind == PARAM_FLOAT:
            values = list(measure.defaults) if text is None else [
                c_atof(part) for part in _split(text)]
            label = name if text is None else f"{name}_{text}"
            if measure.averages:  # 11pt_avg: the mean of IPrec at each level
                _check_levels(measure, text, values)
                columns.append(Column(label, measure, tuple(f"{measure.averages}@{v!r}"
                                                            for v in values)))
            else:  # set_F: its first parameter is evaluate's cutoff
                _check_levels(measure, text, values[:1])
                columns.append(Column(label, measure, (f"{measure.evalkit}@{values[0]!r}",)))
        elif text is not None and measure.parameters:  # utility, ndcg gains, rbp.p, ...
            label = _check_parameters(name, text)
            columns.append(Column(f"{name}_{text}", measure, (label,)))
        else:
            labels = (measure.evalkit,) if measure.evalkit else ()
            columns.append(Column(name, measure, labels))
    return columns


def _check_parameters(name: str, text: str) -> str:
    """evaluate's label for trec_eval's ``name.text``, once evaluate has read it."""
    label = f"{name}.{text}"
    try:
        _parse_metrics([label])
    except ValueError as error:
        raise TrecEvalError(f"-m {label}: {error}", code=2) from None
    return label


def _check_levels(measure: TrecEvalName, text: str | None, values: list[float]) -> None:
    """evalkit's deliberate limits on real-valued parameters (trec_eval takes any number)."""
    upper = MEASURES[measure.averages or measure.evalkit].cutoff_max
    if not all(math.isfinite(v) and 0 <= v <= upper for v in values):
        where = "in [0, 1]" if upper == 1 else ">= 0"
        raise TrecEvalError(f"-m {measure.name}.{text}: evalkit takes parameters {where} "
                            "here (trec_eval takes any number)", code=2)

