"""How the web edition plays a game system: the description each system gives in its ``web.py``.

The web edition (``dtc.editions.web``) is generic: it reads one :class:`WebSystem` per system
(``System.web``) and hands it to the page's script as data. A description says

* how a check is rolled at each difficulty (:class:`WebCheck`: the dice, which are kept, whether
  the total must be at or under the ability or reach a target with it, critical bands);
* what a difficulty asks for (``plans``: Death & Treasure's "two of turn / gear / check");
* how a fresh adventurer's abilities and HP are made, and which numbers the sheet keeps;
* light, the encounter chance, the standard gear, and which combat helper fits its rules;
* optionally a page script of its own (``script``: Zilch's ``page.js``), which the web edition
  inlines into the page's script to play the system's encounters and fights as ``dtc play`` does.

An overlay (Dungeon Rules) describes only its own abilities' checks, scores and sheet fields; the
base's description keeps everything else. Nothing here imports the runtime.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: What each part of a plan asks of the reader, in words.
NEEDS = {"turn": "spend a turn", "gear": "use suitable gear", "check": "pass the check"}
CHECK_ONLY: tuple[tuple[str, ...], ...] = (("check",),)


@dataclass(frozen=True)
class WebCheck:
    """One check: roll ``count``d``sides`` (keeping the ``keep`` best or worst when ``keep`` > 0;
    faces in ``zero_faces`` count 0), then succeed when the total is at or under the ability +
    ``modifier`` (``under``) or when total + ability reaches ``target`` (not ``under``).
    ``degrees`` names a rule of critical results (``zilch``: at or under skill − 5, over skill + 5)."""

    count: int
    sides: int = 6
    keep: int = 0
    best: bool = True
    zero_faces: tuple[int, ...] = ()
    under: bool = True
    modifier: int = 0
    target: int = 0
    degrees: str = ""

    def dice(self) -> str:
        text = f"{self.count}d{self.sides}"
        if self.keep:
            text += f" keep the {'best' if self.best else 'worst'} {self.keep}"
        if self.zero_faces:
            text += f" ({', '.join(map(str, self.zero_faces))}s count 0)"
        return text

    def words(self, ability: str) -> str:
        """``3d6 ≤ DEX``, ``2d6 + STR ≥ 10``, ``d20 ≤ LUCK + 3``."""
        if self.under:
            mod = f" {'+' if self.modifier > 0 else '−'} {abs(self.modifier)}" if self.modifier else ""
            return f"{self.dice()} ≤ {ability}{mod}"
        return f"{self.dice()} + {ability} ≥ {self.target}"

    def data(self) -> dict[str, Any]:
        return {"count": self.count, "sides": self.sides, "keep": self.keep, "best": self.best,
                "zero": list(self.zero_faces), "under": self.under, "mod": self.modifier, "target": self.target,
                "degrees": self.degrees}


@dataclass(frozen=True)
class WebField:
    """A number the sheet keeps: ``key`` (``data-field``), its label and starting value.

    ``adjust`` names abilities whose score moves it when a new adventurer is rolled (Death &
    Treasure: +1 for a score above 13, −1 below 8)."""

    key: str
    label: str
    value: str = ""
    adjust: tuple[str, ...] = ()
    #: A word field (a weapon's damage die, a class) rather than a number.
    text: bool = False


@dataclass(frozen=True)
class WebSystem:
    """Everything the web edition needs to play one system (see the module's docstring)."""

    checks: Mapping[int, WebCheck]
    #: difficulty -> the ways to meet it (each a tuple of ``turn``/``gear``/``check``); missing: a check.
    plans: Mapping[int, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    #: How a new adventurer's abilities are made: ``{"kind": "dice", "count": 3, "sides": 6}`` (each),
    #: ``{"kind": "arrays", "arrays": [[2, 1, 0], ...]}`` (one of the arrays, by a die, dealt to the
    #: abilities of this kind in order), ``{"kind": "cards", "low": 5, "high": 10, "redraw": 25}`` (a
    #: card for each ability of this kind; a hand totalling at most ``redraw`` is drawn again, once,
    #: and the second hand kept), ``{"kind": "lowest", "count": 3, "sides": 6}`` (the lowest die of
    #: three). The base system's abilities are made first, then its HP, then an overlay's, in the
    #: order ``dtc play`` draws them.
    create: Mapping[str, Any] = field(default_factory=dict)
    #: Abilities a new adventurer copies from another (Dungeon Rules on Death & Treasure: AGI is DEX).
    same: Mapping[str, str] = field(default_factory=dict)
    create_words: str = ""
    #: HP of a new adventurer: ``{"count": 1, "sides": 8, "adjust": "CON"}``, ``{"fixed": 4}`` or
    #: ``{"ability": "♥"}``; empty: the reader writes it.
    hp: Mapping[str, Any] = field(default_factory=dict)
    hp_label: str = "HP"
    #: Further numbers on the sheet (Defense, armour, chips, minutes).
    fields: tuple[WebField, ...] = ()
    #: A lantern: (turns a flask burns, flasks to start with); None where the rules keep no light.
    light: tuple[int, int] | None = None
    #: Turns in the dark before the adventurer is lost (with ``light``).
    dark_turns: int = 0
    #: The chance in six of a wandering encounter for each turn spent.
    encounter_in_six: int = 1
    #: Standard gear a new adventurer carries (the sheet's items start with it).
    gear: tuple[str, ...] = ()
    #: The combat helper that fits the rules: ``roll-under-d20`` (Death & Treasure), ``armour``
    #: (Maze Rats), ``dominoes`` (Zilch), or "" for none; ``combat_words`` says how it works.
    combat: str = ""
    combat_words: tuple[str, ...] = ()
    #: Values the combat helper reads (morale target, creature defaults, weapon damage).
    combat_data: Mapping[str, Any] = field(default_factory=dict)
    #: Zones an entry may lie in (Dungeon Rules): key -> (minutes between encounter checks, top of the
    #: danger range 1–top, 1 for a lair: two checks at each interval); ``default_zone`` for an entry
    #: that names none.
    zones: Mapping[str, tuple[int, int, int]] = field(default_factory=dict)
    default_zone: str = ""
    #: Lines for "How to play" on the cover.
    notes: tuple[str, ...] = ()
    #: What 0 HP is (the rules' ``down``, as ``dtc play`` plays it): ``death`` ends the run;
    #: ``unconscious`` (Zilch) knocks the adventurer out for ``unconscious_turns`` turns (with their
    #: encounter checks: a creature that finds the body strikes it once), and every point of damage
    #: taken at 0 HP drains the ability ``drain`` (and the HP it can hold) instead, its 0 being death.
    zero_hp: str = "death"
    drain: str = ""
    unconscious_turns: int = 0
    #: With ``light``: each turn in the dark the adventurer makes this check (ability, difficulty)
    #: or is lost; ``dark_turns`` of them and the adventurer is lost anyway.
    dark_check: tuple[str, int] | None = None
    #: A feature a new adventurer rolls for after the abilities (Maze Rats): a ``die`` and, per face
    #: (from 1), the sheet's fields it sets and the words for it: ``{"die": 6, "faces": [{"set":
    #: {"ab": "1"}, "words": "+1 attack bonus"}, ...]}``.
    feature: Mapping[str, Any] = field(default_factory=dict)
    #: Whether the system's own check is what every hazard rolls (Dungeon Rules: a d20 at or under
    #: the better of the hazard's abilities, whichever system owns them).
    hazards: bool = False
    #: The system's own page script (its text, JavaScript), inlined by the web edition into the page's
    #: script at its marker, inside the same closure: it plays what the system's ``combat_data`` hands it
    #: as ``dtc play`` plays it (Zilch: ``zilch/page.js``, its fights and encounters); "" for none.
    script: str = ""

    def plans_for(self, difficulty: int) -> tuple[tuple[str, ...], ...]:
        if difficulty <= 0:
            return ((),)
        return self.plans.get(difficulty, CHECK_ONLY)


def plan_words(plan: tuple[str, ...]) -> str:
    """``spend a turn + pass the check``."""
    return " + ".join(NEEDS[n] for n in plan)


def need_words(plans: tuple[tuple[str, ...], ...]) -> str:
    """What a difficulty asks, in words: ``two of: spend a turn, use suitable gear, pass the check``."""
    sizes = {len(p) for p in plans}
    needs = [n for n in NEEDS if any(n in p for p in plans)]
    if len(plans) == 1:
        return plan_words(plans[0])
    count = {1: "one", 2: "two", 3: "three"}.get(min(sizes), str(min(sizes)))
    return f"{count} of: {', '.join(NEEDS[n] for n in needs)}"
