"""Maze Rats, automated: danger rolls, the adventurer, encounters, healing.

Seed: ``maze-rats-core-rules.txt``; the numbers come from :mod:`dtc.systems.maze_rats.ruleset`, so the
odds in ``play`` are the linter's and ``dtc odds``'s. Readings where the seed is silent
(``docs/rulesets/maze-rats.md``):

* D1 is a danger roll with advantage, D2 a plain one, D3 at disadvantage (3d6, worst two).
* A Path gives advantage to the danger rolls of its activities, recognised by whole words of the
  choice's label (:mod:`dtc.systems.maze_rats.paths`, shared with ``dtc odds`` and the web
  edition); heavy armour takes advantage away from DEX rolls.
* The core rules give no encounter schedule or reaction table: a wandering encounter is 1-in-6
  per turn spent, and reactions are d6: 1 hostile, 2–3 wary, 4–5 friendly, 6 helpful.
* Characters: a d6 picks one of the six orders of +2/+1/+0; 4 health; attack bonus +0; a feature
  (+1 attack bonus or a Path; spells are not automated); light armour, a shield, two weapons.
* Encumbrance: armour and the shield are worn; up to two items ride on the belt (notes
  ``belt: NAME``; a new adventurer's two weapons); everything else is in the backpack, whose
  weapons take 1d6 rounds to find in a fight. ``belt NAME`` / ``pack NAME`` move an item.
* Experience: at the end of a run (a session) the adventurer earns 1 XP for showing up, 2 for a
  difficult challenge overcome (a fight won, a D2 or D3 danger roll passed), 3 for an impressive
  one beyond their expected ability (a danger roll passed at under 1 in 4, or a fight won against
  creatures with twice the adventurer's health); the seed gives no XP needed for a level.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import TYPE_CHECKING

import dtc.systems.maze_rats.ruleset as mr
from dtc.runtime.character import Character
from dtc.runtime.core import ENCOUNTER, Chooser, Option, Question
from dtc.runtime.dice import Dice, Roll, percent
from dtc.runtime.equipment import HAND, RANGED, RATIONS, Item
from dtc.runtime.ruleset import FLED, OVER, WON, Rules, careful
from dtc.systems.death_and_treasure.creation import random_name
from dtc.systems.death_and_treasure.play import meet_rivals, rival_sides
from dtc.systems.maze_rats.paths import FEATURE_DIE, PATHS, favours, feature_path

if TYPE_CHECKING:
    from dtc.runtime.foes import Foe
    from dtc.runtime.game import Game

ARRAYS = ((2, 1, 0), (2, 0, 1), (1, 2, 0), (0, 2, 1), (1, 0, 2), (0, 1, 2))
START_HEALTH = 4
ENCOUNTER_IN_SIX = 1
NIGHT_TURNS = 48  # eight hours of 10-minute turns
DAY_TURNS = 144
MEDICINE = "Medicine"
REACTIONS = {1: "hostile", 2: "wary", 3: "wary", 4: "friendly", 5: "friendly", 6: "helpful"}
FRIENDLIER = {"hostile": "wary", "wary": "friendly", "friendly": "helpful", "helpful": "helpful"}
WORSE = {"helpful": "friendly", "friendly": "wary", "wary": "hostile", "hostile": "hostile"}

#: Weapon classes by name; an unlisted weapon is light (ranged if it only shoots).
HEAVY = frozenset({"greatsword", "warhammer", "battleaxe", "halberd", "maul", "polearm", "greataxe", "spear"})
RANGED_NAMES = frozenset({"bow", "crossbow", "sling", "longbow", "shortbow"})


#: The keys of an encounter's options, in the order offered (before and after talking).
_NOT_TALKED = ("carry-on", "talk", "fight", "flee")
_TALKED = ("carry-on", "fight", "flee")


def weapon_class(item: Item) -> str:
    name = item.key
    if name in RANGED_NAMES or item.ranges == (RANGED,):
        return "ranged"
    return "heavy" if name in HEAVY else "light"


def path_of(pc: Character) -> str | None:
    return next((n.split(":", 1)[1].strip() for n in pc.notes if n.startswith("path:")), None)


BELT = "belt: "
BELT_HOLDS = 2
#: Experience (seed, "Leveling Up"): showed up 1, a difficult challenge 2, an impressive one 3.
XP_SHOWED_UP, XP_DIFFICULT, XP_IMPRESSIVE = 1, 2, 3
IMPRESSIVE_CHANCE = Fraction(1, 4)


def belt(pc: Character) -> list[str]:
    """The names of the (up to two) items on the belt. A sheet that records none (made before dtc
    kept locations) carries its first two weapons there."""
    if not any(n.startswith(BELT.strip()) for n in pc.notes):
        return [i.name for i in pc.items if i.kind == "weapon" and i.quantity > 0][:BELT_HOLDS]
    return [n[len(BELT):] for n in pc.notes if n.startswith(BELT) and n[len(BELT):]]


def location(pc: Character, item: Item) -> str:
    """Where an item is carried (seed, "Encumbrance"): worn, belt or backpack."""
    if item.kind == "armour":
        return "worn"
    return "belt" if item.key in (n.lower() for n in belt(pc)) else "backpack"


def to_belt(pc: Character, name: str) -> str | None:
    """Put an item on the belt; why not, or None when done."""
    item = pc.find(name)
    if item is None or item.quantity <= 0:
        return f"you carry no {name}"
    if item.kind == "armour":
        return f"the {item.name} is worn"
    if location(pc, item) == "belt":
        return f"the {item.name} is already on your belt"
    on = belt(pc)
    if len(on) >= BELT_HOLDS:
        return f"your belt carries {BELT_HOLDS} items already ({', '.join(on)})"
    _record(pc, [*on, item.name])
    return None


def to_pack(pc: Character, name: str) -> str | None:
    on = belt(pc)
    if name.lower() not in (n.lower() for n in on):
        return f"there is no {name} on your belt"
    _record(pc, [n for n in on if n.lower() != name.lower()])
    return None


def _record(pc: Character, names: list[str]) -> None:
    """Write the belt into the sheet's notes (``belt: NAME``; a bare ``belt:`` for an empty one)."""
    pc.notes[:] = [n for n in pc.notes if not n.startswith(BELT.strip())]
    pc.notes.extend([BELT + n for n in names] or [BELT.strip()])


