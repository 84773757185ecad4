"""Fixes belong to diagnostics: the rules build them, `dtc lint --fix` applies the safe ones
atomically with a backup, `--diff` shows them, JSON and SARIF carry them."""

from __future__ import annotations

import codecs
import json
import os
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from dtc.cli import main
from dtc.cli.lint_fix import encode_like
from dtc.diagnostics import Edit, Fix, Span
from dtc.fixes import Lines, apply_fixes, fix_text
from helpers import lint_text

BOOK = "1 Start (D0, S2).\n\n2 Fork (DEX D1 S4 F5).\n\n4 Out. THE END\n\n5 Out. THE END\n"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def fixes_of(src: str, code: str) -> list[Fix]:
    return [d.fix for d in lint_text(src) if d.code == code and d.fix is not None]


# --- the rules build them --------------------------------------------------------------------


def test_malformed_choice_gets_a_safe_comma_fix() -> None:
    (fix,) = fixes_of(BOOK, "DT101")
    assert fix.safe and fix.title == "Insert the missing commas: (DEX D1, S4, F5)"
    fixed, applied = apply_fixes(BOOK, [("DT101", fix)])
    assert applied == 1 and "(DEX D1, S4, F5)" in fixed
    assert not [d for d in lint_text(fixed) if d.code == "DT101"]


def test_notation_commas_cannot_fix_gets_no_fix() -> None:
    assert fixes_of("1 A (D1 S2 F3 G4).\n\n2 B. THE END\n\n3 C. THE END\n", "DT101") == []


def test_dangling_reference_never_invents_an_entry() -> None:
    src = "1 Start (D1, S2, F40).\n\n2 End. THE END\n\n78 Far. THE END\n"
    assert fixes_of(src, "DT107") == []
    assert "TODO" not in fix_text(src, lint_text, unsafe=True).text


def test_a_slipped_exit_says_did_you_mean_with_a_safe_fix() -> None:
    """'S73 for S37': one finding, "did you mean 37?", a safe fix; 37 is not also unreachable."""
    src = "1 Start (D0, S2) or the gallery (D0, S73).\n\n2 End. THE END\n\n37 Gallery. Return to 1.\n"
    found = lint_text(src)
    (dangling,) = [d for d in found if d.code == "DT107"]
    assert dangling.message == ("success exit to entry 73, which does not exist; did you mean 37? "
                                "(nothing leads to entry 37)")
    assert not [d for d in found if d.code == "DT201"]
    assert dangling.fix is not None and dangling.fix.safe and dangling.fix.title == "Write 37 for 73"
    fixed = fix_text(src, lint_text).text
    assert "(D0, S37)" in fixed and not [d for d in lint_text(fixed) if d.code in ("DT107", "DT201")]


def test_a_slip_in_a_prose_exit_and_one_digit_changed_dropped_or_added() -> None:
    for written, meant in (("go to 13", 12), ("go to 112", 12), ("go to 122", 12), ("go to 21", 12)):
        src = f"1 Start. Left (D0, S2), or {written}.\n\n2 End. THE END\n\n12 Hall. Return to 1.\n"
        (dangling,) = [d for d in lint_text(src) if d.code == "DT107"]
        assert f"did you mean {meant}?" in dangling.message, (written, dangling.message)
        swap = written == "go to 21"  # two digits swapped: safe; a digit changed, added or dropped: unsafe
        assert dangling.fix is not None and dangling.fix.safe is swap
        assert f"go to {meant}." in fix_text(src, lint_text, unsafe=True).text
        assert (f"go to {meant}." in fix_text(src, lint_text).text) is swap
        assert bool([d for d in lint_text(src) if d.code == "DT201"]) is not swap


