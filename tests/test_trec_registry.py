"""evalkit.trec._registry: every measure is described once, and every tool reads that record.

The names :func:`evalkit.evaluate` takes, the names ``evalkit trec_eval`` prints, its
``--help`` lines and the measure list of evaluate's docstring all come from the records; no
other module of the TREC engine holds a table of measure names of its own.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import evalkit as ek
from evalkit.cli import main
from evalkit.trec import _command_output, _command_plan, _evaluate, _registry
from evalkit.trec._registry import (
    MEASURES,
    RECORDS,
    TREC_EVAL,
    Measure,
    TrecEvalName,
    index_records,
)

TREC = Path(_registry.__file__).parent


def test_evaluate_s_tables_are_computed_from_the_records():
    assert ek.trec.METRICS == {m.name: m.cutoff for m in RECORDS}
    assert list(ek.trec.METRICS) == [m.name for m in RECORDS]
    assert ek.trec.TREC_EVAL_NAMES == {
        t.name: m.name for m in RECORDS for t in m.trec_eval if not t.family and not t.refused}
    assert ek.trec.TREC_EVAL_FAMILIES == {
        t.name: m.name for m in RECORDS for t in m.trec_eval if t.family}
    assert _evaluate.TREC_EVAL_PARAMETERS == {
        t.name: t.parameters for m in RECORDS for t in m.trec_eval if t.parameters}
    assert _evaluate._FLOAT_CUTOFFS == {m.name: m.real_cutoff for m in RECORDS if m.real_cutoff}


def test_every_name_evaluate_takes_is_a_record_s():
    # Each ir_measures name and each trec_eval name evaluate accepts leads to the record that
    # names it, and evaluate refuses every other trec_eval name with the record's reason.
    for measure in RECORDS:
        cut = "0.5" if measure.real_cutoff else "5"
        label = measure.name + (f"@{cut}" if measure.cutoff == "required" else "")
        [parsed] = _evaluate._parse_metrics([label])
        assert MEASURES[parsed.name] is measure
        for trec in measure.trec_eval:
            label = trec.name + (f"_{cut}" if trec.family else "")
            if trec.refused:
                with pytest.raises(ValueError, match=re.escape(trec.refused)):
                    _evaluate._parse_metrics([label])
                continue
            [parsed] = _evaluate._parse_metrics([label])
            assert parsed.name == measure.name == trec.evalkit


def test_the_command_s_measures_are_the_records_themselves():
    # Not copies: the very objects of the records, in trec_eval's printing order.
    by_record = {t.name: t for m in RECORDS for t in m.trec_eval}
    assert [t.name for t in _registry.ALL_MEASURES] == list(_registry.PRINTING_ORDER)
    for trec in _registry.ALL_MEASURES:
        assert trec is TREC_EVAL[trec.name]
        if trec.evalkit is not None:
            assert trec is by_record[trec.name]
            assert trec in MEASURES[trec.evalkit].trec_eval
    assert _command_plan.SUPPORTED is _registry.SUPPORTED
    for members in _registry.NICKNAMES_BY_VERSION.values():
        for names in members.values():
            assert set(names) <= set(TREC_EVAL)


def test_every_printed_name_and_help_line_comes_from_a_record(tmp_path, capsys):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("1 0 a 1\n1 0 b 0\n2 0 a 2\n")
    run.write_text("1 Q0 a 1 2.0 r\n1 Q0 c 2 1.0 r\n2 Q0 a 1 1.0 r\n")
    assert main(["trec_eval", "-q", "-m", "all_trec", str(qrels), str(run)]) == 0
    printed = {re.sub(r"_[0-9.]+$", "", line.split()[0])
               for line in capsys.readouterr().out.splitlines()}
    assert printed <= set(TREC_EVAL)
    help_text = _command_output.help_text()
    block = help_text.split("measures (", 1)[1].split("  official = ", 1)[0]
    lines = re.findall(r"^  (\S+) +(.+)$", block, re.M)
    assert [name for name, _ in lines] == [t.name for t in _registry.SUPPORTED]
    for name, text in lines:
        trec = TREC_EVAL[name]
        tag = "" if trec.versions == _registry.VERSIONS else f" [trec_eval {trec.versions[0]}]"
        assert text == trec.definition + tag


def test_evaluate_s_docstring_lists_the_records():
    doc = ek.evaluate.__doc__
    for line in _registry.measure_list().splitlines():
        assert line in doc
    for measure in RECORDS:
        assert f"- ``{measure.name}" in doc, measure.name


def test_a_measure_described_twice_is_refused():
    ap = MEASURES["AP"]
    with pytest.raises(ValueError, match="'AP' has two records"):
        index_records([ap, ap])
    copy = Measure("AP2", ap.function, "none", "a copy", (TrecEvalName("map", "float", "x"),))
    with pytest.raises(ValueError, match="'map' is in two records"):
        index_records([ap, copy])
    with pytest.raises(ValueError, match="'runid' is in two records"):
        index_records([], [TREC_EVAL["runid"], TREC_EVAL["runid"]])
    with pytest.raises(ValueError, match="evaluate_only"):
        Measure("Bare", ap.function, "none", "no trec_eval name and no reason")


def _measure_names() -> set[str]:
    names = set(MEASURES) | set(TREC_EVAL) | set(_registry.OTHER_TREC_EVAL)
    return names | {nick for v in _registry.NICKNAMES_BY_VERSION.values() for nick in v}


def literal_tables(source: str, names: set[str]) -> list[tuple[int, list[str]]]:
    """The literal tuples, lists, sets and dicts (keys and values) of ``source`` that hold
    two or more strings from ``names``: a table of measures written by hand. ``__all__``
    lists functions (``recall``, ``ndcg``), not measures: it is left out."""
    found = []
    tree = ast.parse(source)
    exports = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Assign)
               and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)}
    for node in ast.walk(tree):
        if id(node) in exports:
            continue
        if isinstance(node, ast.Dict):
            items = [*node.keys, *node.values]
        elif isinstance(node, ast.Tuple | ast.List | ast.Set):
            items = node.elts
        else:
            continue
        hits = [item.value for item in items if isinstance(item, ast.Constant)
                and isinstance(item.value, str) and item.value in names]
        if len(hits) >= 2:
            found.append((node.lineno, hits))
    return found


def test_the_table_check_finds_a_table_written_by_hand():
    names = _measure_names()
    assert literal_tables('TABLE = {"map": "AP", "ndcg": "nDCG"}\n', names) == [
        (1, ["map", "ndcg", "AP", "nDCG"])]
    assert literal_tables('SHARED = ("dcg", "ideal_dcg")\nx = name == "dcg"\n', names)
    assert not literal_tables('one = name == "ideal_dcg"\nkeys = ("query_id", "doc_id")\n',
                              names)


@pytest.mark.parametrize("path", sorted(p.name for p in TREC.glob("*.py")
                                        if p.name != "_registry.py"))
def test_no_other_module_holds_a_table_of_measure_names(path):
    source = (TREC / path).read_text(encoding="utf-8")
    assert literal_tables(source, _measure_names()) == [], path
