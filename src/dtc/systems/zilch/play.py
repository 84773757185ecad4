"""Zilch, automated: suit tests with degrees of success, the adventurer, encounters, recovery.

Seed: ``zilch.txt``; the numbers come from :mod:`dtc.systems.zilch.ruleset`. Readings where the seed is
silent or leaves room (``docs/rulesets/zilch.md``):

* D1–D4 are the recommended modifiers +2, ±0, −2, −5. A critical success or failure is logged
  with the check (the book's S/F entries decide what happens).
* Characters: one card 5–10 from each suit's pile (a hand of 25 or less is redrawn); Fighter
  (♣ chips) when ♣ is at least ♠, else Rogue (♠ chips); HP are the Heart chips. Spellcasters are
  not offered: magic is not automated.
* Wandering encounters: 1-in-6 per turn spent (the seed gives no schedule). On one, a ♠ test
  notices them (else a surprise round); then parley (a ♥ test), fight, or flee (a ♠ contest).
* Temporary damage (unarmed blows) goes to a pool: a rally gives 1 HP of it back, a rest or a
  sleep all of it.
* Recovery: rally (about 2 minutes, less than a turn: no turn passes and no encounter is
  checked for; class chips back, −1 per rally marker), rest (an hour, six turns, 50%
  interrupted by a wandering monster; else a marker off, chips back, ♦ First Aid), sleep (8 hours,
  once in 24, only outside: at the entrance; markers off, chips back, 2 HP, 2 ♥ drain off).
* At 0 HP you fall unconscious (seed, *Injury*); every point of damage taken at 0 HP drains ♥
  (and so the Heart chips you can hold); ♥ drained to 0 is death. In a fight the creatures
  finish the round against the Defenseless body, then leave it for dead; a wandering monster
  that finds you unconscious does the same. You come to an hour later, at 0 HP.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

import dtc.systems.zilch.ruleset as z
from dtc.runtime.character import Character
from dtc.runtime.core import ENCOUNTER, Chooser, Option, Question, RunEnded
from dtc.runtime.dice import Dice, percent
from dtc.runtime.equipment import HAND, RANGED, RATIONS, Item
from dtc.runtime.ruleset import FLED, OVER, Rules, careful
from dtc.systems.death_and_treasure.creation import random_name
from dtc.systems.death_and_treasure.play import meet_rivals, rival_sides

if TYPE_CHECKING:
    from dtc.runtime.foes import Foe
    from dtc.runtime.game import Game

SUITS = ("♣", "♠", "♦", "♥")
CLASS_SUIT = {"Fighter": "♣", "Rogue": "♠"}
ENCOUNTER_IN_SIX = 1
REST_TURNS, SLEEP_TURNS, UNCONSCIOUS_TURNS = 6, 48, 6  # ten-minute turns: an hour, 8 hours, an hour
DAY_TURNS = 144  # sleep: once in 24 hours
SLEEP_DRAIN = 2  # drain a night's sleep removes from each suit
REST_INTERRUPTED_IN_SIX = 3
FIRST_AID = {z.CS: 2, z.S: 1, z.F: 0, z.CF: -1}
RECOVERY = "recovery"


def class_of(pc: Character) -> str:
    return next((n.split(":", 1)[1].strip() for n in pc.notes if n.startswith("class:")), "Fighter")


def chip_cap(pc: Character) -> int:
    return pc.abilities[CLASS_SUIT[class_of(pc)]]


def temporary_pool(pc: Character) -> int:
    """HP lost to temporary damage and not yet recovered: never more than the HP missing (healing
    mends lasting wounds first; drain lowering the maximum shrinks it too)."""
    pool = max(0, min(int(pc.stats.get("temporary", 0)), pc.max_hp - pc.hp))
    if pool or "temporary" in pc.stats:
        pc.stats["temporary"] = pool
    return pool


def common_kit() -> list[Item]:
    """What every adventurer carries, whatever the class: rations, rope and torches."""
    return [Item(RATIONS, "gear", 3), Item("Rope", "gear"), Item("Torch", "gear", 3)]


def make_character(dice: Dice, chooser: Chooser | None = None) -> Character:
    """Draw 5–10 from each suit's pile (a hand of 25 or less may be drawn again), then the class.

    Without a ``chooser`` such a hand is always redrawn and the class is the better of ♣ and ♠
    (Fighter on a tie); a chooser (a person) decides both and names the adventurer.
    """
    def hand() -> list[int]:
        return [dice.between(z.CARD_LOW, z.CARD_HIGH) for _ in SUITS]

    def shown(cards: list[int]) -> str:
        return "  ".join(f"{s} {c}" for s, c in zip(SUITS, cards, strict=True)) + f" (total {sum(cards)})"

    cards = hand()
    if chooser is not None:
        chooser.show("Drew one card from each suit's pile: " + shown(cards))
    if sum(cards) <= z.REDRAW_AT_MOST and (chooser is None or chooser.choose(
            f"Your hand totals {sum(cards)}, {z.REDRAW_AT_MOST} or less: draw again?",
            ["Draw a new hand", "Keep this one"]) == 0):
        cards = hand()
        if chooser is not None:
            chooser.show("Drew again: " + shown(cards))
    suits = dict(zip(SUITS, cards, strict=True))
    if chooser is None:
        klass = "Fighter" if suits["♣"] >= suits["♠"] else "Rogue"
    else:
        klass = ("Fighter", "Rogue")[chooser.choose(
            "Choose your class (spellcasters are not automated, so not offered)",
            [f"Fighter: ♣ chips (up to {suits['♣']}), longsword, chain mail and a shield",
             f"Rogue: ♠ chips (up to {suits['♠']}), short sword, shortbow and leather"])]
    suggestion = random_name(dice)
    pc = Character(name=suggestion, abilities=suits, max_hp=suits["♥"], hp=suits["♥"],
                   ruleset=z.ZILCH.name, notes=[f"class: {klass}"])
    pc.stats.update(chips=suits[CLASS_SUIT[klass]], rally=0)
    kit = [Item("Longsword", "weapon", ranges=(HAND,)), Item("Chain mail", "armour", defense=2, slot="body"),
           Item("Shield", "armour", defense=1, slot="shield")] if klass == "Fighter" else [
        Item("Short sword", "weapon", ranges=(HAND,)), Item("Shortbow", "weapon", ranges=(RANGED,)),
        Item("Leather armour", "armour", defense=1, slot="body")]
    for item in (*kit, *common_kit()):
        pc.add(item)
    if chooser is not None:
        pc.name = chooser.name(suggestion).strip() or suggestion
    return pc


@lru_cache(maxsize=1024)
def _check_text(ability: str, score: int, mod: int, skill: int) -> str:
    """A suit test in words with its odds, once per (suit, score, modifier)."""
    degrees = z.degree_probabilities(skill)
    return (f"3d6 (6=0) ≤ {ability} {score}{f'{mod:+d}' if mod else ''}: "
            f"{percent(degrees[z.CS] + degrees[z.S])} (critical {percent(degrees[z.CS])}, "
            f"fumble {percent(degrees[z.CF])})")


class Zilch(Rules):
    name = "zilch"
    title = "Zilch"
    abilities = SUITS
    character_kind = "zilch"

    # --- suit tests ----------------------------------------------------------------------

    def plans(self, difficulty: int) -> list[tuple[str, ...]] | None:
        if difficulty == 0:
            return [()]
        return [("check",)] if difficulty in z.MODIFIERS else None

    def skill(self, pc: Character, suit: str, difficulty: int | None) -> int:
        return pc.score(suit) + z.MODIFIERS.get(difficulty or 2, 0)

    def check_chance(self, pc: Character, ability: str, difficulty: int) -> Fraction:
        return z.p_success(self.skill(pc, ability, difficulty))

    def check_text(self, pc: Character, ability: str, difficulty: int) -> str:
        return _check_text(ability, pc.score(ability), z.MODIFIERS.get(difficulty, 0),
                           self.skill(pc, ability, difficulty))

    def test(self, game: Game, suit: str, difficulty: int | None, why: str) -> tuple[str, int]:
        """Roll a suit test: its degree and the roll."""
        d = difficulty if difficulty in z.MODIFIERS else 2
        roll = game.dice.roll("3d6")
        total = sum([0 if x == 6 else x for x in roll.dice])  # z.die_value: a 6 counts 0
        skill = self.skill(game.pc, suit, d)
        degree = z.degree(total, skill)
        if not game.skip("check"):
            game.emit("check", ability=suit, difficulty=d, dice="3d6 (6=0)", rolls=[list(roll.dice)], total=total,
                      target=skill, success=degree in (z.CS, z.S), why=why, degree=degree)
        return degree, total

    def check(self, game: Game, ability: str, difficulty: int | None, why: str) -> bool:
        return self.test(game, ability, difficulty, why)[0] in (z.CS, z.S)

    # --- the adventurer ------------------------------------------------------------------

    def new_character(self, dice: Dice) -> Character:
        return make_character(dice)

    def create_character(self, dice: Dice, chooser: Chooser) -> Character:
        return make_character(dice, chooser)

    def kit(self) -> list[Item]:
        return common_kit()

    def down(self, game: Game, cause: str, overflow: int = 0) -> None:
        """0 HP: unconscious; damage beyond 0 drains ♥ (seed, *Injury*)."""
        st = game.state.rules
        if overflow:
            self.drain(game, cause, overflow)
        if st.get("unconscious"):
            return
        st["unconscious"] = True
        game.emit("manual", text="You fall unconscious (0 HP): further damage drains Hearts.")
        if not st.get("fighting"):  # in a fight, after the creatures have finished the round
            self.lie_unconscious(game)

    def lie_unconscious(self, game: Game) -> None:
        """An hour out cold; a wandering monster that finds you strikes the helpless body once."""
        game.emit("manual", text="An hour passes.")
        for _ in range(UNCONSCIOUS_TURNS):
            game.clock("unconscious")
            if game.graph["encounters"] and self.encounter_happens(game):
                game.wandering()
        game.state.rules["unconscious"] = False
        game.emit("manual", text="You come to, at 0 HP: further damage drains Hearts.")

    def hurt(self, game: Game, amount: int, cause: str, *, temporary: bool = False) -> None:
        """Take damage; the Heart chips lost to temporary damage (an unarmed blow) go to the temporary
        pool, which resting gives back (seed, *Temporary damage*)."""
        if temporary:
            pc = game.pc
            pc.stats["temporary"] = temporary_pool(pc) + min(amount, pc.hp)
        game.damage(amount, cause)

    def recover_temporary(self, game: Game, most: int | None = None) -> None:
        """Give back the temporary damage pool (``most``: at most that many HP)."""
        pool = temporary_pool(game.pc)
        back = pool if most is None else min(most, pool)
        if back:
            game.pc.stats["temporary"] = pool - back
            game.heal(back, "temporary damage recovered")

    def drain(self, game: Game, cause: str, amount: int) -> None:
        """Damage beyond 0 HP drains ♥ (the Heart chips you can hold fall with it); at 0 you die."""
        pc = game.pc
        pc.abilities["♥"] -= amount
        pc.stats["drain"] = pc.stats.get("drain", 0) + amount
        pc.max_hp = max(1, pc.max_hp - amount)
        pc.hp = min(pc.hp, pc.max_hp)
        game.emit("manual", text=f"Hearts drained to {pc.abilities['♥']} ({cause}).")
        if pc.abilities["♥"] <= 0:
            game.emit("death", cause=cause)
            raise RunEnded("died", f"{cause}: Hearts drained")

    # --- time and recovery ---------------------------------------------------------------

    def begin(self, game: Game) -> None:
        game.state.rules.update(fighting=False, unconscious=False)

    def turn_passed(self, game: Game) -> None:
        if game.pc.hp > 0:
            game.state.rules["unconscious"] = False

    def status(self, game: Game) -> str:
        pc = game.pc
        klass = class_of(pc)
        pool = temporary_pool(pc)
        return (f"{klass} {CLASS_SUIT[klass]} chips {pc.stats.get('chips', 0)}/{chip_cap(pc)}"
                + (f", {pool} HP of temporary damage" if pool else ""))

    def rest_label(self, game: Game) -> str:
        return "Recover (rally, rest an hour, or sleep outside)"

    def _ways(self, game: Game) -> list[Option]:
        pc = game.pc
        ways = []
        cap = chip_cap(pc) - pc.stats.get("rally", 0)
        if pc.stats.get("chips", 0) < cap or temporary_pool(pc):
            ways.append(Option("rally", f"Rally (2 minutes): class chips back to {cap}"
                                        + (", 1 HP of temporary damage back" if temporary_pool(pc) else "")))
        ways.append(Option("rest", "Rest an hour: chips back, temporary damage back, ♦ First Aid for HP "
                                   "(50% interrupted)"))
        if game.state.entry == game.state.start and self.can_sleep(game):
            ways.append(Option("sleep", "Sleep the night outside: markers off, chips back, up to 2 HP, "
                                        "2 ♥ drain off"))
        if not careful(game):
            ways.reverse()
        return ways

    def rest_blocked(self, game: Game) -> str | None:
        pc = game.pc
        if pc.hp >= pc.max_hp and pc.stats.get("chips", 0) >= chip_cap(pc) and not pc.stats.get("rally") and not (
                pc.stats.get("drain") and game.state.entry == game.state.start and self.can_sleep(game)):
            return "you are unhurt, with every chip"
        return None

    def rest(self, game: Game) -> str | None:
        why = self.rest_blocked(game)
        if why is not None:
            return why
        key = game.ask(Question(RECOVERY, "How do you recover?", tuple(self._ways(game)))).key
        if key == "rally":
            # seed, *Recovery*: "about 2 minutes of calm" — less than a turn, so no turn passes and
            # no encounter is checked for (the calm is the condition: no rally in a fight)
            self.rally(game)
            return None
        if key == "rest":
            for _ in range(REST_TURNS):
                game.clock("rest")
            roll, interrupted = game.dice.in_six(REST_INTERRUPTED_IN_SIX)
            game.emit("encounter_check", roll=roll, encounter=interrupted, why="rest")
            if interrupted and game.graph["encounters"]:
                game.emit("manual", text="A wandering monster interrupts your rest: no benefit.")
                if game.wandering() == FLED:
                    game.flee()
                return None
            self.recover(game, "short")
            return None
        game.state.rules["slept"] = game.state.turn
        for _ in range(SLEEP_TURNS):
            game.clock("rest")
        self.recover(game, "long")
        return None

    def can_sleep(self, game: Game) -> bool:
        """Sleep comes once in 24 hours (seed, *Recovery*): a day since the last sleep began."""
        slept = game.state.rules.get("slept")
        return slept is None or game.state.turn - int(slept) >= DAY_TURNS

    def rally(self, game: Game) -> None:
        pc = game.pc
        pc.stats["rally"] = pc.stats.get("rally", 0) + 1
        pc.stats["chips"] = max(pc.stats.get("chips", 0), chip_cap(pc) - pc.stats["rally"])
        game.emit("rest", rolls=[], rests_today=pc.stats["rally"], rest="rally", chips=pc.stats["chips"])
        self.recover_temporary(game, 1)

    def recover(self, game: Game, kind: str) -> None:
        pc = game.pc
        if kind == "short":
            pc.stats["rally"] = max(0, pc.stats.get("rally", 0) - 1)
            pc.stats["chips"] = chip_cap(pc)
            self.recover_temporary(game)
            degree, _ = self.test(game, "♦", 2, "First Aid")
            game.emit("rest", rolls=[], rests_today=0, rest="rest", chips=pc.stats["chips"])
            change = FIRST_AID[degree]
            if change > 0:
                game.heal(change, "First Aid")
            elif change < 0:
                game.damage(-change, "botched First Aid")
        elif kind == "long":
            pc.stats.update(rally=0, chips=chip_cap(pc))
            game.emit("rest", rolls=[], rests_today=0, rest="sleep", chips=pc.stats["chips"])
            mended = min(SLEEP_DRAIN, pc.stats.get("drain", 0))
            if mended:
                pc.stats["drain"] -= mended
                pc.abilities["♥"] += mended
                pc.max_hp += mended
                game.emit("manual", text=f"Sleep mends {mended} ♥ drain: Hearts {pc.abilities['♥']}.")
            self.recover_temporary(game)
            game.heal(2, "a night's sleep")

    # --- encounters and combat -----------------------------------------------------------

    def encounter_happens(self, game: Game) -> bool:
        roll, hit = game.dice.in_six(ENCOUNTER_IN_SIX)
        if not game.skip("encounter_check"):
            game.emit("encounter_check", roll=roll, encounter=hit)
        return hit

    def encounter(self, game: Game, foes: list[Foe], text: str) -> str:
        from dtc.systems.zilch.combat import escape, escape_chance, left_for_dead

        if game.state.rules.get("unconscious"):
            return left_for_dead(self, game, foes, text)
        sides = rival_sides(foes, text)
        if sides is not None:
            return meet_rivals(self, game, sides, text)
        noticed = self.check(game, "♠", 2, "notice them coming")
        if not game.skip("surprise"):
            game.emit("surprise", rolls=[], chance=0, surprised=not noticed)
        if not noticed:
            return self.fight(game, foes, surprised=True)
        picked = game.pick(ENCOUNTER, 3)  # (a player that answers from their number alone: no words made)
        if picked is not None:
            key = ("talk", "fight", "flee")[picked] if careful(game) else ("fight", "talk", "flee")[picked]
        else:
            p_talk = self.check_chance(game.pc, "♥", 2)
            opts = [Option("talk", "Parley", f"♥ test {percent(p_talk)}", chance=p_talk),
                    Option("fight", "Fight", tags=frozenset({"fight"})),
                    Option("flee", "Flee", f"♠ contest {percent(escape_chance(game, foes))}")]
            if not careful(game):
                opts[0], opts[1] = opts[1], opts[0]
            q = Question(ENCOUNTER, f"{text}: what do you do?", tuple(opts), {"foes": [f.name for f in foes]})
            key = game.ask(q).key
        if key == "talk":
            if self.check(game, "♥", 2, "parley"):
                game.emit("talk", success=True, reaction="they let you pass")
                game.emit("encounter_end", result="parley")
                return OVER
            game.emit("talk", success=False, reaction="hostile")
            return self.fight(game, foes)
        if key == "flee":
            return FLED if escape(self, game, foes) else self.fight(game, foes)
        return self.fight(game, foes)

    def fight(self, game: Game, foes: list[Foe], *, surprised: bool = False) -> str:
        from dtc.systems.zilch.combat import fight

        game.state.rules["fighting"] = True
        try:
            result = fight(self, game, foes, surprised=surprised)
        finally:
            game.state.rules["fighting"] = False
        if game.state.rules.get("unconscious"):
            self.lie_unconscious(game)
        return result


__all__ = ["SUITS", "Zilch", "class_of", "make_character", "temporary_pool"]
