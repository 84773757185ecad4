"""A graph format is one row in ``dtc.render.formats.FORMATS``: ``dtc graph`` reads its name, suffixes,
help and capabilities (takes ``--odds``, marks lint findings, needs Graphviz) from the table.

The proof is the reviewer's addition, an adjacency-list format (``N: target target ...``, one line
per entry), added here in one place — a row put into the table for the test — and then chosen by
``--format`` and by its suffix, listed in ``--help``, refused with ``--odds`` in one line, and given
no lint run, since it marks no findings.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.render.formats import FORMATS, Format, Request, by_suffix, names_with
from helpers import ROOT

CHAPEL = str(ROOT / "adventures" / "the-drowned-chapel.txt")


def adjacency(req: Request) -> str:
    """One line per entry: its number, a colon, and the entries its exits lead to, in order."""
    lines = []
    for entry in req.graph["entries"]:
        targets = " ".join(str(x["target"]) for x in entry["exits"])
        lines.append(f"{entry['number']}: {targets}".rstrip())
    return "\n".join(lines) + "\n"


@pytest.fixture
def with_adjacency(monkeypatch: pytest.MonkeyPatch) -> list[Request]:
    """The adjacency-list format, added in one place; the requests it was asked to draw."""
    asked: list[Request] = []

    def produce(req: Request) -> str:
        asked.append(req)
        return adjacency(req)

    row = Format("adjacency", (".adj",), "one line per entry: N: the entries it leads to", produce)
    monkeypatch.setitem(FORMATS, "adjacency", row)
    return asked


def test_a_new_format_is_one_row(with_adjacency: list[Request], tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["graph", "--format", "adjacency", CHAPEL])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("1: ") and re.fullmatch(r"(\d+:( \S+)*\n)+", result.stdout)
    (req,) = with_adjacency
    assert req.marks is None, "a format that marks no findings is not given a lint run"

    out = tmp_path / "chapel.adj"
    result = CliRunner().invoke(main, ["graph", CHAPEL, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == adjacency(with_adjacency[-1])

    shown = " ".join(CliRunner().invoke(main, ["graph", "--help"]).output.split())
    assert "[dot|svg|png|pdf|html|mermaid|md|adjacency]" in shown and "adjacency: one line per entry" in shown


def test_a_format_that_takes_no_odds_refuses_them_in_one_line(with_adjacency: list[Request]) -> None:
    result = CliRunner().invoke(main, ["graph", "--format", "adjacency", "--odds", CHAPEL])
    assert result.exit_code == 2 and not with_adjacency
    assert result.output.strip().splitlines() == [
        f"error: --odds draws with {', '.join(names_with('odds'))}, not adjacency"]


def test_the_cli_names_no_format() -> None:
    """graph_cmd reads capabilities from the table; it never tests a format by name."""
    source = (ROOT / "src" / "dtc" / "cli" / "graph_cmd.py").read_text(encoding="utf-8")
    for name in FORMATS:
        assert not re.search(rf"""["']{re.escape(name)}["']""", source.replace('"dot"', "")), name


@pytest.mark.parametrize("name", list(FORMATS))
def test_every_format_declares_what_it_does(name: str) -> None:
    row = FORMATS[name]
    assert row.suffixes and all(by_suffix(s.upper()) == name for s in row.suffixes)
    assert isinstance(row.odds, bool) and isinstance(row.marks, bool) and isinstance(row.graphviz, bool)


def test_the_mermaid_formats_take_no_odds_and_mark_nothing() -> None:
    assert not (set(names_with("odds")) | set(names_with("marks"))) & {"mermaid", "md"}
    assert set(names_with("graphviz")) == {"svg", "png", "pdf", "html"}
