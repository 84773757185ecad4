"""The compiled graph as Python types: the contract ``schemas/adventure.schema.json`` states.

Every reader of a compiled graph (play, graph, odds, simulate, the editions, renumber's check)
takes a :class:`CompiledGraph` rather than a ``dict[str, Any]``, so ``mypy --strict`` checks
every key it reads and the type of what it finds there. ``tests/test_graphjson.py`` holds these
types and the schema to each other: every schema property is a key here with a compatible type,
and every key here is a schema property. A key the schema does not require is ``NotRequired``.

Versions: :data:`READABLE_VERSIONS` are the ``format_version`` values this dtc reads. Adding a
version is one entry there, plus its new keys (``NotRequired`` when older graphs lack them).

No ``from __future__ import annotations`` here: TypedDict reads ``NotRequired`` from evaluated
annotations only (Python 3.11), and the test compares its required keys with the schema's.
"""

import re
from typing import Literal, NotRequired, TypeAlias, TypedDict

#: ``format_version`` values this dtc reads (it writes :data:`dtc.FORMAT_VERSION`).
READABLE_VERSIONS: tuple[int, ...] = (1, 2, 3)

#: "Return to your most recent entry": the compiler writes it as one ``return`` exit per entry
#: leading in, so an entry nothing leads into keeps it only in its ``text``, where a reader of
#: the graph (:meth:`dtc.lint.analysis.Analysis.of_graph`) finds it with this pattern.
DYNAMIC_RETURN = re.compile(
    r"\breturn\s+to\s+(?:your|the)\s+(?:most\s+recent|previous|last)\s+(?:entry|section|room|paragraph|location)",
    re.I,
)

#: An entry number; a string ``@label`` only when a label names no entry (lint DT107).
Target = int | str


class Source(TypedDict):
    path: str
    sha256: str


class SpanDict(TypedDict):
    line: int
    column: int
    end_line: int
    end_column: int


class Attack(TypedDict):
    name: str
    damage: str


class Creature(TypedDict):
    name: str
    hp: int
    morale: int | None
    attacks: list[Attack]
    special: str | None
    stats: dict[str, int]
    entry: int | None
    line: int
    exits: NotRequired["FightExits"]


class FightExits(TypedDict):
    """``win S13, lose S12, flee S3`` in a stat block: where each outcome of its fight leads."""

    win: NotRequired[Target]
    lose: NotRequired[Target]
    flee: NotRequired[Target]


class Group(TypedDict):
    count: str
    name: str
    creature: str | None


class Encounter(TypedDict):
    low: int
    high: int
    text: str
    groups: list[Group]
    line: int


class Zone(TypedDict):
    low: int
    high: int
    text: str
    zone: str | None
    line: int


class HazardCheck(TypedDict):
    abilities: list[str]
    difficulty: int | None


# ``pass`` is a keyword, so the hazard is declared in the functional form.
Hazard = TypedDict("Hazard", {
    "name": str,
    "entry": int | None,
    "line": int,
    "check": HazardCheck | None,
    "fail": str | None,
    "pass": str | None,
    "mitigation": list[str],
    "telltales": str | None,
    "trigger": str | None,
    "error": str | None,
})


#: A condition (schema ``$defs/condition``), a small expression tree: ``{"has": name, "count": n}``
#: (at least n of the possession), ``{"not": c}``, ``{"all": [c, ...]}``, ``{"any": [c, ...]}``.
#: Version 3: ``op`` compares (``{"has": "gold crowns", "count": 3, "op": ">"}``), and
#: ``{"score": "CON", "count": 12, "op": ">="}`` reads the adventurer's score.
Condition: TypeAlias = "HasCondition | ScoreCondition | NotCondition | AllCondition | AnyCondition"
CompareOp = Literal[">=", ">", "<=", "<", "="]
class HasCondition(TypedDict):
    has: str
    count: int
    op: NotRequired[CompareOp]
