"""Open every notebook in a real JupyterLab (headless Chromium), run it, and poke its widgets.

For each ``notebooks/*.ipynb`` (or ``$EVALKIT_NOTEBOOKS_DIR/*.ipynb``) the test clears the
outputs, runs all cells, checks that no error is shown (except in cells tagged
``raises-exception``), then moves the first slider (or clicks the first checkbox or toggle
button) and checks that the displayed numbers change. Without Chromium or Playwright it skips,
unless ``EVALKIT_REQUIRE_BROWSER=1`` (CI), where it fails instead.
"""

from __future__ import annotations

import json
import os
import secrets
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from ._labserver import CHROMIUM, LabServer, notebooks_dir

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

RUN_TIMEOUT_MS = 120_000  # Run All, per notebook
OPEN_TIMEOUT_MS = 60_000  # load JupyterLab, open the notebook, start its kernel
CHANGE_TIMEOUT_MS = 15_000  # total wait for the widgets to react to the control
KEY_PRESSES = 3  # one arrow key may not change a rounded readout: try a few times
STDERR_MIME = "application/vnd.jupyter.stderr"  # JupyterLab 4 renders tracebacks with it too

# The notebook panel's DOM, reached through the app so the cells come in model order.
# `window.__evalkitPanel` is set once the notebook is open (see `_open_notebook`).
_FIND_PANEL_JS = """
(path) => {
    const app = window.jupyterapp;
    if (!app || !app.shell) return false;
    for (const widget of app.shell.widgets('main')) {
        if (widget.context && widget.context.path === path && widget.content
            && widget.sessionContext && widget.node.querySelector('.jp-Notebook')) {
            window.__evalkitPanel = widget;
            return true;
        }
    }
    return false;
}
"""

_KERNEL_IDLE_JS = """
() => {
    const kernel = window.__evalkitPanel.sessionContext.session?.kernel;
    return !!kernel && kernel.status === 'idle';
}
"""

# Run All counts as finished when its promise settled, the kernel is idle, and no cell still
# shows the busy prompt `[*]:` (a queued or running cell).
_RUN_FINISHED_JS = """
() => {
    const panel = window.__evalkitPanel;
    if (!window.__evalkitRun || !window.__evalkitRun.settled) return false;
    const kernel = panel.sessionContext.session?.kernel;
    if (!kernel || kernel.status !== 'idle') return false;
    const prompts = [...panel.content.node.querySelectorAll('.jp-InputPrompt')];
    return !prompts.some((prompt) => prompt.textContent.includes('*'));
}
"""

_START_RUN_ALL_JS = """
async () => {
    const app = window.jupyterapp;
    const panel = window.__evalkitPanel;
    // The notebook commands act on the current notebook: make sure it is ours.
    app.shell.activateById(panel.id);
    await app.commands.execute('notebook:clear-all-cell-outputs');
    window.__evalkitRun = {settled: false};
    // Not awaited here: Python polls for the end with its own timeout.
    app.commands.execute('notebook:run-all-cells').then(
        (ok) => { window.__evalkitRun = {settled: true, ok: ok}; },
        (error) => { window.__evalkitRun = {settled: true, ok: false, error: String(error)}; },
    );
}
"""

# Widget views render after the cell finished: the renderer shows "Loading widget..." until the
# widget manager has the model and the view.
_WIDGETS_RENDERED_JS = """
() => ![...window.__evalkitPanel.content.node.querySelectorAll('.jp-OutputArea-output')]
    .some((output) => output.textContent.trim() === 'Loading widget...')
"""

# Per cell, in notebook order: the error outputs in the model (output_type "error"), the
# rendered stderr outputs that look like an error (tracebacks, also those printed inside an
# `Output` widget by a callback), and ipywidgets' own "Error displaying widget".
_COLLECT_ERRORS_JS = """
(stderrMime) => window.__evalkitPanel.content.widgets.map((cell, index) => {
    const errors = [];
    const outputs = cell.model.type === 'code' ? cell.model.toJSON().outputs || [] : [];
    for (const output of outputs) {
        if (output.output_type === 'error') {
            errors.push(`${output.ename}: ${output.evalue}`);
        }
    }
    for (const node of cell.node.querySelectorAll(
            `.jp-OutputArea-output[data-mime-type="${stderrMime}"]`)) {
        const text = node.textContent;
        if (text.includes('Traceback') || text.includes('Error')) errors.push(text.trim());
    }
    for (const node of cell.node.querySelectorAll('.jp-OutputArea-output')) {
        if (node.textContent.startsWith('Error displaying widget')) {
            errors.push(node.textContent.trim());
        }
    }
    return {
        index: index,
        type: cell.model.type,
        executionCount: cell.model.type === 'code' ? cell.model.executionCount : null,
        errors: errors,
    };
})
"""

