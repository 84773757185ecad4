"""The parser: notation through the Lark grammar, labels, layout, prose phrases."""

from __future__ import annotations

import pytest

from dtc.compiler.api import compile_text
from dtc.compiler.notation import Failed, Parsed, parse_notation, parse_statblock
from dtc.compiler.parse import parse
from dtc.diagnostics import Span
from helpers import ROOT, lint_text

HEAD = "Book\n\nAdventure Entries\n\n"


def entry(text: str, *more: str) -> list:  # type: ignore[type-arg]
    return parse(HEAD + "\n\n".join((text, *more)) + "\n").entries


@pytest.mark.parametrize(
    ("notation", "ability", "difficulty", "success", "failure"),
    [
        ("(DEX D3, S24, F78)", "DEX", 3, 24, 78),
        ("(D0, S53)", None, 0, 53, None),
        ("(dex d2, s5, f6)", "dex", 2, 5, 6),
        ("( D0 ,S2 )", None, 0, 2, None),
        ("(CHA\u00a0D2,\u00a0S19,\u202fF18)", "CHA", 2, 19, 18),
        ("(D1, S@frog-mouth, F@pit)", None, 1, "@frog-mouth", "@pit"),
        ("(♣ D2, S4, F9)", "♣", 2, 4, 9),
        ("(Strength D1, S 12, F 13)", "Strength", 1, 12, 13),
    ],
)
def test_notation_forms(notation: str, ability: str | None, difficulty: int, success: object, failure: object) -> None:
    (e,) = entry(f"1 A thing {notation}.")
    (c,) = e.choices
    assert (c.ability, c.difficulty, c.success, c.failure, c.error) == (ability, difficulty, success, failure, None)


def test_shape_cache_keeps_real_digits_and_offsets() -> None:
    a = parse_notation("(DEX D3, S24, F78)")
    b = parse_notation("(DEX D1, S1234, F5)")
    assert isinstance(a, Parsed) and isinstance(b, Parsed)
    assert (b.success.value, b.success.start, b.success.end) == ("S1234", 9, 14)
    assert (b.failure and b.failure.value) == "F5"
    bad = parse_notation("(D12 S345 F6)")
    assert isinstance(bad, Failed)
    assert bad.message == "expected ',', found 'S345'" and (bad.start, bad.end) == (5, 9)


def test_labels() -> None:
    (e,) = entry(
        "1 You can go in the Frog Mouth (D0, S2) or search for other entrances (D1, S3, F4). "
        "A **Rusty Lever** (STR D1, S5, F6). Passages lead north (D0, S7), south (D0, S8). "
        "You may attempt to take the eyes (DEX D3, S9, F10). (D0, S11)"
    )
    assert [c.label for c in e.choices] == [
        "Frog Mouth", "search for other entrances", "Rusty Lever", "north", "south", "take the eyes", "Go on to 11",
    ]


def test_entry_heads_need_a_sentence_break_and_a_capital() -> None:
    es = entry("1 The chest holds\n500 coins and a ring (D0, S2).", "2 Done. THE END")
    assert [e.number for e in es] == [1, 2]
    assert "500 coins" in es[0].text
    es = entry("1 A hall.\n2 A stair. THE END")
    assert [e.number for e in es] == [1, 2]


def test_prose_exits_and_returns() -> None:
    (e,) = entry(
        "1 Go to 2. Return to 3! skip to 4, turn to entry 5, read entry 6, go back to 7. "
        "Wait 3 turns. Go to 10 hours later. Read 3 scrolls. Return to your most recent entry."
    )
    assert [p.target for p in e.prose_exits] == [2, 3, 4, 5, 6, 7]
    assert len(e.returns) == 1


@pytest.mark.parametrize(
    ("text", "ending"),
    [("You win. THE END", True), ("Rest now.\n\n**The End**", True), ("Free at last. The end.", True),
     ("You walk to the end of the hall.", False), ("The end of the rope frays (D0, S2).", False),
     ("Endless halls.", False)],
)
def test_endings(text: str, ending: bool) -> None:
    (e,) = entry(f"1 {text}")
    assert e.ending is ending


def test_front_matter_title_and_encounters() -> None:
    doc = parse(
        "Title: The Vault\nAuthor: A. Writer\nRules: death-and-treasure\nStart: 3\n\nIgnored Title Line\n\n"
        "Encounters\n  1-2. 1d6 Rats\n  3. 2 Ghouls fighting 1d4 Rats\n\nRat HP 1 | Bite d2\n\n"
        "Adventure Entries\n\n3 Start here. THE END\n"
    )
    assert doc.title == "The Vault" and doc.meta["author"].value == "A. Writer"
    assert [(e.low, e.high) for e in doc.encounters] == [(1, 2), (3, 3)]
    assert [(g.count, g.name) for g in doc.encounters[1].groups] == [("2", "Ghouls"), ("1d4", "Rats")]
    assert compile_text("Start: 3\n\nT\n\nAdventure Entries\n\n3 X. THE END\n").graph()["start"] == 3


