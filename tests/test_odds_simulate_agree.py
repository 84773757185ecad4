"""`dtc simulate --policy random` and `dtc odds --policy random` are one reader (issue 38, "one meaning").

Both pick uniformly among the ways on and meet a difficulty by rolling its check (Death & Treasure:
D1 the check alone, D2 a turn and the check, D3 all three, the gear taken as appropriate); both make
a fresh adventurer the same way (3d6 in order for Death & Treasure: no swap). Here each game system
plays a small book of checks at every difficulty, a find that opens a gate, coins counted and paid,
and a random branch, with nothing either leaves out (no fights, damage, encounters, hazards), and
each ending's share of the real command's runs must bracket the odds' exact chance (99.999%
Wilson intervals; about thirty comparisons).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.simulate.stats import wilson

RUNS = 6000
CONFIDENCE = 0.99999

BOOK = """Title: One reader
Rules: {rules}
Start: 1

1 A rope bridge sways over the gorge. [+3 coins] **Cross It** ({a} D1, S2, F9). **Wade the Ford** ({b} D3, S3, F9).

2 A shrine with a bone charm on its step. [+charm] **Climb the Wall** ({b} D2, S4, F9). **Back to the Ford** (D0, S3).

3 The ferryman's hut. **Pay the Ferryman** (D0, S4, buy 3 coins). **Force the Gate** ({c} D3, S4, F9).
**Toss a Stone** (roll 1d6, 1-2 S4, 3-6 S9).

4 A warded door and a sinkhole. **The Warded Door** (D0, S10, if charm).
**The Sinkhole** ({a} D2, S10, F9). **Turn Back** (D0, S11).

9 You fall. THE END (death)

10 Daylight and the road home. THE END (victory)

11 You walk home with nothing. THE END
"""

SYSTEMS = {
    "death-and-treasure": ("DEX", "STR", "WIS"),
    "maze-rats": ("DEX", "STR", "WIL"),
    "zilch": ("♠", "♣", "♥"),
    "death-and-treasure + dungeon-rules": ("AGI", "LUCK", "WORLDSWAY"),
}


@pytest.mark.parametrize("rules", sorted(SYSTEMS))
def test_the_random_reader_is_one_reader(rules: str, tmp_path: Path) -> None:
    a, b, c = SYSTEMS[rules]
    book = tmp_path / "book.txt"
    book.write_text(BOOK.format(rules=rules, a=a, b=b, c=c), encoding="utf-8")
    runner = CliRunner()
    lint = runner.invoke(main, ["lint", str(book)])
    assert lint.exit_code == 0, lint.output
    odds = runner.invoke(main, ["odds", str(book), "--format", "json"])
    assert odds.exit_code == 0, odds.output
    data = json.loads(odds.stdout)
    assert data["unexplored"] == 0 and data["reader"]["method"] == "mixture"
    exact = {o["key"]: o["probability"] for o in data["outcomes"]}
    sim = runner.invoke(main, ["simulate", str(book), "-n", str(RUNS), "--seed", "38", "--workers", "1",
                               "--format", "json", "--no-progress"])
    assert sim.exit_code == 0, sim.output
    runs = json.loads(sim.stdout)
    assert runs["outcomes"]["ended"]["runs"] == RUNS and runs["problems"] == []
    got = {f"ending:{e['entry']}": e["runs"] for e in runs["endings"]}
    assert set(got) <= {k for k, p in exact.items() if p > 0}
    for key in ("ending:9", "ending:10", "ending:11"):
        low, high = wilson(got.get(key, 0), RUNS, CONFIDENCE)
        assert low <= exact.get(key, 0.0) <= high, (
            f"{rules} {key}: odds {exact.get(key, 0.0):.5f}, simulate {got.get(key, 0)} of {RUNS} "
            f"({low:.5f}-{high:.5f})")


def test_which_checks_decide_is_over_the_same_adventurers(tmp_path: Path) -> None:
    """The decisive table's "now" is the report's chance of victory (every fresh adventurer, not
    an average one), and each check made easier or harder is that adventurer's own chance of it:
    on one STR check, Σ P(STR = s) · P(roll ≤ s) with 2d6 (D1), 3d6 (D2) and 4d6 (D3)."""
    from fractions import Fraction
    from itertools import product

    def at_most(dice: int, s: int) -> Fraction:
        rolls = list(product(range(1, 7), repeat=dice))
        return Fraction(sum(1 for r in rolls if sum(r) <= s), len(rolls))

    score = {s: Fraction(sum(1 for r in product(range(1, 7), repeat=3) if sum(r) == s), 216) for s in range(3, 19)}

    def fresh(dice: int) -> float:
        return float(sum(p * at_most(dice, s) for s, p in score.items()))

    book = ("Title: Heave\nRules: death-and-treasure\nStart: 1\n\n1 A boulder. **Heave It** (STR D2, S2, F3). "
            "**Go Round** (D0, S3).\n\n2 It rolls aside. THE END (victory)\n\n3 The roof falls. THE END (death)\n")
    (tmp_path / "b.txt").write_text(book, encoding="utf-8")
    out = CliRunner().invoke(main, ["odds", str(tmp_path / "b.txt"), "--format", "json"])
    assert out.exit_code == 0, out.output
    play = json.loads(out.stdout)["play"]
    (row,) = play["decisive"]
    assert row["goal"] == pytest.approx(play["chosen"], abs=1e-12) == pytest.approx(fresh(3) / 2, abs=1e-12)
    assert row["easier"] == pytest.approx(fresh(2) / 2, abs=1e-12)
    assert row["harder"] == pytest.approx(fresh(4) / 2, abs=1e-12)
    assert row["derivative"] == pytest.approx(0.5, abs=1e-9)
    assert "every freshly made adventurer" in play["decisive_reader"]


@pytest.mark.parametrize("rules", sorted(SYSTEMS))
def test_the_likeliest_reader_is_one_reader(rules: str, tmp_path: Path) -> None:
    """`dtc simulate --policy likeliest` (the likeliest ways, uniformly among ties; what a may
    offers taken) brackets `dtc odds --policy likeliest`, as the random reader does above."""
    a, b, c = SYSTEMS[rules]
    book = tmp_path / "book.txt"
    book.write_text(BOOK.format(rules=rules, a=a, b=b, c=c), encoding="utf-8")
    runner = CliRunner()
    odds = runner.invoke(main, ["odds", str(book), "--format", "json", "--policy", "likeliest"])
    assert odds.exit_code == 0, odds.output
    exact = {o["key"]: o["probability"] for o in json.loads(odds.stdout)["outcomes"]}
    sim = runner.invoke(main, ["simulate", str(book), "-n", str(RUNS), "--seed", "38", "--workers", "1",
                               "--policy", "likeliest", "--format", "json", "--no-progress"])
    assert sim.exit_code == 0, sim.output
    got = {f"ending:{e['entry']}": e["runs"] for e in json.loads(sim.stdout)["endings"]}
    for key in ("ending:9", "ending:10", "ending:11"):
        low, high = wilson(got.get(key, 0), RUNS, CONFIDENCE)
        assert low <= exact.get(key, 0.0) <= high, (
            f"{rules} {key}: odds {exact.get(key, 0.0):.5f}, simulate {got.get(key, 0)} of {RUNS}")
