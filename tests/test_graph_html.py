"""`dtc graph book.txt -o book.html`: the interactive chart, its escaping and its lint marks, then
the page itself in headless Chromium (pan and zoom, go to entry N, the panel; no error, no request).

The browser tests use the same Chromium and Playwright as tests/test_build_browser.py.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from dtc.cli import main
from dtc.compiler.api import compile_text
from dtc.render.findings import place
from dtc.render.html import page, script_json
from helpers.browser import Page, browser  # noqa: F401  (the browser fixture)

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")

EVIL = '</script><script>alert("x")</script> <b>bold</b> & \u2028 "q" \'s\''
SOURCE = f"""Title: Charts {EVIL}
Start: 1

Adventure Entries

1 You stand at the **gate** of {EVIL}. Climb the wall (DEX D4, S2, F3) or sing (CHR D1, S3, F2)
or run (DEX D2, S3).

2 A quiet room. Open the door (D0, S3).

3 The end. THE END
"""


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def chart(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("dot") is None:
        pytest.skip("Graphviz is not installed")
    folder = tmp_path_factory.mktemp("chart")
    (folder / "book.txt").write_text(SOURCE, encoding="utf-8")
    code, _, err = run("graph", str(folder / "book.txt"), "-o", str(folder / "book.html"))
    assert code == 0, err
    return folder / "book.html"


def findings_of(text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from dtc.lint.engine import lint_compilation

    comp = compile_text(text, "book.txt")
    return comp.graph(), [d.to_dict() for d in lint_compilation(comp)]


def test_findings_sit_on_the_exits_of_their_choice() -> None:
    graph, found = findings_of(SOURCE)
    marks = place(graph, found)
    codes = {key: {f["code"] for f in fs} for key, fs in marks.exits.items()}
    assert "DT104" in codes[(1, 0)] and "DT104" in codes[(1, 1)]  # the D4: both its S and F
    assert "DT105" in codes[(1, 2)] and "DT105" in codes[(1, 3)]  # the unknown ability
    assert "DT102" in codes[(1, 4)]  # the check with no F: its only exit
    assert marks.worst_exit(1, 0) == "error" and marks.worst_exit(2, 0) is None


def test_script_json_cannot_end_the_script() -> None:
    text = script_json({"t": EVIL})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text)["t"] == EVIL


def test_page_escapes_what_the_author_wrote() -> None:
    graph, found = findings_of(SOURCE)
    svg = '<?xml version="1.0"?>\n<!DOCTYPE svg>\n<svg viewBox="0 0 10 10"></svg>'
    html = page(graph, svg, place(graph, found), 'note <i>"x"</i>')
    assert html.count("<script") == 2 and html.count("</script>") == 2
    assert "<b>bold</b>" not in html and "<i>" not in html
    assert "&lt;b&gt;bold&lt;/b&gt;" in html  # the title, as text
    assert "<?xml" not in html and "<!DOCTYPE svg" not in html


@needs_dot
def test_chart_from_a_source_marks_lint_errors(chart: Path) -> None:
    html = chart.read_text(encoding="utf-8")
    assert re.search(r'<g id="exit&#45;1&#45;0" class="edge exit success lint&#45;error"', html)
    assert "&#9888; DT104" in html or "⚠ DT104" in html
    assert "Lint findings marked" in html
    assert "**gate**" not in html  # markup stripped from previews
    assert "http://" not in html.replace("http://www.w3.org/", "")  # nothing to fetch


@needs_dot
def test_chart_from_compiled_json_says_it_has_no_findings(tmp_path: Path) -> None:
    src = tmp_path / "book.txt"
    src.write_text(SOURCE, encoding="utf-8")
    assert run("compile", str(src), "-o", str(tmp_path / "book.json"))[0] in (0, 1)
    code, _, err = run("graph", str(tmp_path / "book.json"), "--format", "html", "-o", str(tmp_path / "c.htm"))
    assert code == 0, err
    html = (tmp_path / "c.htm").read_text(encoding="utf-8")
    assert "no lint findings" in html and "lint-error" not in html


@needs_dot
def test_odds_keep_the_status_colours_and_print_the_chance(tmp_path: Path) -> None:
    src = tmp_path / "book.txt"
    src.write_text("Start: 1\n\n1 Door (D1, S2, F3).\n\n2 In. THE END\n\n3 Out. THE END\n", encoding="utf-8")
    code, dot, _ = run("graph", str(src), "--odds", "--format", "dot")
    assert code == 0
    assert dot.count('fillcolor="#ffe082"') >= 3  # both endings (and the legend) keep their gold
    assert 'fillcolor="#c8e6c9"' in dot  # the start stays green
    assert "chance of reaching the entry" in dot  # the shading's legend
    assert re.search(r"BGCOLOR=\"#[0-9a-f]{6}\"><FONT POINT-SIZE=\"10\" COLOR=\"#[0-9a-f]{6}\"><B>100%</B>", dot)


# --- in the browser ----------------------------------------------------------------------------


def view_box(page: Any) -> list[float]:
    return [float(v) for v in page.evaluate("document.querySelector('#viewport svg').getAttribute('viewBox')").split()]


@needs_dot
def test_pan_zoom_search_and_panel(browser: Any, chart: Path) -> None:  # noqa: F811
    with Page(browser) as pg:
        pg.goto(chart.as_uri())
        start = view_box(pg)
        box = pg.locator("#viewport").bounding_box()
        pg.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        pg.mouse.wheel(0, -400)
        pg.wait_for_timeout(100)
        zoomed = view_box(pg)
        assert zoomed[2] < start[2]  # wheel zooms in
        pg.mouse.down()
        pg.mouse.move(box["x"] + box["width"] / 2 - 120, box["y"] + box["height"] / 2 - 60, steps=6)
        pg.mouse.up()
        panned = view_box(pg)
        assert panned[0] > zoomed[0] and panned[2] == pytest.approx(zoomed[2])  # drag pans
        pg.click("#zoom-out")
        assert view_box(pg)[2] > panned[2]
        pg.focus("#viewport")
        pg.keyboard.press("ArrowRight")
        moved = view_box(pg)
        pg.keyboard.press("+")
        assert view_box(pg)[2] < moved[2]
        pg.keyboard.press("0")
        assert view_box(pg)[2] >= start[2] - 1  # fit shows it all again

        pg.fill("#entry-number", "3")
        pg.press("#entry-number", "Enter")
        assert pg.is_visible("#panel")
        assert pg.inner_text("#panel-title") == "Entry 3"
        assert "found" in (pg.get_attribute("#entry-3", "class") or "")
        pg.fill("#entry-number", "99")
        pg.press("#entry-number", "Enter")
        assert "no entry 99" in pg.inner_text("#goto-message")

        pg.keyboard.press("Escape")
        pg.locator("#entry-1").click()
        assert pg.inner_text("#panel-title") == "Entry 1"
        text = pg.inner_text("#panel-text")
        assert '</script><script>alert("x")</script> <b>bold</b>' in text and "**" not in text
        assert "DT104" in pg.inner_text("#panel-findings")
        assert "out" in (pg.get_attribute("#exit-1-0", "class") or "")
        assert "nb" in (pg.get_attribute("#entry-2", "class") or "")
        assert pg.evaluate("document.querySelectorAll('script').length") == 2
        assert pg.evaluate("document.querySelectorAll('header b, #panel b').length") == 0
        assert EVIL.split(" \u2028")[0] in pg.title()


@needs_dot
def test_a_clustered_book_in_the_browser(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    from helpers import benchmark

    src = tmp_path / "big.txt"
    src.write_text(benchmark("generate").generate(150, seed=2), encoding="utf-8")
    code, _, err = run("graph", str(src), "-o", str(tmp_path / "big.html"))
    assert code == 0, err
    with Page(browser) as pg:
        pg.goto((tmp_path / "big.html").as_uri())
        assert pg.locator("g.cluster").count() >= 3
        pg.fill("#entry-number", "1")
        pg.press("#entry-number", "Enter")
        assert pg.evaluate("document.activeElement.id") == "viewport"
        before = view_box(pg)
        pg.keyboard.press("-")
        assert view_box(pg)[2] > before[2]  # keys work straight after a search
        stub = pg.locator("g.node.connector.nb").first
        data = json.loads(pg.evaluate("document.getElementById('dtc-chart').textContent"))
        source, index = re.fullmatch(r"to-(\d+)-(\d+)", stub.get_attribute("id") or "").groups()  # type: ignore[union-attr]
        target = data["entries"][source]["out"][int(index)]["to"]
        stub.click()
        assert pg.inner_text("#panel-title") == f"Entry {target}"


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40), st.text(max_size=80))
def test_any_author_text_stays_text(title: str, text: str) -> None:
    from html.parser import HTMLParser

    from dtc.render.model import clean, plain

    graph, _ = findings_of(SOURCE)
    graph["title"] = title
    graph["entries"][1]["text"] = text
    html = page(graph, "<svg></svg>", None, title)

    class Count(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.tags: list[str] = []
            self.data = ""

        def handle_starttag(self, tag: str, attrs: Any) -> None:
            self.tags.append(tag)

        def handle_data(self, data: str) -> None:
            if self.tags and self.tags[-1] == "script" and "dtc-chart" in html and data.startswith("{"):
                self.data = data

    counter = Count()
    counter.feed(html)
    assert counter.tags.count("script") == 2 and "b" not in counter.tags and "i" not in counter.tags
    data = json.loads(counter.data)
    assert data["entries"]["2"]["text"].rstrip("…").rstrip() in plain(clean(text))
