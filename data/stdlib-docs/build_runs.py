"""Rank the documents for every topic with three simple systems; write their runs and the pool.

Run ``.venv/bin/python data/stdlib-docs/build_runs.py`` after ``build_corpus.py``. The three
systems differ on purpose, so that the pool holds documents that one system finds and the
others miss:

- ``bm25``: Okapi BM25 (k1=1.2, b=0.75) over the doc_id and the text;
- ``tfidf``: TF-IDF cosine (sublinear tf) over the same words;
- ``title``: the query words, after a light stemmer, matched by prefix in either direction
  against the words of the qualified name only (``hashlib.file_digest`` -> hashlib, file,
  digest), so that it finds the API whose name says what it does even when its docstring uses
  other words.

Every score is a sparse matrix product over all documents at once. Output is deterministic:
ties are broken by doc_id, and scores are rounded before ranking so that the order in the file
is the order of the written scores.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer

HERE = Path(__file__).resolve().parent
RUNS = HERE / "runs"
K1, B = 1.2, 0.75
RUN_DEPTH = 1000
POOL_DEPTH = 20
DECIMALS = 6
MIN_ABBREVIATION = 4  # shorter name words ("get", "set", "new") would match too many queries
STOP_WORDS = frozenset(
    "a an and are as at be by for from how i in into is it its me my of on or that the this "
    "to was what when which will with".split()
)
WORD = re.compile(r"[^\W_]+")  # letters and digits; splits identifiers on "_" and "."


def tokenize(text: str) -> list[str]:
    """Lower-case words without stop words; ``os.path.join`` gives os, path, join."""
    return [w for w in WORD.findall(text.lower()) if w not in STOP_WORDS]


def light_stem(word: str) -> str:
    """Strip one plural or verb ending (files -> file, matching -> match, sorted -> sort)."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word


def load_docs() -> tuple[list[str], list[str]]:
    """doc_ids (sorted, so that a document's index breaks ties by doc_id) and their texts."""
    with (HERE / "docs.jsonl").open(encoding="utf-8") as lines:
        docs = sorted((json.loads(line) for line in lines), key=lambda d: d["doc_id"])
    return [d["doc_id"] for d in docs], [f"{d['doc_id']} {d['text']}" for d in docs]


def load_topics() -> list[tuple[str, str]]:
    """(topic_id, query) pairs in file order."""
    with (HERE / "topics.tsv").open(encoding="utf-8", newline="") as f:
        rows = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        return [(row["topic_id"], row["query"]) for row in rows]


def bm25_scores(texts: list[str], queries: list[str]) -> np.ndarray:
    """BM25 scores, documents x topics; idf is Lucene's log(1 + (N - df + .5) / (df + .5))."""
    vectorizer = CountVectorizer(analyzer=tokenize)
    tf = vectorizer.fit_transform(texts).astype(np.float64).tocsr()
    n_docs = tf.shape[0]
    df = np.bincount(tf.indices, minlength=tf.shape[1])
    idf = np.log1p((n_docs - df + 0.5) / (df + 0.5))
    length = np.asarray(tf.sum(axis=1)).ravel()
    norm = K1 * (1 - B + B * length / length.mean())
    rows = np.repeat(np.arange(n_docs), np.diff(tf.indptr))
    tf.data = tf.data * (K1 + 1) / (tf.data + norm[rows]) * idf[tf.indices]
    return (tf @ vectorizer.transform(queries).T).toarray()


def tfidf_scores(texts: list[str], queries: list[str]) -> np.ndarray:
    """Cosine of sublinear-tf TF-IDF vectors, documents x topics."""
    vectorizer = TfidfVectorizer(analyzer=tokenize, sublinear_tf=True)
    return (vectorizer.fit_transform(texts) @ vectorizer.transform(queries).T).toarray()


