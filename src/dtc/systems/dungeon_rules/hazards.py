"""Dungeon Rules hazards and rests at play time.

Hazards (seed, 3 and 3.7): an entry's hazards are met when it is read, in order. A careful sweep or
a stealth crawl spots them (the check is one step easier, D−1, and listed mitigation gear may be
used instead); a fast push does not (one step harder, D+1, and no mitigation). Mitigating takes
10 minutes and makes noise (an encounter check) and removes the hazard for 1d6 hours (3.7);
clearing it takes 1d6 × 10 minutes with an encounter check during the work, and it is gone. A
check is a d20 at or under the better of the hazard's abilities (Dungeon Rules scores); failing
it, the damage dice in the Fail text are rolled, "alarm" in it trips an alarm, "noise" in it
adds a danger step, and the rest of the text is shown for the player to rule on. A triggered
hazard stays: it is met again on the next visit.

Rests (seed, 7): catch your breath (5 minutes, one check), a short rest (30 minutes through
the zone's checks, then the base game's short recovery; the next two checks +1 step), a long
rest (8 hours in four 2-hour watches through the zone's encounter checks, a Perception roll
each watch deciding whether what comes is an ambush; then the base game's night — its ration,
its chips — and every HP, whatever the base (ruling ``long-rest: full``; ``base``: the base's
night alone); the first three checks +2 steps), or fortifying a safe camp (an hour and a ration: the next rest's
steps are one lower). A catch of breath, a short rest or a camp an encounter interrupts gives
nothing; a long rest goes on after an encounter unless you flee.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

import dtc.systems.dungeon_rules.ruleset as dr
from dtc.compiled.graphjson import Entry, Hazard
from dtc.runtime.core import Option, Question
from dtc.runtime.dice import DiceError, percent
from dtc.runtime.equipment import RATIONS
from dtc.runtime.ruleset import FLED, careful

if TYPE_CHECKING:
    from dtc.runtime.game import Game
    from dtc.systems.dungeon_rules.play import DungeonRules

HAZARD = "hazard"  # question kind
DAMAGE = re.compile(r"(?<![\w])([0-9]*d[0-9]+(?:\s*[+-]\s*[0-9]+)?)(?![\w])", re.I)
MITIGATE_MINUTES = 10
WATCHES = 4


def definition(game: Game, entry: Entry, name: str) -> Hazard | None:
    """The hazard a name places: the one defined in this entry, else the first of that name (found
    once per entry and name while the graph's hazards are not changed)."""
    hazards = game.graph.get("hazards", [])
    known = _DEFINITIONS.get(id(hazards))
    if known is None or known[0] is not hazards or known[1] != len(hazards):
        if len(_DEFINITIONS) >= 8:
            _DEFINITIONS.clear()
        known = _DEFINITIONS[id(hazards)] = (hazards, len(hazards), {})
    key = (entry["number"], name)
    if key in known[2]:
        return known[2][key]
    found = [h for h in hazards if h["name"].lower() == name.lower()]
    own = [h for h in found if h["entry"] == entry["number"]]
    result = known[2][key] = own[0] if own else found[0] if found else None
    return result


#: Per list of hazards (by id, the list kept so the id is not reused): its length and what
#: :func:`definition` found per (entry, name).
_DEFINITIONS: dict[int, tuple[list[Hazard], int, dict[tuple[int, str], Hazard | None]]] = {}


def gear_for(game: Game, hazard: Hazard) -> str | None:
    """An item the adventurer carries that the hazard's mitigation names."""
    wanted = [m.lower() for m in hazard["mitigation"]]
    for item in game.pc.items:
        name = item.key
        if item.quantity > 0 and any(w in name or name in w for w in wanted):
            return item.name
    return None


def meet_hazards(rules: DungeonRules, game: Game, entry: Entry) -> None:
    st = rules.st(game)
    for name in entry["hazards"]:
        hazard = definition(game, entry, name)
        key = f"{entry['number']}:{name.lower()}"
        if hazard is None or key in st["cleared"] or st.get("mitigated", {}).get(key, -1) > st["minutes"]:
            continue
        if hazard["error"] is not None or hazard["check"] is None or not hazard["check"]["abilities"]:
            game.emit("manual", text=f"Hazard {name}: the book gives no usable check; your ruling.")
            continue
        _meet(rules, game, hazard, key)
        if game.state.pending is not None:
            return


def _meet(rules: DungeonRules, game: Game, hazard: Hazard, key: str) -> None:
    st = rules.st(game)
    pace = st["pace"]
    check = hazard["check"]
    assert check is not None  # meet_hazards passes only hazards with a check
    base_d = check["difficulty"] or 2
    d = max(1, base_d - 1) if pace in ("careful", "stealth") else min(3, base_d + 1) if pace == "fast" else base_d
    abilities = [a for a in check["abilities"] if _has(rules, game, a)] or ["LUCK"]
    best = max(abilities, key=lambda a: rules.score(game.pc, a) + rules.perception(game, a))
    mod = rules.perception(game, best)  # light and water (8.1, 8.3) on a WIS (Perception) roll
    name = hazard["name"]
    unseen = pace == "fast" or rules.blind(game)  # a fast push, or key details impossible (8.1)
    if not game.skip("hazard"):
        game.emit("hazard", name=name, stage="met", difficulty=d, pace=pace, telltales=hazard["telltales"])
    gear = gear_for(game, hazard) if not unseen else None
    if gear is not None:
        p = rules.d20(game.pc, best, d, mod)
        first = careful(game) or p < 1
        n = game.pick(HAZARD, 3)
        if n is not None:
            answer = (_MITIGATE_FIRST if first else _FACE_FIRST)[n]
        else:
            seen = f" ({hazard['telltales']})" if hazard["telltales"] and not unseen else ""
            face = Option("face", f"Face it: d20 ≤ {best} {rules.score(game.pc, best)}{dr.MODIFIERS[d] + mod:+d}",
                          f"{percent(p)}; on a failure: {hazard['fail'] or 'the book does not say'}", chance=p)
            use = Option("mitigate", f"Deal with it using your {gear} ({MITIGATE_MINUTES} minutes, noisy)",
                         "no check; removed for 1d6 hours")
            clear = Option("clear", f"Clear it for good with your {gear} (10-60 minutes)",
                           "no check; an encounter check during the work")
            opts = (use, face, clear) if first else (face, use, clear)
            answer = game.ask(Question(HAZARD, f"Hazard: {name}{seen}", opts, {"hazard": name})).key
        if answer == "mitigate":
            rules.pass_minutes(game, MITIGATE_MINUTES)
            st["loud"] = True
            hours = game.dice.die(6)
            st.setdefault("mitigated", {})[key] = st["minutes"] + hours * 60
            game.emit("hazard", name=name, stage="mitigated", gear=gear, hours=hours)
            return
        if answer == "clear":
            _clear(rules, game, hazard, key, gear)
            return
    if rules.d20_check(game, best, d, f"hazard: {name}", mod):
        game.emit("hazard", name=name, stage="passed", text=hazard["pass"])
        return
    game.emit("hazard", name=name, stage="triggered", text=hazard["fail"])
    _fail(rules, game, hazard)


#: The keys of a hazard's three ways, in the order they are offered (mitigation first for the careful).
_MITIGATE_FIRST = ("mitigate", "face", "clear")
_FACE_FIRST = ("face", "mitigate", "clear")


def _clear(rules: DungeonRules, game: Game, hazard: Hazard, key: str, gear: str) -> None:
    """Clearing a hazard (3.7): "Tools or magic; 10–60 minutes; roll encounter once during work".
    The work takes 1d6 × 10 minutes (dtc's reading of the range); an encounter that comes is met,
    and fleeing from it leaves the hazard as it was."""
    roll = game.dice.roll("1d6")
    game.emit("roll", dice="1d6x10", rolls=list(roll.dice), total=roll.total * 10,
              why=f"minutes clearing the {hazard['name']}")
    rules.pass_minutes(game, roll.total * 10)
    met = rules.roll_check(game, f"clearing the {hazard['name']}") and game.graph["encounters"]
    if met and game.wandering() == FLED:
        game.flee()
        return
    rules.st(game)["cleared"].append(key)
    game.emit("hazard", name=hazard["name"], stage="cleared", gear=gear)


def _has(rules: DungeonRules, game: Game, ability: str) -> bool:
    try:
        rules.score(game.pc, ability)
    except KeyError:
        return False
    return True


def _fail(rules: DungeonRules, game: Game, hazard: Hazard) -> None:
    text = hazard["fail"] or ""
    low = text.lower()
    if "alarm" in low:
        rules.trip_alarm(game, f"hazard: {hazard['name']}")
    elif "noise" in low or "noisy" in low:
        rules.add_step(game, 1, checks=1, why=f"hazard: {hazard['name']}")
    rest = DAMAGE.sub("", text).strip(" ,;.")
    m = DAMAGE.search(text)
    if m is not None:
        try:
            roll = game.dice.roll(m.group(1).replace(" ", ""))
        except DiceError:
            roll = None
        if roll is not None:
            game.emit("roll", dice=roll.expr, rolls=list(roll.dice), total=roll.total, why=text)
            if rest:
                game.emit("manual", text=f"{hazard['name']}: {text}")
            game.damage(max(0, roll.total), f"hazard: {hazard['name']}")
            return
    game.emit("manual", text=f"{hazard['name']}: {text or 'the hazard is triggered'}")


# --- rests ------------------------------------------------------------------------------------


_REST_TITLES = {"breath": "Catch your breath", "short": "Short rest", "long": "Long rest",
                "camp": "Fortify a safe camp"}


@lru_cache(maxsize=16)
def _rest_option(kind: str) -> Option:
    """One way to rest as an option (made once: options are immutable)."""
    minutes, what, risk = dr.RESTS[kind]
    return Option(f"rest:{kind}", f"{_REST_TITLES[kind]} ({minutes} minutes)", f"{what}; risk: {risk}")


def rest(rules: DungeonRules, game: Game) -> None:
    rations = game.pc.count(RATIONS) > 0
    kinds = [kind for kind in rules.rest_order(game) if kind != "camp" or rations]
    n = game.pick("rest-type", len(kinds))
    if n is not None:
        kind = kinds[n]
    else:
        opts = tuple(_rest_option(kind) for kind in kinds)
        kind = game.ask(Question("rest-type", "How do you rest?", opts)).key.split(":")[1]
    game.clock("rest")
    st = rules.st(game)
    relief = 1 if st["camp"] and kind in ("short", "long") else 0
    if kind in ("short", "long"):
        st["camp"] = False
    if not game.skip("rest"):
        game.emit("rest", rolls=[], rests_today=0, rest=kind)
    if kind == "breath":
        rules.pass_minutes(game, dr.RESTS["breath"][0])
        if rules.roll_check(game, "catching breath"):
            _interrupted(game)
        return
    if kind == "camp":
        game.pc.use(RATIONS)
        game.emit("item", action="used", name=RATIONS, quantity=1, why="fortifying a camp")
        if _through(rules, game, dr.RESTS["camp"][0]):
            return
        st["camp"] = True
        return
    if kind == "short":
        if _through(rules, game, dr.RESTS["short"][0]):
            return
        rules.base.recover(game, "short")
        rules.short_rested(game)
        if 1 - relief > 0:
            rules.add_step(game, 1 - relief, checks=2, why="short rest")
        return
    if not _long_rest(rules, game):
        return
    rules.base.recover(game, "long")
    if rules.rulings.get("long-rest", "full") == "full" and game.pc.hp < game.pc.max_hp:
        # 7: "Full HP and ability refresh per your class rules" — every HP, whatever the base
        game.heal(game.pc.max_hp - game.pc.hp, "a long rest: full HP")
    rules.short_rested(game)  # a long rest is at least a short one
    if 2 - relief > 0:
        rules.add_step(game, 2 - relief, checks=3, why="long rest")


def _long_rest(rules: DungeonRules, game: Game) -> bool:
    """Eight hours in four 2-hour watches (7, "Camp Procedures"). The zone's encounter schedule
    runs on (2.1: a check at each of its intervals, two per 10 minutes in a lair). Each watch the
    watcher rolls Perception (WIS d20, with the entry's light and water); an encounter in a watch
    whose roll failed is an ambush (a surprised fight), one in a watch whose roll passed is met
    awake. The rest goes on after an encounter dealt with; fleeing ends it. True when it ends
    whole."""
    st = rules.st(game)
    watch = dr.RESTS["long"][0] // WATCHES
    for n in range(WATCHES):
        awake = rules.d20_check(game, dr.PERCEPTION, 2, f"watch {n + 1}: Perception",
                                 rules.perception(game, dr.PERCEPTION))
        rules.pass_minutes(game, watch, base_turns=False)
        for _ in range(rules.due_checks(game)):
            if not rules.roll_check(game, f"watch {n + 1}") or not game.graph["encounters"]:
                continue
            st["ambush"] = not awake
            result = game.wandering()
            st.pop("ambush", None)
            if result == FLED:
                game.emit("manual", text="You flee your camp: the rest is lost.")
                game.flee()
                return False
    return True


def _through(rules: DungeonRules, game: Game, minutes: int) -> bool:
    """Pass ``minutes`` with the zone's checks; True when an encounter interrupted."""
    rules.pass_minutes(game, minutes)
    hit = False
    for _ in range(rules.due_checks(game)):
        hit = rules.roll_check(game, "resting") or hit
    return hit and _interrupted(game)


def _interrupted(game: Game) -> bool:
    if not game.graph["encounters"]:
        return False
    if game.wandering() == FLED:
        game.flee()
    return True
