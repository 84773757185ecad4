"""Zilch rules fidelity: fresh adventurers, size, temporary damage, class chips, two-weapon fighting,
the Special, Ready and Charge actions, each played through the engine with a seeded or scripted die.

Every test names the section of the Zilch Lite text it checks; where the text is silent the test
names dtc's ruling (docs/rulesets/zilch.md, "dtc's rulings").
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import math
from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any

import pytest
from rich.console import Console

import dtc.systems.zilch.combat as zc
import dtc.systems.zilch.dominoes as dom
import dtc.systems.zilch.ruleset as z
from dtc.runtime.character import Character
from dtc.runtime.core import RunEnded
from dtc.runtime.dice import Dice
from dtc.runtime.engine import Engine
from dtc.runtime.equipment import HAND, RANGED, Item
from dtc.runtime.foes import Foe, foes_from
from dtc.runtime.policies import CautiousPolicy
from dtc.runtime.terminal import Terminal
from dtc.systems import play_rules
from dtc.systems.zilch.play import make_character, temporary_pool
from helpers.runtime import KeyPlayer, compiled

HEAD = "Rules: zilch\n\nCard Book\n\n"
BLOCKS = ("Pit Rat HP 9 | Hearts 7 | Size 3 | Clubs 6 | Spades 6 | Damage 2\n\n"
          "Cave Troll HP 9 | Hearts 7 | Size 12 | Clubs 9 | Spades 5 | Damage 3\n\n"
          "Stone Giant HP 30 | Size 24 | Clubs 12 | Spades 4 | Damage 3\n\n"
          "Brawler HP 6 | Fists d4 | Clubs 9 | Spades 5\n\n"
          "Bandit HP 6 | Sword d6 | Clubs 10 | Spades 5 | Damage 3\n\n"
          "Moth HP 2 | Clubs 5 | Spades 5 | Damage 1\n\n")
BOOK = HEAD + BLOCKS + "Adventure Entries\n\n1 A door (D0, S2).\n\n2 The end. THE END\n"


@functools.cache
def _compiled(src: str) -> dict[str, Any]:
    return compiled(src)


def pc_of(klass: str = "Fighter", *, clubs: int = 7, spades: int = 5, hearts: int = 10, hp: int | None = None,
          chips: int = 0, items: list[Item] | None = None) -> Character:
    kit = items if items is not None else [Item("Longsword", "weapon", ranges=(HAND,))]
    return Character("Z", {"♣": clubs, "♠": spades, "♦": 6, "♥": hearts}, hearts, hearts if hp is None else hp,
                     kit, notes=[f"class: {klass}"], ruleset="zilch", stats={"chips": chips, "rally": 0})


def game_of(pc: Character, seed: int = 1, player: Any = None) -> tuple[Engine, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    game = Engine(copy.deepcopy(_compiled(BOOK)), pc, player or CautiousPolicy(), dice=Dice(seed),
                  sinks=[events.append], rules=play_rules("zilch"))
    game.rules.begin(game)
    return game, events


def foes(game: Engine, name: str, count: int = 1) -> list[Foe]:
    out = foes_from(game.block(name), name, count)
    zc.size_up(game, out)
    return out


def a_round(game: Engine, stances: list[str], tiles: list[dom.Domino]) -> Any:
    """A round whose creatures' stances and tiles are set (a scripted draw)."""
    known = zc._Round(dom.Pile.shuffled(game.dice))
    for n, (stance, tile) in enumerate(zip(stances, tiles, strict=True)):
        known.stance[n] = stance
        known.tile[n] = tile
    return known


def attacks(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["event"] == "attack"]


# --- Character Generation: the fresh adventurer, exactly -------------------------------------------


class ScriptedCards(Dice):
    """A die whose card draws (``between``) come from a script; everything else is seeded."""

    def __init__(self, cards: list[int]) -> None:
        super().__init__(1)
        self.cards = list(cards)

    def between(self, low: int, high: int) -> int:
        value = self.cards.pop(0)
        assert low <= value <= high
        return value


