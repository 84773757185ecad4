"""Hostile and unlucky inputs to the command line: each gets one clear line and the documented
exit status, never a traceback."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc.cli import main

BOOK = "Book\n\nAdventure Entries\n\n1 A door (D1, S2).\n\n2 In. Go to 3.\n\n3 Nothing.\n"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "book.txt"
    path.write_text(BOOK, encoding="utf-8")
    return path


@pytest.mark.parametrize("select", ["", ",", " , ", ",,"])
def test_an_empty_select_is_a_usage_error(book: Path, select: str) -> None:
    code, out = run("lint", str(book), "--select", select)
    assert code == 2
    assert out.strip().splitlines() == [
        "error: --select names no rule, so nothing would be checked (give codes, names or prefixes such as DT1)"
    ]


@pytest.mark.parametrize("value", ['""', '","', "[]", '[""]', '["", " "]'])
def test_an_empty_select_in_the_configuration_is_a_usage_error(book: Path, value: str) -> None:
    (book.parent / "dtc.toml").write_text(f"select = {value}\n", encoding="utf-8")
    code, out = run("lint", str(book))
    assert code == 2
    assert len(out.strip().splitlines()) == 1
    assert "select names no rule" in out


@pytest.mark.parametrize("name, text", [
    ("dtc.toml", "a = " + "[" * 5000 + "]" * 5000 + "\n"),
    ("dtc.toml", "a = " + "{x=" * 3000 + "1" + "}" * 3000 + "\n"),
    ("pyproject.toml", "[tool.dtc]\nselect = " + "[" * 5000 + "]" * 5000 + "\n"),
])
def test_a_deeply_nested_configuration_is_one_line(book: Path, name: str, text: str) -> None:
    (book.parent / name).write_text(text, encoding="utf-8")
    code, out = run("lint", str(book))
    assert code == 2
    assert out.strip().splitlines() == [f"{book.parent / name}: error: invalid TOML: nested too deeply"]


@pytest.mark.skipif(__import__("shutil").which("dot") is None, reason="Graphviz (dot) is not installed")
@pytest.mark.parametrize("text", [
    "Title: " + "T" * 5_000_000 + "\n\n1 Go (D0, S2).\n\n2 THE END\n",
    "1 Go (D0, S@" + "a" * 100_000 + ").\n\n2 THE END\n",
    "1 " + "Goblin HP 3 | Bite d4. " * 2000 + "Go (D0, S2).\n\n2 THE END\n",
    "1 " + "&<>\"'\\" * 20_000 + " (D0, S2).\n\n2 THE END\n",
], ids=["title", "label", "creatures", "markup"])  # short ids: the test's name is put in the environment
def test_graph_draws_a_book_with_enormous_text(tmp_path: Path, text: str) -> None:
    """Graphviz refuses any string over 16,384 characters: author text is cut to fit."""
    book = tmp_path / "book.txt"
    book.write_text(text, encoding="utf-8")
    code, out = run("graph", str(book), "-o", str(tmp_path / "book.svg"))
    assert code == 0, out
    assert (tmp_path / "book.svg").read_text(encoding="utf-8").rstrip().endswith("</svg>")


def test_a_graphviz_that_stops_reading_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Graphviz that ends without reading the graph nor drawing anything (the graph is handed
    over in a file, so it cannot break a pipe)."""
    import graphviz

    from dtc.render.graph import RenderError, render

    program = tmp_path / "bin" / "dot"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{program.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    with pytest.raises(RenderError, match="stopped without drawing"):
        render(graphviz.Digraph(), "svg")


@pytest.mark.parametrize("typed", ["", "\n", "STR DEX\n", "\n\n"])
def test_end_of_input_at_a_character_prompt_stops_cleanly(monkeypatch: pytest.MonkeyPatch, typed: str) -> None:
    """Ctrl-D (the end of input) at any prompt of ``character new`` is one line, exit 2."""
    import dtc.cli.play_cmd as play_cmd

    monkeypatch.setattr(play_cmd, "stdin_is_tty", lambda: True)
    result = CliRunner().invoke(main, ["character", "new", "--seed", "1"], input=typed)
    assert result.exit_code == 2, result.output
    assert result.output.rstrip().endswith(("stopped: no character made", "stopped: no character made (end of input)"))


HOSTILE_MARKDOWN = [
    "[x](javascript:alert(1))", "[x](JaVaScRiPt:alert`1`)", "[x](<javascript:alert(1)>)", "[x](data:text/html,hi)",
    "![pic](http://example.invalid/track.png)", "![pic](//example.invalid/t.png)", "[ref]: javascript:alert(1)",
    "[y][ref]\n\n[ref]: javascript:alert(1)", "\\[x](javascript:1)", "<img src=x onerror=alert(1)>",
    "<javascript:alert(1)>", "[a](https://ok.example/\"x=\"y)", "[![pic](http://e.invalid/i.png)](#entry-2)",
]


@pytest.mark.parametrize("text", HOSTILE_MARKDOWN)
def test_the_markdown_edition_has_no_unsafe_link_and_no_image(text: str) -> None:
    from markdown_it import MarkdownIt

    from dtc.editions.print import md_text

    tokens = MarkdownIt("commonmark").parseInline(md_text(text))
    children = [c for t in tokens for c in (t.children or [])]
    assert not [c for c in children if c.type == "image"]
    for link in (c for c in children if c.type == "link_open"):
        assert str(link.attrGet("href")).startswith(("#", "http://", "https://", "mailto:")), link
    html = MarkdownIt("commonmark").render(md_text(text))
    assert "<img" not in html
    assert all(h.startswith(("#", "http://", "https://", "mailto:")) for h in re.findall(r'href="([^"]*)"', html))


def test_the_markdown_edition_keeps_links_into_the_book_and_the_web() -> None:
    from dtc.editions.print import md_text

    text = "See [the map](https://example.com/map) or [the shore](#entry-2), or mail [us](mailto:a@example.com)."
    assert md_text(text) == text


def test_an_os_error_naming_a_path_object_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """An OSError whose filename is a Path (as Graphviz's runner gives) is one line, exit 2."""
    from dtc.cli.base import guard

    @guard
    def command() -> None:
        raise OSError(7, "Argument list too long", Path("dot"))

    with pytest.raises(SystemExit) as info:
        command()
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.strip() == "dot: error: Argument list too long"
