"""Helpers every runtime test plays through (their own tests are in ``tests/test_runtime_support.py``).

``compiled(src)`` is the round trip the runtime's contract demands: compile -> JSON text ->
schema check -> ``json.loads``. The runtime only ever sees the reloaded dict.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

from dtc.compiled.schema import validate
from dtc.compiler.api import compile_text
from dtc.runtime.character import Character
from dtc.runtime.core import MENU, Question
from dtc.runtime.dice import Dice
from dtc.runtime.engine import Engine
from dtc.runtime.equipment import Item, standard_gear
from dtc.runtime.policies import CautiousPolicy, Policy
from dtc.systems import play_rules
from helpers import require_sample_dungeon

ROOT = Path(__file__).resolve().parent.parent.parent
HEAD = "Test Book\n\nAdventure Entries\n\n"


def compiled(src: str, path: str = "adventure.txt") -> dict[str, Any]:
    """compile -> JSON text -> schema -> reload (what every runtime test plays from)."""
    text = json.dumps(compile_text(src, path).graph(), ensure_ascii=False)
    graph = json.loads(text)
    validate(graph, "adventure")
    return graph  # type: ignore[no-any-return]


def book(*entries: str, head: str = HEAD) -> str:
    return head + "\n\n".join(entries) + "\n"


def sample_source() -> str:
    """The seed's Sample Dungeon, or skip the calling test (the seed documents are not in a clone)."""
    return require_sample_dungeon()


def hero(**scores: int) -> Character:
    """A plain adventurer: every ability 10 unless given, 8 HP, standard kit, a sword and a large sack."""
    abilities = {a: 10 for a in ("STR", "DEX", "CON", "WIS", "INT", "CHA")}
    abilities.update(scores)
    items = [*standard_gear(), Item("Sword", "weapon", weight=Fraction(2), damage="d8", ranges=("hand-to-hand",)),
             Item("Sack (large)", "gear")]
    return Character("Tester", abilities, 8, 8, items)


class KeyPlayer:
    """Answers questions by option key, in order; questions of other kinds (or when out of keys)
    go to a policy. ``asked`` records every question."""

    def __init__(self, keys: Iterable[str] = (), fallback: Policy | None = None, kinds: set[str] | None = None):
        self.keys = list(keys)
        self.fallback = fallback or CautiousPolicy()
        self.kinds = kinds
        self.asked: list[Question] = []
        self.texts: list[str] = []

    def decide(self, question: Question, game: Engine) -> int:
        self.asked.append(question)
        if self.keys and (self.kinds is None or question.kind in self.kinds):
            key = self.keys.pop(0)
            found = question.index(key)
            assert found is not None, f"no option {key!r} in {[o.key for o in question.options]}"
            return found
        if question.kind == MENU and self.kinds is not None and MENU in self.kinds:
            return question.index("quit") or 0
        return self.fallback.decide(question, game)

    def text(self, prompt: str, game: Engine) -> str:
        return self.texts.pop(0) if self.texts else ""


def engine(graph: dict[str, Any], player: Any, *, pc: Character | None = None, seed: int = 1,
           **kw: Any) -> tuple[Engine, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    kw.setdefault("rules", play_rules(graph.get("rules")))
    game = Engine(graph, pc or hero(), player, dice=Dice(seed), sinks=[events.append], **kw)
    return game, events


def kinds(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["event"] == kind]
