"""Lint findings placed on the flowchart: on the exits they are about, else on their entry.

The renderers take findings as plain dicts (``Diagnostic.to_dict()``: ``code``, ``rule``,
``severity``, ``message``, ``line``, ``column``, ``entry``), so nothing here imports the linter.
A finding goes to every exit of the choice whose parenthetical holds its position (a D4, an
unknown ability, a check with no F), else to the exit written at its position, else to its
entry (given, or the entry whose lines hold it); a finding outside every entry is kept apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dtc.compiled.graphjson import CompiledGraph, Entry

SEVERITY_ORDER = {"error": 3, "warning": 2, "info": 1}


@dataclass(slots=True)
class Marks:
    """Findings by entry number, by exit ``(entry, index in its exits)``, and the rest."""

    entries: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    exits: dict[tuple[int, int], list[dict[str, Any]]] = field(default_factory=dict)
    elsewhere: list[dict[str, Any]] = field(default_factory=list)

    def worst_entry(self, number: int) -> str | None:
        return worst(self.entries.get(number, []))

    def worst_exit(self, number: int, index: int) -> str | None:
        return worst(self.exits.get((number, index), []))


def worst(found: list[dict[str, Any]]) -> str | None:
    """The most serious severity among ``found`` (``error``, ``warning``, ``info``), or None."""
    if not found:
        return None
    return max((str(f.get("severity", "info")) for f in found), key=lambda s: SEVERITY_ORDER.get(s, 0))


def _inside(line: int, column: int, span: Any) -> bool:
    if not isinstance(span, dict):
        return False
    start = (span["line"], span["column"])
    end = (span["end_line"], span["end_column"])
    return start <= (line, column) < end


def place(graph: CompiledGraph, findings: list[dict[str, Any]]) -> Marks:
    """Where each finding belongs on the chart of ``graph`` (a compiled graph dict)."""
    marks = Marks()
    entries: dict[int, Entry] = {}
    for e in graph["entries"]:
        entries.setdefault(e["number"], e)
    for f in findings:
        line, column = int(f.get("line") or 0), int(f.get("column") or 0)
        number = f.get("entry")
        entry: Entry | None = entries.get(number) if isinstance(number, int) else None
        if entry is None:
            entry = next((e for e in entries.values() if e["line"] <= line <= e["end_line"]), None)
        if entry is None:
            marks.elsewhere.append(f)
            continue
        number = entry["number"]
        exits = entry["exits"]
        choice = next((i for i, c in enumerate(entry["choices"]) if _inside(line, column, c.get("span"))), None)
        hit = [i for i, x in enumerate(exits) if choice is not None and x.get("choice") == choice]
        if not hit:
            hit = [i for i, x in enumerate(exits) if _inside(line, column, x.get("span"))]
        if hit:
            for i in hit:
                marks.exits.setdefault((number, i), []).append(f)
        else:
            marks.entries.setdefault(number, []).append(f)
    return marks
