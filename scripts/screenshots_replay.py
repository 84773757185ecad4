#!/usr/bin/env python3
"""Regenerate the run-log screenshots in docs/img/ from the real page, in headless Chromium.

    python scripts/screenshots_replay.py

Builds the web edition of The Tallow King, The Drowned Chapel and The Broken Lighthouse in a
temporary folder, then,
with Playwright driving the system Chromium (``DTC_CHROMIUM``, default /usr/bin/chromium):

* ``edition-web-replay.png``: the cover's "Replay a run" after replaying the log of
  ``dtc play adventures/the-tallow-king.txt --auto cautious --seed 3 --log run.jsonl --no-save``;
* ``edition-web-download.png``: The Drowned Chapel's sheet after a new adventurer, Begin, the
  first way on and "Download this run" (``?seed=1``);
* ``edition-web-fight-as-play.png``: The Broken Lighthouse's first
  way on at ``?seed=2`` brings a wandering fight, played as ``dtc play`` plays it; one attack.

Nothing is fetched from the network.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"
CHROMIUM = os.environ.get("DTC_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def dtc(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "dtc", *args], check=False, cwd=ROOT)  # lint findings exit 1: still built


def main() -> int:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="dtc-shots-") as tmp:
        out = Path(tmp)
        king = ROOT / "adventures" / "the-tallow-king.txt"
        chapel = ROOT / "adventures" / "the-drowned-chapel.txt"
        lighthouse = ROOT / "adventures" / "the-broken-lighthouse.txt"
        log = out / "run.jsonl"
        dtc("play", str(king), "--auto", "cautious", "--seed", "3", "--log", str(log), "--no-save")
        dtc("build", str(king), "--no-pdf", "-o", str(out / "king"))
        dtc("build", str(chapel), "--no-pdf", "-o", str(out / "chapel"))
        dtc("build", str(lighthouse), "--no-pdf", "-o", str(out / "lighthouse"))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
            page = context.new_page()
            page.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file:") else r.abort())

            page.goto((out / "king" / "the-tallow-king.html").as_uri())
            page.locator("details.replay summary").click()
            page.select_option("#replay-speed", "0")
            page.set_input_files("#replay-file", str(log))
            page.wait_for_function("['match', 'diverged'].includes("
                                   "document.getElementById('replay-status').dataset.replay)")
            page.evaluate("window.location.hash = '#cover'")  # the replay ends on the run's last entry
            page.locator("details.replay").evaluate("d => { d.open = true; d.scrollIntoView({block: 'center'}); }")
            page.wait_for_timeout(150)
            page.screenshot(path=str(IMG / "edition-web-replay.png"))
            print("wrote docs/img/edition-web-replay.png")

            page.goto((out / "chapel" / "the-drowned-chapel.html").as_uri() + "?seed=1")
            page.click("button[data-act='roll-abilities']")
            page.click("#cover a.button.primary")
            page.locator(".page.current .card.go a").first.click()
            with page.expect_download():
                page.click("button[data-act='download']")
            page.locator(".sheet-status").evaluate("e => e.scrollIntoView({block: 'center'})")
            page.wait_for_timeout(150)
            page.screenshot(path=str(IMG / "edition-web-download.png"))
            print("wrote docs/img/edition-web-download.png")

            page.goto((out / "lighthouse" / "the-broken-lighthouse.html").as_uri() + "?seed=2")
            page.click("button[data-act='roll-abilities']")
            page.click("#cover a.button.primary")
            page.locator(".page.current .choices:not(.ending) .card.go a").first.click()
            page.locator(".page.current .encounter-play button.ep-option").first.click()  # an attack
            page.locator(".page.current .encounter-play").evaluate("e => e.scrollIntoView({block: 'center'})")
            page.wait_for_timeout(150)
            page.screenshot(path=str(IMG / "edition-web-fight-as-play.png"))
            print("wrote docs/img/edition-web-fight-as-play.png")
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