def test_fresh_hands_are_the_seeds_deal_enumerated() -> None:
    """zilch.txt, *Character Generation*: one card 5–10 from each suit's pile; a hand totalling 25 or less
    is drawn again. Every first hand is played through ``make_character`` (and every second hand after a
    redraw); the joint distribution that gives is exactly ``fresh_characters()``."""
    values = range(z.CARD_LOW, z.CARD_HIGH + 1)
    hands = list(product(values, repeat=4))
    redrawn = 0
    kept: Counter[tuple[int, ...]] = Counter()
    for hand in hands:
        pc = make_character(ScriptedCards([*hand, 5, 5, 5, 5]))
        final = tuple(pc.abilities[s] for s in z.SUIT_ORDER)
        if final == hand and sum(hand) > z.REDRAW_AT_MOST:
            kept[hand] += 1
        else:
            assert sum(hand) <= z.REDRAW_AT_MOST and final == (5, 5, 5, 5)
            redrawn += 1
    low = next(h for h in hands if sum(h) <= z.REDRAW_AT_MOST)
    second = Counter(tuple(make_character(ScriptedCards([*low, *h])).abilities[s] for s in z.SUIT_ORDER)
                     for h in hands)
    assert all(n == 1 for n in second.values()) and len(second) == len(hands)  # the second hand is kept
    whole = len(hands)
    want = {h: Fraction(kept[h], whole) + Fraction(redrawn, whole) * Fraction(second[h], whole) for h in hands}
    got = {tuple(a[s] for s in z.SUIT_ORDER): w for w, a in z.ZILCH.fresh_characters()}
    assert got == want and sum(got.values()) == 1
    # the suits are not independent: a low ♣ makes the other cards higher
    clubs_low = sum(w for h, w in want.items() if h[0] == 5)
    both_low = sum(w for h, w in want.items() if h[0] == 5 and h[1] == 5)
    assert both_low != clubs_low * sum(w for h, w in want.items() if h[1] == 5)


def _p_test(skill: int) -> Fraction:
    return Fraction(sum(1 for dice in product(range(1, 7), repeat=3) if sum(d % 6 for d in dice) <= skill), 216)


def test_fresh_adventurer_odds_use_the_joint_hand() -> None:
    """zilch.txt, *Character Generation* and *Suit Test*: `dtc odds` for a freshly made adventurer is the
    exact mixture over the dealt hands, proved against enumeration of every hand and every face of the
    dice; drawing each suit independently from its marginal would not be."""
    from dtc.odds.analyze import compute_odds

    deals = [(w, a) for w, a in z.ZILCH.fresh_characters()]
    any_suit = sum(w * _p_test(max(a.values())) for w, a in deals)
    clubs_then_spades = sum(w * _p_test(a["♣"]) * _p_test(a["♠"] - 2) for w, a in deals)
    marginal = z.card_distribution()
    independent = (sum(marginal[c] * _p_test(c) for c in marginal)
                   * sum(marginal[c] * _p_test(c - 2) for c in marginal))
    assert clubs_then_spades != independent
    head = "Title: T\nRules: zilch\nStart: 1\n\nAdventure Entries\n\n"
    one = compiled(head + "1 A chasm (D2, S2, F3).\n\n2 Up. THE END\n\n3 Down. THE END\n")
    assert compute_odds(one).outcomes["ending:2"] == pytest.approx(float(any_suit), abs=1e-12)
    two = compiled(head + "1 A ledge (Clubs D2, S2, F9).\n\n2 A gap (Spades D3, S3, F9).\n\n3 Across. THE END\n\n"
                          "9 Down. THE END\n")
    assert compute_odds(two).outcomes["ending:3"] == pytest.approx(float(clubs_then_spades), abs=1e-12)


def test_fresh_hands_frequencies_match_the_exact_deal() -> None:
    """zilch.txt, *Character Generation*: 6,000 adventurers made with fixed seeds; the totals of their
    hands match the exact distribution (chi-square, 99.9% critical value)."""
    exact: dict[int, Fraction] = Counter()
    for w, a in z.ZILCH.fresh_characters():
        exact[sum(a.values())] += w
    runs = 6000
    seen = Counter(sum(make_character(Dice(seed)).abilities.values()) for seed in range(runs))
    bins = [t for t in sorted(exact) if exact[t] * runs >= 5]
    rest = [t for t in exact if t not in bins]
    chi2 = sum((seen[t] - float(exact[t]) * runs) ** 2 / (float(exact[t]) * runs) for t in bins)
    tail = float(sum(exact[t] for t in rest)) * runs
    chi2 += (sum(seen[t] for t in rest) - tail) ** 2 / tail
    assert chi2 < 45.3  # 21 degrees of freedom at most, 99.9%


