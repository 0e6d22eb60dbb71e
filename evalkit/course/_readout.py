"""The grader's read-out, run inside a notebook's kernel (``evalkit.course.grading``).

This file's source is sent to the kernel and executed as a module of its own,
``__evalkit_readout__``: it does not import evalkit, and the names it uses are its own, so a
notebook that rebinds ``eval``, ``type``, ``isinstance`` or ``repr``, or sends ``sys.stdout``
elsewhere, does not disturb it. Values leave the kernel as tagged plain data (numbers, text,
containers of them), never as an object of the student's making whose ``__eq__`` could say
anything.
"""

import numbers


def encode(value, depth=0):
    """``value`` as tagged plain data (see ``evalkit.course.grading.decode``)."""
    if depth > 30:
        raise ValueError("nested too deeply")
    if value is Ellipsis:
        return {"t": "ellipsis"}
    if (value is NotImplemented or value is NotImplementedError
            or isinstance(value, NotImplementedError)):
        return {"t": "notimplemented"}
    if value is None or type(value) in (bool, str):
        return {"t": "plain", "v": value}
    try:
        import numpy as np
    except Exception:  # a kernel without numpy still reads plain values
        np = None
    if np is not None:
        if isinstance(value, np.generic):
            return encode(value.item(), depth + 1)
        if isinstance(value, np.ndarray):
            if value.dtype.kind in "biuf":
                kind = "bool" if value.dtype.kind == "b" else "float64"
                data = np.ascontiguousarray(value, dtype=kind)
                import base64
                return {"t": "array", "dtype": kind, "shape": list(data.shape),
                        "v": base64.b64encode(data.tobytes()).decode("ascii")}
            return {"t": "list", "v": [encode(part, depth + 1) for part in value.tolist()]}
    module = type(value).__module__ or ""
    if module.startswith("pandas") and hasattr(value, "to_numpy"):
        return encode(value.to_numpy(), depth + 1)
    if isinstance(value, bool):
        return {"t": "plain", "v": bool(value)}
    if isinstance(value, numbers.Integral):
        return {"t": "int", "v": str(int(value))}
    if isinstance(value, numbers.Real):
        return {"t": "float", "v": float.hex(float(value))}
    if isinstance(value, str):
        return {"t": "plain", "v": str.__str__(value)}
    for kind, types in (("tuple", tuple), ("list", list), ("set", (set, frozenset))):
        if isinstance(value, types):
            return {"t": kind, "v": [encode(part, depth + 1) for part in value]}
    if isinstance(value, dict):
        return {"t": "dict", "v": [[encode(k, depth + 1), encode(v, depth + 1)]
                                   for k, v in value.items()]}
    raise TypeError(f"a {type(value).__name__} cannot be marked "
                    "(use numbers, text, tuples, lists or arrays)")


def read(expressions):
    """JSON of ``{name: {"value": data} or {"error": text}}``: each answer expression
    evaluated in the notebook's namespace (found through IPython, not through the notebook's
    own names)."""
    import json

    from IPython import get_ipython

    namespace = get_ipython().user_ns
    answers = {}
    for name, expression in expressions:
        try:
            answers[name] = {"value": encode(eval(expression, namespace))}
        except BaseException as error:  # noqa: BLE001 - any failure is this answer's error
            answers[name] = {"error": f"{type(error).__name__}: {error}"[:300]}
    return json.dumps(answers)


records = []


def record(check):
    """``check`` wrapped so that each call also records what it compares against (the
    teacher's notebook only)."""
    def recording_check(name, value, expected, *, tol=1e-9, hint=None):
        records.append((name, expected, tol, hint))
        return check(name, value, expected, tol=tol, hint=hint)
    return recording_check


def read_records():
    """JSON of the recorded checks: name, expected value (tagged), tolerance and hint."""
    import json

    out = []
    for name, expected, tol, hint in records:
        try:
            out.append({"name": name, "expected": encode(expected), "tol": float(tol),
                        "hint": hint if isinstance(hint, str) else None})
        except BaseException as error:  # noqa: BLE001
            out.append({"name": name, "error": f"{type(error).__name__}: {error}"})
    return json.dumps(out)
