"""Named results in scipy's style: they unpack like a short tuple and carry more as attributes.

scipy.stats returns objects such as ``SignificanceResult`` or ``BootstrapResult``: ``res =
kendalltau(x, y)`` gives ``res.statistic`` and ``res.pvalue``, and ``tau, p = kendalltau(x,
y)`` still works. :func:`make_result` builds such a type: the ``fields`` are the tuple (what
unpacking and indexing see), the ``extra_fields`` are attributes only, so a result can grow new
information without breaking ``a, b = f(...)`` in anybody's code.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

__all__ = ["make_result"]


#: Arrays longer than this are summarised in a result's repr (a bootstrap distribution
#: would otherwise print a thousand numbers); the attribute itself keeps every value.
_REPR_MAX_VALUES = 6


def _short_repr(value: Any) -> str:
    """``repr(value)``, except that a long array shows as its shape and dtype.

    >>> import numpy as np
    >>> _short_repr(np.arange(3))
    'array([0, 1, 2])'
    >>> _short_repr(np.zeros(1000))
    '<array of 1000 float64 values>'
    """
    if isinstance(value, np.ndarray) and value.size > _REPR_MAX_VALUES:
        shape = value.size if value.ndim == 1 else "x".join(map(str, value.shape))
        return f"<array of {shape} {value.dtype} values>"
    return repr(value)


def make_result(
    typename: str,
    fields: tuple[str, ...],
    extra_fields: tuple[str, ...] = (),
    *,
    module: str | None = None,
    doc: str | None = None,
) -> type:
    """A tuple type that unpacks to ``fields`` and also has the attributes ``extra_fields``.

    The constructor takes every field, tuple fields first, by position or by name. ``repr``
    shows them all; ``_asdict()`` returns them all; equality and hashing are the tuple's
    (as in scipy's ``_make_tuple_bunch``).

    >>> Counts = make_result("Counts", ("concordant", "discordant"), ("tied_x",))
    >>> counts = Counts(5, 1, tied_x=2)
    >>> c, d = counts
    >>> (c, d, counts.tied_x)
    (5, 1, 2)
    >>> counts
    Counts(concordant=5, discordant=1, tied_x=2)
    """
    overlap = set(fields) & set(extra_fields)
    if overlap:
        raise ValueError(f"fields and extra_fields share {sorted(overlap)}")
    all_fields = tuple(fields) + tuple(extra_fields)
    base = namedtuple(f"_{typename}Base", fields)  # noqa: PYI024 - a private base only

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if len(args) > len(all_fields):
            raise TypeError(f"{typename} takes {len(all_fields)} fields; got {len(args)}")
        values = dict(zip(all_fields, args, strict=False))
        for name, value in kwargs.items():
            if name not in all_fields:
                raise TypeError(f"{typename} has no field {name!r}")
            if name in values:
                raise TypeError(f"{typename} got {name!r} twice")
            values[name] = value
        missing = [name for name in all_fields if name not in values]
        if missing:
            raise TypeError(f"{typename} is missing {', '.join(missing)}")
        self = base.__new__(cls, *(values[name] for name in fields))
        for name in extra_fields:
            object.__setattr__(self, name, values[name])
        return self

    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={_short_repr(getattr(self, name))}" for name in all_fields)
        return f"{typename}({shown})"

    def _asdict(self: Any) -> dict[str, Any]:
        return {name: getattr(self, name) for name in all_fields}

    def __getnewargs_ex__(self: Any) -> tuple[tuple, dict]:
        return tuple(getattr(self, name) for name in all_fields), {}

    def __setattr__(self: Any, name: str, value: Any) -> None:
        raise AttributeError(f"{typename} is read-only")

    namespace = {
        "__new__": __new__,
        "__repr__": __repr__,
        "__setattr__": __setattr__,
        "__getnewargs_ex__": __getnewargs_ex__,
        "_asdict": _asdict,
        "_fields": tuple(fields),
        "_extra_fields": tuple(extra_fields),
        "__doc__": doc or f"{typename}({', '.join(all_fields)})",
    }
    result_type = type(typename, (base,), namespace)
    if module is not None:
        result_type.__module__ = module
    return result_type
