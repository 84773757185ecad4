"""Example outputs in the README and the docs are what the real commands print.

A fenced ```` ```text ```` block whose first line is ``$ dtc ...`` is an example: the test runs
that command from the repository root (as ``python -m dtc``, output to a pipe, ``NO_COLOR=1``,
100 columns, nothing on standard input, so neither colour nor the terminal's width shows) and
compares what it prints, standard output then standard error, with the rest of the block. A line
``...`` in a block stands for one or more lines left out; the lines above it must be the first the
command prints and the lines below it the last.

After an intended change to an output, regenerate every example with

    DTC_UPDATE_DOCS=1 pytest tests/test_docs_examples.py

(the blocks keep their shape: as many first and last lines around a ``...`` as before), then read
``git diff README.md docs``.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers import ROOT

UPDATE = os.environ.get("DTC_UPDATE_DOCS") == "1"
#: The documents whose examples are checked.
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), ROOT / "adventures" / "README.md"]
BLOCK = re.compile(r"^```text\n(\$ dtc [^\n]*)\n(.*?)^```[ \t]*$", re.M | re.S)
ELIDED = "..."


@dataclass(frozen=True)
class Example:
    path: Path
    line: int
    command: str
    shown: list[str]

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT).as_posix()}:{self.line}"


def examples() -> list[Example]:
    found = []
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            found.append(Example(path, line, m.group(1), m.group(2).rstrip("\n").split("\n")))
    return found


def run(command: str) -> list[str]:
    """What ``command`` (``$ dtc ARGS``) prints, run from the repository root, as lines."""
    words = shlex.split(command.removeprefix("$ "))
    assert words[0] == "dtc", command
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE")}
    env.update(NO_COLOR="1", COLUMNS="100", TERM="dumb")
    result = subprocess.run([sys.executable, "-m", "dtc", *words[1:]], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert result.returncode in (0, 1, 2) and "Traceback" not in result.stderr, (
        f"{command}: exit status {result.returncode}\n{result.stderr}")
    return [line.rstrip() for line in (result.stdout + result.stderr).rstrip("\n").split("\n")]


def matches(shown: list[str], actual: list[str]) -> bool:
    if ELIDED not in shown:
        return shown == actual
    k = shown.index(ELIDED)
    head, tail = shown[:k], shown[k + 1 :]
    return (len(actual) > len(head) + len(tail) and actual[:k] == head
            and actual[len(actual) - len(tail) :] == tail)


def reshaped(shown: list[str], actual: list[str]) -> list[str]:
    """``actual`` cut to the shape of ``shown``: as many first and last lines around the ``...``."""
    if ELIDED not in shown:
        return actual
    k = shown.index(ELIDED)
    tail = len(shown) - k - 1
    if len(actual) <= k + tail:
        return actual
    return [*actual[:k], ELIDED, *actual[len(actual) - tail :]]


def test_there_are_examples() -> None:
    assert any(e.path.name == "README.md" and "lint" in e.command for e in examples())


@pytest.mark.parametrize("example", examples(), ids=lambda e: e.id)
def test_example_output_is_what_the_command_prints(example: Example) -> None:
    actual = run(example.command)
    if matches(example.shown, actual):
        return
    if UPDATE:
        text = example.path.read_text(encoding="utf-8")
        old = "\n".join([example.command, *example.shown]) + "\n"
        new = "\n".join([example.command, *reshaped(example.shown, actual)]) + "\n"
        assert text.count("```text\n" + old) == 1, f"{example.id}: the block is not unique"
        example.path.write_text(text.replace("```text\n" + old, "```text\n" + new), encoding="utf-8")
        return
    pytest.fail(
        f"{example.id}: `{example.command}` prints something else now; regenerate with "
        f"DTC_UPDATE_DOCS=1 pytest tests/test_docs_examples.py and read the diff.\n"
        "--- shown\n" + "\n".join(example.shown) + "\n--- printed\n" + "\n".join(actual)
    )


def test_matching_with_lines_left_out() -> None:
    assert matches(["a", "...", "z"], ["a", "b", "z"]) and not matches(["a", "...", "z"], ["a", "z"])
    assert not matches(["a", "...", "z"], ["a", "b", "y"]) and matches(["a"], ["a"])
    assert reshaped(["a", "...", "z"], ["1", "2", "3", "4"]) == ["1", "...", "4"]
