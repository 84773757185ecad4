"""`dtc play` (test-run a dungeon with the rules automated) and `dtc character new|show`."""

from __future__ import annotations

import os
import secrets
import stat
import sys
from typing import Any

import click
from rich.console import Console

from dtc.cli.base import (
    MAX_TURNS,
    Exit,
    carrying,
    ends_cleanly,
    fail,
    guard,
    load_graph,
    policy_option,
    ruling_option,
    seed_option,
    with_option,
)
from dtc.compiled.graphjson import CompiledGraph
from dtc.fileio import preflight, write_text
from dtc.fileread import ReadError, read_text
from dtc.numbers import ENTRY
from dtc.runtime.character import Character, CharacterError, character_json, load_character
from dtc.runtime.core import Outcome, Player, RunEnded
from dtc.runtime.dice import Dice
from dtc.runtime.engine import DEFAULT_MAX_TURNS, Engine
from dtc.runtime.log import EventLog
from dtc.runtime.policies import POLICIES, ScriptPlayer
from dtc.runtime.replay import record
from dtc.runtime.ruleset import Rules
from dtc.runtime.save import Saved, SaveError, Settings, check_against, default_save_path, read_save, write_save
from dtc.runtime.state import GameState
from dtc.runtime.terminal import Terminal, TerminalChooser
from dtc.visible import visible


def _rules(graph: CompiledGraph, rulings: dict[str, str] | None = None) -> Rules:
    rules = _rules_named(graph.get("rules"))
    return with_rulings(graph, rulings) if rulings else rules


def with_rulings(graph: CompiledGraph, rulings: dict[str, str]) -> Rules:
    """The book's rules with ``--ruling`` readings over its own; exits 2 naming a bad one."""
    from dtc.systems import UnknownRuleset, play_rules
    from dtc.systems import with_rulings as spec_with

    try:
        return play_rules(spec_with(graph.get("rules"), rulings))
    except UnknownRuleset as exc:
        fail(f"error: --ruling: {exc.message}")
        raise


def _rules_named(name: str | None) -> Rules:
    from dtc.systems import UnknownRuleset, known_names, play_rules

    try:
        return play_rules(name)
    except UnknownRuleset as exc:
        fail(f"error: dtc has no rules for '{exc.name}' (it knows {', '.join(known_names())})")
        raise


def refuse_other_system(pc: Character, rules: Rules, path: str) -> None:
    """Exit 2 with one line when ``pc`` was made for another game system than ``rules``.

    The systems' documents say nothing of converting an adventurer from one to another, so none
    is converted (a Dungeon Rules adventurer is its base game's, with the overlay's scores added).
    """
    if rules.fits(pc):
        return
    from dtc.systems import UnknownRuleset, get_ruleset

    try:
        made_for = get_ruleset(pc.ruleset).title
    except UnknownRuleset:
        made_for = pc.ruleset
    fail(f"error: {path}: {pc.name} is a {made_for} character, and this adventure is played with {rules.title} "
         f"(make one with: dtc character new --rules {rules.character_kind})")


def _script_lines(path: str) -> list[str]:
    try:
        return read_text(path, "script").splitlines()
    except ReadError as exc:
        fail(f"{exc.path}: error: {exc.message}")
        raise


@click.command("play")
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@seed_option
@click.option("--character", "character_path", type=click.Path(dir_okay=False),
              help="Play this adventurer (a `dtc character new` file); default: a random one from the seed.")
@click.option("--from", "start", type=click.IntRange(min=0, max=ENTRY),
              help="Start at this entry instead of the entrance (test one room).")
@policy_option(*POLICIES, option="--auto", default=None, lead="Let a policy make every decision")
@click.option("--script", "script_path", type=click.Path(dir_okay=False, exists=True),
              help="Take the entry choices from this file, one per line (number, label or command).")
@click.option("--log", "log_path", type=click.Path(dir_okay=False), help="Write every event as JSON Lines here.")
@click.option("--max-turns", type=click.IntRange(min=1, max=MAX_TURNS), default=None,
              help=f"Stop after this many turns (default {DEFAULT_MAX_TURNS}).")
@click.option("--save", "save_path", type=click.Path(dir_okay=False),
              help="Where to save after every turn (default build/NAME-HASH.save.json, HASH from the "
                   "adventure's full path).")
@click.option("--no-save", is_flag=True, help="Do not save the game.")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False, exists=True),
              help="Continue a saved game exactly where it stopped.")
@click.option("--replay", "replay_path", type=click.Path(dir_okay=False, exists=True), metavar="LOG",
              help="Play the run LOG records again (its decisions, its dice) and say whether this dtc does the same; "
                   "exit status 1 at the first difference.")
