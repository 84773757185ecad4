"""`dtc odds`: exact check chances, option mixes, the fresh-adventurer mixture, and the CLI."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.compiler.api import compile_text
from dtc.odds import compute_odds
from dtc.odds.checks import (
    IMPOSSIBLE,
    best_mix,
    fresh_check_probability,
    max_of,
    option_mixes,
    score_distribution,
)
from dtc.odds.report import pct, render_text, to_json
from dtc.systems import BUILTIN_SYSTEMS, System, get_ruleset
from dtc.systems.death_and_treasure.ruleset import DeathAndTreasure

DT = get_ruleset("death-and-treasure")
HEAD = "Test Book\n\nAdventure Entries\n\n"


def book(*entries: str) -> str:
    return HEAD + "\n\n".join(entries) + "\n"


def graph_of(src: str) -> dict[str, object]:
    return compile_text(src, "book.txt").graph()


def ways(count: int, at_most: int) -> int:
    """How many of the 6**count rolls of ``count``d6 total at most ``at_most`` (brute force)."""
    return sum(1 for faces in product(range(1, 7), repeat=count) if sum(faces) <= at_most)


# --- one check ---------------------------------------------------------------------------


@pytest.mark.parametrize(("difficulty", "score"), [(1, 7), (2, 12), (3, 14), (3, 3), (1, 12)])
def test_check_chance_for_a_character_is_exact(difficulty: int, score: int) -> None:
    odds = compute_odds(graph_of(book(f"1 Wall (DEX D{difficulty}, S2, F3).", "2 Up. THE END", "3 Down. THE END")),
                        abilities={"STR": 10, "DEX": score, "CON": 10, "WIS": 10, "INT": 10, "CHA": 10})
    (wall,) = odds.choices
    count = difficulty + 1
    assert wall.check == Fraction(ways(count, score), 6**count)
    assert wall.dice == f"{count}d6"
    assert odds.outcomes["ending:2"] == pytest.approx(float(wall.check), abs=1e-12)
    assert odds.outcomes["ending:3"] == pytest.approx(1 - float(wall.check), abs=1e-12)


def test_fresh_chance_is_the_exact_mixture_over_3d6_scores() -> None:
    expected = sum((Fraction(ways(3, s) - ways(3, s - 1), 216) * Fraction(ways(3, s), 216) for s in range(3, 19)),
                   Fraction(0))
    assert fresh_check_probability(DT, "DEX", 2) == expected


def test_fresh_chance_without_ability_uses_the_best_of_six_scores() -> None:
    dist = score_distribution(DT)
    best = max_of([dist] * 6)
    assert sum(best.values()) == 1
    assert best[18] == 1 - (1 - dist[18]) ** 6
    expected = sum((p * Fraction(ways(2, s), 36) for s, p in best.items()), Fraction(0))
    assert fresh_check_probability(DT, None, 1) == expected
    assert fresh_check_probability(DT, None, 1) > fresh_check_probability(DT, "STR", 1)


def test_encumbered_rolls_twice_and_keeps_the_worse() -> None:
    p = DT.check_probability({"DEX": 11}, "DEX", 2)
    assert DT.check_probability({"DEX": 11}, "DEX", 2, encumbered=True) == p * p
    src = book("1 Wall (DEX D2, S2, F3).", "2 Up. THE END", "3 Down. THE END")
    odds = compute_odds(graph_of(src), abilities={"DEX": 11}, encumbered=True)
    assert odds.choices[0].check == p * p


# --- option mixes ------------------------------------------------------------------------


def test_death_and_treasure_option_mixes() -> None:
    p = Fraction(1, 2)
    d1 = option_mixes(DT, 1, p)
    assert {m.parts for m in d1} == {("turn",), ("gear",), ("check",)}
    assert best_mix(d1, gear=False).parts == ("turn",)  # sure, at a 1-in-6 encounter risk
    assert best_mix(d1, gear=False).encounter == Fraction(1, 6)
    assert best_mix(d1, gear=True).parts == ("gear",)  # sure and safe
    d2 = option_mixes(DT, 2, p)
    assert best_mix(d2, gear=False).parts == ("turn", "check")
    assert best_mix(d2, gear=False).success == p
    assert best_mix(d2, gear=True).parts == ("turn", "gear")
    d3 = option_mixes(DT, 3, p)
    assert [m.parts for m in d3] == [("turn", "gear", "check")]
    assert best_mix(d3, gear=False) is IMPOSSIBLE
    assert best_mix(d3, gear=True).success == p
    assert best_mix(option_mixes(DT, 1, Fraction(1)), gear=False).parts == ("check",)  # sure anyway: no turn


@pytest.fixture
def other_rules() -> Iterator[str]:
    """A ruleset dtc does not special-case: the generic fallbacks must apply."""
    rules = DeathAndTreasure(name="test-rules", title="Test Rules", abilities={"GRIT": "GRIT", "WITS": "WITS"},
                             difficulties=(0, 1, 2, 3))
    BUILTIN_SYSTEMS["test-rules"] = System(rules, play="dtc.systems.death_and_treasure.play:DeathAndTreasure")
    yield "test-rules"
    del BUILTIN_SYSTEMS["test-rules"]


def test_other_rulesets_fall_back_to_the_check_alone(other_rules: str) -> None:
    rules = get_ruleset(other_rules)
    assert [m.parts for m in option_mixes(rules, 2, Fraction(1, 3))] == [("check",)]
    src = "Rules: test-rules\n\n" + book("1 Wall (GRIT D2, S2, F3).", "2 Up. THE END", "3 Down. THE END")
    odds = compute_odds(graph_of(src), approach="best")
    assert odds.choices[0].best.parts == ("check",)
    assert odds.method == "mixture"
    assert any("3d6 for each ability" in a for a in odds.assumptions)  # the interface's default
    assert odds.outcomes["ending:2"] == pytest.approx(float(fresh_check_probability(rules, "GRIT", 2)))


def test_approach_best_uses_the_surest_way() -> None:
    src = book("1 Door (D1, S2, F3). Wall (DEX D3, S2, F3).", "2 In. THE END", "3 Out. THE END")
    best = compute_odds(graph_of(src), abilities={"DEX": 12}, approach="best")
    # D1: spend a turn (sure); D3 without gear: impossible, so the wall always fails.
    assert best.outcomes["ending:2"] == pytest.approx(0.5)
    gear = compute_odds(graph_of(src), abilities={"DEX": 12}, approach="gear")
    assert gear.outcomes["ending:2"] == pytest.approx(0.5 + 0.5 * ways(4, 12) / 6**4)


# --- reports -----------------------------------------------------------------------------


def test_pct_never_rounds_a_possibility_away() -> None:
    assert pct(0.0) == "0%"
    assert pct(1e-9) == "<0.1%"
    assert pct(1 - 1e-9) == ">99.9%"
    assert pct(1.0) == "100%"
    assert pct(Fraction(1, 3)) == "33.3%"
    assert pct(None) == "?"


def test_text_report_prints_author_text_as_written() -> None:
    src = book("1 The [bold]red[/bold] door (DEX D1, S2, F3).", "2 In. THE END", "3 Out. THE END")
    text = render_text(compute_odds(graph_of(src)))
    assert "[bold]red[/bold] door" in text
    assert "THE END at 2" in text and "Assumptions" in text


def test_json_report_has_every_part() -> None:
    src = book("1 Door (CHA D2, S2, F3). Back (D0, S1).", "2 In. THE END", "3 Out. THE END")
    data = to_json(compute_odds(graph_of(src)))
    assert data["format"] == "dtc-odds"
    assert data["reader"]["method"] == "mixture"
    assert sum(o["probability"] for o in data["outcomes"]) == pytest.approx(1.0)
    assert [c["difficulty"] for c in data["checks"]] == [2, 0]
    assert data["choices"][0]["check"] == 0
    assert {e["number"] for e in data["entries"]} == {1, 2, 3}
    json.dumps(data, allow_nan=False)


# --- the command -------------------------------------------------------------------------


@pytest.fixture
def small(tmp_path: Path) -> Path:
    path = tmp_path / "small.txt"
    path.write_text(book("1 Door (DEX D2, S2, F3). Around (D0, S3).", "2 In. THE END", "3 Out. Back (D0, S1)."),
                    encoding="utf-8")
    return path


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_cli_text_and_json(small: Path, tmp_path: Path) -> None:
    code, out, _ = run("odds", str(small))
    assert code == 0 and "Outcomes" in out and "every freshly made adventurer" in out
    code, out, _ = run("odds", str(small), "--format", "json", "--abilities", "dex=12", "--policy", "likeliest")
    data = json.loads(out)
    assert code == 0 and data["reader"]["method"] == "character" and data["policy"] == "likeliest"
    compiled = tmp_path / "small.json"
    assert run("compile", str(small), "-o", str(compiled))[0] == 0
    code, out2, _ = run("odds", str(compiled), "--format", "json", "--abilities", "DEX=12", "--policy", "likeliest")
    assert code == 0 and json.loads(out2)["outcomes"] == data["outcomes"]


def test_cli_character_file(small: Path, tmp_path: Path) -> None:
    sheet = {"format": "dtc-character", "format_version": 1, "name": "Vel", "hp": 5, "max_hp": 5, "items": [],
             "abilities": {"STR": 9, "DEX": 15, "CON": 10, "WIS": 11, "INT": 8, "CHA": 13}}
    path = tmp_path / "vel.json"
    path.write_text(json.dumps(sheet), encoding="utf-8")
    code, out, _ = run("odds", str(small), "--character", str(path), "--format", "json")
    assert code == 0
    assert json.loads(out)["checks"][0]["pass_exact"] == str(Fraction(ways(3, 15), 216))
    code, out, _ = run("odds", str(small), "--character", str(path), "--abilities", "DEX=3", "--format", "json")
    assert json.loads(out)["checks"][0]["pass_exact"] == str(Fraction(1, 216))


@pytest.mark.parametrize(("args", "message"), [
    (["--abilities", "LUCK=3"], "is not NAME=SCORE"),
    (["--abilities", "DEX=high"], "is not a whole number"),
    (["--abilities", ","], "give scores"),
])
def test_cli_bad_abilities_are_one_line(small: Path, args: list[str], message: str) -> None:
    code, _, err = run("odds", str(small), *args)
    assert code == 2 and message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_cli_bad_inputs_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    for args in (["odds", str(tmp_path / "nope.txt")], ["odds", str(bad)]):
        code, _, err = run(*args)
        assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    unknown = tmp_path / "rules.txt"
    unknown.write_text("Rules: chess\n\n" + book("1 Go (D0, S2).", "2 End. THE END"), encoding="utf-8")
    code, _, err = run("odds", str(unknown))
    assert code == 2 and "unknown ruleset 'chess'" in err
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps({"format": "dtc-character"}), encoding="utf-8")
    ok = tmp_path / "ok.txt"
    ok.write_text(book("1 Go (D0, S2).", "2 End. THE END"), encoding="utf-8")
    code, _, err = run("odds", str(ok), "--character", str(sheet))
    assert code == 2 and "sheet.json" in err and len(err.strip().splitlines()) == 1


def test_cli_writes_a_file(small: Path, tmp_path: Path) -> None:
    out = tmp_path / "odds.json"
    code, _, err = run("odds", str(small), "--format", "json", "-o", str(out))
    assert code == 0 and "wrote" in err
    assert json.loads(out.read_text(encoding="utf-8"))["format"] == "dtc-odds"


def test_sample_dungeon(sample_path: Path) -> None:
    code, out, _ = run("odds", str(sample_path), "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert sum(o["probability"] for o in data["outcomes"]) == pytest.approx(1.0)
    keys = {o["key"] for o in data["outcomes"]}
    assert {"escaped", "dead_end:22", "dead_end:23"} <= keys  # the book's two entries with no way on
    stall = {o["key"]: o["probability"] for o in data["outcomes"]}
    assert 0 < stall["dead_end:22"] < 0.2
    fights = {h["entry"] for h in data["hazards"] if "fight" in h["what"]}
    assert {18, 30} <= fights


# --- dtc graph --odds ----------------------------------------------------------------------


def test_graph_odds_labels_exits_and_shades_entries(small: Path) -> None:
    code, out, _ = run("graph", str(small), "--odds", "--format", "dot")
    assert code == 0
    assert "<B>50%</B>" in out  # the door or around, uniformly
    assert "reached by 100% of readers" in out
    plain = run("graph", str(small), "--format", "dot")[1]
    assert "<B>50%</B>" not in plain and "reached by" not in plain


def test_graph_odds_escapes_its_own_less_than(tmp_path: Path) -> None:
    from dtc.odds.overlay import overlay_graph, shade
    from dtc.render.graph import build_dot

    src = book("1 Door (D1, S2, F3).", "2 In. THE END", "3 Out. THE END")  # the best of six scores: >99%
    graph = graph_of(src)
    dot = build_dot(graph, odds=overlay_graph(graph)).source
    assert "<B>&lt;1%</B>" in dot and "<B>&gt;99%</B>" in dot
    assert "<1%" not in dot.replace("&lt;1%", "")
    assert shade(0.0) == "#ffffff" and shade(1.0) == "#42a5f5"


def test_graph_odds_needs_graphviz_formats(small: Path) -> None:
    code, _, err = run("graph", str(small), "--odds", "--format", "mermaid")
    assert code == 2 and "--odds" in err


def test_graph_odds_renders_svg(small: Path, tmp_path: Path) -> None:
    import shutil
    import xml.dom.minidom

    if shutil.which("dot") is None:
        pytest.skip("Graphviz is not installed")
    out = tmp_path / "odds.svg"
    code, _, _ = run("graph", str(small), "--odds", "-o", str(out))
    assert code == 0
    xml.dom.minidom.parse(str(out))
    assert "50%" in out.read_text(encoding="utf-8")


def test_a_ruleset_with_a_joint_distribution_of_fresh_adventurers(other_rules: str) -> None:
    # Scores dealt as a pair (one 15 and one 6, in either order), not drawn independently: the best
    # score is always 15, which independent draws would not give.
    rules = get_ruleset(other_rules)
    deals = [(Fraction(1, 2), {"GRIT": 15, "WITS": 6}), (Fraction(1, 2), {"GRIT": 6, "WITS": 15})]
    object.__setattr__(rules, "fresh_characters", lambda: deals)
    src = "Rules: test-rules\n\n" + book("1 Wall (D2, S2, F3). Gate (GRIT D2, S2, F3).", "2 Up. THE END",
                                         "3 Down. THE END")
    odds = compute_odds(graph_of(src))
    assert odds.choices[0].check == Fraction(ways(3, 15), 216)
    assert odds.choices[1].check == Fraction(ways(3, 15) + ways(3, 6), 2 * 216)
    assert "joint distribution" in " ".join(odds.assumptions)
    expected = (odds.choices[0].check + odds.choices[1].check) / 2
    assert odds.outcomes["ending:2"] == pytest.approx(float(expected))
