"""Reading a text file or buffer, as the TREC readers and the trec_eval command both do: a
path (plain or gzip-compressed) or an open text or bytes buffer, decoded as UTF-8, and the
name to give it in messages."""

from __future__ import annotations

import gzip
import os
from pathlib import Path
from typing import Any

__all__ = ["read_text", "source_name"]


def source_name(path_or_buffer: Any) -> str:
    if isinstance(path_or_buffer, str | os.PathLike):
        return str(path_or_buffer)
    return getattr(path_or_buffer, "name", None) or "<buffer>"


def read_text(path_or_buffer: Any) -> str:
    """The whole text of a file (plain or gzip) or of a text/bytes buffer."""
    if isinstance(path_or_buffer, str | os.PathLike):
        path = Path(path_or_buffer)
        if not path.is_file():
            raise FileNotFoundError(f"{path} does not exist")
        data: Any = path.read_bytes()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
    elif hasattr(path_or_buffer, "read"):
        data = path_or_buffer.read()
    else:
        raise TypeError(
            f"path_or_buffer must be a path or an open file; got {type(path_or_buffer).__name__}"
        )
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as error:
            name = source_name(path_or_buffer)
            raise ValueError(f"{name} is not UTF-8 text ({error})") from None
    return data
