"""What a player reads: sentences rather than records, every entry's heading, the keys every question
takes, what ``-v`` says about the automatic player's choices, and the end-of-run wordings."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from rich.console import Console

from dtc.cli import main
from dtc.compiler.api import compile_file
from dtc.runtime.core import ENCOUNTER, Option, Question, RunEnded
from dtc.runtime.dice import Dice
from dtc.runtime.engine import Engine
from dtc.runtime.policies import CautiousPolicy
from dtc.runtime.terminal import Terminal
from dtc.systems import play_rules as get_rules

ROOT = Path(__file__).resolve().parent.parent
BOOKS = sorted((ROOT / "adventures").glob("*.txt"))
RECORD = re.compile(r"\b[a-z_]+=[^\s=]")


def dtc(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


@pytest.mark.parametrize("book", BOOKS, ids=lambda p: p.stem)
def test_verbose_runs_read_as_sentences_with_every_heading(book: Path) -> None:
    for policy, seed in (("cautious", 1), ("random", 2), ("bold", 3), ("random", 4)):
        r = dtc("play", str(book), "--seed", str(seed), "--auto", policy, "-v", "--no-save")
        out = r.stdout
        assert not RECORD.search(out), RECORD.search(out)
        assert f"The {policy} player chooses:" in out
        assert "((" not in out and "))" not in out
        last = out.strip().splitlines()[-1]
        died = re.match(r"died: at entry (\d+)", last)
        if died:
            assert f"— {died.group(1)} —" in out, f"{book.stem} seed {seed}: entry {died.group(1)} never shown"


def test_cautious_narration_gives_its_reasons() -> None:
    r = dtc("play", str(ROOT / "adventures" / "the-drowned-chapel.txt"), "--seed", "5", "--auto", "cautious", "-v",
            "--no-save")
    out = " ".join(r.stdout.split())
    assert "The cautious player chooses: Great Doors — the surest and least explored way, never visited." in out
    assert re.search(r"chooses: [^.]* — [^.]*\d+(\.\d)?% to succeed\.", out)


def test_deaths_by_damage_in_parentheses_are_not_doubled() -> None:
    lines = [dtc("play", str(ROOT / "adventures" / "the-drowned-chapel.txt"), "--seed", str(s), "--auto", "random",
                 "--no-save").stdout for s in range(1, 17)]
    assert any("died:" in out and "(d6 damage)" in out for out in lines)
    assert not any("((" in out for out in lines)


def test_a_script_line_that_is_no_choice_names_the_entry_once(tmp_path: Path) -> None:
    script = tmp_path / "route.txt"
    script.write_text("1\nnonsense choice\n", encoding="utf-8")
    r = dtc("play", str(ROOT / "adventures" / "the-drowned-chapel.txt"), "--seed", "1", "--script", str(script),
            "--no-save")
    assert r.stdout.strip() == (f"stopped: script {script} line 2: 'nonsense choice' is not a choice here "
                                "at entry 26 on turn 1")


def test_a_resumed_game_gets_a_fresh_turn_budget(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    book = str(ROOT / "adventures" / "the-drowned-chapel.txt")
    first = dtc("play", book, "--seed", "5", "--auto", "cautious", "--max-turns", "3", "--save", str(save))
    assert first.stdout.startswith("stopped: turn limit 3 reached")
    assert "it plays up to 3 more turns" in first.stderr
    again = dtc("play", "--resume", str(save))
    assert again.stdout.startswith("stopped: turn limit 6 reached"), again.stdout
    last = dtc("play", "--resume", str(save), "--max-turns", "100")
    assert last.stdout.split(":")[0] in ("escaped", "died", "ended", "lost"), last.stdout  # played out


def _terminal(answers: list[str]) -> tuple[Terminal, io.StringIO, Engine]:
    graph = compile_file(str(ROOT / "adventures" / "the-drowned-chapel.txt")).graph()
    rules = get_rules(graph.get("rules"))
    dice = Dice(1)
    buffer = io.StringIO()
    feed = iter(answers)
    terminal = Terminal(console=Console(file=buffer, width=100, highlight=False), read=lambda _: next(feed))
    terminal.save_path = "build/book.save.json"
    engine = Engine(graph, rules.new_character(dice), CautiousPolicy(), dice=dice, rules=rules)
    return terminal, buffer, engine


QUESTION = Question(ENCOUNTER, "Goblins: what do you do?",
                    (Option("carry-on", "Carry on"), Option("talk", "Talk"), Option("fight", "Fight")))


def test_every_question_takes_help_save_inventory_and_quit() -> None:
    terminal, buffer, engine = _terminal(["?", "s", "i", "9", "2"])
    assert terminal.decide(QUESTION, engine) == 1
    out = buffer.getvalue()
    assert "Type a number from 1 to 3 to answer. Also: i inventory, s save, q quit" in out
    assert "The game is saved after every step, last before this question, to build/book.save.json" in out
    assert "Lantern" in out  # the inventory
    assert "Type a number from 1 to 3 (? for help)." in out
    terminal, buffer, engine = _terminal(["q"])
    with pytest.raises(RunEnded) as stop:
        terminal.decide(QUESTION, engine)
    assert (stop.value.kind, stop.value.reason) == ("stopped", "quit by the player")


def test_the_adjust_prompt_takes_the_same_keys() -> None:
    terminal, buffer, engine = _terminal(["?", "hp -1"])
    assert terminal.text("Adjust: ", engine) == "hp -1"
    assert "Type your ruling" in buffer.getvalue()


def test_the_oracle_prompt_reads_as_a_question() -> None:
    _, _, engine = _terminal([])
    asked: list[str] = []

    class Player(CautiousPolicy):
        def decide(self, question: Question, game: Engine) -> int:
            asked.append(question.prompt)
            return 0

    engine.player = Player()
    engine.oracle(None, "a question of your own")
    engine.oracle(None, "Is the rope appropriate?")
    assert asked == ["Oracle (a question of your own): How likely is yes?",
                     "Oracle: Is the rope appropriate? How likely is yes?"]


def test_keys_inside_a_sub_question_at_a_real_terminal(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    from helpers.terminal import spawn

    save = tmp_path / "game.json"
    child = spawn(["play", str(ROOT / "adventures" / "the-drowned-chapel.txt"), "--seed", "2", "--save", str(save)],
                  tmp_path)
    child.expect("— 1 —")
    child.expect("> ")
    child.sendline("2")  # the belfry, DEX D2: which two of turn, gear and check?
    child.expect("how do you go about it")
    child.expect("> ")
    child.sendline("?")
    child.expect("Type a number from 1 to 3 to answer")
    child.sendline("s")
    child.expect("saved after every step")
    child.sendline("q")
    child.expect("stopped: quit by the player at entry 1 on turn 0")
    child.expect("resume with: dtc play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert json.loads(save.read_text(encoding="utf-8"))["state"]["entry"] == 1
