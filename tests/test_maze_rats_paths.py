"""Maze Rats Paths: one rule for which choices a Path favours, read the same by `dtc play`,
`dtc odds` and the web edition (``dtc.systems.maze_rats.paths``, docs/rulesets/maze-rats.md).

Seed (maze-rats-core-rules.txt, *Advantage*): "If the risk of an action is reduced due to the
PC's paths, preparation, or situational factors, the GM may grant Advantage to the roll."
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

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


# --- dtc odds ------------------------------------------------------------------------------

HEAD = "Title: T\nRules: maze-rats\nStart: 1\n\nAdventure Entries\n\n"
#: One check a Roofrunner rolls with advantage (D3 cancels into a plain roll), then one for a Shadowjack
#: (D2 rolls as D1), then one no Path favours: the same adventurer makes all three.
THREE = HEAD + ("1 You could **Climb the wall** (DEX D3, S2, F9).\n\n2 **Sneak past the guard** (WIL D2, S3, F9).\n\n"
                "3 **Recall knowledge** (WIL D2, S4, F9).\n\n4 Through. THE END\n\n9 Caught. THE END\n")
ONE = HEAD + "1 You could **Climb the wall** (DEX D3, S2, F3).\n\n2 Up. THE END\n\n3 Down. THE END\n"


def enumerated(checks: list[tuple[str, int, str | None]]) -> Fraction:
    """P(every check passes) for a fresh adventurer, by counting: the d6 of the bonus order (+2/+1/+0
    over STR, DEX, WIL), the d6 of the feature (1-2 +1 attack bonus, 3-6 Briarborn, Fingersmith,
    Roofrunner, Shadowjack) and the dice of each roll (3d6: D1 keeps the best two, D3 the worst two,
    D2 the first two; a Path's advantage makes D3 a plain roll and D2 a D1 roll)."""
    orders = [(2, 1, 0), (2, 0, 1), (1, 2, 0), (0, 2, 1), (1, 0, 2), (0, 1, 2)]
    features = [None, None, "Briarborn", "Fingersmith", "Roofrunner", "Shadowjack"]
    rolls = [(a, b, c) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)]
    total = Fraction(0)
    for order in orders:
        bonus = dict(zip(("STR", "DEX", "WIL"), order, strict=True))
        for feature in features:
            p = Fraction(1, 36)
            for ability, d, path in checks:
                if feature is not None and feature == path:
                    d = max(1, d - 1)
                kept = [sorted(r, reverse=True)[:2] if d == 1 else sorted(r)[:2] if d == 3 else r[:2] for r in rolls]
                p *= Fraction(sum(1 for k in kept if sum(k) + bonus[ability] >= 10), len(rolls))
            total += p
    return total


def test_odds_of_a_fresh_adventurer_count_the_paths_exactly() -> None:
    from dtc.odds import compute_odds
    from helpers.runtime import compiled

    one = enumerated([("DEX", 3, "Roofrunner")])
    assert one == Fraction(283, 1944)  # 14.6%; without Paths 19/162 = 11.7%
    odds = compute_odds(compiled(ONE))
    assert odds.method == "mixture"
    assert odds.outcomes["ending:2"] == pytest.approx(float(one), abs=1e-12)
    three = enumerated([("DEX", 3, "Roofrunner"), ("WIL", 2, "Shadowjack"), ("WIL", 2, None)])
    odds = compute_odds(compiled(THREE))
    assert odds.outcomes["ending:4"] == pytest.approx(float(three), abs=1e-12)


def test_the_check_keys_carry_the_paths_and_the_readers_split_by_them() -> None:
    from dtc.odds.adventurers import average, for_character, fresh
    from dtc.odds.checks import fresh_key_probability
    from dtc.odds.options import CheckKey, read_book
    from dtc.systems import get_ruleset
    from helpers.runtime import compiled

    rules = get_ruleset("maze-rats")
    checks = read_book(compiled(THREE), rules).checks
    assert checks == [CheckKey("DEX", 3, ("Roofrunner",)), CheckKey("WIL", 2, ("Shadowjack",)), CheckKey("WIL", 2)]
    # A given adventurer: their Path's checks with advantage, the others plain.
    scores = {"STR": 0, "DEX": 1, "WIL": 2}
    roof = for_character(rules, scores, checks, "check", feature="Roofrunner").readers[0].chances
    assert roof == (p_danger(1, PLAIN), p_danger(2, PLAIN), p_danger(2, PLAIN))
    jack = for_character(rules, scores, checks, "check", feature="Shadowjack").readers[0].chances
    assert jack == (rules.check_probability(scores, "DEX", 3), p_danger(2, ADVANTAGE), p_danger(2, PLAIN))
    assert for_character(rules, scores, checks, "check").readers[0].chances[:2] == (
        rules.check_probability(scores, "DEX", 3), p_danger(2, PLAIN))
    # Fresh adventurers: each check's chance over the mixture is the enumerated one.
    readers = fresh(rules, checks, "check", 10)
    assert sum(r.weight for r in readers.readers) == 1
    for i, (ability, d, favoured_by) in enumerate(checks):
        alone = enumerated([(ability or "STR", d, favoured_by[0] if favoured_by else None)])
        assert sum(r.weight * r.chances[i] for r in readers.readers) == alone
        assert fresh_key_probability(rules, checks[i]) == alone
        assert average(rules, checks, "check").readers[0].chances[i] == alone
    # A book whose labels favour no Path: one group of features, the readers of before.
    plain = read_book(compiled(HEAD + "1 **Recall knowledge** (WIL D2, S2, F3).\n\n2 A. THE END\n\n3 B. THE END\n"),
                      rules).checks
    assert plain == [CheckKey("WIL", 2)] and len(fresh(rules, plain, "check", 3).readers) == 3


