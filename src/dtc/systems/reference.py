"""What a game system tells a reader who plays with dice and a pencil: how each kind of roll is
made, and what the adventure sheet holds.

Each system describes itself once, in its package's ``reference.py`` (a :class:`Reference`
registered as ``System.reference``). The print edition and the ebook read it through
:func:`describe`, which joins a base system with its overlays (Dungeon Rules adds its d20 scores,
its hazards, zones and minutes) and returns plain data (:class:`BookRules`, a JSON-able
``TypedDict``), so any other edition, the web page's script included, can read the same words.

A roll's words (``rolls``) are templates: ``{ability}`` is replaced by the ability a choice
checks ("your STR"), or by "your best ability" where the choice names none. Nothing here imports
the runtime or the compiler.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypedDict

#: The kinds of roll a book may use; a section of "How to play" each. ``encounters`` (wandering
#: creatures: how they come and how they are met) is for a book with an encounter table only.
KINDS = ("checks", "creation", "fights", "hazards", "time", "encounters")


@dataclass(frozen=True)
class SheetField:
    """A line of the adventure sheet: its ``label``, what a new adventurer writes there
    (``start``, in words) and its ``size`` (``short`` for a number, ``long`` for a list)."""

    label: str
    start: str = ""
    size: str = "short"


@dataclass(frozen=True)
class Reference:
    """One system's rules for a reader, in its own words and dice.

    ``rolls[d]`` says how a check of difficulty ``d`` is rolled (a template on ``{ability}``);
    ``abilities`` are the scores the part checks (an overlay: its own). Each tuple of sentences is
    a section of "How to play": ``checks`` (what a difficulty asks and how the dice are read),
    ``creation`` (making an adventurer), ``fights``, ``hazards`` (an overlay's), ``time``
    (turns, light, rest) and ``encounters`` (when a wandering creature comes and how it is met:
    left out of a book without an encounter table). ``sheet`` lists the sheet's lines after the
    abilities; ``hp`` names the hit points' line. ``prose`` is how a check is rolled where the text
    gives no difficulty ("make a CON check"), as play rolls it.
    """

    title: str
    abilities: tuple[str, ...]
    rolls: Mapping[int, str]
    checks: tuple[str, ...]
    creation: tuple[str, ...] = ()
    fights: tuple[str, ...] = ()
    hazards: tuple[str, ...] = ()
    time: tuple[str, ...] = ()
    encounters: tuple[str, ...] = ()
    sheet: tuple[SheetField, ...] = ()
    hp: str = "HP"
    #: Written after a part's abilities on the sheet (Dungeon Rules on Death & Treasure: AGI is DEX).
    same: Mapping[str, str] = field(default_factory=dict)
    #: The zones a book may place its sections in (Dungeon Rules): key -> its encounter check in words.
    zones: Mapping[str, str] = field(default_factory=dict)
    prose: str | None = None


class SheetLine(TypedDict):
    label: str
    start: str
    size: str


class RollWords(TypedDict):
    """How one part of the rules rolls the checks of ``abilities``: ``rolls[str(d)]``, and
    ``rolls["prose"]`` a check the text asks for without a difficulty ("make a CON check")."""

    system: str
    abilities: list[str]
    rolls: dict[str, str]


class Section(TypedDict):
    kind: str
    heading: str
    lines: list[str]


class BookRules(TypedDict):
    """A book's rules as plain data: its title, how its checks are rolled (one entry per part,
    the base first), the sections of "How to play" and the sheet's lines, abilities first."""

    title: str
    parts: list[RollWords]
    sections: list[Section]
    hp: str
    abilities: list[str]
    sheet: list[SheetLine]
    zones: dict[str, str]


_HEADINGS = {"checks": "Checks", "creation": "Making an adventurer", "fights": "Fights",
             "hazards": "Hazards", "time": "Time, light and rest", "encounters": "Wandering creatures"}


def join(references: list[tuple[str, Reference]]) -> BookRules:
    """The rules of a base (first) and its overlays, each kind of section the parts' sentences in order."""
    sections: list[Section] = []
    for kind in KINDS:
        lines = [line for _, ref in references for line in getattr(ref, kind)]
        if lines:
            sections.append({"kind": kind, "heading": _HEADINGS[kind], "lines": lines})
    abilities: list[str] = []
    for _, ref in references:
        for a in ref.abilities:
            if all(b.split(" ")[0] != a for b in abilities):
                copy = ref.same.get(a)
                abilities.append(f"{a} (= {copy})" if copy in abilities else a)
    sheet: list[SheetLine] = []
    for _, ref in references:
        sheet += [{"label": f.label, "start": f.start, "size": f.size} for f in ref.sheet
                  if all(f.label != s["label"] for s in sheet)]
    parts: list[RollWords] = []
    claimed: set[str] = set()
    for name, ref in references:
        own = [a for a in ref.abilities if a not in claimed]
        claimed.update(own)
        rolls = {str(d): t for d, t in sorted(ref.rolls.items())}
        if ref.prose is not None:
            rolls["prose"] = ref.prose
        parts.append({"system": name, "abilities": own, "rolls": rolls})
    return {"title": " with ".join(ref.title for _, ref in references), "parts": parts, "sections": sections,
            "hp": references[0][1].hp if references else "HP", "abilities": abilities, "sheet": sheet,
            "zones": {k: v for _, ref in references for k, v in ref.zones.items()}}


def roll_words(rules: BookRules, ability: str | None, difficulty: int) -> str | None:
    """How a check of ``ability`` (None: the best one) at ``difficulty`` is rolled, in words; None
    when the book's rules do not say (difficulty 0, or a system with no reference)."""
    if difficulty <= 0 or not rules["parts"]:
        return None
    part = rules["parts"][0]
    if ability is not None:
        part = next((p for p in rules["parts"] if ability in p["abilities"]), part)
    template = part["rolls"].get(str(difficulty))
    if template is None:
        return None
    return template.replace("{ability}", f"your {ability}" if ability else "your best ability")


def describe(spec: str | None) -> BookRules:
    """The rules of a ``Rules:`` value for a reader (base first, then each overlay), as plain data.

    A system registered without a reference (a plugin) adds no sentences; its abilities still get
    a line on the sheet. An unknown ``Rules:`` value raises :class:`dtc.systems.UnknownRuleset`.
    """
    from dtc.systems import parse_rules

    base, overlays = parse_rules(spec)
    found: list[tuple[str, Reference]] = []
    for system in (base, *overlays):
        ref = system.reference_card()
        if ref is None:
            ref = Reference(title=system.ruleset.title, abilities=tuple(system.ruleset.ability_names), rolls={},
                            checks=())
        found.append((system.name, ref))
    return join(found)
