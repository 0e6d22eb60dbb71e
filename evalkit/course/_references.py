"""The teacher's reference values: each teacher's notebook run once with ``ek.check``
recording what it compares against, kept between batches in a cache whose entries are keyed by
the notebook's SHA-256 and sealed with an HMAC (an entry that does not verify is computed
again).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path
from typing import Any

from ._assignments import parse_assignments
from ._check_cells import CourseNotebook, parse_checks
from ._kernel import decode, run_notebook

__all__ = ["default_cache", "reference"]


_CACHE_VERSION = 2


def default_cache() -> Path:
    """Where the grader keeps its reference values: ``$XDG_CACHE_HOME/evalkit/grader``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "evalkit" / "grader"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _cache_key(cache: Path) -> bytes:
    """The HMAC key of the cache (made on first use, readable by its owner only)."""
    cache.mkdir(parents=True, exist_ok=True)
    os.chmod(cache, 0o700)
    path = cache / "key"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32))
    return path.read_text().strip().encode()


def _seal(key: bytes, notebook_sha: str, records: list) -> str:
    body = json.dumps({"notebook": notebook_sha, "records": records}, sort_keys=True)
    return hmac.new(key, body.encode(), hashlib.sha256).hexdigest()


def _cached_records(cache: Path, notebook_sha: str) -> tuple[list | None, str]:
    """The cached records of a notebook with this hash, if the entry verifies."""
    path = cache / f"{notebook_sha}-v{_CACHE_VERSION}.json"
    if not path.exists():
        return None, ""
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
        records = entry["records"]
        good = (entry.get("notebook") == notebook_sha
                and hmac.compare_digest(str(entry.get("seal")),
                                        _seal(_cache_key(cache), notebook_sha, records)))
    except (ValueError, KeyError, TypeError, OSError):
        good = False
    if not good:
        return None, f"the cached reference values ({path}) did not verify; computed again"
    return records, ""


def _store_records(cache: Path, notebook_sha: str, records: list) -> None:
    path = cache / f"{notebook_sha}-v{_CACHE_VERSION}.json"
    entry = {"notebook": notebook_sha, "records": records,
             "seal": _seal(_cache_key(cache), notebook_sha, records)}
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(entry), encoding="utf-8")
    temporary.replace(path)


def reference(path: Path, *, timeout: float, cache: Path | None = None,
              kernel_name: str | None = None, say: Any = None) -> CourseNotebook:
    """The teacher's notebook's checks with their expected values, tolerances and hints.

    The notebook runs once in a kernel of its own (trusted: where it lives, no sandbox), with
    ``evalkit.check`` recording each call. With ``cache`` the values are reused while the
    notebook's SHA-256 is the same and the entry's HMAC seal verifies."""
    raw = path.read_bytes()
    notebook = json.loads(raw)
    course_notebook = CourseNotebook(
        path=path, checks=parse_checks(notebook), assignments=parse_assignments(notebook),
        cell_ids={c.get("id") for c in notebook.get("cells", []) if c.get("id")},
        kernel_name=notebook.get("metadata", {}).get("kernelspec", {}).get("name", "python3"))
    notebook_sha = _sha256(raw)
    records = None
    if cache is not None:
        records, problem = _cached_records(cache, notebook_sha)
        if problem and say is not None:
            say(problem)
    if records is None:
        result = run_notebook(notebook, path.parent, timeout=timeout, cell_timeout=timeout,
                              teacher=True, kernel_name=kernel_name)
        if result.status != "ok" or not isinstance(result.records, list):
            raise RuntimeError(f"the teacher's notebook {path} did not run cleanly: "
                               f"{result.status} {result.detail}")
        records = result.records
        if cache is not None:
            _store_records(cache, notebook_sha, records)
    by_name = {record["name"]: record for record in records}
    for check in course_notebook.checks:
        record = by_name.get(check.name)
        if record is None or "error" in record:
            raise RuntimeError(f"the teacher's notebook {path} never ran the check "
                               f"{check.name!r} ({(record or {}).get('error', 'not called')})")
        check.expected = decode(record["expected"])
        check.tol, check.hint = record["tol"], record["hint"]
    return course_notebook
