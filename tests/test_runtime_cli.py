"""`dtc play` and `dtc character` from the command line: logs, scripts, saves, resume, bad files."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dtc.cli import main
from dtc.compiled.schema import validate
from dtc.runtime.log import LogError, read_log
from helpers.runtime import book, sample_source


def dtc(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


@pytest.fixture
def dungeon(tmp_path: Path) -> Path:
    path = tmp_path / "sample-dungeon.txt"
    path.write_text(sample_source(), encoding="utf-8")
    return path


def test_auto_run_prints_one_outcome_line(dungeon: Path, tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    r = dtc("play", str(dungeon), "--seed", "3", "--auto", "bold", "--save", str(save))
    assert r.exit_code == 0, r.output
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].split(":")[0] in ("escaped", "died", "lost", "ended", "stopped")
    data = json.loads(save.read_text())
    validate(data, "save")
    validate(data["character"], "character")
    assert data["state"]["outcome"]["kind"] == lines[0].split(":")[0]


def test_same_seed_same_log_from_source_or_compiled_json(dungeon: Path, tmp_path: Path) -> None:
    compiled = tmp_path / "sample.json"
    assert dtc("compile", str(dungeon), "-o", str(compiled)).exit_code == 0
    logs = []
    for n, source in enumerate((dungeon, dungeon, compiled)):
        log = tmp_path / f"{n}.jsonl"
        r = dtc("play", str(source), "--seed", "11", "--auto", "random", "--log", str(log), "--no-save")
        assert r.exit_code == 0, r.output
        logs.append(log.read_bytes())
    assert logs[0] == logs[1] == logs[2]
    events = [json.loads(line) for line in logs[0].decode().splitlines()]
    assert {"start", "turn", "entry", "end"} <= {e["event"] for e in events}


def test_script_of_choices(dungeon: Path, tmp_path: Path) -> None:
    script = tmp_path / "route.txt"
    script.write_text("# into the frog\n1\n\nquit\n", encoding="utf-8")
    log = tmp_path / "route.jsonl"
    r = dtc("play", str(dungeon), "--seed", "2", "--script", str(script), "--log", str(log), "--no-save")
    assert r.exit_code == 0
    entries = [e["number"] for e in read_log(log) if e["event"] == "entry"]
    assert entries[:2] == [1, 2] or r.stdout.startswith("died")
    assert r.stdout.startswith(("stopped: quit by the player", "died"))


def test_bad_script_line_is_named(dungeon: Path, tmp_path: Path) -> None:
    script = tmp_path / "route.txt"
    script.write_text("7\n", encoding="utf-8")
    r = dtc("play", str(dungeon), "--seed", "2", "--script", str(script), "--no-save")
    assert "line 1: '7' is not a choice here at entry 1" in r.stdout


def test_interrupted_and_resumed_run_logs_the_same(dungeon: Path, tmp_path: Path) -> None:
    whole, part, save = tmp_path / "whole.jsonl", tmp_path / "part.jsonl", tmp_path / "game.json"
    args = ("--seed", "5", "--auto", "cautious")
    full = dtc("play", str(dungeon), *args, "--log", str(whole), "--no-save")
    stopped = dtc("play", str(dungeon), *args, "--log", str(part), "--save", str(save), "--max-turns", "2")
    assert stopped.stdout.startswith("stopped: turn limit 2") or stopped.stdout == full.stdout
    if stopped.stdout.startswith("stopped"):
        resumed = dtc("play", "--resume", str(save), "--max-turns", "1000", "--log", str(part))
        assert resumed.stdout == full.stdout
    assert part.read_bytes() == whole.read_bytes()


def test_finished_runs_cannot_be_resumed(dungeon: Path, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    dtc("play", str(dungeon), "--seed", "1", "--auto", "bold", "--save", str(save))
    r = dtc("play", "--resume", str(save))
    assert r.exit_code == 2 and "this run is over" in r.stderr


def test_broken_save_files_are_named_and_left_alone(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    save.write_text('{"format": "dtc-save",', encoding="utf-8")
    r = dtc("play", "--resume", str(save))
    assert r.exit_code == 2 and "not valid JSON" in r.stderr and str(save) in r.stderr
    assert save.read_text(encoding="utf-8") == '{"format": "dtc-save",'
    save.write_text(json.dumps({"format": "dtc-save", "format_version": 1}), encoding="utf-8")
    r = dtc("play", "--resume", str(save))
    assert r.exit_code == 2 and "'dtc_version' is a required property" in r.stderr


def test_character_new_random_is_reproducible_and_valid(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert dtc("character", "new", "--seed", "9", "--random", "-o", str(a)).exit_code == 0
    assert dtc("character", "new", "--seed", "9", "-o", str(b)).exit_code == 0  # stdin is not a TTY
    assert a.read_bytes() == b.read_bytes()
    data = json.loads(a.read_text())
    validate(data, "character")
    assert sorted(data["rolled"]) == sorted(data["abilities"].values())
    shown = dtc("character", "show", str(a))
    assert shown.exit_code == 0 and "Defense" in shown.stdout


def test_character_new_interactive_prompts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = sys.modules["dtc.cli.play_cmd"]  # the package attribute of that name is the command
    monkeypatch.setattr(module, "stdin_is_tty", lambda: True)
    out = tmp_path / "c.json"
    answers = "STR DEX\n6\n\n1\n\n\nBrenna\n"
    r = CliRunner().invoke(main, ["character", "new", "--seed", "4", "-o", str(out)], input=answers)
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert data["name"] == "Brenna" and data["swap"] == ["STR", "DEX"]
    names = [i["name"] for i in data["items"] if not i["standard"]]
    assert names == ["Sword", "Leather"]


def test_bad_character_file_names_the_field(dungeon: Path, tmp_path: Path) -> None:
    good = tmp_path / "c.json"
    dtc("character", "new", "--seed", "1", "--random", "-o", str(good))
    data = json.loads(good.read_text())
    data["abilities"]["DEX"] = "high"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    before = bad.read_bytes()
    r = dtc("play", str(dungeon), "--character", str(bad), "--auto", "bold", "--no-save")
    assert r.exit_code == 2 and "abilities.DEX" in r.stderr
    assert bad.read_bytes() == before


def test_from_entry_with_a_chosen_character(dungeon: Path, tmp_path: Path) -> None:
    pc = tmp_path / "c.json"
    dtc("character", "new", "--seed", "1", "--random", "-o", str(pc))
    log = tmp_path / "l.jsonl"
    r = dtc("play", str(dungeon), "--from", "25", "--character", str(pc), "--seed", "1", "--auto", "cautious",
            "--log", str(log), "--no-save", "--max-turns", "3")
    assert r.exit_code == 0
    first = next(e for e in read_log(log) if e["event"] == "entry")
    assert first["number"] == 25
    assert dtc("play", str(dungeon), "--from", "99", "--no-save").exit_code == 2


def test_broken_exit_exits_1(tmp_path: Path) -> None:
    src = tmp_path / "broken.txt"
    src.write_text(book("1 A door (D0, S9)."), encoding="utf-8")
    r = dtc("play", str(src), "--auto", "bold", "--seed", "1", "--no-save")
    assert r.exit_code == 1
    assert r.stdout.strip() == "cannot continue: entry 1: the success exit leads to 9, which is not an entry"


def test_unknown_ruleset_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "rats.txt"
    src.write_text("Rules: tunnels-and-trolls\n\n" + book("1 A door (D0, S2).", "2 End. THE END"), encoding="utf-8")
    r = dtc("play", str(src), "--auto", "bold", "--no-save")
    assert r.exit_code == 2 and "no rules for 'tunnels-and-trolls'" in r.stderr


def test_read_log_names_the_bad_line(tmp_path: Path) -> None:
    log = tmp_path / "l.jsonl"
    log.write_text('{"seq":0,"turn":0,"entry":1,"event":"turn","why":"move"}\nnot json\n', encoding="utf-8")
    with pytest.raises(LogError, match=r"l.jsonl:2: not JSON"):
        read_log(log)
    log.write_text('{"seq":1,"turn":0,"entry":1,"event":"turn","why":"move"}\n', encoding="utf-8")
    with pytest.raises(LogError, match="seq 1 where 0 was expected"):
        read_log(log)