def test_other_rules_have_no_paths_in_their_keys() -> None:
    from dtc.odds.options import read_book
    from dtc.systems import get_ruleset
    from helpers.runtime import compiled

    for name in ("death-and-treasure", "zilch", "death-and-treasure + dungeon-rules"):
        rules = get_ruleset(name)
        src = f"Title: T\nRules: {name}\nStart: 1\n\nAdventure Entries\n\n1 **Climb the wall** (D2, S2, F3).\n\n" \
              "2 A. THE END\n\n3 B. THE END\n"
        assert [c.favoured for c in read_book(compiled(src), rules).checks] == [()], name
        assert rules.fresh_features() == [(1, None)]


RUNS = 4000
CONFIDENCE = 0.99999  # as tests/test_outcomes_agree.py: one false alarm in thousands of suite runs


@pytest.mark.parametrize("src", [ONE, THREE], ids=["one-check", "three-checks"])
def test_odds_and_simulate_agree_on_a_book_with_path_words(src: str) -> None:
    """`dtc simulate`'s fresh adventurers (a Path on 4 faces of the feature's d6) end where the odds say."""
    from collections import Counter

    from dtc.odds import compute_odds
    from dtc.simulate.runner import Job, play_one
    from dtc.simulate.stats import wilson
    from dtc.systems import play_rules
    from helpers.runtime import compiled

    graph = compiled(src)
    odds = compute_odds(graph)
    rules = play_rules("maze-rats")
    job = Job(graph, "random", 20261207)
    counts: Counter[str] = Counter()
    for i in range(RUNS):
        run = play_one(job, rules, i)
        assert run.outcome == "ended", run
        counts[f"ending:{run.entry}"] += 1
    assert set(counts) <= set(odds.outcomes)
    for key, p in odds.outcomes.items():
        low, high = wilson(counts[key], RUNS, CONFIDENCE)
        assert low - 1e-9 <= p <= high + 1e-9, (
            f"{key}: odds {p:.4f}, {counts[key]} of {RUNS} runs ({low:.4f}-{high:.4f})")


# --- the web edition -------------------------------------------------------------------------

WEB_BOOK = HEAD + ("1 **Climb the wall** (DEX D2, S2, F3), **Recall knowledge** (DEX D2, S2, F3) or "
                   "**Jump the gap** (DEX D3, S2, F3).\n\n2 Up. THE END\n\n3 Down. THE END\n")


def page_data(tmp_path: Path, src: str) -> Any:
    """The data a built web edition hands its script (``#dtc-data``)."""
    import json

    from dtc.compiler.api import compile_text
    from dtc.editions import build

    build(compile_text(src, "paths.txt").graph(), tmp_path, "paths", pdf=False)
    page = (tmp_path / "paths.html").read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="dtc-data">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_the_web_roller_reads_the_same_words(tmp_path: Path) -> None:
    """The page's script gets the Paths' word forms and the word pattern from Python (the system's
    web description), and keeps no list of its own."""
    from dtc.systems.maze_rats.paths import WORD

    data = page_data(tmp_path, WEB_BOOK)
    combat = data["system"]["combatData"]
    assert combat["paths"] == {name: list(forms) for name, forms in FORMS.items()}
    assert combat["pathWord"] == WORD.pattern == "[a-z]+"  # the same in a Python and a JavaScript regex
    assert combat["favouredAs"] == {"1": 1, "2": 1, "3": 2}
    script = (ROOT / "src" / "dtc" / "editions" / "static" / "web.js").read_text(encoding="utf-8")
    assert "combatData.favouredAs" in script and "cd.paths" in script and "cd.pathWord" in script
    for name, forms in FORMS.items():  # no name or word of a Path written into the script
        assert name not in script
        quoted = [form for form in forms if f'"{form}"' in script or f"'{form}'" in script]
        # "gear": the part of a plan (Death & Treasure's "use suitable gear"); "stealth": Dungeon
        # Rules' pace of that name, which the page's clock reads
        assert quoted in ([], ["gear"], ["stealth"]), name
    other = page_data(tmp_path, WEB_BOOK.replace("maze-rats", "death-and-treasure"))
    assert "paths" not in other["system"]["combatData"]


def test_the_ruleset_page_lists_every_form() -> None:
    """docs/rulesets/maze-rats.md says how Paths match and lists the forms: the list is this one."""
    page = (ROOT / "docs" / "rulesets" / "maze-rats.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| (\w+) \| (`.*`) \|$", page, re.M))
    assert {name: tuple(re.findall(r"`(\w+)`", row)) for name, row in rows.items()} == FORMS
    text = " ".join(page.split())
    assert "runs of the letters a–z" in text and "`Recall knowledge` holds no `ledge`" in text
