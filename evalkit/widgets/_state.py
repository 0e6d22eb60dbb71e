"""What every explorer model shares: a change is checked whole before any of it is applied.

Plain Python, no ipywidgets: a model can be imported, driven and tested without a front end.
"""

from __future__ import annotations

import functools
import inspect
import reprlib
import warnings
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

_SHOW = reprlib.Repr()
_SHOW.maxstring, _SHOW.maxother = 40, 40


def check_changes(changes: Mapping[str, Any],
                  checks: Mapping[str, Callable[[Any], Any]]) -> dict[str, Any]:
    """Return ``changes`` with every value checked (and converted); raise before any is applied.

    ``checks`` maps each setting a model knows to the function that validates one value of
    it. An unknown name is a ``ValueError`` listing the settings; a bad value raises whatever
    its check raises (``TypeError`` for the wrong kind of object, ``ValueError`` for a value
    out of range), naming the setting. Nothing is assigned here: the caller applies the
    returned dict only when the whole change (and any rule linking settings) has passed.

    >>> check_changes({"k": 3}, {"k": int, "n": int})
    {'k': 3}
    >>> check_changes({"kk": 3}, {"k": int, "n": int})
    Traceback (most recent call last):
    ...
    ValueError: unknown setting 'kk'; the settings are k, n
    """
    unknown = [name for name in changes if name not in checks]
    if unknown:
        plural = "s" if len(unknown) > 1 else ""
        raise ValueError(f"unknown setting{plural} {', '.join(map(repr, unknown))}; "
                         f"the settings are {', '.join(checks)}")
    return {name: checks[name](value) for name, value in changes.items()}


_Model = TypeVar("_Model", bound="SettingsModel")
_Class = TypeVar("_Class", bound=type)


def keyword_options(cls: _Class) -> _Class:
    """Class decorator: a model takes its data by position and every option by keyword.

    The models' constructors follow the rule of evalkit's functions (``@keyword_only``):
    the options are keyword-only in the signature (after ``*``, or after a dataclass's
    ``KW_ONLY``), and a positional option raises a TypeError that shows the keyword call,
    naming the class rather than ``__init__``.

    >>> @keyword_options
    ... class Model:
    ...     def __init__(self, tp, *, beta=1.0):
    ...         self.tp, self.beta = tp, beta
    >>> Model(3, beta=2.0).beta
    2.0
    >>> Model(3, 2.0)
    Traceback (most recent call last):
    ...
    TypeError: Model() takes its data (tp) by position and every option by keyword; write ...
    """
    init = cls.__init__
    parameters = list(inspect.signature(init).parameters.values())[1:]  # without self
    data = [p.name for p in parameters
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    options = [p.name for p in parameters if p.kind == p.KEYWORD_ONLY]

    @functools.wraps(init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(data):
            name = type(self).__name__
            extra = args[len(data):]
            shown = [f"{option}={_SHOW.repr(value)}"
                     for option, value in zip(options, extra, strict=False)]
            if len(extra) > len(options):
                shown.append("...")
            listed = ", ".join(data) if data else "none"
            raise TypeError(f"{name}() takes its data ({listed}) by position and every "
                            f"option by keyword; write {name}({', '.join(data + shown)})")
        init(self, *args, **kwargs)

    cls.__init__ = __init__  # type: ignore[misc]
    return cls


class SettingsModel:
    """Base of the explorer models whose settings change through :meth:`set`.

    A subclass lists its settings in ``_checks()`` (name -> function that checks one value)
    and, when a rule links several settings, overrides ``_check_together``.
    """

    #: Old names of settings -> their names now. An old name still works, in the
    #: constructor (see :func:`renamed_setting`), in :meth:`set` and as an attribute, with a
    #: DeprecationWarning, for one release.
    RENAMED: dict[str, str] = {}

    def _checks(self) -> dict[str, Callable[[Any], Any]]:
        raise NotImplementedError

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for old, new in cls.RENAMED.items():
            setattr(cls, old, _renamed_attribute(cls.__name__, old, new))

    def _check_together(self, checked: dict[str, Any]) -> None:
        """Raise if the checked new values break a rule that links settings (none here).

        An override may also complete ``checked`` in place (a value normalised against the
        others, say); what ``checked`` holds afterwards is what :meth:`set` applies.
        """

    def set(self: _Model, **changes: Any) -> _Model:
        """Change some of the settings and return the model.

        The whole change is checked before any of it is applied: a bad value (``TypeError``
        for the wrong kind, ``ValueError`` out of range) or an unknown name leaves the model
        as it was.
        """
        for old, new in self.RENAMED.items():
            if old in changes:
                if new in changes:
                    raise TypeError(f"pass {new} only ({old} is its deprecated name)")
                _warn_renamed(type(self).__name__, old, new, stacklevel=3)
                changes[new] = changes.pop(old)
        checked = check_changes(changes, self._checks())
        self._check_together(checked)
        for name, value in checked.items():
            setattr(self, name, value)
        return self


def _warn_renamed(owner: str, old: str, new: str, *, stacklevel: int) -> None:
    warnings.warn(f"{owner}: {old} is deprecated and will be removed in the next release; "
                  f"use {new} (one name for the number of simulated repetitions)",
                  DeprecationWarning, stacklevel=stacklevel + 1)


def _renamed_attribute(owner: str, old: str, new: str) -> property:
    """The attribute ``old``: reads and writes ``new``, with a DeprecationWarning."""

    def get(self: Any) -> Any:
        _warn_renamed(owner, old, new, stacklevel=2)
        return getattr(self, new)

    def put(self: Any, value: Any) -> None:
        _warn_renamed(owner, old, new, stacklevel=2)
        self.set(**{new: value})

    return property(get, put, doc=f"Deprecated name of ``{new}``.")


def renamed_setting(owner: str, old: str, old_value: Any, new: str, new_value: Any,
                    default: Any) -> Any:
    """The value of setting ``new`` in a constructor that still takes its old name ``old``.

    ``old_value`` None means the old keyword was not passed. Passing both (``new`` away from
    its ``default``) is a TypeError; the old one alone works with a DeprecationWarning.
    """
    if old_value is None:
        return new_value
    if new_value != default:
        raise TypeError(f"pass {new} only ({old} is its deprecated name)")
    _warn_renamed(owner, old, new, stacklevel=4)
    return old_value
