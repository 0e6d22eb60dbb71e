"""Warnings that evalkit emits, so that users can filter them by category."""

from __future__ import annotations

__all__ = ["UndefinedMetricWarning"]


class UndefinedMetricWarning(UserWarning):
    """A metric was undefined (a zero denominator) and replaced by the ``zero_division`` value.

    Filter it like any warning::

        import warnings
        from evalkit.exceptions import UndefinedMetricWarning
        warnings.simplefilter("ignore", UndefinedMetricWarning)
    """
