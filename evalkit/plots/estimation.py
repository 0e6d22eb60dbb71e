"""How far performance estimates land from the truth: one box per estimation method."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .._validation import check_1d, keyword_only
from ._common import NEUTRALS, OKABE_ITO, _axes

__all__ = ["plot_estimation_errors"]


@keyword_only
def plot_estimation_errors(errors: Mapping[str, Any], *, ax: Any = None) -> Any:
    """Horizontal boxes of the errors (estimate − truth) of several estimation methods.

    ``errors`` maps a method's name to its errors, one per available sample: the estimate
    the method gave on that sample minus the accuracy of the model trained on the whole
    sample, measured on the untouched rest. The first method is drawn at the top. Each box
    spans the middle half of the errors, its whiskers the middle 90 % (5th to 95th
    percentile); a diamond marks the mean error (the bias), and the label on the right gives
    the bias and the standard deviation (SD, ddof=1) of the errors. The dashed line at 0 is
    a perfect estimate.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_estimation_errors({"holdout": [-0.1, 0.0, 0.05], "10-fold": [0.0, 0.01, -0.02]})
    >>> [label.get_text() for label in ax.get_yticklabels()]
    ['holdout', '10-fold']
    """
    if not isinstance(errors, Mapping) or not errors:
        raise TypeError("errors must be a non-empty mapping of method name to its errors "
                        f"(estimate - truth); got {type(errors).__name__}")
    names = [str(name) for name in errors]
    values = []
    for name, raw in errors.items():
        array = check_1d(raw, f"errors[{name!r}]").astype(np.float64)
        if not np.isfinite(array).all():
            raise ValueError(f"errors[{name!r}] must be finite numbers; got NaN or infinity")
        values.append(array)
    ax = _axes(ax, (7.0, 0.5 + 0.45 * len(names)))
    positions = np.arange(len(names))[::-1]  # the first method at the top
    import matplotlib

    # matplotlib 3.10 replaced vert=False by orientation="horizontal" (and deprecated vert).
    major, minor = (int(part) for part in matplotlib.__version__.split(".")[:2])
    sideways = ({"orientation": "horizontal"} if (major, minor) >= (3, 10)
                else {"vert": False})
    ax.boxplot(values, positions=positions, whis=(5, 95), **sideways,
               showfliers=False, widths=0.6, patch_artist=True,
               boxprops={"facecolor": OKABE_ITO["sky blue"], "edgecolor": "#333333"},
               medianprops={"color": "#333333"})
    means = np.array([v.mean() for v in values])
    sds = np.array([v.std(ddof=1) if len(v) > 1 else 0.0 for v in values])
    ax.plot(means, positions, "D", color=OKABE_ITO["vermillion"], markersize=5, label="mean (bias)")
    ax.axvline(0.0, color=NEUTRALS["dark grey"], linestyle="--", linewidth=1)
    right = max(float(np.percentile(v, 95)) for v in values)
    left = min(float(np.percentile(v, 5)) for v in values)
    span = max(right - left, 1e-3)
    for position, mean, sd in zip(positions, means, sds, strict=True):
        ax.text(right + 0.04 * span, position, f"bias {mean:+.3f}, SD {sd:.3f}",
                va="center", fontsize=8)
    ax.set_xlim(left - 0.05 * span, right + 0.45 * span)
    ax.set_yticks(positions, names)
    ax.set_xlabel("estimate − accuracy on the untouched rest")
    ax.set_title(f"Error of each estimate over {max(len(v) for v in values)} samples")
    ax.legend(loc="best", fontsize=8)
    return ax
