"""A person at the terminal: play, look around, Ctrl-C, and carry on with --resume (real pty)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers.runtime import sample_source

pexpect = pytest.importorskip("pexpect")

from helpers.terminal import spawn  # noqa: E402  (after pexpect is known to be there)


def test_interactive_session_with_ctrl_c_and_resume(tmp_path: Path) -> None:
    dungeon = tmp_path / "sample-dungeon.txt"
    dungeon.write_text(sample_source(), encoding="utf-8")
    save, log = tmp_path / "game.json", tmp_path / "game.jsonl"
    child = spawn(["play", str(dungeon), "--seed", "2", "--save", str(save), "--log", str(log)], tmp_path)
    child.expect("— 1 —")
    child.expect(r"HP \d+/\d+ \| turn 0 \| light 24 \(\+2 flasks\)")
    child.expect("1. Frog Mouth")
    child.expect("> ")
    child.sendline("?")
    child.expect("Commands:")
    child.sendline("i")
    child.expect(r"Load \S+ of \d+")
    child.sendline("o")
    child.expect("How likely is yes")
    child.sendline("3")
    child.expect(r"The Oracle \(3-in-6\) rolls \d: (YES|NO)")
    child.expect("> ")
    child.sendline("1")
    child.expect("— 2 —")
    child.expect(r"turn 1 \| light 23")
    child.expect("> ")
    child.sendintr()
    child.expect(f"resume with: dtc play --resume {save} --log {log}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert (saved["state"]["entry"], saved["state"]["turn"]) == (2, 1)

    child = spawn(["play", "--resume", str(save), "--log", str(log)], tmp_path)
    child.expect("Resuming Sample Dungeon at entry 2, turn 1")
    child.expect(r"turn 1 \| light 23")
    child.expect("> ")
    child.sendline("x")
    child.expect("Type 1")
    child.sendline("q")
    child.expect("stopped: quit by the player at entry 2 on turn 1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [e["seq"] for e in events] == list(range(len(events)))
    assert [e["event"] for e in events][-2:] == ["decision", "end"]
    assert any(e["event"] == "oracle" for e in events)


def test_play_shows_emphasis_never_its_marks() -> None:
    """An entry's ``**Stone Stair**`` is bold in ``dtc play``, its stars never shown."""
    import io

    from rich.console import Console

    from dtc.runtime.terminal import Terminal, emphasised

    out = io.StringIO()
    terminal = Terminal(Console(file=out, width=80, highlight=False, force_terminal=False))
    terminal.prose("A **Stone Stair** (D0, S2) winds *down*, and a lone * stays.\n\nMore __words__.")
    shown = out.getvalue()
    assert "**" not in shown and "__" not in shown and "Stone Stair" in shown and "a lone * stays" in shown
    styled = emphasised("A **Stone Stair** winds *down*.")
    assert styled.plain == "A Stone Stair winds down."
    assert [(s.start, s.end, str(s.style)) for s in styled.spans] == [(2, 13, "bold"), (20, 24, "italic")]
