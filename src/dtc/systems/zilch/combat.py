"""Zilch combat: initiative, stances and dominoes, attacks against defence, chips, fleeing.

Seed: ``zilch.txt``, "Combat", "Stances", "Attack", the class chips and "Contests". Initiative is
Spades + 1d6 for the adventurer against the creatures' best Spades + one 1d6 for them all, once
per fight. Each round the creatures announce their stances (Bold; Cautious once below half HP),
everyone draws a domino face down, and the adventurer picks a stance knowing the exact odds for
the tiles still unseen. On its turn a combatant reveals its tile and attacks (Guarded: it only
defends). A Fighter may spend ♣ chips to turn a miss into a hit; a Rogue may spend ♠ chips to
turn a hit into a miss. In a surprise round the adventurer has no tile and no defensive pips.
Fleeing is a ♠ contest against the fastest creature, which the adventurer initiates (and so
wins a successful draw); failing costs the adventurer's turn. Creatures fight until they drop
(the seed has no morale rule). A fight takes one turn. An adventurer knocked to 0 HP falls
unconscious: the creatures still to act this round strike the Defenseless body (every point
drains ♥), then leave it for dead (the fight ends with ``OVER``: they are still there).

Weapons deal a fixed amount by class (the seed's table is missing): tiny 1 (dagger, knife,
unarmed), light 2 (short sword, hand axe, club, sling, shortbow), heavy 3 (longsword, sword,
mace, spear, battleaxe, staff, longbow, crossbow), great 4 (greatsword, greataxe). Damage
resistance: light armour 1, medium (chain) 2, heavy (plate) 3, a shield 1. A creature's suits
come from its stat block (``Clubs 8 | Spades 6``, missing ones 7), with ``DR`` and ``Damage``
fields; without a Damage field its attack dice are rolled.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

import dtc.systems.zilch.dominoes as dom
import dtc.systems.zilch.ruleset as z
from dtc.runtime.core import COMBAT, TARGET, Option, Question
from dtc.runtime.dice import DiceError, parse_dice, percent
from dtc.runtime.equipment import Item
from dtc.runtime.foes import MAX_ROUNDS, Foe
from dtc.runtime.ruleset import FLED, OVER, WON, careful

if TYPE_CHECKING:
    from dtc.runtime.game import Game
    from dtc.systems.zilch.play import Zilch

WEAPON_DAMAGE = {
    "dagger": 1, "knife": 1, "bare hands": 1,
    "short sword": 2, "hand axe": 2, "handaxe": 2, "club": 2, "sling": 2, "shortbow": 2,
    "longsword": 3, "sword": 3, "mace": 3, "spear": 3, "battleaxe": 3, "axe": 3, "staff": 3, "longbow": 3,
    "crossbow": 3, "greatsword": 4, "greataxe": 4,
}
UNARMED = Item("Bare hands", "weapon")
STANCE, CHIPS = "stance", "chips"  # question kinds
AVERAGE_SUIT = 7


def weapon_damage(item: Item) -> int:
    return WEAPON_DAMAGE.get(item.name.lower(), 2)


def resistance(game: Game) -> int:
    pc = game.pc
    body = max((i.defense for i in pc.items if i.kind == "armour" and i.slot == "body"), default=0)
    return body + shield(game)


def shield(game: Game) -> int:
    return max((i.defense for i in game.pc.items if i.kind == "armour" and i.slot == "shield"), default=0)


def foe_stat(game: Game, foe: Foe, *names: str, default: int = AVERAGE_SUIT) -> int:
    block = game.block(foe.creature)
    stats = {k.lower(): v for k, v in (block["stats"] if block else {}).items()}
    return next((int(stats[n]) for n in names if n in stats), default)


def suit(game: Game, foe: Foe, name: str) -> int:
    return foe_stat(game, foe, name, name[:-1], z.SUIT_NAMES.get(name, name).lower())


def foe_damage(game: Game, foe: Foe) -> int:
    fixed = foe_stat(game, foe, "damage", "dmg", default=-1)
    if fixed >= 0:
        return fixed
    for _, dice in foe.attacks:
        try:
            return max(0, game.dice.roll(dice).total)
        except DiceError:
            continue
    return 2


def foe_mean_damage(game: Game, foe: Foe) -> int:
    fixed = foe_stat(game, foe, "damage", "dmg", default=-1)
    if fixed >= 0:
        return fixed
    for _, dice in foe.attacks:
        try:
            return round(parse_dice(dice).mean)
        except DiceError:
            continue
    return 2


def escape_chance(game: Game, foes: list[Foe]) -> Fraction:
    fastest = max((suit(game, f, "spades") for f in foes if f.active), default=0)
    return _escape_odds(game.pc.score("♠"), fastest)


@lru_cache(maxsize=1024)
def _escape_odds(mine: int, fastest: int) -> Fraction:
    """The chance of winning the ♠ contest, worked out once per (your ♠, the fastest creature's ♠)."""
    dist = z.test_distribution()
    won = sum((pa * pb for ra, pa in dist.items() for rb, pb in dist.items()
               if ra <= mine and (rb > fastest or ra <= rb)), Fraction(0))
    return won


def escape(rules: Zilch, game: Game, foes: list[Foe]) -> bool:
    fastest = max((suit(game, f, "spades") for f in foes if f.active), default=0)
    degree, mine = rules.test(game, "♠", 2, "flee")
    theirs = sum(z.die_value(d) for d in game.dice.roll("3d6").dice)
    ok = degree in (z.CS, z.S) and (theirs > fastest or mine <= theirs)
    game.emit("escape", success=ok, total=mine, against=theirs)
    return ok


class _Round:
    """What is known in a round: each foe's stance and tile, and which tiles are still unseen."""

    def __init__(self, pile: dom.Pile) -> None:
        self.pile = pile
        self.stance: dict[int, str] = {}
        self.tile: dict[int, dom.Domino | None] = {}
        self.shown: set[int] = set()

    def unseen(self) -> list[dom.Domino]:
        hidden = [t for k, t in self.tile.items() if k not in self.shown and t is not None]
        return self.pile.tiles + hidden


def fight(rules: Zilch, game: Game, foes: list[Foe], *, surprised: bool = False) -> str:
    game.emit("fight", foes=[f.brief() for f in foes], surprised=surprised)
    for text in dict.fromkeys((f.creature, f.special) for f in foes if f.special):
        game.emit("special", creature=text[0], text=text[1])
    game.clock("combat")
    pile = dom.Pile.shuffled(game.dice)
    pc = game.pc
    mine = pc.score("♠") + game.dice.die(6)
    best = max(suit(game, f, "spades") for f in foes)
    theirs = best + game.dice.die(6)
    pc_first = mine > theirs or (mine == theirs and pc.score("♠") >= best)
    rnd = 0
    while any(f.active for f in foes):
        rnd += 1
        if rnd > MAX_ROUNDS:
            game.emit("fight_end", result="stalemate")
            return FLED
        active = [f for f in foes if f.active]
        pile.ensure(len(active) + 1, game.dice)
        known = _Round(pile)
        for n, f in enumerate(foes):
            if f.active:
                known.stance[n] = dom.CAUTIOUS if f.hp * 2 <= f.max_hp else dom.BOLD
                known.tile[n] = pile.draw(game.dice)
        if rnd == 1 and surprised:
            game.emit("round", round=rnd, surprised=True)
            _foes_act(rules, game, foes, known, None, dom.RECKLESS)
            if _out_cold(game):
                return OVER
            continue
        stance = _stance(game, foes, known)
        tile = pile.draw(game.dice)
        game.emit("round", round=rnd, initiative=mine, rolls=[], enemy_initiative=theirs, stance=stance,
                  domino=list(tile))
        if not pc_first:
            _foes_act(rules, game, foes, known, tile, stance)
            if _out_cold(game):
                return OVER
            if not any(f.active for f in foes):
                break
        if stance != dom.GUARDED:
            result = _your_turn(rules, game, foes, known, tile, stance)
            if result == FLED:
                game.emit("fight_end", result="fled")
                return FLED
        if pc_first and any(f.active for f in foes):
            _foes_act(rules, game, foes, known, tile, stance)
            if _out_cold(game):
                return OVER
    game.emit("fight_end", result="won")
    return WON


def _out_cold(game: Game) -> bool:
    """The adventurer fell this round: the creatures leave the body for dead."""
    if not game.state.rules.get("unconscious"):
        return False
    game.emit("manual", text="The creatures leave you for dead.")
    game.emit("fight_end", result="left for dead")
    return True


def left_for_dead(rules: Zilch, game: Game, foes: list[Foe], text: str) -> str:
    """Creatures find the adventurer unconscious: one round of blows on the Defenseless body."""
    game.emit("fight", foes=[f.brief() for f in foes], surprised=True)
    game.emit("manual", text=f"{text} find you unconscious.")
    pile = dom.Pile.shuffled(game.dice)
    known = _Round(pile)
    for n in range(len(foes)):
        known.stance[n] = dom.BOLD
        known.tile[n] = pile.draw(game.dice)
    game.emit("round", round=1, surprised=True)
    rules_state = game.state.rules
    rules_state["fighting"] = True
    try:
        _foes_act(rules, game, foes, known, None, dom.RECKLESS)
    finally:
        rules_state["fighting"] = False
    game.emit("manual", text="They leave you for dead.")
    game.emit("fight_end", result="left for dead")
    return OVER


def _defence(game: Game, tile: dom.Domino | None, stance: str) -> int:
    extra = shield(game) if stance == dom.GUARDED else 0
    return game.pc.score("♠") + dom.pips(tile, stance)[1] + extra


def _stance(game: Game, foes: list[Foe], known: _Round) -> str:
    pc = game.pc
    active = [n for n, f in enumerate(foes) if f.active]
    target = min(active, key=lambda n: (foes[n].hp, n))
    unseen = known.unseen()
    weapon = max((weapon_damage(i) for i in pc.items if i.kind == "weapon" and i.quantity), default=1)
    # What no stance changes, read once: the suits, the armour, each creature's attack.
    clubs, spades, armour = pc.score("♣"), pc.score("♠"), resistance(game)
    them = dom.Side(suit(game, foes[target], "spades"), known.stance[target], known=False,
                    resistance=foe_stat(game, foes[target], "dr", "armor", "armour", default=0))
    attackers = [(dom.Side(suit(game, foes[n], "clubs"), known.stance[n], known=False), foe_mean_damage(game, foes[n]))
                 for n in active]
    weight = Fraction(3, 2) if careful(game) else Fraction(1, 2)
    rows = []
    for stance in dom.STANCES:
        me = dom.Side(clubs, stance, known=False)
        dealt = Fraction(0) if stance == dom.GUARDED else dom.mean(dom.blow_distribution(me, them, weapon, unseen))
        hit = Fraction(0) if stance == dom.GUARDED else dom.hit_chance(me, them, unseen)
        guard = shield(game) if stance == dom.GUARDED else 0
        taken = Fraction(0)
        worst = Fraction(0)
        defender = dom.Side(spades, stance, known=False, extra=guard, resistance=armour)
        for attacker, damage in attackers:
            taken += dom.mean(dom.blow_distribution(attacker, defender, damage, unseen))
            worst = max(worst, dom.hit_chance(attacker, defender, unseen))
        detail = (f"you hit {foes[target].name} {percent(hit)}, {float(dealt):.1f} damage expected; "
                  f"hit on you {percent(worst)}, {float(taken):.1f} damage expected")
        rows.append((dealt - weight * taken, Option(f"stance:{stance}", dom.STANCE_TEXT[stance], detail)))
    rows.sort(key=lambda r: -r[0])
    q = Question(STANCE, "Your stance this round (the creatures: " + ", ".join(
        f"{foes[n].name} {known.stance[n]}" for n in active) + ")", tuple(o for _, o in rows))
    return game.ask(q).key.split(":")[1]


def _your_turn(rules: Zilch, game: Game, foes: list[Foe], known: _Round, tile: dom.Domino, stance: str) -> str:
    pc = game.pc
    active = [n for n, f in enumerate(foes) if f.active]
    weapons = [i for i in pc.items if i.kind == "weapon" and i.quantity > 0] or [UNARMED]
    offence = pc.score("♣") + dom.pips(tile, stance)[0]
    unseen = known.unseen()
    target = min(active, key=lambda n: (foes[n].hp, n))
    them = dom.Side(suit(game, foes[target], "spades"), known.stance[target], known.tile[target],
                    known=target in known.shown, resistance=foe_stat(game, foes[target], "dr", "armor", "armour",
                                                                   default=0))
    opts = []
    for n, w in enumerate(weapons):
        dist = dom.blow_distribution(dom.Side(offence, dom.BOLD, (0, 0)), them, weapon_damage(w), unseen)
        p = 1 - dist.get(0, Fraction(0))
        per_hit = round(dom.mean(dist) / p) if p else 0
        detail = (f"♣ {pc.score('♣')} + {dom.pips(tile, stance)[0]} pips = {offence}: damages {percent(p)}, "
                  f"{per_hit} damage a hit")
        opts.append(Option(f"attack:{n}", f"Attack with {w.name}", detail, chance=p))
    opts.append(Option("escape", "Flee", f"♠ contest {percent(escape_chance(game, foes))}",
                       tags=frozenset({"escape"})))
    key = game.ask(Question(COMBAT, "Your move", tuple(opts),
                            {"foes": [foes[n].brief() for n in active], "hp": pc.hp})).key
    if key == "escape":
        return FLED if escape(rules, game, foes) else ""
    weapon = weapons[int(key.split(":")[1])]
    if len(active) > 1:
        tq = Question(TARGET, "Attack which?", tuple(
            Option(f"foe:{n}", foes[n].name, f"{foes[n].hp}/{foes[n].max_hp} HP") for n in active))
        target = int(game.ask(tq).key.split(":")[1])
    foe = foes[target]
    known.shown.add(target)
    defence = suit(game, foe, "spades") + dom.pips(known.tile[target], known.stance[target])[1]
    spent = 0
    chips = pc.stats.get("chips", 0)
    from dtc.systems.zilch.play import class_of

    if offence < defence and class_of(pc) == "Fighter" and 0 < defence - offence <= chips:
        spent = _spend(game, defence - offence, "♣", f"turn your miss on {foe.name} into a hit")
    total = offence + spent
    damage = dom.blow(total, defence, weapon_damage(weapon), foe_stat(game, foe, "dr", "armor", "armour", default=0))
    game.emit("attack", attacker="you", target=foe.name, weapon=weapon.name, rolls=[], total=total,
              needed=defence, hit=total >= defence, damage=damage, chips=spent)
    if damage:
        foe.hp -= damage
        if foe.hp <= 0:
            game.emit("defeated", name=foe.name)
    return ""


def _spend(game: Game, cost: int, suit_symbol: str, why: str) -> int:
    yes = Option("spend", f"Spend {cost} {suit_symbol} chip{'s' if cost != 1 else ''} to {why}")
    no = Option("keep", "Keep your chips")
    if game.ask(Question(CHIPS, f"Spend chips? ({game.pc.stats.get('chips', 0)} left)", (yes, no))).key != "spend":
        return 0
    game.pc.stats["chips"] = game.pc.stats.get("chips", 0) - cost
    return cost


def _foes_act(rules: Zilch, game: Game, foes: list[Foe], known: _Round, tile: dom.Domino | None,
              stance: str) -> None:
    from dtc.systems.zilch.play import class_of

    pc = game.pc
    for n, foe in enumerate(foes):
        if not foe.active:
            continue
        known.shown.add(n)
        name = foe.attacks[0][0] if foe.attacks else "attack"
        attack = suit(game, foe, "clubs") + dom.pips(known.tile[n], known.stance[n])[0]
        out = game.state.rules.get("unconscious")  # Defenseless: no domino, no shield
        defence = _defence(game, tile, stance) if tile is not None and not out else pc.score("♠")
        spent = 0
        chips = pc.stats.get("chips", 0)
        awake = not game.state.rules.get("unconscious")
        if awake and attack >= defence and class_of(pc) == "Rogue" and 0 < attack - defence + 1 <= chips:
            spent = _spend(game, attack - defence + 1, "♠", f"dodge {foe.name}'s {name}")
        defence += spent
        damage = dom.blow(attack, defence, foe_damage(game, foe), resistance(game)) if attack >= defence else 0
        game.emit("attack", attacker=foe.name, target="you", weapon=name, rolls=[], total=attack, needed=defence,
                  hit=attack >= defence, damage=damage, chips=spent)
        if damage:
            game.damage(damage, f"{foe.name}'s {name}")
