"""The names :func:`evalkit.trec.evaluate` takes, read: ir_measures-style (``AP``,
``nDCG@10``, ``RBP(p=0.8)``) and trec_eval's (``map``, ``P_10``, ``ndcg.1=3.5,2=9``), each
turned into a measure of ``_registry``, its cutoff and options (with the errors that name the
metric). Light on purpose: numpy and the registry, no pandas, so that ``evalkit trec_eval``'s
fast path can read its measure names without loading the table machinery."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._ranking_core import TIES
from ._registry import MEASURES, PARAM_FLOAT, TREC_EVAL

__all__ = ["METRICS", "TREC_EVAL_NAMES", "TREC_EVAL_FAMILIES", "TREC_EVAL_PARAMETERS"]

#: The measures :func:`evaluate` knows, and whether they take a cutoff ``@k`` ("optional",
#: "required" or "none"): from their records in ``evalkit.trec._registry``.
METRICS = {name: measure.cutoff for name, measure in MEASURES.items()}
_METRIC_PATTERN = re.compile(
    r"(?P<name>[A-Za-z]+)(?:\((?P<options>[^()]*)\))?(?:@(?P<cutoff>[^@]+))?")
_OPTION_PATTERN = re.compile(r"\s*(?P<key>\w+)\s*=\s*(?P<value>\{[^{}]*\}|[^,{}]+?)\s*(?:,|$)")
#: The measures whose cutoff is a real number, and what it is.
_FLOAT_CUTOFFS = {name: m.real_cutoff for name, m in MEASURES.items() if m.real_cutoff}

#: trec_eval's names that :func:`evaluate` also takes, each with the ir_measures-style name it
#: stands for. Families take their cutoff after ``_`` or ``.`` (``P_10``, ``P.10``).
TREC_EVAL_NAMES = {t.name: t.evalkit for t in TREC_EVAL.values()
                   if not t.family and not t.refused}
TREC_EVAL_FAMILIES = {t.name: t.evalkit for t in TREC_EVAL.values() if t.family}
#: trec_eval's measures that take parameters after a dot other than cutoffs, and their kind:
#: "coefficients" (``utility.1,-1,0,0``), "gains" (``ndcg.1=3.5,2=9``: grade=gain pairs),
#: "rbp" (``rbp.p=0.8,2=3``: p and gains), "persistence" (``rbp_resid.p=0.8``), "length"
#: (``relstring.20``).
TREC_EVAL_PARAMETERS = {t.name: t.parameters for t in TREC_EVAL.values() if t.parameters}
# trec_eval's names with one real parameter that is evaluate's cutoff (set_F_0.5, set_F.0.5).
_PARAMETER_CUTOFFS = {t.name: t.evalkit for t in TREC_EVAL.values()
                      if t.kind == PARAM_FLOAT and MEASURES[t.evalkit].cutoff != "none"}
_TREC_FAMILY_PATTERN = re.compile(
    r"(?P<family>" + "|".join(sorted(TREC_EVAL_FAMILIES, key=len, reverse=True))
    + r")[_.](?P<cutoff>[0-9.]+)"
)


#: trec_eval's names that are not per-query values, and why.
_SUMMARY_ONLY = {t.name: t.refused for t in TREC_EVAL.values() if t.refused}


def _from_trec_eval_name(label: str) -> tuple[str, str | None, dict[str, Any]] | None:
    """(name, cutoff text, options) for a trec_eval measure name, or None when it is not
    one."""
    if label in TREC_EVAL_NAMES:
        return TREC_EVAL_NAMES[label], None, {}
    for base, name in _PARAMETER_CUTOFFS.items():
        if label.startswith((f"{base}_", f"{base}.")):
            return name, label[len(base) + 1:], {}
    base, dot, text = label.partition(".")
    if dot and base in TREC_EVAL_PARAMETERS:
        return _trec_eval_parameters(base, text, label)
    match = _TREC_FAMILY_PATTERN.fullmatch(label)
    if match is None:
        return None
    return TREC_EVAL_FAMILIES[match.group("family")], match.group("cutoff"), {}


def _number(text: str, label: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not np.isfinite(value):
        raise ValueError(f"metrics: {label!r} needs {what}; got {text!r}")
    return value


def _gain_pairs(pairs: list[tuple[str, str]], label: str) -> dict[int, float]:
    gains: dict[int, float] = {}
    for level, gain in pairs:
        level = level.strip()
        if not level.isdigit():
            raise ValueError(f"metrics: {label!r}: gains are grade=gain pairs with whole "
                             f"grades >= 0, e.g. 1=3.5,2=9; got {level!r}")
        gains[int(level)] = _number(gain, label, "a number as each gain")
    return gains


def _trec_eval_parameters(base: str, text: str, label: str
                          ) -> tuple[str, str | None, dict[str, Any]]:
    """A trec_eval name with its parameters after the dot, as trec_eval's -m reads them."""
    name, kind = TREC_EVAL_NAMES[base], TREC_EVAL_PARAMETERS[base]
    if kind == "length":
        return name, str(max(int(_number(text, label, "a length, e.g. relstring.20")), 1)), {}
    parts = text.split(",")
    if kind == "coefficients":
        if len(parts) != 4:
            raise ValueError(f"metrics: {label!r} needs 4 coefficients, e.g. "
                             f"utility.1,-1,0,0 (got {len(parts)})")
        values = [_number(part, label, "numbers as coefficients") for part in parts]
        return name, None, dict(zip("abcd", values, strict=True))
    pairs = [part.partition("=")[::2] for part in parts]
    if any(not value for _, value in pairs):
        raise ValueError(f"metrics: {label!r} needs name=value pairs, e.g. {base}.1=3.5,2=9")
    options: dict[str, Any] = {}
    if kind in ("rbp", "persistence"):
        p = [value for key, value in pairs if key.strip() == "p"]
        if p:
            options["p"] = _number(p[-1], label, "a number as p")
        pairs = [(key, value) for key, value in pairs if key.strip() != "p"]
        if kind == "persistence" and pairs:
            raise ValueError(f"metrics: {label!r} takes only p, e.g. rbp_resid.p=0.8")
    if pairs:
        options["gains"] = _gain_pairs(pairs, label)
    return name, None, options