# --- Size --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("feet", "name", "modifier"), [
    (0, "Tiny", Fraction(1, 4)), (1, "Tiny", Fraction(1, 4)), (2, "Small", Fraction(1, 2)),
    (3, "Small", Fraction(1, 2)),
    (4, "Medium", 1), (6, "Medium", 1), (8, "Large", 2), (12, "Large", 2), (16, "Huge", 4), (24, "Huge", 4),
    (32, "Tremendous", 8), (60, "Tremendous", 8)])
def test_size_categories_by_long_dimension(feet: int, name: str, modifier: Fraction) -> None:
    """zilch.txt, *Combat Modifiers*, *Size*: the categories by long dimension (Tiny under 1.5', Small 1.5–4',
    Medium 4–8', Large 8–16', Huge 16–32', Tremendous 32' or more) and their damage modifiers. Ruling: a
    stat block's ``Size N`` is that long dimension in feet; a boundary belongs to the larger category."""
    src = HEAD + f"Thing HP 5 | Size {feet} | Damage 2\n\nAdventure Entries\n\n1 A door (D0, S2).\n\n2 End. THE END\n"
    game = Engine(compiled(src), pc_of(), CautiousPolicy(), dice=Dice(1), rules=play_rules("zilch"))
    assert zc.size_of(game, foes_from(game.block("Thing"), "Thing", 1)[0]) == (name, modifier)


def test_size_multiplies_hearts_into_hit_points() -> None:
    """zilch.txt, *Size*: "a Small creature with 7♥ would have a max of 4 HPs" (7 × 1/2 = 3.5, rounded up);
    a Large one 14. Ruling: only a block that gives Hearts is sized; an HP written alone is the total."""
    game, _ = game_of(pc_of())
    assert [f.max_hp for f in foes(game, "Pit Rat")] == [4]
    assert [f.max_hp for f in foes(game, "Cave Troll", 2)] == [14, 14]
    assert foes(game, "Stone Giant")[0].max_hp == 30
    hurt = foes(game, "Pit Rat")
    hurt[0].hp = 2
    zc.size_up(game, hurt)  # sized once: a hurt creature is left alone
    assert (hurt[0].hp, hurt[0].max_hp) == (2, 4)


def test_size_multiplies_damage_before_armour() -> None:
    """zilch.txt, *Size*: a creature's damage — weapon, + margin — is multiplied by its size modifier, rounded
    normally, before armour: a Small creature's (4 + 1) × 1/2 = 3."""
    assert dom.blow(10, 5, 4, 0, Fraction(1, 2)) == 3
    assert dom.blow(10, 5, 4, 2, Fraction(1, 2)) == 1
    assert dom.blow(9, 5, 3, 2, Fraction(2)) == 4 and dom.blow(9, 5, 1, 0, Fraction(1, 4)) == 0
    seen = 0
    for seed in range(1, 40):
        game, events = game_of(pc_of(hearts=40, items=[Item("Chain mail", "armour", defense=2, slot="body")]), seed)
        with contextlib.suppress(RunEnded):  # a run that ends is fine: the blows are what is checked
            game.rules.fight(game, foes(game, "Stone Giant"))
        for e in attacks(events):
            if e["attacker"] != "you" and e["hit"]:
                margin = (e["total"] - e["needed"]) // 5
                assert e["damage"] == max(0, (3 + margin) * 4 - 2 - 0)
                seen += 1
    assert seen


# --- Temporary damage --------------------------------------------------------------------------------


def test_unarmed_blows_are_temporary_damage_and_a_rest_gives_them_back() -> None:
    """zilch.txt, *Temporary damage* and *Recovery*: an unarmed attack's HP go to the temporary damage pool;
    rallying gives back 1, resting all of it. Ruling: an attack named fists, punch, kick or unarmed is
    an unarmed blow; healing mends lasting wounds first."""
    for seed in range(1, 60):
        pc = pc_of(hearts=30, spades=3)
        game, events = game_of(pc, seed, KeyPlayer(["rally", "rest"], kinds={"recovery"}))
        game.rules.fight(game, foes(game, "Brawler"))
        lost = 30 - pc.hp
        if lost < 2:
            continue
        assert temporary_pool(pc) == lost
        assert sum(e["damage"] for e in attacks(events) if e["attacker"] != "you") == lost
        game.rules.rest(game)  # rally: one back
        assert pc.hp == 30 - lost + 1 and temporary_pool(pc) == lost - 1
        game.rules.rest(game)  # rest an hour (no wandering monsters here): the rest of the pool back
        assert temporary_pool(pc) == 0 and pc.hp >= 30 - 1
        assert any(e["event"] == "heal" and e["cause"] == "temporary damage recovered" and e["amount"] == lost - 1
                   for e in events)
        return
    raise AssertionError("no seed landed two blows")