def heavy_armour(pc: Character) -> bool:
    return any(i.kind == "armour" and i.slot == "body" and i.defense >= 2 for i in pc.items)


def armor(pc: Character, weapon: Item | None = None) -> int:
    """6 + body armour + a shield (not with a two-handed weapon in hand)."""
    body = max((i.defense for i in pc.items if i.kind == "armour" and i.slot == "body"), default=0)
    two_handed = weapon is not None and weapon_class(weapon) in ("heavy", "ranged")
    shield = 0 if two_handed or pc.find("Shield") is None else 1
    return mr.BASE_ARMOR + body + shield


def kit() -> list[Item]:
    """What every adventurer carries, whatever the feature and the second weapon: the light sword,
    light armour, a shield, rations, rope, torches and medicine."""
    return [Item("Sword", "weapon", ranges=(HAND,)), Item("Light armour", "armour", defense=1, slot="body"),
            Item("Shield", "armour", defense=1, slot="shield"), Item(RATIONS, "gear", 3), Item("Rope", "gear"),
            Item("Torch", "gear", 3), Item(MEDICINE, "gear")]


def make_character(dice: Dice, chooser: Chooser | None = None) -> Character:
    """An adventurer: a rolled ability array, a feature, and the standard combat gear.

    Without a ``chooser`` everything is rolled (the feature on a d6: 1–2 +1 attack bonus, 3–6 a
    Path) and the second weapon suits the better of STR and DEX; a chooser (a person) picks the
    feature and the second weapon and names the adventurer.
    """
    strength, dexterity, will = ARRAYS[dice.die(6) - 1]
    suggestion = random_name(dice)
    pc = Character(name=suggestion, abilities={"STR": strength, "DEX": dexterity, "WIL": will},
                   max_hp=START_HEALTH, hp=START_HEALTH, ruleset=mr.MAZE_RATS.name, stats={"AB": 0})
    if chooser is None:
        feature = dice.die(FEATURE_DIE)
    else:
        chooser.show(f"Rolled a d6 for the abilities: STR +{strength}  DEX +{dexterity}  WIL +{will}; "
                     f"health {START_HEALTH}, armour {mr.BASE_ARMOR}, attack bonus +0.")
        labels = ["+1 attack bonus", *(f"Path: {name} (advantage when you {', '.join(words[:4])}…)"
                                       for name, words in PATHS.items())]
        pick = chooser.choose("Choose a feature (spells are not automated, so not offered)", labels)
        feature = 1 if pick == 0 else pick + 2
    path = feature_path(feature)
    if path is None:
        pc.stats["AB"] = 1
        pc.notes.append("feature: +1 attack bonus")
    else:
        pc.notes.append(f"path: {path}")
    heavy = strength >= dexterity if chooser is None else chooser.choose(
        "Choose your second weapon (the first is a light sword)",
        ["Warhammer (heavy: +1 damage, two hands, no shield)", "Bow (ranged, before the melee closes)"]) == 0
    second = Item("Warhammer", "weapon", ranges=(HAND,)) if heavy else Item("Bow", "weapon", ranges=(RANGED,))
    sword, *rest = kit()
    for item in (sword, second, *rest):
        pc.add(item)
    for weapon in ("Sword", second.name):
        to_belt(pc, weapon)
    if chooser is not None:
        pc.name = chooser.name(suggestion).strip() or suggestion
    return pc


