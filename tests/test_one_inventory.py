"""One inventory: the book's possessions and the adventurer's items are what a condition reads,
what a loss takes from and what *adjust* changes (docs/format.md, "How names match").

Before, the kit's "Rope (50 ft.)" did not open ``if rope``, and after ``coins +50`` the status
line showed "treasure 50" beside "[closed: needs 10 coins]".
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from dtc.runtime.character import Character
from dtc.runtime.core import MENU, Question
from dtc.runtime.dice import Dice
from dtc.runtime.engine import Engine
from dtc.runtime.equipment import Item, standard_gear
from dtc.runtime.inventory import is_coins, name_key, same
from dtc.runtime.terminal import Terminal
from dtc.systems import play_rules
from helpers.runtime import KeyPlayer, compiled, engine, kinds

HEAD = "Title: Inventory\nRules: death-and-treasure\nStart: 1\n\nAdventure Entries\n\n"


def book(*entries: str, rules: str = "death-and-treasure") -> dict[str, Any]:
    return compiled(HEAD.replace("death-and-treasure", rules) + "\n\n".join(entries) + "\n")


def bare(*items: Item) -> Character:
    """An adventurer with a lit lantern and nothing else but ``items`` (no rope, no coins)."""
    return Character("Bare", {a: 10 for a in ("STR", "DEX", "CON", "WIS", "INT", "CHA")}, 8, 8,
                     [Item("Lantern", "gear", standard=True), Item("Lantern Oil", "gear", 3, standard=True), *items])


def kitted() -> Character:
    return bare(*standard_gear(), Item("Sack (large)", "gear"))


def first_menu(graph: dict[str, Any], pc: Character, texts: list[str] | None = None,
               keys: list[str] | None = None) -> tuple[Question, Engine, list[dict[str, Any]]]:
    """Play up to the first menu that is not answered by ``keys``; that menu and the game."""
    player = KeyPlayer(keys or [], kinds={MENU})
    player.texts = list(texts or [])
    game, events = engine(graph, player, pc=pc)
    game.run()
    asked = [q for q in player.asked if q.kind == MENU]
    return asked[-1], game, events


def option(question: Question, label: str) -> Any:
    """The menu's option of the choice whose label is ``label`` (bold in the books below)."""
    return next(o for o in question.options if o.label == label and o.key.startswith("choice:"))


# --- how names match ---------------------------------------------------------------------------


@pytest.mark.parametrize("item,name", [
    ("Rope (50 ft.)", "rope"), ("rope", "rope"), ("ROPE", "rope"), ("Sack (small)", "sack"),
    ("Torch", "torches"), ("Torches", "torch"), ("Rations", "ration"), ("Ration", "rations"),
    ("Box", "boxes"), ("Berries", "berry"), ("Glass", "glasses"), ("Axe", "axes"),
    ("King\u2019s  Seal", "king's seal"), ("Iron Spikes", "iron spike"), ("coins", "coin"),
])
def test_an_item_matches_the_name(item: str, name: str) -> None:
    assert same(item, name)


@pytest.mark.parametrize("item,name", [
    ("Iron Spikes", "spikes"), ("Lantern Oil", "lantern"), ("Lantern Oil", "oil"), ("Rope (50 ft.)", "50 ft"),
    ("Stone key", "key"), ("Grappling Hook", "rope"), ("gold coins", "coins"),
])
def test_an_item_does_not_match_another_name(item: str, name: str) -> None:
    assert not same(item, name)


def test_name_keys() -> None:
    assert name_key("Rope (50 ft.)") == "rope"
    assert name_key("  Sack (large) ") == "sack"
    assert name_key("King\u2019s  SEAL") == "king's seal"
    assert is_coins("coins") and is_coins("Coin") and not is_coins("gold coins")


# --- conditions read the items ------------------------------------------------------------------


def test_the_kits_rope_opens_if_rope() -> None:
    graph = book("1 **A shaft** (D0, S2, if rope). Or **walk away** (D0, S3).", "2 Down. THE END (victory)",
                 "3 Away. THE END")
    q, _, _ = first_menu(graph, kitted())
    assert "closed" not in option(q, "A shaft").tags
    out = engine(graph, KeyPlayer(["choice:0"], kinds={MENU}), pc=kitted())[0].run()
    assert (out.entry, out.ending_kind) == (2, "victory")


def test_without_a_rope_the_shaft_is_closed_and_a_found_rope_opens_it() -> None:
    graph = book("1 **A shaft** (D0, S2, if rope). **A hut** (D0, S4).", "2 Down. THE END (victory)",
                 "3 Away. THE END", "4 A coil of rope [+rope]. Back (D0, S1).")
    q, _, _ = first_menu(graph, bare())
    assert option(q, "A shaft").detail == "closed: needs rope"
    q, game, _ = first_menu(graph, bare(), keys=["choice:1", "choice:0"])
    assert "closed" not in option(q, "A shaft").tags and game.held("rope") == 1