def _parse_options(name: str, text: str, label: str) -> dict[str, Any]:
    """The keyword options of an ir_measures-style name, ``RBP(p=0.8)``,
    ``nDCG(gains={0:0,1:1,2:3})``."""
    allowed = MEASURES[name].options
    options: dict[str, Any] = {}
    position = 0
    for match in _OPTION_PATTERN.finditer(text):
        if match.start() != position:
            break
        position = match.end()
        key, value = match.group("key"), match.group("value")
        if key not in allowed:
            takes = ", ".join(allowed) if allowed else "no options"
            raise ValueError(f"metrics: {label!r}: {name} takes {takes}; got {key!r}")
        if key == "gains":
            if not (value.startswith("{") and value.endswith("}")):
                raise ValueError(f"metrics: {label!r}: gains are a mapping, "
                                 f"e.g. gains={{0:0,1:1,2:3}}")
            inner = value[1:-1].strip()
            pairs = [item.partition(":")[::2] for item in inner.split(",")] if inner else []
            if any(not gain for _, gain in pairs):
                raise ValueError(f"metrics: {label!r}: gains are grade:gain pairs, "
                                 f"e.g. gains={{0:0,1:1,2:3}}")
            options[key] = _gain_pairs(pairs, label)
        elif key == "ties":
            choice = value.strip("'\"")
            if choice not in TIES:
                raise ValueError(f"metrics: {label!r}: ties is one of "
                                 f"{', '.join(TIES)}; got {choice!r}")
            options[key] = choice
        elif key == "n_docs":
            count = _number(value, label, "a whole number of documents as n_docs")
            if count != int(count) or count < 0:
                raise ValueError(f"metrics: {label!r}: n_docs is a whole number >= 0")
            options[key] = int(count)
        else:
            options[key] = _number(value, label, f"a number as {key}")
    if position != len(text) and text.strip():
        raise ValueError(f"metrics: {label!r}: options are name=value pairs separated by "
                         f"commas, e.g. RBP(p=0.8)")
    return options


def _known_names() -> list[str]:
    names = [f"{n}@k" if rule == "required" else n for n, rule in METRICS.items()]
    return names + list(TREC_EVAL_NAMES) + [f"{family}_k" for family in TREC_EVAL_FAMILIES]


