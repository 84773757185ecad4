"""Dungeon Rules, automated: an overlay that owns time, danger and rest, on top of a base ruleset.

Seed: ``dungeon-rules.txt``; numbers from :mod:`dtc.systems.dungeon_rules.ruleset`. The overlay keeps a
clock in minutes: a move costs the pace's minutes (standard 10, careful 20, stealth 20, fast 5,
forced 20 for 3 rooms; wading doubles or quadruples them),
an action, a wait or a fight 10. The base ruleset's turn (its light, its upkeep) passes once per
10 minutes. The encounter die is rolled at each interval of the current entry's zone (and once
after a loud event), against the zone's danger range moved by the danger steps; inside a lair
every 10 minutes, twice (at the start and at the end of each 10 minutes, 2.1). Running away
adds a step until the next check (2.2, "running"). Everything else
— checks of the base's abilities, character, encounters, combat — is the base's; the overlay's
own abilities (AGI, LUCK, WORLDSWAY under Death & Treasure) and every hazard are d20 roll-under.
Hazards are in :mod:`dtc.systems.dungeon_rules.hazards`; readings are in ``docs/rulesets/dungeon-rules.md``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import dtc.systems.dungeon_rules.ruleset as dr
from dtc.compiled.graphjson import Entry
from dtc.runtime.character import Character
from dtc.runtime.core import Option, Question
from dtc.runtime.dice import Dice, Roll, percent
from dtc.runtime.equipment import RATIONS, Item
from dtc.runtime.ruleset import FLED, WON, Rules, careful

if TYPE_CHECKING:
    from dtc.runtime.foes import Foe
    from dtc.runtime.game import Game
    pass  # moved imports
    from dtc.runtime.core import Chooser

SEVEN = ("STR", "CON", "INT", "WIS", "AGI", "LUCK", "WORLDSWAY")
MINUTES = {"action": 10, "wait": 10, "combat": 10, "unconscious": 10, "rest": 0}
PACE, REST_TYPE = "pace", "rest-type"  # question kinds
HOUR = 60
WATCHES = 4
KEY = "dr"  # this overlay's part of the run state
LAIR_INTERVAL = 10  # 2.1: inside a lair, checks at the start and the end of each 10 minutes


def in_lair(zone: dr.Zone) -> bool:
    return "lair" in zone.key


def overlay_scores(pc: Character, dice: Dice) -> list[str]:
    """Give ``pc`` the overlay's scores it lacks: Death & Treasure's own where it has them (AGI is
    DEX), else 3d6 each, rolled now. Returns what was rolled (``LUCK 11``)."""
    rolled = []
    shared = dr.SHARED_SCORES.get(pc.ruleset, {})
    for a in SEVEN:
        if a in pc.stats or (pc.dt and a in pc.abilities):
            continue
        if shared.get(a) in pc.abilities:
            pc.stats[a] = pc.abilities[shared[a]]
            continue
        pc.stats[a] = dice.total("3d6")
        rolled.append(f"{a} {pc.stats[a]}")
    return rolled


@lru_cache(maxsize=256)
def _zone_named(name: str | None) -> dr.Zone:
    """The zone an entry's ``zone`` names (the default zone when it names none or an unknown one)."""
    zone = dr.ZONES.get(name or dr.DEFAULT_ZONE)
    return zone if zone is not None else dr.ZONES[dr.DEFAULT_ZONE]


def _every(zone: dr.Zone) -> int:
    """Minutes between the zone's encounter checks (inside a lair, at most 10: 2.1)."""
    return min(zone.interval, LAIR_INTERVAL) if "lair" in zone.key else zone.interval


def darksight(pc: Character) -> bool:
    """Darksight (8.6), written on the character sheet (a note or an item naming it)."""
    return "darksight" in pc.item_names() or any("darksight" in text.lower() for text in pc.notes)


#: A light as darksight sees it (8.6).
_BETTER = {"dark": "dim", "dim": "bright"}
#: Entries whose conditions are remembered per rules object, at most (see ``conditions``).
_LIT_KEPT = 20_000


