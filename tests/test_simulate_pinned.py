"""`dtc simulate` pinned: a seeded simulation of every bundled book plays exactly as it did.

For each bundled adventure and each policy a few dozen seeded runs are played through the real
path (:func:`dtc.simulate.runner.play_block`), and two fingerprints are compared with the golden
file ``tests/golden/simulate/BOOK.txt``: a digest of every event every run emitted (each roll,
decision, blow and move, in order) and a digest of the resulting tally, beside the outcome counts
in words. Speed work on the runtime and the rules (caches, leaner loops) must leave both
unchanged; a change to what a rule rolls or decides changes them on purpose, and is then
regenerated with ``DTC_UPDATE_GOLDEN=1 pytest tests/test_simulate_pinned.py`` and reviewed.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from dtc.compiler.api import compile_file
from dtc.simulate import runner
from dtc.simulate.runner import POLICY_NAMES, Job, play_block
from dtc.simulate.stats import Tally
from helpers import BUNDLED, ROOT
from helpers.simulate import tally_digest

#: Runs per book and policy, the master seed, and a turn limit that keeps a stuck run short.
RUNS = 16
SEED = 2026
MAX_TURNS = 150
GOLDEN = ROOT / "tests" / "golden" / "simulate"
UPDATE = os.environ.get("DTC_UPDATE_GOLDEN") == "1"


def play_pinned(graph: dict[str, Any], policy: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Tally, str]:
    """The tally of the pinned runs and a digest of every event they emitted, in order."""
    events = hashlib.blake2b(digest_size=12)

    def record(event: dict[str, Any]) -> None:
        events.update(json.dumps(event, sort_keys=True, default=str).encode())
        events.update(b"\n")

    real = runner.Engine

    class Recorded(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, sinks: Iterable[Callable[[dict[str, Any]], None]] = (),
                     **kwargs: Any) -> None:
            super().__init__(*args, sinks=[*sinks, record], **kwargs)

    monkeypatch.setattr(runner, "Engine", Recorded)
    tally = play_block(Job(graph, policy, seed=SEED, max_turns=MAX_TURNS), range(RUNS))
    monkeypatch.setattr(runner, "Engine", real)
    return tally, events.hexdigest()


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_seeded_simulation_is_pinned(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    graph = compile_file(path).graph()
    lines = [f"# {path.name}: {RUNS} runs per policy, seed {SEED}, at most {MAX_TURNS} turns "
             "(regenerate: DTC_UPDATE_GOLDEN=1)"]
    for policy in POLICY_NAMES:
        tally, events = play_pinned(graph, policy, monkeypatch)
        counts = ", ".join(f"{k} {v}" for k, v in sorted(tally.outcomes.items()))
        lines.append(f"{policy}: {counts}; turns {sum(tally.turns.values())}; "
                     f"events {events}; tally {tally_digest(tally)}")
    actual, golden = "\n".join(lines) + "\n", GOLDEN / f"{path.stem}.txt"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(actual, encoding="utf-8")
    assert golden.exists(), f"missing golden {golden} (DTC_UPDATE_GOLDEN=1 to create)"
    assert actual == golden.read_text(encoding="utf-8")
