"""The rulesets' exact odds, checked against independent enumerations written here, and the registry."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations, product

import pytest
from click.testing import CliRunner

import dtc.systems.maze_rats.ruleset as mr
import dtc.systems.zilch.ruleset as z
from dtc.cli import main
from dtc.systems import BUILTIN_SYSTEMS, REGISTRY, UnknownRuleset, all_systems, get_ruleset, known_names
from dtc.systems.dungeon_rules.ruleset import p_d20, zone_key
from helpers.dice_oracles import enumerate_danger, enumerate_zilch

D6 = range(1, 7)





@pytest.mark.parametrize("bonus", [0, 1, 2, 3, 4])
def test_maze_rats_danger_rolls_are_exact(bonus: int) -> None:
    rs = get_ruleset("maze-rats")
    char = {"STR": bonus, "DEX": 0, "WIL": 0}
    assert rs.check_probability(char, "STR", 1) == enumerate_danger(bonus, "best")
    assert rs.check_probability(char, "STR", 2) == enumerate_danger(bonus, "plain")
    assert rs.check_probability(char, "STR", 3) == enumerate_danger(bonus, "worst")
    assert rs.check_probability(char, "STR", 0) == 1


def test_maze_rats_known_values() -> None:
    assert mr.p_danger(1) == Fraction(10, 36)  # 2d6 + 1 >= 10: 9 or more on 2d6
    assert mr.p_danger(1, mr.ADVANTAGE) == Fraction(113, 216)
    assert mr.p_danger(0) == Fraction(1, 6)


def test_maze_rats_opposed_rolls_give_ties_to_the_defender() -> None:
    exact = Fraction(sum(a + b + 1 > c + d for a, b, c, d in product(D6, repeat=4)), 6**4)
    assert mr.p_opposed(1, 0) == exact
    assert mr.p_opposed(0, 0) < Fraction(1, 2)


def test_maze_rats_attack_damage() -> None:
    assert mr.attack_damage(9, 7, double_six=False) == 2
    assert mr.attack_damage(7, 7, double_six=False) == 0  # must exceed the armour
    assert mr.attack_damage(9, 7, double_six=False, heavy=True) == 3
    assert mr.attack_damage(8, 7, double_six=False, unarmed=True) == 1  # never reduced to 0
    assert mr.attack_damage(13, 7, double_six=True) == 12
    dist = mr.attack_distribution(1, 7)
    assert sum(dist.values()) == 1
    hits = sum(1 for a, b in product(D6, repeat=2) if a + b + 1 > 7)
    assert 1 - dist[0] == Fraction(hits, 36)
    crit = mr.attack_distribution(0, 6)
    assert crit[12] == Fraction(1, 36)  # double sixes: (12 - 6) * 2


def test_maze_rats_modes() -> None:
    assert mr.mode_for(2, advantage=True) == mr.ADVANTAGE
    assert mr.mode_for(3, advantage=True) == mr.PLAIN
    assert mr.mode_for(1, advantage=True) == mr.ADVANTAGE  # only one advantage die
    assert mr.mode_for(1, no_advantage=True) == mr.PLAIN  # heavy armour on DEX


@pytest.mark.parametrize("skill", range(-3, 18))
def test_zilch_degrees_are_exact(skill: int) -> None:
    got = z.degree_probabilities(skill)
    want = enumerate_zilch(skill)
    assert got == {z.CS: want["critical success"], z.S: want["success"], z.F: want["failure"],
                   z.CF: want["critical failure"]}
    assert sum(got.values()) == 1


@pytest.mark.parametrize(("difficulty", "modifier"), [(1, 2), (2, 0), (3, -2), (4, -5)])
def test_zilch_difficulties_use_the_recommended_modifiers(difficulty: int, modifier: int) -> None:
    rs = get_ruleset("zilch")
    p = rs.check_probability({"♣": 7}, "CLUBS", difficulty)
    degrees = enumerate_zilch(7 + modifier)
    assert p == degrees["critical success"] + degrees["success"]
    assert rs.check_outcomes({"♣": 7}, "♣", difficulty)[z.CS] == enumerate_zilch(7 + modifier)["critical success"]


def test_zilch_seed_facts() -> None:
    assert z.p_success(7) == Fraction(1, 2)  # "a 50% chance of rolling 7 or below"
    assert z.degree(0, 3) == z.CS and z.degree(0, 2) == z.S  # three sixes
    assert z.degree(15, 13) == z.CF and z.degree(15, 14) == z.F  # three fives
    assert z.degree(4, 9) == z.CS and z.degree(14, 9) == z.F and z.degree(15, 9) == z.CF  # the seed's cliff


def test_zilch_contest_and_cards() -> None:
    c = z.contest(7, 7)
    assert c["a"] == c["b"] and sum(c.values()) == 1
    cards = z.card_distribution()
    assert sum(cards.values()) == 1 and set(cards) == set(range(5, 11))
    assert cards[10] > cards[5]  # redrawing weak hands favours high cards


def test_dungeon_rules_d20_and_zones() -> None:
    assert p_d20(10, 2) == Fraction(10, 20)
    assert p_d20(10, 1) == Fraction(13, 20)
    assert p_d20(10, 3) == Fraction(7, 20)
    assert p_d20(25, 1) == 1 and p_d20(1, 3) == 0
    assert zone_key("Perilous sector") == "perilous"
    assert zone_key("deep or tainted") == "deep"
    assert zone_key("Major Lair") == "major-lair"
    assert zone_key("Perilus") is None


def test_registry_and_overlays() -> None:
    assert known_names() == sorted(all_systems()) and set(BUILTIN_SYSTEMS) <= set(known_names())
    combined = get_ruleset("Death and Treasure + Dungeon Rules")
    assert combined.name == "death-and-treasure + dungeon-rules"
    assert combined.overlays == ("dungeon-rules",)
    assert combined.ability_names[:6] == ["STR", "DEX", "CON", "WIS", "INT", "CHA"]
    assert {"AGI", "LUCK", "WORLDSWAY"} <= set(combined.ability_names)
    # The base keeps its abilities' checks; the overlay's own abilities are d20 roll-under.
    char = {"STR": 10, "AGI": 10}
    assert combined.check_probability(char, "STR", 2) == REGISTRY["death-and-treasure"].check_probability(
        char, "STR", 2)
    assert combined.check_probability(char, "AGILITY", 2) == Fraction(1, 2)
    assert get_ruleset("dungeon-rules").name == "death-and-treasure + dungeon-rules"
    with pytest.raises(UnknownRuleset) as exc:
        get_ruleset("maze-rats + zilch")
    assert "not an overlay" in exc.value.message
    with pytest.raises(UnknownRuleset):
        get_ruleset("maze-rat")


def test_zilch_suits_have_every_spelling() -> None:
    rs = get_ruleset("zilch")
    for spelling in ("♣", "♧", "Clubs", "CLUBS", "club"):
        assert rs.canonical_ability(spelling) == "♣"
    assert rs.difficulties == (0, 1, 2, 3, 4)


def test_rules_command_summarises_each_ruleset() -> None:
    runner = CliRunner()
    listing = runner.invoke(main, ["rules"]).output
    assert "maze-rats" in listing and "overlay" in listing
    out = runner.invoke(main, ["rules", "maze-rats"]).output
    assert "STR DEX WIL" in out and "D0 D1 D2 D3" in out and "27.8%" in out and "shatter" in out
    out = runner.invoke(main, ["rules", "zilch"]).output
    assert "♣ ♠ ♦ ♥" in out and "D4" in out and "CLUBS" in out and "domino" in out
    out = runner.invoke(main, ["rules", "maze-rats + dungeon-rules"]).output
    assert "overlay: Dungeon Rules" in out and "lair-heart" in out and "stealth" in out
    bad = runner.invoke(main, ["rules", "maze-rats + zilch"])
    assert bad.exit_code == 2 and "not an overlay" in bad.output


def test_maze_rats_fresh_adventurers_are_dealt_their_bonuses_together() -> None:
    """Maze Rats, "Character Creation": the ability bonuses are one of the six orders of +2, +1, +0, so a
    fresh adventurer always has a +2 somewhere. Exhaustive enumeration over the six deals and every face
    of the dice gives the exact odds; drawing each bonus independently would not (issue: 37.1% vs 41.7%)."""
    from dtc.odds.analyze import compute_odds
    from helpers.runtime import compiled

    def p_pass(bonus: int) -> Fraction:
        return Fraction(sum(1 for a, b in product(range(1, 7), repeat=2) if a + b + bonus >= 10), 36)

    deals = list(permutations((2, 1, 0)))
    any_ability = sum(Fraction(1, 6) * p_pass(max(deal)) for deal in deals)
    str_then_dex = sum(Fraction(1, 6) * p_pass(deal[0]) * p_pass(deal[1]) for deal in deals)
    assert any_ability == Fraction(15, 36)
    assert str_then_dex == Fraction(100, 1296)
    head = "Title: T\nRules: maze-rats\nStart: 1\n\nAdventure Entries\n\n"
    # Labels no Path favours (a Roofrunner rolls "ledge" with advantage: tests/test_maze_rats_paths.py).
    one = compiled(head + "1 A chasm (D2, S2, F3).\n\n2 Up. THE END\n\n3 Down. THE END\n")
    assert compute_odds(one).outcomes["ending:2"] == pytest.approx(float(any_ability), abs=1e-12)
    two = compiled(head + "1 A chasm (STR D2, S2, F9).\n\n2 A gap (DEX D2, S3, F9).\n\n3 Across. THE END\n\n"
                          "9 Down. THE END\n")
    assert compute_odds(two).outcomes["ending:3"] == pytest.approx(float(str_then_dex), abs=1e-12)
