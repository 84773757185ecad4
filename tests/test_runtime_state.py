"""Play with state: possessions and flags, closed choices, random branches, ending kinds, saves."""

from __future__ import annotations

from collections import Counter

from dtc.compiled.schema import validate
from dtc.runtime.core import MENU, Outcome
from dtc.runtime.state import GameState
from helpers.runtime import KeyPlayer, book, compiled, engine

DOOR = book(
    "1 A hall. The **Stone Door** (D0, S3, if stone key). The **Crypt** (D0, S2).",
    "2 A stone key on a hook. [+stone key, +5 coins, -10 coins] Back up (D0, S1).",
    "3 Behind the door. [-stone key] THE END (victory)",
    "4 A pit. THE END (death)",
)


def test_possessions_open_the_closed_choice() -> None:
    graph = compiled(DOOR)
    player = KeyPlayer(["choice:0", "choice:1", "choice:0", "choice:0"], kinds={MENU})
    game, events = engine(graph, player)
    out = game.run()
    assert out.kind == "ended" and out.ending_kind == "victory"
    assert out.line().startswith("won: THE END (victory) at entry 3")
    first = next(q for q in player.asked if q.kind == MENU)
    assert "closed" in first.options[0].tags and "needs stone key" in first.options[0].detail
    refused = [e for e in events if e["event"] == "refused"]
    assert refused and refused[0]["why"] == "it needs stone key"
    held = [(e["name"], e["amount"], e["held"]) for e in events if e["event"] == "possession"]
    assert held == [("stone key", 1, 1), ("coins", 5, 5), ("coins", -10, 0), ("stone key", -1, 0)]
    short = [e for e in events if e["event"] == "possession" and "short" in e]
    assert short[0]["short"] == 5  # counts never go below zero; the shortfall is logged
    assert game.state.possessions == {}


def test_random_branches_roll_the_stated_die() -> None:
    graph = compiled(book("1 The bridge (roll d6, 1-2 S2, 3-6 S3).", "2 Fall. THE END (death)",
                          "3 Across. THE END (victory)"))
    seen: Counter[str] = Counter()
    for seed in range(40):
        game, events = engine(graph, KeyPlayer(["choice:0"], kinds={MENU}), seed=seed)
        out = game.run()
        rolls = [e for e in events if e["event"] == "roll"]
        assert rolls and rolls[0]["dice"] == "1d6"
        assert (rolls[0]["total"] <= 2) == (out.entry == 2)
        assert out.line().startswith("died: THE END (death)" if out.entry == 2 else "won: THE END (victory)")
        seen[str(out.ending_kind)] += 1
    assert seen["death"] and seen["victory"]


def test_saves_carry_possessions() -> None:
    state = GameState(entry=2, start=1, possessions={"stone key": 1, "coins": 5})
    state.outcome = Outcome("ended", 3, 4, "THE END (victory)", 0, "victory")
    data = state.to_dict()
    assert data["possessions"] == {"coins": 5, "stone key": 1}
    back = GameState.from_dict(data)
    assert back.possessions == state.possessions and back.outcome == state.outcome
    assert "possessions" not in GameState(entry=1, start=1).to_dict()


def test_saved_state_validates() -> None:
    graph = compiled(DOOR)
    game, _ = engine(graph, KeyPlayer(["choice:1", "quit"], kinds={MENU}))
    game.run()
    assert game.state.possessions == {"stone key": 1}
    from dtc.runtime.save import Settings, save_data

    validate(save_data(game, Settings("book.txt", "0" * 64, None, 1, 1000, "script")), "save")


def test_odds_are_exact_for_random_branches() -> None:
    from dtc.odds.analyze import compute_odds

    graph = compiled(book("1 The bridge (roll 2d6, 2-6 S2, 7-12 S3).", "2 Fall. THE END (death)",
                          "3 Across. THE END (victory)"))
    odds = compute_odds(graph)
    ends = {k: v for k, v in odds.outcomes.items() if k.startswith("ending:")}
    assert abs(ends["ending:2"] - 15 / 36) < 1e-9 and abs(ends["ending:3"] - 21 / 36) < 1e-9
    kinds = odds.by_kind()
    assert abs(kinds["death"] - 15 / 36) < 1e-9 and abs(kinds["victory"] - 21 / 36) < 1e-9


def test_rolls_that_cannot_be_rolled_end_the_run_clearly() -> None:
    graph = compiled(book("1 A (roll 500d6, 500-3000 S2).", "2 THE END"))
    game, _ = engine(graph, KeyPlayer(["choice:0"], kinds={MENU}))
    out = game.run()
    assert out.kind == "cannot-continue" and "cannot be rolled" in out.reason


def test_print_edition_puts_state_in_words() -> None:
    from dtc.editions.print import render_markdown

    graph = compiled(book("1 A **Door** (D0, S2, if stone key). A **Bridge** (roll d6, 1-2 S2, 3-6 S3).",
                          "2 In. [+stone key] THE END", "3 Out. THE END"))
    text = render_markdown(graph)  # the choices are read out below the text
    assert "- Door: if you have the stone key, turn to **2**." in text
    assert "- Bridge: roll one die: 1–2, turn to **2**; 3–6, turn to **3**." in text
    raw = render_markdown(graph, notation=True)  # the notation kept in the text is put in words too
    assert "**Door** (If you have the stone key, turn to 2)" in raw
    assert "**Bridge** (Roll one die: 1–2, turn to 2; 3–6, turn to 3)" in raw


def test_web_edition_keeps_possessions_and_gates_choices() -> None:
    from dtc.editions.web import WebEdition

    graph = compiled(book("1 A **Door** (D0, S2, if stone key). A **Bridge** (roll d6, 1-2 S2, 3-6 S3). [+stone key]",
                          "2 In. THE END", "3 Out. THE END"))
    html = WebEdition(graph).render()
    assert 'data-field="has-0"' in html and ">stone key</label>" in html
    assert 'data-needs="{&quot;has&quot;: &quot;stone key&quot;, &quot;count&quot;: 1}"' in html
    assert 'class="card random" data-count="1" data-sides="6" data-branches="[[1, 2, 2], [3, 6, 3]]"' in html
    assert '"changes":{"1":[{"name":"stone key","amount":1}]}' in html  # the graph's own change records
