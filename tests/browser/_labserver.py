"""Start and stop a throwaway JupyterLab server for the browser tests (used by conftest.py)."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",  # we run as root, where Chromium's sandbox refuses to start
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_START_TIMEOUT = 90.0  # seconds; a cold start on two busy cores can take a while

# Lab settings that keep the page quiet and deterministic (see shared/PITFALLS.md, item 7).
LAB_OVERRIDES: dict[str, dict[str, Any]] = {
    # No news/update pop-ups: there is no internet and they can cover the notebook.
    "@jupyterlab/apputils-extension:notification": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
    # Windowing off, so every cell (and its outputs) is in the DOM, not only the visible ones.
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
    # Belt and braces: we work on copies, but never write to them either.
    "@jupyterlab/docmanager-extension:plugin": {"autosave": False},
}


def notebooks_dir() -> Path:
    """The folder whose ``*.ipynb`` files are tested (``EVALKIT_NOTEBOOKS_DIR`` overrides it)."""
    return Path(os.environ.get("EVALKIT_NOTEBOOKS_DIR", REPO_ROOT / "notebooks")).resolve()


@dataclass(frozen=True)
class LabServer:
    """A running JupyterLab server."""

    base_url: str  # e.g. http://127.0.0.1:41234
    token: str
    root: Path  # the temporary copy of the notebooks it serves
    log: Path  # its combined stdout/stderr

    def api(self, method: str, path: str) -> Any:
        """Call the server's REST API and return the decoded JSON (or None when empty)."""
        request = urllib.request.Request(
            f"{self.base_url}{path}",
            method=method,
            headers={"Authorization": f"token {self.token}"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self) -> None:
        """Delete every session, which stops its kernel, to free the two cores for the next one."""
        for session in self.api("GET", "/api/sessions"):
            self.api("DELETE", f"/api/sessions/{session['id']}")


def _free_port() -> int:
    # Binding to port 0 lets the OS pick a free port. Another process could take it before
    # Jupyter binds it, so the server runs with port_retries=0 and fails loudly instead of
    # silently moving to another port that we would not know about.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _write_kernelspec(data_dir: Path) -> None:
    # Pin the kernel to this very interpreter (the venv's), so `import evalkit` works even
    # when a user-level or machine-level "python3" kernelspec points at another Python.
    kernel_dir = data_dir / "kernels" / "python3"
    kernel_dir.mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
        "metadata": {"debugger": True},
    }
    (kernel_dir / "kernel.json").write_text(json.dumps(spec, indent=1))


def _wait_until_up(server: LabServer, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    last_error = "no answer yet"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            last_error = f"server exited with code {process.returncode}"
            break
        try:
            server.api("GET", "/api/status")
            return
        except (OSError, urllib.error.URLError, ValueError) as error:
            last_error = repr(error)
        time.sleep(0.25)
    log = server.log.read_text(errors="replace") if server.log.exists() else "(no log)"
    raise RuntimeError(
        f"JupyterLab did not answer {server.base_url}/api/status within "
        f"{SERVER_START_TIMEOUT:.0f} s ({last_error}). Server log:\n{log}"
    )


def _stop(server: LabServer, process: subprocess.Popen[bytes]) -> None:
    # Ask politely first: /api/shutdown also stops the kernels. Then make sure.
    if process.poll() is None:
        try:
            server.api("POST", "/api/shutdown")
        except (OSError, urllib.error.URLError, ValueError):
            pass
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@contextmanager
def running_lab_server(base: Path) -> Iterator[LabServer]:
    """Serve a copy of the notebooks from ``base``; stop the server (and kernels) on exit."""
    root = base / "notebooks"
    # Work on a copy so that nothing the browser does (autosave, checkpoints) can ever touch
    # the committed notebooks. Copy the whole folder: notebooks may use files next to them.
    shutil.copytree(
        notebooks_dir(), root, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")
    )
    settings = base / "settings"
    settings.mkdir()
    (settings / "overrides.json").write_text(json.dumps(LAB_OVERRIDES, indent=2))
    data_dir = base / "data"
    _write_kernelspec(data_dir)

    env = dict(os.environ)
    env.update(
        {
            # Private Jupyter dirs: no user config (passwords, settings, saved workspaces that
            # reopen other documents) leaks in, and the kernelspec above wins (JUPYTER_PATH
            # comes first in the search path; labextensions are still found in sys.prefix).
            "JUPYTER_CONFIG_DIR": str(base / "config"),
            "JUPYTER_DATA_DIR": str(data_dir),
            "JUPYTER_PATH": str(data_dir),
            "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
            "PYTHONUNBUFFERED": "1",
        }
    )
    token = secrets.token_hex(24)
    port = _free_port()
    # Never a `jupyter` from PATH: the machine has its own, whose kernel lacks evalkit.
    jupyter = Path(sys.executable).parent / "jupyter"
    command = [
        str(jupyter),
        "lab",
        "--no-browser",
        f"--IdentityProvider.token={token}",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--ServerApp.root_dir={root}",
        "--LabApp.expose_app_in_browser=True",
        f"--LabApp.app_settings_dir={settings}",
        # The default "pypi" extension manager tries to reach PyPI from the page.
        "--LabApp.extension_manager=readonly",
    ]
    if os.getuid() == 0:
        command.append("--allow-root")  # Jupyter refuses to run as root otherwise

    log_path = base / "server.log"
    server = LabServer(base_url=f"http://127.0.0.1:{port}", token=token, root=root, log=log_path)
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_until_up(server, process)
            yield server
        finally:
            _stop(server, process)
