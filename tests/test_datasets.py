"""evalkit.datasets finds data/ and names what is missing."""

from __future__ import annotations

import pytest

from evalkit import datasets

from .conftest import REPO


def test_finds_the_repository_data_folder(monkeypatch):
    monkeypatch.delenv("EVALKIT_DATA", raising=False)
    assert datasets.data_dir() == REPO / "data"
    assert datasets.data_path("README.md") == REPO / "data" / "README.md"
    assert "README.md" in datasets.list_data()


def test_environment_variable_wins(monkeypatch, tmp_path):
    (tmp_path / "qrels.txt").write_text("1 0 d1 1\n")
    monkeypatch.setenv("EVALKIT_DATA", str(tmp_path))
    assert datasets.data_dir() == tmp_path
    assert datasets.data_path("qrels.txt").read_text() == "1 0 d1 1\n"


def test_environment_variable_pointing_nowhere(monkeypatch, tmp_path):
    monkeypatch.setenv("EVALKIT_DATA", str(tmp_path / "missing"))
    with pytest.raises(FileNotFoundError, match="EVALKIT_DATA points to"):
        datasets.data_dir()


def test_missing_file_is_named(monkeypatch):
    monkeypatch.delenv("EVALKIT_DATA", raising=False)
    with pytest.raises(FileNotFoundError, match="nothing.csv is not in evalkit's data folder"):
        datasets.data_path("nothing.csv")
    with pytest.raises(ValueError, match="at least one path component"):
        datasets.data_path()
