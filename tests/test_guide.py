"""The one-page guide (docs/guide.md) names only what exists: every ``ek.`` function, and every
option value in its conventions table is accepted by the function it names."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import evalkit as ek

from .conftest import REPO

GUIDE = (REPO / "docs" / "guide.md").read_text(encoding="utf-8")


def test_every_function_the_guide_names_exists():
    names = set(re.findall(r"\bek\.(\w+)", GUIDE))
    assert len(names) > 30
    assert sorted(n for n in names if not hasattr(ek, n)) == []


def test_every_notebook_the_guide_cites_exists():
    cited = {int(n) for cell in re.findall(r"\| ([\d, ]+) \|$", GUIDE, re.M)
             for n in cell.split(",")}
    files = {int(p.name[:2]) for p in (REPO / "notebooks").glob("[0-9][0-9]-*.ipynb")}
    assert cited and cited <= files


RELEVANCE = [1, 0, 1, 0, 0]
GAINS = [3, 0, 2, 1, 0]
LABELS = (np.array([0, 1, 2, 1, 0, 2, 1]), np.array([0, 2, 2, 1, 0, 1, 1]))


@pytest.mark.parametrize(("function", "option", "call"), [
    ("average_precision", "denominator",
     lambda v: ek.average_precision(RELEVANCE, n_relevant=3, denominator=v)),
    ("ndcg", "variant", lambda v: ek.ndcg(GAINS, variant=v)),
    ("ndcg", "ties", lambda v: ek.ndcg(GAINS, scores=[5, 4, 4, 2, 1], ties=v)),
    ("evaluate", "missing_queries", lambda v: ek.evaluate(
        pd.DataFrame({"query_id": ["q"], "doc_id": ["d"], "relevance": [1]}),
        pd.DataFrame({"query_id": ["q"], "doc_id": ["d"], "score": [1.0]}), ["map"],
        missing_queries=v)),
    ("evaluate", "trec_eval_version", lambda v: ek.evaluate(
        pd.DataFrame({"query_id": ["q"], "doc_id": ["d"], "relevance": [1]}),
        pd.DataFrame({"query_id": ["q"], "doc_id": ["d"], "score": [1.0]}), ["map"],
        trec_eval_version=v)),
    ("f1_score", "average", lambda v: ek.f1_score(*LABELS, average=v)),
    ("cohen_kappa", "marginals", lambda v: ek.cohen_kappa(*LABELS, marginals=v)),
])
def test_the_conventions_table_options_are_accepted(function, option, call):
    row = next(line for line in GUIDE.splitlines()
               if f"{function}(" in line and f"{option}=" in line)
    accepted = re.findall(r'"([\w.]+)"', row.split(f"{option}=", 1)[1].split(")")[0])
    assert len(accepted) >= 2, row
    for value in accepted:
        call(value)  # an unknown option value raises ValueError
