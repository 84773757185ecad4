"""The creatures in a fight, as every game system's combat sees them: a name, HP, Morale, attacks.

Built from a compiled stat block (:func:`foes_from`); how they fight is each system's own
(``dtc.systems.<name>.combat``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dtc.compiled.graphjson import Creature
from dtc.runtime.core import TARGET, Option, Question

if TYPE_CHECKING:
    from dtc.runtime.game import Game

#: A fight ends after this many rounds, whatever the system (a guard against endless stalemates).
MAX_ROUNDS = 500
#: More creatures than this in one group are taken as this many (a typo such as "400 Goblins").
MAX_GROUP = 50


@dataclass(slots=True)
class Foe:
    """One creature in a fight."""

    name: str
    creature: str | None
    hp: int
    max_hp: int
    morale: int | None
    attacks: list[tuple[str, str]] = field(default_factory=list)
    special: str | None = None
    hurt: bool = False
    halved: bool = False
    fled: bool = False

    @property
    def active(self) -> bool:
        return self.hp > 0 and not self.fled

    def brief(self) -> dict[str, Any]:
        return {"name": self.name, "hp": self.hp, "morale": self.morale}


def foes_from(block: Creature | None, name: str, count: int) -> list[Foe]:
    """``count`` creatures of a stat block (``block`` None: creatures the runtime knows no stats for)."""
    out = []
    if block is None:
        for n in range(min(count, MAX_GROUP)):
            out.append(Foe(f"{name}{f' {n + 1}' if count > 1 else ''}", None, 0, 0, None))
        return out
    title, hp, morale, special = block["name"], block["hp"], block["morale"], block["special"]
    attacks = [(a["name"], a["damage"]) for a in block["attacks"]] or [("attack", "d4")]
    for n in range(min(count, MAX_GROUP)):
        label = f"{title} {n + 1}" if count > 1 else title
        out.append(Foe(label, title, hp, hp, morale, list(attacks), special))  # a list of its own each
    return out


def pick_target(game: Game, active: list[Foe]) -> Foe:
    """The foe the adventurer attacks: the only one standing, else the player's answer to "Attack
    which?" (from the number of foes alone where the player answers so and nobody reads the
    decision: :meth:`Engine.pick`)."""
    if len(active) <= 1:
        return active[0]
    chosen = game.pick(TARGET, len(active))
    if chosen is None:
        tq = Question(TARGET, "Attack which?", tuple(
            Option(f"foe:{n}", f.name, f"{f.hp}/{f.max_hp} HP") for n, f in enumerate(active)))
        chosen = int(game.ask(tq).key.split(":")[1])
    return active[chosen]
