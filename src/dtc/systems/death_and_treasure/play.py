"""Death & Treasure v0.1, automated: every number and procedure of the seed's rules lives here.

Readings where the text leaves room (documented in ``docs/play.md``):

* Encumbrance ("roll twice, keep the worse") applies to the adventurer's own rolls: checks,
  attacks, defense, damage dealt, healing, initiative, surprise, reaction and escape. The world's
  rolls (encounter checks and tables, the Oracle, creatures' damage and morale) are rolled once.
* A check the prose asks for without a difficulty ("Make a DEX check") is rolled at D1 (2d6).
* Lighting the lantern at the start uses the first of the three flasks.
* The sixth turn in the dark is the last: after it, without light, the adventurer is lost.
* The CHA reaction modifier is applied as written (-1 above 13, +1 below 8); the ruling
  ``cha-reaction: helps`` turns it round.
* An encounter row of two groups at odds ("Goblins fighting Giant Frogs", "chasing", "hunting",
  "versus") meets the adventurer as two groups busy with each other: no surprise or reaction
  roll; slip past, or join the fight against one group (the other keeps to its own quarrel).
* Dropped food distracts only unintelligent creatures, dropped treasure only intelligent ones
  (seed, "What's Next?"): a block's ``INT`` (or ``Intelligence``) field, 3 or more being
  intelligent, says which; without one the player is asked (or asks the Oracle), once a creature.
* Reading an entry costs a turn and an encounter check (ruling ``same-room: turn``); with
  ``same-room: free`` the entry reached by an action's success or failure costs none of its own
  (the action's plan already says whether it took a turn).
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

import dtc.systems.death_and_treasure.combat as combat
from dtc.probability import worse_of_two
from dtc.runtime.character import ABILITIES, Character, high_low
from dtc.runtime.core import ENCOUNTER, ESCAPE, LANGUAGE, Chooser, Option, Question, RunEnded
from dtc.runtime.dice import Dice, Roll, percent, prob_at_most
from dtc.runtime.equipment import COINS, LANTERN, OIL, RATIONS, Item, standard_gear
from dtc.runtime.ruleset import FLED, OVER, WON, Rules
from dtc.systems.death_and_treasure.combat import morale_breaks

if TYPE_CHECKING:
    from dtc.runtime.foes import Foe
    from dtc.runtime.game import Game

CHECK_DICE = {1: "2d6", 2: "3d6", 3: "4d6"}
REQUIREMENTS = ("turn", "gear", "check")
PROSE_DIFFICULTY = 1
ENCOUNTER_IN_SIX = 1
DISTRACT_IN_SIX = 3
LANTERN_TURNS = 24
DARK_TURNS = 6
RESTS_PER_DAY = 3
TURNS_PER_DAY = 144  # 24 hours of 10-minute turns
HOSTILE_MAX, FRIENDLY_MIN = 4, 10


def surprise_chance(wis: int) -> int:
    """In six: 2, or 1 with WIS above 13, 3 with WIS below 8."""
    return 2 - high_low(wis)


def reaction_modifier(cha: int, reading: str = "as-written") -> int:
    """As written: -1 to reaction rolls with CHA above 13, +1 below 8 (``helps``: the reverse)."""
    return high_low(cha) if reading == "helps" else -high_low(cha)


#: Words in an encounter row that set its two groups against each other.
RIVALS = re.compile(r"\s(fighting|chasing|hunting|versus|vs\.?|against)\s", re.I)
INTELLIGENT_AT = 3


@lru_cache(maxsize=1024)
def _rivals_at(text: str) -> tuple[int, int] | None:
    """Where the words setting a row's groups at odds stand in it (None: they do not), once per text."""
    found = RIVALS.search(text)
    return None if found is None else (found.start(), found.end())


