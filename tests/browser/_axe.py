"""axe-core in the browser tests: inject the vendored engine into a page, run the WCAG 2.1
A and AA rules, and report what is serious or critical, readably."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

AXE_JS = Path(__file__).parent / "vendor" / "axe.min.js"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"
#: The rule sets of WCAG 2.1 level A and AA (axe's tags), as the issue asks.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = ("serious", "critical")

_RUN_JS = """
async (tags) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags},
                                          resultTypes: ['violations']});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({target: n.target.join(' '), html: n.html.slice(0, 200),
                                summary: (n.failureSummary || '').slice(0, 300)}))}));
}
"""


def axe_source() -> str:
    source = AXE_JS.read_bytes()
    digest = hashlib.sha256(source).hexdigest()
    assert digest == AXE_SHA256, f"{AXE_JS} is not the vendored axe-core ({digest})"
    return source.decode("utf-8")


def run_axe(page: Any) -> list[dict[str, Any]]:
    """The serious and critical WCAG 2.1 AA violations on the page as it is now."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_source())
    violations = page.evaluate(_RUN_JS, WCAG_TAGS)
    return [v for v in violations if v["impact"] in BLOCKING]


def describe(violations_by_page: dict[str, list[dict[str, Any]]]) -> str:
    """One paragraph per page and rule: the rule, its impact, how many elements, the first
    three of them with axe's summary of what to fix."""
    lines = []
    for page, violations in violations_by_page.items():
        for v in violations:
            lines.append(f"{page}: {v['id']} ({v['impact']}, {len(v['nodes'])} elements): "
                         f"{v['help']} <{v['helpUrl']}>")
            for node in v["nodes"][:3]:
                lines.append(f"    {node['target']}: {node['html']}")
                lines.append("      " + node["summary"].replace("\n", "\n      "))
    return "\n".join(lines)


def by_rule(violations_by_page: dict[str, list[dict[str, Any]]]) -> dict[str, tuple[int, int]]:
    """{rule: (pages, elements)}: the short summary printed above the details."""
    counts: dict[str, list[int]] = {}
    for violations in violations_by_page.values():
        for v in violations:
            pages_elements = counts.setdefault(f"{v['id']} ({v['impact']})", [0, 0])
            pages_elements[0] += 1
            pages_elements[1] += len(v["nodes"])
    return {rule: (p, e) for rule, (p, e) in sorted(counts.items())}
