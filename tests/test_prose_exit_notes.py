"""A note's cross-reference is not a prose exit: "(... if you have read section 3 earlier.)" and
"have read Section 15" say what the reader may have read before, not where to go now. Real prose
exits ("turn to 4", "go to 4", "Read section 4.") are still exits. Issue 41, "Words"."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from dtc.cli import main
from dtc.compiler.api import compile_text
from helpers import lint_text

HEAD = "Title: Notes\nRules: death-and-treasure\n\nAdventure Entries\n\n"


def _exits(src: str) -> dict[int, list[tuple[int, str]]]:
    graph = compile_text(HEAD + src).graph()
    return {e["number"]: [(x["target"], x["kind"]) for x in e["exits"]] for e in graph["entries"]}


def test_have_read_section_in_a_note_is_not_an_exit() -> None:
    exits = _exits(
        "1 A fork. Left (D0, S2) or right (D0, S4). (This is the fork your friend spoke of, if you have "
        "read section 3 earlier.)\n\n2 Home. THE END\n\n3 A letter. THE END\n\n4 A pit. THE END\n"
    )
    assert exits[1] == [(2, "success"), (4, "success")]


def test_have_read_section_capitalised_and_already_is_not_an_exit() -> None:
    exits = _exits(
        "1 A bridge. If you have already read Section 15, you know it holds. Go to 2.\n\n"
        "2 Home. THE END\n\n15 A rumour. You've read Section 2 by now, perhaps. Return to 1.\n"
    )
    assert exits[1] == [(2, "prose")]
    assert exits[15] == [(1, "prose")]


def test_real_prose_exits_still_work() -> None:
    exits = _exits(
        "1 A door. Turn to 2.\n\n2 A hall. Go to 3.\n\n3 A letter. Read section 4.\n\n"
        "4 A stair. If you have the key, turn to 5. Return to 1.\n\n5 Home. THE END\n"
    )
    assert exits[1] == [(2, "prose")]
    assert exits[2] == [(3, "prose")]
    assert exits[3] == [(4, "prose")]
    assert exits[4] == [(5, "prose"), (1, "prose")]


def test_a_note_makes_no_condition_effect_either() -> None:
    graph = compile_text(HEAD + "1 If you have read section 3, you smile. Go to 2.\n\n2 Home. THE END\n\n"
                         "3 A letter. THE END\n").graph()
    assert all(e.get("target") != 3 for e in graph["entries"][0]["effects"])


def test_lint_says_the_noted_entry_is_unreachable_and_odds_count_two_ways(tmp_path: Path) -> None:
    src = HEAD + (
        "1 A fork. Left (D0, S2) or right (D0, S4). (This is the fork your friend spoke of, if you have "
        "read section 3 earlier.)\n\n2 Home with the gold. THE END (victory)\n\n3 A letter. THE END\n\n"
        "4 The floor gives way. THE END (death)\n"
    )
    found = [d for d in lint_text(src) if d.code in ("DT201", "DT302")]
    assert [(d.code, d.message) for d in found] == [("DT201", "entry 3 cannot be reached from the start (1)")]
    book = tmp_path / "book.txt"
    book.write_text(src, encoding="utf-8")
    out = CliRunner().invoke(main, ["odds", str(book)], catch_exceptions=False).stdout
    assert "victory 50.0%, death 50.0%" in out
