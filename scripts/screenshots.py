#!/usr/bin/env python3
"""Regenerate the screenshots in docs/img/ from the real commands, in headless Chromium.

    python scripts/screenshots.py            # everything
    python scripts/screenshots.py --charts   # only the flowcharts

Builds, in a temporary folder: the interactive chart of The Drowned Chapel and of a generated
400-entry book (``benchmarks/generate.py 400``), the ``--odds`` chart, and the editions of The
Drowned Chapel (``dtc build --epub``: web, print and the EPUB's first section), then photographs
them with Playwright driving the system Chromium (``DTC_CHROMIUM``, default /usr/bin/chromium;
``pip install playwright``, its own browser download is not needed). Nothing is fetched from the
network. Needs Graphviz.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"
CHAPEL = ROOT / "adventures" / "the-drowned-chapel.txt"
CHROMIUM = os.environ.get("DTC_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
DESKTOP = {"width": 1280, "height": 800}


def dtc(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "dtc", *args], check=True, cwd=ROOT)


def shoot(browser: Any, url: str, name: str, steps: list[tuple[str, str]] | None = None,
          viewport: dict[str, int] = DESKTOP) -> None:
    """Open ``url``, do ``steps`` (("fill"|"click"|"press"|"key"|"wheel", argument)), save docs/img/NAME."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
    page.goto(url)
    for action, arg in steps or []:
        if action == "fill":
            selector, value = arg.split("=", 1)
            page.fill(selector, value)
        elif action == "click":
            page.locator(arg).first.click()
        elif action == "press":
            selector, key = arg.split("=", 1)
            page.press(selector, key)
        elif action == "key":
            page.keyboard.press(arg)
        page.wait_for_timeout(150)
    page.screenshot(path=str(IMG / name))
    context.close()
    print(f"wrote docs/img/{name}")


def web_play_steps() -> list[tuple[str, str, list[tuple[str, str]]]]:
    """The web edition in play: a "needs two of" check rolled, and a stat block's fight helper."""
    new = ("click", "button[data-act='roll-abilities']")
    return [
        ("edition-web-play.png", "#entry-1", [new, ("click", "#entry-1 input[value='turn+check']"),
                                              ("click", "#entry-1 button.roll")]),
        ("edition-web-fight.png", "#entry-36", [new, ("click", "#entry-36 details.fight summary"),
                                                ("click", "#entry-36 button[data-fight='round']"),
                                                ("click", "#entry-36 button[data-fight='attack']")]),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--charts", action="store_true", help="only the flowcharts, not the editions")
    options = parser.parse_args()
    from playwright.sync_api import sync_playwright

    IMG.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="dtc-shots-") as tmp:
        out = Path(tmp)
        big = out / "book-400.txt"
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), "400", "-o", str(big)],
                       check=True, cwd=ROOT)
        dtc("graph", str(CHAPEL), "-o", str(out / "chapel.html"))
        dtc("graph", str(big), "-o", str(out / "big.html"))
        dtc("graph", str(CHAPEL), "--odds", "-o", str(out / "odds.html"))
        if not options.charts:
            subprocess.run([sys.executable, "-m", "dtc", "build", str(CHAPEL), "--epub", "--no-pdf", "-o",
                            str(out / "build")], check=False, cwd=ROOT)  # lint findings exit 1: still built
            with zipfile.ZipFile(next((out / "build").glob("*.epub"))) as epub:
                epub.extractall(out / "epub")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            shoot(browser, (out / "chapel.html").as_uri(), "chart-chapel.png")
            shoot(browser, (out / "chapel.html").as_uri(), "chart-chapel-panel.png",
                  [("fill", "#entry-number=1"), ("press", "#entry-number=Enter")])
            shoot(browser, (out / "big.html").as_uri(), "chart-400.png")
            shoot(browser, (out / "big.html").as_uri(), "chart-400-search.png",
                  [("fill", "#entry-number=120"), ("press", "#entry-number=Enter"), ("key", "-")])
            shoot(browser, (out / "odds.html").as_uri(), "chart-odds.png",
                  [("key", "+"), ("key", "+")])
            if not options.charts:
                build = out / "build"
                web = next(p for p in build.glob("*.html") if not p.name.endswith(".print.html"))
                shoot(browser, web.as_uri(), "edition-web.png")
                shoot(browser, web.as_uri(), "edition-web-phone.png", viewport={"width": 390, "height": 844})
                for name, fragment, steps in web_play_steps():
                    shoot(browser, web.as_uri() + "?seed=4" + fragment, name, steps, {"width": 1280, "height": 1150})
                shoot(browser, next(build.glob("*.print.html")).as_uri(), "edition-print.png")
                pages = sorted((out / "epub").rglob("*.xhtml"))
                section = next((x for x in pages if "nav" not in x.name), pages[0])
                shoot(browser, section.as_uri(), "edition-epub.png", viewport={"width": 600, "height": 800})
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
