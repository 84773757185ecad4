"""What lint says to authors (issue 41, "Words"): each message pinned as the author reads it."""

from __future__ import annotations

from dtc.fixes import fix_text
from helpers import lint_text

HEAD = "Title: Words\nRules: death-and-treasure\n\nAdventure Entries\n\n"


def codes(src: str, code: str) -> list[str]:
    return [d.message for d in lint_text(HEAD + src) if d.code == code]


# --- DT302 prose-reference: silent on "If you win, go to N" ----------------------------------


def test_prose_reference_is_silent_on_if_you_win_go_to() -> None:
    fight = "1 A statue wakes. Follow the combat procedures. If you win, go to 2.\n\n2 Won. THE END\n"
    assert codes(fight, "DT302") == []
    check = "1 Make a DEX check. If you succeed, go to 2. Return to 3.\n\n2 Won. THE END\n\n3 Lost. THE END\n"
    assert codes(check, "DT302") == ["exit to entry 3 is written only in prose ('Return to 3')"]


def test_prose_reference_still_speaks_of_other_prose_exits() -> None:
    src = "1 A door. Turn to 2.\n\n2 Won. THE END\n"
    assert codes(src, "DT302") == ["exit to entry 2 is written only in prose ('Turn to 2')"]


# --- DT123 unknown-ending-kind ---------------------------------------------------------------


def test_the_end_win_is_an_unknown_kind_with_a_safe_fix() -> None:
    src = "1 You ring the bell. THE END (win)\n"
    (d,) = [d for d in lint_text(HEAD + src) if d.code == "DT123"]
    assert d.message == ("'THE END (win)' names no kind of ending dtc knows (death, victory), so entry 1 is an "
                         "ending of no kind: write THE END (victory)")
    assert d.fix is not None and d.fix.safe
    assert fix_text(HEAD + src, lint_text).text.endswith("THE END (victory)\n")


def test_the_sentence_form_with_an_unknown_kind_is_no_ending() -> None:
    src = "1 A door (D0, S2).\n\n2 The stair gives way. The End (died).\n"
    (message,) = codes(src, "DT123")
    assert message == ("'The End (died)' names no kind of ending dtc knows (death, victory), so entry 2 is no "
                       "ending at all (the sentence form takes only these kinds): write The End (death)")
    assert not codes(fix_text(HEAD + src, lint_text).text[len(HEAD):], "DT202")


def test_an_unknown_kind_with_no_plain_meaning_names_both_and_offers_no_fix() -> None:
    src = "1 Doors (D0, S2) (D0, S3).\n\n2 You land in the hay. THE END (bittersweet)\n\n3 A pit. THE END (death)\n"
    (d,) = [d for d in lint_text(HEAD + src) if d.code == "DT123"]
    assert d.message.endswith("write THE END (victory) or THE END (death)") and d.fix is None


def test_a_word_meant_as_a_kind_is_reported_and_a_heading_is_not() -> None:
    slip = "1 You ring the bell. THE END (victroy)\n"
    (d,) = [d for d in lint_text(HEAD + slip) if d.code == "DT123"]
    assert d.message.endswith("write THE END (victory)") and d.fix is not None and d.fix.safe
    assert codes("1 A quiet road home. THE END (Epilogue)\n", "DT123") == []  # no kinds in the book: a heading
    kinds = "1 Doors (D0, S2) (D0, S3).\n\n2 A pit. THE END (death)\n\n3 Home. THE END (Epilogue)\n"
    (message,) = codes(kinds, "DT123")  # the book marks kinds: a word there is meant as one
    assert message.startswith("'THE END (Epilogue)' names no kind of ending dtc knows (death, victory)")


def test_known_kinds_and_prose_are_never_reported() -> None:
    src = ("1 Doors (D0, S2) (D0, S3) (D0, S4) (D0, S5).\n\n2 Home. THE END (Victory)\n\n3 A pit. The end (death).\n\n"
           "4 The end (really) of the hall is near. THE END\n\n5 Rest a while. THE END (for now)\n")
    assert codes(src, "DT123") == []


