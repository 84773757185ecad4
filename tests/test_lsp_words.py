"""The language server speaks each game system's words (issue 41, "Words"): hover and completion
ask the system how a check is rolled (roll-high or roll-under, its scores and bonus) and never
assume Death & Treasure — for Maze Rats, no "pass on ≤ STR" and no "passes 100.0%"."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from dtc.lsp.completion import complete
from dtc.lsp.hover import hover
from dtc.lsp.workspace import Documents, Snapshot

URI = "file:///book.txt"


def snapshot(rules: str, line: str) -> Snapshot:
    text = f"Title: T\nRules: {rules}\n\nAdventure Entries\n\n{line}\n\n2 Win. THE END\n\n3 Lose. THE END\n"
    return Documents().update(URI, text, 1)


def hovered(rules: str, line: str, column: int) -> str:
    found = hover(snapshot(rules, line), 6, column)
    assert found is not None and isinstance(found.contents, types.MarkupContent)
    return found.contents.value


def test_maze_rats_hover_rolls_high_with_the_bonus() -> None:
    value = hovered("maze-rats", "1 A gate (STR D2, S2, F3).", 12)
    assert "Check: roll 2d6 and add STR bonus: 10 or more succeeds." in value
    assert "≤" not in value and "100.0%" not in value and "10 in every ability" not in value
    # 28.7%: the same as dtc odds gives the choice (every fresh Maze Rats adventurer)
    assert "A fresh adventurer passes **28.7%** (31/108), over every STR the rules deal" in value
    assert "with STR +1 (the middle of the deal), **27.8%** (5/18)" in value


def test_maze_rats_hover_without_an_ability_and_with_advantage() -> None:
    value = hovered("maze-rats", "1 A gate (D1, S2, F3).", 12)
    assert "roll 3d6, keep the best two and add the most fitting ability's bonus: 10 or more succeeds" in value
    assert "With a +1 bonus in every ability" in value


def test_death_and_treasure_and_zilch_hover_roll_under_in_their_own_words() -> None:
    value = hovered("death-and-treasure", "1 A gate (DEX D3, S2, F3).", 12)
    assert "Check: roll 4d6: a total equal to or under DEX succeeds." in value
    assert "with DEX 10 (the middle of the deal), **15.9%** (103/648)" in value
    zilch = hovered("zilch", "1 A gate (♣ D2, S2, F3).", 12)
    assert "counting each 6 as 0: a total equal to or under ♣ succeeds" in zilch and "bonus" not in zilch


def test_completion_describes_each_difficulty_in_the_systems_words() -> None:
    details = {i.label: i.detail for i in complete(snapshot("maze-rats", "1 A gate ("), 6, 11).items}
    assert details["D2"] == "difficulty 2: roll 2d6 and add the ability's bonus: 10 or more succeeds"
    assert details["D0"] == "no check"
    details = {i.label: i.detail for i in complete(snapshot("death-and-treasure", "1 A gate ("), 6, 11).items}
    assert details["D1"] == "difficulty 1: roll 2d6: a total equal to or under the ability succeeds"


# --- dtc odds: the system's words ---------------------------------------------------------------


def test_odds_speak_of_gear_only_where_the_system_has_it(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from dtc.cli import main

    book = tmp_path / "rats.txt"
    book.write_text("Title: T\nRules: maze-rats\n\nAdventure Entries\n\n1 A gate (STR D2, S2, F3).\n\n"
                    "2 Win. THE END (victory)\n\n3 Lose. THE END (death)\n", encoding="utf-8")
    out = CliRunner().invoke(main, ["odds", str(book)], catch_exceptions=False).stdout
    assert "gear" not in out and "STR D2 2d6 + bonus ≥ 10  28.7%" in out
    assert ("approach check: every check is rolled with the dice of its difficulty (Maze Rats meets a "
            "difficulty no other way)") in out
    book.write_text(book.read_text(encoding="utf-8").replace("maze-rats", "death-and-treasure"), encoding="utf-8")
    out = CliRunner().invoke(main, ["odds", str(book)], catch_exceptions=False).stdout
    assert "With gear" in out and "(any other need, such as gear, met)" in out
