"""`dtc build` draws the flowchart in its own Graphviz process while it writes the editions that
do not show it; every way Graphviz can go wrong still ends as before: one warning, every other
file written, nothing left running. Graphviz is played by small fake programs on PATH."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

import dtc.editions as editions
from dtc.cli import main
from dtc.compiler.api import compile_text
from dtc.editions import build
from dtc.editions.web import chart_block, render_web, render_web_around_chart
from dtc.render.graph import Drawing, RenderError, Stopped, render
from helpers import alive, terminated
from helpers.tower import TOWER

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="8pt" height="8pt"><g id="entry-1"><title>e1</title></g></svg>\n'
EDITIONS = ("tower.json", "tower.html", "tower.md", "tower.print.html")


def fake_graphviz(tmp_path: Path, script: str) -> Path:
    """A folder holding a ``dot`` program that runs ``script`` (sh), put first on PATH."""
    folder = tmp_path / "fake-bin"
    folder.mkdir(exist_ok=True)
    program = folder / "dot"
    program.write_text("#!/bin/sh\n" + script, encoding="utf-8")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return folder


def on_path(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")


@pytest.fixture
def tower(tmp_path: Path) -> Path:
    path = tmp_path / "tower.txt"
    path.write_text(TOWER, encoding="utf-8")
    return path


def run_build(tower: Path, out: Path, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["build", str(tower), "-o", str(out), "--no-pdf", *extra])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stderr


def test_the_page_is_the_same_in_halves() -> None:
    graph = compile_text(TOWER).graph()
    before, after = render_web_around_chart(graph)
    assert before + chart_block(SVG) + after == render_web(graph, SVG)
    assert before + chart_block(None) + after == render_web(graph, None) == before + after


def test_graphviz_runs_while_the_other_editions_are_written(tower: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake Graphviz draws only once the paper edition is on disk: the build must not wait
    for the chart before writing it."""
    out = tmp_path / "out"
    script = (f'i=0; while [ ! -e "{out}/tower.print.html" ]; do i=$((i+1)); '
              f'[ $i -gt 600 ] && {{ echo "never saw the print edition" >&2; exit 3; }}; sleep 0.05; done\n'
              f"cat >/dev/null; printf '%s' '{SVG}'\n")
    on_path(monkeypatch, fake_graphviz(tmp_path, script))
    code, err = run_build(tower, out)
    assert code == 0, err
    assert "flowchart skipped" not in err
    assert (out / "tower.svg").read_text(encoding="utf-8") == SVG
    assert 'id="chart-entry-1"' in (out / "tower.html").read_text(encoding="utf-8")
    # Listed as before: the JSON, the chart, the web edition, then the print edition.
    wrote = [line.rsplit("/", 1)[-1] for line in err.splitlines() if line.startswith("wrote ")]
    assert wrote == ["tower.json", "tower.svg", "tower.html", "tower.md", "tower.print.html"]


@pytest.mark.parametrize(("script", "why"), [
    ("cat >/dev/null; echo 'Error: <stdin>: syntax error in line 3' >&2; exit 1\n",
     "flowchart skipped: Graphviz (sfdp) failed: Error: <stdin>: syntax error in line 3"),
    ("kill -9 $$\n", "flowchart skipped: Graphviz (sfdp) failed: stopped by signal 9"),
    ("exit 0\n", "flowchart skipped: Graphviz (sfdp) stopped without drawing anything"),
])
def test_a_failing_graphviz_skips_the_chart_only(tower: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 script: str, why: str) -> None:
    out = tmp_path / "out"
    on_path(monkeypatch, fake_graphviz(tmp_path, script))
    code, err = run_build(tower, out, "--epub")
    assert code == 0, err
    # dot fails, then dot without edge labels, then sfdp: each says the same, the last is reported
    assert f"warning: {why}" in err.splitlines()
    assert not (out / "tower.svg").exists()
    for name in (*EDITIONS, "tower.epub"):
        assert (out / name).is_file(), name
    assert 'class="flowchart"' not in (out / "tower.html").read_text(encoding="utf-8")
    assert sorted(p.name for p in out.iterdir()) == sorted((*EDITIONS, "tower.epub"))  # no scratch files