def test_lasting_damage_is_not_given_back_by_a_rest() -> None:
    """zilch.txt, *Temporary damage*: only the pool comes back; a sword's wound waits for First Aid."""
    pc = pc_of(hearts=12, hp=12)
    game, _ = game_of(pc, 3, KeyPlayer(["rest"], kinds={"recovery"}))
    game.rules.hurt(game, 4, "a sword")
    game.rules.hurt(game, 3, "a fist", temporary=True)
    assert (pc.hp, temporary_pool(pc)) == (5, 3)
    game.heal(2, "a potion")  # lasting wounds first: the pool stays
    assert (pc.hp, temporary_pool(pc)) == (7, 3)
    game.rules.rest(game)  # the pool back (3), then First Aid: CS +2, S +1, F 0, CF −1
    assert temporary_pool(pc) == 0 and 9 <= pc.hp <= 12


# --- Class chips -------------------------------------------------------------------------------------


def test_fighter_chips_buy_a_hit_and_more_damage() -> None:
    """zilch.txt, *Clubs*: a Fighter spends ♣ chips to add offensive pips to one attack — to hit, and (the
    margin's +1 damage per 5 points, *Attack*) to hit harder."""
    pc = pc_of(clubs=7, chips=6)
    game, events = game_of(pc, 1, KeyPlayer(["spend:6"], kinds={"chips"}))
    bandit = foes(game, "Moth")
    bandit[0].hp = 9
    known = a_round(game, [dom.BOLD], [(4, 3)])  # Moth's defence: ♠ 5 + 3 = 8
    zc._strike(game, bandit, known, 0, 7, Item("Longsword", "weapon"))  # 7 against 8: a miss
    e = attacks(events)[-1]
    assert e["chips"] == 6 and e["total"] == 13 and e["hit"] and e["damage"] == 3 + 1 - 0
    assert pc.stats["chips"] == 0
    question = next(q for q in game.player.asked if q.kind == zc.CHIPS)
    assert [o.key for o in question.options] == ["spend:1", "keep", "spend:6"]  # the cheapest hit first


def test_fighter_chips_first_offer_fells_the_creature() -> None:
    """zilch.txt, *Clubs*: the automatic player spends what fells the creature when it can."""
    pc = pc_of(clubs=7, chips=6)
    game, events = game_of(pc, 1)
    moth = foes(game, "Moth")
    moth[0].hp = 4
    zc._strike(game, moth, a_round(game, [dom.BOLD], [(4, 3)]), 0, 7, Item("Longsword", "weapon"))
    assert attacks(events)[-1]["damage"] == 4 and not moth[0].active and pc.stats["chips"] == 0


def test_fighter_keeps_chips_when_the_blow_fells_anyway() -> None:
    """zilch.txt, *Clubs*: chips are offered for more damage, but the automatic player keeps them when the
    blow already fells the creature."""
    pc = pc_of(clubs=7, chips=6)
    game, events = game_of(pc, 1)
    moth = foes(game, "Moth")  # 2 HP
    zc._strike(game, moth, a_round(game, [dom.BOLD], [(4, 3)]), 0, 9, Item("Longsword", "weapon"))
    assert attacks(events)[-1]["chips"] == 0 and pc.stats["chips"] == 6 and not moth[0].active


