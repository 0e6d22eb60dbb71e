"""Assemble the judges' files into the collection's qrels and its manual run.

Reads ``judgements/topic-NN.tsv`` (topic_id, doc_id, grade, note) and ``manual/topic-NN.tsv``
(topic_id, doc_id, rank: the documents a judge found by searching the corpus before reading
the pool, best first) and writes

- ``qrels.txt``: the judgements in TREC qrels format (``topic 0 doc_id grade``);
- ``runs/manual.run``: the judges' searches as a TREC run (score = 1 / rank), the pool's
  fourth contributor (interactive search and judge, Cormack et al. 1998);
- ``pool.tsv``: the full pool, the top 20 of each automatic run plus the manual documents.

It stops with an error if a pooled document was not judged, a judged document is not in the
pool, a grade is outside 0-3, or a doc_id is not in ``docs.jsonl``, so the qrels are complete
by construction. Run it from anywhere:

    .venv/bin/python data/stdlib-docs/build_qrels.py
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
POOL_DEPTH = 20
AUTOMATIC_RUNS = ("bm25", "tfidf", "title")


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


def top_documents(run_path: Path, depth: int) -> dict[str, list[str]]:
    """The first ``depth`` documents per topic, in the run file's ranked order."""
    found: dict[str, list[str]] = {}
    for line in run_path.read_text(encoding="utf-8").splitlines():
        topic, _, doc_id, _rank, _score, _run = line.split()
        ranked = found.setdefault(topic, [])
        if len(ranked) < depth:
            ranked.append(doc_id)
    return found


def main() -> int:
    doc_ids = {json.loads(line)["doc_id"] for line in (HERE / "docs.jsonl").open(encoding="utf-8")}
    topics = [row["topic_id"] for row in read_tsv(HERE / "topics.tsv")]
    problems: list[str] = []

    pool: dict[str, set[str]] = {topic: set() for topic in topics}
    for name in AUTOMATIC_RUNS:
        for topic, ranked in top_documents(HERE / "runs" / f"{name}.run", POOL_DEPTH).items():
            pool[topic].update(ranked)

    manual_lines, qrels_lines = [], []
    for topic in topics:
        manual = read_tsv(HERE / "manual" / f"topic-{int(topic):02d}.tsv")
        for rank, row in enumerate(sorted(manual, key=lambda r: int(r["rank"])), start=1):
            if row["topic_id"] != topic or row["doc_id"] not in doc_ids:
                problems.append(f"manual topic {topic}: bad line {row}")
                continue
            pool[topic].add(row["doc_id"])
            manual_lines.append(f"{topic} Q0 {row['doc_id']} {rank} {1 / rank:.6f} manual")

        judged: dict[str, int] = {}
        for row in read_tsv(HERE / "judgements" / f"topic-{int(topic):02d}.tsv"):
            doc_id, grade = row["doc_id"], row["grade"]
            if row["topic_id"] != topic or doc_id in judged or grade not in {"0", "1", "2", "3"}:
                problems.append(f"judgements topic {topic}: bad or repeated line {row}")
                continue
            judged[doc_id] = int(grade)
        missing = pool[topic] - set(judged)
        extra = set(judged) - pool[topic]
        if missing:
            problems.append(f"topic {topic}: pooled but not judged: {sorted(missing)}")
        if extra:
            problems.append(f"topic {topic}: judged but not pooled: {sorted(extra)}")
        qrels_lines += [f"{topic} 0 {doc_id} {judged[doc_id]}" for doc_id in sorted(judged)]

    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    (HERE / "qrels.txt").write_text("\n".join(qrels_lines) + "\n", encoding="utf-8")
    (HERE / "runs" / "manual.run").write_text("\n".join(manual_lines) + "\n", encoding="utf-8")
    pool_lines = ["topic_id\tdoc_id"] + [
        f"{topic}\t{doc_id}" for topic in topics for doc_id in sorted(pool[topic])
    ]
    (HERE / "pool.tsv").write_text("\n".join(pool_lines) + "\n", encoding="utf-8")
    print(f"{len(qrels_lines)} judgements for {len(topics)} topics; "
          f"{len(manual_lines)} manual run lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
