"""`dtc lint`'s text formats: full (source line and carets) and concise, colour only where wanted."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from dtc.cli import main
from dtc.diagnostics import Diagnostic, Severity, Span
from dtc.lint.reporters import Style, render, render_full, source_lines, visible

BOOK = "Book\n\nAdventure Entries\n\n1 A door (D1, S2).\n\n2 In. Go to 3.\n\n3 Nothing.\n"


def diag(line: int, column: int, end_line: int, end_column: int, message: str = "boom",
         path: str = "b.txt") -> Diagnostic:
    return Diagnostic("DT102", "missing-failure", Severity.ERROR, message, Span(line, column, end_line, end_column),
                      path=path)


def full(text: str, d: Diagnostic, width: int = 100) -> list[str]:
    out = render_full([d], 1, {d.path: source_lines(text, [d])}, Style(width=width))
    return out.splitlines()


def lint(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["lint", *args], env=env)
    return result.exit_code, result.output


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "book.txt"
    path.write_text(BOOK, encoding="utf-8")
    return path


def test_full_is_the_default_with_the_line_and_a_caret_under_the_span(book: Path) -> None:
    code, out = lint(str(book))
    assert code == 1
    lines = out.splitlines()
    assert lines[:5] == [
        f"{book}:5:10: DT102 [error] D1 check (D1, S2) has no failure entry (F<n>)",
        "  |",
        "5 | 1 A door (D1, S2).",
        "  |          ^^^^^^^^",
        "  |",
    ]
    assert lines[5] == ""
    assert lines[-1] == "Found 1 error, 2 warnings, 1 info in 1 file."
    assert "\x1b" not in out


def test_concise_is_one_line_per_finding_and_text_is_the_old_name_of_full(book: Path) -> None:
    _, concise = lint("--format", "concise", str(book))
    assert all(line.startswith(str(book)) for line in concise.splitlines()[:-1])
    assert len(concise.splitlines()) == 5
    assert lint("--format", "text", str(book))[1] == lint("--format", "full", str(book))[1]


def test_colour_follows_force_color_and_no_color(book: Path) -> None:
    _, forced = lint(str(book), env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert "\x1b[31m" in forced
    _, both = lint(str(book), env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b" not in both
    _, piped = lint(str(book), env={"FORCE_COLOR": "", "NO_COLOR": ""})
    assert "\x1b" not in piped
    _, concise = lint("--format", "concise", str(book), env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert "\x1b[" in concise
    _, json_out = lint("--format", "json", str(book), env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert "\x1b" not in json_out


def _pty_lint(book: Path, env: dict[str, str]) -> str:
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, ["-m", "dtc", "lint", str(book)], env={**os.environ, **env},
                          encoding="utf-8", timeout=60, dimensions=(24, 80))
    child.expect(pexpect.EOF)
    child.close()
    return str(child.before)


def test_a_terminal_gets_colour_unless_no_color(book: Path) -> None:
    plain_env = {"TERM": "xterm"}
    coloured = _pty_lint(book, plain_env)
    assert "\x1b[" in coloured and "^^^^^^^^" in coloured
    assert "\x1b" not in _pty_lint(book, {**plain_env, "NO_COLOR": "1"})
    assert "\x1b" not in _pty_lint(book, {**plain_env, "TERM": "dumb"})


def test_control_characters_are_drawn_visibly(tmp_path: Path) -> None:
    path = tmp_path / "evil.txt"
    path.write_text("Book\n\nAdventure Entries\n\n1 A \x1b[2Jdoor\u202e (D1, S2).\x07\n", encoding="utf-8")
    for fmt in ("full", "concise"):
        _, out = lint("--format", fmt, str(path), env={"FORCE_COLOR": "", "NO_COLOR": ""})
        assert "\x1b" not in out and "\u202e" not in out and "\x07" not in out
    _, out = lint(str(path))
    assert "\u241b[2Jdoor<U+202E>" in out
    assert visible("a\x1bb\x9bc\u2028") == "a\u241bb<U+009B>c<U+2028>"
    assert visible("plain — text") == "plain — text"


def test_carets_line_up_under_tabs_and_wide_characters() -> None:
    text = "\tkey 日本 (D1, S2)"
    d = diag(1, 9, 1, 17)
    lines = full(text, d)
    assert lines[2] == "1 |     key 日本 (D1, S2)"
    assert lines[3] == "  |              ^^^^^^^^"
    combining = "cafe\u0301 (X)"
    lines = full(combining, diag(1, 7, 1, 10))
    assert lines[2:4] == ["1 | cafe\u0301 (X)", "  |      ^^^"]


def test_a_long_line_is_cut_around_the_span() -> None:
    text = "word " * 100 + "(STR D4, S1, F2)" + " more" * 100
    start = text.index("(") + 1
    lines = full(text, diag(1, start, 1, start + 16), width=60)
    shown, carets = lines[2], lines[3]
    assert shown.startswith("1 | …") and shown.endswith("…") and len(shown) <= 60
    assert "(STR D4, S1, F2)" in shown
    assert shown.index("(STR") == carets.index("^") and carets.count("^") == 16


def test_a_span_at_the_end_of_a_line_and_a_point_past_it() -> None:
    lines = full("abc", diag(1, 4, 1, 5))
    assert lines[2:4] == ["1 | abc", "  |    ^"]


def test_multi_line_spans_underline_each_line_and_skip_the_middle_of_long_ones() -> None:
    text = "\n".join(f"line {n} text" for n in range(1, 11))
    lines = full(text, diag(2, 6, 3, 7))
    assert lines[1:6] == ["  |", "2 | line 2 text", "  |      ^^^^^^", "3 | line 3 text", "  | ^^^^^^"]
    long = full(text, diag(2, 1, 9, 5))
    assert [line for line in long if line[:2].strip().isdigit() or line == "..."] == [
        "2 | line 2 text", "3 | line 3 text", "...", "9 | line 9 text"]
    ends_at_line_start = full(text, diag(2, 1, 3, 1))
    assert "3 | line 3 text" not in ends_at_line_start


def test_missing_source_lines_leave_only_the_header() -> None:
    d = diag(5, 1, 5, 2)
    assert render_full([d], 1, {}, Style()).splitlines()[:2] == ["b.txt:5:1: DT102 [error] boom", ""]
    assert render("full", [], 1) == "All clear: 1 file checked.\n"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab —日\u0301\t\x1b"), min_size=1, max_size=700), st.data(),
       st.integers(min_value=40, max_value=160))
def test_the_carets_sit_under_the_span_whatever_the_line(text: str, data: st.DataObject, width: int) -> None:
    start = data.draw(st.integers(min_value=1, max_value=len(text)))
    end = data.draw(st.integers(min_value=start, max_value=len(text) + 1))
    lines = full(text, diag(1, start, 1, end), width=width)
    gutter, _, shown = lines[2].partition(" |")
    shown = shown[1:]
    carets = lines[3][len(gutter) + 3:]
    assert gutter == "1" and "\x1b" not in shown and "\t" not in shown
    assert set(carets.strip()) == {"^"}
    assert _columns(shown) <= width - 4 + 2  # the room, and at most the ellipses' slack
    # what the carets start under is the span's first character (or its drawing)
    lead = len(carets) - len(carets.lstrip())
    if end > start and start <= len(text) and text[start - 1] not in "\u0301\t ":
        drawn = visible(text[start - 1])
        assert _at_column(shown, lead).startswith(drawn[0])


def _columns(text: str) -> int:
    from dtc.lint.reporters import _width

    return sum(_width(ch) for ch in text)


def _at_column(text: str, column: int) -> str:
    from dtc.lint.reporters import _width

    at = 0
    for i, ch in enumerate(text):
        if at >= column and _width(ch):
            return text[i:]
        at += _width(ch)
    return ""


def test_source_lines_are_the_lines_asked_for() -> None:
    text = "one\ntwo\n\nfour"
    got = source_lines(text, [diag(2, 1, 2, 2), diag(4, 1, 4, 2), diag(9, 1, 9, 2), diag(3, 1, 3, 1)])
    assert got == {2: "two", 3: "", 4: "four"}
    assert source_lines("", []) == {}