def test_rogue_chips_dodge_or_soften_a_blow() -> None:
    """zilch.txt, *Spades*: a Rogue spends ♠ chips to add defensive pips against one attack: enough to be
    missed, or to bring the margin under a 5-point step (1 damage less)."""
    pc = pc_of("Rogue", spades=5, chips=3, hearts=20)
    game, events = game_of(pc, 1, KeyPlayer(["spend:1"], kinds={"chips"}))
    bandit = foes(game, "Bandit")  # ♣ 10
    known = a_round(game, [dom.BOLD], [(6, 2)])  # attack 16 against ♠ 5 + Bold (2, 1) lesser 1 = 6
    zc._foes_act(game.rules, game, bandit, known, (2, 1), dom.BOLD)
    e = attacks(events)[-1]
    assert e["needed"] == 7 and e["damage"] == 3 + 1 and e["chips"] == 1  # margin 10 -> 9: +1, not +2
    assert pc.hp == 20 - 4 and pc.stats["chips"] == 2
    question = next(q for q in game.player.asked if q.kind == zc.CHIPS)
    assert [o.key for o in question.options] == ["keep", "spend:1"]  # a dodge (11) is too dear


def test_rogue_chips_dodge_first() -> None:
    """zilch.txt, *Spades*: with chips enough, the first offer is to be missed entirely."""
    pc = pc_of("Rogue", spades=5, chips=12, hearts=20)
    game, events = game_of(pc, 1)
    zc._foes_act(game.rules, game, foes(game, "Bandit"), a_round(game, [dom.BOLD], [(6, 2)]), (2, 1), dom.BOLD)
    e = attacks(events)[-1]
    assert not e["hit"] and e["chips"] == 11 and pc.stats["chips"] == 1 and pc.hp == 20


# --- Two-weapon fighting -----------------------------------------------------------------------------


def test_two_weapon_pairs() -> None:
    """zilch.txt, *Two-Weapon Fighting*, *Weapons*, *Shields*: two light weapons, or a heavy and a tiny one
    (a shield's bash is tiny, a spiked shield light; a buckler cannot bash); a staff's two ends; a shortbow
    fired twice. Not two heavy weapons, not a great one, not a longbow, sling or crossbow twice. Ruling:
    a lighter pair (light and tiny, two tiny) is allowed too."""
    def names(*items: Item) -> list[tuple[str, str]]:
        return [(a[0], b[0]) for a, b in zc.two_weapon_pairs(list(items))]

    sword, dagger = Item("Short sword", "weapon"), Item("Dagger", "weapon")
    assert names(Item("Short sword", "weapon", 2)) == [("Short sword", "Short sword")]
    assert names(Item("Longsword", "weapon"), Item("Shield", "armour", defense=1, slot="shield")) == [
        ("Longsword", "Shield bash")]
    assert names(Item("Longsword", "weapon"), Item("Buckler", "armour", defense=1, slot="shield")) == []
    assert names(Item("Longsword", "weapon"), Item("Mace", "weapon")) == []
    assert names(Item("Greatsword", "weapon"), dagger) == []
    assert names(sword, dagger) == [("Short sword", "Dagger")]
    assert names(Item("Staff", "weapon")) == [("Staff", "Staff")]
    assert names(Item("Shortbow", "weapon", ranges=(RANGED,))) == [("Shortbow", "Shortbow")]
    assert names(Item("Longbow", "weapon"), Item("Crossbow", "weapon"), Item("Sling", "weapon")) == []


def test_two_weapon_fighting_splits_the_offensive_pips() -> None:
    """zilch.txt, *Two-Weapon Fighting*: the offensive pips are divided (at least 1 each) between two attacks,
    one with each weapon, each ♣ + its share; the second is aimed after the first is resolved."""
    pc = pc_of("Rogue", clubs=6, items=[Item("Short sword", "weapon", 2, ranges=(HAND,))])
    game, events = game_of(pc, 4, KeyPlayer(["two:0", "split:2"], kinds={"combat", "split"}))
    moths = foes(game, "Moth", 2)
    for m in moths:
        m.hp = 9
    known = a_round(game, [dom.BOLD, dom.BOLD], [(2, 1), (3, 1)])
    zc._your_turn(game.rules, game, moths, known, (6, 5), dom.BOLD)
    blows = attacks(events)
    assert [e["total"] for e in blows] == [6 + 2, 6 + 4] and [e["weapon"] for e in blows] == ["Short sword"] * 2
    split = next(q for q in game.player.asked if q.kind == zc.SPLIT)
    assert sorted(o.key for o in split.options) == [f"split:{k}" for k in range(1, 6)]
    targets = [q for q in game.player.asked if q.kind == "target"]
    assert len(targets) == 2  # each blow aimed on its own


