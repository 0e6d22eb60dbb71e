"""benchmarks/run_all.py writes benchmarks/RESULTS.md: rendering and the driver, no real timing."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from .conftest import REPO, load_script

BENCHMARKS = REPO / "benchmarks"


@pytest.fixture(scope="module")
def run_all():
    return load_script(BENCHMARKS / "run_all.py", "run_all")


def fake_run() -> dict:
    return {
        "date": "2026-01-02 03:04 UTC",
        "machine": {"cpu": "Fake CPU 9000", "cores": 2, "usable_cores": 2, "ram_gib": 23.5,
                    "available_gib": 20.0, "os": "Debian GNU/Linux 12, Linux 6.1 x86_64",
                    "python": "3.11.7 (CPython)"},
        "load_start": [1.5, 2.0, 2.5],
        "load_end": [3.25, 2.5, 2.0],
        "versions": {"evalkit": "0.1.0 (git abc1234)", "numpy": "2.4.6",
                     "ranx": "not installed"},
        "seconds": 754.0,
    }


def fake_script(name: str, quick: bool = False, returncode: int = 0) -> dict:
    return {
        "name": name, "description": f"{name}: evalkit against the reference tools.",
        "quick": quick, "returncode": returncode, "timed_out": False, "seconds": 61.0,
        "load_before": [1.5, 2.0, 2.5], "load_after": [2.0, 2.0, 2.5],
        "stderr_tail": ["Traceback (most recent call last):", "RuntimeError: boom"]
        if returncode else [],
        "records": [
            {"kind": "sizes", "sizes": {"labels": "10⁶ and 10⁷ samples"}},
            {"kind": "table", "title": "evalkit vs scikit-learn (ms)",
             "header": ["metric", "n", "evalkit", "sklearn", "sklearn/evalkit"],
             "rows": [["accuracy", "1e+06", "1.5", "15.0", "10.0x"],
                      ["F1 | macro", "1e+07", "20.0", "30.0", "1.5x"]]},
            {"kind": "note", "text": "slowest ratio 1.5x, median 5.8x"},
        ],
    }


def test_render_gathers_the_goals_in_one_table(run_all):
    met = {"kind": "goal", "what": "evaluate: ratio to ranx", "data": "deep pool, 10,000 queries",
           "measured": "1.81x", "goal": ">= 1.5x", "met": True}
    missed = {"kind": "goal", "what": "evaluate: peak RSS", "data": "deep pool, 10,000 queries",
              "measured": "412 MB", "goal": "<= 350 MB", "met": False}
    alpha, beta = fake_script("bench_alpha.py"), fake_script("bench_beta.py")
    alpha["records"].append(met)
    beta["records"].append(missed)
    text = run_all.render(fake_run(), [alpha, beta])

    sections = text.split("\n## ")[1:]
    assert [section.splitlines()[0] for section in sections] == [
        "The run", "Goals", "bench_alpha.py", "bench_beta.py"]
    goals = sections[1]
    assert "1 of 2 met; **1 not met**." in goals
    assert ("| [bench_alpha.py](#bench_alphapy) | evaluate: ratio to ranx | deep pool, 10,000 "
            "queries | 1.81x | >= 1.5x | yes |") in goals
    assert "| 412 MB | <= 350 MB | **no** |" in goals
    # Without goals, no section.
    assert "## Goals" not in run_all.render(fake_run(), [fake_script("bench_alpha.py")])


def test_render_counts_goals_honestly_and_lifts_sectioned_tables(run_all):
    goal = {"kind": "goal", "what": "roc_auc: time now / at 209f158", "data": "10⁷ scores",
            "measured": "0.80x", "goal": "<= 1.05x", "met": True}
    regression = fake_script("bench_regression.py", quick=True)
    regression["records"] += [goal, {
        "kind": "table", "title": "This checkout against 209f158", "section":
        "Against the last release", "header": ["call", "209f158 (ms)", "now (ms)", "ratio"],
        "rows": [["roc_auc", "100.0", "80.0", "0.80x"]]}]
    crashed = fake_script("bench_crash.py", returncode=1)
    text = run_all.render(fake_run(), [regression, crashed])

    sections = text.split("\n## ")[1:]
    assert [section.splitlines()[0] for section in sections] == [
        "The run", "Goals", "Against the last release", "bench_regression.py",
        "bench_crash.py"]
    # The count says what it cannot see: a script that died, goals on quick data.
    assert ("1 of 1 met. 1 script(s) did not finish (bench_crash.py): goals they did not "
            "reach are not counted. Measured on quick (smaller) data: bench_regression.py."
            ) in sections[1]
    lifted = sections[2]
    assert "From [bench_regression.py](#bench_regressionpy)" in lifted
    assert "| roc_auc | 100.0 | 80.0 | 0.80x |" in lifted
    # The script's own section points there instead of repeating it.
    assert "| roc_auc | 100.0 |" not in sections[3]
    assert "[Against the last release](#against-the-last-release)" in sections[3]


def test_record_goal_prints_records_and_judges(tmp_path, monkeypatch):
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import _timing
    finally:
        sys.path.remove(str(BENCHMARKS))
    path = tmp_path / "records.jsonl"
    monkeypatch.setenv(_timing.RECORD_ENV, str(path))
    assert _timing.record_goal("ratio", "10⁵ pairs", 1.25, 1.2) is True
    assert _timing.record_goal("ratio", "10⁶ pairs", 1.15, 1.2) is False
    assert _timing.record_goal("peak RSS", "10,000 queries", 351.4, 350, unit=" MB",
                               at_most=True) is False
    assert _timing.record_goal("import", "median", 1.3, 1.3, at_most=True) is True
    assert _timing.record_goal("ranx", "ranx missing", float("nan"), 1.5) is False
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [(r["measured"], r["goal"], r["met"]) for r in records] == [
        ("1.25x", ">= 1.2x", True), ("1.15x", ">= 1.2x", False),
        ("351 MB", "<= 350 MB", False), ("1.30x", "<= 1.3x", True),
        ("not measured", ">= 1.5x", False)]


def test_render_header_sections_and_tables(run_all):
    scripts = [fake_script("bench_alpha.py"), fake_script("bench_beta.py", quick=True)]
    text = run_all.render(fake_run(), scripts)

    assert text.startswith("# evalkit benchmark results\n")
    for field in ("2026-01-02 03:04 UTC", "Fake CPU 9000", "2 cores", "23.5 GiB RAM",
                  "1.50 / 2.00 / 2.50 at the start", "3.25 / 2.50 / 2.00 at the end",
                  "Debian GNU/Linux 12", "3.11.7 (CPython)", "12 min 34 s",
                  "| evalkit | 0.1.0 (git abc1234) |", "| numpy | 2.4.6 |",
                  "| ranx | not installed |"):
        assert field in text, field
    assert "above 1 means evalkit is faster" in text
    assert "best-of-N wall times" in text and "input validation included" in text
    assert "mixed: bench_beta.py quick" in text

    # One section per script, in order, each with its description, mode, sizes and table.
    sections = text.split("\n## ")[1:]
    names = [section.splitlines()[0] for section in sections]
    assert names == ["The run", "bench_alpha.py", "bench_beta.py"]
    for section, mode in zip(sections[1:], ("Run: full", "Run: quick"), strict=True):
        assert "evalkit against the reference tools." in section
        assert mode in section
        assert "- labels: 10⁶ and 10⁷ samples" in section
        assert "**evalkit vs scikit-learn (ms)**" in section
        assert "| metric | n | evalkit | sklearn | sklearn/evalkit |" in section
        assert "|---|---:|---:|---:|---:|" in section
        assert "| accuracy | 1e+06 | 1.5 | 15.0 | 10.0x |" in section
        assert "| F1 \\| macro | 1e+07 | 20.0 | 30.0 | 1.5x |" in section  # pipe escaped
        assert "> slowest ratio 1.5x, median 5.8x" in section
    # The overview links each section.
    assert "[bench_alpha.py](#bench_alphapy)" in text


def test_render_reports_a_failed_script_and_a_full_run(run_all):
    text = run_all.render(fake_run(), [fake_script("bench_alpha.py", returncode=1)])
    assert "failed (exit code 1)" in text
    assert "RuntimeError: boom" in text
    assert "| accuracy | 1e+06 |" in text  # the tables printed before the failure stay
    assert "| Run | full" in text


def test_run_all_writes_results_from_a_scripts_folder(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "bench_fake.py").write_text(textwrap.dedent('''\
        """A fake benchmark: evalkit against nothing at all.

        A second paragraph that RESULTS.md leaves out.
        """
        import os

        from _timing import print_note, print_table, record_goal, record_sizes

        record_sizes({"items": "3"})
        record_goal("fake: ratio to other", "3 items", 4.0, 2.0)
        print_table(["metric", "evalkit", "other", "other/evalkit"],
                    [["fake", "1.0", "4.0", "4.0x"]], title="Fake against other")
        print_note("slowest ratio 4.0x; quick=" + os.environ.get("EVALKIT_BENCH_QUICK", "0"))
        '''))
    (scripts / "bench_crash.py").write_text('"""Crashes."""\nraise SystemExit("crashed")\n')
    (scripts / "helper.py").write_text("raise SystemExit('not a benchmark')\n")
    out = tmp_path / "out" / "RESULTS.md"

    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "run_all.py"), "--scripts-dir", str(scripts),
         "--out", str(out), "--quick-for", "crash"],
        capture_output=True, text=True, timeout=60, check=False)

    assert done.returncode == 1, done.stderr  # one script failed, the other still ran
    text = out.read_text(encoding="utf-8")
    assert "Fake against other" in done.stdout  # the scripts still print as on their own
    assert "## bench_fake.py" in text and "## bench_crash.py" in text
    assert "helper" not in text
    assert "A fake benchmark: evalkit against nothing at all." in text
    assert "second paragraph" not in text
    assert "| fake | 1.0 | 4.0 | 4.0x |" in text
    assert "> slowest ratio 4.0x; quick=0" in text
    assert "- items: 3" in text
    assert "1 of 1 met. 1 script(s) did not finish (bench_crash.py)" in text
    assert "| fake: ratio to other | 3 items | 4.00x | >= 2x | yes |" in text
    assert "failed (exit code 1)" in text and "crashed" in text
    assert "mixed: bench_crash.py quick" in text


def test_run_all_reruns_a_script_quick_after_the_timeout(tmp_path):
    (tmp_path / "bench_slow.py").write_text(textwrap.dedent('''\
        """Slow unless quick."""
        import os
        import time

        from _timing import print_table

        if os.environ.get("EVALKIT_BENCH_QUICK") != "1":
            time.sleep(60)
        print_table(["metric", "ratio"], [["slow", "2.0x"]])
        '''))
    out = tmp_path / "RESULTS.md"
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "run_all.py"), "--scripts-dir", str(tmp_path),
         "--out", str(out), "--timeout", "1"],
        capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    assert "The full run was stopped after 1 s" in text
    assert "Run: quick (EVALKIT_BENCH_QUICK=1)" in text
    assert "| slow | 2.0x |" in text


def test_ratio_rounds_interleaves_and_keeps_every_round():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import _timing
    finally:
        sys.path.remove(str(BENCHMARKS))
    calls = []
    ratios = _timing.ratio_rounds(lambda: calls.append("ours"), lambda: calls.append("theirs"),
                                  rounds=3, repeats=2)
    assert len(ratios) == 3 and all(r > 0 for r in ratios)
    # A, B, A, B within a round; the first caller alternates from round to round.
    assert calls == ["ours", "theirs"] * 2 + ["theirs", "ours"] * 2 + ["ours", "theirs"] * 2


def test_bench_trec_eval_notes_hold():
    """The examples of bench_trec_eval's notes (the start-up floor's) hold."""
    import doctest

    bench = load_script(BENCHMARKS / "bench_trec_eval.py", "bench_trec_eval")
    failed, tried = doctest.testmod(bench)
    assert tried >= 1 and failed == 0