def test_a_plural_name_counts_the_items_of_its_singular() -> None:
    """A Maze Rats adventurer's Torch x3 is 3 torches."""
    graph = book("1 **Three sconces** (D0, S2, if 3 torches). **Four** (D0, S2, if 4 torches). "
                 "**A torch** (D0, S2, if torch).", "2 Lit. THE END", rules="maze-rats")
    pc = play_rules("maze-rats").new_character(Dice(3))
    q, game, _ = first_menu(graph, pc)
    assert game.held("torches") == game.held("torch") == 3
    assert "closed" not in option(q, "Three sconces").tags
    assert "closed" in option(q, "Four").tags
    assert "closed" not in option(q, "A torch").tags


def test_a_possession_and_an_item_of_one_name_add_up() -> None:
    graph = book("1 A spare rope [+rope]. **Tie both** (D0, S2, if 2 rope).", "2 Across. THE END")
    q, game, _ = first_menu(graph, kitted())
    assert game.held("rope") == 2 and "closed" not in option(q, "Tie both").tags
    q, game, _ = first_menu(graph, bare())
    assert game.held("rope") == 1 and "closed" in option(q, "Tie both").tags


# --- losses take from the same place ------------------------------------------------------------


def test_a_loss_takes_the_kits_rope() -> None:
    graph = book("1 The rope snaps and falls. [-rope] **Climb** (D0, S2, if rope). **Walk** (D0, S3).",
                 "2 Up. THE END", "3 Off. THE END")
    q, game, events = first_menu(graph, kitted())
    assert "closed" in option(q, "Climb").tags
    assert game.held("rope") == 0 and game.pc.holding("rope") == 0
    [lost] = kinds(events, "possession")
    assert (lost["name"], lost["amount"], lost["held"]) == ("rope", -1, 0) and "short" not in lost
    kit_rope = next(i for i in game.pc.items if i.name == "Rope (50 ft.)")
    assert kit_rope.quantity == 0  # standard kit used up stays listed, at 0


def test_a_loss_takes_the_books_possession_first() -> None:
    graph = book("1 A rope [+rope]. Go on (D0, S2).", "2 It snaps. [-rope] **Climb** (D0, S3, if rope).",
                 "3 Up. THE END")
    q, game, _ = first_menu(graph, kitted(), keys=["choice:0"])
    assert game.state.possessions == {} and game.pc.holding("rope") == 1
    assert "closed" not in option(q, "Climb").tags


def test_a_loss_short_of_everything_records_the_shortfall() -> None:
    graph = book("1 The toll [+5 coins, -10 coins]. On (D0, S2).", "2 End. THE END")
    _, game, events = first_menu(graph, bare())
    lost = kinds(events, "possession")[-1]
    assert lost["held"] == 0 and lost["short"] == 5 and game.held("coins") == 0


# --- coins are the treasure ---------------------------------------------------------------------


def test_coins_of_the_notation_are_treasure() -> None:
    graph = book("1 The harbour master pays you. [+20 coins] **Bribe** (D0, S2, if 10 coins). **Walk** (D0, S3).",
                 "2 Paid. [-10 coins] THE END (victory)", "3 Home. THE END")
    q, game, _ = first_menu(graph, kitted())
    assert game.pc.treasure_value == 20 and game.state.possessions == {}
    assert "closed" not in option(q, "Bribe").tags
    assert "treasure 20" in Terminal().status(game)
    out = engine(graph, KeyPlayer(["choice:0"], kinds={MENU}), pc=kitted())[0].run()
    assert out.treasure == 10


def test_coins_found_in_the_prose_count_for_a_condition() -> None:
    graph = book("1 A chest (D0, S2).", "2 You find 200 coins. **A gate** (D0, S3, if 50 coins).", "3 Through. THE END")
    q, game, _ = first_menu(graph, kitted(), keys=["choice:0"])
    assert game.pc.treasure_value == 200 and "closed" not in option(q, "A gate").tags


def test_a_find_the_notation_also_gives_is_given_once() -> None:
    graph = book("1 In the drawer you find 20 coins. [+20 coins] On (D0, S2).", "2 End. THE END")
    _, game, _ = first_menu(graph, kitted())
    assert game.held("coins") == 20 and game.pc.treasure_value == 20


# --- adjust changes the same inventory ----------------------------------------------------------


def adjusted(graph: dict[str, Any], pc: Character, *rulings: str) -> tuple[Question, Engine, list[dict[str, Any]]]:
    """Adjust once per ruling at the first entry, then the menu after."""
    return first_menu(graph, pc, texts=list(rulings), keys=["adjust"] * len(rulings))


def test_adjusting_coins_opens_a_coin_gate_and_the_status_agrees() -> None:
    graph = book("1 **A toll gate** (D0, S2, if 10 coins).", "2 Through. THE END")
    q, game, _ = adjusted(graph, kitted(), "coins +50")
    assert "closed" not in option(q, "A toll gate").tags
    status = Terminal().status(game)
    assert "treasure 50" in status and "closed" not in status
    q, game, events = adjusted(graph, kitted(), "coins +50", "coins -45")
    assert game.held("coins") == 5 and "closed" in option(q, "A toll gate").tags
    q, game, events = adjusted(graph, kitted(), "coins -5")
    assert kinds(events, "refused")[-1]["why"] == "you do not carry 5 coins"


