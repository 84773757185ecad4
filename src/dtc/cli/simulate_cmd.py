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
    carrying,
    color_wanted,
    ends_cleanly,
    fail,
    guard,
    limit_option,
    load_graph,
    policy_option,
    report_format_option,
    ruling_option,
    with_option,
)
from dtc.cli.odds_cmd import emit
from dtc.compiled.graphjson import CompiledGraph
from dtc.fileio import preflight
from dtc.simulate.stats import EXAMPLES
from dtc.visible import visible

if TYPE_CHECKING:
    from dtc.runtime.ruleset import Rules
    from dtc.simulate.runner import Job
    from dtc.simulate.stats import Tally

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


#: The most run logs ``--failure-logs`` writes.
MAX_FAILURE_LOGS = 20


def _write_failure_logs(job: Job, runs: int, tally: Tally, folder: str, file: str,
                        inputs: tuple[str | None, ...]) -> None:
    """``--failure-logs DIR``: the run logs of the runs the report names for its problems, then a
    line for each saying how ``dtc play`` replays it (stderr: the report alone is on stdout)."""
    import shlex

    from dtc.simulate.failures import write_failure_logs
    from dtc.systems import play_rules

    failed = sum(tally.outcomes.get(kind, 0) for kind in ("error", "cannot-continue", "stopped"))
    if not failed:
        click.echo(f"note: no run erred, could not continue or stopped: no run log written to {folder}", err=True)
        return
    logs = write_failure_logs(job, runs, tally, folder, file, play_rules(job.graph.get("rules")),
                              MAX_FAILURE_LOGS, inputs)
    written = [log for log in logs if log.path is not None]
    problems = len(tally.problems)
    click.echo(f"note: wrote {len(written)} run log{'s' if len(written) != 1 else ''} to {folder}: the runs the "
               f"report names for its {problems} problem{'s' if problems != 1 else ''} (at most {EXAMPLES} each, "
               f"{MAX_FAILURE_LOGS} in all), of the {failed:,} run{'s' if failed != 1 else ''} that erred, could not "
               "continue or stopped", err=True)
    for log in logs:
        what = visible(f"{log.problem.kind} at entry {log.problem.entry}: {log.problem.message}"
                       if log.problem.entry is not None else f"{log.problem.kind}: {log.problem.message}")
        if log.path is None:
            click.echo(f"warning: run {log.index} (seed {log.seed}) played otherwise with a run log, so none was "
                       f"written for it ({what}); please report this", err=True)
            continue
        click.echo(f"replay: dtc play {shlex.quote(file)} --replay {shlex.quote(str(log.path))} ({what})", err=True)


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
@policy_option("random", "cautious", "bold", "likeliest", "least-used",
               lead="Who plays (the automatic players of dtc play, or least-used for coverage)")
@click.option("--workers", metavar="N|auto", default="auto", show_default=True, callback=_worker_count,
              help="Processes to play on: a number, or auto (the usable cores, when the runs take long "
                   "enough to gain from them). Results depend only on the seed and the number of runs.")
@click.option("--max-turns", type=click.IntRange(min=1, max=MAX_TURNS), default=None,
              help="Stop a run after this many turns (default: dtc play's).")
@click.option("--character", "character_path", type=click.Path(dir_okay=False),
              help="Play every run with this adventurer (a `dtc character new` file).")
@ruling_option
@with_option
@report_format_option
@limit_option
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar on stderr (default: when stderr is a terminal).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the report to this file.")
@click.option("--failure-logs", "failure_logs", type=click.Path(file_okay=False), metavar="DIR",
              help=f"Write the run log of each run the report names for a problem (a runtime error, a book that "
                   f"cannot continue, a run stopped at its turn limit or stuck; the first {EXAMPLES} runs of "
                   f"each) into DIR as BOOK-seed-N.jsonl, at most {MAX_FAILURE_LOGS}: `dtc play FILE --replay "
                   "LOG` plays it again. Default: none written.")
@guard
@ends_cleanly  # a stop ends the workers too (they would play on to the end of their batches)
def simulate_cmd(file: str, runs: int, seed: int | None, policy: str, workers: int | str, max_turns: int | None,
                 character_path: str | None, rulings: dict[str, str], carried: list[tuple[str, int]], fmt: str,
                 limit: int, progress: bool | None, output: str | None, failure_logs: str | None) -> None:
    """Play FILE many times with the full `dtc play` runtime (HP, combat, encounters, light).

    Reports the outcomes with confidence intervals, deaths and their causes per entry, turns,
    treasure carried out, entries never visited, and every runtime error or stuck run with the
    seed that replays it (with --failure-logs, its run log too). Exit status 1 when a run hit a
    runtime error or a broken book.
    """
    from dtc.cli.progress import Working
    from dtc.runtime.engine import DEFAULT_MAX_TURNS
    from dtc.simulate.parallel import WorkerFailed, with_progress_bar
    from dtc.simulate.report import Meta, render_text, to_json
    from dtc.simulate.runner import Job

    preflight(output, [file, character_path])
    with Working(f"reading {file}"):
        graph = carrying(load_graph(file), carried)
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
    if failure_logs is not None:
        _write_failure_logs(job, runs, result.tally, failure_logs, file, (file, character_path, output))
    broken = result.tally.outcomes.get("error", 0) + result.tally.outcomes.get("cannot-continue", 0)
    raise SystemExit(int(Exit.FINDINGS if broken else Exit.CLEAN))