class _Lit:
    """An entry's conditions as written (``written``, kept so that its id stays its own), the
    ones the rules know (``keys``), its light, and the conditions met in each light seen."""

    __slots__ = ("keys", "light", "met", "written")

    def __init__(self, written: Sequence[str]) -> None:
        self.written = written
        self.keys = [k for k in written if k in dr.CONDITIONS]
        self.light = next((k for k in self.keys if dr.CONDITIONS[k].kind == "light"), None)
        self.met: dict[str | None, list[dr.Condition]] = {}


def danger_text(top: int) -> str:
    """A danger range as the seed writes it: ``1``, ``1–3``."""
    return "1" if top <= 1 else f"1–{top}"


@lru_cache(maxsize=64)
def _pace_options(order: tuple[str, ...]) -> tuple[Option, ...]:
    """The paces offered, in this order, as options (made once per order: options are immutable)."""
    return tuple(Option(f"pace:{k}", dr.PACES[k].title, f"{dr.PACES[k].minutes} min a room: {dr.PACES[k].note}")
                 for k in order)


class DungeonRules(Rules):
    """``base + dungeon-rules``."""

    overlay = True

    def __init__(self, base: Rules) -> None:
        self.base = base
        self.name = f"{base.name} + dungeon-rules"
        self.title = f"{base.title} with Dungeon Rules"
        self.character_kind = base.character_kind
        self.own = tuple(a for a in SEVEN if a not in base.abilities)
        self.abilities = (*base.abilities, *self.own)
        #: :meth:`conditions`' memo, by the id of an entry's list of conditions.
        self._conditions: dict[int, _Lit] = {}
        # The base's encounters call its own fight(); route them through the overlay, which hears
        # the noise (an instance attribute shadows the method for the base's own calls).
        original = base.fight

        def fight(game: Game, foes: list[Foe], **kw: Any) -> str:
            self._fight_notes(game)
            return self._after_fight(game, foes, original(game, foes, **kw))

        setattr(base, "fight", fight)  # noqa: B010 - assigning a method on purpose

    # --- scores and checks ---------------------------------------------------------------

    def score(self, pc: Character, ability: str) -> int:
        """The 3–18 score the overlay's d20 rolls under."""
        if ability in pc.stats:
            return pc.stats[ability]
        if pc.dt and ability in pc.abilities:
            return pc.abilities[ability]
        return pc.score(ability)

    def ensure_scores(self, game: Game) -> None:
        """Give the adventurer the overlay's scores it lacks: Death & Treasure's own where it has
        them (AGI is DEX), else 3d6 each, rolled now."""
        rolled = overlay_scores(game.pc, game.dice)
        if rolled and not game.skip("manual"):
            game.emit("manual", text="Dungeon Rules scores rolled (3d6 each): " + ", ".join(rolled))

    def d20(self, pc: Character, ability: str, difficulty: int | None, mod: int = 0) -> Fraction:
        p = dr.p_d20(self.score(pc, ability) + mod, difficulty or 2)
        return p * p if pc.encumbered else p

    def d20_check(self, game: Game, ability: str, difficulty: int | None, why: str, mod: int = 0) -> bool:
        """A d20 at or under the score, the difficulty's modifier and ``mod`` (light, water: 8)."""
        d = difficulty if difficulty in dr.MODIFIERS else 2
        if not game.reads("check"):  # the same dice, drawn without building the rolls nobody reads
            total = self.base.pc_total(game, "d20", high_is_bad=True)
            ok = total <= self.score(game.pc, ability) + dr.MODIFIERS[d] + mod
            game.skip("check")
            return ok
        roll, rolls = self.base.pc_roll(game, "d20", high_is_bad=True)
        target = self.score(game.pc, ability) + dr.MODIFIERS[d] + mod
        ok = roll.total <= target
        game.emit("check", ability=ability, difficulty=d, dice="d20", rolls=[list(r.dice) for r in rolls],
                  total=roll.total, target=target, success=ok, why=why)
        return ok

    def plans(self, difficulty: int) -> list[tuple[str, ...]] | None:
        return self.base.plans(difficulty)

    def difficulty_text(self, difficulty: int) -> str:
        return self.base.difficulty_text(difficulty)

    def check_chance(self, pc: Character, ability: str, difficulty: int) -> Fraction:
        if ability in self.own:
            return self.d20(pc, ability, difficulty)
        return self.base.check_chance(pc, ability, difficulty)

    def odds_key(self, pc: Character, ability: str | None) -> Hashable | None:
        """The overlay's own abilities: the d20's score and encumbrance; the base's: the base's key;
        the best of them all: the base's key for its best, and every score."""
        if ability is not None and ability in self.own:
            return self.score(pc, ability), pc.encumbered
        base = self.base.odds_key(pc, ability if ability in self.base.abilities else None)
        if base is None or ability in self.base.abilities:
            return base
        return base, tuple(pc.abilities.items()), tuple(pc.stats.items()), pc.encumbered

    def check_text(self, pc: Character, ability: str, difficulty: int) -> str:
        if ability not in self.own:
            return self.base.check_text(pc, ability, difficulty)
        mod = dr.MODIFIERS.get(difficulty, 0)
        return (f"d20 ≤ {ability} {self.score(pc, ability)}{f'{mod:+d}' if mod else ''}: "
                f"{percent(self.d20(pc, ability, difficulty))}")

    def choice_odds(self, pc: Character, ability: str, difficulty: int, label: str) -> tuple[str, Fraction]:
        if ability in self.own:
            return self.check_text(pc, ability, difficulty), self.check_chance(pc, ability, difficulty)
        return self.base.choice_odds(pc, ability, difficulty, label)

    def check(self, game: Game, ability: str, difficulty: int | None, why: str) -> bool:
        work = dr.door_work(why, ability)
        if ability in self.own:
            ok = self.d20_check(game, ability, difficulty, why)
        else:
            ok = self.base.check(game, ability, difficulty, why)
        if work is not None:
            self.door(game, work, ok)
        return ok

    def door(self, game: Game, work: dr.DoorWork, ok: bool) -> None:
        """Work at a door (1, 4): its minutes pass, and its noise brings an immediate encounter
        check some steps up (forcing a stuck door that gives, +1; a lock that does not, +2)."""
        minutes = work.minutes
        if work.dice is not None:
            roll = game.dice.roll(work.dice)
            game.emit("roll", dice=roll.expr, rolls=list(roll.dice), total=roll.total, why=f"minutes {work.title}")
            minutes = roll.total
        self.pass_minutes(game, minutes)
        noise = work.success_noise if ok else work.failure_noise
        if noise is not None:
            self.st(game).setdefault("immediate", []).append({"amount": noise, "why": work.title})
        if work.key == "listen" and ok:
            game.emit("manual", text="You hear what is beyond the door: the book (or you) may say what waits there.")

    def pc_roll(self, game: Game, expr: str, *, high_is_bad: bool) -> tuple[Roll, list[Roll]]:
        return self.base.pc_roll(game, expr, high_is_bad=high_is_bad)

    def pc_total(self, game: Game, expr: str, *, high_is_bad: bool) -> int:
        return self.base.pc_total(game, expr, high_is_bad=high_is_bad)

    # --- the adventurer --------------------------------------------------------------------

    def fits(self, pc: Character) -> bool:
        return self.base.fits(pc)

    def new_character(self, dice: Dice) -> Character:
        return self.base.new_character(dice)

    def create_character(self, dice: Dice, chooser: Chooser) -> Character:
        return self.base.create_character(dice, chooser)

    def kit(self) -> list[Item]:
        return self.base.kit()

    def finish_character(self, pc: Character, dice: Dice) -> list[str]:
        return overlay_scores(pc, dice)

    def down(self, game: Game, cause: str, overflow: int = 0) -> None:
        self.base.down(game, cause, overflow)

    def arrival_costs_turn(self, game: Game, how: str, plan: tuple[str, ...] | None) -> bool:
        return self.base.arrival_costs_turn(game, how, plan)  # the base's ruling (same-room)

    def session_end(self, game: Game, outcome: str) -> None:
        self.base.session_end(game, outcome)  # the base's awards (Maze Rats experience)

    # --- time --------------------------------------------------------------------------------

    def st(self, game: Game) -> dict[str, Any]:
        rules = game.state.rules
        if KEY in rules:
            state: dict[str, Any] = rules[KEY]
            return state
        state = rules[KEY] = {}
        return state

    def begin(self, game: Game) -> None:
        self.base.begin(game)
        self.ensure_scores(game)
        game.state.rules[KEY] = {
            "minutes": 0, "base_minutes": 0, "last_check": 0, "pace": "standard", "pace_zone": None,
            "steps": [], "alarm": 0, "alarm_until": -1, "alarm_high_until": -1, "blood": False,
            "loud": False, "bonus": 0, "slip": False, "camp": False, "cleared": [], "mitigated": {},
        }

    def zone(self, game: Game) -> dr.Zone:
        return _zone_named(game.entry.get("zone"))

    def conditions(self, game: Game) -> list[dr.Condition]:
        """The entry's conditions as the adventurer meets them (8.1, 8.6): a dark entry is dim
        in the light they carry (the base's light: Death & Treasure's lantern; a base that keeps
        no light counts it lit), and darksight makes dim bright and dark dim."""
        written = game.entry.get("conditions")
        if not written:
            return []
        # Worked out once per entry (see _Lit). The lists are shared, so no caller changes one.
        known = self._conditions.get(id(written))
        if known is None or known.written is not written:
            if len(self._conditions) >= _LIT_KEPT:  # a long-lived process: forget, then fill again
                self._conditions.clear()
            known = self._conditions[id(written)] = _Lit(written)
        light = known.light
        seen = light
        if light == "dark" and self.base.can_see(game):
            seen = "dim"
        if seen is not None and darksight(game.pc):
            seen = _BETTER.get(seen, seen)
        met = known.met.get(seen)
        if met is None:
            met = known.met[seen] = [dr.CONDITIONS[seen if k == light and seen is not None else k] for k in known.keys]
        return met

    def perception(self, game: Game, ability: str) -> int:
        """The modifier to a Perception roll (a WIS roll of the overlay's) here: light, air and
        water, stacked (8.1: obscured "stacks with light level penalties"); 0 for other abilities."""
        return sum(c.perception for c in self.conditions(game)) if ability == dr.PERCEPTION else 0

    def blind(self, game: Game) -> bool:
        """Key details are impossible here (8.1 darkness, 8.3 opaque water)."""
        return any(c.blind for c in self.conditions(game))

    def _fight_notes(self, game: Game) -> None:
        notes = [c.note for c in self.conditions(game) if c.note]
        if notes:
            game.emit("manual", text="Fighting here: " + "; ".join(notes) + ".")

    def turn_passed(self, game: Game) -> None:
        why = game.clock_reason
        if why != "move":
            self.pass_minutes(game, MINUTES.get(why, 10))
            return
        st = game.state.rules.get(KEY) or self.st(game)
        pace = st["pace"]
        minutes = dr.PACES[pace].minutes if pace != "forced" else self._move_minutes(game)
        if game.entry.get("conditions"):
            minutes *= max((c.slow for c in self.conditions(game)), default=1)  # wading (8.3)
        self.pass_minutes(game, minutes)
        pace = st["pace"]
        if pace == "forced":
            self._forced_hours(game, minutes)
            pace = st["pace"]
        if pace in ("fast", "stealth"):  # the only paces with something to do after the move
            self._paced_move(game)

    def pass_minutes(self, game: Game, minutes: int, *, base_turns: bool = True) -> None:
        """The clock moves on; the base's turn passes for every 10 minutes (its light burns)."""
        st = game.state.rules.get(KEY) or self.st(game)
        now = st["minutes"] = st["minutes"] + minutes
        if not base_turns:
            st["base_minutes"] = now - now % 10
            return
        while st["minutes"] - st["base_minutes"] >= 10:
            st["base_minutes"] += 10
            self.base.turn_passed(game)

    def _move_minutes(self, game: Game) -> int:
        """A room at the current pace; a forced march goes 50% farther in the time (1), so its
        rooms take 20 minutes for every 3 (6, 7, 7 minutes)."""
        st = game.state.rules.get(KEY) or self.st(game)
        if st["pace"] != "forced":
            return dr.PACES[st["pace"]].minutes
        rooms: int = st.get("forced_rooms", 0) + 1
        st["forced_rooms"] = rooms
        return rooms * dr.FORCED_MINUTES // dr.FORCED_ROOMS - (rooms - 1) * dr.FORCED_MINUTES // dr.FORCED_ROOMS

    def _forced_hours(self, game: Game, minutes: int) -> None:
        """Each hour of forced march (1): a CON check, and +1 danger step until a short rest; a
        failed check leaves the adventurer too spent to keep it up (the pace drops to standard
        until a short rest)."""
        st = game.state.rules.get(KEY) or self.st(game)
        st["forced_minutes"] = st.get("forced_minutes", 0) + minutes
        while st["forced_minutes"] >= HOUR and st["pace"] == "forced":
            st["forced_minutes"] -= HOUR
            self.add_step(game, 1, why="forced march")
            if not self.check(game, "CON", 2, "an hour of forced march"):
                st["pace"], st["spent"] = "standard", True
                game.emit("pace", pace="standard", minutes=dr.PACES["standard"].minutes,
                          why="too spent to force the march")

    def _paced_move(self, game: Game) -> None:
        st = game.state.rules.get(KEY) or self.st(game)
        if st["pace"] == "fast":
            st["bonus"] = max(st["bonus"], 4)
        elif st["pace"] == "stealth":
            best = max(("AGI", "WIS"), key=lambda a: self.score(game.pc, a))
            noise = sum(c.stealth for c in self.conditions(game))  # the entry's sound (8.4)
            if self.d20_check(game, best, 2, "stealth crawl", noise):
                st["slip"] = True
            else:
                st["slip"] = False
                st["bonus"] = max(st["bonus"], 7)
                self.raise_alarm(game, 1, "a failed stealth check")

    def can_see(self, game: Game) -> bool:
        return self.base.can_see(game)

    def status(self, game: Game) -> str:
        st = game.state.rules.get(KEY) or self.st(game)
        zone = self.zone(game)
        top = self.danger(game)
        clock = f"{st['minutes'] // HOUR}:{st['minutes'] % HOUR:02d}"
        alarm = f" | alarm {st['alarm']}" if st["alarm"] else ""
        own = f"{zone.key} {danger_text(top)}"
        base = self.base.status(game)
        return f"{own} | {st['pace']} | {clock}{alarm}" + (f" | {base}" if base else "")

    def adjust(self, game: Game, words: list[str]) -> str | None:
        """``pace careful|stealth|fast|standard|forced``, ``map`` (a mapping halt), ``alarm N``."""
        st = game.state.rules.get(KEY) or self.st(game)
        if len(words) == 2 and words[0] == "pace" and words[1] in dr.PACES:
            if words[1] == "forced" and st.get("spent"):
                return None  # too spent until a short rest
            st["pace"] = words[1]
            game.emit("pace", pace=words[1], minutes=dr.PACES[words[1]].minutes, why="adjusted")
            return f"pace {words[1]}"
        if words == ["map"]:
            self.pass_minutes(game, dr.MAPPING_HALT_MINUTES)
            ok = self.d20_check(game, "INT", 2, "mapping halt")
            game.emit("pace", pace="mapping halt", minutes=dr.MAPPING_HALT_MINUTES, why="mapped" if ok else "muddled")
            return "mapping halt"
        if len(words) == 2 and words[0] == "alarm" and words[1].isdigit():
            self.raise_alarm(game, int(words[1]) - st["alarm"], "adjusted")
            return f"alarm {st['alarm']}"
        return self.base.adjust(game, words)

    # --- danger and encounters ---------------------------------------------------------------

    def add_step(self, game: Game, amount: int, *, minutes: int | None = None, checks: int | None = None,
                 why: str = "") -> None:
        st = game.state.rules.get(KEY) or self.st(game)
        until = None if minutes is None else st["minutes"] + minutes
        st["steps"].append({"amount": amount, "until": until, "checks": checks, "why": why})

    def raise_alarm(self, game: Game, amount: int, why: str) -> None:
        st = game.state.rules.get(KEY) or self.st(game)
        before = st["alarm"]
        st["alarm"] = max(0, min(5, before + amount))
        if st["alarm"] >= 5 > before:
            st["alarm_high_until"] = st["minutes"] + HOUR
        if st["alarm"] != before and not game.skip("alarm"):
            game.emit("alarm", level=st["alarm"], why=why)

    def trip_alarm(self, game: Game, why: str) -> None:
        """A tripped alarm: +5 steps and an active alarm for an hour, +2 on the track."""
        st = game.state.rules.get(KEY) or self.st(game)
        self.add_step(game, 5, minutes=HOUR, why=why)
        st["alarm_until"] = st["minutes"] + HOUR
        self.raise_alarm(game, 2, why)

    def danger(self, game: Game) -> int:
        """The top of the current danger range (1 to 5)."""
        st = game.state.rules.get(KEY) or self.st(game)
        now = st["minutes"]
        entry = game.entry
        top: int = _zone_named(entry.get("zone")).top
        for step in st["steps"]:
            if (step["until"] is None or step["until"] > now) and step["checks"] != 0:
                top += step["amount"]
        top += (1 if st["blood"] else 0) + st["bonus"]
        if st["alarm_until"] > now:
            top = max(top + 1, 3)
        if st["alarm"] >= 3 and top < 3:
            top = 3
        if entry.get("conditions"):
            for c in self.conditions(game):  # a bell, ward or patrol here (2.2): the highest counts
                if c.danger > top:
                    top = c.danger
        if st["alarm_high_until"] > now:
            top = 5
        return 1 if top < 1 else dr.DANGER_CAP if top > dr.DANGER_CAP else top

    def roll_check(self, game: Game, why: str) -> bool:
        """One roll of the encounter die against the current range; spends one-shot steps."""
        st = game.state.rules.get(KEY) or self.st(game)
        top = self.danger(game)
        roll = game.dice.die(6)
        hit = roll <= top
        if not game.skip("encounter_check"):
            game.emit("encounter_check", roll=roll, encounter=hit, zone=self.zone(game).key, range=top, why=why)
        st["bonus"] = 0
        if st["steps"]:
            st["steps"] = [dict(s, checks=s["checks"] - 1) if s["checks"] else s for s in st["steps"]
                           if s["checks"] != 1 and (s["until"] is None or s["until"] > st["minutes"])]
        return hit

    def interval(self, game: Game) -> int:
        st = game.state.rules.get(KEY) or self.st(game)
        zone = self.zone(game)
        every = _every(zone)
        return min(every, dr.ALARM_INTERVAL) if st["alarm_until"] > st["minutes"] else every

    def due_checks(self, game: Game) -> int:
        """How many interval checks fall due now (the clock may have crossed several)."""
        st = game.state.rules.get(KEY) or self.st(game)
        zone = self.zone(game)
        every = _every(zone)
        if st["alarm_until"] > st["minutes"]:
            every = min(every, dr.ALARM_INTERVAL)
        due: int = (st["minutes"] - st["last_check"]) // every
        st["last_check"] += due * every
        if in_lair(zone):
            due *= 2  # at the start and at the end of each 10 minutes
        if st["loud"]:
            st["loud"] = False
            due += 1
        return due

    def encounter_happens(self, game: Game) -> bool:
        st = game.state.rules.get(KEY) or self.st(game)
        hit = False
        if "immediate" in st:
            for noise in st.pop("immediate"):  # door noise (4): rolled at once, some steps up
                self.add_step(game, noise["amount"], checks=1, why=noise["why"])
                hit = self.roll_check(game, noise["why"]) or hit
        for _ in range(self.due_checks(game)):
            hit = self.roll_check(game, "interval") or hit
        if hit and st["pace"] == "stealth" and st["slip"]:
            game.emit("encounter_end", result="slipped past unseen (stealth crawl)")
            return False
        return hit

    def encounter(self, game: Game, foes: list[Foe], text: str) -> str:
        st = game.state.rules.get(KEY) or self.st(game)
        st["ran"] = False
        if st.pop("ambush", False):  # a watch that missed them (7): no reaction, no warning
            game.emit("surprise", rolls=[], chance=6, surprised=True)  # ambushed in your sleep
            result = self.base.fight(game, foes, surprised=True)
        else:
            result = self.base.encounter(game, foes, text)
        if result == FLED and not st["ran"]:
            self.ran(game)
        return result

    def ran(self, game: Game) -> None:
        """Running away is loud (2.2, "running, shouting"): +1 step until the next check."""
        self.st(game)["ran"] = True
        self.add_step(game, 1, checks=1, why="running away")

    def fight(self, game: Game, foes: list[Foe], *, surprised: bool = False) -> str:
        return self.base.fight(game, foes, surprised=surprised)

    def _after_fight(self, game: Game, foes: list[Foe], result: str) -> str:
        """A fight is loud: combat noise for 20 minutes, a check, +1 alarm; the dead leave a trail."""
        st = game.state.rules.get(KEY) or self.st(game)
        self.add_step(game, 1, minutes=20, why="combat noise")
        st["loud"] = True
        self.raise_alarm(game, 1, "a loud fight")
        if result == WON and any(f.hp <= 0 for f in foes):
            st["blood"] = True
        if result == WON:
            from dtc.systems.dungeon_rules.loot import loot

            loot(self, game, foes)
        if result == FLED:
            self.ran(game)
        return result

    def gear_used(self, game: Game, item: str) -> None:
        """Metal on stone: +1 step until the next check (+2 at a careful sweep, noisy with tools)."""
        self.add_step(game, 2 if self.st(game)["pace"] == "careful" else 1, checks=1, why=f"noise ({item})")

    # --- arrival: pace and hazards ------------------------------------------------------------

    def on_entry(self, game: Game, entry: Entry) -> None:
        self.base.on_entry(game, entry)
        st = game.state.rules.get(KEY) or self.st(game)
        zone = self.zone(game)
        if st["pace_zone"] != zone.key:
            st["pace_zone"] = zone.key
            self.choose_pace(game, zone)
        if entry.get("hazards"):
            from dtc.systems.dungeon_rules.hazards import meet_hazards

            meet_hazards(self, game, entry)

    def choose_pace(self, game: Game, zone: dr.Zone) -> None:
        st = game.state.rules.get(KEY) or self.st(game)
        order = ["careful", "standard", "stealth", "fast"] if careful(game) else ["standard", "fast", "careful",
                                                                                   "stealth"]
        if careful(game) and zone.top <= 1:
            order = ["standard", "careful", "stealth", "fast"]
        if not st.get("spent"):
            order.append("forced")
        n = game.pick(PACE, len(order))
        if n is not None:
            pace = order[n]
        else:
            opts = _pace_options(tuple(order))
            top = self.danger(game)
            q = Question(PACE, f"{zone.title} (a check every {zone.interval} minutes, danger {danger_text(top)}). "
                               "Your pace?", opts, {"zone": zone.key})
            pace = game.ask(q).key.split(":")[1]
        st["pace"] = pace
        if not game.skip("pace"):
            game.emit("pace", pace=pace, minutes=dr.PACES[pace].minutes, why=zone.key)

    # --- rest -------------------------------------------------------------------------------

    def rest_label(self, game: Game) -> str:
        return "Rest (catch breath, short, long, or fortify a camp)"

    def rest_blocked(self, game: Game) -> str | None:
        return None

    def can_rest_now(self, game: Game) -> bool:
        return True

    def rest(self, game: Game) -> str | None:
        from dtc.systems.dungeon_rules.hazards import rest

        rest(self, game)
        return None

    def short_rested(self, game: Game) -> None:
        """A short rest ends a forced march's danger steps and its exhaustion (1, 2.2)."""
        st = game.state.rules.get(KEY) or self.st(game)
        st["steps"] = [s for s in st["steps"] if s["why"] != "forced march"]
        st["spent"] = False
        st["forced_minutes"] = 0

    def rest_order(self, game: Game) -> list[str]:
        pc, st = game.pc, self.st(game)
        if pc.hp * 3 <= pc.max_hp and careful(game):
            order = ["camp", "long", "short", "breath"] if not st["camp"] and pc.count(RATIONS) > 1 else [
                "long", "short", "breath", "camp"]
        else:
            order = ["short", "breath", "long", "camp"]
        return order


__all__ = ["FLED", "DungeonRules"]
