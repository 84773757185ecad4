"""Tests of the helpers every runtime test plays through (``tests/helpers/runtime.py``)."""

from __future__ import annotations

import json

from helpers.runtime import KeyPlayer, book, compiled, engine

# --- tests of the helpers -------------------------------------------------------------------


def test_compiled_round_trip_is_plain_json() -> None:
    graph = compiled(book("1 A door (D0, S2).", "2 Gold! THE END"))
    assert graph["format"] == "dtc-adventure" and graph["start"] == 1
    assert json.loads(json.dumps(graph)) == graph


def test_key_player_follows_keys_then_policy() -> None:
    graph = compiled(book("1 A door (D0, S2).", "2 Gold! THE END"))
    player = KeyPlayer(["choice:0"])
    game, _ = engine(graph, player)
    assert game.run().kind == "ended"
    assert [q.kind for q in player.asked] == ["menu"]
