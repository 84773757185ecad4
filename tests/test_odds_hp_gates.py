"""`dtc odds` over a book with a gate on HP (``if HP >= 4``): sound bounds, never a refusal.

The odds do not follow HP through a run (damage and healing are not modelled), so a gate on HP
may be open at one visit and closed at the next. The main figures count every such gate open; the
goal's bounds (``play.hp_bounds``) hold whatever the gate does at each visit. Checked here: books
whose HP never changes (the true chance is the book with the gate decided once, by the starting
HP: it must lie within the bounds), a book worked out by hand in exact fractions, gates that read
HP and a possession together, and a book with damage and healing before the gate whose real runs
(``dtc simulate``) must agree with the bounds.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.odds import compute_odds
from dtc.odds.options import read_book
from dtc.odds.states import build, hp_points
from dtc.simulate.stats import wilson
from dtc.systems import get_ruleset
from helpers.runtime import compiled

HEAD = "Title: Ledges\nRules: death-and-treasure\nStart: 1\n\nAdventure Entries\n\n"
#: Rounding of the solvers (floats): a bound is compared with this much room.
EPS = 1e-9


def book(*entries: str) -> str:
    return HEAD + "\n\n".join(entries) + "\n"


def odds_of(src: str, **kwargs: Any) -> Any:
    return compute_odds(compiled(src), **kwargs)  # type: ignore[arg-type]


def victory(src: str, **kwargs: Any) -> float:
    """The chance of victory of a book without a gate on HP (exact: the chain as always)."""
    play = odds_of(src, **kwargs).play
    assert play is not None and play.random is not None and not play.hp_bounds
    return float(play.random)


def within(value: float, bounds: tuple[float, float]) -> bool:
    return bounds[0] - EPS <= value <= bounds[1] + EPS


# A ledge and a meadow, in a loop: the gate at the ledge is met again and again.
LEDGE = (
    "1 A hedge of thorns. **Follow the Path** (D0, S2). **Take the Long Way** (D0, S3).",
    "2 A narrow ledge over the river. **Leap the Gap** (D0, S4{gate}). **Toss a Pebble** (roll 1d6, 1-2 S4, "
    "3-6 S5). **Cross to the Meadow** (D0, S3).",
    "3 A quiet meadow with a spring. **Back to the Ledge** (D0, S2). **Walk Home** (D0, S5).",
    "4 The far bank and the road home. THE END (victory)",
    "5 You give up and go home. THE END",
)


def ledge(gate: str | None) -> str:
    """The ledge book: the leap gated by ``gate`` (``None``: the leap left out, as a closed gate)."""
    entries = list(LEDGE)
    if gate is None:
        entries[1] = entries[1].replace("**Leap the Gap** (D0, S4{gate}). ", "")
    return book(*(e.replace("{gate}", f", {gate}" if gate else "") for e in entries))


def test_hand_worked_bounds_in_exact_fractions() -> None:
    odds = odds_of(ledge("if HP >= 4"))
    play = odds.play
    # Leap always closed: at the ledge V = 1/2 * 1/3 + 1/2 * M, at the meadow M = V / 2: V = 2/9,
    # and from the hedge 1/2 * 2/9 + 1/2 * 1/9 = 1/6. Always open: V = 1/3 + 1/3 * 1/3 + 1/3 * M,
    # M = V / 2: V = 8/15, M = 4/15, from the hedge 2/5 (which is also the figure counting it open).
    assert play.hp_bounds["random"] == pytest.approx((float(Fraction(1, 6)), float(Fraction(2, 5))), abs=EPS)
    assert play.random == pytest.approx(float(Fraction(2, 5)), abs=EPS)
    assert play.best is None and play.worst is None  # not bounds: the bounds below are
    # The best reader: at least the toss at the ledge (1/3; the leap may never open), at most the leap.
    assert play.hp_bounds["best"] == pytest.approx((float(Fraction(1, 3)), 1.0), abs=EPS)
    assert play.hp_bounds["worst"] == pytest.approx((0.0, 0.0), abs=EPS)  # (walking home is always open)
    assert any("gated on HP" in a for a in odds.assumptions)


def test_a_gate_the_run_cannot_change_lies_within_the_bounds() -> None:
    # No damage and no healing: HP is the starting HP all run, so the gate is open throughout or
    # closed throughout, and the true chance is one of the two books without it.
    bounds = odds_of(ledge("if HP >= 4")).play.hp_bounds
    for fixed in (ledge(""), ledge(None)):  # open all run, closed all run
        assert within(victory(fixed), bounds["random"])
        assert within(odds_of(fixed).play.best, bounds["best"])
        assert within(odds_of(fixed).play.worst, bounds["worst"])


def test_gates_read_together_at_one_hp() -> None:
    # A leap for the strong and a crawl for the weak, both to the far bank: whatever the HP, one
    # of them is open, so the chance is exact (2/5 as the leap alone, open), while counting both
    # open at once would say more (7/8: not a bound, and the report says the figures count it open).
    src = ledge("if HP >= 4").replace("**Toss a Pebble**", "**Crawl Along** (D0, S4, if HP < 4). **Toss a Pebble**")
    play = odds_of(src).play
    both = victory(ledge("").replace("**Toss a Pebble**", "**Crawl Along** (D0, S4). **Toss a Pebble**"))
    one = victory(ledge(""))
    assert play.hp_bounds["random"] == pytest.approx((one, one), abs=EPS)
    assert play.random == pytest.approx(both, abs=EPS) and both > one


def test_the_hp_that_decide_a_condition() -> None:
    cond = {"all": [{"score": "HP", "op": ">=", "count": 10}, {"not": {"score": "HP", "op": "<", "count": 3}}]}
    assert hp_points(cond) == (2, 3, 4, 9, 10, 11)
    assert hp_points({"has": "rope", "count": 1}) == ()


def test_a_possession_decides_a_gate_on_hp_and_a_possession() -> None:
    # Without the hook the climb is closed whatever the HP: the chain knows it, exactly.
    src = book("1 A cliff. [may +iron hook] **Climb** (D0, S2, if HP >= 4 and iron hook). **Walk Round** (D0, S3).",
               "2 The top. THE END (victory)", "3 The long way. THE END")
    graph = compiled(src)
    chain = build(read_book(graph, get_ruleset(graph.get("rules"))), scores={})  # type: ignore[arg-type]
    menus = chain.hp_menus()
    assert len(menus) == 1  # only where the hook is held is the climb in doubt
    play = compute_odds(graph).play  # type: ignore[arg-type]
    assert play is not None
    # the hook is taken half the time: then the climb is one of two ways, open or not
    assert play.hp_bounds["random"] == pytest.approx((0.0, 0.25), abs=EPS)
    assert play.random == pytest.approx(0.25, abs=EPS)
    assert play.hp_bounds["best"] == pytest.approx((0.0, 1.0), abs=EPS)


def test_the_report_gives_the_bounds_in_text_and_json(tmp_path: Path) -> None:
    path = tmp_path / "ledge.txt"
    path.write_text(ledge("if HP >= 4"), encoding="utf-8")
    runner = CliRunner()
    text = runner.invoke(main, ["odds", str(path)])
    assert text.exit_code == 0, text.output
    assert ("Victory: random reader between 16.7% and 40.0% (a gate on HP is not followed through a run: 40.0% "
            "counting it open)") in text.output
    assert "Traceback" not in text.output
    out = runner.invoke(main, ["odds", "--format", "json", str(path)])
    assert out.exit_code == 0, out.output
    play = json.loads(out.stdout)["play"]
    assert play["hp_bounds"]["random"] == pytest.approx({"low": 1 / 6, "high": 0.4}, abs=EPS)
    assert set(play["hp_bounds"]) == {"random", "best", "worst"} and play["hp_note"]
    assert play["random"] == pytest.approx(0.4) and play["best"] is None
    route = runner.invoke(main, ["odds", "--explain", str(path)])
    assert route.exit_code == 0 and "every gate on HP counted open" in " ".join(route.output.split())


def test_a_known_adventurer_still_gets_bounds(tmp_path: Path) -> None:
    # --abilities and --character: the scores are known, HP still changes in a run.
    src = ledge("if HP >= 4").replace("(D0, S2). **Take", "(STR D1, S2, F5). **Take")
    strong = odds_of(src, abilities={"STR": 15, "DEX": 10, "CON": 10, "WIS": 10, "INT": 10, "CHA": 10}).play
    assert "random" in strong.hp_bounds
    low, high = strong.hp_bounds["random"]
    assert 0 < low < high < 1
    fixed = {"STR": 15, "DEX": 10, "CON": 10, "WIS": 10, "INT": 10, "CHA": 10}
    for truth in (victory(src.replace(", if HP >= 4", ""), abilities=fixed),
                  victory(src.replace("**Leap the Gap** (D0, S4, if HP >= 4). ", ""), abilities=fixed)):
        assert within(truth, (low, high))


def character(tmp_path: Path, hp: int, max_hp: int) -> Path:
    """A Death & Treasure adventurer with ``hp`` of ``max_hp`` HP, a lantern and its oil."""
    gear = [{"name": name, "kind": "gear", "quantity": k, "weight": "0", "standard": True}
            for name, k in (("Backpack", 1), ("Lantern", 1), ("Lantern Oil", 3), ("Rations", 14))]
    data = {"format": "dtc-character", "format_version": 1, "name": "Wren",
            "abilities": {"STR": 12, "DEX": 10, "CON": 15, "WIS": 7, "INT": 12, "CHA": 10}, "hp": hp,
            "max_hp": max_hp, "rolled": [12, 10, 15, 7, 12, 10], "swap": None, "languages": 0, "items": gear,
            "notes": [], "ruleset": "death-and-treasure"}
    path = tmp_path / "hero.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_real_runs_with_damage_before_the_gate_lie_within_the_bounds(tmp_path: Path) -> None:
    # Damage before the ledge (d4 from 6 HP: never a death) and healing in the meadow: the leap
    # opens at one visit and not at another. Every victory share of real runs must be within.
    src = ledge("if HP >= 4").replace("A hedge of thorns.", "Thorns tear at you: take d4 damage.").replace(
        "A quiet meadow with a spring.", "A quiet meadow with a spring. You drink and regain 1 HP.")
    path = tmp_path / "ledge.txt"
    path.write_text(src, encoding="utf-8")
    hero = character(tmp_path, 6, 8)
    runner = CliRunner()
    odds = runner.invoke(main, ["odds", "--format", "json", "--character", str(hero), str(path)])
    assert odds.exit_code == 0, odds.output
    bounds = json.loads(odds.stdout)["play"]["hp_bounds"]["random"]
    runs = 4000
    sim = runner.invoke(main, ["simulate", str(path), "-n", str(runs), "--seed", "42", "--workers", "1",
                               "--character", str(hero), "--format", "json", "--no-progress"])
    assert sim.exit_code == 0, sim.output
    report = json.loads(sim.stdout)
    assert report["problems"] == [] and report["outcomes"]["died"]["runs"] == 0
    won = sum(e["runs"] for e in report["endings"] if e["entry"] == 4)
    low, high = wilson(won, runs, 0.99999)
    assert low <= bounds["high"] + EPS and bounds["low"] - EPS <= high, (won, runs, bounds)


def test_past_the_work_limit_the_figures_say_they_are_not_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    from dtc.odds import analyze
    from dtc.odds.report import play_line

    monkeypatch.setattr(analyze, "DECIDE_WORK", 1)
    odds = odds_of(ledge("if HP >= 4"))
    assert odds.play.hp_bounds == {} and odds.play.best is None
    assert "bounds are not computed" in odds.play.hp_note
    assert play_line(odds) == "Victory: random reader 40.0% counting every gate on HP open (not a bound)"


def test_score_gates_and_a_gate_on_hp_over_every_fresh_adventurer() -> None:
    # A gate on STR splits the fresh adventurers into groups; each group's bounds hold its share.
    src = ledge("if HP >= 4").replace("**Walk Home** (D0, S5).", "**Walk Home** (D0, S5). **Scale the Rocks** "
                                      "(D0, S4, if STR >= 13).")
    bounds = odds_of(src).play.hp_bounds
    assert set(bounds) == {"random", "best", "worst"}
    for fixed in (src.replace(", if HP >= 4", ""), src.replace("**Leap the Gap** (D0, S4, if HP >= 4). ", "")):
        assert within(victory(fixed), bounds["random"])


def test_what_the_exploration_did_not_expand_counts_toward_the_upper_bound() -> None:
    # Coins gained in a loop without end: the exploration stops, and what lies past it may be the goal.
    src = book("1 A well. [+1 coin] **Again** (D0, S1). **Spend** (D0, S3). **Gate** (D0, S2, if HP >= 4 and "
               "coin >= 2).", "3 A stall. [-1 coin?] **Back** (D0, S1). **Home** (D0, S4).",
               "2 Through the gate. THE END (victory)", "4 Home. THE END")
    odds = odds_of(src)
    assert odds.unexplored > 0
    low, high = odds.play.hp_bounds["random"]
    assert low == 0.0  # (the gate may never open: nothing else wins)
    assert high >= odds.play.random + odds.unexplored - EPS


@pytest.mark.parametrize(("gate", "open_"), [("if coins >= 0", True), ("if coins > 0", False), ("if coins < 1", True),
                                             ("if coins = 0", True), ("if coins < 0", False)])
def test_a_gate_on_none_of_something_is_read_as_the_book_says(gate: str, open_: bool) -> None:
    # (a count of none read as "at least 0" once divided the counts by zero: a traceback)
    src = book(f"1 A door. **Go** (D0, S2, {gate}). **Stay** (D0, S3).", "2 Out. THE END (victory)",
               "3 In. THE END")
    assert victory(src) == pytest.approx(0.5 if open_ else 0.0)


def random_book(seed: int) -> list[list[tuple[int, tuple[str, int] | None]]]:
    """Eight rooms of two or three ways (some gated on HP, some a DEX check that fails into room 8
    when the seed is odd), then a victory, a death and a plain end."""
    import random

    rng = random.Random(seed)
    rooms = []
    for _ in range(8):
        ways = []
        for _way in range(rng.choice((2, 3))):
            target = rng.randint(1, 11)
            gate = (rng.choice((">=", "<")), rng.randint(3, 8)) if rng.random() < 0.35 else None
            ways.append((target, gate))
        rooms.append(ways)
    return rooms


def written(rooms: list[list[tuple[int, tuple[str, int] | None]]], hp: int | None, seed: int = 0) -> str:
    """The book, its gates on HP as written (``hp`` None) or decided once by the adventurer's ``hp``."""
    entries = []
    for n, ways in enumerate(rooms, start=1):
        shown = []
        for k, (target, gate) in enumerate(ways):
            if gate is not None and hp is not None and not (hp >= gate[1] if gate[0] == ">=" else hp < gate[1]):
                continue  # closed all run
            cond = f", if HP {gate[0]} {gate[1]}" if gate is not None and hp is None else ""
            check = "DEX D1" if (k + n) % 3 == 0 and seed % 2 else "D0"
            shown.append(f"**Way {k}** ({check}, S{target}{', F8' if check != 'D0' else ''}{cond}).")
        entries.append(f"{n} Room {n}. " + (" ".join(shown) if shown else "Nothing more."))
    entries += ["9 Sunlight. THE END (victory)", "10 A fall. THE END (death)", "11 A quiet road. THE END"]
    return book(*entries)


