"""Maze Rats Paths: one rule for which choices a Path favours, read the same by `dtc play`,
`dtc odds` and the web edition (``dtc.systems.maze_rats.paths``, docs/rulesets/maze-rats.md).

Seed (maze-rats-core-rules.txt, *Advantage*): "If the risk of an action is reduced due to the
PC's paths, preparation, or situational factors, the GM may grant Advantage to the roll."
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from dtc.runtime.character import Character
from dtc.systems.maze_rats.paths import FORMS, PATHS, favoured, favours, words
from dtc.systems.maze_rats.play import MazeRats
from dtc.systems.maze_rats.ruleset import ADVANTAGE, PLAIN, p_danger
from helpers import SEEDS, SEEDS_MISSING

ROOT = Path(__file__).resolve().parent.parent
SEED_SENTENCE = ("If the risk of an action is reduced due to the PC’s paths, preparation, or situational factors, "
                 "the GM may grant Advantage to the roll.")


def rat(path: str | None, **bonuses: int) -> Character:
    abilities = {"STR": 0, "DEX": 0, "WIL": 0, **bonuses}
    return Character(name="Nix", abilities=abilities, max_hp=4, hp=4, ruleset="maze-rats", stats={"AB": 0},
                     notes=[f"path: {path}"] if path else [])


def test_the_seed_grants_advantage_for_a_path() -> None:
    seed = SEEDS / "maze-rats-core-rules.txt"
    if not seed.exists():
        pytest.skip(SEEDS_MISSING)
    assert SEED_SENTENCE in seed.read_text(encoding="utf-8")


def test_paths_match_whole_words_not_parts_of_words() -> None:
    """Seed, *Advantage*: "If the risk of an action is reduced due to the PC's paths, preparation, or
    situational factors, the GM may grant Advantage to the roll." A Path reduces the risk of its own
    activities, which dtc reads as whole words of the choice's label: "Recall knowledge" is no ledge
    for a Roofrunner (a plain D2 roll at +0: 16.7%, not 35.6%), "Block the blow" no lock for a
    Fingersmith (+2: 41.7%, not 68.1%)."""
    rules = MazeRats()
    assert favoured("Recall knowledge") == () and favoured("Block the blow") == ()
    roofrunner, fingersmith = rat("Roofrunner", WIL=0), rat("Fingersmith", STR=2)
    assert rules.choice_odds(roofrunner, "WIL", 2, "Recall knowledge")[1] == Fraction(1, 6) == p_danger(0, PLAIN)
    assert rules.choice_odds(fingersmith, "STR", 2, "Block the blow")[1] == Fraction(15, 36) == p_danger(2, PLAIN)
    # The Paths' own words still count, in any case, between any separators.
    assert rules.choice_odds(roofrunner, "WIL", 2, "Walk the LEDGE")[1] == p_danger(0, ADVANTAGE)
    assert rules.choice_odds(fingersmith, "STR", 2, "Pick the lock")[1] == p_danger(2, ADVANTAGE)
    assert favoured("Cross the rope-bridge") == ("Roofrunner",)
    assert favoured("Sneak up, then climb") == ("Roofrunner", "Shadowjack")
    assert words("Don't climb—leap!") == ["don", "t", "climb", "leap"]


def test_the_forms_are_listed_and_each_path_word_is_one_of_them() -> None:
    assert list(FORMS) == list(PATHS)
    for name, base in PATHS.items():
        assert set(base) <= set(FORMS[name]), name
        assert len(set(FORMS[name])) == len(FORMS[name]), name
        assert all(form.isascii() and form.isalpha() and form.islower() for form in FORMS[name]), name
    for name, forms in FORMS.items():
        for form in forms:
            assert favoured(f"Try to {form.upper()} here") == (name,), form
            assert favours(name, form) and not favours(None, form)
    # Forms are whole words: a longer word holding one is none of them.
    for label in ("Recall knowledge", "Block the blow", "Walled garden", "Trappings of office", "Herbalist",
                  "A hidey-hole", "Tracker", "Overbalance"):
        assert favoured(label) == (), label
    assert favoured("A hidden door") == ("Shadowjack",)