def test_two_weapon_fighting_needs_two_offensive_pips() -> None:
    """zilch.txt, *Two-Weapon Fighting*: at least 1 pip each, so one offensive pip allows no split."""
    pc = pc_of("Rogue", items=[Item("Short sword", "weapon", 2, ranges=(HAND,))])
    game, _ = game_of(pc, 1, KeyPlayer(["attack:0"], kinds={"combat"}))
    zc._your_turn(game.rules, game, foes(game, "Moth"), a_round(game, [dom.BOLD], [(2, 1)]), (4, 1), dom.CAUTIOUS)
    combat = next(q for q in game.player.asked if q.kind == "combat")
    assert not any(o.key.startswith("two:") for o in combat.options)


def test_two_weapon_fighting_frequency() -> None:
    """zilch.txt, *Two-Weapon Fighting*: over fixed seeds, the two blows against a Moth whose tile is still
    face down damage it (at least one of them) as often as the exact chance shown for the option says
    (99.9% interval around the mean of the shown chances)."""
    shown: list[Fraction] = []
    landed = 0
    for seed in range(600):
        pc = pc_of("Rogue", clubs=3, items=[Item("Short sword", "weapon", 2, ranges=(HAND,))])
        player = KeyPlayer(["two:0"], kinds={"combat"})
        game, events = game_of(pc, seed, player)
        moth = foes(game, "Moth")
        moth[0].hp = 20
        known = zc._Round(dom.Pile.shuffled(game.dice))
        known.pile.tiles.remove((5, 4))  # the adventurer's tile
        known.stance[0] = dom.BOLD
        known.tile[0] = known.pile.draw(game.dice)
        zc._your_turn(game.rules, game, moth, known, (5, 4), dom.BOLD)
        q = next(q for q in player.asked if q.kind == "combat")
        shown.append(next(o.chance for o in q.options if o.key == "two:0") or Fraction(0))
        landed += any(e["damage"] for e in attacks(events))
    p = float(sum(shown) / len(shown))
    n = len(shown)
    assert 0.2 < p < 0.9 and abs(landed / n - p) <= 3.29 * math.sqrt(p * (1 - p) / n)


# --- Special Attack ----------------------------------------------------------------------------------


def test_disarm_is_a_special_attack_against_the_better_suit() -> None:
    """zilch.txt, *Special Attack*: announced before the attack, no damage on a success; the opponent defends
    with ♣ + defensive pips when that is better than ♠; Disarm makes it drop its held weapon. Ruling: a
    disarmed creature fights on with bare hands (1 damage, temporary, as an unarmed blow)."""
    pc = pc_of(clubs=9, hearts=20)
    game, events = game_of(pc, 2, KeyPlayer(["disarm"], kinds={"combat"}))
    bandit = foes(game, "Bandit")  # ♠ 5, ♣ 10
    known = a_round(game, [dom.BOLD], [(3, 2)])
    zc._your_turn(game.rules, game, bandit, known, (6, 6), dom.RECKLESS)  # 9 + 12 = 21 against 10 + 2
    e = attacks(events)[-1]
    assert e["needed"] == 12 and e["hit"] and e["damage"] == 0 and e["weapon"].startswith("Disarm")
    assert bandit[0].hp == 6 and bandit[0].attacks[0][0] == zc.DISARMED
    out = io.StringIO()
    Terminal(Console(file=out, width=200, color_system=None))(e)
    assert "Bandit drops its Sword (disarm)" in out.getvalue()
    # its next blow: bare hands, 1 damage, temporary
    zc._foes_act(game.rules, game, bandit, a_round(game, [dom.BOLD], [(6, 6)]), None, dom.RECKLESS)
    blow = attacks(events)[-1]
    assert blow["hit"] and blow["damage"] == 1 + (blow["total"] - blow["needed"]) // 5
    assert temporary_pool(pc) == blow["damage"]


