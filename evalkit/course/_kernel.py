"""Running a notebook in a fresh kernel (nbclient), cell by cell within time limits, and
reading values out of it: the kernel-side read-out (``_readout.py``) is installed with a silent
request, the answers come back through ``user_expressions`` as tagged plain data, and
:func:`decode` turns them into values on the grader's side.
"""

from __future__ import annotations

import ast
import base64
import contextlib
import json
import logging
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._sandbox import _kernel_env, _kernel_manager_class

__all__ = ["DEFAULT_CELL_TIMEOUT", "STARTUP_TIMEOUT", "RunResult", "decode", "run_notebook"]


DEFAULT_CELL_TIMEOUT = 120.0  # seconds per cell
STARTUP_TIMEOUT = 120  # a kernel can take a minute or two to start on a busy machine
_READ_TIMEOUT = 60  # seconds for the grader's own read-out of the answers


# evalkit/course/_readout.py, executed in the kernel as a module of its own,
# ``__evalkit_readout__``, without binding a name in the notebook's namespace.
_READOUT = (Path(__file__).with_name("_readout.py")).read_text(encoding="utf-8")
_INSTALL = ("(lambda m: (exec({source!r}, m.__dict__), "
            "__import__('sys').modules.__setitem__('__evalkit_readout__', m)))"
            "(__import__('types').ModuleType('__evalkit_readout__'))")
_MODULE = "__import__('sys').modules['__evalkit_readout__']"
_RECORD = ("(lambda ek, m: setattr(ek, 'check', m.record(ek.check)))"
           f"(__import__('evalkit'), {_MODULE})")


def decode(data: Any) -> Any:
    """A value from the tagged plain data the kernel printed (the grader's side)."""
    import numpy as np

    kind = data["t"]
    if kind == "ellipsis":
        return Ellipsis
    if kind == "notimplemented":
        return NotImplemented
    if kind == "plain":
        return data["v"]
    if kind == "int":
        return int(data["v"])
    if kind == "float":
        return float.fromhex(data["v"])
    if kind == "array":
        raw = base64.b64decode(data["v"])
        return np.frombuffer(raw, dtype=data["dtype"]).reshape(data["shape"]).copy()
    if kind == "tuple":
        return tuple(decode(part) for part in data["v"])
    if kind == "list":
        return [decode(part) for part in data["v"]]
    if kind == "set":
        return {decode(part) for part in data["v"]}
    if kind == "dict":
        return {decode(key): decode(value) for key, value in data["v"]}
    raise ValueError(f"unknown value tag {kind!r}")


@dataclass
class RunResult:
    status: str = "ok"  # ok / raised / timed out / kernel died / not a notebook / ...
    detail: str = ""
    answers: dict = field(default_factory=dict)  # name -> {"value": data} or {"error": text}
    records: list | None = None  # the teacher's run: what each check compared against
    stopped_at: int | None = None  # the cell the run stopped in (timed out, kernel died)


class _QuietAsyncio(logging.Filter):
    """nbclient leaves tasks whose exceptions nobody reads when a kernel dies; asyncio then
    logs "Task exception was never retrieved" with a traceback. The grader has reported the
    death already: keep those out of the progress output."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "exception was never retrieved" not in record.getMessage()


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    logger = logging.getLogger("asyncio")
    noise = _QuietAsyncio()
    logger.addFilter(noise)
    try:
        yield
    finally:
        logger.removeFilter(noise)


def _silent(client: Any, code: str, expressions: dict[str, str], timeout: float) -> dict:
    """Run ``code`` silently (no history, no output, no pre-run hooks) and evaluate
    ``expressions`` in the kernel; their values as the reply's ``user_expressions``."""
    from jupyter_core.utils import run_sync

    async def ask() -> dict:
        msg_id = client.kc.execute(code, silent=True, store_history=False,
                                   user_expressions=expressions, allow_stdin=False)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the kernel did not answer the read-out")
            reply = await client.kc.get_shell_msg(timeout=left)
            if reply.get("parent_header", {}).get("msg_id") == msg_id:
                return reply["content"]

    return run_sync(ask)()


def _expression_value(content: dict, key: str) -> Any:
    """The Python value of a str expression from a reply's ``user_expressions``."""
    result = content.get("user_expressions", {}).get(key, {})
    if result.get("status") != "ok":
        raise RuntimeError(f"{result.get('ename', 'error')}: {result.get('evalue', '')}"[:300])
    return json.loads(ast.literal_eval(result["data"]["text/plain"]))