@ruling_option
@with_option
@click.option("-v", "--verbose", is_flag=True, help="Narrate automatic and scripted runs on stdout.")
@guard
@ends_cleanly
def play_cmd(file: str | None, seed: int | None, character_path: str | None, start: int | None, auto: str | None,
             script_path: str | None, log_path: str | None, max_turns: int | None, save_path: str | None,
             no_save: bool, resume_path: str | None, replay_path: str | None, rulings: dict[str, str],
             carried: list[tuple[str, int]], verbose: bool) -> None:
    """Play FILE (an adventure source or its compiled JSON) with the rules automated.

    Interactive by default; --auto or --script play without a keyboard. Every run ends with one
    line: escaped, ended, died, lost, stopped or cannot continue (exit status 1 for the last).
    With --log, the log records every decision and every die face, and --replay LOG plays it again.
    """
    if replay_path:
        given = [name for name, value in (("--seed", seed), ("--character", character_path), ("--from", start),
                                          ("--auto", auto), ("--script", script_path), ("--log", log_path),
                                          ("--max-turns", max_turns), ("--save", save_path),
                                          ("--resume", resume_path), ("--ruling", rulings or None),
                                          ("--with", carried or None)) if value]
        if given:
            raise click.UsageError(f"--replay takes the run as the log recorded it: {', '.join(given)} "
                                   "cannot change it")
        if file is None:
            raise click.UsageError("give the adventure FILE the log was played on, then --replay LOG")
        _replay(file, replay_path)
    state: GameState | None = None
    saved: Saved | None = None
    if resume_path:
        try:
            saved = read_save(resume_path)
        except SaveError as exc:
            fail(f"error: {exc}")
            raise
        if saved.state.outcome is not None:
            fail(f"error: {resume_path}: this run is over ({saved.state.outcome.line()})")
        if seed is not None and seed != saved.settings.seed:
            fail("error: --seed cannot change when resuming (the saved dice carry on)")
        settings, dice, pc, state = saved.settings, saved.dice, saved.character, saved.state
        if file is None and settings.adventure == "-":
            raise click.UsageError("the saved game was read from stdin: give the adventure FILE as well")
        file = file or settings.adventure
        if auto or script_path:
            settings.mode = "script" if script_path else "auto"
            settings.policy, settings.script = auto, script_path
            settings.script_line = 0 if script_path else settings.script_line
        # A save never chooses where dtc writes: its log is written only when --log names it again.
        if log_path and settings.log and os.path.abspath(log_path) == os.path.abspath(settings.log):
            settings.log = log_path
        elif log_path:
            settings.log, settings.log_offset = log_path, 0
        else:
            if settings.log:
                click.echo(f"note: the saved game wrote its event log to {settings.log}; give --log "
                           f"{settings.log} to go on writing it (not writing a log)", err=True)
            settings.log, settings.log_offset = None, 0
        settings.max_turns = max_turns or settings.max_turns
        rulings = {**(settings.rulings or {}), **rulings}
        settings.rulings = rulings or None
        save_path = save_path or resume_path
    if file is None:
        raise click.UsageError("give the adventure FILE (or --resume SAVE)")
    if carried and resume_path:
        raise click.UsageError("--with gives what a new run starts with: a resumed game carries what it held")
    graph = carrying(load_graph(file), carried)
    rules = _rules(graph, rulings)
    if saved is not None:
        try:
            check_against(saved, graph, rules, str(resume_path))
        except SaveError as exc:
            fail(f"error: {exc}")
    if state is None:
        seed = seed if seed is not None else secrets.randbelow(2**31)
        dice = Dice(seed)
        if log_path:
            record(dice)  # from the first die: the adventurer's own rolls are in the log
        pc = _character(character_path, dice, rules)
        if start is not None and start not in {e["number"] for e in graph["entries"]}:
            fail(f"error: --from {start}: the adventure has no entry {start}")
        mode = "script" if script_path else "auto" if auto else "interactive"
        settings = Settings(file, graph["source"]["sha256"], graph.get("title"), seed,
                            max_turns or DEFAULT_MAX_TURNS, mode, auto, script_path, 0, log_path, 0, start,
                            rulings or None)
        if not no_save and save_path is None and file != "-":
            save_path = str(default_save_path(file))
    elif settings.sha256 != graph["source"]["sha256"]:
        click.echo(f"warning: {file} has changed since the game was saved; play goes on from entry "
                   f"{state.entry}", err=True)
    save_path = None if no_save else save_path
    inputs = (file, character_path, settings.script)
    preflight(save_path, inputs)
    if save_path is not None:
        _refuse_pipe_save(save_path)
    if settings.log:
        preflight(settings.log, (*inputs, resume_path))
        if save_path and os.path.realpath(settings.log) == os.path.realpath(save_path) and not _stream(save_path):
            fail(f"{settings.log}: error: the event log and the save cannot be the same file")
    _run(graph, rules, pc, dice, state, settings, save_path, verbose, inputs, made=character_path is None,
         carried=carried)


