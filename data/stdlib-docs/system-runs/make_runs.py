"""Rank stdlib-docs with the 19 systems of notebook 17 and save their runs to ``runs.tsv.gz``.

Notebook 17 ranks many systems by MAP, nDCG@10 and P@10 and compares the rankings. The three
stored runs (``../runs/``) make only three pairs of systems, far too few for a rank
correlation, so this script builds 19 systems, all from the tokenizer and scorers of
``../build_runs.py``:

- ``bm25 k1=K b=B``: Okapi BM25 with k1 in 0.5, 0.9, 1.2, 2.0 and b in 0.3, 0.75, 1.0
  (12 systems; k1 is how fast repeated words stop counting, b how much long documents are
  penalised);
- ``tfidf sublinear``, ``tfidf raw tf``, ``tf only (no idf)``: TF-IDF cosine with sublinear
  tf, with raw tf, and with sublinear tf but no idf;
- ``title``: the query words matched against the words of the documented name;
- ``bm25 + W title`` (W = 0.2, 0.5, 1.0): BM25 (k1 = 1.2, b = 0.75) plus W times the title
  score, each scaled to 1 at its best document of the topic.

Like ``build_runs.py``, every run keeps, per topic, the 1,000 best documents with a positive
score, scores rounded to six decimals, ties broken by doc_id. So ``bm25 k1=1.2 b=0.75``,
``tfidf sublinear`` and ``title`` are the stored runs ``bm25``, ``tfidf`` and ``title``, line
for line (``tests/test_datasets.py`` checks this, and re-creates three other systems).

``runs.tsv.gz`` is one gzip-compressed, tab-separated table (about 1.2 MB; the 19 runs as TREC
files would take 17 MB). Header: ``query_id``, ``doc_id``, then the 19 system names. One row
per (topic, document) that at least one system returned, sorted by topic number and then
doc_id; a system's column holds its score (six decimals), or is empty when that system did
not return the document. Read it, and cut out one system's run, with::

    scores = pd.read_csv(data_path("stdlib-docs", "system-runs", "runs.tsv.gz"), sep="\\t",
                         dtype={"query_id": str, "doc_id": str})
    run = scores[["query_id", "doc_id", name]].dropna().rename(columns={name: "score"})

Run from the repository root; it takes about 10 seconds and writes the same table for the
same numpy, scipy and scikit-learn (the file was made with numpy 2.4.6, scipy 1.17.1 and
scikit-learn 1.9.1)::

    .venv/bin/python data/stdlib-docs/system-runs/make_runs.py
"""

from __future__ import annotations

import gzip
import importlib.util
import time
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer

HERE = Path(__file__).resolve().parent
OUT = HERE / "runs.tsv.gz"

_spec = importlib.util.spec_from_file_location("build_runs", HERE.parent / "build_runs.py")
build_runs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_runs)

K1S = (0.5, 0.9, 1.2, 2.0)
BS = (0.3, 0.75, 1.0)
TITLE_WEIGHTS = (0.2, 0.5, 1.0)
MIX_BASE = "bm25 k1=1.2 b=0.75"

#: The systems in the order of the file's columns.
SYSTEMS = (
    *(f"bm25 k1={k1} b={b}" for k1 in K1S for b in BS),
    "tfidf sublinear",
    "tfidf raw tf",
    "tf only (no idf)",
    "title",
    *(f"bm25 + {w} title" for w in TITLE_WEIGHTS),
)


