"""`dtc simulate FILE -n N [--seed S] [--policy P] [--workers K] [--format text|json]`."""

from __future__ import annotations

import json
import os
import secrets
import sys
from typing import TYPE_CHECKING, Any, Literal, cast

import click

from dtc.cli.base import (
    MAX_COUNT,
    MAX_TURNS,
    SEEDS,
    Exit,
    color_wanted,
    ends_cleanly,
    fail,
    guard,
    limit_option,
    load_graph,
    policy_option,
    report_format_option,
    ruling_option,
)
from dtc.cli.odds_cmd import emit
from dtc.compiled.graphjson import CompiledGraph
from dtc.fileio import preflight

if TYPE_CHECKING:
    from dtc.runtime.ruleset import Rules

def _rules_name(graph: CompiledGraph, file: str) -> Rules:
    from dtc.systems import UnknownRuleset, play_rules

    try:
        return play_rules(graph.get("rules"))
    except UnknownRuleset as exc:
        fail(f"error: {file}: dtc simulate has no rules for '{exc.name}'")
        raise  # unreachable


def _character(path: str | None, rules: Rules) -> tuple[dict[str, Any] | None, str]:
    if path is None:
        return None, "a fresh adventurer each run"
    from dtc.cli.play_cmd import refuse_other_system
    from dtc.runtime.character import CharacterError, load_character

    try:
        pc = load_character(path)
    except CharacterError as exc:
        fail(f"error: {exc}")
        raise  # unreachable
    refuse_other_system(pc, rules, path)
    return pc.to_dict(), f"{pc.name} ({path}) every run: {pc.summary()}"


#: The most processes ``--workers`` asks for.
MAX_WORKERS = 1024


def _worker_count(ctx: click.Context, param: click.Parameter, value: str) -> int | str:
    """``--workers``: a whole number from 1 to :data:`MAX_WORKERS`, or ``auto``."""
    text = str(value).strip().lower()
    if text == "auto":
        return "auto"
    try:
        number = int(text)
    except ValueError:
        raise click.BadParameter(f"{value!r} is neither a whole number nor 'auto'.", ctx, param) from None
    if not 1 <= number <= MAX_WORKERS:
        raise click.BadParameter(f"{number} is not a number of workers (1 to {MAX_WORKERS:,}, or 'auto').", ctx,
                                 param)
    return number


@click.command("simulate")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-n", "--runs", type=click.IntRange(min=1, max=MAX_COUNT), default=1000, show_default=True,
              help="How many playthroughs.")
@click.option("--seed", type=SEEDS, default=None, help="Master seed (default: a random one, shown in the report).")
@policy_option("random", "cautious", "bold", "least-used", lead="Who plays (the automatic players of dtc play, "
                                                                 "or least-used for coverage)")
@click.option("--workers", metavar="N|auto", default="auto", show_default=True, callback=_worker_count,
              help="Processes to play on: a number, or auto (the usable cores, when the runs take long "
                   "enough to gain from them). Results depend only on the seed and the number of runs.")
@click.option("--max-turns", type=click.IntRange(min=1, max=MAX_TURNS), default=None,
              help="Stop a run after this many turns (default: dtc play's).")
@click.option("--character", "character_path", type=click.Path(dir_okay=False),
              help="Play every run with this adventurer (a `dtc character new` file).")
@ruling_option
@report_format_option
@limit_option
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar on stderr (default: when stderr is a terminal).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the report to this file.")
@guard
@ends_cleanly  # a stop ends the workers too (they would play on to the end of their batches)
def simulate_cmd(file: str, runs: int, seed: int | None, policy: str, workers: int | str, max_turns: int | None,
                 character_path: str | None, rulings: dict[str, str], fmt: str, limit: int, progress: bool | None,
                 output: str | None) -> None:
    """Play FILE many times with the full `dtc play` runtime (HP, combat, encounters, light).

    Reports the outcomes with confidence intervals, deaths and their causes per entry, turns,
    treasure carried out, entries never visited, and every runtime error or stuck run with the
    seed that replays it. Exit status 1 when a run hit a runtime error or a broken book.
    """
    from dtc.cli.progress import Working
    from dtc.runtime.engine import DEFAULT_MAX_TURNS
    from dtc.simulate.parallel import WorkerFailed, with_progress_bar
    from dtc.simulate.report import Meta, render_text, to_json
    from dtc.simulate.runner import Job

    preflight(output, [file, character_path])
    with Working(f"reading {file}"):
        graph = load_graph(file)
    rules = _rules_name(graph, file)
    if rulings:
        from dtc.cli.play_cmd import with_rulings
        from dtc.systems import with_rulings as spec_with

        rules = with_rulings(graph, rulings)  # exits 2 naming a bad --ruling
        graph = cast("CompiledGraph", {**graph, "rules": spec_with(graph.get("rules"), rulings)})
    character, reader = _character(character_path, rules)
    master = seed if seed is not None else secrets.randbelow(2**31)
    turns = max_turns or DEFAULT_MAX_TURNS
    job = Job(graph, policy, master, turns, character)
    count: int | Literal["auto"] = "auto" if workers == "auto" else min(int(workers), runs,
                                                                        max(1, (os.cpu_count() or 1) * 4))
    show = progress if progress is not None else sys.stderr.isatty()
    try:
        result = with_progress_bar(job, runs, count, show=show)
    except WorkerFailed as exc:
        fail(f"error: {exc}", Exit.FINDINGS)
        raise  # unreachable
    except KeyboardInterrupt:
        click.echo("stopped: interrupted (no report)", err=True)
        sys.exit(130)
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    entries = list(dict.fromkeys(int(e["number"]) for e in graph["entries"]))
    meta = Meta(file, str(graph.get("title") or "Untitled adventure"), policy, master, result.workers, runs,
                result.seconds, turns, reader, character_path, entries, rulings)
    if fmt == "json":
        emit(json.dumps(to_json(meta, result.tally), indent=2, ensure_ascii=False), output,
             inputs=(file, character_path))
    else:
        color = output in (None, "-") and color_wanted()
        emit(render_text(meta, result.tally, limit=limit, color=color), output, color, (file, character_path))
    broken = result.tally.outcomes.get("error", 0) + result.tally.outcomes.get("cannot-continue", 0)
    raise SystemExit(int(Exit.FINDINGS if broken else Exit.CLEAN))