@pytest.mark.parametrize("seed", range(12))
def test_random_books_whose_hp_never_changes_lie_within_the_bounds(seed: int) -> None:
    rooms = random_book(seed)
    odds = odds_of(written(rooms, None, seed))
    bounds = odds.play.hp_bounds
    if not any(g is not None for ways in rooms for _, g in ways):
        return
    for hp in range(1, 11):  # whatever the adventurer's HP, it stays so: the gates are decided once
        fixed = odds_of(written(rooms, hp, seed)).play
        assert within(fixed.random, bounds["random"]), (seed, hp)
        assert within(fixed.best, bounds["best"]), (seed, hp)
        assert within(fixed.worst, bounds["worst"]), (seed, hp)


def test_the_least_chance_stays_clear_of_the_goal_forever_where_it_can() -> None:
    from dtc.odds.decide import least, optimal
    from dtc.odds.small import plain_shape

    # From the yard the worst reader may pace forever (never the goal) or leave by the gate: a
    # policy that leaves is a fixed point no single switch improves, but not the least chance.
    graph = compiled(book("1 A yard. **Pace** (D0, S1). **Gate** (D0, S2).", "2 Out. THE END (victory)"))
    shape = plain_shape(read_book(graph, get_ruleset(graph.get("rules"))))  # type: ignore[arg-type]
    goal = [s == shape.index[2] for s in range(len(shape.states))]
    assert least(shape, [], goal).value[shape.start] == 0.0
    assert optimal(shape, [], goal, True).value[shape.start] == 1.0