class Scorer:
    """The documents and topics, and the word counts that every BM25 setting shares."""

    def __init__(self) -> None:
        self.doc_ids, self.texts = build_runs.load_docs()
        self.topic_ids, self.queries = (
            list(column) for column in zip(*build_runs.load_topics(), strict=True))
        counter = CountVectorizer(analyzer=build_runs.tokenize)
        self.tf = counter.fit_transform(self.texts).astype(np.float64).tocsr()  # docs x words
        self.query_words = counter.transform(self.queries).T.tocsr()         # words x topics
        self.length = np.asarray(self.tf.sum(axis=1)).ravel()
        df = np.bincount(self.tf.indices, minlength=self.tf.shape[1])
        # Lucene's idf, as build_runs.bm25_scores.
        self.idf = np.log1p((self.tf.shape[0] - df + 0.5) / (df + 0.5))
        self.row_of_entry = np.repeat(np.arange(self.tf.shape[0]), np.diff(self.tf.indptr))
        self._cache: dict[str, np.ndarray] = {}

    def bm25(self, k1: float, b: float) -> np.ndarray:
        """BM25 scores (documents x topics): ``build_runs.bm25_scores`` with k1 and b."""
        norm = k1 * (1 - b + b * self.length / self.length.mean())
        weights = self.tf.copy()
        weights.data = (self.tf.data * (k1 + 1) / (self.tf.data + norm[self.row_of_entry])
                        * self.idf[self.tf.indices])
        return (weights @ self.query_words).toarray()

    def tfidf(self, **options) -> np.ndarray:
        """TF-IDF cosine (documents x topics) with scikit-learn's ``TfidfVectorizer`` options."""
        vectorizer = TfidfVectorizer(analyzer=build_runs.tokenize, **options)
        return (vectorizer.fit_transform(self.texts)
                @ vectorizer.transform(self.queries).T).toarray()

    def scores(self, name: str) -> np.ndarray:
        """The score matrix (documents x topics) of the system called ``name``."""
        if name not in self._cache:
            self._cache[name] = self._compute(name)
        return self._cache[name]

    def _compute(self, name: str) -> np.ndarray:
        if name not in SYSTEMS:
            raise ValueError(f"unknown system {name!r}; the systems are {list(SYSTEMS)}")
        if name.startswith("bm25 k1="):
            k1, b = (float(part.split("=")[1]) for part in name.split()[1:])
            return self.bm25(k1, b)
        if name == "tfidf sublinear":
            return self.tfidf(sublinear_tf=True)
        if name == "tfidf raw tf":
            return self.tfidf()
        if name == "tf only (no idf)":
            return self.tfidf(sublinear_tf=True, use_idf=False)
        if name == "title":
            return build_runs.title_scores(self.doc_ids, self.queries)
        weight = float(name.split()[2])  # "bm25 + W title"
        return _scaled(self.scores(MIX_BASE)) + weight * _scaled(self.scores("title"))

    def run(self, name: str) -> pd.DataFrame:
        """One system's run: per topic, the best ``RUN_DEPTH`` documents with a positive score.

        Scores are rounded to ``build_runs.DECIMALS`` before ranking and ties go to the lower
        doc_id, as in ``build_runs.write_run``. Columns ``query_id``, ``doc_id``, ``score``.
        """
        rounded = np.round(self.scores(name), build_runs.DECIMALS)
        top = np.argsort(-rounded, axis=0, kind="stable")[: build_runs.RUN_DEPTH]
        top_scores = np.take_along_axis(rounded, top, axis=0)
        keep = top_scores > 0
        return pd.DataFrame({
            "query_id": np.broadcast_to(np.array(self.topic_ids), top.shape).T[keep.T],
            "doc_id": np.array(self.doc_ids)[top].T[keep.T],
            "score": top_scores.T[keep.T],
        })


def _scaled(scores: np.ndarray) -> np.ndarray:
    """Each topic's scores over its best score, so that two systems can be mixed."""
    best = scores.max(axis=0, keepdims=True)
    return scores / np.where(best > 0, best, 1.0)


def build(names: Iterable[str] = SYSTEMS, scorer: Scorer | None = None) -> pd.DataFrame:
    """The table of ``runs.tsv.gz`` for the systems ``names`` (all 19 by default).

    One row per (topic, document) that at least one of the systems returned, sorted by topic
    number and doc_id; one column of scores per system, NaN where it did not return the
    document.
    """
    scorer = scorer or Scorer()
    names = list(names)
    table = None
    for name in names:
        run = scorer.run(name).rename(columns={"score": name})
        table = run if table is None else table.merge(run, on=["query_id", "doc_id"],
                                                      how="outer")
    table = table.assign(topic=table.query_id.astype(int)).sort_values(["topic", "doc_id"])
    return table.reset_index(drop=True)[["query_id", "doc_id", *names]]


def write(table: pd.DataFrame, path: Path = OUT) -> None:
    """Write the table as gzip-compressed TSV, byte for byte the same for the same table."""
    text = table.to_csv(sep="\t", index=False, float_format=f"%.{build_runs.DECIMALS}f",
                        lineterminator="\n")
    path.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))


def main() -> None:
    start = time.perf_counter()
    table = build()
    write(table)
    returned = table[list(SYSTEMS)].notna().sum()
    print(f"{len(SYSTEMS)} systems, {table.query_id.nunique()} topics, {len(table):,} rows; "
          f"{returned.min():,} to {returned.max():,} documents per system; "
          f"{OUT.stat().st_size / 1e6:.1f} MB in {OUT} ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
