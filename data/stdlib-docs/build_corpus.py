"""Build ``docs.jsonl``: the docstrings of the running Python's standard library.

Run ``.venv/bin/python data/stdlib-docs/build_corpus.py``. The script re-runs itself with
``python -I -S`` so that only the standard library is importable: without it, site-packages
could shadow a stdlib module (setuptools replaces ``distutils``) and the corpus would depend
on what happens to be installed. The output is sorted and contains no addresses or paths, so
two runs on the same Python give the same bytes.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import json
import os
import pkgutil
import shutil
import sys
import sysconfig
import warnings
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "docs.jsonl"
LICENSE_OUT = HERE / "PSF-LICENSE.txt"
# Shorter docstrings ("Return self==value.") say too little to be judged; 40 characters keeps
# one-sentence ones such as os.path.getsize's "Return the size of a file, reported by os.stat()."
MIN_CHARS = 40
MAX_CHARS = 4000  # a few module docstrings are whole manuals; keep the file small
TRUNCATION_MARK = " [...]"
# Packages that open windows, print, download or only exist for Python's own tooling, and
# the implementations behind os and os.path (this platform's, the other platform's, the shared
# helpers): people call those functions os.* and os.path.*, so only those names are kept.
SKIP_TOP = {"antigravity", "ensurepip", "idlelib", "lib2to3", "this", "tkinter", "turtledemo",
            "genericpath", "nt", "ntpath", "posix", "posixpath"}
TEST_PARTS = {"test", "tests", "idle_test"}
# os.path is a module alias, not a submodule, so walking os would never find it.
EXTRA_MODULES = ["os.path"]


def is_public_module(name: str) -> bool:
    """Public, non-test modules outside the skipped packages."""
    parts = name.split(".")
    return (
        parts[0] not in SKIP_TOP
        and not any(p.startswith("_") or p in TEST_PARTS or p.startswith("test_") for p in parts)
    )


def quiet_import(name: str):
    """Import a module, or return None if it fails or prints anything while importing.

    Deprecation warnings are silenced rather than counted as output: deprecated modules are
    still part of this Python's standard library.
    """
    captured = io.StringIO()
    with (
        warnings.catch_warnings(),
        contextlib.redirect_stdout(captured),
        contextlib.redirect_stderr(captured),
    ):
        warnings.simplefilter("ignore")
        try:
            module = importlib.import_module(name)
        except Exception:
            return None
    return None if captured.getvalue() else module


def stdlib_modules() -> dict[str, object]:
    """Every public stdlib module that imports cleanly, by dotted name."""
    found = {}
    pending = sorted(n for n in sys.stdlib_module_names if is_public_module(n))
    pending += EXTRA_MODULES
    while pending:
        name = pending.pop(0)
        module = quiet_import(name)
        if module is None:
            continue
        found[name] = module
        if hasattr(module, "__path__"):
            children = sorted(info.name for info in pkgutil.iter_modules(module.__path__))
            pending[:0] = [f"{name}.{c}" for c in children if is_public_module(f"{name}.{c}")]
    return found


def own_doc(obj) -> str | None:
    """The object's own docstring, cleaned like ``inspect.getdoc``.

    ``inspect.getdoc`` falls back to a parent class's docstring, which would copy e.g.
    ``IOBase.read`` onto every undocumented override; reading ``__doc__`` does not inherit.
    """
    doc = getattr(obj, "__doc__", None)
    return inspect.cleandoc(doc) if isinstance(doc, str) else None


def class_doc(cls) -> str | None:
    """The class docstring followed by its ``__init__``'s, like Sphinx's autoclass_content="both".

    Many classes document their constructor, or only document anything, in ``__init__``
    (``concurrent.futures.ProcessPoolExecutor``). A C type's ``__init__`` only says "Initialize
    self", so only a Python ``__init__`` written in the class body counts.
    """
    init = vars(cls).get("__init__")
    parts = [own_doc(cls), own_doc(init) if inspect.isfunction(init) else None]
    return "\n\n".join(p for p in parts if p) or None


def defined_in(obj, module_name: str) -> bool:
    """True if ``obj`` belongs to the module (or to its private C accelerator, ``_heapq``)."""
    owner = getattr(obj, "__module__", None)
    return isinstance(owner, str) and (owner == module_name or owner.startswith("_"))


def public_members(module) -> list[tuple[str, object]]:
    """Public classes and functions of a module, by name.

    ``__all__`` is the module's own statement of its API (it includes names it re-exports on
    purpose); without it, public names count only if the module defines them, so that
    ``from os import path`` in some module does not make a document.
    """
    explicit = getattr(module, "__all__", None)
    if isinstance(explicit, (list, tuple)):
        names = [n for n in explicit if isinstance(n, str)]
    else:
        names = [n for n in vars(module) if isinstance(n, str)]
    members = []
    for name in sorted(set(names)):
        if name.startswith("_"):
            continue
        obj = getattr(module, name, None)
        if not (inspect.isclass(obj) or inspect.isroutine(obj)):
            continue
        if explicit is None and not defined_in(obj, module.__name__):
            continue
        members.append((name, obj))
    return members


def own_methods(cls) -> list[tuple[str, object]]:
    """Public methods written in the class body itself (not inherited), by name."""
    methods = []
    for name, attr in sorted(vars(cls).items()):
        if name.startswith("_"):
            continue
        func = getattr(attr, "__func__", attr)  # staticmethod and classmethod wrap a function
        if inspect.isroutine(func):
            methods.append((name, func))
    return methods


def truncate(text: str) -> str:
    """Cut a long docstring at the last line break (or space) before ``MAX_CHARS``."""
    if len(text) <= MAX_CHARS:
        return text
    head = text[: MAX_CHARS - len(TRUNCATION_MARK)]
    cut = max(head.rfind("\n"), head.rfind(" "))
    return head[:cut].rstrip() + TRUNCATION_MARK


def candidates(modules: dict[str, object]):
    """Yield (record, home) for every documented module, class, function and method.

    ``home`` is the module that defines the object (for a method, its class), which
    ``deduplicate`` uses to tell a package's own re-export from an alias elsewhere.
    """

    def record(doc_id, module_name, name, kind, text, home):
        if text and len(text) >= MIN_CHARS:
            return {"doc_id": doc_id, "module": module_name, "name": name, "kind": kind,
                    "text": truncate(text)}, home
        return None

    for module_name, module in modules.items():
        yield record(module_name, module_name, module_name, "module", own_doc(module),
                     module_name)
        for name, obj in public_members(module):
            doc_id = f"{module_name}.{name}"
            home = getattr(obj, "__module__", None)
            if inspect.isclass(obj):
                yield record(doc_id, module_name, name, "class", class_doc(obj), home)
                for method_name, method in own_methods(obj):
                    yield record(f"{doc_id}.{method_name}", module_name,
                                 f"{name}.{method_name}", "method", own_doc(method), home)
            else:
                yield record(doc_id, module_name, name, "function", own_doc(obj), home)


def deduplicate(found, modules) -> list[dict]:
    """Keep one document per distinct text: the name people use for it.

    The same object is reachable under several names. A name in a module that merely aliases
    another corpus module's object loses (``typing.Text.count`` is ``builtins.str.count``,
    ``os.error`` is ``builtins.OSError``); among the rest the shortest wins, which is the
    package's public re-export (``json.JSONDecoder`` over ``json.decoder.JSONDecoder``,
    ``random.sample`` over ``random.Random.sample``).
    """

    def preference(rec, home):
        module = rec["module"]
        alias = home in modules and home != module and not home.startswith(module + ".")
        return alias, len(rec["doc_id"]), rec["doc_id"]

    best: dict[str, tuple] = {}
    for candidate in found:
        if candidate is None:
            continue
        key = preference(*candidate)
        text = candidate[0]["text"]
        if text not in best or key < best[text][0]:
            best[text] = key, candidate[0]
    docs = sorted((rec for _, rec in best.values()), key=lambda r: r["doc_id"])
    if len({r["doc_id"] for r in docs}) != len(docs):  # e.g. a module a.b and a class a.b
        raise RuntimeError("two documents share a doc_id")
    return docs


def copy_licence() -> None:
    """Put the licence of the Python the docstrings come from beside them.

    The PSF License lets us redistribute the docstrings provided its text and PSF's copyright
    notice go with them; the copyright years change with each release, so copy, don't type.
    """
    source = Path(sysconfig.get_path("stdlib")) / "LICENSE.txt"
    if source.is_file():
        shutil.copyfile(source, LICENSE_OUT)
    else:
        print(f"warning: no {source}; check that {LICENSE_OUT.name} is this Python's licence")


def main() -> None:
    modules = stdlib_modules()
    docs = deduplicate(candidates(modules), modules)
    with OUT.open("w", encoding="utf-8", newline="\n") as out:
        for rec in docs:
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    copy_licence()
    counts = Counter(rec["kind"] for rec in docs)
    print(f"Python {sys.version.split()[0]}: {len(docs)} documents {dict(counts)}, "
          f"{OUT.stat().st_size:,} bytes -> {OUT}")


if __name__ == "__main__":
    if not (sys.flags.isolated and sys.flags.no_site):
        os.execv(sys.executable, [sys.executable, "-I", "-S", __file__, *sys.argv[1:]])
    main()
