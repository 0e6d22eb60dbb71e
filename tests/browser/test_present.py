"""Lecture mode (``make present NB=..``): Voilà serves the notebook with its code hidden, the
explorer is live, and its tables stay readable at 1280 px.

The test runs the Makefile's own ``present`` target (with this Python's environment), opens the
page in headless Chromium, checks that no code and no error is shown and that no cell of an
explorer's table wraps, then moves the first slider and checks that the numbers change, and
runs axe-core on the page (no serious or critical WCAG 2.1 AA violation).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ._axe import by_rule, describe, run_axe
from ._labserver import REPO_ROOT, _free_port
from .test_notebooks_in_browser import (
    browser_unavailable_reason,
    skip_or_fail,
    wrapped_cells_js,
)

#: Notebooks shown in lecture mode by the test: explorers with a side table beside a plot.
PRESENT = ["07", "09", "11", "12"]
START_TIMEOUT = 120.0  # Voilà runs the whole notebook before the widgets appear
CHANGE_TIMEOUT_MS = 20_000

_TEXTS_JS = """
() => [...document.querySelectorAll('.widget-html, .widget-htmlmath, .widget-output')]
    .map((node) => node.textContent
        + [...node.querySelectorAll('img')].map((img) => img.src.slice(-200)).join('|'))
"""

_WRAPPED_CELLS_JS = wrapped_cells_js("document")


def _wait_for_server(port: int, process: subprocess.Popen, log: Path) -> None:
    """Wait until Voilà accepts connections. Only a TCP connect: every GET of the page starts
    a kernel and runs the whole notebook, so probing with one would run it twice."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"make present exited ({process.returncode}):\n"
                                 f"{log.read_text()[-3000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2):
                return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"Voilà did not listen on port {port} within {START_TIMEOUT:.0f} s:\n"
                         f"{log.read_text()[-3000:]}")


@pytest.mark.browser
@pytest.mark.parametrize("number", PRESENT)
def test_lecture_mode_shows_a_live_readable_explorer(number: str, request, tmp_path):
    reason = browser_unavailable_reason()
    if reason:
        skip_or_fail(reason)
    if shutil.which("make") is None:
        skip_or_fail("make is not installed")
    if not list((REPO_ROOT / "notebooks").glob(f"{number}-*.ipynb")):
        pytest.fail(f"no notebook {number}: update PRESENT")
    browser = request.getfixturevalue("lab_browser")

    port = _free_port()
    log = tmp_path / "voila.log"
    bin_dir = str(Path(sys.executable).parent)
    # STAMP= skips the install step: this environment is the one under test.
    command = ["make", "-s", "present", f"NB={number}", f"PORT={port}", "NO_BROWSER=1",
               f"BIN={bin_dir}", "STAMP="]
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=REPO_ROOT, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True,
                                   env={**os.environ, "PATH": bin_dir + os.pathsep
                                        + os.environ.get("PATH", "")})
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        _wait_for_server(port, process, log)
        # Wait for the response to start, not for the load event: Voilà's lab template links
        # stylesheets on a CDN, and offline their requests can hold "load" back for minutes.
        # The widgets below are what counts.
        page.goto(f"http://127.0.0.1:{port}/", wait_until="commit",
                  timeout=int(START_TIMEOUT * 1000))
        page.wait_for_selector(".widget-slider .noUi-handle", timeout=int(START_TIMEOUT * 1000))
        page.wait_for_function(
            "() => document.querySelectorAll('table.evalkit-summary, table.evalkit-grid')"
            ".length > 0", timeout=int(START_TIMEOUT * 1000))

        # Lecture mode: no code, no errors.
        assert page.locator(".jp-CodeMirrorEditor, .jp-InputArea-editor").count() == 0
        body = page.inner_text("body")
        assert "Traceback" not in body and "There was an error" not in body, body[-2000:]

        wrapped = page.evaluate(_WRAPPED_CELLS_JS)
        assert not wrapped, f"explorer table cells wrap at 1280 px: {wrapped[:10]}"

        before = page.evaluate(_TEXTS_JS)
        handle = page.locator(".widget-slider .noUi-handle").first
        handle.scroll_into_view_if_needed()
        at_max = handle.get_attribute("aria-valuenow") == handle.get_attribute("aria-valuemax")
        handle.focus()
        changed = False
        for _ in range(3):
            handle.press("ArrowLeft" if at_max else "ArrowRight")
            try:
                page.wait_for_function(
                    f"(before) => JSON.stringify(({_TEXTS_JS})()) !== JSON.stringify(before)",
                    arg=before, timeout=CHANGE_TIMEOUT_MS // 3)
                changed = True
                break
            except Exception:  # Playwright's TimeoutError: one step may not change a readout
                continue
        assert changed, f"moving the slider changed nothing on the page; before: {before}"
        assert "Traceback" not in page.inner_text("body")

        # WCAG 2.1 AA (axe-core): the page as the lecturer shows it, explorer live.
        violations = {f"lecture mode {number}": run_axe(page)}
        summary = "\n".join(f"  {rule}: {e} elements" for rule, (_, e)
                            in by_rule(violations).items())
        assert not violations[f"lecture mode {number}"], (
            f"axe-core: serious or critical violations in lecture mode:\n{summary}\n\n"
            f"{describe(violations)}")
    finally:
        try:
            page.screenshot(path=str(tmp_path / f"present-{number}.png"), full_page=True)
        except Exception:  # a screenshot is a debugging aid, never the failure
            pass
        context.close()
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(process.pid, signal.SIGKILL)
