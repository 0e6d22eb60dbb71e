"""Print one topic and its pooled documents, in doc_id order, for a human judge to read.

    .venv/bin/python data/stdlib-docs/show_pool.py 7
    .venv/bin/python data/stdlib-docs/show_pool.py 7 --start 21 --count 10
    .venv/bin/python data/stdlib-docs/show_pool.py 7 --chars 0      # whole docstrings

Documents are numbered 1..n in doc_id order, the order of pool.tsv; nothing shows which system
retrieved a document or at what rank, so that it cannot sway the grade (see GUIDELINES.md).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent


def read_tsv(name: str) -> list[dict[str, str]]:
    with (HERE / name).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("topic_id")
    parser.add_argument("--start", type=int, default=1, help="first document to show (1-based)")
    parser.add_argument("--count", type=int, default=0, help="how many to show (0: all)")
    parser.add_argument("--chars", type=int, default=1200,
                        help="characters of each text to show (0: all)")
    args = parser.parse_args(argv)

    topics = {row["topic_id"]: row for row in read_tsv("topics.tsv")}
    if args.topic_id not in topics:
        sys.exit(f"no topic {args.topic_id!r}; topics are {', '.join(topics)}")
    topic = topics[args.topic_id]
    pooled = sorted(row["doc_id"] for row in read_tsv("pool.tsv")
                    if row["topic_id"] == args.topic_id)
    wanted = set(pooled)
    docs = {}
    with (HERE / "docs.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            doc = json.loads(line)
            if doc["doc_id"] in wanted:
                docs[doc["doc_id"]] = doc

    print(f"TOPIC {topic['topic_id']}: {topic['query']}")
    for field in ("description", "narrative"):
        print(textwrap.fill(f"{field}: {topic[field]}", width=100, subsequent_indent="  "))
    stop = len(pooled) if args.count <= 0 else args.start - 1 + args.count
    for number, doc_id in enumerate(pooled[args.start - 1 : stop], start=args.start):
        doc = docs[doc_id]
        text = doc["text"]
        if args.chars and len(text) > args.chars:
            text = f"{text[: args.chars]}\n[... {len(doc['text']) - args.chars} more characters]"
        print(f"\n{'=' * 100}\n[{number}/{len(pooled)}] {doc_id}  ({doc['kind']})\n{'-' * 100}")
        print(text)


if __name__ == "__main__":
    main()
