"""The command-line form of dtc's rulings: ``--ruling NAME=READING`` on play, odds and simulate.

The option uses the vocabulary of a book's ``Rules: name [ruling: reading]`` and wins over the
book; a bad name or reading is one line and exit status 2 (docs/rulesets/death-and-treasure.md,
"dtc's rulings").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.systems import play_rules, with_rulings

BOOK = ("Title: T\nRules: death-and-treasure [morale: above]\n\nBook\n\nEncounters\n\n  1. 1 Goblin\n\n"
        "Goblin HP 3 | Morale 7 | Sword d6\n\nAdventure Entries\n\n"
        "1 A hall. A stuck door (D1, S2, F3).\n\n2 Beyond the door. THE END\n\n3 Still stuck. THE END\n")


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "book.txt"
    path.write_text(BOOK, encoding="utf-8")
    return path


def test_command_line_rulings_go_over_the_book() -> None:
    spec = with_rulings("death-and-treasure [morale: above]", {"morale": "below", "same-room": "free"})
    assert play_rules(spec).rulings == {"morale": "below", "cha-reaction": "as-written", "same-room": "free",
                                        "swallow-cut": "blow"}
    assert with_rulings("death-and-treasure", {}) == "death-and-treasure"
    assert play_rules(with_rulings(None, {"cha-reaction": "helps"})).rulings["cha-reaction"] == "helps"


@pytest.mark.parametrize(("args", "message"), [
    (["--ruling", "morale=sideways"], "the ruling 'morale' is one of below, above, not 'sideways'"),
    (["--ruling", "luck=high"], "unknown ruling 'luck'"),
    (["--ruling", "morale"], "is not NAME=READING"),
])
@pytest.mark.parametrize("command", ["play", "odds", "simulate"])
def test_a_bad_ruling_is_one_line_and_exit_2(book: Path, command: str, args: list[str], message: str) -> None:
    extra = {"play": ["--auto", "random", "--no-save", "--seed", "1"], "odds": [], "simulate": ["-n", "2"]}[command]
    r = CliRunner().invoke(main, [command, str(book), *extra, *args])
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output


def test_play_saves_the_rulings_and_resume_keeps_them(tmp_path: Path) -> None:
    book = tmp_path / "loop.txt"
    book.write_text("Title: L\nRules: death-and-treasure\n\nLoop\n\nAdventure Entries\n\n1 A hall (D0, S2).\n\n"
                    "2 A passage (D0, S1).\n", encoding="utf-8")
    save = tmp_path / "run.save.json"
    r = CliRunner().invoke(main, ["play", str(book), "--auto", "random", "--seed", "4", "--max-turns", "1",
                                  "--save", str(save), "--ruling", "same-room=free", "--ruling", "Morale: Below"])
    assert r.exit_code == 0, r.output
    settings = json.loads(save.read_text(encoding="utf-8"))["settings"]
    assert settings["rulings"] == {"same-room": "free", "morale": "below"}
    from dtc.runtime.save import read_save

    assert read_save(str(save)).settings.rulings == {"same-room": "free", "morale": "below"}
    r = CliRunner().invoke(main, ["play", "--resume", str(save), "--ruling", "cha-reaction=helps"])
    assert r.exit_code == 0, r.output
    settings = json.loads(save.read_text(encoding="utf-8"))["settings"]
    assert settings["rulings"] == {"same-room": "free", "morale": "below", "cha-reaction": "helps"}


def test_odds_names_the_rulings_it_was_given(book: Path) -> None:
    r = CliRunner().invoke(main, ["odds", str(book), "--ruling", "same-room=free"])
    assert r.exit_code == 0, r.output
    assert "rulings morale: above, same-room: free" in r.output.replace("\n", " ")


def test_simulate_plays_the_rulings_and_replays_with_them(book: Path) -> None:
    r = CliRunner().invoke(main, ["simulate", str(book), "-n", "5", "--seed", "1", "--format", "json",
                                  "--ruling", "morale=below"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["rulings"] == {"morale": "below"}
    from dtc.simulate.report import Meta, replay
    from dtc.simulate.stats import Problem

    meta = Meta("b.txt", "T", "random", 1, 1, 5, 0.1, 20, "a fresh adventurer each run", None, [1],
                {"morale": "below"})
    assert replay(meta, Problem("error", "y", 1, 1, [(0, 7)])).endswith("--no-save --ruling morale=below")