def test_no_did_you_mean_for_an_entry_something_leads_to_or_when_two_fit() -> None:
    led = "1 Start (D0, S2) or (D0, S73).\n\n2 End. THE END\n\n37 Gallery (D0, S38).\n\n38 Hall (D0, S37).\n"
    (dangling,) = [d for d in lint_text(led) if d.code == "DT107"]
    assert "did you mean" not in dangling.message  # 38 leads to 37: no guess
    two = "1 Start (D0, S2) or (D0, S30).\n\n2 End. THE END\n\n3 A. Return to 1.\n\n31 B. Return to 1.\n"
    (dangling,) = [d for d in lint_text(two) if d.code == "DT107"]
    assert "did you mean 3 or 31?" in dangling.message and dangling.fix is None
    assert len([d for d in lint_text(two) if d.code == "DT201"]) == 2
    reached = "1 Start (D0, S2) or (D0, S73).\n\n2 End (D0, S37).\n\n37 Gallery. THE END\n"
    (dangling,) = [d for d in lint_text(reached) if d.code == "DT107"]
    assert "did you mean" not in dangling.message and dangling.fix is None


def test_dangling_reference_read_as_prose_gets_a_blank_line() -> None:
    src = "1 Start (D1, S2, F3).\n\n2 Mid (D0, S4).\n\n4 More (D0, S5).\n\n5 End. THE END\nYou fall.\n3 Out. THE END\n"
    (fix,) = fixes_of(src, "DT107")
    assert fix.title == "Insert a blank line before line 9" and not fix.safe
    fixed, _ = apply_fixes(src, [("DT107", fix)])
    assert "You fall.\n\n3 Out." in fixed and not [d for d in lint_text(fixed) if d.code == "DT107"]


def test_unused_suppression_is_deleted_or_trimmed() -> None:
    src = "1 A (D0, S2).\n\n2 B. THE END\n<!-- dtc: ignore[dead-end] -->\n"
    (fix,) = fixes_of(src, "DT402")
    assert fix.safe
    assert apply_fixes(src, [("DT402", fix)])[0] == "1 A (D0, S2).\n\n2 B. THE END\n"
    src = "1 A (D0, S2).\n\n2 B.\n<!-- dtc: ignore[dead-end, self-loop] kept on purpose -->\n"
    (fix,) = fixes_of(src, "DT402")
    fixed = apply_fixes(src, [("DT402", fix)])[0]
    assert "<!-- dtc: ignore[dead-end] kept on purpose -->" in fixed
    assert not [d for d in lint_text(fixed) if d.code in ("DT402", "DT202")]


def test_unknown_key_is_respelt_and_a_repeat_deleted() -> None:
    src = "Autor: Me\nTitle: X\nTitle: Y\n\n1 A. THE END\n"
    respell, repeat = fixes_of(src, "DT111")
    assert respell.title == "Change Autor to Author" and not respell.safe
    assert repeat.safe
    fixed = fix_text(src, lint_text, unsafe=True).text
    assert fixed == "Author: Me\nTitle: X\n\n1 A. THE END\n"
    assert fixes_of("Colour: red\n\n1 A. THE END\n", "DT111") == []


def test_failure_on_d0_can_be_dropped() -> None:
    src = "1 A (DEX D0,S2 ,F@x ).\n\n2 B. THE END\n\n@x C. THE END\n"
    (fix,) = fixes_of(src, "DT103")
    assert not fix.safe
    assert "1 A (DEX D0,S2)." in apply_fixes(src, [("DT103", fix)])[0]


# --- applying --------------------------------------------------------------------------------


def test_overlapping_fixes_are_resolved_in_a_fixed_order() -> None:
    text = "abcdef\n"
    one = Fix("one", (Edit(Span(1, 2, 1, 4), "X"),))
    two = Fix("two", (Edit(Span(1, 3, 1, 5), "Y"),))
    three = Fix("three", (Edit.insert(1, 7, "!"),))
    for order in ([one, two, three], [three, two, one]):
        assert apply_fixes(text, [("DT1", f) for f in order]) == ("aXdef!\n", 2)
    same = Fix("same", (Edit.insert(1, 1, ">"),))
    assert apply_fixes(text, [("DT1", same), ("DT2", same)]) == (">abcdef\n", 1)


