"""Write judgements.tsv from grades_raw.txt (topic|doc_id|grade|note) in sample.tsv order, and check it."""
import csv
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
raw = {}
for line in (HERE / "grades_raw.txt").read_text(encoding="utf-8").splitlines():
    topic, doc, grade, note = line.split("|", 3)
    key = (topic, doc)
    assert key not in raw, key
    raw[key] = (int(grade), " ".join(note.replace("\t", " ").split()))
with (HERE / "sample.tsv").open(encoding="utf-8", newline="") as f:
    sample = [(r["topic_id"], r["doc_id"]) for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)]
assert len(sample) == 240 and set(sample) == set(raw), set(sample) ^ set(raw)
with (HERE / "judgements.tsv").open("w", encoding="utf-8", newline="") as f:
    w = csv.writer(f, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_NONE, escapechar="\\")
    w.writerow(["topic_id", "doc_id", "grade", "note"])
    for key in sample:
        w.writerow([*key, *raw[key]])
# check
with (HERE / "judgements.tsv").open(encoding="utf-8", newline="") as f:
    rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
assert [(r["topic_id"], r["doc_id"]) for r in rows] == sample
assert all(r["grade"] in {"0", "1", "2", "3"} and len(r) == 4 for r in rows)
print(len(rows), "rows OK;", sorted(Counter(r["grade"] for r in rows).items()))
print("unsure:", sum("unsure" in r["note"] for r in rows))
