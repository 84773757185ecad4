"""Reading an ending spends no turn: no encounter check, no encounter, no death on arrival.

The rules roll for a wandering encounter for each turn spent exploring ("each time you enter a
new room or spend a turn in the same room"); an ending is not a room to explore but the end of
the run, so the move into it costs no turn (docs/play.md, "Turns"). Before, 127 of 10,000
simulated runs of a book died walking into its victory ending.
"""

from __future__ import annotations

from typing import Any

import pytest

from dtc.runtime.ruleset import Rules
from dtc.simulate.runner import Job, play_one
from dtc.systems import play_rules
from helpers.runtime import KeyPlayer, compiled, engine, kinds

RULESETS = ("death-and-treasure", "maze-rats", "zilch", "death-and-treasure + dungeon-rules")


def last_door(rules: str) -> str:
    """A book whose only way on is into a victory ending, with deadly wandering creatures."""
    return (f"Title: The Last Door\nRules: {rules}\nStart: 1\n\n"
            "Random Encounters:\n  1-6. 3 Dread Wights\n\n"
            "Dread Wight HP 30 | Morale 12 | Claw 3d8\n\n"
            "Adventure Entries\n\n"
            "1 A door, and beyond it the sunlight. Step Out (D0, S2).\n\n"
            "2 You walk out into the sun, alive. THE END (victory)\n")


def always_met(rules: Rules) -> Rules:
    """The rules with every encounter check met: any check on arrival would bring the wights."""
    rules.encounter_happens = lambda game: True  # type: ignore[method-assign]
    return rules


@pytest.mark.parametrize("ruleset", RULESETS)
def test_simulated_runs_never_meet_anything_walking_into_the_ending(ruleset: str) -> None:
    graph: Any = compiled(last_door(ruleset))
    rules = always_met(play_rules(ruleset))
    job = Job(graph, "random", 20260101, 50)
    runs = [play_one(job, rules, i) for i in range(1000)]
    at_end = [r for r in runs if r.entry == 2]
    assert at_end, "no run reached the ending"
    assert all(r.outcome == "ended" and r.ending_kind == "victory" for r in at_end), {
        (r.outcome, r.reason) for r in at_end if r.outcome != "ended"}
    assert not [r for r in runs if r.outcome == "died" and r.entry == 2]
    assert not [r for r in runs if r.outcome == "error"], [r.reason for r in runs if r.outcome == "error"]


def test_death_and_treasure_simulation_walks_out_every_time() -> None:
    """With the rules' own 1-in-6 (no check forced), no run of many dies on the threshold: with
    only the way out to take, every run is a victory."""
    graph: Any = compiled(last_door("death-and-treasure"))
    rules = play_rules("death-and-treasure")
    job = Job(graph, "random", 7, 50)
    outcomes = {(r.outcome, r.entry, r.ending_kind) for r in (play_one(job, rules, i) for i in range(3000))}
    assert outcomes == {("ended", 2, "victory")}


def test_the_move_into_a_room_spends_a_turn_and_checks_the_move_into_an_ending_does_not() -> None:
    graph = compiled("Title: Two Steps\nRules: death-and-treasure\nStart: 1\n\n"
                     "Random Encounters:\n  1. 1 Moth\n\nMoth HP 1 | Morale 2 | Wing 0\n\n"
                     "Adventure Entries\n\n"
                     "1 A corridor (D0, S2).\n\n2 A room with a stair up (D0, S3).\n\n3 Daylight. THE END (victory)\n")
    game, events = engine(graph, KeyPlayer(["choice:0", "choice:0"], kinds={"menu"}))
    game.rules = always_met(game.rules)
    out = game.run()
    assert out.kind == "ended" and out.entry == 3 and out.ending_kind == "victory"
    moves = [(t["entry"], t["why"]) for t in kinds(events, "turn") if t["why"] != "combat"]
    assert moves == [(2, "move")]  # into the room; not into the ending
    assert [c["entry"] for c in kinds(events, "encounter")] == [2]  # met in the room (and fought there)
    arrived = next(e["seq"] for e in events if e["event"] == "move" and e["to"] == 3)
    after: list[dict[str, Any]] = [e for e in events if e["seq"] > arrived]
    assert [e["event"] for e in after] == ["entry", "end"]
    assert out.turn == game.state.turn == len(kinds(events, "turn"))


def test_an_action_before_the_ending_still_spends_its_own_turn() -> None:
    """Spending a turn to act (D1 by the turn) checks for an encounter where the action happens;
    only the reading of the ending is free."""
    graph = compiled("Title: One Door\nRules: death-and-treasure\nStart: 1\n\n"
                     "Random Encounters:\n  1. 1 Moth\n\nMoth HP 1 | Morale 2 | Wing 0\n\n"
                     "Adventure Entries\n\n"
                     "1 A stuck door (D1, S2, F2).\n\n2 Out. THE END (victory)\n")
    game, events = engine(graph, KeyPlayer(["choice:0", "plan:turn"], kinds={"menu", "plan"}))
    game.rules = always_met(game.rules)
    game.run()
    assert [(t["entry"], t["why"]) for t in kinds(events, "turn") if t["why"] != "combat"] == [(1, "action")]
    assert [e["entry"] for e in kinds(events, "encounter")] == [1]