def test_lines_delete_whole_lines() -> None:
    for text, line, want in (("a\nb\nc\n", 2, "a\nc\n"), ("a\nb", 2, "a"), ("a", 1, ""), ("a\nb\n", 2, "a\n")):
        fixed, _ = apply_fixes(text, [("X", Fix("del", (Lines(text).delete_line(line),)))])
        assert fixed == want, (text, line)


def test_fix_text_relints_until_nothing_applies() -> None:
    src = BOOK + "<!-- dtc: ignore[dead-end] -->\n"
    outcome = fix_text(src, lint_text)
    assert outcome.fixed == 2
    assert not [d for d in outcome.remaining if d.fix is not None and d.fix.safe]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["(D1 S2 F3)", "(D0 S9)", "(DEX D2 S3)", "Go to 7.", "THE END",
                                 "<!-- dtc: ignore[dead-end] -->", "(D1, S@x)", "x"]), max_size=12))
def test_fixing_settles(parts: list[str]) -> None:
    src = "".join(f"{i + 1} Entry {p}\n\n" for i, p in enumerate(parts))
    outcome = fix_text(src, lint_text)
    assert outcome.remaining == lint_text(outcome.text)
    assert not [d for d in outcome.remaining if d.fix is not None and d.fix.safe]
    again = fix_text(outcome.text, lint_text)
    assert again.fixed == 0 and again.text == outcome.text


def test_encode_like_keeps_bom_and_line_ends() -> None:
    assert encode_like(codecs.BOM_UTF8 + b"a\r\nb\r\n", "a\nc\n") == codecs.BOM_UTF8 + b"a\r\nc\r\n"
    assert encode_like(b"a\rb", "a\nc") == b"a\rc"
    assert encode_like(b"a\nb\r\n", "a\n") is None


# --- the command -----------------------------------------------------------------------------