def _unknown_metric(label: Any) -> ValueError:
    """The error for an unknown name, suggesting the nearest name in both vocabularies."""
    text = str(label)
    stem = re.split(r"[@_.]?[0-9]", text, maxsplit=1)[0] or text
    # The closest name in either vocabulary, then its counterpart in the other one.
    trec_of = {v: k for k, v in TREC_EVAL_FAMILIES.items()}
    trec_of.update({v: k for k, v in TREC_EVAL_NAMES.items()})
    ir_of = {**TREC_EVAL_NAMES, **TREC_EVAL_FAMILIES}
    names = list(METRICS) + list(ir_of)
    folded = {name.lower(): name for name in names}
    closest = difflib.get_close_matches(stem.lower(), list(folded), n=1, cutoff=0.0)
    nearest = folded[closest[0]] if closest else "AP"
    ir_name = ir_of.get(nearest, nearest)
    trec_name = nearest if nearest in ir_of else trec_of.get(nearest, "map")
    float_cut = ir_name in _FLOAT_CUTOFFS
    if METRICS.get(ir_name) == "required" or nearest in TREC_EVAL_FAMILIES:
        ir_name += "@0.5" if float_cut else "@10"
    if trec_name in TREC_EVAL_FAMILIES:
        trec_name += "_0.50" if float_cut else "_10"
    hints = f"{ir_name!r} (ir_measures) or {trec_name!r} (trec_eval)"
    return ValueError(
        f"metrics: unknown metric {label!r}; did you mean {hints}? "
        f"Known metrics: {', '.join(_known_names())}"
    )


@dataclass(frozen=True)
class _Metric:
    label: str
    name: str
    cutoff: int | float | None
    options: dict[str, Any] = field(default_factory=dict)


def _parse_cutoff(name: str, text: str, label: str) -> int | float:
    if name in _FLOAT_CUTOFFS:
        try:
            level = float(text)
        except ValueError:
            level = -1.0
        valid = 0.0 <= level <= MEASURES[name].cutoff_max and level < float("inf")
        if not valid:
            raise ValueError(f"metrics: {label!r} needs {_FLOAT_CUTOFFS[name]} as its cutoff")
        return level
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"metrics: {label!r} needs a whole number >= 1 as its cutoff")
    return int(text)


def _parse_metrics(metrics: Any) -> list[_Metric]:
    if isinstance(metrics, str):
        metrics = [metrics]
    try:
        metrics = list(metrics)
    except TypeError:
        raise TypeError(
            f"metrics must be a list of metric names such as ['AP', 'nDCG@10']; got {metrics!r}"
        ) from None
    if not metrics:
        raise ValueError("metrics is empty; ask for at least one, e.g. ['AP', 'nDCG@10']")
    parsed: list[_Metric] = []
    for label in metrics:
        match = _METRIC_PATTERN.fullmatch(label) if isinstance(label, str) else None
        trec = _from_trec_eval_name(label) if isinstance(label, str) else None
        options: dict[str, Any] = {}
        if trec is not None:
            name, text, options = trec
        elif match is not None and match.group("name") in METRICS:
            name, text = match.group("name"), match.group("cutoff")
            if match.group("options") is not None:
                options = _parse_options(name, match.group("options"), label)
        elif label in TREC_EVAL_FAMILIES:
            ir_name = TREC_EVAL_FAMILIES[label]
            cut = "0.5" if ir_name in _FLOAT_CUTOFFS else "10"
            raise ValueError(f"metrics: trec_eval's {label!r} needs a cutoff, e.g. "
                             f"'{label}_{cut}' (or '{ir_name}@{cut}')")
        elif label in _SUMMARY_ONLY:
            raise ValueError(f"metrics: {label!r} {_SUMMARY_ONLY[label]}")
        else:
            raise _unknown_metric(label)
        rule = METRICS[name]
        if rule == "none" and text is not None:
            raise ValueError(f"metrics: {name} takes no cutoff; got {label!r}")
        if rule == "required" and text is None:
            example = "0.5" if name in _FLOAT_CUTOFFS else "10"
            raise ValueError(
                f"metrics: {name} needs a cutoff, e.g. {name}@{example}; got {label!r}"
            )
        cutoff = None if text is None else _parse_cutoff(name, text, label)
        if any(m.label == label for m in parsed):
            raise ValueError(f"metrics: {label!r} is asked for twice")
        parsed.append(_Metric(label, name, cutoff, options))
    return parsed