def run_notebook(notebook: dict, workdir: Path, *, timeout: float,
                 cell_timeout: float = DEFAULT_CELL_TIMEOUT,
                 expressions: list[tuple[str, str]] | None = None, teacher: bool = False,
                 kernel_name: str | None = None, sandbox: list[str] | None = None) -> RunResult:
    """Run ``notebook`` in a fresh kernel in ``workdir``, cell by cell, each within
    ``cell_timeout`` seconds and all within ``timeout``, reading the answer ``expressions``
    (``[(name, expression)]``) after every code cell. ``teacher``: record every
    ``evalkit.check`` call instead (the reference values). ``sandbox``: a command prefix
    (:func:`_sandbox_prefix`) the kernel runs under."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    node = nbformat.reads(json.dumps(notebook), as_version=4)  # sources as strings
    name = kernel_name or node.metadata.get("kernelspec", {}).get("name", "python3")
    options: dict[str, Any] = {}
    if sandbox:
        options["kernel_manager_class"] = _kernel_manager_class(sandbox)
    client = NotebookClient(node, timeout=int(max(cell_timeout, 1)),
                            startup_timeout=STARTUP_TIMEOUT, kernel_name=name,
                            allow_errors=False, shutdown_kernel="immediate",
                            resources={"metadata": {"path": str(workdir)}}, **options)
    client.log = logging.getLogger("evalkit.course.grading.nbclient")
    client.log.setLevel(logging.CRITICAL)
    result = RunResult()
    wanted = {"answers": f"{_MODULE}.read({list(expressions or [])!r})"}
    index = -1

    def read_answers() -> None:
        try:
            content = _silent(client, "", wanted, _READ_TIMEOUT)
            answers = _expression_value(content, "answers")
        except (RuntimeError, TimeoutError, ValueError, SyntaxError) as error:
            # The notebook broke the read-out (or keeps the kernel busy): what was read
            # before stands, and the run goes on.
            if result.status == "ok":
                result.status = "unreadable"
                result.detail = f"after cell {index}: {error}"[:300]
            return
        for answer_name, answer in answers.items():
            # The last value read counts; an answer not (yet) defined keeps an earlier one.
            if "value" in answer or "value" not in result.answers.get(answer_name, {}):
                result.answers[answer_name] = answer

    # A submission's kernel gets a home of its own; the teacher's runs as the teacher's.
    launch: dict[str, Any] = {} if teacher else {"env": _kernel_env(workdir)}
    try:
        with _quiet(), client.setup_kernel(cwd=str(workdir), stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL,
                                           **launch):
            client.kc.allow_stdin = False
            setup = _INSTALL.format(source=_READOUT) + ("\n" + _RECORD if teacher else "")
            _silent(client, setup, {}, STARTUP_TIMEOUT)
            deadline = time.monotonic() + timeout  # the kernel's start does not count
            for index, cell in enumerate(node.cells):
                if cell.cell_type != "code":
                    continue
                left = deadline - time.monotonic()
                if left <= 0:
                    result.status, result.stopped_at = "timed out", index
                    result.detail = (f"over the notebook's limit of {timeout:g} s, before "
                                     f"cell {index}")
                    break
                client.timeout = max(int(min(left, cell_timeout)), 1)
                try:
                    client.execute_cell(cell, index)
                except CellExecutionError as error:
                    if result.status == "ok":
                        result.status = "raised"
                        result.detail = f"cell {index}: {error.ename}: {error.evalue}"[:300]
                except CellTimeoutError:
                    limit = (f"the per-cell limit of {cell_timeout:g} s"
                             if client.timeout >= int(cell_timeout)
                             else f"the notebook's limit of {timeout:g} s")
                    result.status, result.stopped_at = "timed out", index
                    result.detail = f"stopped in cell {index}, over {limit}"
                    break  # the kernel is still busy: it is shut down, not read again
                if expressions:
                    read_answers()
            else:
                if teacher:
                    content = _silent(client, "", {"records": f"{_MODULE}.read_records()"},
                                      _READ_TIMEOUT)
                    result.records = _expression_value(content, "records")
    except DeadKernelError:
        result.status, result.stopped_at = "kernel died", index
        result.detail = f"in cell {index}"
    except (RuntimeError, TimeoutError) as error:  # the kernel did not start or answer
        if result.status == "ok":
            result.status, result.stopped_at = "kernel died", index
            result.detail = str(error).splitlines()[0][:300] if str(error) else f"cell {index}"
    if result.stopped_at is not None and expressions:
        given = sum("value" in answer for answer in result.answers.values())
        result.detail += f"; {given} answer(s) read before it count"
    return result
