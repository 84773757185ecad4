"""Run logs that record some kinds of event only (the web edition's "Download this run"): the
start's ``recorded`` names them, and ``dtc play --replay`` compares this dtc's events of those kinds
on the fields the log has. Made here from ``dtc play --log`` runs, without a browser: every line of
another kind dropped, the fields the page does not write dropped, the faces moved to the next line
kept (they are the run's dice, in order)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.compiled.schema import validate
from helpers import ROOT

BOOK = ROOT / "tests" / "fixtures" / "books" / "maze-rats-keys-and-coins.txt"
KINDS = ["move", "turn", "encounter_check", "encounter", "check", "action", "roll", "possession", "decision", "gear"]
#: The fields the page writes of each kind (besides seq, turn, entry, event and faces).
FIELDS = {"move": ("to", "how"), "turn": ("why",), "encounter_check": ("roll", "encounter"), "encounter": ("roll",),
          "check": ("ability", "success"), "action": ("plan", "success"), "roll": ("total",),
          "possession": ("name", "amount", "held"), "decision": ("question", "choice", "label"),
          "gear": ("item", "appropriate"), "end": ("outcome", "reason", "treasure", "hp")}


def _play(tmp_path: Path, seed: int) -> list[dict[str, Any]]:
    log = tmp_path / f"play-{seed}.jsonl"
    result = CliRunner().invoke(main, ["play", str(BOOK), "--auto", "random", "--seed", str(seed), "--log", str(log),
                                       "--no-save", "--max-turns", "300"])
    assert result.exit_code in (0, 1), result.output
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def as_recorded(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A play log as the page would write it: its kinds and fields only, the faces carried forward."""
    out: list[dict[str, Any]] = []
    faces: list[Any] = []
    for e in events:
        faces += e.get("faces", [])
        if e["event"] == "start":
            kept = {k: v for k, v in e.items() if k != "faces"}
            kept.update(recorded=KINDS, made=False)
            if e.get("made"):  # the adventurer the run rolled, as a sheet: its dice are not the run's
                faces = []
        elif e["event"] in FIELDS:
            kept = {"seq": 0, "turn": e["turn"], "entry": e["entry"], "event": e["event"],
                    **{k: e[k] for k in FIELDS[e["event"]] if k in e}}
        else:
            continue
        if faces and e["event"] != "start":
            kept["faces"], faces = faces, []
        kept["seq"] = len(out)
        out.append(kept)
    return out


def _replay(tmp_path: Path, events: list[dict[str, Any]]) -> Any:
    log = tmp_path / "recorded.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return CliRunner().invoke(main, ["play", str(BOOK), "--replay", str(log)])


@pytest.mark.parametrize("seed", range(4))
def test_a_log_of_the_recorded_kinds_replays_with_the_same_outcome(tmp_path: Path, seed: int) -> None:
    events = as_recorded(_play(tmp_path, seed))
    for event in events:
        validate(event, "run-log")
    result = _replay(tmp_path, events)
    assert result.exit_code == 0 and "same outcome" in result.output, result.output


def test_a_recorded_field_that_differs_is_the_divergence(tmp_path: Path) -> None:
    events = as_recorded(_play(tmp_path, 1))
    check = next(e for e in events if e["event"] == "check")
    check["success"] = not check["success"]
    result = _replay(tmp_path, events)
    assert result.exit_code == 1, result.output
    assert f"diverged at step {check['seq']}: check: success: log {check['success']}" in result.output


def test_dice_the_log_rolled_and_this_dtc_never_did_are_a_difference(tmp_path: Path) -> None:
    events = as_recorded(_play(tmp_path, 1))
    events[-1]["faces"] = [*events[-1].get("faces", []), [6, 3]]
    result = _replay(tmp_path, events)
    assert result.exit_code == 1 and "the log rolled 1 more dice than this dtc did" in result.output, result.output


def test_a_log_cut_where_the_reader_took_over_agrees_so_far(tmp_path: Path) -> None:
    events = as_recorded(_play(tmp_path, 1))
    result = _replay(tmp_path, events[: len(events) // 2])
    assert result.exit_code == 0 and "the same so far" in result.output, result.output


def test_recorded_that_is_not_a_list_of_kinds_is_refused_in_one_line(tmp_path: Path) -> None:
    events = as_recorded(_play(tmp_path, 1))
    events[0]["recorded"] = "check"
    result = _replay(tmp_path, events)
    assert result.exit_code == 2, result.output
    assert "recorded is not a list of event kinds" in result.output and "Traceback" not in result.output
