r"""The TREC engine: TREC files, trec_eval's measures over whole runs, and the trec_eval command.

A *qrels* table holds the relevance judgements (``query_id``, ``doc_id``, ``relevance``), a
*run* one system's ranked results (``query_id``, ``doc_id``, ``score``, ``run_id``). This
subpackage reads and writes them (:func:`read_qrels`, :func:`read_run`, :func:`write_qrels`,
:func:`write_run`) and scores a run against the qrels with exactly trec_eval's semantics, for
all queries at once (:func:`evaluate`); :func:`trec_ranking` lists each query's documents in
the order those measures see them, with their grades. The console command
``evalkit trec_eval`` is built on the same parts.

Its private modules, one idea each, from the files up:

- ``_text_files``: opening a path or buffer, plain or gzip-compressed;
- ``_streaming``: a run file read query block by query block (:func:`evaluate` on a path,
  and ``evalkit trec_eval``);
- ``_pairs``: (query, document) pairs hashed to 64-bit keys, and the check for a pair listed twice;
- ``_parsing``: qrels and run files parsed into tables, errors naming the file and line;
- ``_tables``: a qrels or run table's columns checked and turned into arrays;
- ``_ordering``: trec_eval's order of a run's rows (score descending, ties by doc_id);
- ``_ranking``: :func:`trec_ranking`, that order as a table with the qrels' grades;
- ``_pooling``: incomplete judgements: :func:`pool` (the pool of runs to a depth) and
  :func:`sample_qrels` (a random share of the judgements kept);
- ``_measures``: the measures, one vectorised kernel each over a :class:`JudgedRun`;
- ``_measures_extra``: trec_eval's further measures (and ir_measures' Judged), kernels alike;
- ``_registry``: the one record of each measure (its names, parameters, help line), which
  :func:`evaluate`, the command and the docs read;
- ``_files``: the public readers and writers;
- ``_metric_names``: the metric names :func:`evaluate` takes, read (no pandas);
- ``_evaluate``: :func:`evaluate`;
- ``_command_files``, ``_command_qrels``, ``_command_fast``, ``_command_plan``,
  ``_command_loop``, ``_command_output`` and ``_command``: ``evalkit trec_eval``: how
  trec_eval reads its files (the qrels as arrays; a plain run scored from its bytes, without
  pandas), its ``-m``, its loop over queries, its output and ``--help``, and the command's
  options, byte for byte.

The public names are the ones below; everything else here is private. They are loaded on
first use (PEP 562), so that ``evalkit trec_eval`` on a plain file never imports pandas.
"""

# Nothing below is imported by `import evalkit.trec`: each public name is loaded from its module
# on first use (PEP 562), as in evalkit/__init__.py, so that the command (`evalkit trec_eval`,
# which imports evalkit.trec._command and thus this package) loads pandas only when it reads a
# file the general way. The block below is what a type checker, an IDE and Sphinx read; the
# table after it is what runs (tests/test_lazy_import.py checks that the two agree).
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ._evaluate import MISSING_QUERIES, evaluate
    from ._files import read_qrels, read_run, write_qrels, write_run
    from ._metric_names import METRICS, TREC_EVAL_FAMILIES, TREC_EVAL_NAMES
    from ._pooling import UNJUDGED, pool, sample_qrels
    from ._ranking import RANKING_COLUMNS, trec_ranking
    from ._tables import QRELS_COLUMNS, RUN_COLUMNS

__all__ = ["read_qrels", "read_run", "write_qrels", "write_run", "evaluate", "trec_ranking",
           "pool", "sample_qrels", "UNJUDGED",
           "METRICS", "TREC_EVAL_NAMES", "TREC_EVAL_FAMILIES", "MISSING_QUERIES",
           "QRELS_COLUMNS", "RUN_COLUMNS", "RANKING_COLUMNS"]

#: Each public name -> the private module that defines it.
_LAZY_ATTRIBUTES = {
    name: module
    for module, names in {
        "_evaluate": ("MISSING_QUERIES", "evaluate"),
        "_files": ("read_qrels", "read_run", "write_qrels", "write_run"),
        "_metric_names": ("METRICS", "TREC_EVAL_FAMILIES", "TREC_EVAL_NAMES"),
        "_pooling": ("UNJUDGED", "pool", "sample_qrels"),
        "_ranking": ("RANKING_COLUMNS", "trec_ranking"),
        "_tables": ("QRELS_COLUMNS", "RUN_COLUMNS"),
    }.items()
    for name in names
}


def __getattr__(name: str):
    if name in _LAZY_ATTRIBUTES:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_LAZY_ATTRIBUTES[name]}"), name)
        globals()[name] = value  # once: the next access is a plain attribute
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY_ATTRIBUTES))
