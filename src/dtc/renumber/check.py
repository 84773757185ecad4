"""Is a renumbered adventure the same adventure? Compare two compiled graphs up to renaming.

:func:`dtc.renumber.rewrite.renumber` calls :func:`difference` on the graph before and after it
rewrites a source and refuses to write when they differ; the tests use it as the property
"renumbering changes numbers and nothing else".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from dtc.compiled.graphjson import Choice, CompiledGraph, Entry

_NUMBERISH = re.compile(r"@[A-Za-z][A-Za-z0-9_-]*|[0-9]+")


def modulo_numbers(text: str | None) -> str | None:
    """``text`` with every number and ``@label`` replaced by ``#``."""
    return None if text is None else _NUMBERISH.sub("#", text)


def _target(value: Any, renamed: Mapping[Any, int] | None) -> Any:
    if value is None or renamed is None:
        return value
    return renamed.get(value, ("unmapped", value))


def _choice(c: Choice, renamed: Mapping[Any, int] | None) -> tuple[Any, ...]:
    return (
        modulo_numbers(c["label"]),
        modulo_numbers(c["text"]),
        c["ability"],
        c["difficulty"],
        c["error"],
        _target(c["success"], renamed),
        _target(c["failure"], renamed),
        c["span"]["line"],
        c["span"]["end_line"],
    )


def _entry(e: Entry, renamed: Mapping[Any, int] | None) -> dict[str, Any]:
    return {
        "number": _target(e["number"], renamed),
        "line": (e["line"], e["end_line"]),
        "text": modulo_numbers(e["text"]),
        "ending": e["ending"],
        "choices": [_choice(c, renamed) for c in e["choices"]],
        "exits": [
            (_target(x["target"], renamed), x["kind"], x["choice"])
            for x in e["exits"]
            if x["kind"] != "return"
        ],
        # "Return to your most recent entry" lists the entries that lead in, by number.
        "returns": sorted(repr(_target(x["target"], renamed)) for x in e["exits"] if x["kind"] == "return"),
        "creatures": e["creatures"],
    }


def signature(graph: CompiledGraph, renamed: Mapping[Any, int] | None = None) -> dict[str, Any]:
    """What must survive renumbering, with old numbers translated through ``renamed``.

    Without ``renamed`` numbers are taken as they are (the graph after renumbering).
    """
    return {
        "title": graph["title"],
        "author": graph["author"],
        "rules": graph["rules"],
        "start": _target(graph["start"], renamed),
        "encounters": graph["encounters"],
        "entries": [_entry(e, renamed) for e in graph["entries"]],
    }


def difference(before: CompiledGraph, after: CompiledGraph, renamed: Mapping[Any, int]) -> str | None:
    """None when ``after`` is ``before`` with numbers renamed; else the first difference found."""
    old, new = signature(before, renamed), signature(after)
    for key in ("title", "author", "rules", "start", "encounters"):
        if old[key] != new[key]:
            return f"{key} differs"
    if len(old["entries"]) != len(new["entries"]):
        return f"{len(old['entries'])} entries became {len(new['entries'])}"
    for a, b in zip(old["entries"], new["entries"], strict=True):
        for key in a:
            if a[key] != b[key]:
                return f"entry {b['number']} (line {b['line'][0]}): its {key} differ"
    if len(before["creatures"]) != len(after["creatures"]):
        return "the number of stat blocks differs"
    for a, b in zip(before["creatures"], after["creatures"], strict=True):
        same = ({k: v for k, v in a.items() if k not in ("entry", "exits")}
                == {k: v for k, v in b.items() if k not in ("entry", "exits")})
        # A fight's exits (``win S13``) follow the new numbers.
        same = same and {k: _target(t, renamed) for k, t in a.get("exits", {}).items()} == b.get("exits", {})
        # A block inside an entry headed by a label has no entry number until it is renumbered.
        if not same or (a["entry"] is not None and _target(a["entry"], renamed) != b["entry"]):
            return f"the stat block of {b['name']} (line {b['line']}) differs"
    return None
