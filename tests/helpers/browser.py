"""Headless Chromium for the browser tests: the ``browser`` fixture (registered in ``conftest.py``,
which marks every test that uses it ``browser``), a recording ``Page``, and the web edition's PRNG.

Needs the ``playwright`` Python package (its own browser download, ``playwright install``, is not
used) and Debian's Chromium, or another Chromium named by ``DTC_CHROMIUM``. When either is missing
the tests that use the fixture fail and say so.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("DTC_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
INSTALL = ("install them with: apt-get update && apt-get install -y chromium && pip install playwright "
           "(do not run `playwright install`; the tests drive the system Chromium)")
SHOTS = Path(__file__).resolve().parent.parent.parent / "build" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail(f"the browser tests need the playwright package; {INSTALL}")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Chromium at {CHROMIUM} (or set DTC_CHROMIUM); {INSTALL}")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


class Page:
    """A page in a fresh browser context that records every request and script error."""

    def __init__(self, browser: Any, viewport: dict[str, int] = DESKTOP, **options: Any) -> None:
        self.context = browser.new_context(viewport=viewport, **options)
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def __enter__(self) -> Any:
        return self.page

    def __exit__(self, *exc: object) -> None:
        self.context.close()
        assert not self.errors, self.errors
        outside = [u for u in self.requests if not u.startswith("file://")]
        assert not outside, f"the page made requests: {outside}"


def current(page: Any) -> str:
    return str(page.evaluate("document.querySelector('.page.current').id"))


def settle(page: Any, test: str, arg: str) -> str:
    """The current page's id once ``test`` holds of it, or after five seconds whatever it is.

    A click or a key on a link only changes the location's hash; the page turns in its
    ``hashchange`` handler, a task the browser runs a moment later, so reading at once races it.
    """
    from playwright.sync_api import TimeoutError as Timeout

    with contextlib.suppress(Timeout):
        page.wait_for_function(f"(want) => {{ const id = document.querySelector('.page.current').id; return {test}; }}",
                               arg=arg, timeout=5000)
    return current(page)


def assert_at(page: Any, want: str) -> None:
    assert settle(page, "id === want", want) == want


def stored(page: Any, holds: Callable[[dict[str, Any]], bool]) -> None:
    """Wait (up to ten seconds) until the sheet as stored ``holds``, read by a second page of the
    same browser at the cover (which stores nothing): Chromium hands a page's localStorage writes
    to its storage process a moment later, so a reload at once can read the sheet from before
    them (seen on a busy machine)."""
    other = page.context.new_page()
    try:
        deadline = time.monotonic() + 10
        while True:
            other.goto(page.url.split("#")[0])
            raw = other.evaluate("() => { const key = Object.keys(localStorage).find(k => k.endsWith(':sheet'));"
                                 " return key ? localStorage.getItem(key) : null; }")
            if (raw is not None and holds(json.loads(raw))) or time.monotonic() > deadline:
                return
            other.wait_for_timeout(50)
    finally:
        other.close()


def assert_left(page: Any, was: str) -> None:
    assert settle(page, "id !== want", was) != was


def mulberry32(seed: int) -> Iterator[float]:
    """The page's PRNG, step for step (32-bit arithmetic as in JavaScript)."""
    a = seed & 0xFFFFFFFF
    while True:
        a = (a + 0x6D2B79F5) & 0xFFFFFFFF
        t = ((a ^ (a >> 15)) * (1 | a)) & 0xFFFFFFFF
        t = ((t + (((t ^ (t >> 7)) * (61 | t)) & 0xFFFFFFFF)) & 0xFFFFFFFF) ^ t
        yield ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296


def rolls(seed: int, count: int) -> list[int]:
    gen = mulberry32(seed)
    return [1 + int(next(gen) * 6) for _ in range(count)]


def answer(page: Any, preferred: tuple[str, ...]) -> bool:
    """Answer the question a procedure played as play plays it shows (its buttons), taking the
    first offered of ``preferred`` (by words on the button), else the first button; False when no
    question is showing."""
    asked = page.locator(".page.current .encounter-play button.ep-option")
    if not asked.count():
        return False
    for label in preferred:
        wanted = page.locator(".page.current .encounter-play button.ep-option", has_text=label)
        if wanted.count():
            wanted.first.click()
            return True
    asked.first.click()
    return True


def at_entry(page: Any, number: int) -> None:
    """Wait until the page shows entry ``number``."""
    page.wait_for_function("n => document.querySelector('.page.current')?.id === 'entry-' + n", arg=number)


def begin(page: Any, scores: dict[str, str], hp: int) -> None:
    """Write an adventurer on the sheet (``scores``, and ``hp`` as HP and its maximum) and begin the
    adventure from the cover, at entry 1."""
    for ability, score in scores.items():
        page.fill(f"#sheet-ab-{ability}", score)
    page.fill("#sheet-hp", str(hp))
    page.fill("#sheet-hpmax", str(hp))
    page.click("#cover a.button.primary")
    at_entry(page, 1)


def walk_until_encounter(page: Any, turns: int) -> bool:
    """Go back and forth between entries 1 and 2 (each one's first way on) until a wandering
    encounter is being played on the page: whether one came within ``turns`` moves."""
    for _ in range(turns):
        here = int(page.evaluate("document.querySelector('.page.current').id.slice(6)"))
        page.locator(f"#entry-{here} .card.go a").first.click()
        at_entry(page, 3 - here)
        if page.locator(".page.current .encounter-play").count():
            return True
    return False


def download_run(page: Any, log: Path) -> list[dict[str, Any]]:
    """Save the reader's run with the sheet's "Download this run" as ``log``; its events."""
    with page.expect_download() as download:
        page.click("button[data-act='download']")
    download.value.save_as(log)
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def through_to(page: Any, number: int, preferred: tuple[str, ...], tries: int = 20) -> None:
    """Play on towards entry ``number``: answer what the page asks (the first of ``preferred`` offered,
    :func:`answer`), follow a flight or a fight's outcome where one is offered, else take the current
    entry's last way on; until the page shows ``number`` (at most ``tries`` steps)."""
    for _ in range(tries):
        while answer(page, preferred):
            pass
        if page.locator(f"#entry-{number}.current").count():
            return
        way = page.locator(".page.current .encounter-play a.flee-to, .page.current .encounter-play a.fight-exit")
        if way.count():
            way.first.click()
        else:
            here = int(page.evaluate("document.querySelector('.page.current').id.slice(6)"))
            page.locator(f"#entry-{here} .card.go a").last.click()
        page.wait_for_timeout(50)