def test_entries_without_a_header() -> None:
    doc = parse("My Book\n\n1 The gate (D0, S2).\n\n2 The hall. THE END\n")
    assert doc.title == "My Book" and [e.number for e in doc.entries] == [1, 2]


def test_stat_blocks() -> None:
    block = parse_statblock("Giant Frog HP 6 | Morale 10 | Bite d8 | Special: swallows you whole")
    assert block is not None
    assert (block.name, block.hp, block.morale, block.attacks, block.special) == (
        "Giant Frog", 6, 10, (("Bite", "d8"),), "swallows you whole")
    assert parse_statblock("Not a block at all") is None
    (e,) = entry("1 It wakes. If you win, go to 2. Stone Guard HP 7 | Morale 12 | Fist d6.")
    assert [c.name for c in e.creatures] == ["Stone Guard"]


def test_creature_mentions() -> None:
    (e,) = entry("1 A group of 4 Goblins dance. Then 2d4 Giant Rats attack! You find 500 coins.")
    assert [(m.count, m.name) for m in e.mentions] == [("4", "Goblins"), ("2d4", "Giant Rats")]
    assert [m.name for m in e.fight_mentions] == ["Giant Rats"]


def test_fast_path_takes_the_common_forms() -> None:
    from dtc.compiler.notation import _fast_path

    for text in ("(DEX D3, S24, F78)", "(D0, S53)", "( dex d2 ,s5, f6 )", "(♣ D2, S4, F9)", "(D1, S@a, F@b)"):
        assert _fast_path().fullmatch(text), text
    assert _fast_path().fullmatch("(D1 S5 F6)") is None


def test_common_stat_blocks_are_read_without_lark() -> None:
    from dtc.compiler.notation import _statblock_fast

    for line in ("Goblin HP 3 | Morale 7 | Sword or Bow d6", "Cultist HP 4 | Morale 6 | Dagger d4 | WIS 13",
                 "Giant Frog HP 6 | Morale 10 | Bite d8 | Special: swallows on a failed defense roll"):
        assert _statblock_fast(line) is not None, line


def test_lint_of_a_clean_book_never_imports_lark() -> None:
    import subprocess
    import sys

    code = ("import sys; from dtc.compiler.api import compile_file; from dtc.lint.engine import lint_compilation; "
            "lint_compilation(compile_file(sys.argv[1])); print('lark' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(ROOT / "adventures" / "the-drowned-chapel.txt")],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


WRAPPED = """Adventure Entries

1 The hall is quiet. Go on (D0, S2).

2 The door bursts open.
3 Goblins rush in! Fight them (STR D1, S3, F4).

3 The goblins flee. THE END

4 You fall. THE END
"""


def test_a_wrapped_line_that_starts_with_a_number_is_prose_in_a_blank_separated_book() -> None:
    doc = parse(WRAPPED)
    assert [e.number for e in doc.entries] == [1, 2, 3, 4]
    assert "3 Goblins rush in!" in doc.entries[1].text
    assert not [d for d in lint_text(WRAPPED) if d.rule == "duplicate-entry"]


def test_a_head_read_as_prose_is_named_where_its_entry_is_missed() -> None:
    """A forgotten blank line swallows an entry into the one before; the findings about the
    missing entry say which line it is on."""
    text = WRAPPED.replace("S3, F4)", "S3, F5)").replace("\n3 The goblins flee. THE END\n", "")
    text += "\n5 A side room. THE END\n"
    doc = parse(text)
    assert doc.prose_heads == [(3, Span(6, 1, 6, 2))]
    found = {d.rule: d.message for d in lint_text(text)}
    hint = "line 6 starts with 3 right after a sentence, so it is read as prose"
    assert hint in found["dangling-reference"] and hint in found["numbering-gap"]
    assert not parse(WRAPPED.replace("\n3 Goblins", "\n\n3 Goblins")).prose_heads


def test_entries_run_together_still_start_after_a_sentence() -> None:
    text = "Adventure Entries\n1 A hall (D0, S2).\n2 A room (D0, S3).\n3 The end. THE END\n"
    assert [e.number for e in parse(text).entries] == [1, 2, 3]


def test_notation_broken_over_lines_keeps_each_part_on_its_own_line() -> None:
    """The scan's fast path stays on one line; notation that wraps is read by the grammar."""
    doc = parse("Adventure Entries\n1 A door (D1,\nS2, F3) here.\n\n2 THE END\n\n3 THE END")
    choice = doc.entries[0].choices[0]
    assert (choice.success, choice.failure) == (2, 3)
    assert choice.span == Span(2, 10, 3, 8)
    assert choice.success_span == Span(3, 1, 3, 3)
    assert choice.failure_span == Span(3, 5, 3, 7)
