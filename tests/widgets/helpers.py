"""What the explorers display, read back from their HTML."""

from __future__ import annotations

import re


def cells(html: str) -> dict[str, str]:
    """The summary table as {row name: value}."""
    rows = re.findall(r"<td[^>]*>(.*?)</td><td[^>]*>(.*?)</td>", html)
    return {name.replace("&amp;", "&"): value for name, value in rows}


def grid_rows(html: str) -> dict[str, list[str]]:
    """Rows of the summary's tables as {first cell: the other cells} (header rows skipped)."""
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", html):
        values = re.findall(r"<td[^>]*>(.*?)</td>", row)
        if values:
            rows[values[0]] = values[1:]
    return rows