#: The ways to recover, made once (options are immutable).
_MEDICINE_WAY = Option("medicine", "Take a dose of medicine (1 health, once a day)")
_NIGHT_WAY = Option("night", "Eat a meal and sleep the night (1 health; 8 hours)")
_DAY_WAY = Option("day", "Rest a full day outside, where it is safe (all health)")


class MazeRats(Rules):
    name = "maze-rats"
    title = "Maze Rats"
    abilities = ("STR", "DEX", "WIL")
    character_kind = "maze-rats"

    # --- danger rolls ----------------------------------------------------------------------

    def plans(self, difficulty: int) -> list[tuple[str, ...]] | None:
        if difficulty == 0:
            return [()]
        return [("check",)] if difficulty in mr.MODES else None

    def mode(self, pc: Character, ability: str, difficulty: int | None, why: str = "") -> str:
        return mr.mode_for(difficulty or 2, advantage=favours(path_of(pc), why),
                           no_advantage=ability == "DEX" and heavy_armour(pc))

    def roll(self, game: Game, ability: str, mode: str, bonus: int | None = None) -> tuple[Roll, int, bool]:
        """Roll a danger roll: the roll, the total (kept dice + bonus) and whether it was double sixes."""
        roll = game.dice.roll("2d6" if mode == mr.PLAIN else "3d6")
        a, b = mr.keep(roll.dice, mode)
        total = a + b + (game.pc.score(ability) if bonus is None else bonus)
        return roll, total, a == b == 6

    def odds_key(self, pc: Character, ability: str | None) -> Hashable:
        """A danger roll's odds read the bonus (every bonus, for the best ability), the Path and heavy
        armour (:meth:`mode`)."""
        if ability in self.abilities:
            return pc.score(ability), path_of(pc), ability == "DEX" and heavy_armour(pc)
        return tuple(pc.abilities.items()), tuple(pc.stats.items()), path_of(pc), heavy_armour(pc)

    def check_chance(self, pc: Character, ability: str, difficulty: int) -> Fraction:
        return mr.p_danger(pc.score(ability), self.mode(pc, ability, difficulty))

    def _text(self, pc: Character, ability: str, mode: str) -> str:
        bonus = pc.score(ability)
        p = mr.p_danger(bonus, mode)
        return f"{mr.DICE_TEXT[mode]} {bonus:+d} ({ability}) ≥ {mr.TARGET}: {percent(p)}"

    def check_text(self, pc: Character, ability: str, difficulty: int) -> str:
        return self._text(pc, ability, self.mode(pc, ability, difficulty))

    def choice_odds(self, pc: Character, ability: str, difficulty: int, label: str) -> tuple[str, Fraction]:
        mode = self.mode(pc, ability, difficulty, label)
        return self._text(pc, ability, mode), mr.p_danger(pc.score(ability), mode)

    def check(self, game: Game, ability: str, difficulty: int | None, why: str) -> bool:
        d = difficulty if difficulty in mr.MODES else 2
        mode = self.mode(game.pc, ability, d, why)
        roll, total, _ = self.roll(game, ability, mode)
        ok = total >= mr.TARGET
        if not game.skip("check"):
            game.emit("check", ability=ability, difficulty=d, dice=mr.DICE_TEXT[mode], rolls=[list(roll.dice)],
                      total=total, target=mr.TARGET, success=ok, why=why, compare="≥")
        if ok and d >= 2:
            chance = mr.p_danger(game.pc.score(ability), mode)
            if chance < IMPRESSIVE_CHANCE:
                self._achieved(game, XP_IMPRESSIVE, f"a danger roll passed at {percent(chance)}: {why}")
            else:
                self._achieved(game, XP_DIFFICULT, f"a D{d} danger roll passed: {why}")
        return ok

    # --- experience --------------------------------------------------------------------------

    @staticmethod
    def _achieved(game: Game, xp: int, what: str) -> None:
        st = game.state.rules
        if xp > int(st.get("xp_earned", XP_SHOWED_UP)):
            st.update(xp_earned=xp, xp_for=what)

    def session_end(self, game: Game, outcome: str) -> None:
        """The end of a session (seed, "Leveling Up"): the XP it earned, added to the sheet's."""
        if outcome == "died":
            return  # a slain adventurer earns nothing: the player makes a new one
        st = game.state.rules
        xp = int(st.get("xp_earned", XP_SHOWED_UP))
        why = str(st.get("xp_for") or "showed up")
        pc = game.pc
        pc.stats["XP"] = pc.stats.get("XP", 0) + xp
        game.emit("experience", xp=xp, why=why, total=pc.stats["XP"], level=pc.stats.get("level", 1))

    # --- the adventurer ----------------------------------------------------------------------

    def new_character(self, dice: Dice) -> Character:
        return make_character(dice)

    def create_character(self, dice: Dice, chooser: Chooser) -> Character:
        return make_character(dice, chooser)

    def kit(self) -> list[Item]:
        return kit()

    # --- time and healing --------------------------------------------------------------------

    def begin(self, game: Game) -> None:
        game.state.rules.update(medicine_day=-1)  # xp_earned / xp_for come with the first feat

    def turn_passed(self, game: Game) -> None:
        return None

    def status(self, game: Game) -> str:
        pc = game.pc
        path = path_of(pc)
        worn = f" | belt: {', '.join(belt(pc))}" if belt(pc) else ""
        return f"armour {armor(pc)} | AB {pc.stats.get('AB', 0):+d}" + (f" | {path}" if path else "") + worn

    def adjust(self, game: Game, words: list[str]) -> str | None:
        """``belt NAME`` / ``pack NAME``: move an item to the belt (two at most) or the backpack."""
        if len(words) >= 2 and words[0].lower() in ("belt", "pack"):
            name = " ".join(words[1:])
            why = (to_belt if words[0].lower() == "belt" else to_pack)(game.pc, name)
            if why is not None:
                game.emit("refused", what=f"move the {name}", why=why)
                return why
            return f"{name} now on your {'belt' if words[0].lower() == 'belt' else 'backpack'}"
        return None

    def rest_label(self, game: Game) -> str:
        return "Rest (a night: eat and sleep, 1 health; or medicine)"

    def _ways(self, game: Game) -> list[Option]:
        pc, st = game.pc, game.state.rules
        ways = []
        if pc.count(MEDICINE) and st.get("medicine_day") != game.state.turn // DAY_TURNS:
            ways.append(_MEDICINE_WAY)
        if pc.count(RATIONS):
            ways.append(_NIGHT_WAY)
        if game.state.entry == game.state.start:
            ways.append(_DAY_WAY)
        return ways

    def rest_blocked(self, game: Game) -> str | None:
        if game.pc.hp >= game.pc.max_hp:
            return "you are not hurt"
        return None if self._ways(game) else "resting needs a meal (a ration) or medicine"

    def can_rest_now(self, game: Game) -> bool:
        """Whether :meth:`rest_blocked` finds nothing, the cheapest test first (an unhurt adventurer)."""
        return game.pc.hp < game.pc.max_hp and bool(self._ways(game))

    def rest(self, game: Game) -> str | None:
        why = self.rest_blocked(game)
        if why is not None:
            return why
        ways = self._ways(game)
        key = ways[0].key if len(ways) == 1 else game.ask(Question("recovery", "How do you recover?", tuple(ways))).key
        self.recover(game, {"medicine": "short", "night": "long", "day": "day"}[key])
        return None

    def recover(self, game: Game, kind: str) -> None:
        pc, st = game.pc, game.state.rules
        if kind == "short":
            if pc.count(MEDICINE) and st.get("medicine_day") != game.state.turn // DAY_TURNS and pc.use(MEDICINE):
                st["medicine_day"] = game.state.turn // DAY_TURNS
                game.emit("item", action="used", name=MEDICINE, quantity=1, why="a dose of medicine")
                game.heal(1, "medicine")
            return
        if kind == "day":
            game.state.turn += DAY_TURNS - 1
            game.clock("rest")
            game.emit("rest", rolls=[], rests_today=1)
            game.heal(pc.max_hp - pc.hp, "a day's rest in safety")
            return
        if not pc.use(RATIONS):
            return
        game.emit("item", action="used", name=RATIONS, quantity=1, why="a meal before sleeping")
        if not getattr(game.rules, "overlay", False):
            game.state.turn += NIGHT_TURNS - 1
            if not game.spend_turn("rest"):
                return
        game.emit("rest", rolls=[], rests_today=1)
        game.heal(1, "a meal and a night's rest")

    # --- encounters and combat ---------------------------------------------------------------

    def encounter_happens(self, game: Game) -> bool:
        roll, hit = game.dice.in_six(ENCOUNTER_IN_SIX)
        if not game.skip("encounter_check"):
            game.emit("encounter_check", roll=roll, encounter=hit)
        return hit

    def reaction(self, game: Game) -> str:
        roll = game.dice.die(6)
        band = REACTIONS[roll]
        game.emit("reaction", rolls=[[roll]], modifier=0, total=roll, reaction=band)
        return band

    def surprised(self, game: Game) -> bool:
        """The leader of an ambushed group may make a WIL danger roll to avoid surprise."""
        ok = self.check(game, "WIL", 2, "avoid surprise")
        game.emit("surprise", rolls=[], chance=0, surprised=not ok)
        return not ok

    def encounter(self, game: Game, foes: list[Foe], text: str) -> str:
        sides = rival_sides(foes, text)
        if sides is not None:
            return meet_rivals(self, game, sides, text)
        band = self.reaction(game)
        if band == "hostile":
            return self.fight(game, foes, surprised=self.surprised(game), text=text)
        from dtc.systems.maze_rats.combat import escape_chance

        talked = False
        while True:
            keys = _TALKED if talked else _NOT_TALKED
            n = game.pick(ENCOUNTER, len(keys))
            if n is not None:
                key = keys[n]
            else:
                fight = Option("fight", "Attack first (you ambush them: initiative and advantage)",
                               tags=frozenset({"fight"}))
                opts = [Option("carry-on", f"Carry on (they are {band})")]
                if not talked:
                    p = self.check_chance(game.pc, "WIL", 2)
                    opts.append(Option("talk", "Talk them round", f"WIL danger roll {percent(p)}", chance=p))
                opts += [fight, Option("flee", "Slip away", f"opposed DEX {percent(escape_chance(game, foes))}")]
                q = Question(ENCOUNTER, f"{text}: they are {band}. What do you do?", tuple(opts),
                             {"reaction": band, "foes": [f.name for f in foes]})
                key = game.ask(q).key
            if key == "carry-on":
                game.emit("encounter_end", result="left alone")
                return OVER
            if key == "fight":
                return self.fight(game, foes, ambush=True, text=text)
            if key == "flee":
                from dtc.systems.maze_rats.combat import escape

                return FLED if escape(self, game, foes) else self.fight(game, foes, text=text)
            talked = True
            ok = self.check(game, "WIL", 2, "talk")
            band = FRIENDLIER[band] if ok else WORSE[band]
            game.emit("talk", success=ok, reaction=band)
            if band == "hostile":
                return self.fight(game, foes, text=text)

    def fight(self, game: Game, foes: list[Foe], *, surprised: bool = False, ambush: bool = False,
              text: str = "") -> str:
        from dtc.systems.maze_rats.combat import fight

        result = fight(self, game, foes, surprised=surprised, ambush=ambush, text=text)
        if result == WON:
            health = sum(f.max_hp for f in foes)
            names = ", ".join(dict.fromkeys(f.creature or f.name for f in foes))
            if health >= 2 * game.pc.max_hp:
                self._achieved(game, XP_IMPRESSIVE, f"a fight won against {names}, {health} health in all")
            else:
                self._achieved(game, XP_DIFFICULT, f"a fight won against {names}")
        return WON if result == WON else FLED if result == FLED else result

    def prefers_shatter(self, game: Game, damage: int) -> bool:
        """Whether the default answer to "shatter your shield?" is yes."""
        return damage >= game.pc.hp or (careful(game) and damage * 2 >= game.pc.hp)


__all__ = ["FLED", "OVER", "WON", "MazeRats", "armor", "make_character", "weapon_class"]
