"""evalkit.datasets finds data/ and names what is missing."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from evalkit import datasets

from .conftest import REPO, load_script


def test_finds_the_repository_data_folder(monkeypatch):
    monkeypatch.delenv("EVALKIT_DATA", raising=False)
    assert datasets.data_dir() == REPO / "data"
    assert datasets.data_path("README.md") == REPO / "data" / "README.md"
    assert "README.md" in datasets.list_data()


def _installed_layout(tmp_path, monkeypatch):
    """An evalkit installed from a wheel: site-packages/evalkit/_data, no data/ beside it."""
    package = tmp_path / "site-packages" / "evalkit"
    (package / "_data").mkdir(parents=True)
    (package / "_data" / "README.md").write_text("shipped\n")
    elsewhere = tmp_path / "somewhere" / "empty"
    elsewhere.mkdir(parents=True)
    monkeypatch.delenv("EVALKIT_DATA", raising=False)
    monkeypatch.setattr(datasets, "__file__", str(package / "datasets.py"))
    monkeypatch.chdir(elsewhere)
    return package


def test_finds_the_data_shipped_in_an_installed_package(monkeypatch, tmp_path):
    package = _installed_layout(tmp_path, monkeypatch)
    assert datasets.data_dir() == (package / "_data").resolve()
    assert datasets.data_path("README.md").read_text() == "shipped\n"


def test_a_repository_clone_comes_before_the_shipped_copy(monkeypatch, tmp_path):
    package = _installed_layout(tmp_path, monkeypatch)
    (package.parent / "data").mkdir()
    (package.parent / "data" / "README.md").write_text("clone\n")
    assert datasets.data_dir() == (package.parent / "data").resolve()


def test_no_data_anywhere_says_where_it_looked(monkeypatch, tmp_path):
    package = _installed_layout(tmp_path, monkeypatch)
    (package / "_data" / "README.md").unlink()
    with pytest.raises(FileNotFoundError, match="shipped inside it.*EVALKIT_DATA"):
        datasets.data_dir()


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


def test_stdlib_collection_is_complete_and_consistent():
    import evalkit as ek

    collection = ek.datasets.load_collection("stdlib-docs")
    qrels, docs = collection.qrels, set(collection.documents.doc_id)
    assert len(collection.topics) == 40 and set(qrels.query_id) == set(collection.topics.topic_id)
    assert qrels.relevance.between(0, 3).all() and set(qrels.doc_id) <= docs
    pool = pd.read_csv(datasets.data_path("stdlib-docs", "pool.tsv"), sep="\t", dtype=str)
    judged = set(zip(qrels.query_id, qrels.doc_id, strict=True))
    assert judged == set(zip(pool.topic_id, pool.doc_id, strict=True))
    for name, run in {**collection.runs, "manual": collection.manual_run}.items():
        assert set(run.doc_id) <= docs, name
        top = run.groupby("query_id", sort=False).head(20 if name != "manual" else 10)
        assert set(zip(top.query_id, top.doc_id, strict=True)) <= judged, name
    assert sorted(collection.runs) == ["bm25", "tfidf", "title"]


def test_load_collection_names_a_missing_collection():
    import evalkit as ek

    with pytest.raises(FileNotFoundError, match="no-such is not in evalkit's data folder"):
        ek.datasets.load_collection("no-such")


def test_second_judgements_cover_exactly_the_drawn_sample():
    folder = REPO / "data" / "stdlib-docs" / "second-judge"
    build_sample = load_script(folder / "build_sample.py", "build_sample")
    drawn = build_sample.draw()
    sample = pd.read_csv(folder / "sample.tsv", sep="\t", dtype=str)
    assert list(sample.itertuples(index=False, name=None)) == drawn
    assert len(drawn) == 240 and sample.groupby("topic_id").size().eq(6).all()
    judged = pd.read_csv(folder / "judgements.tsv", sep="\t", dtype={"topic_id": str})
    assert list(judged.columns) == ["topic_id", "doc_id", "grade", "note"]
    assert list(zip(judged.topic_id, judged.doc_id, strict=True)) == drawn
    assert judged.grade.isin([0, 1, 2, 3]).all() and judged.note.str.len().gt(0).all()
    # Every sampled document is in the pool, so the first judge graded it too.
    qrels = datasets.load_collection("stdlib-docs").qrels
    first = set(zip(qrels.query_id, qrels.doc_id, strict=True))
    assert set(drawn) <= first


def _system_runs_script():
    return load_script(REPO / "data" / "stdlib-docs" / "system-runs" / "make_runs.py",
                       "make_runs")


def _shipped_system_runs() -> pd.DataFrame:
    return pd.read_csv(datasets.data_path("stdlib-docs", "system-runs", "runs.tsv.gz"),
                       sep="\t", dtype={"query_id": str, "doc_id": str})


def test_shipped_system_runs_are_what_make_runs_writes():
    # Notebook 17 loads the 19 runs instead of building them; the file must not drift from
    # the script. Re-create three systems (one BM25 setting, a TF-IDF variant, a mix that
    # needs BM25 and title) and compare them with their columns in the shipped file.
    make_runs = _system_runs_script()
    shipped = _shipped_system_runs()
    assert list(shipped.columns) == ["query_id", "doc_id", *make_runs.SYSTEMS]
    assert shipped[list(make_runs.SYSTEMS)].notna().any(axis=1).all()
    assert not shipped.duplicated(["query_id", "doc_id"]).any()
    names = ["bm25 k1=0.5 b=0.3", "tf only (no idf)", "bm25 + 0.5 title"]
    rebuilt = make_runs.build(names)
    for name in names:
        ours = rebuilt[["query_id", "doc_id", name]].dropna().reset_index(drop=True)
        theirs = shipped[["query_id", "doc_id", name]].dropna().reset_index(drop=True)
        pd.testing.assert_frame_equal(ours, theirs, check_exact=False, rtol=0, atol=1e-9)


def test_three_system_runs_are_the_stored_runs():
    runs = datasets.load_collection("stdlib-docs").runs
    shipped = _shipped_system_runs()
    for stored, name in {"bm25": "bm25 k1=1.2 b=0.75", "tfidf": "tfidf sublinear",
                         "title": "title"}.items():
        ours = shipped[["query_id", "doc_id", name]].dropna().rename(columns={name: "score"})
        theirs = runs[stored][["query_id", "doc_id", "score"]]
        key = ["query_id", "doc_id"]
        pd.testing.assert_frame_equal(ours.sort_values(key).reset_index(drop=True),
                                      theirs.sort_values(key).reset_index(drop=True),
                                      check_exact=True)


# ---------------------------------------------------------------------------------------------
# Synthetic long-tailed labels
# ---------------------------------------------------------------------------------------------


def _support_by_hand(n_samples, n_classes, skew):
    """Zipf quotas of the samples beyond one per class, rounded by largest remainders."""
    import math

    share = [(i + 1) ** -skew for i in range(n_classes)]
    quota = [(n_samples - n_classes) * s / sum(share) for s in share]
    sizes = [math.floor(q) for q in quota]
    by_remainder = sorted(range(n_classes), key=lambda i: (-(quota[i] - sizes[i]), i))
    for i in by_remainder[: n_samples - n_classes - sum(sizes)]:
        sizes[i] += 1
    return [size + 1 for size in sizes]


@pytest.mark.parametrize("n_samples, n_classes, skew", [(100, 4, 1.0), (5000, 10, 2.0),
                                                         (2000, 8, 1.1), (8, 4, 0.0),
                                                         (10, 10, 3.0), (997, 7, 0.5)])
def test_long_tailed_support_is_zipf_rounded_by_largest_remainders(n_samples, n_classes, skew):
    import evalkit as ek

    support = ek.long_tailed_support(n_samples, n_classes=n_classes, skew=skew)
    assert support.tolist() == _support_by_hand(n_samples, n_classes, skew)
    assert support.sum() == n_samples and support.min() >= 1
    assert np.all(np.diff(support) <= 0)  # largest class first


def test_long_tailed_support_by_hand():
    import evalkit as ek

    # 96 shared samples: quotas 46.08, 23.04, 15.36, 11.52; one left over goes to class 3
    assert ek.long_tailed_support(100, n_classes=4, skew=1.0).tolist() == [47, 24, 16, 13]
    assert ek.long_tailed_support(40, n_classes=4, skew=0.0).tolist() == [10, 10, 10, 10]


def test_long_tailed_labels_have_the_support_and_the_designed_recall():
    import evalkit as ek

    skew, weakness, top = 1.0, 0.5, 0.9
    y_true, y_pred = ek.long_tailed_labels(200_000, n_classes=5, skew=skew,
                                           rare_weakness=weakness, top_recall=top, seed=3)
    support = ek.long_tailed_support(200_000, n_classes=5, skew=skew)
    np.testing.assert_array_equal(np.bincount(y_true), support)
    recall = ek.recall(y_true, y_pred, average=None, labels=range(5))
    designed = top * np.arange(1, 6) ** -(skew * weakness)
    np.testing.assert_allclose(recall, designed, atol=0.01)


def test_long_tailed_labels_send_errors_where_asked():
    import evalkit as ek

    for errors_to in ("proportional", "uniform"):
        y_true, y_pred = ek.long_tailed_labels(100_000, n_classes=4, skew=1.5,
                                               errors_to=errors_to, seed=1)
        wrong = y_pred[(y_true == 0) & (y_pred != 0)]  # the largest class's errors
        shares = np.bincount(wrong, minlength=4)[1:] / wrong.size
        support = ek.long_tailed_support(100_000, n_classes=4, skew=1.5)[1:]
        expected = support / support.sum() if errors_to == "proportional" else np.full(3, 1 / 3)
        np.testing.assert_allclose(shares, expected, atol=0.02)


def test_long_tailed_labels_repeat_with_the_seed():
    import evalkit as ek

    first = ek.long_tailed_labels(500, n_classes=6, skew=1.0, seed=7)
    again = ek.long_tailed_labels(500, n_classes=6, skew=1.0, seed=7)
    other = ek.long_tailed_labels(500, n_classes=6, skew=1.0, seed=8)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not np.array_equal(first[1], other[1])
    # balanced classes and no weakness: every class is drawn with the same recall
    y_true, y_pred = ek.long_tailed_labels(40_000, n_classes=4, skew=0.0, rare_weakness=2.0,
                                           top_recall=0.6, seed=0)
    np.testing.assert_allclose(ek.recall(y_true, y_pred, average=None), 0.6, atol=0.02)


@pytest.mark.parametrize("function", ["long_tailed_support", "long_tailed_labels"])
def test_long_tailed_bad_input_names_the_argument(function):
    import evalkit as ek

    with pytest.raises(ValueError, match="n_samples must be at least n_classes"):
        getattr(ek, function)(5, n_classes=6)
    with pytest.raises(ValueError, match="^skew must be"):
        getattr(ek, function)(50, n_classes=6, skew=-0.1)
    with pytest.raises(TypeError, match="^n_classes must be"):
        getattr(ek, function)(50, n_classes="6")
    with pytest.raises(TypeError):
        getattr(ek, function)(50, 6)  # options are keyword-only


def test_long_tailed_labels_bad_options_are_named():
    import evalkit as ek

    with pytest.raises(ValueError, match="errors_to must be one of"):
        ek.long_tailed_labels(50, n_classes=3, errors_to="everywhere")
    with pytest.raises(ValueError, match="^top_recall must be"):
        ek.long_tailed_labels(50, n_classes=3, top_recall=1.5)
