"""Author text never reaches a terminal raw: control characters are made visible
(:func:`dtc.visible.visible`) in play, odds, simulate, character sheets and lint messages."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from dtc.cli import main
from dtc.runtime.terminal import Terminal
from dtc.visible import visible
from helpers import on_a_terminal

#: A window title, a screen clear, an OSC-8 hyperlink, a bell and a C1 CSI.
EVIL = "\x1b]0;PWNED\x07\x1b[2J\x1b]8;;http://example.invalid\x1b\\link\x1b]8;;\x1b\\\x9b31m\r\x7f"
RAW = ("\x1b", "\x07", "\x9b", "\r", "\x7f")


def book_text(front: bool) -> str:
    head = f"Title: Evil {EVIL} Book\n" + (f"Rules: death{EVIL}\nStart: 1{EVIL}\n" if front else "")
    return (f"{head}\nGoblin{EVIL} HP 3 | Bite d4 | Special: {EVIL}\n\nAdventure Entries\n\n"
            f"1 You see {EVIL} a door. **Open{EVIL}** (DEX D1, S2, F3). 2 Goblin{EVIL} attack.\n\n"
            f"2 Inside {EVIL}. THE END\n\n3 You fall {EVIL}. THE END\n")


def test_visible_shows_controls_and_keeps_unicode() -> None:
    assert visible("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert visible("\x9b\x85\x00\x7f") == "\\x9b\\x85\\x00\\x7f"
    assert visible("tab\tand\nline") == "tab\tand\nline"
    assert visible("one\nline", newlines=False) == "one\\x0aline"
    assert visible("Ünïcödé — “quotes” ♠ 龍 🐉 \u00a0") == "Ünïcödé — “quotes” ♠ 龍 🐉 \u00a0"


@given(st.text())
def test_visible_leaves_no_control_character(text: str) -> None:
    shown = visible(text, newlines=False)
    assert not any((ord(c) < 0x20 and c != "\t") or 0x7F <= ord(c) <= 0x9F for c in shown)
    assert visible(shown) == shown  # made visible once is visible


@pytest.mark.parametrize("args", [
    ["lint", "{front}"], ["lint", "{book}"], ["odds", "{book}"], ["simulate", "{book}", "-n", "20"],
    ["play", "{book}", "--auto", "random", "--seed", "3", "--no-save"], ["rules", f"death{EVIL}"],
])
def test_no_command_prints_author_escapes(tmp_path: Path, args: list[str]) -> None:
    front, book = tmp_path / "front.txt", tmp_path / "book.txt"
    front.write_text(book_text(True), encoding="utf-8")
    book.write_text(book_text(False), encoding="utf-8")
    argv = [a.format(front=front, book=book) for a in args]
    result = CliRunner().invoke(main, argv)
    assert result.exit_code in (0, 1, 2), result.output
    assert not any(c in result.output for c in RAW), repr(result.output)


def test_the_play_terminal_shows_entries_and_choices_with_visible_controls() -> None:
    buf = io.StringIO()
    terminal = Terminal(console=Console(file=buf, force_terminal=False, width=100))
    terminal.prose(f"The door {EVIL} opens.\nA second paragraph.")
    terminal.say(f"  1. Open{EVIL}")
    out = buf.getvalue()
    assert not any(c in out for c in RAW), repr(out)
    assert "\\x1b]0;PWNED" in out and "A second paragraph." in out


@pytest.mark.skipif(not hasattr(__import__("os"), "openpty"), reason="needs pseudo-terminals")
def test_renumber_dry_run_shows_a_person_visible_controls_and_a_pipe_the_bytes(tmp_path: Path) -> None:
    """On a terminal the diff is for reading; into a pipe it is for ``patch``, byte for byte."""
    import subprocess
    import sys

    book = tmp_path / "book.txt"
    evil = EVIL.replace("\r", "")  # a lone CR ends a line for the diff
    book.write_text(f"1 Go {evil} (D0, S3).\n\n3 THE END\n", encoding="utf-8")
    argv = [sys.executable, "-m", "dtc", "renumber", str(book), "--dry-run"]
    shown = on_a_terminal(argv, tmp_path)  # a pseudo-terminal this test makes, never a real device
    assert "\\x1b]0;PWNED" in shown and "\x1b" not in shown, repr(shown)
    piped = subprocess.run(argv, capture_output=True, timeout=60).stdout.decode("utf-8")
    assert f"-1 Go {evil} (D0, S3)." in piped
