"""Test helpers: the one-line lint harness and the compile round trip."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from dtc.compiled.schema import validate
from dtc.compiler.api import compile_text
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.engine import lint_compilation

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"


def lint_text(src: str, path: str = "test.txt") -> list[Diagnostic]:
    return lint_compilation(compile_text(src, path))


def assert_diagnostics(src: str, *expected: str) -> list[Diagnostic]:
    """Lint ``src`` and assert exactly ``expected`` fire (rule names, or ``name@line:col``).

    Errors and warnings must match exactly; info findings are compared only for rules named in
    ``expected``, so a fixture need not avoid every informational note.
    """
    found = lint_text(src)
    names = {e.split("@")[0] for e in expected}
    considered = [d for d in found if d.severity > Severity.INFO or d.rule in names]
    want = Counter(expected)
    got = Counter(
        f"{d.rule}@{d.span.line}:{d.span.column}" if any(
            e.startswith(d.rule + "@") for e in expected) else d.rule
        for d in considered
    )
    assert got == want, "\n".join(
        [f"expected {sorted(want.elements())}", f"got      {sorted(got.elements())}"]
        + [f"  {d.span.line}:{d.span.column} {d.code} {d.rule}: {d.message}" for d in considered]
    )
    return found


def round_trip(src: str, path: str = "adventure.txt") -> dict[str, Any]:
    """compile -> JSON text -> schema -> reload: what every runtime test plays from."""
    graph = compile_text(src, path).graph()
    text = json.dumps(graph)
    reloaded = json.loads(text)
    validate(reloaded)
    assert reloaded == graph
    return reloaded  # type: ignore[no-any-return]


def sample_dungeon() -> str | None:
    """The seed's Sample Dungeon, from its "Sample Dungeon" line to the end (None if absent)."""
    seed = SEEDS / "death-and-treasure-v0.1.txt"
    if not seed.exists():
        return None
    text = seed.read_text(encoding="utf-8")
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip() == "Sample Dungeon")
    return "\n".join(lines[start:])
