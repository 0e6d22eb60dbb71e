"""Shared test set-up: a non-interactive matplotlib backend and hypothesis profiles."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import matplotlib
import numpy as np
import pytest
from hypothesis import HealthCheck, settings

# Select the backend without touching MPLBACKEND: kernels that nbval starts inherit the
# environment and must keep their inline backend.
matplotlib.use("Agg")

settings.register_profile(
    "default", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

REPO = Path(__file__).resolve().parent.parent


def load_script(path: Path, name: str) -> ModuleType:
    """The Python file at ``path`` (a tool, a bench or data script, setup.py: not in a
    package) imported as module ``name``; its ``__name__`` is not "__main__", so what it
    runs as a script is not run."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(params=["numpy's sorts", "radix sorts"])
def sort_route(request, monkeypatch):
    """Each route of evalkit._sorting in turn, whatever this CPU measures faster, from arrays
    of 2 items on: numpy's default argsorts and sorts, or its radix sorts."""
    from evalkit import _sorting

    radix = request.param == "radix sorts"
    monkeypatch.setattr(_sorting, "_radix_wins", lambda: radix)
    monkeypatch.setattr(_sorting, "RADIX_MIN", 2 if radix else 1 << 62)
    return request.param


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261123)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")