def test_no_graphviz_at_all(tower: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    code, err = run_build(tower, tmp_path / "out")
    assert code == 0, err
    assert any(line.startswith("warning: flowchart skipped: Graphviz is not installed") for line in err.splitlines())
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(EDITIONS)


def test_an_interrupted_build_leaves_no_graphviz_running(tower: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while Graphviz lays the chart out: it is killed, and no file is half-written."""
    pidfile = tmp_path / "graphviz.pid"
    on_path(monkeypatch, fake_graphviz(tmp_path, f'echo $$ > "{pidfile}"\nexec sleep 60\n'))
    real = editions.render_markdown

    def interrupted(*args: Any, **kwargs: Any) -> str:
        deadline = time.monotonic() + 30
        while not (pidfile.exists() and pidfile.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert alive(int(pidfile.read_text()))
        real(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(editions, "render_markdown", interrupted)
    out = tmp_path / "out"
    out.mkdir()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        build(compile_text(TOWER).graph(), out, "tower", pdf=False)
    assert time.monotonic() - started < 30  # the sleeping Graphviz was not waited for
    assert not alive(int(pidfile.read_text()))
    assert sorted(p.name for p in out.iterdir()) == ["tower.json"]  # written whole before; nothing else


def test_a_drawing_stopped_from_outside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pidfile = tmp_path / "graphviz.pid"
    on_path(monkeypatch, fake_graphviz(tmp_path, f'echo $$ > "{pidfile}"\nexec sleep 60\n'))
    drawing = Drawing(compile_text(TOWER).graph())
    deadline = time.monotonic() + 30
    while not (pidfile.exists() and pidfile.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not drawing.done()
    drawing.stop()
    assert drawing.done() and not alive(int(pidfile.read_text()))
    with pytest.raises(Stopped):
        drawing.svg()


def test_a_graphviz_that_draws_nothing_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import graphviz

    on_path(monkeypatch, fake_graphviz(tmp_path, "exit 0\n"))
    with pytest.raises(RenderError, match=r"^Graphviz \(dot\) stopped without drawing anything$"):
        render(graphviz.Digraph(), "svg")


def _inline_svg_by_patterns(svg: str) -> str:
    """The chart's markup as the web edition made it before it searched for each pattern's start
    (the ids' prefix, which that change left alone, by the edition's own step)."""
    import re

    from dtc.editions.web import _XML_DECLARATION, _chart_ids

    if (declaration := _XML_DECLARATION.match(svg)) is not None:
        svg = svg[declaration.end() :]
    svg = re.sub(r"<!DOCTYPE[^>[]*(\[[^\]]*\])?>", "", svg)
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    svg = re.sub(r"<script\b.*?</script\s*>", "", svg.strip(), flags=re.S | re.I)
    return _chart_ids(svg)


PIECES = ["<!--", "-->", "-", ">", "<", "!", "<!DOCTYPE svg", "[", "]", "<script", "<SCRIPT", "<\u017fcript",
          "<sCript", "</script>", "</script >", "script", " ", "\n", "x", ' id="a"', 'id="b"', "url(#c)",
          '<?xml version="1.0"?>', "<svg>", "</svg>", "\u212a", "\u0130"]


@given(st.lists(st.sampled_from(PIECES), max_size=30))
def test_the_chart_markup_is_the_same_as_by_patterns(pieces: list[str]) -> None:
    from dtc.editions.web import _inline_svg

    svg = "".join(pieces)
    assert _inline_svg(svg) == _inline_svg_by_patterns(svg)


@given(st.text(alphabet=st.sampled_from(list("&<>\"'\\\n a;#é\u2028")), max_size=40))
def test_the_escapes_are_the_tables(text: str) -> None:
    from dtc.render.graph import _HTML, _TOOLTIP, cut, esc, esc_tooltip

    assert esc(text) == cut(text).translate(_HTML)
    tip = cut(text).translate(_TOOLTIP)
    assert esc_tooltip(text) == (tip + " " if tip.endswith("\\") else tip)


def test_a_chart_that_cannot_be_saved_stops_the_build(tower: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The chart is saved beside the page being made: its error is still the build's, and the
    page that would show it is not written."""
    from dtc.fileio import OutputError

    on_path(monkeypatch, fake_graphviz(tmp_path, f"cat >/dev/null; printf '%s' '{SVG}'\n"))
    real = editions.write_text

    def full_disk(path: Any, text: str, **kwargs: Any) -> Any:
        if str(path).endswith(".svg"):
            raise OutputError(str(path), "no space left on device", 28)
        return real(path, text, **kwargs)

    monkeypatch.setattr(editions, "write_text", full_disk)
    out = tmp_path / "out"
    with pytest.raises(OutputError, match="no space left"):
        build(compile_text(TOWER).graph(), out, "tower", pdf=False)
    assert sorted(p.name for p in out.iterdir()) == ["tower.json", "tower.md", "tower.print.html"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX signals")
@pytest.mark.parametrize("command", ["build", "graph"])
def test_a_terminated_build_leaves_no_graphviz_running(tower: Path, tmp_path: Path, command: str) -> None:
    """SIGTERM (a service manager, `kill`, a closed session's SIGHUP alike) while Graphviz lays the
    chart out: dtc ends through its clean-ups with status 143, Graphviz is killed, and no
    half-written file is left."""
    import subprocess
    import sys

    pidfile = tmp_path / "graphviz.pid"
    folder = fake_graphviz(tmp_path, f'echo $$ > "{pidfile}"\nexec sleep 60\n')
    env = {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"}
    out = tmp_path / "out"
    args = (["build", str(tower), "-o", str(out), "--no-pdf"] if command == "build"
            else ["graph", str(tower), "-o", str(tmp_path / "tower.svg")])
    with (tmp_path / "stdout.txt").open("wb") as printed:  # a file of the test's own, never a device
        proc = subprocess.Popen([sys.executable, "-m", "dtc", *args], env=env, stdout=printed,
                                stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (pidfile.exists() and pidfile.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.02)
        graphviz = int(pidfile.read_text())
        assert alive(graphviz)
    finally:
        terminated(proc)
    deadline = time.monotonic() + 10
    while alive(graphviz) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(graphviz)
    left = [p.name for p in tmp_path.rglob("*") if p.name.endswith(".tmp")]
    assert left == []
    assert not (tmp_path / "tower.svg").exists()