def _replay(file: str, log_path: str) -> None:
    """``dtc play FILE --replay LOG``: one line, exit 0 when this dtc plays the run as logged, else 1."""
    from dtc.runtime.log import LogError, read_log
    from dtc.runtime.replay import ReplayError, replay

    try:
        events = read_log(log_path)
    except LogError as exc:
        fail(f"error: {exc}")
        raise
    graph = load_graph(file)
    try:
        result = replay(graph, events, lambda rulings: _rules(graph, dict(rulings) or None))
    except ReplayError as exc:
        fail(f"{log_path}: error: {exc}")
        raise
    click.echo(visible(f"{log_path}: {result.line()}"))
    raise SystemExit(int(Exit.CLEAN if result.same else Exit.FINDINGS))


def _refuse_pipe_save(path: str) -> None:
    """A save is written again after every turn: a named pipe as ``--save`` (opened again every
    turn, which blocks once nobody reads it) is refused now, in one line."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # not there yet (or unreachable: the first save says why)
    if stat.S_ISFIFO(mode):
        fail(f"{path}: error: is a named pipe (FIFO); a save is written again after every turn, so it must be a "
             "regular file (use --no-save for none)")


def _stream(path: str) -> bool:
    """Whether ``path`` is a character device or a pipe (written directly, so it may be shared)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _character(path: str | None, dice: Dice, rules: Rules) -> Character:
    if path is None:
        return rules.new_character(dice)
    try:
        pc = load_character(path)
    except CharacterError as exc:
        fail(f"error: {exc}")
        raise
    refuse_other_system(pc, rules, path)
    return pc


def _player(settings: Settings, terminal: Terminal | None) -> tuple[Player, ScriptPlayer | None]:
    policy = POLICIES[settings.policy]() if settings.policy else None
    if settings.mode == "script" and settings.script:
        script = ScriptPlayer(_script_lines(settings.script), policy, position=settings.script_line,
                              name=f"script {settings.script}")
        return script, script
    if settings.mode == "auto" and policy is not None:
        return policy, None
    assert terminal is not None
    return terminal, None


#: The longest line of input an interactive game reads, in characters (a terminal's own line is
#: at most 4,096 bytes; a pipe's has no end but this).
LINE_LIMIT = 4096


def read_answer(prompt: str) -> str:
    """One line of input for an interactive game: ``input()`` at a terminal (with its line
    editing), and from anything else a line read at most :data:`LINE_LIMIT` characters at a time:
    a longer one ends the run (``stopped``), so a stream with no line end cannot fill memory."""
    stdin = sys.stdin
    try:
        tty = stdin.isatty()
    except (AttributeError, ValueError):
        tty = False
    if tty:
        return input(prompt)
    if prompt:
        sys.stdout.write(prompt)
        sys.stdout.flush()
    line = stdin.readline(LINE_LIMIT + 1)
    if not line:
        raise EOFError
    if len(line) > LINE_LIMIT and not line.endswith("\n"):
        raise RunEnded("stopped", f"a line of input longer than {LINE_LIMIT:,} characters")
    return line.rstrip("\r\n")


def _run(graph: CompiledGraph, rules: Rules, pc: Character, dice: Dice, state: GameState | None,
         settings: Settings, save_path: str | None, verbose: bool, inputs: tuple[str | None, ...] = (),
         made: bool = False, carried: list[tuple[str, int]] | None = None) -> None:
    interactive = settings.mode == "interactive"
    terminal = Terminal(read=read_answer) if interactive or verbose else None
    player, script = _player(settings, terminal)
    log = EventLog(settings.log, resume_at=settings.log_offset if state is not None else None,
                   inputs=(*inputs, save_path), recorder=record(dice)) if settings.log else None
    sinks: list[Any] = [s for s in (log, terminal) if s is not None]

    def checkpoint(engine: Engine) -> None:
        if log is not None:
            settings.log_offset = log.flush()
        if script is not None:
            settings.script_line = script.position
        if save_path is not None:
            write_save(save_path, engine, settings, inputs)

    # The turn limit is a budget for this session: a resumed game gets a fresh one from where it stopped.
    limit = settings.max_turns + (state.turn if state is not None else 0)
    engine = Engine(graph, pc, player, dice=dice, rules=rules, state=state, start=settings.start,
                    max_turns=limit, sinks=sinks, checkpoint=checkpoint, made=made and state is None,
                    carried=carried or ())
    if terminal is not None:
        terminal.game = engine
        terminal.save_path = save_path
        if not interactive:
            terminal.narrate = player
            terminal.narrate_name = (f"The {settings.policy} player" if script is None and settings.policy
                                     else f"The {script.name}" if script is not None else "The automatic player")
        if save_path is not None:
            def save_now() -> str | None:
                checkpoint(engine)
                return save_path

            terminal.save = save_now
        if state is not None:
            terminal.say(f"Resuming {graph.get('title') or settings.adventure} at entry {state.entry}, "
                         f"turn {state.turn}.", "bold")
            terminal.say(f"— {state.entry} —", "bold cyan")
            terminal.prose(engine.entry["text"])
    try:
        outcome = engine.run()
    except KeyboardInterrupt:
        if log is not None:
            log.close()
        hint = f"; resume with: {_resume_command(save_path, settings)}" if save_path else ""
        click.echo(f"\nstopped: interrupted at entry {engine.state.entry} on turn {engine.state.turn}{hint}",
                   err=True)
        sys.exit(130)
    finally:
        if log is not None:
            log.close()
    _finish(outcome, save_path, settings)


