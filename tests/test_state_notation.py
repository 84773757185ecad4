"""State notation: effects, conditions, random branches, ending kinds (docs/format.md, "State")."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtc.compiler.notation import All, AnyOf, Failed, Has, Not, parse_effects, parse_notation, parse_state_notation
from dtc.compiler.parse import parse

HEAD = "Test Book\n\nAdventure Entries\n\n"


def doc(*entries: str):  # type: ignore[no-untyped-def]
    return parse(HEAD + "\n\n".join(entries) + "\n")


@pytest.mark.parametrize(("text", "changes"), [
    ("[+stone key]", [("stone key", 1)]),
    ("[+3 torches]", [("torches", 3)]),
    ("[-stone key]", [("stone key", -1)]),
    ("[+50 coins]", [("coins", 50)]),
    ("[-10 coins]", [("coins", -10)]),
    ("[+goblins-dead]", [("goblins-dead", 1)]),
    ("[+stone key, +50 coins]", [("stone key", 1), ("coins", 50)]),
    ("[ + Stone  KEY ,-2 King’s Rings ]", [("stone key", 1), ("king's rings", -2)]),
])
def test_effects_as_written(text: str, changes: list[tuple[str, int]]) -> None:
    parsed = parse_effects(text)
    assert not isinstance(parsed, Failed)
    assert [(c.name, c.amount) for c in parsed] == changes
    entry = doc(f"1 A room. {text} Then THE END").entries[0]
    assert [(c.name, c.amount) for c in entry.changes] == changes


@pytest.mark.parametrize(("notation", "condition"), [
    ("(D0, S21, if stone key)", Has("stone key")),
    ("(D0, S17, if goblins-dead)", Has("goblins-dead")),
    ("(D0, S16, if not goblins-dead)", Not(Has("goblins-dead"))),
    ("(D0, S40, if 10 coins)", Has("coins", 10)),
    ("(DEX D2, S14, F30, if rope)", Has("rope")),
    ("(D0, S9, if stone key and not alarm)", All((Has("stone key"), Not(Has("alarm"))))),
    ("(D0, S9, IF a or b and c)", AnyOf((Has("a"), All((Has("b"), Has("c")))))),
    ("(D0, S9, if a and b and c or d or e)", AnyOf((All((Has("a"), Has("b"), Has("c"))), Has("d"), Has("e")))),
])
def test_conditions_as_written(notation: str, condition: object) -> None:
    parsed = parse_notation(notation)
    assert not isinstance(parsed, Failed)
    assert parsed.condition == condition
    assert parsed.condition_field is not None and notation[parsed.condition_field.start:].lower().startswith("if")
    choice = doc(f"1 A door {notation}.", "2 x. THE END").entries[0].choices[0]
    assert choice.error is None and choice.condition == condition
    assert choice.condition_span is not None


def test_random_branches_as_written() -> None:
    entry = doc("1 Rope Bridge (roll d6, 1-2 S5, 3-6 S9). Dice (roll 2d6, 2-6 S40, 7-12 S41).").entries[0]
    first, second = entry.choices
    assert first.roll is not None and second.roll is not None
    assert (first.roll.count, first.roll.sides) == (1, 6)
    assert [(b.low, b.high, b.target) for b in first.roll.branches] == [(1, 2, 5), (3, 6, 9)]
    assert (second.roll.count, second.roll.sides) == (2, 6)
    assert [(b.low, b.high, b.target) for b in second.roll.branches] == [(2, 6, 40), (7, 12, 41)]
    assert first.label == "Rope Bridge"


def test_ending_kinds() -> None:
    d = doc("1 Plain. THE END", "2 Dead. THE END (death)", "3 Won. THE END (Victory).", "4 Also. The end (death).")
    assert [(e.ending, e.ending_kind) for e in d.entries] == [
        (True, None), (True, "death"), (True, "victory"), (True, "death")]


def test_prose_exits_turning_to() -> None:
    e = doc("1 You escape by turning to 24, or turning to 25.").entries[0]
    assert [x.target for x in e.prose_exits] == [24, 25]


def test_numbered_stat_blocks_inside_entries_are_read() -> None:
    e = doc("1 Two guards.\nGiak 1 HP 10 | CS 13\nGiak 2 HP 9 | CS 12\nIf you win, go to 2.", "2 THE END").entries[0]
    assert [(c.name, c.hp, c.stats) for c in e.creatures] == [("Giak 1", 10, {"CS": 13}), ("Giak 2", 9, {"CS": 12})]


def test_compiled_graph_carries_state() -> None:
    from dtc.compiler.api import compile_text

    src = HEAD + "1 A. [+key, +5 coins] Door (D0, S2, if key and 5 coins). Or (roll d6, 1-3 S2, 4-6 S3).\n\n" \
        "2 Dead. THE END (death)\n\n3 Won. THE END (victory)\n"
    graph = compile_text(src, "b.txt").graph()
    assert graph["format_version"] == 2
    assert graph["possessions"] == ["coins", "key"]
    first = graph["entries"][0]
    assert first["changes"] == [{"name": "key", "amount": 1}, {"name": "coins", "amount": 5}]
    assert first["choices"][0]["condition"] == {"all": [{"has": "key", "count": 1}, {"has": "coins", "count": 5}]}
    assert first["choices"][1]["roll"]["branches"] == [{"low": 1, "high": 3, "target": 2},
                                                       {"low": 4, "high": 6, "target": 3}]
    assert [x["kind"] for x in first["exits"]] == ["success", "random", "random"]
    assert graph["entries"][1]["ending_kind"] == "death"
    assert "ending_kind" not in graph["entries"][0]


def test_version_1_graphs_still_load(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from dtc.compiled.schema import load_json
    from dtc.compiler.api import compile_text

    graph = compile_text(HEAD + "1 A (D0, S2).\n\n2 B. THE END\n", "b.txt").graph()
    graph["format_version"] = 1
    path = tmp_path / "old.json"
    path.write_text(json.dumps(graph), encoding="utf-8")
    assert load_json(path, "adventure")["format_version"] == 1


_words = st.sampled_from(["key", "stone key", "coins", "goblins-dead", "King's seal", "rope 2"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["+", "-"]), st.sampled_from(["", "1 ", "10 "]), _words),
                min_size=1, max_size=4))
def test_effects_round_trip(parts: list[tuple[str, str, str]]) -> None:
    text = "[" + ", ".join(f"{s}{n}{w}" for s, n, w in parts) + "]"
    parsed = parse_effects(text)
    assert not isinstance(parsed, Failed)
    for (sign, count, word), change in zip(parts, parsed, strict=True):
        amount = int(count or 1)
        assert change.amount == (amount if sign == "+" else -amount)
        assert change.name == word.lower()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="()DSFdsf0123456789 ,ifnotandrolk-+[]", max_size=40))
def test_state_notation_parser_total(text: str) -> None:
    parse_state_notation(text)
    parse_effects(text)


def test_dice_in_prose_parentheses_stay_prose() -> None:
    e = doc("1 Take damage (roll d6). Or (roll d6 for damage). (Roll 2d6, then add 1.) Or (roll 2d6, 2-6 S2, 7-12 S2).",
            "2 THE END").entries[0]
    assert [c.text for c in e.choices] == ["(roll 2d6, 2-6 S2, 7-12 S2)"]