def rival_sides(foes: list[Foe], text: str) -> tuple[list[Foe], list[Foe]] | None:
    """The two groups of a row like ``1d4 Goblins fighting 1d4 Giant Frogs``, else None."""
    found = _rivals_at(text)
    if found is None:
        return None
    start, end = found
    left, right = text[:start].lower(), text[end:].lower()

    def side(f: Foe) -> str:
        name = (f.creature or f.name).lower()
        return "left" if name in left else "right" if name in right else ""

    first = [f for f in foes if side(f) == "left"]
    second = [f for f in foes if side(f) == "right"]
    if not first or not second or len(first) + len(second) != len(foes):
        return None
    return first, second


def reaction_band(total: int) -> str:
    if total <= HOSTILE_MAX:
        return "hostile"
    return "friendly" if total >= FRIENDLY_MIN else "neutral"


def meet_rivals(rules: Rules, game: Game, sides: tuple[list[Foe], list[Foe]], text: str) -> str:
    """Two groups at each other's throats ignore you: slip past, or join in against one side.

    dtc's ruling for every system (the seeds' encounter rows "X fighting Y" say no more).
    """
    first, second = sides
    game.emit("manual", text=f"{text}: they are busy with each other and pay you no heed.")
    opts = (Option("carry-on", "Slip past while they fight"),
            Option("fight", f"Attack the {first[0].name.rstrip(' 0123456789')}", tags=frozenset({"fight"})),
            Option("fight:2", f"Attack the {second[0].name.rstrip(' 0123456789')}", tags=frozenset({"fight"})))
    q = Question(ENCOUNTER, f"{text}: what do you do?", opts, {"reaction": "busy", "foes": [
        f.name for f in first + second]})
    key = game.ask(q).key
    if key == "carry-on":
        game.emit("encounter_end", result="slipped past")
        return OVER
    return rules.fight(game, first if key == "fight" else second)


@lru_cache(maxsize=1024)
def _encounter_options(band: str, talk: Fraction | None, flee: Fraction) -> tuple[Option, ...]:
    """What to do when creatures are not hostile (``talk`` None: talking was tried), once per what
    the options show."""
    opts = [Option("carry-on", "Carry on (they are " + band + ")")]
    if talk is not None:
        opts.append(Option("talk", "Talk", f"CHA check {percent(talk)}", chance=talk))
    opts.append(Option("fight", "Fight", tags=frozenset({"fight"})))
    opts.append(Option("flee", "Flee", f"DEX check {percent(flee)}"))
    return tuple(opts)


@lru_cache(maxsize=256)
def _escape_options(run: Fraction, food: bool, treasure: bool) -> tuple[Option, ...]:
    """The ways to get away, once per what they show."""
    opts = [Option("run", "Run", f"DEX check {percent(run)}")]
    if food:
        opts.append(Option("food", "Drop food (a ration; distracts unintelligent creatures 3-in-6)"))
    if treasure:
        opts.append(Option("treasure", "Drop treasure (distracts intelligent creatures 3-in-6)"))
    return tuple(opts)


#: Yes, no, or the Oracle decides: made once (options are immutable).
_YES_NO_ORACLE = (Option("yes", "Yes"), Option("no", "No"), Option("oracle", "Ask the Oracle"))
#: The keys of :func:`_encounter_options`, in order, before and after talking.
_NOT_TALKED = ("carry-on", "talk", "fight", "flee")
_TALKED = ("carry-on", "fight", "flee")
#: The keys of :func:`_escape_options`, in order, per (food to drop, treasure to drop).
_ESCAPE_WAYS = {(food, treasure): ("run", *(("food",) if food else ()), *(("treasure",) if treasure else ()))
                for food in (False, True) for treasure in (False, True)}


#: The ways to meet each difficulty: none for D0, then one, two or all three of turn, gear, check.
_PLANS: dict[int, list[tuple[str, ...]]] = {0: [()], **{d: list(combinations(REQUIREMENTS, d)) for d in CHECK_DICE}}


def _intelligence(stats: dict[str, int]) -> int | None:
    """A stat block's INT (or Intelligence), None when it gives none: read once per block's stats
    (kept with the dict, so its id is not reused while remembered, and a copy of it: a dict
    changed since is read again)."""
    found = _INTELLIGENCE.get(id(stats))
    if found is not None and found[0] is stats and found[1] == stats:
        return found[2]
    lowered = {k.lower(): v for k, v in stats.items()}
    score = lowered.get("int", lowered.get("intelligence"))
    if len(_INTELLIGENCE) >= 1024:
        _INTELLIGENCE.clear()
    _INTELLIGENCE[id(stats)] = (stats, dict(stats), score)
    return score


