"""Draw the documents a second judge grades, and show them to that judge.

    .venv/bin/python data/stdlib-docs/second-judge/build_sample.py            # write sample.tsv
    .venv/bin/python data/stdlib-docs/second-judge/build_sample.py --show 7   # print topic 7's

Six pooled documents per topic, drawn at random (fixed seed) from `pool.tsv`, which lists the
pool without grades: drawing the sample needs nothing from the first judgements, and `--show`
prints the topic and its sampled documents without them, so the second judge works blind.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
COLLECTION = HERE.parent
PER_TOPIC = 6
SEED = 20261123


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def draw() -> list[tuple[str, str]]:
    pool: dict[str, list[str]] = {}
    for row in read_tsv(COLLECTION / "pool.tsv"):
        pool.setdefault(row["topic_id"], []).append(row["doc_id"])
    rng = random.Random(SEED)
    sample = []
    for topic in sorted(pool, key=int):
        chosen = rng.sample(pool[topic], PER_TOPIC)
        sample.extend((topic, doc_id) for doc_id in sorted(chosen))
    return sample


def show(topic_id: str) -> None:
    topic = next(t for t in read_tsv(COLLECTION / "topics.tsv") if t["topic_id"] == topic_id)
    wanted = [d for t, d in draw() if t == topic_id]
    documents = {}
    with (COLLECTION / "docs.jsonl").open(encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            if record["doc_id"] in wanted:
                documents[record["doc_id"]] = record
    print(f"Topic {topic_id}: {topic['query']}\n")
    for field in ("description", "narrative"):
        print(textwrap.fill(f"{field}: {topic[field]}", 100), "\n")
    for number, doc_id in enumerate(wanted, 1):
        record = documents[doc_id]
        print(f"--- {number}. {doc_id} ({record.get('kind', '?')})")
        print(textwrap.indent(record["text"], "    "), "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", metavar="TOPIC_ID", help="print one topic's sampled documents")
    args = parser.parse_args()
    if args.show:
        show(args.show)
        return
    with (HERE / "sample.tsv").open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, delimiter="\t", lineterminator="\n")
        writer.writerow(["topic_id", "doc_id"])
        writer.writerows(draw())


if __name__ == "__main__":
    main()