def _resume_command(save_path: str, settings: Settings) -> str:
    """The command that carries on (naming the log again: a save never chooses where dtc writes)."""
    return f"dtc play --resume {save_path}" + (f" --log {settings.log}" if settings.log else "")


def _finish(outcome: Outcome, save_path: str | None, settings: Settings) -> None:
    click.echo(visible(outcome.line()))
    if outcome.kind == "stopped" and save_path:
        click.echo(f"resume with: {_resume_command(save_path, settings)} (it plays up to {settings.max_turns} "
                   "more turns; --max-turns N to change that)", err=True)
    raise SystemExit(int(Exit.FINDINGS if outcome.kind == "cannot-continue" else Exit.CLEAN))


def stdin_is_tty() -> bool:
    return sys.stdin.isatty()


@click.group("character")
def character_group() -> None:
    """Make and inspect adventurers."""


@character_group.command("new")
@seed_option
@click.option("--rules", "rules_name", default="death-and-treasure", show_default=True, metavar="NAME",
              help="The game system the adventurer is for: death-and-treasure, maze-rats, zilch, or one of them "
                   "+ dungeon-rules (as an adventure's Rules: line names it).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the character here (default: stdout).")
@click.option("--random", "at_random", is_flag=True, help="Roll and equip at random (also when stdin is not a TTY).")
@guard
@ends_cleanly
def character_new(seed: int | None, rules_name: str, output: str | None, at_random: bool) -> None:
    """Make an adventurer by the creation rules of a game system (--rules; docs/rulesets/).

    Death & Treasure: 3d6 in order, one optional swap, gear by weight, HP and Defense. Maze Rats:
    a rolled ability array, a feature, the standard gear. Zilch: a card from each suit, a class.
    With Dungeon Rules the overlay's scores are rolled too. At a terminal it asks; with --random,
    or when stdin is not a terminal, it decides at random.
    """
    rules = _rules_named(rules_name)
    dice = Dice(seed if seed is not None else secrets.randbelow(2**31))
    console = Console(stderr=True, highlight=False)
    if at_random or not stdin_is_tty():
        pc = rules.new_character(dice)
    else:
        def read(prompt: str) -> str:
            console.print(prompt, end="", markup=False)
            return read_answer("")

        terminal = Terminal(console=console, read=read)
        try:
            pc = rules.create_character(dice, TerminalChooser(terminal))
        except KeyboardInterrupt:
            fail("\nstopped: no character made", Exit.USAGE)
            raise
        except (EOFError, RunEnded):  # end of input (Ctrl-D) at a prompt
            fail("\nstopped: no character made (end of input)", Exit.USAGE)
            raise
    rolled = rules.finish_character(pc, dice)
    if rolled:
        console.print(f"{rules.title}: rolled 3d6 each for " + ", ".join(rolled), markup=False)
    for line in [pc.summary(), *pc.inventory_lines()]:
        console.print(visible(line), markup=False)
    text = character_json(pc)
    if output:
        write_text(output, text, backup=True)
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(text, nl=False)


@character_group.command("show")
@click.argument("file", type=click.Path(dir_okay=False))
@guard
@ends_cleanly
def character_show(file: str) -> None:
    """Check the character FILE and print the sheet."""
    try:
        pc = load_character(file)
    except CharacterError as exc:
        fail(f"error: {exc}")
        raise
    click.echo(visible(pc.summary()))
    for line in pc.inventory_lines():
        click.echo("  " + visible(line))
