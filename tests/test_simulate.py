"""`dtc simulate`: seeding, determinism across workers, problems with replayable seeds, the CLI,
and agreement with the exact chain of `dtc odds` where both answer the same question."""

from __future__ import annotations

import importlib.util
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.compiler.api import compile_text
from dtc.odds import compute_odds
from dtc.runtime.core import ABILITY, GEAR, GEAR_OK, PLAN, Question
from dtc.runtime.dice import Dice
from dtc.runtime.engine import Engine
from dtc.runtime.policies import RandomPolicy
from dtc.simulate import Job, run_seed, simulate, wilson
from dtc.simulate.runner import PACKAGE_DIR, play_block, play_one
from dtc.simulate.stats import Run, Tally, cause_name
from dtc.systems import play_rules
from dtc.systems.death_and_treasure.creation import random_character

HEAD = "Test Book\n\nAdventure Entries\n\n"


def book(*entries: str) -> str:
    return HEAD + "\n\n".join(entries) + "\n"


def graph_of(src: str) -> dict[str, Any]:
    return compile_text(src, "book.txt").graph()


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


BRANCHY = book(
    "1 A gate. The left door (D0, S2), the right door (D0, S3), a hatch (D0, S4).",
    "2 A hall. On (D0, S5), back (D0, S1).",
    "3 A cell. On (D0, S5), back (D0, S1).",
    "4 A pit. On (D0, S6), back (D0, S1).",
    "5 A vault. THE END",
    "6 A well. THE END",
)


# --- seeds and statistics -------------------------------------------------------------


def test_run_seeds_depend_only_on_master_and_index() -> None:
    assert run_seed(7, 3) == run_seed(7, 3)
    assert len({run_seed(7, i) for i in range(1000)}) == 1000
    assert run_seed(7, 3) != run_seed(8, 3)
    assert all(0 <= run_seed(1, i) < 2**31 for i in range(100))


def test_wilson_interval() -> None:
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(5, 10)
    assert (low, high) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_death_causes_add_up_across_numbered_creatures() -> None:
    assert cause_name("Goblin 2's Sword or Bow") == "Goblin's Sword or Bow"
    tally = Tally()
    for i, who in enumerate(["Goblin 1's Sword", "Goblin 3's Sword", "a falling stone"]):
        tally.add(Run(i, i, "died", 4, 3, who, 0, {1: 1, 4: 1}))
    (row,) = tally.death_rows()
    assert row["entry"] == 4 and row["deaths"] == 3 and row["rate"] == 1.0
    assert row["cause"] == "Goblin's Sword" and row["cause_count"] == 2


# --- playing -------------------------------------------------------------------------------


def test_same_seed_same_tally_and_workers_do_not_change_it() -> None:
    job = Job(graph_of(BRANCHY), "random", seed=11, max_turns=200)
    one = simulate(job, 40, 1).tally
    again = simulate(job, 40, 1).tally
    two = simulate(job, 40, 2)
    assert two.workers == 2
    assert one == again
    assert one.outcomes == two.tally.outcomes and one.reached == two.tally.reached
    assert one.runs == 40 and sum(one.outcomes.values()) == 40


def test_a_run_replays_with_dtc_play(tmp_path: Path) -> None:
    path = tmp_path / "branchy.txt"
    path.write_text(BRANCHY, encoding="utf-8")
    job = Job(graph_of(BRANCHY), "random", seed=5, max_turns=200)
    rules = play_rules(job.graph["rules"])
    for index in range(3):
        result = play_one(job, rules, index)
        code, out, _ = run("play", str(path), "--seed", str(result.seed), "--auto", "random", "--max-turns", "200",
                           "--no-save")
        assert code in (0, 1)
        assert out.strip().splitlines()[-1].startswith(result.outcome.replace("cannot-continue", "cannot continue"))
        assert f"turn {result.turn}" in out


def test_least_used_explores_everything() -> None:
    job = Job(graph_of(BRANCHY), "least-used", seed=3, max_turns=200)
    tally = play_block(job, range(12))
    assert tally.never_visited([1, 2, 3, 4, 5, 6]) == []
    assert simulate(job, 12, 1).tally == tally  # deterministic for a seed and worker count


def test_runtime_errors_are_caught_with_their_seed() -> None:
    class Broken(RandomPolicy):
        def decide(self, question: Question, game: Engine) -> int:
            raise ZeroDivisionError("boom")

    job = Job(graph_of(BRANCHY), "random", seed=2)
    tally = play_block(job, range(3), make_player=Broken)
    assert tally.outcomes == Counter({"error": 3})
    (problem,) = tally.problem_list()
    assert problem.kind == "error" and "ZeroDivisionError: boom" in problem.message
    assert "test_simulate.py" not in problem.message and problem.count == 3
    assert problem.examples[0] == (0, run_seed(2, 0))


