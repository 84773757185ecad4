"""Numbers of any length, in every field an author writes one, never raise and never stall:
each is read up to its bound (:mod:`dtc.numbers`) and reported by number-out-of-range (DT121)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc import numbers
from dtc.cli import main
from helpers import lint_text

BIG = "9" * 5000  # past CPython's 4,300-digit limit on converting a string to an int

CASES = {
    "difficulty": (f"1 Go (DEX D{'9' * 150}, S2, F2).\n\n2 Done. THE END\n", "1:11"),
    "target": (f"1 Go (DEX D1, S{'9' * 150}, F2).\n\n2 Done. THE END\n", "1:15"),
    "prose exit": (f"1 Go. Return to {BIG}.\n\n2 Done. THE END\n", "1:7"),
    "hp": (f"Goblin HP {BIG} | Sword d6\n\nAdventure Entries\n\n1 Go (D0, S2). 2 Goblins fight.\n\n2 THE END\n",
           "1:1"),
    "morale": (f"Goblin HP 3 | Morale {BIG} | Sword d6\n\nAdventure Entries\n\n1 Go (D0, S2).\n\n2 THE END\n",
               "1:1"),
    "stat": (f"Goblin HP 3 | Sword d6 | STR {BIG}\n\nAdventure Entries\n\n1 Go (D0, S2).\n\n2 THE END\n", "1:1"),
    "attack dice": (f"Goblin HP 3 | Sword {BIG}d6\n\nAdventure Entries\n\n1 Go (D0, S2). 2 Goblins fight you.\n\n"
                    "2 THE END\n", "1:1"),
    "count": (f"Goblin HP 3 | Sword d6\n\nAdventure Entries\n\n1 Go (D0, S2). {BIG} Goblins fight you.\n\n"
              "2 THE END\n", "5:16"),
    "encounter": (f"Encounters\n\n  1-{BIG}. 1d4 Goblins\n\nGoblin HP 3 | Sword d6\n\nAdventure Entries\n\n"
                  "1 Go (D0, S2).\n\n2 THE END\n", "3:3"),
    "zone": (f"Rules: death-and-treasure + dungeon-rules\n\nZones\n  1-{BIG}. Quiet\n\nAdventure Entries\n\n"
             "1 Go (D0, S2).\n\n2 THE END\n", "4:3"),
    "hazard": (f"Rules: death-and-treasure + dungeon-rules\n\nHazard: Gas | Check: CON D{BIG} | Fail: 1d4 damage\n\n"
               "Adventure Entries\n\n1 Go (D0, S2). Hazard: Gas\n\n2 THE END\n", "3:15"),
    "start": (f"Start: {BIG}\n\n1 Go (D0, S2).\n\n2 Done. THE END\n", "1:1"),
}
#: Numbers in prose that the effects reader reads (damage, coins, rations): bounded, not linted.
PROSE = f"1 Go (D0, S2). You take {BIG} damage, regain {BIG} HP and find {BIG} coins and {BIG} rations.\n\n2 THE END\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_out_of_range_number_is_a_finding_with_its_position(name: str) -> None:
    text, where = CASES[name]
    found = [d for d in lint_text(text) if d.code == "DT121"]
    assert [f"{d.span.line}:{d.span.column}" for d in found] == [where], found
    assert all(len(d.message) < 120 for d in found)


@pytest.mark.parametrize("name", [*sorted(CASES), "prose"])
@pytest.mark.parametrize("command", ["compile", "graph", "odds", "play", "renumber", "simulate"])
def test_no_command_raises_on_a_long_number(tmp_path: Path, name: str, command: str) -> None:
    text = PROSE if name == "prose" else CASES[name][0]
    book = tmp_path / "book.txt"
    book.write_text(text, encoding="utf-8")
    args = {
        "compile": ["compile", str(book), "-o", str(tmp_path / "b.json")],
        "graph": ["graph", str(book), "-o", str(tmp_path / "b.dot")],
        "odds": ["odds", str(book)],
        "play": ["play", str(book), "--auto", "random", "--seed", "1", "--save", str(tmp_path / "save.json")],
        "renumber": ["renumber", str(book), "--dry-run"],
        "simulate": ["simulate", str(book), "-n", "5"],
    }[command]
    result = CliRunner().invoke(main, args)
    assert result.exit_code in (0, 1, 2), result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output


def test_bounded_reads_no_more_digits_than_its_bound_has() -> None:
    assert numbers.bounded("0003", 99) == 3
    assert numbers.bounded("99", 99) == 99
    assert numbers.bounded("100", 99) == 100
    assert numbers.bounded(BIG * 20, 99) == 100
    assert numbers.bounded("0" * 10_000 + "7", 99) == 7
    assert numbers.bounded("", 99) == 0


def test_dice_expressions_of_any_length_are_a_dice_error() -> None:
    from dtc.runtime.dice import DiceError, parse_dice

    for text in (f"{BIG}d6", f"d{BIG}", f"1d6+{BIG}", BIG, f"-{BIG}"):
        with pytest.raises(DiceError) as info:
            parse_dice(text)
        assert len(str(info.value)) < 80


def test_a_huge_difficulty_is_computed_as_its_bound(tmp_path: Path) -> None:
    """``(DEX D10000, S2, F2)`` once kept ``dtc odds`` rolling 10,001 dice for minutes: it is now
    read as D100, whose odds take a moment (a hang guard, not a timing test)."""
    import subprocess
    import sys

    book = tmp_path / "book.txt"
    book.write_text("1 Go (DEX D10000, S2, F3).\n\n2 THE END\n\n3 THE END\n", encoding="utf-8")
    for args in (["odds", str(book)], ["graph", "--odds", str(book), "-o", str(tmp_path / "g.dot")]):
        done = subprocess.run([sys.executable, "-m", "dtc", *args], capture_output=True, text=True, timeout=120)
        assert done.returncode in (0, 1), done.stderr
        assert "Traceback" not in done.stderr


def test_a_compiled_graph_with_a_huge_number_is_one_line(tmp_path: Path) -> None:
    graph = tmp_path / "book.json"
    book = tmp_path / "book.txt"
    book.write_text("1 Go (DEX D1, S2, F3).\n\n2 THE END\n\n3 THE END\n", encoding="utf-8")
    assert CliRunner().invoke(main, ["compile", str(book), "-o", str(graph)]).exit_code == 0
    text = graph.read_text(encoding="utf-8")
    for value in ("10000", BIG):
        graph.write_text(text.replace('"difficulty":1', f'"difficulty":{value}', 1), encoding="utf-8")
        for args in (["odds", str(graph)], ["play", str(graph), "--auto", "random", "--no-save"]):
            result = CliRunner().invoke(main, args)
            assert result.exit_code == 2, result.output
            assert len(result.output.strip().splitlines()) == 1, result.output