_INTELLIGENCE: dict[int, tuple[dict[str, int], dict[str, int], int | None]] = {}


class DeathAndTreasure(Rules):
    name = "death-and-treasure"
    title = "Death & Treasure"
    abilities = ABILITIES

    def new_character(self, dice: Dice) -> Character:
        """A random adventurer made as "Making an Adventurer" says (:mod:`.creation`)."""
        from dtc.systems.death_and_treasure.creation import random_character

        return random_character(dice)

    def create_character(self, dice: Dice, chooser: Chooser) -> Character:
        """An adventurer made step by step as "Making an Adventurer" says, the decisions the ``chooser``'s."""
        from dtc.systems.death_and_treasure.creation import make_character

        return make_character(dice, chooser)

    def kit(self) -> list[Item]:
        """The standard kit every adventurer carries ("Equipment and Encumbrance")."""
        return standard_gear()

    # --- rolls ---------------------------------------------------------------------------

    def pc_roll(self, game: Game, expr: str, *, high_is_bad: bool) -> tuple[Roll, list[Roll]]:
        """The adventurer's roll; encumbered, it is made twice and the worse kept."""
        first = game.dice.roll(expr)
        if not game.pc.encumbered:
            return first, [first]
        second = game.dice.roll(expr)
        pick = max if high_is_bad else min
        return pick(first, second, key=lambda r: r.total), [first, second]

    def pc_total(self, game: Game, expr: str, *, high_is_bad: bool) -> int:
        """The total :meth:`pc_roll` keeps, the same dice drawn, no roll built."""
        dice = game.dice
        first = dice.total(expr)
        if not game.pc.encumbered:
            return first
        second = dice.total(expr)
        if high_is_bad:
            return first if first >= second else second
        return first if first <= second else second

    @staticmethod
    def rolls(rolls: list[Roll]) -> list[list[int]]:
        return [list(r.dice) for r in rolls]

    # --- taking action -------------------------------------------------------------------

    def plans(self, difficulty: int) -> list[tuple[str, ...]] | None:
        """The ways per difficulty, made once (a list the caller reads, never changes)."""
        return _PLANS.get(difficulty)

    def check_chance(self, pc: Character, ability: str, difficulty: int, modifier: int = 0) -> Fraction:
        dice = CHECK_DICE.get(difficulty, CHECK_DICE[PROSE_DIFFICULTY])
        p = prob_at_most(dice, pc.score(ability) - modifier)
        return worse_of_two(p) if pc.encumbered else p

    def odds_key(self, pc: Character, ability: str | None) -> Hashable:
        """A check's odds read the score (every score, for the best ability) and whether the adventurer
        is encumbered."""
        if ability in self.abilities:
            return pc.score(ability), pc.encumbered
        return tuple(pc.abilities.items()), tuple(pc.stats.items()), pc.encumbered

    def check_text(self, pc: Character, ability: str, difficulty: int) -> str:
        dice = CHECK_DICE.get(difficulty, CHECK_DICE[PROSE_DIFFICULTY])
        twice = ", twice (encumbered)" if pc.encumbered else ""
        return f"{dice} ≤ {ability} {pc.score(ability)}{twice}: {percent(self.check_chance(pc, ability, difficulty))}"

    def check(self, game: Game, ability: str, difficulty: int | None, why: str, modifier: int = 0) -> bool:
        d = difficulty if difficulty in CHECK_DICE else PROSE_DIFFICULTY
        assert d is not None
        if not game.reads("check"):  # the same dice, drawn without building the rolls nobody reads
            ok = self.pc_total(game, CHECK_DICE[d], high_is_bad=True) + modifier <= game.pc.score(ability)
            game.skip("check")
            return ok
        roll, rolls = self.pc_roll(game, CHECK_DICE[d], high_is_bad=True)
        score = game.pc.score(ability)
        ok = roll.total + modifier <= score
        if not game.skip("check"):
            game.emit("check", ability=ability, difficulty=d, dice=CHECK_DICE[d], rolls=self.rolls(rolls),
                      total=roll.total + modifier, target=score, success=ok, why=why)
        return ok

    # --- time, light, rest ----------------------------------------------------------------

    def begin(self, game: Game) -> None:
        st = game.state.rules
        st.update(light=0, dark=0, rest_day=0, rests=0)
        self._relight(game, "light")

    def _relight(self, game: Game, action: str) -> bool:
        pc = game.pc
        if pc.find(LANTERN) is None or not pc.use(OIL):
            return False
        game.state.rules.update(light=LANTERN_TURNS, dark=0)
        if not game.skip("light"):
            game.emit("light", action=action, turns=LANTERN_TURNS, flasks=pc.oil)
        return True

    def turn_passed(self, game: Game) -> None:
        st = game.state.rules
        if st["light"] > 0:
            st["light"] -= 1
            if st["light"] == 0 and not self._relight(game, "refill"):
                game.emit("light", action="out", turns=0, flasks=game.pc.oil)
            return
        if self._relight(game, "relight"):
            return
        st["dark"] += 1
        game.emit("dark", turns=st["dark"], limit=DARK_TURNS)
        if not self.check(game, "WIS", None, "keep your head in the dark"):
            raise RunEnded("lost", f"failed a WIS check after {st['dark']} turn(s) in the dark")
        if st["dark"] >= DARK_TURNS:
            raise RunEnded("lost", f"{DARK_TURNS} turns without light")

    def can_see(self, game: Game) -> bool:
        return int(game.state.rules.get("light", 0)) > 0

    def status(self, game: Game) -> str:
        st = game.state.rules
        if st.get("light", 0) > 0:
            return f"light {st['light']} (+{game.pc.oil} flask{'s' if game.pc.oil != 1 else ''})"
        return f"DARK {st.get('dark', 0)}/{DARK_TURNS}"

    def adjust(self, game: Game, words: list[str]) -> str | None:
        """``light N``: a light source found (N turns)."""
        if len(words) == 2 and words[0] == "light" and words[1].isdigit():
            game.state.rules.update(light=int(words[1]), dark=0)
            game.emit("light", action="found", turns=int(words[1]), flasks=game.pc.oil)
            return f"light for {words[1]} turns"
        return None

    def rest_blocked(self, game: Game) -> str | None:
        pc, st = game.pc, game.state.rules
        if not pc.can_rest:
            return "resting needs a ration and a waterskin"
        if pc.hp >= pc.max_hp:
            return "you are not hurt"
        if st.get("rest_day") == game.state.turn // TURNS_PER_DAY and st.get("rests", 0) >= RESTS_PER_DAY:
            return f"you have rested {RESTS_PER_DAY} times today"
        return None

    def can_rest_now(self, game: Game) -> bool:
        """Whether :meth:`rest_blocked` finds nothing, the cheapest test first (an unhurt adventurer)."""
        pc = game.pc
        if pc.hp >= pc.max_hp or not pc.can_rest:
            return False
        st = game.state.rules
        return not (st.get("rest_day") == game.state.turn // TURNS_PER_DAY and st.get("rests", 0) >= RESTS_PER_DAY)

    def rest(self, game: Game) -> str | None:
        why = self.rest_blocked(game)
        if why is not None:
            return why
        pc, st = game.pc, game.state.rules
        day = game.state.turn // TURNS_PER_DAY
        if st.get("rest_day") != day:
            st.update(rest_day=day, rests=0)
        if st["rests"] == 0:
            pc.use(RATIONS)
            game.emit("item", action="used", name=RATIONS, quantity=1, why="a day's ration for resting")
        st["rests"] += 1
        if not game.spend_turn("rest"):
            return None
        roll, rolls = self.pc_roll(game, "d4", high_is_bad=False)
        game.emit("rest", rolls=self.rolls(rolls), rests_today=st["rests"])
        game.heal(roll.total, "rest")
        return None

    # --- encounters ----------------------------------------------------------------------

    def encounter_happens(self, game: Game) -> bool:
        roll, hit = game.dice.in_six(ENCOUNTER_IN_SIX)
        if not game.skip("encounter_check"):
            game.emit("encounter_check", roll=roll, encounter=hit)
        return hit

    def arrival_costs_turn(self, game: Game, how: str, plan: tuple[str, ...] | None) -> bool:
        """Ruling ``same-room``: ``turn`` (every entry read costs one) or ``free`` (not after an action)."""
        return self.rulings.get("same-room", "turn") == "turn" or not plan or how not in ("success", "failure")

    def encounter(self, game: Game, foes: list[Foe], text: str) -> str:
        sides = rival_sides(foes, text)
        if sides is not None:
            return meet_rivals(self, game, sides, text)
        pc = game.pc
        chance = surprise_chance(pc.score("WIS"))
        if game.reads("surprise"):
            roll, rolls = self.pc_roll(game, "d6", high_is_bad=False)
            surprised = roll.total <= chance
            if not game.skip("surprise"):
                game.emit("surprise", rolls=self.rolls(rolls), chance=chance, surprised=surprised)
        else:  # the same dice, drawn without building the rolls nobody reads
            surprised = self.pc_total(game, "d6", high_is_bad=False) <= chance
            game.skip("surprise")
        mod = reaction_modifier(pc.score("CHA"), self.rulings.get("cha-reaction", "as-written"))
        if game.reads("reaction"):
            roll, rolls = self.pc_roll(game, "2d6", high_is_bad=False)
            band = reaction_band(roll.total + mod)
            if not game.skip("reaction"):
                game.emit("reaction", rolls=self.rolls(rolls), modifier=mod, total=roll.total + mod, reaction=band)
        else:
            band = reaction_band(self.pc_total(game, "2d6", high_is_bad=False) + mod)
            game.skip("reaction")
        if band == "hostile":
            return self.fight(game, foes, surprised=surprised)
        talked = False
        while True:
            keys = _TALKED if talked else _NOT_TALKED  # the options' keys, in order
            n = game.pick(ENCOUNTER, len(keys))
            if n is None:
                opts = self._encounter_choices(pc, band, talked)
                q = Question(ENCOUNTER, f"{text}: they are {band}. What do you do?", opts,
                             {"reaction": band, "foes": [f.name for f in foes]})
                key = game.ask(q).key
            else:
                key = keys[n]
            if key == "carry-on":
                game.emit("encounter_end", result="left alone")
                return OVER
            if key == "fight":
                return self.fight(game, foes)
            if key == "flee":
                return FLED if self.escape(game, foes) else self.fight(game, foes)
            talked = True
            if not self._common_language(game):
                game.emit("talk", success=False, why="no common language")
                continue
            talk_mod = 1 if pc.score("INT") < 8 else 0
            if self.check(game, "CHA", PROSE_DIFFICULTY, "talk", modifier=talk_mod):
                game.emit("talk", success=True, reaction="friendly")
                band = "friendly"
                continue
            band = {"friendly": "neutral", "neutral": "hostile"}[band]
            game.emit("talk", success=False, reaction=band)
            if band == "hostile":
                return self.fight(game, foes)

    def _encounter_choices(self, pc: Character, band: str, talked: bool) -> tuple[Option, ...]:
        """:func:`_encounter_options` for this adventurer, once per the numbers their odds read
        (CHA less the talking penalty, DEX, encumbrance): no fractions hashed."""
        key = (band, talked, pc.score("CHA"), pc.score("INT"), pc.score("DEX"), pc.encumbered)
        known: dict[tuple[object, ...], tuple[Option, ...]] = self.__dict__.setdefault("_encounter_choices_kept", {})
        opts = known.get(key)
        if opts is None:
            talk: Fraction | None = None
            if not talked:
                talk_mod = 1 if pc.score("INT") < 8 else 0
                talk = self.check_chance(pc, "CHA", PROSE_DIFFICULTY, talk_mod)
            opts = _encounter_options(band, talk, self.check_chance(pc, "DEX", 1))
            if len(known) >= 4096:
                known.clear()
            known[key] = opts
        return opts

    def intelligent(self, game: Game, foes: list[Foe]) -> bool:
        """Whether the creatures are intelligent: their blocks' INT, else the player's word (asked once)."""
        known: dict[str, bool] = game.state.rules.setdefault("intelligent", {})
        verdicts = []
        for name in dict.fromkeys(f.creature or f.name for f in foes):
            block = game.block(name)
            score = _intelligence(block["stats"]) if block is not None else None
            if score is not None:
                verdicts.append(int(score) >= INTELLIGENT_AT)
                continue
            if name not in known:
                q = Question(LANGUAGE, f"Are the {name} intelligent (would treasure tempt them more than food)?",
                             _YES_NO_ORACLE)
                key = game.ask(q).key
                known[name] = game.oracle(None, f"Are the {name} intelligent?") if key == "oracle" else key == "yes"
            verdicts.append(known[name])
        return all(verdicts)

    def _common_language(self, game: Game) -> bool:
        q = Question(LANGUAGE, "Do you speak their language?",
                     _YES_NO_ORACLE)
        key = game.ask(q).key
        if key == "oracle":
            return game.oracle(None, "Do we share a language?")
        return key == "yes"

    def escape(self, game: Game, foes: list[Foe]) -> bool:
        """Run: a DEX check, after a 3-in-6 chance that dropped food or treasure distracts them."""
        pc = game.pc
        food, treasure = pc.count(RATIONS) > 0, pc.has_treasure
        ways = _ESCAPE_WAYS[food, treasure]  # the options' keys, in order
        n = game.pick(ESCAPE, len(ways))
        if n is not None:
            key = ways[n]
        else:
            key_of = (pc.score("DEX"), pc.encumbered, food, treasure)
            known: dict[tuple[object, ...], tuple[Option, ...]] = self.__dict__.setdefault("_escape_choices_kept", {})
            opts = known.get(key_of)
            if opts is None:  # once per what the options read (DEX, encumbrance, food, treasure): no fraction hashed
                opts = _escape_options(self.check_chance(pc, "DEX", PROSE_DIFFICULTY), food, treasure)
                if len(known) >= 4096:
                    known.clear()
                known[key_of] = opts
            key = game.ask(Question(ESCAPE, "How do you get away?", opts)).key
        if key != "run":
            self._drop(game, key)
            if (key == "treasure") == self.intelligent(game, foes):
                roll, hit = game.dice.in_six(DISTRACT_IN_SIX)
                game.emit("distract", dropped=key, roll=roll, distracted=hit)
                if hit:
                    game.emit("escape", success=True)
                    return True
            else:
                game.emit("distract", dropped=key, roll=0, distracted=False,
                          why="intelligent creatures" if key == "food" else "unintelligent creatures")
        ok = self.check(game, "DEX", PROSE_DIFFICULTY, "escape")
        game.emit("escape", success=ok)
        return ok

    def _drop(self, game: Game, what: str) -> None:
        pc = game.pc
        if what == "food":
            pc.use(RATIONS)
            game.emit("item", action="dropped", name=RATIONS, quantity=1, why="distraction")
            return
        coins = pc.count(COINS)
        pile = pc.find(COINS) if coins else min(
            (i for i in pc.items if i.kind == "treasure" and i.quantity > 0), key=lambda i: i.worth)
        assert pile is not None
        quantity = pile.quantity
        pc.use(pile.name, quantity)
        game.emit("item", action="dropped", name=pile.name, quantity=quantity, why="distraction")

    def fight(self, game: Game, foes: list[Foe], *, surprised: bool = False) -> str:
        return combat.fight(self, game, foes, surprised=surprised)


__all__ = ["FLED", "OVER", "WON", "DeathAndTreasure", "meet_rivals", "morale_breaks", "reaction_band",
           "rival_sides", "surprise_chance"]