def test_an_error_names_the_innermost_frame_of_dtc_itself(tmp_path: Path) -> None:
    """The frame is dtc's by the package's real folder, not by a "/dtc/" in the path: code outside
    the package in a folder named dtc (a clone made by `git clone .../dtc.git`) is not dtc's."""
    folder = tmp_path / "dtc" / "tests"
    folder.mkdir(parents=True)
    (folder / "broken_player.py").write_text(
        "from dtc.runtime.policies import RandomPolicy\n\n"
        "class Broken(RandomPolicy):\n"
        "    def decide(self, question, game):\n"
        "        raise ZeroDivisionError('boom')\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location("broken_player", folder / "broken_player.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tally = play_block(Job(graph_of(BRANCHY), "random", seed=2), range(1), make_player=module.Broken)
    (problem,) = tally.problem_list()
    assert "broken_player.py" not in problem.message
    where = re.search(r"\(([\w/]+\.py):(\d+)\)$", problem.message)
    assert where is not None, problem.message
    source = PACKAGE_DIR / where.group(1)
    assert source.is_file() and int(where.group(2)) <= len(source.read_text(encoding="utf-8").splitlines())


def test_stuck_and_broken_books_are_reported(tmp_path: Path) -> None:
    loop = tmp_path / "loop.txt"
    loop.write_text(book("1 Start. In (D0, S2).", "2 A ring. On (D0, S3).", "3 A ring. On (D0, S2)."),
                    encoding="utf-8")
    code, out, _ = run("simulate", str(loop), "-n", "5", "--seed", "1", "--max-turns", "30", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["outcomes"]["stopped"]["runs"] == 5
    (problem,) = data["problems"]
    assert problem["kind"] == "stopped" and "turn limit 30" in problem["message"]
    assert problem["replay"].startswith("dtc play") and f"--seed {problem['examples'][0]['seed']}" in problem["replay"]
    broken = tmp_path / "broken.txt"
    broken.write_text(book("1 Start. In (D0, S99)."), encoding="utf-8")
    code, out, _ = run("simulate", str(broken), "-n", "4", "--seed", "1")
    assert code == 1 and "cannot continue" in out and "99" in out and "dtc play" in out


# --- the command ---------------------------------------------------------------------------


def test_cli_text_and_json(tmp_path: Path) -> None:
    path = tmp_path / "branchy.txt"
    path.write_text(BRANCHY, encoding="utf-8")
    code, out, _ = run("simulate", str(path), "-n", "30", "--seed", "4", "--policy", "cautious")
    assert code == 0 and "Outcomes (95% Wilson intervals)" in out and "Coverage:" in out
    target = tmp_path / "sim.json"
    code, _, err = run("simulate", str(path), "-n", "30", "--seed", "4", "--format", "json", "-o", str(target),
                       "--progress")
    data = json.loads(target.read_text(encoding="utf-8"))
    assert code == 0 and "wrote" in err
    assert data["format"] == "dtc-simulation" and data["runs"] == 30 and data["seed"] == 4
    assert sum(o["runs"] for o in data["outcomes"].values()) == 30
    assert {e["number"] for e in data["entries"]} == {1, 2, 3, 4, 5, 6}


def test_cli_bad_input_is_one_line(tmp_path: Path) -> None:
    other = tmp_path / "other.txt"
    other.write_text("Rules: chess\n\n" + book("1 Go (D0, S2).", "2 End. THE END"), encoding="utf-8")
    code, _, err = run("simulate", str(other), "-n", "2")
    assert code == 2 and "no rules for 'chess'" in err and len(err.strip().splitlines()) == 1
    code, _, err = run("simulate", str(tmp_path / "missing.txt"))
    assert code == 2 and "Traceback" not in err
    code, _, err = run("simulate", str(other), "--policy", "reckless")
    assert code == 2


def test_sample_dungeon_runs_clean(sample_path: Path) -> None:
    code, out, _ = run("simulate", str(sample_path), "-n", "60", "--seed", "1", "--format", "json")
    data = json.loads(out)
    assert code == 0, data["problems"]
    assert data["outcomes"]["died"]["runs"] > 0  # goblins, frogs and traps do kill
    assert data["outcomes"]["error"]["runs"] == 0


# --- Monte Carlo against the exact chain ---------------------------------------------------


class RollEveryCheck(RandomPolicy):
    """The chain's ``uniform`` policy and ``check`` approach, played: uniform among the ways on,
    each difficulty met by the fewest needs that include rolling the check, and the gear a D3
    also needs always at hand and appropriate."""

    def decide(self, question: Question, game: Engine) -> int:
        if question.kind == PLAN:
            rolled = [n for n, o in enumerate(question.options) if "check" in o.key]
            return min(rolled, key=lambda n: len(question.options[n].key))
        if question.kind == ABILITY:
            return max(range(len(question.options)), key=lambda n: question.options[n].chance or 0)
        if question.kind == GEAR:
            return 0
        if question.kind == GEAR_OK:
            return question.index("yes") or 0
        return super().decide(question, game)


CHECKS_ONLY = book(
    "1 A crossroads. The rope bridge (DEX D2, S2, F3), the iron door (STR D1, S4, F5), the dark stair (D0, S6).",
    "2 Across the chasm. The chest (INT D1, S7, F8), the far door (D0, S9).",
    "3 You slip and land below. The ledge (DEX D1, S9, F8), the tunnel (D0, S5).",
    "4 A forge. The anvil (STR D2, S7, F9).",
    "5 A flooded cellar. THE END",
    "6 A dead library. The shelves (WIS D3, S7, F2).",
    "7 A treasure room. THE END",
    "8 A collapsed hall. THE END",
    "9 A quiet shrine. THE END",
)


def test_monte_carlo_agrees_with_the_exact_chain() -> None:
    graph = graph_of(CHECKS_ONLY)
    pc = random_character(Dice(1))
    pc.abilities.update(STR=16, DEX=11, CON=10, WIS=13, INT=8, CHA=9)
    pc.max_hp = pc.hp = 8
    exact = compute_odds(graph, abilities=pc.abilities, policy="uniform", approach="check").outcomes
    runs = 2000
    tally = play_block(Job(graph, "random", seed=9, character=pc.to_dict()), range(runs), make_player=RollEveryCheck)
    assert tally.outcomes == Counter({"ended": runs})
    for ending in (5, 7, 8, 9):
        k = tally.endings.get(ending, 0)
        low, high = wilson(k, runs, 0.999)
        assert low <= exact[f"ending:{ending}"] <= high, (ending, k / runs, exact[f"ending:{ending}"])
