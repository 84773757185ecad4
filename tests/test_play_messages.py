"""The words dtc play says (issue 41, "Words"), each pinned as the player reads it: a danger roll
with its bonus, a codeword noted rather than counted, what a closed choice needs, experience, an
attack's damage as an average, and no "Not automated" note on a sentence whose bracket dtc applies."""

from __future__ import annotations

from dtc.compiler.api import compile_text
from dtc.runtime.conditions import needs
from dtc.runtime.terminal import Terminal, possession_words, rolled


def test_a_danger_roll_prints_its_bonus() -> None:
    plain = {"rolls": [[6, 1]], "total": 9, "dice": "2d6", "compare": "≥", "ability": "STR"}
    assert rolled(plain) == "6+1 +2 STR = 9"
    assert rolled({**plain, "total": 7}) == "6+1 +0 STR = 7"
    kept = {"rolls": [[6, 1, 4]], "total": 12, "dice": "3d6 keep best 2", "compare": "≥", "ability": "DEX"}
    assert rolled(kept) == "6, 1, 4: kept 6+4 +2 DEX = 12"
    worst = {"rolls": [[6, 1, 4]], "total": 4, "dice": "3d6 keep worst 2", "compare": "≥", "ability": "WIL"}
    assert rolled(worst) == "6, 1, 4: kept 1+4 -1 WIL = 4"


def test_rolls_that_make_their_total_print_as_before() -> None:
    assert rolled({"rolls": [[3, 4, 5]], "total": 12, "dice": "3d6"}) == "3+4+5 = 12"
    assert rolled({"rolls": [[3, 4, 5], [2, 6, 1]], "total": 12, "dice": "3d6"}) == "3+4+5 / 2+6+1 = 12"
    assert rolled({"rolls": [[6, 2, 3]], "total": 5, "dice": "3d6 (6=0)"}) == "6+2+3 = 5"  # Zilch: a 6 is 0


def test_a_codeword_is_noted_not_counted() -> None:
    gained = {"name": "bell-rung", "amount": 1, "held": 1}
    assert possession_words(gained) == "Noted: bell-rung."
    assert possession_words({"name": "bell-rung", "amount": -1, "held": 0}) == "Crossed off: bell-rung."
    assert possession_words({"name": "torches", "amount": 3, "held": 3}) == "Gained: 3 torches; now 3."
    assert possession_words({"name": "coins", "amount": -10, "held": 0, "short": 5}) == (
        "Lost: 10 coins (you had 5 too few); now 0.")


def test_a_closed_choice_says_what_it_needs_in_words() -> None:
    assert needs({"not": {"has": "gallery-searched", "count": 1}}) == "you not to have gallery-searched"
    assert needs({"has": "rope", "count": 1}) == "rope"
    assert needs({"all": [{"has": "stone key", "count": 1}, {"not": {"has": "alarm", "count": 1}}]}) == (
        "stone key and you not to have alarm")


def test_experience_reads_as_a_sentence() -> None:
    line = Terminal._brief({"event": "experience", "xp": 1, "why": "showed up", "total": 1, "level": 1})
    assert line == "Experience: 1 XP (showed up); 1 XP in all, level 1."
    assert "for showed up" not in line


def test_no_ruling_note_on_a_sentence_whose_bracket_dtc_applies() -> None:
    src = ("Title: T\n\nAdventure Entries\n\n1 You count fifty coins into the warden's palm. [-50 coins] He bites "
           "each coin. [-1 coins] The oil weighs a lot (Weight 3). [+oil flask] Go on (D0, S2).\n\n2 Home. THE END\n")
    effects = compile_text(src).graph()["entries"][0]["effects"]
    manual = [e["text"] for e in effects if e["kind"] == "manual"]
    assert manual == ["The oil weighs a lot (Weight 3)."]  # the weight is not applied: the note stays
    src = ("Title: T\n\nAdventure Entries\n\n1 The oil [+oil flask] weighs a lot (Weight 3). Go on (D0, S2).\n\n"
           "2 End. THE END\n")
    (note,) = [e["text"] for e in compile_text(src).graph()["entries"][0]["effects"] if e["kind"] == "manual"]
    assert note == "The oil [+oil flask] weighs a lot (Weight 3)."  # never a bracket blanked out
