"""The effects reader written plainly: the reference :mod:`dtc.compiler.read_effects` is held to.

Every sentence is read with every expression, in the order the module docstring of
:mod:`dtc.compiler.read_effects` describes; nothing is skipped because a cheaper test said it
could not match. The fast reader must give the same effects for every text (``tests/
test_effects_reference.py`` checks this on generated sentences and on every bundled book), and
falls back to this one for the rare texts whose letters its shortcuts do not cover.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from typing import Any

import dtc.compiler.read_effects as rx
from dtc import numbers


class Reader(rx._Found):
    def __init__(self, text: str, creatures: Iterable[str] | None) -> None:
        self.raw = text
        self.text = rx.NOTATION.sub(lambda m: " " * len(m.group()), text)
        self.effects: list[rx.Effect] = []
        self.open_fights: list[rx.Effect] = []
        self.any_fight = False
        self.sentence_first = 0
        self.stat_spans: list[tuple[int, int]] = []
        self.creatures = rx._normalized(creatures)
        self.abilities = rx._default_abilities()

    def read(self) -> list[rx.Effect]:
        self.stat_spans = [m.span(1) for m in rx.STAT_INLINE.finditer(self.raw)]
        for start, end in self.stat_spans:
            self.add("fight", start, end, None, target=None)
            self.text = self.text[:start] + " " * (end - start) + self.text[end:]
        last_check: int | None = None
        for s_start, s_end in rx._sentences(self.text):
            sentence = self.text[s_start:s_end]
            when: dict[str, Any] | None = None
            if last_check is not None and rx.ON_FAIL.match(sentence):
                when = {"check": last_check, "outcome": "failure"}
            elif last_check is not None and rx.ON_PASS.match(sentence) and not self.any_fight:
                when = {"check": last_check, "outcome": "success"}
            before = len(self.effects)
            found_check = self.sentence(s_start, s_end, when)
            if found_check is not None:
                last_check = found_check
            if len(self.effects) == before and rx.RULE_WORDS.search(sentence) and sentence.strip():
                self.add("manual", s_start, s_end, when)
        self.effects.sort(key=lambda e: (e["start"], e["end"]))
        order = {id(e): i for i, e in enumerate(self.effects)}
        for e in self.effects:
            when = e["when"]
            if when is not None and "_ref" in when:
                when["check"] = order[id(when.pop("_ref"))]
        return self.effects

    def sentence(self, start: int, end: int, when: dict[str, Any] | None) -> int | None:
        self.sentence_first = len(self.effects)
        text = self.text[start:end]
        last_check: int | None = None
        fight = rx.FIGHT.search(text)
        if fight:
            self.add("fight", start + fight.start(), start + fight.end(), when, target=None)
        exits = rx.prose_exits(text)
        if exits and rx.WIN.match(text) and self.any_fight:
            for e in self.open_fights:
                e["target"] = rx._target(exits[0].group(1))
            self.open_fights.clear()
        elif exits and rx.IF.match(text):
            for x in exits:
                self.add("condition", start, start + x.end(), when, target=rx._target(x.group(1)))
        clause_end = len(text)
        for m in rx.CHECK.finditer(text):
            difficulty = m.group("d1") or m.group("d2")
            idx = self.add("check", start + m.start(), start + m.end(), when, ability=self.ability(m.group("ability")),
                           difficulty=int(difficulty[1:]) if difficulty else None)
            last_check = idx
            alt = rx.OR.search(text, m.end())
            if alt:
                before = len(self.effects)
                sub_when = when if idx is None else {"check": idx, "outcome": "failure"}
                self.mechanics(text, start, alt.end(), clause_end, sub_when)
                added = self.effects[before:]
                if not added or any(e["kind"] == "manual" for e in added):
                    del self.effects[before:]
                    self.add("manual", start + alt.start(), start + len(text[:clause_end].rstrip(" .!?")), sub_when)
                clause_end = alt.start()
        self.mechanics(text, start, 0, clause_end, when)
        self.treasure(text, start, when)
        self.creatures_in(text, start, when)
        return last_check

    def mechanics(self, text: str, base: int, lo: int, hi: int, when: dict[str, Any] | None) -> None:
        for m in rx.DAMAGE.finditer(text, lo, hi):
            dice = (m.group("dice") or m.group("pdice")).replace(" ", "")
            if rx.PERIODIC.match(text, m.end()):
                self.add("manual", base + m.start(), base + len(text[:hi].rstrip(" .!?")), when)
                continue
            self.add("damage", base + m.start(), base + m.end(), when, dice=dice)
        for m in rx.HEAL.finditer(text, lo, hi):
            self.add("heal", base + m.start(), base + m.end(), when, dice=m.group("dice").replace(" ", ""))

    def treasure(self, text: str, base: int, when: dict[str, Any] | None) -> None:
        verb = rx.FIND.search(text)
        if verb is None:
            return
        before = len(self.effects)
        for piece, offset in rx._split_list(text[verb.end():], base + verb.end()):
            self.piece(piece, offset, when)
        if verb.group("strong") is None and not any(e["kind"] == "treasure" for e in self.effects[before:]):
            del self.effects[before:]  # a weak verb names items only beside treasure

    def piece(self, piece: str, offset: int, when: dict[str, Any] | None) -> None:
        end = offset + len(piece)
        weight_m = rx.WEIGHT.search(piece)
        weight = min(float(weight_m.group("w")), numbers.WEIGHT) if weight_m else None
        if m := rx.COINS.match(piece):
            self.add("treasure", offset, end, when, category="coins", name="coins", quantity=rx._number(m.group("n")),
                     value=1, weight=None)
        elif m := rx.JEWELRY.match(piece):
            self.add("treasure", offset, end, when, category="jewelry", name="jewelry",
                     quantity=rx._number(m.group("n")), value=None, weight=weight)
        elif m := rx.GEMS.match(piece):
            value = rx._number(m.group("v")) if m.group("v") else None
            self.add("treasure", offset, end, when, category="gems", name="gems", quantity=rx._number(m.group("n")),
                     value=value, weight=weight)
        elif m := rx.UNIQUE.match(piece):
            self.add("treasure", offset, end, when, category="unique", name=m.group("name").strip(), quantity=1,
                     value=rx._number(m.group("v")), weight=weight)
        elif m := rx.RATIONS.search(piece):
            self.add("item", offset + m.start(), offset + m.end(), when, name="Rations",
                     quantity=numbers.bounded(m.group("n") or m.group("m"), numbers.AMOUNT), weight=None)
        elif m := rx.OIL.search(piece):
            count = rx._number(m.group("n")) if m.group("n") else 1
            self.add("item", offset + m.start(), offset + m.end(), when, name="Lantern Oil", quantity=count,
                     weight=None)
        elif m := rx.ITEM.match(rx.WEIGHT.sub("", piece).strip()):
            name = m.group("name").strip()
            words = name.lower().split()
            if 0 < len(words) <= 5 and not rx.NOT_ITEM.intersection(words):
                self.add("item", offset, end, when, name=name, quantity=1, weight=weight)

    def creatures_in(self, text: str, base: int, when: dict[str, Any] | None) -> None:
        lo, hi = base, base + len(text)
        stat = self.stat_spans
        starts, ends = [a for a, _ in stat], [b for _, b in stat]
        taken = stat[bisect_right(ends, lo) : bisect_left(starts, hi)]
        taken += [(e["start"], e["end"]) for e in self.effects[self.sentence_first:]]
        for m in rx.MENTION.finditer(text):
            name = m.group(2)
            start, end = base + m.start(), base + m.end()
            if name.isupper() or any(a < end and start < b for a, b in taken):
                continue  # "3 HP", or the number of something already read
            if self.creatures is not None and not (rx._singulars(name) & self.creatures):
                continue
            if self.creatures is None and not name[:1].isupper():
                continue
            self.add("creatures", start, end, when, count=m.group(1), name=name)


def extract_effects(text: str, creatures: Iterable[str] | None = None) -> list[rx.Effect]:
    """:func:`dtc.compiler.read_effects.extract_effects`, read plainly."""
    return Reader(text, creatures).read()
