"""`dtc simulate --failure-logs DIR`: the run log of each run the report names for a problem (a book
that cannot continue, a run stopped at its turn limit or stuck, a runtime error), which `dtc play
--replay` plays again with the same outcome."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from dtc.cli import main
from dtc.compiled.schema import validate
from dtc.compiler.api import compile_text
from dtc.runtime.engine import Engine
from dtc.simulate import Job
from dtc.simulate.failures import chosen, log_name, write_failure_logs
from dtc.simulate.runner import play_block
from dtc.simulate.stats import EXAMPLES, Problem, Tally
from dtc.systems import play_rules
from helpers import ROOT

LIGHTHOUSE = ROOT / "adventures" / "the-broken-lighthouse.txt"
CHAPEL = ROOT / "adventures" / "the-drowned-chapel.txt"
#: Two ledges, each with a climb to the other and no ending: with the same-room ruling free, a
#: climb spends no turn, so the bold player climbs for ever (stuck), and the others run out of turns.
LEDGES = """Title: The Ledges
Rules: death-and-treasure

Adventure Entries

1 A ledge over the sea. You may climb up (DEX D1, S2, F2).

2 A higher ledge. You may climb down (DEX D1, S1, F1).
"""
REPLAY_LINE = re.compile(r"replay: dtc play (\S+) --replay (\S+) \((.+)\)")


def simulate(*args: str | Path) -> Result:
    return CliRunner().invoke(main, ["simulate", *map(str, args)], catch_exceptions=False)


def replays(result: Result) -> list[tuple[str, Path, str]]:
    """The (book, log, problem) of each ``replay:`` line simulate printed."""
    found = [REPLAY_LINE.fullmatch(line) for line in result.stderr.splitlines() if line.startswith("replay:")]
    assert all(found), result.stderr
    return [(m.group(1), Path(m.group(2)), m.group(3)) for m in found if m]


def assert_replays(book: str | Path, log: Path, outcome: str) -> list[dict[str, Any]]:
    """The log replays with the same outcome (``outcome``'s words); every line is a run-log line."""
    result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert result.output.count("\n") == 1
    assert result.output.startswith(f"{log}: replayed {len(lines)} steps: same outcome ({outcome}")
    for line in lines:
        validate(line, "run-log")
    return lines


def test_the_book_that_cannot_continue_leaves_logs_that_replay(tmp_path: Path) -> None:
    folder = tmp_path / "failed"
    result = simulate(LIGHTHOUSE, "-n", "200", "--seed", "1", "--workers", "1", "--failure-logs", folder)
    assert result.exit_code == 1  # a broken book, as without the option
    runs = int(re.search(r"(\d+) runs? that erred", result.stderr).group(1))  # type: ignore[union-attr]
    assert runs > EXAMPLES
    assert (f"note: wrote {EXAMPLES} run logs to {folder}: the runs the report names for its 1 problem (at most "
            f"{EXAMPLES} each, 20 in all), of the {runs} runs that erred, could not continue or stopped"
            ) in result.stderr
    found = replays(result)
    assert len(found) == EXAMPLES
    assert sorted(p.name for p in folder.iterdir()) == sorted(log.name for _, log, _ in found)
    report = json.loads(simulate(LIGHTHOUSE, "-n", "200", "--seed", "1", "--workers", "1", "--format", "json").stdout)
    (problem,) = report["problems"]
    assert [log.name for _, log, _ in found] == [f"the-broken-lighthouse-seed-{e['seed']}.jsonl"
                                                 for e in problem["examples"]]
    for book, log, what in found:
        assert book == str(LIGHTHOUSE) and what == f"cannot-continue at entry 15: {problem['message']}"
        lines = assert_replays(book, log, "cannot continue: " + problem["message"])
        assert lines[0]["made"] is True and lines[-1]["outcome"] == "cannot-continue"


def test_the_report_is_the_same_with_the_option(tmp_path: Path) -> None:
    args = (LIGHTHOUSE, "-n", "60", "--seed", "4", "--workers", "1", "--format", "json")
    plain = json.loads(simulate(*args).stdout)
    logged = json.loads(simulate(*args, "--failure-logs", tmp_path / "logs").stdout)
    for report in (plain, logged):
        del report["seconds"], report["runs_per_second"]
    assert plain == logged and plain["problems"]


def test_stuck_and_turn_limit_runs_leave_logs_that_replay(tmp_path: Path) -> None:
    book = tmp_path / "ledges.txt"
    book.write_text(LEDGES, encoding="utf-8")
    for policy, reason in (("bold", "stuck: 100 decisions without the run ending"),
                           ("cautious", "turn limit 2 reached")):
        folder = tmp_path / policy
        result = simulate(book, "-n", "8", "--seed", "1", "--workers", "1", "--max-turns", "2", "--policy", policy,
                          "--ruling", "same-room=free", "--failure-logs", folder)
        assert result.exit_code == 0  # stopped runs are problems, but not a broken book
        found = replays(result)
        assert len(found) == 3 and all(what.endswith(f": {reason}") for _, _, what in found), result.stderr
        for _, log, _ in found:
            lines = assert_replays(book, log, f"stopped: {reason}")
            assert lines[0]["rulings"]["same-room"] == "free"  # the command line's ruling, which the replay plays


def test_least_used_logs_its_runs_as_their_batch_played_them(tmp_path: Path) -> None:
    """least-used remembers what the runs before it in its batch visited: a run of the third batch
    is logged after its batch is played again from its start."""
    book = tmp_path / "ledges.txt"
    book.write_text(LEDGES, encoding="utf-8")
    graph = compile_text(LEDGES, str(book)).graph()
    job = Job(graph, "least-used", seed=7, max_turns=3)
    rules = play_rules(graph.get("rules"))
    third = play_block(job, range(200, 250), rules=rules)  # the third batch of 250 runs, on its own
    assert third.problems and all(i >= 200 for p in third.problems.values() for i, _ in p.examples)
    logs = write_failure_logs(job, 250, third, tmp_path / "logs", str(book), rules, 20)
    assert len(logs) == len(chosen(third, 20)) >= 2
    for log in logs:
        assert log.path is not None and log.path.name == log_name(str(book), log.seed)
        assert log.index >= 200 and log.problem.kind == "stopped"
        assert_replays(book, log.path, f"stopped: {log.problem.message}")


def test_logs_are_the_same_from_any_number_of_workers(tmp_path: Path) -> None:
    written = []
    for workers in ("1", "3"):
        folder = tmp_path / workers
        result = simulate(CHAPEL, "-n", "120", "--seed", "9", "--max-turns", "4", "--workers", workers,
                          "--failure-logs", folder)
        assert result.exit_code == 0, result.output
        written.append({p.name: p.read_bytes() for p in folder.iterdir()})
    assert written[0] == written[1] and written[0]


def test_a_runtime_error_is_logged_up_to_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that raises leaves a log with no end: replayed where the error still is, it raises the
    same error; where it is mended, the run agrees with all the log holds."""
    spend_turn = Engine.spend_turn

    def broken(self: Engine, why: str) -> bool:
        if self.state.entry == 3 and self.state.turn >= 2:
            raise ZeroDivisionError("the lamp divides by nothing")
        return spend_turn(self, why)

    monkeypatch.setattr(Engine, "spend_turn", broken)
    folder = tmp_path / "errors"
    result = simulate(LIGHTHOUSE, "-n", "40", "--seed", "3", "--workers", "1", "--failure-logs", folder)
    assert result.exit_code == 1
    errors = [(log, what) for _, log, what in replays(result) if what.startswith("error")]
    assert errors, result.stderr
    for log, what in errors:
        assert "ZeroDivisionError: the lamp divides by nothing (runtime/engine.py:" in what
        lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        assert lines[-1]["event"] != "end" and lines[-1]["entry"] == 3
        again = CliRunner().invoke(main, ["play", str(LIGHTHOUSE), "--replay", str(log)])
        assert isinstance(again.exception, ZeroDivisionError)  # the same error, from the same run
    monkeypatch.setattr(Engine, "spend_turn", spend_turn)
    for log, _ in errors:
        mended = CliRunner().invoke(main, ["play", str(LIGHTHOUSE), "--replay", str(log)])
        assert mended.exit_code == 0 and "the same so far (the log stops before its run ended)" in mended.output


def test_no_failure_no_log(tmp_path: Path) -> None:
    book = tmp_path / "short.txt"
    book.write_text("Title: Short\n\nAdventure Entries\n\n1 A door. Go to 2.\n\n2 Out. THE END\n", encoding="utf-8")
    folder = tmp_path / "none"
    result = simulate(book, "-n", "20", "--workers", "1", "--failure-logs", folder)
    assert result.exit_code == 0
    assert f"note: no run erred, could not continue or stopped: no run log written to {folder}" in result.stderr
    assert not folder.exists()


def test_at_most_twenty_logs_the_first_run_of_each_problem_first() -> None:
    tally = Tally()
    for n in range(30):
        tally.problems[("stopped", f"reason {n}", n)] = Problem("stopped", f"reason {n}", n, 5,
                                                               [(100 * n + k, 7 * n + k) for k in range(EXAMPLES)])
    picks = chosen(tally, 20)
    assert len(picks) == 20 and len({p.message for _, _, p in picks}) == 20
    two = dict(list(tally.problems.items())[:2])
    tally.problems = two
    assert [index for index, _, _ in chosen(tally, 20)] == [0, 100, 1, 101, 2, 102]
    assert Counter(p.message for _, _, p in chosen(tally, 5)) == Counter({"reason 0": 3, "reason 1": 2})


def test_a_log_is_never_written_over_an_input(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    report = simulate(LIGHTHOUSE, "-n", "200", "--seed", "1", "--workers", "1", "--format", "json")
    seed = json.loads(report.stdout)["problems"][0]["examples"][0]["seed"]
    output = folder / f"the-broken-lighthouse-seed-{seed}.jsonl"  # the report, where a log would go
    result = CliRunner().invoke(main, ["simulate", str(LIGHTHOUSE), "-n", "200", "--seed", "1", "--workers", "1",
                                       "--format", "json", "-o", str(output), "--failure-logs", str(folder)])
    assert result.exit_code == 2 and "is an input of this command" in result.stderr
    assert json.loads(output.read_text(encoding="utf-8"))["format"] == "dtc-simulation"
    a_file = tmp_path / "file"
    a_file.write_text("x", encoding="utf-8")
    refused = CliRunner().invoke(main, ["simulate", str(LIGHTHOUSE), "-n", "5", "--failure-logs", str(a_file)])
    assert refused.exit_code == 2 and "is a file" in refused.output
