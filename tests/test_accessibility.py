"""An accessibility pass with axe-core over everything a reader or an author opens in a browser.

axe-core is the engine behind most accessibility checkers (Lighthouse, the browsers' audit tools);
its JavaScript comes from the ``axe-playwright-python`` package (in the ``test`` extra), which
ships it inside the wheel, so the pass runs offline. Chromium and Playwright are those of
tests/test_build_browser.py. For each bundled book:

- the **web edition** as a reader without JavaScript sees it (every entry on one page, the cover's
  flowchart open) and as one with JavaScript sees it (the sheet and the rollers, at the start
  entry): no serious or critical violation;
- the **interactive chart** (``dtc graph book.txt -o book.html``) with an entry's panel open:
  no violation at all;
- the **ebook**'s front pages and each section page that brings markup the others do not have:
  no violation at all.

Contrast depends on the colour scheme: the stylesheets' dark colours are checked on one book.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.compiler.api import compile_text
from dtc.editions import build
from helpers.browser import Page, browser  # noqa: F401  (the browser fixture)

ROOT = Path(__file__).resolve().parent.parent
BOOKS = sorted((ROOT / "adventures").glob("*.txt"))
DARK_BOOK = "the-drowned-chapel"
SERIOUS = ("serious", "critical")


def axe_script() -> str:
    try:
        from axe_playwright_python.base import AXE_SCRIPT
    except ImportError:
        pytest.fail("the accessibility tests need axe-core: pip install axe-playwright-python "
                    "(it is in the test extra: pip install -e '.[test]')")
    return str(AXE_SCRIPT)


def violations(page: Any, impacts: tuple[str, ...] | None = None) -> list[str]:
    """axe-core's violations on the page as it is now, one line each (rule, impact, where, why)."""
    page.evaluate(axe_script())
    found = page.evaluate("axe.run(document, {resultTypes: ['violations']})")["violations"]
    lines = []
    for v in found:
        if impacts is not None and v["impact"] not in impacts:
            continue
        for node in v["nodes"][:3]:
            why = " ".join(node.get("failureSummary", "").split())
            lines.append(f"{v['id']} ({v['impact']}) at {' '.join(map(str, node['target']))}: {why} "
                         f"[{' '.join(node['html'].split())[:160]}]")
    return lines


@dataclass(frozen=True)
class Built:
    web: Path
    chart: Path
    epub: Path
    start: int | None


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Built]]:
    out: dict[str, Built] = {}
    for path in BOOKS:
        folder = tmp_path_factory.mktemp(path.stem)
        graph = compile_text(path.read_text(encoding="utf-8"), path.name).graph()
        result = build(graph, folder, path.stem, pdf=False, epub=True)
        assert (folder / f"{path.stem}.svg").exists(), result.warnings
        done = CliRunner().invoke(main, ["graph", str(path), "-o", str(folder / "chart.html")])
        assert (folder / "chart.html").exists(), done.output
        pages = folder / "epub"
        with zipfile.ZipFile(folder / f"{path.stem}.epub") as archive:
            archive.extractall(pages)
        start = graph.get("start")
        out[path.stem] = Built(folder / f"{path.stem}.html", folder / "chart.html", pages,
                               start if isinstance(start, int) else None)
    yield out


def schemes(name: str) -> list[str]:
    return ["light", "dark"] if name == DARK_BOOK else ["light"]


@pytest.mark.parametrize("name", [p.stem for p in BOOKS])
def test_web_edition(browser: Any, books: dict[str, Built], name: str) -> None:  # noqa: F811
    built = books[name]
    found: list[str] = []
    for scheme in schemes(name):
        with Page(browser, color_scheme=scheme) as page:
            # Without JavaScript every entry is on the page: one pass checks them all.
            page.goto(built.web.as_uri())
            page.evaluate("document.documentElement.classList.remove('js');"
                          "document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            found += [f"{scheme}, no script: {v}" for v in violations(page, SERIOUS)]
            # With JavaScript: the sheet, the rollers and the start entry.
            page.goto(built.web.as_uri() + (f"#entry-{built.start}" if built.start is not None else ""))
            page.reload()
            found += [f"{scheme}, at the start: {v}" for v in violations(page, SERIOUS)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("name", [p.stem for p in BOOKS])
def test_interactive_chart(browser: Any, books: dict[str, Built], name: str) -> None:  # noqa: F811
    built = books[name]
    with Page(browser) as page:
        page.goto(built.chart.as_uri())
        found = [f"chart: {v}" for v in violations(page)]
        if built.start is not None:  # an entry's panel: text, exits, entrances, findings
            page.fill("#entry-number", str(built.start))
            page.press("#entry-number", "Enter")
            page.wait_for_selector("#panel:not([hidden])")
            found += [f"chart with the panel open: {v}" for v in violations(page)]
    assert found == [], "\n".join(found)


def new_markup(pages: list[Path]) -> list[Path]:
    """The pages that each bring some markup no page before them has: an element of a class
    inside a parent of a class. The pages between hold the same kinds of element as those checked
    (other words, other numbers), and axe-core takes a third of a second a page."""
    seen: set[tuple[str, str, str, str]] = set()
    chosen = []
    for path in pages:
        root = ElementTree.parse(path).getroot()
        pairs = {(parent.tag, parent.get("class", ""), child.tag, child.get("class", ""))
                 for parent in root.iter() for child in parent}
        if not pairs <= seen:
            chosen.append(path)
            seen |= pairs
    return chosen


@pytest.mark.parametrize("name", [p.stem for p in BOOKS])
def test_ebook_pages(browser: Any, books: dict[str, Built], name: str) -> None:  # noqa: F811
    every = sorted(books[name].epub.rglob("*.xhtml"))
    front = [p for p in every if not p.name[1:-6].isdigit()]
    pages = front + new_markup([p for p in every if p not in front])
    assert len(front) >= 4 and len(pages) > len(front)
    found: list[str] = []
    for scheme in schemes(name):
        with Page(browser, color_scheme=scheme) as page:
            for xhtml in pages:
                page.goto(xhtml.as_uri())
                found += [f"{scheme}, {xhtml.name}: {v}" for v in violations(page)]
    assert found == [], "\n".join(found)


def test_the_checker_finds_what_it_should(browser: Any) -> None:  # noqa: F811
    """A page with no language and an unlabelled field: axe-core ran, and says so."""
    with Page(browser) as page:
        page.set_content("<!DOCTYPE html><html><head><title>t</title></head><body><main><input></main></body></html>")
        found = violations(page, SERIOUS)
    assert any(v.startswith("html-has-lang (serious)") for v in found), found
    assert any(v.startswith("label (critical)") for v in found), found
