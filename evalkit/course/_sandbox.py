"""Where a submission's kernel runs: under bubblewrap when it works (the file system read-only
but for the submission's own folder, the course, submissions, output, cache and evalkit's own
teacher's notebooks hidden, a /proc of its own) and with a home and config folders of its own.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

__all__ = ["bwrap_usable"]


def bwrap_usable() -> bool:
    """Whether bubblewrap is installed and can make a sandbox on this machine."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return False
    probe = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
             "--unshare-pid", "--die-with-parent", "true"]
    try:
        return subprocess.run(probe, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _teacher_copies() -> list[Path]:
    """The teacher's notebooks that come with evalkit itself: the copy shipped in an installed
    wheel (``evalkit/_notebooks``) and, in a source tree or editable install, ``notebooks/``
    beside the package. A submission must not read them, whatever course it is marked against."""
    package = Path(__file__).resolve().parent.parent
    return [folder for folder in (package / "_notebooks", package.parent / "notebooks")
            if folder.is_dir()]


def _folders_to_hide(folders: list[Path]) -> list[Path]:
    """``folders`` and evalkit's own copies of the teacher's notebooks, each once."""
    unique: dict[Path, Path] = {}
    for folder in [*folders, *_teacher_copies()]:
        unique.setdefault(Path(folder).resolve(), Path(folder))
    return list(unique.values())


def _sandbox_prefix(workdir: Path, hidden: list[Path]) -> list[str]:
    """bwrap's arguments: the whole file system read-only but ``workdir`` (the kernel's
    TMPDIR is in it), each folder of ``hidden`` replaced by an empty read-only one, a /proc of
    its own."""
    args = [shutil.which("bwrap") or "bwrap", "--ro-bind", "/", "/", "--dev", "/dev",
            "--proc", "/proc", "--unshare-pid", "--die-with-parent",
            # The grader is outside the kernel's pid namespace: ipykernel would take its
            # parent for gone and quit. --die-with-parent ends the kernel with the grader.
            "--unsetenv", "JPY_PARENT_PID"]
    for folder in hidden:
        if folder.is_dir() and folder.resolve() != workdir.resolve():
            args += ["--tmpfs", str(folder.resolve()), "--remount-ro", str(folder.resolve())]
    args += ["--bind", str(workdir), str(workdir), "--chdir", str(workdir)]
    return args


def _kernel_manager_class(prefix: list[str]) -> type:
    from jupyter_client.manager import AsyncKernelManager

    class SandboxedKernelManager(AsyncKernelManager):
        """Starts the kernel's command under ``prefix`` (the sandbox), with its connection
        file shown to it read-only (whatever folder it is in)."""

        def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
            connection = str(Path(self.connection_file).resolve())
            return [*prefix, "--ro-bind", connection, connection, "--",
                    *super().format_kernel_cmd(extra_arguments)]

    return SandboxedKernelManager


def _kernel_env(workdir: Path) -> dict[str, str]:
    """The kernel's environment: the grader's, with home and every config folder in the
    submission's own folder (the kernel writes nothing of the marker's)."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("JPY_", "EVALKIT_GRADER"))}
    env.update(HOME=str(workdir), IPYTHONDIR=str(workdir / ".ipython"),
               MPLCONFIGDIR=str(workdir / ".matplotlib"),
               XDG_CACHE_HOME=str(workdir / ".cache"), XDG_CONFIG_HOME=str(workdir / ".config"),
               TMPDIR=str(workdir / ".tmp"), PYTHONDONTWRITEBYTECODE="1")
    (workdir / ".tmp").mkdir(exist_ok=True)
    return env
