"""Shared plumbing of the explorers' views: the refresh cycle and the HTML tables."""

from __future__ import annotations

import base64
import html
import math
from typing import TYPE_CHECKING, Any

from .._validation import check_bool

if TYPE_CHECKING:  # ipywidgets loads when a view is built, not with the model
    import ipywidgets as widgets


def _format(value: float, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "undefined"
    return f"{value:.{digits}f}"


def _table(rows: list[tuple[str, str]], caption: str = "") -> str:
    body = "".join(
        f"<tr><td style='padding:1px 10px 1px 0'>{html.escape(name)}</td>"
        f"<td style='text-align:right;font-family:monospace'>{html.escape(value)}</td></tr>"
        for name, value in rows
    )
    heading = ""
    if caption:
        heading = f"<caption style='text-align:left'><b>{html.escape(caption)}</b></caption>"
    return f"<table class='evalkit-summary'>{heading}{body}</table>"


def _grid(header: list[str], rows: list[list[str]], caption: str = "",
          bold_row: int | None = None, shaded_column: int | None = None) -> str:
    """An HTML table with a header row; ``bold_row`` and ``shaded_column`` are 0-based."""
    def shade(column: int) -> str:
        return "background:#fde2d7;" if column == shaded_column else ""

    head = "".join(f"<th style='padding:1px 8px;text-align:right;{shade(j)}'>"
                   f"{html.escape(h)}</th>" for j, h in enumerate(header))
    body = ""
    for index, row in enumerate(rows):
        weight = "font-weight:bold;" if index == bold_row else ""
        body += "<tr>" + "".join(
            f"<td style='padding:1px 8px;text-align:right;font-family:monospace;{weight}"
            f"{shade(j)}'>{html.escape(cell)}</td>" for j, cell in enumerate(row)) + "</tr>"
    heading = ""
    if caption:
        heading = f"<caption style='text-align:left'><b>{html.escape(caption)}</b></caption>"
    return f"<table class='evalkit-grid'>{heading}<tr>{head}</tr>{body}</table>"


def _describe_figure(figure: Any) -> str:
    """What a figure shows, in words, from its own titles, axis labels and legends: the
    text alternative of an explorer's plot (WCAG 2.1, 1.1.1), redone at every redraw."""
    panels = []
    for ax in figure.axes:
        if not ax.get_visible() or ax.get_label() == "<colorbar>":
            continue
        parts = []
        if ax.get_title():
            parts.append(ax.get_title().replace("\n", " "))
        axes = [f"{name} axis: {label}" for name, label in
                (("x", ax.get_xlabel()), ("y", ax.get_ylabel())) if label]
        if axes:
            parts.append("; ".join(axes).replace("\n", " "))
        legend = ax.get_legend()
        if legend is not None:
            entries = [text.get_text() for text in legend.get_texts() if text.get_text()]
            if entries:
                parts.append("series: " + "; ".join(entries))
        if parts:
            panels.append(". ".join(parts))
    if not panels:
        return "Plot of the explorer's current setting."
    if len(panels) == 1:
        return "Plot. " + panels[0] + "."
    return f"{len(panels)} panels. " + " ".join(
        f"Panel {index}: {text}." for index, text in enumerate(panels, start=1))


def _display_output(obj: Any, description: str = "") -> dict[str, Any]:
    """``obj`` as one ``display_data`` output, formatted as the running kernel formats it
    (a figure becomes the inline backend's PNG); outside IPython only its text, as
    ``IPython.display.display`` would print it.

    With a ``description``, a PNG also gets an HTML form, the same image with the description
    as its ``alt`` text: JupyterLab and Voila draw a bare ``image/png`` as an ``<img>`` with
    no alt, which a screen reader announces as "image" and axe-core reports as critical.
    """
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        data, metadata = {"text/plain": repr(obj)}, {}
    else:
        data, metadata = shell.display_formatter.format(obj)
    png = data.get("image/png")
    if description and png:
        encoded = png if isinstance(png, str) else base64.b64encode(png).decode("ascii")
        size = metadata.get("image/png", {}) if isinstance(metadata, dict) else {}
        width = f" width='{int(size['width'])}'" if "width" in size else ""
        data = {**data, "text/html": (
            f"<img src='data:image/png;base64,{encoded}'{width} "
            f"alt='{html.escape(description, quote=True)}' class='evalkit-figure'>")}
    return {"output_type": "display_data", "data": data, "metadata": metadata}


class _Explorer:
    """Shared plumbing: a summary (HTML), a plot (Output) and controls that refresh both."""

    model: Any  # set by each explorer before it calls ``super().__init__``

    def __init__(self, controls: dict[str, widgets.Widget], *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.controls = controls
        self.summary = widgets.HTML()
        self.output = widgets.Output()
        self.plot = check_bool(plot, "plot")
        for control in controls.values():
            control.observe(self._on_change, names="value")
        self.widget = widgets.VBox([widgets.VBox(list(controls.values())),
                                    self._summary_beside_plot()])
        self.refresh()

    def _summary_beside_plot(self) -> widgets.HBox:
        """The summary table and the plot side by side, the plot wrapping below if need be.

        The summary keeps its natural width (``flex: 0 0 auto``): squeezed beside a plot, a
        table wrapped one word per line at 1280 px.
        """
        import ipywidgets as widgets

        self.summary.layout = widgets.Layout(flex="0 0 auto", max_width="100%",
                                             margin="0 24px 8px 0")
        return widgets.HBox([self.summary, self.output],
                            layout=widgets.Layout(flex_flow="row wrap",
                                                  align_items="flex-start"))

    def _on_change(self, change: dict[str, Any]) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Read the controls into the model, then redraw the summary and the plot.

        The plot replaces the Output widget's ``outputs`` from the kernel side rather than
        being displayed inside ``with self.output:``. A displayed figure would be captured by
        whatever runs the notebook, and nbclient (under Voila) answers each capture with a
        message on the shell channel that can race the cell's own reply and leave the page at
        "Executing 5 of 37" for ever. An error still shows up in the output area.
        """
        with self.output:
            self.update_model()
            self.summary.value = self.render_summary()
            if self.plot:
                import matplotlib.pyplot as plt

                from ..plots import style

                with style():  # the Okabe-Ito colours and line styles of evalkit's plots
                    figure = self.draw()
                try:
                    self._description = _describe_figure(figure)
                    self.output.outputs = (_display_output(figure, self._description),)
                finally:
                    plt.close(figure)

    def figure_description(self) -> str:
        """The text alternative of the plot as it is now: its panels' titles, axes and
        series (the ``alt`` of the image the view shows)."""
        if getattr(self, "_description", None) is None or not self.plot:
            import matplotlib.pyplot as plt

            from ..plots import style

            with style():
                figure = self.draw()
            try:
                return _describe_figure(figure)
            finally:
                plt.close(figure)
        return self._description

    def update_model(self) -> None:
        """Pass every control's value to the model's setting of the same name."""
        self.model.set(**{name: control.value for name, control in self.controls.items()})

    def render_summary(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def draw(self) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