# What the widgets display, to compare before and after moving a control. The slider readouts
# (`.widget-readout`) are left out on purpose: they always change. Images count by their source,
# so an `Output` widget that only shows a matplotlib figure still counts as changed.
_WIDGET_TEXTS_JS = """
() => [...window.__evalkitPanel.content.node.querySelectorAll(
        '.widget-html, .widget-htmlmath, .widget-output')]
    .map((node) => node.textContent
        + [...node.querySelectorAll('img')].map((img) => img.src.slice(-200)).join('|'))
"""

_TEXTS_CHANGED_JS = f"""
(before) => JSON.stringify(({_WIDGET_TEXTS_JS})()) !== JSON.stringify(before)
"""


def wrapped_cells_js(root: str) -> str:
    """JavaScript listing the explorers' table cells under ``root`` (a JS expression for a DOM
    node) whose text is laid out on more than one line: a table squeezed beside its plot
    wrapped one word per line at 1280 px."""
    return f"""
() => [...{root}.querySelectorAll(
        'table.evalkit-summary td, table.evalkit-grid td, table.evalkit-grid th')]
    .filter((cell) => cell.textContent.trim().length > 0)
    .filter((cell) => {{
        const range = document.createRange();
        range.selectNodeContents(cell);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        return tops.size > 1;
    }})
    .map((cell) => cell.textContent.trim())
"""


_WRAPPED_CELLS_JS = wrapped_cells_js("window.__evalkitPanel.content.node")


def browser_unavailable_reason() -> str | None:
    """Why the browser test cannot run here, or None when it can."""
    try:
        import playwright.sync_api  # noqa: F401  (only checks that it imports)
    except ImportError as error:
        return f"Python Playwright cannot be imported ({error}); pip install playwright"
    if not CHROMIUM.exists():
        return f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)"
    return None


def skip_or_fail(reason: str) -> None:
    """Skip locally, but fail when the environment demands the browser tests (CI)."""
    if os.environ.get("EVALKIT_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (EVALKIT_REQUIRE_BROWSER=1)", pytrace=False)
    pytest.skip(reason)


def _notebook_params() -> list[Any]:
    notebooks = sorted(notebooks_dir().glob("*.ipynb"))
    if not notebooks:
        # One placeholder, so the empty case is reported (skipped, or failed in CI) rather
        # than silently collecting nothing (pytest exits 5 on no tests).
        return [pytest.param(None, id="no-notebooks")]
    return [pytest.param(path, id=path.name) for path in notebooks]


