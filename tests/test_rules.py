"""One harness test (or a few) per lint rule, plus the registry's promises."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dtc.lint.rules import RULES, find_rule
from helpers import ROOT, assert_diagnostics

HEAD = "Test Book\n\nAdventure Entries\n\n"


def book(*entries: str, head: str = HEAD) -> str:
    return head + "\n\n".join(entries) + "\n"


CLEAN = book(
    "1 A gate. Walk in (D0, S2).",
    "2 A hall. A **Rope Bridge** (DEX D2, S5, F3) or leave (D0, S1).",
    "3 You fall. Take d4 damage. Climb back up (D0, S2).",
    "4 unused",
    "5 Treasure! THE END",
).replace("4 unused", "4 A quiet cell. Return to 2.")


def test_clean_book_has_no_warnings() -> None:
    assert_diagnostics(CLEAN.replace("Walk in (D0, S2).", "Walk in (D0, S2). Or the cell (D0, S4)."))


def test_malformed_choice_points_at_the_bad_token() -> None:
    src = book("1 A door (D1 S2 F3).", "2 In. THE END", "3 Out. THE END")
    found = assert_diagnostics(src, "malformed-choice@5:14")
    assert "expected ','" in found[0].message


@pytest.mark.parametrize("notation", ["(D1, 2, F3)", "(S2, D1)", "(DEX D2, S2 F3)", "(D1 S2 F3)", "(S2, F3)"])
def test_malformed_variants(notation: str) -> None:
    assert_diagnostics(book(f"1 A door {notation}. Hall (D0, S2), cell (D0, S3).", "2 X. THE END", "3 Y. THE END"),
                       "malformed-choice")


def test_missing_failure() -> None:
    assert_diagnostics(book("1 Leap (DEX D2, S2).", "2 Over. THE END"), "missing-failure@5:8")


def test_failure_on_d0() -> None:
    assert_diagnostics(book("1 Door (D0, S2, F3).", "2 In. THE END", "3 Out. THE END"), "failure-on-d0@5:17")


def test_difficulty_range() -> None:
    assert_diagnostics(book("1 Wall (STR D5, S2, F3).", "2 Up. THE END", "3 Down. THE END"),
                       "difficulty-range@5:13")


def test_unknown_ability_is_case_insensitive_and_knows_full_names() -> None:
    ok = book("1 Wall (strength d1, S2, F3) or (Dex D1, S2, F3).", "2 Up. THE END", "3 Down. THE END")
    assert_diagnostics(ok)
    bad = book("1 Wall (AGI D1, S2, F3).", "2 Up. THE END", "3 Down. THE END")
    assert_diagnostics(bad, "unknown-ability@5:9")


def test_duplicate_entry() -> None:
    assert_diagnostics(book("1 A (D0, S2).", "2 B. THE END", "2 C. THE END"), "duplicate-entry@9:1")


def test_dangling_reference_in_notation_and_prose() -> None:
    src = book("1 A (D1, S2, F9). Or go to 12.", "2 B. THE END")
    assert_diagnostics(src, "dangling-reference@5:14", "dangling-reference@5:22")


def test_missing_start() -> None:
    assert_diagnostics(book("1 A (D0, S2).", "2 B. THE END", head="Start: 7\n\n" + HEAD), "missing-start@1:1")
    assert_diagnostics(book("1 A (D0, S2).", "2 B. THE END", head="Start: gate\n\n" + HEAD), "missing-start")


def test_start_key_moves_the_entrance() -> None:
    src = book("1 A (D0, S2).", "2 B (D0, S1). Or (D0, S3).", "3 C. THE END", head="Start: 2\n\n" + HEAD)
    assert_diagnostics(src)


def test_unknown_ruleset() -> None:
    assert_diagnostics(book("1 A. THE END", head="Rules: death-and-treasures\n\n" + HEAD), "unknown-ruleset@1:1")


def test_no_entries() -> None:
    assert_diagnostics("", "no-entries@1:1")
    found = assert_diagnostics("Just a title\n\nSome prose.\n", "no-entries")
    assert "no entries found" in found[0].message


def test_unknown_key() -> None:
    assert_diagnostics(book("1 A. THE END", head="Titel: X\nTitle: Y\nTitle: Z\n\n" + HEAD),
                       "unknown-key@1:1", "unknown-key@3:1")


def test_unreachable_entry() -> None:
    assert_diagnostics(book("1 A. THE END", "2 B. Return to 1."), "unreachable-entry@7:1")


def test_dead_end() -> None:
    assert_diagnostics(book("1 A (D0, S2). Or (D0, S3).", "2 B. THE END", "3 Nothing here."), "dead-end@9:1")


def test_no_way_out_reports_every_trapped_entry() -> None:
    src = book("1 A maze (D0, S2) or home (D0, S4).", "2 Left (D0, S3).", "3 Right (D0, S2).", "4 Out. THE END")
    assert_diagnostics(src, "no-way-out@7:1", "no-way-out@9:1")


def test_entrance_counts_as_a_way_out() -> None:
    assert_diagnostics(book("1 Gate (D0, S2).", "2 Hall (D0, S1)."))


def test_same_outcome() -> None:
    assert_diagnostics(book("1 Leap (D1, S2, F2).", "2 B. THE END"), "same-outcome@5:8")


def test_self_loop() -> None:
    assert_diagnostics(book("1 Around (D0, S1) or on (D0, S2).", "2 B. THE END"), "self-loop@5:15")


def test_check_that_retries_on_failure_is_not_a_self_loop() -> None:
    assert_diagnostics(book("1 Climb (D1, S3, F1).", "3 Up. THE END"), "numbering-gap")


def test_unused_and_unknown_creatures() -> None:
    head = "T\n\nEncounters\n  1. 1d6 Goblins\n  2. 2 Ghouls fighting 1d4 Rats\n\n" \
           "Goblin HP 3 | Morale 7 | Sword d6\nRat HP 1 | Bite d2\nTroll HP 9 | Claws d8\n\nAdventure Entries\n\n"
    found = assert_diagnostics(book("1 A. THE END", head=head), "unknown-creature@5:6", "unused-creature@9:1")
    assert "Ghouls" in found[0].message or "Ghouls" in found[1].message


def test_creature_named_in_an_entry_is_used_and_unknown_fighters_are_reported() -> None:
    head = "T\n\nTroll HP 9 | Claws d8\n\nAdventure Entries\n\n"
    assert_diagnostics(book("1 2 Trolls sleep here. THE END", head=head))
    src = book("1 Two Trolls sleep. Then 3 Skeletons attack you! Fight (D0, S2).", "2 Won. THE END", head=head)
    assert_diagnostics(src, "unused-creature", "unknown-creature")
    src = book("1 3 Trolls attack! Fight (D0, S2). You see 2 Silver Coins.", "2 Won. THE END", head=head)
    assert_diagnostics(src)


def test_stat_block_inside_an_entry_belongs_to_it() -> None:
    # "If you win, go to 2" is the form the docs recommend: no prose-reference (issue 41)
    assert_diagnostics(book("1 A statue wakes. If you win, go to 2. Stone Guard HP 7 | Morale 12 | Fist d6.",
                            "2 Won. THE END"))


def test_numbering_gap() -> None:
    assert_diagnostics(book("1 A (D0, S4).", "4 B (D0, S6).", "6 C. THE END"),
                       "numbering-gap@7:1", "numbering-gap@9:1")


def test_prose_reference_only_when_not_also_notation() -> None:
    assert_diagnostics(book("1 A. Go to 2.", "2 B. THE END"), "prose-reference@5:6")
    assert_diagnostics(book("1 A. Go to 2 (D0, S2).", "2 B. THE END"))


def test_dynamic_return_lists_the_entries_that_lead_in() -> None:
    src = book("1 A (D1, S2, F3) or (D0, S4).", "2 Door (D3, S5, F3).", "3 Stuck. Return to your most recent entry.",
               "4 Far (D0, S1).", "5 Out. THE END")
    found = assert_diagnostics(src, "dynamic-return")
    assert next(d.message for d in found if d.rule == "dynamic-return").endswith("1, 2")


def test_adjacent_outcomes() -> None:
    assert_diagnostics(book("1 A (D1, S2, F3).", "2 B. THE END", "3 C. THE END"), "adjacent-outcomes@5:5")


def test_unlabelled_choice_fires_where_the_fallback_names_the_choice() -> None:
    src = book(
        "1 A smuggler.\nSmuggler HP 4 | Morale 7 | Cutlass d6\nIf you win, turn to 2 (D0, S2). **Bribe Him** (D0, S2).",
        "2 The corridor runs on (D0, S3). The way you came → 1 (D0, S1).",
        "3 Stuck. (D0, S2) Or leave the way you came (D0, S1). The **Gallery** runs on (D0, S4).",
        "4 Out. THE END",
    )
    found = assert_diagnostics(src, "unlabelled-choice@7:23", "unlabelled-choice@9:55", "unlabelled-choice@11:10",
                               "unlabelled-choice@11:45")
    assert "readers see 'Go on to 2'" in found[0].message and found[0].fix is None
    assert "('The way you came → 1')" in found[1].message


def test_unlabelled_choice_is_quiet_on_named_and_malformed_choices() -> None:
    found = assert_diagnostics(book(
        "1 A **Rope Bridge** (DEX D2, S2, F3), the stair goes down (D0, S2) or back (D0, S3).",
        "2 The door is open (D0, S3). (D1 S2 F3)", "3 Out. THE END"), "malformed-choice")
    assert [d.rule for d in found if d.rule == "unlabelled-choice"] == []


@pytest.mark.parametrize(
    "prose",
    ["(1,000 coins)", "(Weight 1)", "(d4 damage)", "(7)", "(evil, good, chaotic, lawful, etc..)", "(d6)",
     "(see the map)", "(500 coins each)", "(d6 damage and sets target on fire)", "(3)", "(DEX)", "(D&D)",
     "(Sword or Bow d6)", "(1d4 hours)", "(S.)", "(Fig. 2)", "(D6)", "(Bow D6)", "(D2)",
     "(S3 corridor)", "(F1 key)", "(see S5)"],
)
def test_prose_parentheticals_are_never_notation(prose: str) -> None:
    assert_diagnostics(book(f"1 You find a crown {prose} here. THE END"))


def test_every_rule_is_documented() -> None:
    for r in RULES.values():
        assert re.fullmatch(r"DT[1-4][0-9]{2}", r.code)
        assert re.fullmatch(r"[a-z]+(-[a-z0-9]+)*", r.name)
        for section in ("## What it finds", "## Why it matters", "## Example", "## Fix"):
            assert section in r.doc, f"{r.code} docs lack {section}"
        assert find_rule(r.code) is r and find_rule(r.name) is r


def test_every_rule_has_a_fixture() -> None:
    fixtures = ROOT / "tests" / "fixtures" / "rules"
    missing = [c for c in RULES if not (fixtures / f"{c}.txt").exists()]
    assert not missing, f"rules without a fixture: {missing}"


def _fixture_cases() -> list[Path]:
    return sorted((ROOT / "tests" / "fixtures" / "rules").glob("DT*.txt"))


@pytest.mark.parametrize("path", _fixture_cases(), ids=lambda p: p.stem)
def test_rule_fixture_fires_its_rule(path: Path) -> None:
    from dtc.compiler.source import read_source
    from helpers import lint_text

    found = lint_text(read_source(path), path.name)
    assert path.stem in {d.code for d in found}, f"{path.name} does not trigger {path.stem}"
