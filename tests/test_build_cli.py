"""`dtc build` on the command line: sources, compiled JSON, output folders, bad input."""

from __future__ import annotations

import json
from html import unescape
from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc.cli import main
from helpers.tower import TOWER


@pytest.fixture
def tower(tmp_path: Path) -> Path:
    path = tmp_path / "tower.txt"
    path.write_text(TOWER, encoding="utf-8")
    return path


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_build_default_folder(tower: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tower.parent)
    code, _, err = run("build", "tower.txt", "--no-pdf")
    assert code == 0, err
    out = tower.parent / "build" / "tower"
    for name in ("tower.json", "tower.html", "tower.md", "tower.print.html"):
        assert (out / name).is_file(), name
        assert f"wrote {Path('build') / 'tower' / name}" in err
    graph = json.loads((out / "tower.json").read_text(encoding="utf-8"))
    assert [e["number"] for e in graph["entries"]] == list(range(1, 8))  # the labels got numbers
    assert [e["label"] for e in graph["entries"]][:2] == ["@shore", "@causeway"]


def test_build_flowchart(sample_path: Path) -> None:
    out = sample_path.parent / "out"
    code, _, err = run("build", str(sample_path), "-o", str(out), "--no-pdf")
    assert code == 0, err
    svg = out / "sample-dungeon.svg"
    if not svg.exists():
        pytest.fail(f"no flowchart was drawn: {err.strip()}")
    # Graphviz writes "-" as "&#45;" in ids; the page renames the chart's ids so they stay unique
    assert 'id="entry-1"' in unescape(svg.read_text(encoding="utf-8"))
    page = unescape((out / "sample-dungeon.html").read_text(encoding="utf-8"))
    assert 'id="chart-entry-1"' in page and page.count('id="entry-1"') == 1


def test_build_from_compiled_json(tower: Path) -> None:
    code, _, _ = run("compile", str(tower), "-o", str(tower.parent / "tower.json"))
    assert code == 0
    code, _, err = run("build", str(tower.parent / "tower.json"), "-o", str(tower.parent / "web"), "--no-pdf")
    assert code == 0, err
    html = (tower.parent / "web" / "tower.html").read_text(encoding="utf-8")
    assert 'id="entry-7"' in html and "The Salt Tower &amp; the Sea" in html


def test_build_refuses_bad_json_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "dtc-adventure", "format_version": 1}', encoding="utf-8")
    code, _, err = run("build", str(bad), "-o", str(tmp_path / "o"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "bad.json" in err
    bad.write_text("{not json", encoding="utf-8")
    code, _, err = run("build", str(bad))
    assert code == 2 and "not valid JSON" in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_build_missing_source(tmp_path: Path) -> None:
    code, _, err = run("build", str(tmp_path / "nope.txt"))
    assert code == 2 and err.strip().endswith("no such file")


def test_build_with_lint_errors_still_writes(tmp_path: Path) -> None:
    src = tmp_path / "broken.txt"
    src.write_text("Adventure Entries\n\n1 A door (D1, S2, F9).\n\n2 Behind it. THE END\n", encoding="utf-8")
    code, _, err = run("build", str(src), "-o", str(tmp_path / "b"), "--no-pdf")
    assert code == 1 and "DT107" in err
    html = (tmp_path / "b" / "broken.html").read_text(encoding="utf-8")
    assert 'href="#entry-2"' in html and 'href="#entry-9"' not in html  # a dangling target is not linked


def test_build_from_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["build", "-", "--no-pdf"], input=TOWER)
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "build" / "stdin" / "stdin.html").is_file()
