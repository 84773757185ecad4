"""What the web edition's script needs to play a book's rules: read from each system's description.

:func:`play_data` joins the book's base system and overlays (``death-and-treasure +
dungeon-rules``) into one description for the page: the abilities and which system checks each,
each system's check dice by difficulty, what a difficulty needs, how a new adventurer is made,
the sheet's numbers, light, encounters, zones and the combat helper. A system without a web
description (``System.web``), or rules dtc does not know, give :data:`NO_PLAY`: the page then
shows the choices and their entries, with no dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dtc.compiled.graphjson import CompiledGraph
from dtc.systems import UnknownRuleset, check_rulings, get_ruleset, parse_rules, split_rulings
from dtc.systems.base import Combined, Ruleset
from dtc.systems.webplay import WebCheck, WebField, WebSystem, need_words, plan_words


@dataclass(frozen=True)
class Play:
    """The rules of one book as the web edition plays them."""

    title: str = ""
    abilities: tuple[str, ...] = ()
    #: ability -> the name of the system whose check it rolls.
    owner: dict[str, str] = field(default_factory=dict)
    #: system name -> its description.
    systems: dict[str, WebSystem] = field(default_factory=dict)
    base: str = ""
    ruleset: Ruleset | None = None
    rulings: dict[str, str] = field(default_factory=dict)

    @property
    def web(self) -> WebSystem | None:
        return self.systems.get(self.base)

    def canonical(self, ability: str | None) -> str | None:
        """The ability as the sheet names it, None when the rules have no such ability."""
        if ability is None or self.ruleset is None:
            return None
        return self.ruleset.canonical_ability(ability)

    def check(self, ability: str | None, difficulty: int) -> WebCheck | None:
        """The check a choice rolls (``ability`` None: the base system's)."""
        owner = self.owner.get(ability or "", self.base)
        system = self.systems.get(owner) or self.web
        return system.checks.get(difficulty) if system is not None else None

    def hazard_check(self, difficulty: int) -> WebCheck | None:
        """The check every hazard rolls (Dungeon Rules' d20, whichever system owns its abilities:
        ``dungeon_rules/hazards.py``), None when no system of the book plays hazards."""
        system = next((s for s in self.systems.values() if s.hazards), None)
        return system.checks.get(difficulty) if system is not None else None

    def plans(self, difficulty: int) -> tuple[tuple[str, ...], ...]:
        web = self.web
        return web.plans_for(difficulty) if web is not None else (("check",),)

    def needs(self, difficulty: int) -> str:
        """``two of: spend a turn, …`` where a difficulty asks more than the check, else ""."""
        plans = self.plans(difficulty)
        return "" if plans in ((("check",),), ((),)) else need_words(plans)

    def fields(self) -> list[WebField]:
        found: dict[str, WebField] = {}
        for system in self.systems.values():
            for f in system.fields:
                found.setdefault(f.key, f)
        return list(found.values())

    def data(self, graph: CompiledGraph) -> dict[str, Any]:
        """The description as JSON for the page's script."""
        web = self.web
        if web is None:
            return {"dice": False, "abilities": list(self.abilities)}
        sets = {name: {str(d): c.data() for d, c in s.checks.items()} for name, s in self.systems.items()}
        plans = {str(d): [list(p) for p in web.plans_for(d)] for d in range(1, 5)}
        create = {a: dict(self.systems[self.owner[a]].create) for a in self.abilities}
        same: dict[str, str] = {}
        for name, system in self.systems.items():
            if name != self.base:
                same.update({a: b for a, b in system.same.items() if b in self.abilities and a in self.abilities
                             and self.owner.get(b) == self.base})
        zones: dict[str, list[int]] = {}
        for system in self.systems.values():
            if system.zones and system.default_zone in system.zones:
                default = system.zones[system.default_zone]
                for e in graph["entries"]:
                    zones[str(e["number"])] = list(system.zones.get(e.get("zone") or "", default))
        hazards = next((name for name, system in self.systems.items() if system.hazards), "")
        return {
            "dice": True,
            "base": self.base,
            "abilities": list(self.abilities),
            "owner": {a: self.owner[a] for a in self.abilities},
            "checks": sets,
            "plans": plans,
            "create": create,
            "same": same,
            "hp": dict(web.hp),
            "fields": [{"key": f.key, "value": f.value, "adjust": list(f.adjust)} for f in self.fields()],
            "light": list(web.light) if web.light else None,
            "darkTurns": web.dark_turns,
            "encounterInSix": web.encounter_in_six,
            "gear": list(web.gear),
            "combat": web.combat,
            "combatData": {**web.combat_data, **({"morale": self.rulings["morale"]}
                                                  if "morale" in self.rulings and web.combat == "roll-under-d20"
                                                  else {})},
            "zones": zones,
            "minutes": "minutes" in {f.key for f in self.fields()},
            # What 0 HP is (play's Rules.down), the dark's check, a new adventurer's feature, the
            # system whose check every hazard rolls ("": none).
            "zeroHp": web.zero_hp,
            "drain": web.drain,
            "unconsciousTurns": web.unconscious_turns,
            "darkCheck": list(web.dark_check) if web.dark_check else None,
            "feature": dict(web.feature),
            "hazardChecks": hazards,
            # Death & Treasure's ruling: the entry an action leads to costs no turn of its own.
            "sameRoomFree": self.rulings.get("same-room") == "free",
        }


NO_PLAY = Play()


def play_data(rules: str) -> Play:
    """The web play of a ``Rules:`` value (:data:`NO_PLAY`-like, without dice, when it has none)."""
    try:
        base, overlays = parse_rules(rules)
        ruleset = get_ruleset(rules)
        rulings = check_rulings((base, *overlays), split_rulings(rules)[1])
    except UnknownRuleset:
        return NO_PLAY
    abilities = tuple(ruleset.ability_names)
    systems: dict[str, WebSystem] = {}
    for system in (base, *overlays):
        web = system.web_rules()
        if web is not None:
            systems[system.name] = web
    owner: dict[str, str] = {}
    for a in abilities:
        part = ruleset.owner(a) if isinstance(ruleset, Combined) else ruleset
        owner[a] = part.name if part.name in systems else base.name
    if base.name not in systems:
        return Play(title=ruleset.title, abilities=abilities, ruleset=ruleset)
    return Play(title=ruleset.title, abilities=abilities, owner=owner, systems=systems, base=base.name,
                ruleset=ruleset, rulings=rulings)


__all__ = ["NO_PLAY", "Play", "plan_words", "play_data"]
