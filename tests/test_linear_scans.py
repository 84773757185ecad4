"""The entry scans that once cost time quadratic in the number of counted creatures give the
same results as the plain definitions they replace (their speed is measured in
``benchmarks/mentions_bench.py``, not here)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from dtc.compiler.api import compile_text
from dtc.compiler.entries import FIGHT, _Sentences
from dtc.compiler.read_effects import extract_effects

WORDS = ["3", "12", "d6", "Goblins", "Rats", "attack", "fights", "charges", "the", "rat", ".", "!", "?", ",",
         "If you win, go to 2.", "Goblin HP 3 | Bite d4.", "\n", "and", "(D0, S2)"]


def _plain_fight_around(body: str, s: int, e: int) -> bool:
    """The definition: a fight word between the sentence stops around ``body[s:e]``."""
    left = max(body.rfind(".", 0, s), body.rfind("!", 0, s), body.rfind("?", 0, s))
    ends = [p for p in (body.find(".", e), body.find("!", e), body.find("?", e)) if p != -1]
    return FIGHT.search(body, left + 1, min(ends) if ends else len(body)) is not None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=40))
def test_fight_around_is_the_plain_definition(words: list[str]) -> None:
    body = " ".join(words)
    sentences = _Sentences(body)
    for m in re.finditer(r"[0-9]+", body):
        assert sentences.fight_around(m.start(), m.end()) == _plain_fight_around(body, m.start(), m.end())


def _plain_fight_mentions(body: str, counts: list[tuple[int, int]]) -> list[bool]:
    return [_plain_fight_around(body, s, e) for s, e in counts]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=40))
def test_an_entry_reads_its_counts_as_before(words: list[str]) -> None:
    body = " ".join(words)
    doc = compile_text("Goblin HP 3 | Bite d4\n\nAdventure Entries\n\n1 " + body + "\n\n2 THE END\n").doc
    entry = doc.entries[0]
    fights = {id(g) for g in entry.fight_mentions}
    offset = len("1 ")  # the entry's text begins after its head, on its first line
    lines = entry.text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    for group in entry.mentions:
        line = group.span.line - entry.span.line
        at = starts[line] + group.span.column - 1 - (offset if line == 0 else 0)
        number = re.compile(r"[0-9]+").search(entry.text, at)
        assert number is not None
        assert (id(group) in fights) == _plain_fight_around(entry.text, number.start(), number.end())


UNIT = "Goblin HP 3 | Bite d4. Follow the combat procedures. 3 Goblins come. If you win, go to 2. Take d4 damage. "


def test_effects_of_a_repeated_passage_are_the_passage_repeated() -> None:
    """The effects of a passage written n times are its effects n times over, each in its place
    (the reader looks back only within a sentence, and at the fights still without an exit)."""
    once = extract_effects(UNIT, ["Goblin"])
    many = extract_effects(UNIT * 200, ["Goblin"])
    assert len(many) == 200 * len(once)
    for k, effect in enumerate(many):
        model = dict(once[k % len(once)])
        shift = len(UNIT) * (k // len(once))
        model["start"] += shift
        model["end"] += shift
        assert effect == model