def title_scores(doc_ids: list[str], queries: list[str]) -> np.ndarray:
    """Name match, documents x topics.

    A query word matches a name word that starts with its stem ("hash" matches "hashlib") or
    that is a prefix of it of at least MIN_ABBREVIATION letters, as the standard library
    abbreviates ("differences" matches "diff", "schedule" matches "sched").
    A document scores the idf of each query word its name matches, over the square root of
    the number of words in its name, so that ``hashlib`` outranks ``hashlib.new``.
    """
    vectorizer = CountVectorizer(analyzer=tokenize, binary=True)
    names = vectorizer.fit_transform(doc_ids).tocsr()
    vocabulary = vectorizer.get_feature_names_out().astype(str)
    name_length = np.sqrt(np.asarray(names.sum(axis=1)).ravel())
    n_docs = names.shape[0]
    scores = np.zeros((n_docs, len(queries)))
    for column, query in enumerate(queries):
        stems = sorted({light_stem(w) for w in tokenize(query)})
        if not stems:
            continue
        matches = np.column_stack([
            np.char.startswith(vocabulary, s)
            | np.isin(vocabulary, [s[:n] for n in range(MIN_ABBREVIATION, len(s))])
            for s in stems
        ])
        hits = (names @ sparse.csr_matrix(matches, dtype=np.float64)).toarray() > 0
        df = hits.sum(axis=0)
        idf = np.log(n_docs / np.maximum(df, 1)) * (df > 0)
        scores[:, column] = hits @ idf / name_length
    return scores


def write_run(path: Path, run_id: str, topics, doc_ids: np.ndarray, scores: np.ndarray):
    """TREC run: up to RUN_DEPTH documents with a positive score, best first, ties by doc_id."""
    index = np.arange(len(doc_ids))
    with path.open("w", encoding="utf-8", newline="\n") as out:
        for column, (topic_id, _) in enumerate(topics):
            rounded = np.round(scores[:, column], DECIMALS)
            order = np.lexsort((index, -rounded))
            order = order[rounded[order] > 0][:RUN_DEPTH]
            for rank, i in enumerate(order, start=1):
                out.write(f"{topic_id} Q0 {doc_ids[i]} {rank} {rounded[i]:.{DECIMALS}f} "
                          f"{run_id}\n")


def write_pool(run_paths: list[Path], topics) -> dict[str, set[str]]:
    """Union of each run's top POOL_DEPTH, read back from the run files, sorted by doc_id.

    Judges see neither the system nor the rank that brought a document into the pool.
    """
    pool: dict[str, set[str]] = {topic_id: set() for topic_id, _ in topics}
    for path in run_paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            topic_id, _, doc_id, rank, _, _ = line.split()
            if int(rank) <= POOL_DEPTH:
                pool[topic_id].add(doc_id)
    with (HERE / "pool.tsv").open("w", encoding="utf-8", newline="\n") as out:
        out.write("topic_id\tdoc_id\n")
        for topic_id in sorted(pool, key=int):
            out.writelines(f"{topic_id}\t{doc_id}\n" for doc_id in sorted(pool[topic_id]))
    return pool


def main() -> None:
    doc_ids, texts = load_docs()
    topics = load_topics()
    queries = [query for _, query in topics]
    systems = {
        "bm25": bm25_scores(texts, queries),
        "tfidf": tfidf_scores(texts, queries),
        "title": title_scores(doc_ids, queries),
    }
    RUNS.mkdir(exist_ok=True)
    paths = []
    for run_id, scores in systems.items():
        paths.append(RUNS / f"{run_id}.run")
        write_run(paths[-1], run_id, topics, np.array(doc_ids), scores)
    sizes = [len(docs) for docs in write_pool(paths, topics).values()]
    print(f"{len(doc_ids)} documents, {len(topics)} topics, runs in {RUNS}; pool of "
          f"{sum(sizes)} pairs, {min(sizes)}-{max(sizes)} per topic (mean {np.mean(sizes):.1f})")


if __name__ == "__main__":
    main()