class ScoreCondition(TypedDict):
    score: str
    count: int
    op: CompareOp
NotCondition = TypedDict("NotCondition", {"not": Condition})
class AllCondition(TypedDict):
    all: list[Condition]
class AnyCondition(TypedDict):
    any: list[Condition]


class Branch(TypedDict):
    low: int
    high: int
    target: Target


class Roll(TypedDict):
    dice: str
    count: int
    sides: int
    branches: list[Branch]


class Choice(TypedDict):
    label: str
    text: str
    ability: str | None
    difficulty: int | None
    success: Target | None
    failure: Target | None
    error: str | None
    span: SpanDict
    condition: NotRequired[Condition]
    roll: NotRequired[Roll]
    changes: NotRequired[list["Change"]]


class Change(TypedDict):
    name: str
    amount: int
    all: NotRequired[bool]
    if_held: NotRequired[bool]
    once: NotRequired[bool]
    dice: NotRequired[str]
    times: NotRequired[int]
    may: NotRequired[bool]
    pick: NotRequired[bool]
    container: NotRequired[str]
    among: NotRequired[list[str]]


class StartItem(TypedDict):
    name: str
    amount: int


ExitKind = Literal["success", "failure", "random", "prose", "return"]


class Exit(TypedDict):
    target: Target
    kind: ExitKind
    choice: int | None
    span: SpanDict | None


class When(TypedDict):
    check: int
    outcome: Literal["success", "failure"]


#: Dungeon Rules conditions (``dtc.systems.dungeon_rules.ruleset.CONDITIONS``, kept equal by a test).
ConditionKey = Literal["bright", "dim", "dark", "obscured", "heavily-obscured", "dust-haze", "smoke", "clear-water",
                       "murky-water", "opaque-water", "dead-corridor", "cavern", "machinery", "waterfall",
                       "sanctuary-bell", "ward-pulse", "patrol-sweep", "half-cover", "three-quarters-cover",
                       "total-cover"]
EffectKind = Literal["damage", "heal", "check", "treasure", "item", "fight", "creatures", "condition", "manual"]


class Effect(TypedDict):
    kind: EffectKind
    text: str
    start: int
    end: int
    when: When | None
    dice: NotRequired[str]
    ability: NotRequired[str | None]
    difficulty: NotRequired[int | None]
    category: NotRequired[Literal["coins", "gems", "jewelry", "unique"]]
    name: NotRequired[str]
    quantity: NotRequired[int]
    value: NotRequired[int | None]
    weight: NotRequired[float | None]
    count: NotRequired[str]
    target: NotRequired[Target | None]


class Image(TypedDict):
    """An illustration an entry places (version 3): its file, relative to the book, and its words."""

    src: str
    alt: str
    line: int


class Entry(TypedDict):
    number: int
    label: str | None
    line: int
    end_line: int
    text: str
    ending: bool
    choices: list[Choice]
    exits: list[Exit]
    creatures: list[str]
    effects: list[Effect]
    zone: NotRequired[str | None]
    conditions: NotRequired[list[ConditionKey]]
    changes: NotRequired[list[Change]]
    ending_kind: NotRequired[Literal["death", "victory"]]
    hazards: NotRequired[list[str]]
    images: NotRequired[list[Image]]


class CompiledGraph(TypedDict):
    format: Literal["dtc-adventure"]
    format_version: int
    dtc_version: str
    source: Source
    title: str | None
    author: str | None
    rules: str
    start: int | None
    creatures: list[Creature]
    encounters: list[Encounter]
    entries: list[Entry]
    introduction: NotRequired[list[str]]
    possessions: NotRequired[list[str]]
    start_with: NotRequired[list[StartItem]]
    limits: NotRequired[dict[str, int]]
    containers: NotRequired[dict[str, list[str]]]
    drop_by_choice: NotRequired[list[str]]
    zones: NotRequired[list[Zone]]
    hazards: NotRequired[list[Hazard]]
