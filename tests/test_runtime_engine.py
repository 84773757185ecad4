"""The engine end to end: the sample dungeon, books with lint errors, determinism, architecture."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dtc.runtime.core import MENU, OUTCOMES
from dtc.runtime.dice import Dice
from dtc.runtime.engine import Engine
from dtc.runtime.log import EVENTS, event_line
from dtc.runtime.policies import POLICIES, ScriptPlayer
from dtc.systems import play_rules
from dtc.systems.death_and_treasure.creation import random_character
from helpers.runtime import ROOT, KeyPlayer, book, compiled, engine, hero, kinds, sample_source

RUNTIME = ROOT / "src" / "dtc" / "runtime"
FORBIDDEN = ("dtc.compiler", "dtc.lint")


def test_runtime_never_imports_the_compiler() -> None:
    for path in sorted(RUNTIME.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                assert not name.startswith(FORBIDDEN), f"{path.name} imports {name}"


def test_runtime_modules_load_without_the_compiler() -> None:
    modules = sorted(f"dtc.runtime.{p.stem}" for p in RUNTIME.glob("*.py") if p.stem != "__init__")
    code = (f"import sys, importlib\nfor m in {modules!r}: importlib.import_module(m)\n"
            f"bad = [m for m in sys.modules if m.startswith({FORBIDDEN!r})]\nprint(bad)\nassert not bad, bad\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def sample() -> dict[str, Any]:
    return compiled(sample_source(), "sample-dungeon.txt")


def play(graph: dict[str, Any], player: Any, seed: int, **kw: Any) -> tuple[Any, list[dict[str, Any]]]:
    dice = Dice(seed)
    events: list[dict[str, Any]] = []
    kw.setdefault("rules", play_rules(graph.get("rules")))
    out = Engine(graph, random_character(dice), player, dice=dice, sinks=[events.append], **kw).run()
    return out, events


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_automatic_runs_of_the_sample_dungeon(sample: dict[str, Any], policy: str) -> None:
    seen = set()
    for seed in range(25):
        out, events = play(sample, POLICIES[policy](), seed)
        assert out.kind in OUTCOMES and out.kind != "cannot-continue", out.line()
        assert [e["seq"] for e in events] == list(range(len(events)))
        assert events[-1]["event"] == "end" and events[-1]["outcome"] == out.kind
        assert {e["event"] for e in events} <= set(EVENTS)  # every event kind is documented
        seen.add(out.kind)
    assert "died" in seen  # it is a deadly dungeon


def test_a_scripted_route_through_the_sample(sample: dict[str, Any]) -> None:
    # In, across the grid by spending a turn, north, up to the statue room... and back out.
    script = ["1", "1", "2", "1", "3", "1", "leave"]
    for seed in range(30):
        player = ScriptPlayer(script, None)
        out, events = play(sample, player, seed, max_turns=200)
        assert out.kind in ("escaped", "died", "stopped", "lost")
        entries = [e["number"] for e in kinds(events, "entry")]
        assert entries[0] == 1
        if out.kind == "stopped":
            assert "ran out of choices" in out.reason or "not a choice" in out.reason


def test_same_seed_same_choices_same_events(sample: dict[str, Any]) -> None:
    for seed in (1, 2, 3):
        a = "".join(event_line(e) for e in play(sample, POLICIES["random"](), seed)[1])
        b = "".join(event_line(e) for e in play(sample, POLICIES["random"](), seed)[1])
        assert a == b


def test_return_to_your_most_recent_entry_uses_the_path(sample: dict[str, Any]) -> None:
    entry24 = next(e for e in sample["entries"] if e["number"] == 24)
    assert sorted(x["target"] for x in entry24["exits"]) == [17, 20]
    graph = compiled(book("1 Doors: left (D0, S2) or right (D0, S3).", "2 A stuck door (D1, S4, F5).",
                          "3 A locked door (D1, S4, F5).", "4 Through. THE END",
                          "5 It will not open. Return to your most recent entry."))
    for via in ("choice:0", "choice:1"):
        player = KeyPlayer([via, "choice:0", "plan:gear", "none", "quit"], kinds={MENU, "plan", "gear"})
        game, _ = engine(graph, player)
        game.run()
        menus = [q for q in player.asked if q.kind == MENU]
        returns = [o.key for o in menus[-1].options if o.key.startswith("return")]
        assert returns == [f"return:{2 if via == 'choice:0' else 3}"]


def test_conditional_exits_are_marked(sample: dict[str, Any]) -> None:
    player = KeyPlayer(["quit"], kinds={MENU})
    game, _ = engine(sample, player, start=16)
    game.run()
    skip = next(o for o in player.asked[0].options if o.key.startswith("exit"))
    assert "conditional" in skip.tags and skip.detail.startswith("only if: If you previously")


def test_from_starts_at_any_entry(sample: dict[str, Any]) -> None:
    player = KeyPlayer(["quit"], kinds={MENU})
    game, events = engine(sample, player, start=25)
    out = game.run()
    assert kinds(events, "entry")[0]["number"] == 25 and out.entry == 25
    assert game.state.start == 1


def test_dead_end_offers_the_way_back() -> None:
    graph = compiled(book("1 In (D0, S2).", "2 You find a stone key."))
    player = KeyPlayer(["choice:0", "back:1", "quit"], kinds={MENU})
    game, _ = engine(graph, player)
    assert game.run().entry == 1
    menus = [q for q in player.asked if q.kind == MENU]
    assert "dead-end" in menus[1].options[0].tags


@pytest.mark.parametrize("entries,key,message", [
    (("1 A door (D0, S9).",), "choice:0", "entry 1: the success exit leads to 9, which is not an entry"),
    (("1 A door (D1 S2 F3).", "2 X. THE END", "3 Y. THE END"), "choice:0",
     "entry 1: the choice 'door' (D1 S2 F3) is malformed (expected ','"),
    (("1 A wall (STR D5, S2, F3).", "2 X. THE END", "3 Y. THE END"), "choice:0",
     "entry 1: 'wall' asks for D5, which Death & Treasure does not have"),
    (("1 Go to 7.",), "exit:0", "entry 1: the prose exit leads to 7, which is not an entry"),
    (("1 A door (D0, S@vault).",), "choice:0", "leads to @vault, which is not an entry"),
])
def test_broken_books_end_with_cannot_continue(entries: tuple[str, ...], key: str, message: str) -> None:
    graph = compiled(book(*entries))
    game, _ = engine(graph, KeyPlayer([key], kinds={MENU}))
    out = game.run()
    assert out.kind == "cannot-continue"
    assert message in out.line() and out.line().startswith("cannot continue: ")


def test_missing_failure_entry_ends_clearly() -> None:
    graph = compiled(book("1 A leap (DEX D3, S2).", "2 Over. THE END"))
    for seed in range(10):
        game, _ = engine(graph, KeyPlayer(["choice:0"], kinds={MENU}), pc=hero(DEX=3), seed=seed)
        out = game.run()
        if out.kind == "cannot-continue":
            assert "entry 1: 'leap' failed and the book gives no failure entry" in out.line()
            return
    pytest.fail("DEX 3 never failed a D3 check")


def test_empty_book_cannot_continue() -> None:
    graph = compiled("Just a title\n")
    game, _ = engine(graph, KeyPlayer())
    assert game.run().line() == "cannot continue: the adventure has no entries"


ADVENTURES = sorted((ROOT / "adventures").glob("*.txt"))


@pytest.mark.skipif(not ADVENTURES, reason="no adventures/*.txt in this checkout")
@pytest.mark.parametrize("path", ADVENTURES, ids=[p.name for p in ADVENTURES])
def test_every_bundled_adventure_plays(path: Path) -> None:
    graph = compiled(path.read_text(encoding="utf-8"), str(path))
    for policy in ("cautious", "random"):
        for seed in range(3):
            out, events = play(graph, POLICIES[policy](), seed, max_turns=300)
            assert out.kind in OUTCOMES
            json.dumps(events)


def test_an_entrys_stat_blocks_are_one_fight(tmp_path: Path) -> None:
    """Two stat blocks in one entry (two smugglers, a line each) are fought together once a
    reading, not once a block: every arrival at the entry brings one fight event."""
    src = tmp_path / "dice.txt"
    src.write_text("Title: Dice\nRules: death-and-treasure\nStart: 1\n\n"
                   "1 Two smugglers dice at a barrel.\nSmuggler 1 HP 4 | Morale 7 | Cutlass d6\n"
                   "Smuggler 2 HP 3 | Morale 6 | Cutlass d6\nFight them; if you win, turn to 2.\n\n"
                   "2 The barrel holds only dice. THE END (victory)\n", encoding="utf-8")
    for seed in range(1, 9):
        log = tmp_path / f"run{seed}.jsonl"
        subprocess.run([sys.executable, "-m", "dtc", "play", str(src), "--auto", "bold", "--seed", str(seed),
                        "--log", str(log), "--no-save"], capture_output=True, check=False)
        events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        arrivals = sum(1 for e in events if e["event"] == "entry" and e["number"] == 1)
        assert sum(1 for e in events if e["event"] == "fight") == arrivals, seed