# --- DT124 unrecognised-fight and DT206 unused-creature: a fight named in prose ----------------

BESTIARY = "Title: Words\nRules: death-and-treasure\n\nBell Warden HP 10 | Morale 12 | Bronze Fists d8\n\n" \
           "Adventure Entries\n\n"


def bestiary(src: str, code: str) -> list[str]:
    return [d.message for d in lint_text(BESTIARY + src) if d.code == code]


def test_a_fight_named_in_prose_says_it_was_not_recognised_and_what_to_write() -> None:
    src = "1 The bell chamber. Fight the Bell Warden! If you win, go to 2.\n\n2 You ring the bell. THE END (victory)\n"
    assert bestiary(src, "DT124") == [
        "entry 1 tells of a fight with Bell Warden ('Fight the Bell Warden!') and where winning leads, but dtc does "
        "not recognise a fight there, so none starts: write '1 Bell Warden attacks! Follow the combat rules.' (a "
        "count before the name says who; that sentence starts the fight)"]
    assert bestiary(src, "DT206") == [
        "creature 'Bell Warden' is named in entry 1 ('Fight the Bell Warden!'), but dtc did not recognise a fight "
        "with it there (no count before the name): write '1 Bell Warden attacks! Follow the combat rules.', or "
        "delete the block"]
    written = src.replace("Fight the Bell Warden!", "1 Bell Warden attacks! Follow the combat rules.")
    assert bestiary(written, "DT124") == [] and bestiary(written, "DT206") == []


def test_a_counted_fight_gets_the_sentence_that_starts_it_as_an_unsafe_fix() -> None:
    src = "1 The bell chamber. 1 Bell Warden attacks. If you win, go to 2.\n\n2 You ring the bell. THE END\n"
    (d,) = [d for d in lint_text(BESTIARY + src) if d.code == "DT124"]
    assert d.message.endswith("after it write 'Follow the combat rules.' (that sentence starts the fight)")
    assert d.fix is not None and not d.fix.safe
    fixed = fix_text(BESTIARY + src, lint_text, unsafe=True).text
    assert "1 Bell Warden attacks. Follow the combat rules. If you win" in fixed
    assert not [d for d in lint_text(fixed) if d.code == "DT124"]


def test_no_unrecognised_fight_where_one_starts_or_none_is_told() -> None:
    quiet = [
        "1 The Bell Warden attacks! Follow the combat rules. If you win, go to 2.\n\n2 Won. THE END\n",
        "1 1 Bell Warden charges. Run (D0, S2) or fight it (STR D2, S2, F3).\n\n2 Won. THE END\n\n3 Lost. THE END\n",
        "1 The Bell Warden sleeps. If you win the bet, go to 2.\n\n2 Won. THE END\n",
        "1 A stone guard wakes. If you win, go to 2. Stone Guard HP 7 | Morale 12 | Fist d6.\n\n2 Won. THE END\n",
        "1 Fight the Bell Warden! Make a STR check. If you succeed, go to 2.\n\n2 Won. THE END\n",
    ]
    for src in quiet:
        assert bestiary(src, "DT124") == [], src


def test_a_creature_named_only_in_passing_says_so() -> None:
    src = "1 A statue of the Bell Warden stands here. Go on (D0, S2).\n\n2 Won. THE END\n"
    assert bestiary(src, "DT206") == [
        "creature 'Bell Warden' is named in entry 1 ('A statue of the Bell Warden stands here.'), but never with a "
        "count, so no encounter or fight uses it: to fight it there write '1 Bell Warden attacks! Follow the combat "
        "rules.', or delete the block"]


def test_a_dead_end_from_an_unknown_kind_says_why() -> None:
    src = "1 A door (D0, S2).\n\n2 The stair gives way. The End (died).\n"
    assert codes(src, "DT202") == ["entry 2 has no exits and is not an ending; 'The End (died)' would end it, but the "
                                   "sentence form takes only (death) or (victory) (unknown-ending-kind)"]