def test_fix_writes_the_backup_whole_and_reports_what_remains(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    data = codecs.BOM_UTF8 + BOOK.replace("\n", "\r\n").encode()
    book.write_bytes(data)
    code, out, _ = run("lint", "--no-config", "--fix", str(book))
    assert (tmp_path / "book.txt~").read_bytes() == data
    fixed = book.read_bytes()
    assert fixed.startswith(codecs.BOM_UTF8) and b"(DEX D1, S4, F5).\r\n" in fixed and b"\n" not in fixed.replace(
        b"\r\n", b"")
    assert "Fixed 1 finding in 1 file;" in out
    assert "DT101" not in out
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.txt", "book.txt~"]


def test_diff_shows_the_fixes_and_writes_nothing(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text(BOOK, encoding="utf-8")
    code, out, err = run("lint", "--no-config", "--diff", str(book))
    assert code == 1
    assert "-2 Fork (DEX D1 S4 F5)." in out and "+2 Fork (DEX D1, S4, F5)." in out
    assert "Would fix 1 finding in 1 file." in err
    assert book.read_text(encoding="utf-8") == BOOK and not (tmp_path / "book.txt~").exists()
    book.write_text("1 A. THE END\n", encoding="utf-8")
    assert run("lint", "--no-config", "--diff", str(book))[0] == 0


def test_unsafe_fixes_only_when_asked(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text("1 Start (D1, S2, F40).\n\n2 End. THE END\n", encoding="utf-8")
    code, out, _ = run("lint", "--no-config", "--fix", str(book))
    assert code == 1 and "DT107" in out and "No fixes applied; 1 remains." in out
    code, out, _ = run("lint", "--no-config", "--fix", "--unsafe-fixes", str(book))
    assert "TODO" not in book.read_text(encoding="utf-8")


def test_fix_says_how_many_unsafe_fixes_remain_and_how_to_apply_them(tmp_path: Path) -> None:
    """"No fixes applied; N remain" names the unsafe fixes on offer (issue 41)."""
    book = tmp_path / "book.txt"
    book.write_text("1 Start (D1, S2, F3).\n\n2 Mid (D0, S4).\n\n4 More (D0, S5).\n\n5 End. THE END\n"
                    "You fall.\n3 Out. THE END\n", encoding="utf-8")
    _, out, _ = run("lint", "--no-config", "--fix", "--format", "concise", str(book))
    assert out.splitlines()[-1] == ("No fixes applied; 4 remain. 1 has an unsafe fix, a guess for you to check: "
                                    "see it with --diff --unsafe-fixes, apply it with --fix --unsafe-fixes.")
    _, _, err = run("lint", "--no-config", "--diff", str(book))
    assert err.strip() == ("No fixes to apply. 1 has an unsafe fix, a guess for you to check: see it with "
                           "--diff --unsafe-fixes.")
    _, out, _ = run("lint", "--no-config", "--fix", "--unsafe-fixes", "--format", "concise", str(book))
    assert out.splitlines()[-1].startswith("Fixed 1 finding in 1 file;") and "unsafe" not in out.splitlines()[-1]


def test_fix_refuses_what_it_cannot_write(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    code, _, err = run("lint", "--fix", str(fifo))
    assert code == 2 and "not a regular file" in err
    code, _, err = run("lint", "--fix", "-")
    assert code == 2 and "stdin" in err
    mixed = tmp_path / "mixed.txt"
    mixed.write_bytes(BOOK.replace("\n", "\r\n", 1).encode())
    code, _, err = run("lint", "--no-config", "--fix", str(mixed))
    assert "mixes line-end styles" in err and not (tmp_path / "mixed.txt~").exists()


def test_fix_writes_through_a_symbolic_link(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text(BOOK, encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    run("lint", "--no-config", "--fix", str(link))
    assert link.is_symlink() and "(DEX D1, S4, F5)" in real.read_text(encoding="utf-8")


def test_json_and_sarif_carry_the_fix(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text(BOOK, encoding="utf-8")
    _, out, _ = run("lint", "--no-config", "--format", "json", str(book))
    (found,) = [d for d in json.loads(out)["diagnostics"] if d["code"] == "DT101"]
    assert found["fix"] == {"title": "Insert the missing commas: (DEX D1, S4, F5)", "applicability": "safe",
                            "edits": [{"line": 3, "column": 8, "end_line": 3, "end_column": 22,
                                       "replacement": "(DEX D1, S4, F5)"}]}
    _, out, _ = run("lint", "--no-config", "--format", "sarif", str(book))
    (result,) = [r for r in json.loads(out)["runs"][0]["results"] if r["ruleId"] == "DT101"]
    (change,) = result["fixes"][0]["artifactChanges"]
    assert change["replacements"][0]["insertedContent"]["text"] == "(DEX D1, S4, F5)"
    assert change["replacements"][0]["deletedRegion"]["startColumn"] == 8


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab\n\r ", max_size=40))
def test_line_starts(text: str) -> None:
    """Each line starts just after a line feed (and the first at 0)."""
    assert Lines(text).starts == [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab\n\r ", max_size=40), st.lists(st.text(alphabet="ab\n", max_size=4), max_size=5))
def test_line_starts_from_lines_held(text: str, other: list[str]) -> None:
    """Built from the text's lines (the language server holds them): the same starts; from
    lines whose lengths do not add up to the text's, the text is looked at again."""
    assert Lines.of_lines(text, text.split("\n")).starts == Lines(text).starts
    if sum(map(len, other)) + len(other) != len(text) + 1:
        assert Lines.of_lines(text, other).starts == Lines(text).starts


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(1, 12), max_size=3), max_size=8), st.sets(st.integers(1, 12), min_size=1))
def test_dangling_reference_finds_every_entry_naming_a_missing_target(targets: list[list[int]],
                                                                       missing: set[int]) -> None:
    """The entries dangling-reference looks at (searched in the flat list of targets when the
    missing ones are few, entry by entry when many) are exactly those naming one."""
    from dtc.compiler.compile import Exit
    from dtc.lint.rules.dt107_dangling_reference import _naming

    exits = [[Exit(t, "success", None, None) for t in out] for out in targets]
    flat = [t for out in targets for t in out]
    assert _naming(exits, flat, missing) == [i for i, out in enumerate(targets) if not missing.isdisjoint(out)]
