"""Fixtures for the browser tests: one JupyterLab server and one headless Chromium per session.

The test decides whether to skip (or, in CI, fail) before it asks for these fixtures, so they
can assume that Playwright and Chromium exist.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from ._labserver import CHROMIUM, CHROMIUM_ARGS, LabServer, running_lab_server

if TYPE_CHECKING:  # Playwright is optional: import its types for the type checker only.
    from playwright.sync_api import Browser


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    """One JupyterLab server for the session, on a temporary copy of the notebooks."""
    with running_lab_server(tmp_path_factory.mktemp("jupyterlab")) as server:
        yield server


@pytest.fixture(scope="session")
def lab_browser() -> Iterator[Browser]:
    """One headless Chromium for the whole session (Debian's, never a downloaded one)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()