def test_adjusting_items_opens_and_closes_gates() -> None:
    graph = book("1 **A shaft** (D0, S2, if rope). **Sconces** (D0, S2, if 3 torches). "
                 "**A door** (D0, S2, if stone key).", "2 On. THE END")
    q, game, _ = adjusted(graph, bare(), "item rope", "item 3 torches", "item Stone Key")
    assert all("closed" not in option(q, label).tags for label in ("A shaft", "Sconces", "A door"))
    assert game.held("torches") == 3
    q, game, _ = adjusted(graph, kitted(), "drop rope")
    assert "closed" in option(q, "A shaft").tags and game.pc.holding("rope") == 0


def test_drop_takes_a_possession_the_book_gave() -> None:
    graph = book("1 A key [+stone key]. **A door** (D0, S2, if stone key).", "2 On. THE END")
    q, game, _ = adjusted(graph, bare(), "drop stone key")
    assert game.state.possessions == {} and "closed" in option(q, "A door").tags


def test_the_inventory_lists_the_books_possessions_too() -> None:
    graph = book("1 A key [+stone key, +goblins-dead]. On (D0, S2).", "2 End. THE END")
    _, game, _ = first_menu(graph, kitted())
    lines = game.inventory_lines()
    assert "Rope (50 ft.) (standard)" in lines and lines[-1] == "Also held: goblins-dead, stone key"


def test_the_adventurers_items_round_trip_through_a_save() -> None:
    from dtc.runtime.state import GameState

    graph = book("1 The rope snaps. [-rope, +20 coins, +mark] On (D0, S2).", "2 End. THE END")
    _, game, _ = first_menu(graph, kitted())
    pc = Character.from_dict(game.pc.to_dict())
    state = GameState.from_dict(game.state.to_dict())
    assert (pc.holding("rope"), pc.holding("coins"), state.possessions) == (0, 20, {"mark": 1})
    assert pc.treasure_value == 20 and pc.load == kitted().load + Fraction(20, 1000)


# --- the kit: what a fresh adventurer holds of the names a book reads ----------------------------

RULESETS = ("death-and-treasure", "maze-rats", "zilch", "death-and-treasure + dungeon-rules")


def test_the_kit_holdings_of_the_bundled_books() -> None:
    from dtc.compiler.api import compile_file
    from dtc.runtime.inventory import kit_holdings, read_names

    root = Path(__file__).resolve().parent.parent / "adventures"
    found: dict[str, dict[str, int]] = {}
    for path in sorted(root.glob("*.txt")):
        graph = compile_file(str(path)).graph()
        found[path.stem] = kit_holdings(read_names(graph), play_rules(graph.get("rules")).kit())
    assert found["the-tidewater-vault"] == {"rope": 1}  # 'if rope': the kit's Rope (50 ft.)
    assert found["the-broken-lighthouse"] == {"lantern": 1}  # 'if lantern'
    assert {k: v for k, v in found.items() if v} == {"the-tidewater-vault": {"rope": 1},
                                                     "the-broken-lighthouse": {"lantern": 1},
                                                     "the-salt-courier": {"rope": 1}}  # '[-rope?]', 'if rope'


def test_read_names_are_the_names_conditions_test_and_losses_take() -> None:
    from dtc.runtime.inventory import read_names

    graph: Any = book("1 A gift [+gift, +3 torches]. **Go** (D0, S2, if rope and not 10 coins or torch).",
                      "2 A toll [-2 rations]. THE END")
    assert read_names(graph) == {"rope", "coins", "torch", "rations"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_fresh_adventurer_holds_the_kit(ruleset: str) -> None:
    """What kit_holdings says a reader starts with (what dtc odds and dtc lint would start from),
    every fresh adventurer of the rules holds in play; for Death & Treasure's kit names, exactly."""
    from dtc.runtime.inventory import kit_holdings

    rules = play_rules(ruleset)
    names = ["rope", "ropes", "lantern", "rations", "ration", "torch", "torches", "lantern oil", "knife", "waterskin",
             "medicine", "iron spikes", "backpack", "coins", "stone key"]
    kit = kit_holdings(names, rules.kit())
    assert kit.get("rope") == 1 and kit.get("rations") in (3, 14) and "coins" not in kit and "stone key" not in kit
    for seed in range(40):
        dice = Dice(seed)
        pc = rules.new_character(dice)
        rules.finish_character(pc, dice)
        for name, count in kit.items():
            assert pc.holding(name) >= count, (seed, name)
            if ruleset.startswith("death-and-treasure"):
                assert pc.holding(name) == count, (seed, name)  # the shop never sells what the kit holds
