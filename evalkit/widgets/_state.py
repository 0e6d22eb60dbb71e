"""What every explorer model shares: a change is checked whole before any of it is applied.

Plain Python, no ipywidgets: a model can be imported, driven and tested without a front end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar


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


class SettingsModel:
    """Base of the explorer models whose settings change through :meth:`set`.

    A subclass lists its settings in ``_checks()`` (name -> function that checks one value)
    and, when a rule links several settings, overrides ``_check_together``.
    """

    def _checks(self) -> dict[str, Callable[[Any], Any]]:
        raise NotImplementedError

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
        checked = check_changes(changes, self._checks())
        self._check_together(checked)
        for name, value in checked.items():
            setattr(self, name, value)
        return self