def _raises_exception_cells(notebook: Path) -> set[int]:
    """Indices of the cells tagged ``raises-exception``: they may show an error."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return {
        index
        for index, cell in enumerate(cells)
        if "raises-exception" in cell.get("metadata", {}).get("tags", [])
    }


def _open_notebook(page: Page, server: LabServer, name: str) -> None:
    # A fresh workspace name per notebook, so JupyterLab does not reopen documents (and start
    # their kernels) from an earlier test's saved layout.
    workspace = f"evalkit-{secrets.token_hex(4)}"
    url = (
        f"{server.base_url}/lab/workspaces/{workspace}/tree/{urllib.parse.quote(name)}"
        f"?token={server.token}"
    )
    page.goto(url)
    page.wait_for_function(_FIND_PANEL_JS, arg=name, timeout=OPEN_TIMEOUT_MS)
    page.evaluate(
        "async () => { const p = window.__evalkitPanel;"
        " await p.context.ready; await p.sessionContext.ready; }"
    )
    page.wait_for_function(_KERNEL_IDLE_JS, timeout=OPEN_TIMEOUT_MS)


def _run_all(page: Page) -> dict[str, Any]:
    page.evaluate(_START_RUN_ALL_JS)
    try:
        page.wait_for_function(_RUN_FINISHED_JS, timeout=RUN_TIMEOUT_MS, polling=250)
    except Exception as error:  # Playwright's TimeoutError; say what was still busy
        busy = page.evaluate(
            "() => [...window.__evalkitPanel.content.node.querySelectorAll('.jp-InputPrompt')]"
            ".map((p, i) => [i, p.textContent]).filter(([, t]) => t.includes('*'))"
        )
        raise AssertionError(
            f"Run All did not finish within {RUN_TIMEOUT_MS // 1000} s; busy cells: {busy}"
        ) from error
    page.wait_for_function(_WIDGETS_RENDERED_JS, timeout=OPEN_TIMEOUT_MS)
    return page.evaluate("() => window.__evalkitRun")


def _assert_no_errors(page: Page, allowed: set[int], expected_cells: int, when: str) -> None:
    cells = page.evaluate(_COLLECT_ERRORS_JS, STDERR_MIME)
    assert len(cells) == expected_cells, (
        f"{when}: JupyterLab shows {len(cells)} cells, the file has {expected_cells}"
    )
    problems = [
        f"cell {cell['index']}:\n" + "\n".join(cell["errors"])
        for cell in cells
        if cell["errors"] and cell["index"] not in allowed
    ]
    assert not problems, f"{when}: error output in a cell not tagged raises-exception:\n" + (
        "\n\n".join(problems)
    )
    not_run = [c["index"] for c in cells if c["type"] == "code" and c["executionCount"] is None]
    assert not not_run, f"{when}: code cells never ran (Run All stopped early?): {not_run}"


def _move_control(page: Page) -> str | None:
    """Move the first slider, or click the first checkbox/toggle; None when there is none."""
    notebook = page.locator(".jp-NotebookPanel .jp-Notebook")
    before = page.evaluate(_WIDGET_TEXTS_JS)

    def changed(timeout_ms: int) -> bool:
        try:
            page.wait_for_function(_TEXTS_CHANGED_JS, arg=before, timeout=timeout_ms)
            return True
        except Exception:  # Playwright's TimeoutError
            return False

    handles = notebook.locator(".widget-slider .noUi-handle")
    if handles.count():
        handle = handles.first
        handle.scroll_into_view_if_needed()
        # At the maximum ArrowRight does nothing: go left instead.
        at_max = handle.get_attribute("aria-valuenow") == handle.get_attribute("aria-valuemax")
        key = "ArrowLeft" if at_max else "ArrowRight"
        start = handle.get_attribute("aria-valuetext")
        handle.focus()
        for _ in range(KEY_PRESSES):
            handle.press(key)
            if changed(CHANGE_TIMEOUT_MS // KEY_PRESSES):
                return f"slider {start} -> {handle.get_attribute('aria-valuetext')} ({key})"
        raise AssertionError(
            f"moving the slider ({start} -> {handle.get_attribute('aria-valuetext')}, "
            f"{KEY_PRESSES} x {key}) did not change any .widget-html/.widget-output text "
            f"within {CHANGE_TIMEOUT_MS // 1000} s; text before: {before}"
        )

    for selector, what in [
        (".widget-checkbox input:not([disabled])", "checkbox"),
        (".widget-toggle-button:not([disabled]):not(.mod-active)", "toggle button"),
    ]:
        controls = notebook.locator(selector)
        if controls.count():
            controls.first.scroll_into_view_if_needed()
            controls.first.click()
            assert changed(CHANGE_TIMEOUT_MS), (
                f"clicking the {what} did not change any .widget-html/.widget-output text "
                f"within {CHANGE_TIMEOUT_MS // 1000} s; text before: {before}"
            )
            return f"clicked {what}"
    return None


@pytest.mark.browser
@pytest.mark.parametrize("notebook", _notebook_params())
def test_notebook_runs_and_widgets_react(
    notebook: Path | None, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Run all cells in JupyterLab, check for errors, move a control, check the output."""
    # Decide before asking for the fixtures, so that a missing browser in CI is a test
    # failure, not a fixture error.
    reason = browser_unavailable_reason()
    if reason:
        skip_or_fail(reason)
    if notebook is None:
        skip_or_fail(f"no notebooks found in {notebooks_dir()}")
        return
    server: LabServer = request.getfixturevalue("lab_server")
    browser: Browser = request.getfixturevalue("lab_browser")

    allowed = _raises_exception_cells(notebook)
    n_cells = len(json.loads(notebook.read_text(encoding="utf-8"))["cells"])
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    console_errors: list[str] = []
    page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    screenshot = tmp_path / f"{notebook.stem}.png"
    try:
        _open_notebook(page, server, notebook.name)
        run = _run_all(page)
        _assert_no_errors(page, allowed, n_cells, "after Run All")
        # Run All resolves False when any cell failed, a tolerated raises-exception cell
        # included; the check above names the cell, this catches what it cannot see (e.g. a
        # dead kernel) in notebooks without such cells.
        assert "error" not in run, f"Run All raised in the page: {run['error']}"
        assert run.get("ok") or allowed, f"Run All reported failure: {run}"

        wrapped = page.evaluate(_WRAPPED_CELLS_JS)
        assert not wrapped, f"explorer table cells wrap at 1280 px: {wrapped[:10]}"

        action = _move_control(page)
        if action is None:
            print(f"{notebook.name}: no slider, checkbox or toggle; only checked for errors")
        else:
            print(f"{notebook.name}: {action}")
            # A callback may raise (inside its Output widget) after the move: check again.
            page.wait_for_function(_KERNEL_IDLE_JS, timeout=OPEN_TIMEOUT_MS)
            _assert_no_errors(page, allowed, n_cells, f"after {action}")
    finally:
        try:
            page.screenshot(path=str(screenshot))
            print(f"screenshot: {screenshot}")
        except Exception as error:  # a screenshot is a debugging aid, never the failure
            print(f"no screenshot ({error})")
        if console_errors:
            print("browser console errors:\n" + "\n".join(console_errors[:20]))
        context.close()
        server.shutdown_kernels()  # free the cores (and memory) for the next notebook