def test_disarm_frequency_matches_the_chance_shown() -> None:
    """zilch.txt, *Special Attack*: over fixed seeds, Disarms against a Bandit whose tile is face down
    succeed as often as the exact chance shown with the option (its better suit, ♣ 10, defends)."""
    shown: list[float] = []
    landed = 0
    for seed in range(600):
        pc = pc_of(clubs=6)
        player = KeyPlayer(["disarm"], kinds={"combat"})
        game, events = game_of(pc, seed, player)
        bandit = foes(game, "Bandit")
        known = zc._Round(dom.Pile.shuffled(game.dice))
        known.pile.tiles.remove((6, 3))  # the adventurer's tile
        known.stance[0] = dom.BOLD
        known.tile[0] = known.pile.draw(game.dice)
        zc._your_turn(game.rules, game, bandit, known, (6, 3), dom.BOLD)
        q = next(q for q in player.asked if q.kind == "combat")
        detail = next(o.detail for o in q.options if o.key == "disarm")
        shown.append(float(detail.rsplit(" ", 1)[1].rstrip("%")) / 100)
        landed += attacks(events)[-1]["hit"]
    p = sum(shown) / len(shown)
    assert len(set(shown)) == 1 and 0.1 < p < 0.9
    assert abs(landed / len(shown) - p) <= 3.29 * math.sqrt(p * (1 - p) / len(shown)) + 0.001


def test_disarm_is_offered_only_against_a_held_weapon() -> None:
    """zilch.txt, *Special Attack* (Disarm: "opponent drops a held weapon"): not against claws or a Damage
    field alone. Trip, Bullrush and Grapple are not automated (see the rulings)."""
    game, _ = game_of(pc_of(), 1, KeyPlayer(["attack:0"], kinds={"combat"}))
    zc._your_turn(game.rules, game, foes(game, "Moth"), a_round(game, [dom.BOLD], [(2, 1)]), (4, 3), dom.BOLD)
    combat = next(q for q in game.player.asked if q.kind == "combat")
    assert "disarm" not in [o.key for o in combat.options]
    assert zc.holds_weapon(foes(game, "Bandit")[0]) and not zc.holds_weapon(foes(game, "Brawler")[0])
    named = [Foe("x", None, 1, 1, None, [(name, "d6")]) for name in (
        "Boat Hook or Cudgel", "Rusty Longsword", "Hooked Claws", "Elbow", "Bite", "Twin Daggers")]
    assert [zc.holds_weapon(f) for f in named] == [True, True, False, False, False, True]
    assert [zc.unarmed_attack(n) for n in ("Fists", "Kick", "Fisticuffs", "Bare hands", "Sword")] == [
        True, True, False, True, False]


# --- Ready and Charge --------------------------------------------------------------------------------


def test_ready_strikes_just_before_the_creature_attacks() -> None:
    """zilch.txt, *Ready*: only in a Cautious stance; the readied Standard Action (an attack) is made after
    your turn and before your next, just before the event named — here the creature's attack, once its
    tile is face up. A creature felled by it never strikes."""
    pc = pc_of(clubs=9, hearts=20)
    game, events = game_of(pc, 1, KeyPlayer(["ready"], kinds={"combat"}))
    moth = foes(game, "Moth")
    known = a_round(game, [dom.BOLD], [(2, 1)])
    zc._your_turn(game.rules, game, moth, known, (5, 3), dom.CAUTIOUS)
    assert known.ready is not None and known.ready[:2] == (0, 9 + 3) and not attacks(events)
    zc._foes_act(game.rules, game, moth, known, (5, 3), dom.CAUTIOUS)
    blows = attacks(events)
    assert blows[0]["attacker"] == "you" and blows[0]["weapon"].endswith("(readied)")
    assert blows[0]["total"] == 12 and blows[0]["needed"] == 5 + 1
    assert not moth[0].active and len(blows) == 1  # felled: it never attacks


def test_ready_is_only_offered_when_cautious() -> None:
    """zilch.txt, *Ready*: "Only possible with a Cautious stance"."""
    for stance, offered in ((dom.CAUTIOUS, True), (dom.BOLD, False), (dom.RECKLESS, False)):
        game, _ = game_of(pc_of(), 1, KeyPlayer(["escape"], kinds={"combat"}))
        zc._your_turn(game.rules, game, foes(game, "Moth"), a_round(game, [dom.BOLD], [(2, 1)]), (4, 3), stance)
        combat = next(q for q in game.player.asked if q.kind == "combat")
        assert ("ready" in [o.key for o in combat.options]) is offered


