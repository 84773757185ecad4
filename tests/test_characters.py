"""Characters for every game system: `dtc character new --rules`, and play, odds and simulate
refusing an adventurer of another system."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dtc.cli import main
from dtc.compiled.schema import validate
from dtc.diagnostics import Severity
from dtc.runtime.character import load_character
from dtc.runtime.dice import Dice
from dtc.systems import BUILTIN_SYSTEMS, get_ruleset
from dtc.systems import play_rules as get_rules
from helpers import BUNDLED, ROOT, lint_text


def _book_for_each_system() -> dict[str, str]:
    """Every registered system (an overlay over its default base), by the ruleset name a book's
    ``Rules:`` line gives, with the first bundled book written for it that lints without errors."""
    by_rules: dict[str, str] = {}
    for path in BUNDLED:
        text = path.read_text(encoding="utf-8")
        if any(d.severity == Severity.ERROR for d in lint_text(text)):
            continue
        line = next((x for x in text.splitlines() if x.startswith("Rules:")), "")
        by_rules.setdefault(get_ruleset(line.removeprefix("Rules:").strip() or None).name, path.stem)
    return {get_ruleset(name).name: by_rules[get_ruleset(name).name] for name in BUILTIN_SYSTEMS}


#: The registry's systems and a bundled book for each (a system with no book is an error here).
BOOK = _book_for_each_system()


def dtc(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def book(rules: str) -> str:
    return str(ROOT / "adventures" / f"{BOOK[rules]}.txt")


@pytest.fixture
def tty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.modules["dtc.cli.play_cmd"], "stdin_is_tty", lambda: True)


@pytest.mark.parametrize("rules", list(BOOK))
def test_random_characters_for_every_system(rules: str, tmp_path: Path) -> None:
    out = tmp_path / "pc.json"
    r = dtc("character", "new", "--rules", rules, "--seed", "5", "--random", "-o", str(out))
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text(encoding="utf-8"))
    validate(data, "character")
    base = rules.split(" + ")[0]
    assert data["ruleset"] == base
    if "dungeon-rules" in rules:
        assert {"AGI", "LUCK", "WORLDSWAY"} <= set(data["stats"])
    else:  # the same adventurer the runtime makes for a fresh run with that seed
        assert data == get_rules(rules).new_character(Dice(5)).to_dict()
    played = dtc("play", book(rules), "--character", str(out), "--seed", "1", "--auto", "cautious", "--no-save")
    assert played.exit_code in (0, 1), played.output
    assert dtc("odds", book(rules), "--character", str(out)).exit_code == 0


def test_maze_rats_at_a_terminal(tty: None, tmp_path: Path) -> None:
    out = tmp_path / "rat.json"
    r = dtc("character", "new", "--rules", "maze-rats", "--seed", "2", "-o", str(out), input="4\n2\nNix\n")
    assert r.exit_code == 0, r.output
    assert "Choose a feature" in r.stderr and "Path: Roofrunner" in r.stderr
    pc = load_character(out)
    assert (pc.name, pc.ruleset, pc.notes) == ("Nix", "maze-rats", ["path: Roofrunner"])
    assert pc.find("Bow") is not None and pc.find("Warhammer") is None
    assert sorted(pc.abilities.values()) == [0, 1, 2] and pc.max_hp == 4


def test_zilch_at_a_terminal(tty: None, tmp_path: Path) -> None:
    out = tmp_path / "z.json"
    r = dtc("character", "new", "--rules", "zilch", "--seed", "3", "-o", str(out), input="2\n2\n2\n\n")
    assert r.exit_code == 0, r.output
    assert "Choose your class" in r.stderr
    pc = load_character(out)
    assert pc.ruleset == "zilch" and pc.notes == ["class: Rogue"] and pc.max_hp == pc.abilities["♥"]
    assert pc.find("Shortbow") is not None and pc.stats["chips"] == pc.abilities["♠"]


def test_dungeon_rules_adventurer_at_a_terminal(tty: None, tmp_path: Path) -> None:
    out = tmp_path / "d.json"
    r = dtc("character", "new", "--rules", "dungeon-rules", "--seed", "4", "-o", str(out),
            input="\n\n\n\n\nOrla\n")
    assert r.exit_code == 0, r.output
    assert "Death & Treasure with Dungeon Rules: rolled 3d6 each for LUCK" in r.stderr
    pc = load_character(out)
    assert pc.ruleset == "death-and-treasure" and pc.stats["AGI"] == pc.abilities["DEX"]


@pytest.mark.parametrize("rules", ["death-and-treasure", "zilch"])
def test_end_of_input_at_a_prompt_stops_cleanly(tty: None, rules: str, tmp_path: Path) -> None:
    out = tmp_path / "c.json"
    r = CliRunner().invoke(main, ["character", "new", "--rules", rules, "--seed", "1", "-o", str(out)], input="")
    assert r.exit_code == 2 and (r.exception is None or isinstance(r.exception, SystemExit))
    assert r.stderr.strip().splitlines()[-1] == "stopped: no character made (end of input)"
    assert "Traceback" not in r.output and not out.exists()


def test_unknown_system_is_one_line(tmp_path: Path) -> None:
    r = dtc("character", "new", "--rules", "fate", "--random")
    assert r.exit_code == 2
    assert r.stderr.strip().startswith("error: dtc has no rules for 'fate' (it knows death-and-treasure")


@pytest.mark.parametrize("command", ["play", "odds", "simulate"])
def test_another_systems_character_is_refused(command: str, tmp_path: Path) -> None:
    hero = tmp_path / "hero.json"
    dtc("character", "new", "--seed", "3", "--random", "-o", str(hero))
    name = load_character(hero).name
    extra = {"play": ["--auto", "cautious", "--no-save"], "odds": [], "simulate": ["-n", "5"]}[command]
    for rules, title in (("maze-rats", "Maze Rats"), ("zilch", "Zilch")):
        r = dtc(command, book(rules), "--character", str(hero), *extra)
        assert r.exit_code == 2, r.output
        assert r.stderr.strip() == (f"error: {hero}: {name} is a Death & Treasure character, and this adventure "
                                    f"is played with {title} (make one with: dtc character new --rules {rules})")
        assert r.stdout == ""


def test_an_old_character_file_without_a_system_is_death_and_treasure(tmp_path: Path) -> None:
    hero = tmp_path / "hero.json"
    dtc("character", "new", "--seed", "3", "--random", "-o", str(hero))
    data = json.loads(hero.read_text(encoding="utf-8"))
    del data["ruleset"]
    hero.write_text(json.dumps(data), encoding="utf-8")
    assert load_character(hero).ruleset == "death-and-treasure"
    assert dtc("odds", book("death-and-treasure"), "--character", str(hero)).exit_code == 0
    assert dtc("odds", book("zilch"), "--character", str(hero)).exit_code == 2


def test_zilch_odds_header_is_a_whole_sentence(tmp_path: Path) -> None:
    card = tmp_path / "z.json"
    dtc("character", "new", "--rules", "zilch", "--seed", "3", "--random", "-o", str(card))
    r = dtc("odds", book("zilch"), "--character", str(card))
    reader = next(line for line in r.stdout.splitlines() if line.startswith("Reader:"))
    pc = load_character(card)
    assert reader.startswith("Reader: the adventurer with ♣ ")
    assert all(f"{suit} {pc.abilities[suit]}" in reader for suit in "♣♠♦♥")
    partial = dtc("odds", book("zilch"), "--abilities", "Clubs=9")
    line = next(x for x in partial.stdout.splitlines() if x.startswith("Reader:"))
    assert "♣ 9" in line and "♠, ♦, ♥ 7 (the ruleset's typical score)" in " ".join(partial.stdout.split())


def test_simulate_plays_the_given_character(tmp_path: Path) -> None:
    hero, frail = tmp_path / "hero.json", tmp_path / "frail.json"
    dtc("character", "new", "--seed", "3", "--random", "-o", str(hero))
    data = json.loads(hero.read_text(encoding="utf-8"))
    data.update(hp=1, max_hp=1, name="Frail")
    frail.write_text(json.dumps(data), encoding="utf-8")
    args = ["simulate", book("death-and-treasure"), "-n", "200", "--seed", "1", "--format", "json"]
    fresh = json.loads(dtc(*args).stdout)
    given = json.loads(dtc(*args, "--character", str(frail)).stdout)
    assert given["reader"].startswith(f"Frail ({frail}) every run: Frail: STR")
    assert given["outcomes"]["died"]["share"] > fresh["outcomes"]["died"]["share"]


def test_ctrl_d_at_a_real_terminal_prompt(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    from helpers.terminal import spawn

    out = tmp_path / "rat.json"
    child = spawn(["character", "new", "--rules", "maze-rats", "--seed", "2", "-o", str(out)], tmp_path)
    child.expect("Choose a feature")
    child.expect("> ")
    child.sendeof()
    child.expect("stopped: no character made \\(end of input\\)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "Traceback" not in (child.before or "")
    assert not out.exists()