def test_ready_carries_into_the_next_round_when_the_creatures_act_first() -> None:
    """zilch.txt, *Ready*: "after your current turn but before your next turn": when the creatures act
    first, the attack readied at the end of one round comes in the next, before the creature's blow."""
    for seed in range(1, 80):
        pc = pc_of(clubs=8, spades=2, hearts=40)
        player = KeyPlayer(["stance:cautious", "ready"] * 30, kinds={"stance", "combat"})
        game, events = game_of(pc, seed, player)
        moth = foes(game, "Cave Troll")
        game.rules.fight(game, moth)
        rounds = [e for e in events if e["event"] == "round"]
        readied = [n for n, e in enumerate(events) if e["event"] == "attack" and e["weapon"].endswith("(readied)")]
        if not readied or rounds[0].get("enemy_initiative", 0) < rounds[0].get("initiative", 0):
            continue
        first = readied[0]
        round_of = max(e["round"] for e in events[:first] if e["event"] == "round")
        assert round_of >= 2
        nxt = events[first + 1]
        assert nxt["event"] in ("attack", "defeated") and (nxt["event"] == "defeated" or nxt["attacker"] != "you")
        return
    raise AssertionError("no seed where the creature went first and a readied attack landed")


def test_charge_is_not_offered() -> None:
    """zilch.txt, *Charge* and *Playing without a grid*: a Charge only moves you further (up to your speed)
    before one attack; dtc's fights have no squares (everything is Close), where a Move and an Attack
    already fit in one turn, so a Charge would change nothing and is not offered (a ruling)."""
    game, _ = game_of(pc_of(), 1, KeyPlayer(["escape"], kinds={"combat"}))
    zc._your_turn(game.rules, game, foes(game, "Moth"), a_round(game, [dom.BOLD], [(2, 1)]), (4, 3), dom.RECKLESS)
    combat = next(q for q in game.player.asked if q.kind == "combat")
    assert not any("charge" in o.key for o in combat.options)


@pytest.mark.parametrize("base", ["zilch", "maze-rats"])
def test_fresh_odds_with_the_dungeon_rules_overlay(base: str) -> None:
    """zilch.txt, *Character Generation* (and Maze Rats' +2/+1/+0 deal), with the Dungeon Rules overlay: a check
    naming no ability uses each part's best score, the base's abilities dealt together and the overlay's
    drawn on their own. Exact against enumeration of the base's deals and each overlay score's own
    distribution (the best of independent scores by the product of their distribution functions); dtc
    once gave the overlay's best score to the base's abilities too (98.8% here for Zilch, truth 80.4%)."""
    from dtc.odds.analyze import compute_odds
    from dtc.systems import get_ruleset

    rs = get_ruleset(f"{base} + dungeon-rules")
    root, overlay = rs.parts  # type: ignore[attr-defined]
    own = rs.own_abilities(overlay)  # type: ignore[attr-defined]
    dists = [rs.score_distribution(a) for a in own]
    support = sorted(set().union(*dists))

    def at_most(s: int) -> Fraction:
        out = Fraction(1)
        for d in dists:
            out *= sum((p for v, p in d.items() if v <= s), Fraction(0))
        return out

    best = {s: at_most(s) - at_most(s - 1) for s in support}
    deals = root.fresh_characters()
    assert deals is not None
    p_overlay = {s: overlay.check_probability(dict.fromkeys(own, s), None, 2) for s in support}
    truth = sum((w * q * max(root.check_probability(a, None, 2), p_overlay[s])
                 for w, a in deals for s, q in best.items()), Fraction(0))
    agi = rs.score_distribution("AGI")
    first = root.ability_names[0]
    named = sum((w * root.check_probability(a, first, 2) for w, a in deals), Fraction(0)) * sum(
        (q * overlay.check_probability({"AGI": s}, "AGI", 2) for s, q in agi.items()), Fraction(0))
    head = f"Title: T\nRules: {base} + dungeon-rules\nStart: 1\n\nAdventure Entries\n\n"
    one = compiled(head + "1 A chasm (D2, S2, F3).\n\n2 Up. THE END\n\n3 Down. THE END\n")
    assert compute_odds(one).outcomes["ending:2"] == pytest.approx(float(truth), abs=1e-12)
    two = compiled(head + f"1 A chasm ({first} D2, S2, F9).\n\n2 A gap (AGI D2, S3, F9).\n\n3 Across. THE END\n\n"
                          "9 Down. THE END\n")
    assert compute_odds(two).outcomes["ending:3"] == pytest.approx(float(named), abs=1e-12)
