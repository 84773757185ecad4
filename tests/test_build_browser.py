"""The web edition in a real browser: headless Chromium driven by Playwright, from file://.

Needs the ``playwright`` Python package (``pip install playwright``; its own browser download,
``playwright install``, is not used) and Debian's Chromium (``apt-get install -y chromium``), or
another Chromium named by ``DTC_CHROMIUM``. When either is missing these tests fail and say so.
Screenshots (desktop and phone) are left in ``build/screenshots/`` for people to look at.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from dtc.compiler.api import compile_text
from dtc.editions import build
from dtc.systems import get_ruleset
from helpers import require_sample_dungeon
from helpers.browser import DESKTOP, PHONE, SHOTS, Page, assert_at, assert_left, rolls, settle, stored
from helpers.tower import CARVING, CAUSEWAY, HALL, SHORE, STAIR, SURF, WALL_TOP, tower_graph


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("edition")
    build(tower_graph(), out, "tower", pdf=False)
    return (out / "tower.html").as_uri()


def test_links_back_and_forward(browser: Any, book: str) -> None:
    with Page(browser) as page:
        page.goto(book + "?seed=2")  # a seed whose turn at the causeway meets no wandering creature
        assert_at(page, "cover")
        page.click("a.button.primary")
        assert_at(page, f"entry-{SHORE}")
        assert page.evaluate("document.activeElement.id") == f"entry-{SHORE}-h"
        assert page.locator(f"#entry-{CAUSEWAY}").is_hidden()
        page.click(f"#entry-{SHORE} .card.go a.action")
        assert_at(page, f"entry-{CAUSEWAY}")
        gate = page.locator(f"#entry-{CAUSEWAY} .card.check")
        gate.locator("input[value='turn']").check()  # D1: spending a turn alone meets it
        gate.locator("button.roll").click()
        assert "You spend a turn." in gate.locator(".result").inner_text()
        gate.locator("a.continue").click()
        assert_at(page, f"entry-{HALL}")
        page.go_back()
        assert_at(page, f"entry-{CAUSEWAY}")
        page.go_back()
        assert_at(page, f"entry-{SHORE}")
        page.go_forward()
        assert_at(page, f"entry-{CAUSEWAY}")
        page.goto(book + "#entry-999")
        assert_at(page, "cover")
        assert "no entry 999" in page.inner_text("#notice")


def test_prose_exit_and_return_to_where_you_came_from(browser: Any, book: str) -> None:
    with Page(browser) as page:
        page.goto(book + f"#entry-{WALL_TOP}")
        assert page.locator(f"#entry-{WALL_TOP} .prose a").count() == 0  # the card below is the control
        page.click(f"#entry-{WALL_TOP} .card.go a.action")
        assert_at(page, f"entry-{HALL}")
        page.goto(book + f"#entry-{CAUSEWAY}")
        gate = page.locator(f"#entry-{CAUSEWAY} .card.check")
        gate.locator("input[value='gear']").check()
        gate.locator("select.gear").select_option("-")  # nothing suitable: this way fails
        gate.locator("button.roll").click()
        gate.locator("a.continue").click()
        assert_at(page, f"entry-{SURF}")
        came = page.locator(f"#entry-{SURF} a.came-from")
        assert came.count() == 1 and came.get_attribute("href") == f"#entry-{CAUSEWAY}"


def seed_for(success: bool, count: int, score: int) -> int:
    return next(s for s in range(1000) if (sum(rolls(s, count)) <= score) == success)


@pytest.mark.parametrize("success", [True, False])
def test_seeded_roll_follows_success_or_failure(browser: Any, book: str, success: bool) -> None:
    seed = seed_for(success, 3, 10)
    dice = rolls(seed, 3)
    with Page(browser) as page:
        page.goto(book + f"?seed={seed}#entry-{SHORE}")
        card = page.locator(f"#entry-{SHORE} .card.check")
        card.locator("button.roll").click()
        assert card.locator(".result").inner_text() == "Choose how you go about it first."
        card.locator("input[value='gear+check']").check()
        card.locator("select.gear").select_option("Rope (50 ft.)")
        card.locator("button.roll").click()
        assert "Enter your DEX score" in card.locator(".result").inner_text()
        assert page.evaluate("document.activeElement.id") == "sheet-ab-DEX"
        page.fill("#sheet-ab-DEX", "10")
        page.goto(book + f"?seed={seed}#entry-{SHORE}")
        page.reload()  # a fresh page: the roller starts from the seed again
        if page.input_value("#sheet-ab-DEX") != "10":
            # Chromium hands localStorage writes to its storage process a moment later, so a
            # reload at once (on a busy machine) can read the sheet from before the write; the
            # sheet is not what this test is about, and typing a score draws no dice.
            page.fill("#sheet-ab-DEX", "10")
        card = page.locator(f"#entry-{SHORE} .card.check")
        card.locator("input[value='gear+check']").check()
        card.locator("select.gear").select_option("Rope (50 ft.)")
        card.locator("button.roll").click()
        total = sum(dice)
        text = card.locator(".result").inner_text()
        word = "success" if success else "failure"
        assert text.startswith(f"You use your Rope (50 ft.). Rolled {' + '.join(map(str, dice))} = {total} "
                               f"against DEX 10: {word}."), text
        # One roll per attempt: the result stays, the controls are spent, even after a reload.
        assert card.locator("button.roll").is_disabled()
        stored(page, lambda sheet: bool(sheet.get("attempts")))
        page.reload()
        card = page.locator(f"#entry-{SHORE} .card.check")
        assert card.locator(".result").inner_text() == text and card.locator("button.roll").is_disabled()
        card.locator("a.continue").click()
        assert_at(page, f"entry-{WALL_TOP if success else SURF}")


def test_check_without_an_ability_uses_the_chosen_one(browser: Any, book: str) -> None:
    with Page(browser) as page:
        page.goto(book + "?seed=7#cover")
        for ability in ("STR", "DEX", "CON", "WIS", "INT", "CHA"):
            page.fill(f"#sheet-ab-{ability}", "12")
        page.fill("#sheet-hp", "40")
        page.fill("#sheet-hpmax", "40")
        page.goto(book + f"?seed=7#entry-{HALL}")
        # The crabman's fight comes first, as play plays it on arrival (Death & Treasure): won by blows.
        for _ in range(100):
            asked = page.locator(f"#entry-{HALL} .encounter-play button.ep-option")
            if not asked.count():
                break
            asked.first.click()
        card = page.locator(f"#entry-{HALL} .card.check")
        card.locator("input[value='check']").check()
        card.locator("select.ability").select_option("WIS")
        card.locator("button.roll").click()
        text = card.locator(".result").inner_text()
        found = re.match(r"Rolled (\d) \+ (\d) = (\d+) against WIS 12", text)
        assert found, text
        target = CARVING if int(found.group(3)) <= 12 else STAIR
        assert card.locator("a.continue").get_attribute("href") == f"#entry-{target}"


def test_sheet_is_kept_across_reloads(browser: Any, book: str) -> None:
    with Page(browser) as page:
        page.goto(book + f"#entry-{SHORE}")
        page.fill("#sheet-name", "Wren")
        page.fill("#sheet-hp", "6")
        page.fill("#sheet-hpmax", "7")
        page.fill("#sheet-ab-STR", "13")
        page.fill("#sheet-items", "rope, 3 gems")
        page.click("button[data-act='hp-1']")
        page.click(f"#entry-{SHORE} .card.go a.action")  # a move: one turn passes, the lantern burns
        assert_at(page, f"entry-{CAUSEWAY}")  # (the page turns, and the turn passes, a moment after the click)
        stored(page, lambda sheet: sheet["fields"].get("turn") == "2")
        page.reload()
        assert_at(page, f"entry-{CAUSEWAY}")
        names = ("name", "hp", "hpmax", "ab-STR", "items", "turn", "light")
        values = {f: page.input_value(f"#sheet-{f}") for f in names}
        assert values == {"name": "Wren", "hp": "5", "hpmax": "7", "ab-STR": "13", "items": "rope, 3 gems",
                          "turn": "2", "light": "23"}
        page.goto(book)
        assert page.locator(".resume").inner_text() == f"Resume at {CAUSEWAY}"


def test_author_scripts_never_run(browser: Any, book: str) -> None:
    with Page(browser) as page:
        page.goto(book + f"#entry-{CARVING}")
        prose = page.inner_text(f"#entry-{CARVING} .prose")
        assert "<script>window.pwned=1</script>" in prose
        assert '<img src=x onerror="window.pwned=2">' in prose
        assert page.locator("img").count() == 0
        page.wait_for_timeout(100)
        assert page.evaluate("typeof window.pwned") == "undefined"
        assert "Test Author <tests@example.org>" in page.inner_text("#cover")


def test_keyboard_only(browser: Any, book: str) -> None:
    with Page(browser) as page:
        page.goto(book)
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.className") == "skip"
        page.focus("a.button.primary")
        page.keyboard.press("Enter")
        assert_at(page, f"entry-{SHORE}")
        page.keyboard.press("Tab")
        focused = page.evaluate("[document.activeElement.tagName, document.activeElement.closest('.entry').id]")
        assert focused == ["A", f"entry-{SHORE}"]
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline == "solid"
        page.keyboard.press("Enter")
        assert_left(page, f"entry-{SHORE}")


LUMINANCE = """
(sel) => {
  const el = document.querySelector(sel);
  const rgb = (c) => c.match(/[0-9.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  let node = el, bg = null;
  while (node && node.nodeType === 1) {
    const c = getComputedStyle(node).backgroundColor;
    if (c && !/rgba\\(.*, 0\\)$/.test(c) && c !== 'transparent') { bg = rgb(c); break; }
    node = node.parentElement;
  }
  const a = lum(rgb(getComputedStyle(el).color)), b = lum(bg || [255, 255, 255]);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_accessible_structure_and_contrast(browser: Any, book: str, scheme: str) -> None:
    with Page(browser, color_scheme=scheme) as page:
        page.goto(book + f"#entry-{SHORE}")
        assert page.evaluate("document.documentElement.lang") == "en"
        unlabelled = page.evaluate(
            "[...document.querySelectorAll('input, select, textarea')].filter(e => !e.labels.length).map(e => e.id)"
        )
        assert unlabelled == []
        assert page.locator("#cover h1").count() == 1
        assert page.locator("article.entry > h2").count() == 7
        assert page.locator(".check .result[aria-live='polite']").count() >= 1
        for selector in (f"#entry-{SHORE} .prose p", f"#entry-{SHORE} .chip", f"#entry-{SHORE} .plan label",
                         f"#entry-{SHORE} .card.go a.action", f"#entry-{SHORE} .hint",
                         f"#entry-{SHORE} .gear-pick label",
                         f"#entry-{SHORE} button.roll", ".sheet label", ".masthead nav a"):
            ratio = page.evaluate(LUMINANCE, selector)
            assert ratio >= 4.5, f"{selector}: contrast {ratio:.2f} in {scheme} mode"


def test_screenshots_desktop_and_phone(browser: Any, book: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        with Page(browser, viewport) as page:
            page.goto(book + "?seed=3")
            page.screenshot(path=str(SHOTS / f"web-{name}-cover.png"))
            page.goto(book + f"?seed=3#entry-{SHORE}")
            if name == "phone":
                page.click(".masthead .to-sheet")  # the sheet is folded away on a phone
            page.fill("#sheet-ab-DEX", "11")
            page.goto(book + f"?seed=3#entry-{SHORE}")
            page.check(f"#entry-{SHORE} input[value='turn+check']")
            page.click(f"#entry-{SHORE} button.roll")
            page.screenshot(path=str(SHOTS / f"web-{name}-entry.png"), full_page=name == "phone")
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"{name}: the page is {overflow}px wider than the screen"
            if name == "phone":
                page.click(".masthead .to-sheet")
                page.screenshot(path=str(SHOTS / "web-phone-sheet.png"))
    for shot in SHOTS.glob("web-*.png"):
        assert shot.stat().st_size > 10_000


def test_flowchart_nodes_lead_to_their_entries(browser: Any, tmp_path: Path) -> None:
    text = require_sample_dungeon()
    result = build(compile_text(text, "sample.txt").graph(), tmp_path, "sample", pdf=False)
    if not (tmp_path / "sample.svg").exists():
        pytest.fail(f"no flowchart was drawn: {result.warnings}")
    with Page(browser) as page:
        page.goto((tmp_path / "sample.html").as_uri())
        page.click(".flowchart summary")
        page.locator(".chart a[*|href='#entry-25']").first.click()
        assert_at(page, "entry-25")
        assert page.locator("#entry-25 .card.check").get_attribute("data-ability") == "DEX"


@pytest.mark.parametrize("fragment", ["#%", "#%E0%A4%A", "#entry-%ZZ", "#%00"])
def test_a_malformed_fragment_shows_the_cover(browser: Any, book: str, fragment: str) -> None:
    """``book.html#%`` once blanked the page: decodeURIComponent throws on a bad escape."""
    with Page(browser) as page:
        page.goto(book + fragment)
        assert_at(page, "cover")
        assert page.locator("#cover").is_visible()


def test_the_sheet_keeps_possessions_and_gates_open_only_when_held(browser: Any,
                                                                     tmp_path_factory: pytest.TempPathFactory) -> None:
    src = ("Title: Keys\n\nAdventure Entries\n\n"
           "1 A hall. The **Door** (D0, S3, if stone key). The **Crypt** (D0, S2).\n\n"
           "2 A key on a hook. [+stone key] Back up (D0, S1).\n\n3 Behind the door. THE END (victory)\n")
    out = tmp_path_factory.mktemp("keys")
    build(compile_text(src, "keys.txt").graph(), out, "keys", pdf=False)
    with Page(browser) as page:
        page.goto((out / "keys.html").as_uri() + "#entry-1")
        assert_at(page, "entry-1")
        door = "#entry-1 [data-needs]"
        assert "closed" in (page.get_attribute(door, "class") or "")
        page.click("#entry-1 .card.go:not([data-needs]) a.action")
        assert_at(page, "entry-2")
        assert page.input_value('[data-field="has-0"]') == "1"
        page.click("#entry-2 .card.go a.action")
        assert_at(page, "entry-1")
        assert "closed" not in (page.get_attribute(door, "class") or "")
        page.click(f"{door} a.action")
        assert_at(page, "entry-3")


# --- every bundled book, played by keyboard alone ------------------------------------------------

ADVENTURES = Path(__file__).resolve().parent.parent / "adventures"
BOOKS = sorted(p.stem for p in ADVENTURES.glob("*.txt"))


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, dict[str, Any]]]:
    out = tmp_path_factory.mktemp("bundled")
    books = {}
    for name in BOOKS:
        graph = compile_text((ADVENTURES / f"{name}.txt").read_text(encoding="utf-8"), f"{name}.txt").graph()
        build(graph, out, name, pdf=False)
        books[name] = ((out / f"{name}.html").as_uri(), graph)
    return books


def distances(graph: dict[str, Any]) -> dict[int, int]:
    """Moves from each entry to the nearest ending, over choices a reader can always take."""
    back: dict[int, set[int]] = {}
    for e in graph["entries"]:
        for c in e["choices"]:
            if c["error"] or c.get("condition") is not None:
                continue
            targets = [b["target"] for b in c["roll"]["branches"]] if c.get("roll") else [c["success"]]
            for t in targets:
                if isinstance(t, int):
                    back.setdefault(t, set()).add(e["number"])
        for x in e["exits"]:
            if x["kind"] == "prose" and isinstance(x["target"], int):
                back.setdefault(x["target"], set()).add(e["number"])
    far = {e["number"]: 0 for e in graph["entries"] if e["ending"]}
    frontier = list(far)
    while frontier:
        nxt = []
        for n in frontier:
            for m in back.get(n, ()):
                if m not in far:
                    far[m] = far[n] + 1
                    nxt.append(m)
        frontier = nxt
    return far


def focused(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("""() => { const e = document.activeElement;
        return {tag: e.tagName, cls: e.className || '', href: e.getAttribute('href') || '', value: e.value || '',
                type: e.type || '', text: (e.textContent || '').trim()}; }"""))


def tab_to(page: Any, test: str, limit: int = 300) -> None:
    """Press Tab until the focused element passes ``test`` (a JS expression over ``e``)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => {{ const e = document.activeElement; return !!({test}); }}"):
            return
    raise AssertionError(f"Tab never reached {test}; focus is on {focused(page)}")


def best_card(graph: dict[str, Any], number: int, far: dict[int, int]) -> tuple[str, int]:
    """(selector of the card to use, its index) at entry ``number``: the choice nearest an ending."""
    entry = next(e for e in graph["entries"] if e["number"] == number)
    ranked = []
    for i, c in enumerate(entry["choices"]):
        if c["error"] or c.get("condition") is not None:
            continue
        targets = [b["target"] for b in c["roll"]["branches"]] if c.get("roll") else [c["success"]]
        reach = [far[t] for t in targets if isinstance(t, int) and t in far]
        if reach:
            ranked.append((min(reach), i))
    assert ranked, f"entry {number}: no choice leads to an ending"
    return f"[data-card='e{number}c{ranked[0][1]}']", ranked[0][1]


@pytest.mark.parametrize("name", BOOKS)
def test_each_bundled_book_plays_to_an_ending_by_keyboard(browser: Any, bundled: dict[str, Any],
                                                           name: str) -> None:
    url, graph = bundled[name]
    far = distances(graph)
    console: list[str] = []
    with Page(browser) as page:
        page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
        page.goto(url + "?seed=11")
        # A new adventurer, rolled by the system's own rules, by keyboard.
        tab_to(page, "e.dataset.act === 'roll-abilities'")
        page.keyboard.press("Space")
        made = page.inner_text(".sheet-status")
        assert made.startswith("A new adventurer: "), made
        best = get_ruleset(graph["rules"]).score_range[1]
        for ability in graph_abilities(page):
            assert page.input_value(f"[id='sheet-ab-{ability}']") != "", ability
            # A strong adventurer, typed in by keyboard, so that the walk reaches an ending in few moves.
            tab_to(page, f"e.id === 'sheet-ab-{ability}'")
            page.keyboard.press("Control+A")
            page.keyboard.type(str(best))
        page.evaluate("window.scrollTo(0, 0); document.querySelector('a.skip').focus()")
        tab_to(page, "e.classList.contains('primary')")
        page.keyboard.press("Enter")
        at = settle(page, "id.startsWith('entry-')", "")
        visits: dict[int, int] = {}
        tries: dict[tuple[int, int], int] = {}
        trail = [at]
        goal = far if any(e["ending"] for e in graph["entries"]) else {graph["start"]: 0}
        for _step in range(120):
            number = int(at.removeprefix("entry-"))
            visits[number] = visits.get(number, 0) + 1
            if goal.get(number) == 0 and (number != graph["start"] or len(visits) > 1):
                break
            here = f"#{at}"
            entry = next(e for e in graph["entries"] if e["number"] == number)
            # The nearest way to the goal among the choices open now; places seen often cost more.
            moves: list[tuple[int, str, int | None]] = []
            for i, c in enumerate(entry["choices"]):
                box = page.locator(f'{here} [data-card="e{number}c{i}"]')
                if c["error"] or not box.count() or "closed" in (box.get_attribute("class") or ""):
                    continue
                tried = 4 * tries.get((number, i), 0)
                reach = [goal.get(t, far.get(t, 99)) + 3 * visits.get(t, 0) + tried for t in targets_of(c)
                         if isinstance(t, int)]
                if reach:
                    moves.append((min(reach), f'[data-card="e{number}c{i}"]', None))
            moves += [(goal.get(t, far.get(t, 99)) + 3 * visits.get(t, 0), "", t) for x in entry["exits"]
                      if x["kind"] in ("prose", "return") and isinstance(t := x["target"], int)]
            # What the page plays as play does (Death & Treasure: an entry's fight), by keyboard: the
            # first answer each time; then the way its outcome leaves, if any.
            if play_out(page, here):
                tab_to(page, f"e.tagName === 'A' && !!e.closest('{here} .encounter-play')")
                page.keyboard.press("Enter")
                at = settle(page, "id !== want", at)
                trail.append(at)
                continue
            assert moves, f"{name}: entry {number} has no way on"
            _, card, target = min(moves, key=lambda m: (m[0], m[1] == ""))
            if card:
                key = (number, int(card.split("c")[-1].rstrip('"]')))
                tries[key] = tries.get(key, 0) + 1
            page.evaluate(f"document.getElementById('{at}-h').focus()")
            if card and "go" not in (page.locator(f"{here} {card}").get_attribute("class") or ""):
                play_card(page, here, card)
            else:
                where = f"e.closest('{here} {card}')" if card else f"e.closest('{here} .choices')"
                want = f"e.getAttribute('href') === '#entry-{target}'" if target is not None else "true"
                tab_to(page, f"e.tagName === 'A' && {where} && {want}")
                page.keyboard.press("Enter")
            new = settle(page, "id !== want", at)
            if new == at:  # a check that leads back to its own entry: a new visit, a fresh attempt
                assert page.locator(f"{here} .done").count() == 0, f"{name}: stuck at {at}"
            at = new
            trail.append(at)
        else:
            pytest.fail(f"{name}: no ending within 120 moves: {trail}")
        number = int(at.removeprefix("entry-"))
        if not any(e["ending"] for e in graph["entries"]):
            page.evaluate(f"document.getElementById('{at}-h').focus()")
            tab_to(page, "e.matches('button.leave')")
            page.keyboard.press("Enter")
            assert page.locator(f"#{at} .choices.ending.escaped h3").inner_text() == "You escaped"
            at_ending = f"#{at} .choices.ending.escaped"
        else:
            kind = next(e for e in graph["entries"] if e["number"] == number).get("ending_kind")
            heading = page.locator(f"#{at} .choices.ending h3").inner_text()
            assert heading == {"victory": "Victory", "death": "You have died"}.get(kind, "The end")
            at_ending = f"#{at} .choices.ending"
        assert "What will you do?" not in page.locator(f"#{at}").inner_text() or at_ending.endswith("escaped")
        tab_to(page, f"e.classList.contains('play-again') && e.closest('{at_ending}')")
        page.keyboard.press("Enter")
        assert settle(page, "id === want", f"entry-{graph['start']}") == f"entry-{graph['start']}"
        assert page.inner_text(".sheet-status").startswith("A new adventurer: ")
    assert console == []


def play_out(page: Any, here: str) -> bool:
    """Answer by keyboard what the page plays as play does here (the first option each time);
    whether its outcome leaves a way to follow."""
    for _ in range(300):
        asked = page.locator(f"{here} .encounter-play button.ep-option")
        if not asked.count():
            break
        asked.first.focus()
        page.keyboard.press("Enter")
    return page.locator(f"{here} .encounter-play a").count() > 0


def graph_abilities(page: Any) -> list[str]:
    return list(page.evaluate("JSON.parse(document.getElementById('dtc-data').textContent).system.abilities"))


def targets_of(choice: dict[str, Any]) -> list[Any]:
    return [b["target"] for b in choice["roll"]["branches"]] if choice.get("roll") else [choice["success"]]


def play_card(page: Any, here: str, card: str) -> None:
    """Attempt a check or a roll by keyboard: pick a plan (a sure one where the rules allow), gear, roll."""
    box = page.locator(f"{here} {card}")
    page.evaluate(f"document.querySelector('{here} h2').focus()")
    if box.locator("input[type=radio]").count():
        values = [box.locator("input[type=radio]").nth(k).get_attribute("value") or ""
                  for k in range(box.locator("input[type=radio]").count())]
        want = next((v for v in values if "check" not in v), values[-1])
        tab_to(page, f"e.type === 'radio' && e.closest('{here} {card}')")
        page.keyboard.press("Space")
        for _ in range(len(values)):
            if focused(page)["value"] == want:
                break
            page.keyboard.press("ArrowDown")
        assert focused(page)["value"] == want
        if "gear" in want:
            tab_to(page, f"e.matches('select.gear') && e.closest('{here} {card}')")
            page.keyboard.press("ArrowDown")
            page.keyboard.press("ArrowDown")
            assert focused(page)["value"] not in ("", "-")
    tab_to(page, f"e.matches('button.roll, button.roll-branch') && e.closest('{here} {card}')")
    name = page.evaluate("document.activeElement.textContent")
    assert ":" in name, f"the roller's button has no name of its choice: {name}"
    page.keyboard.press("Enter")
    # The result's link takes the focus; the roll is spent.
    assert focused(page)["cls"] == "continue", box.locator(".result").inner_text()
    assert box.locator("button").first.is_disabled()
    page.keyboard.press("Enter")


# --- the fight helper, by each system's combat -------------------------------------------------

FIGHT = """Title: Fights
Rules: {rules}

Encounters
  1-6. 1d4 Rats

Adventurer's Rival HP 30 | {stats}

Adventure Entries

1 A rival waits. Adventurer's Rival HP 30 | {stats}
Fight; if you win, go to 2. Or **Sneak Past** ({check} D2, S2, F2).

2 Done. THE END (victory)
"""


@pytest.mark.parametrize(("rules", "stats", "scores", "check"), [
    ("death-and-treasure", "Morale 7 | Claw d6", {"STR": "18", "DEX": "18"}, "FOO"),
    ("maze-rats", "Armor 6 | AB 1 | WIL 1", {"STR": "4", "DEX": "4"}, "CHA"),
    ("zilch", "Clubs 7 | Spades 2 | DR 0 | Damage 2", {"♣": "14", "♠": "14"}, "STR"),
])
def test_the_fight_helper_follows_each_systems_combat(browser: Any, tmp_path: Path, rules: str, stats: str,
                                                      scores: dict[str, str], check: str) -> None:
    text = FIGHT.format(rules=rules, stats=stats, check=check)
    build(compile_text(text, "fight.txt").graph(), tmp_path, "fight", pdf=False)
    # (Death & Treasure, Maze Rats and Zilch play an entry's fight as play does: the helper is the cover's card)
    where = "#cover"
    with Page(browser) as page:
        page.goto((tmp_path / "fight.html").as_uri() + "?seed=2#entry-1")
        for ability, value in scores.items():
            page.fill(f"[id='sheet-ab-{ability}']", value)
        page.fill("#sheet-hp", "20")
        page.fill("#sheet-hpmax", "20")
        if where == "#cover":
            page.evaluate("location.hash = '#cover'")
            page.wait_for_selector("#cover.current")
        fight = page.locator(f"{where} details.fight").first
        fight.locator("summary").click()
        hp = fight.locator("input.foe-hp")
        assert hp.input_value() == "30"
        fight.locator("button[data-fight='round']").click()
        assert fight.locator(".result").inner_text()
        for _ in range(12):
            fight.locator("button[data-fight='attack']").click()
            fight.locator("button[data-fight='defend']").click()
            if fight.locator("button[data-fight='take']").is_visible():  # a shield to shatter, chips to dodge
                fight.locator("button[data-fight='take']").click()
        result = fight.locator(".result").inner_text()
        assert int(hp.input_value()) < 30, result  # a strong adventurer lands blows
        assert any(words in result for words in ("Start a round first", "against", "is down", "You take the blow",
                                                  "has fled")), result
        fight.locator("button[data-fight='next']").click()
        assert hp.input_value() == "30"
        if rules == "zilch":  # a Fighter's ♣ chips turn a miss into a hit
            page.fill("[id='sheet-ab-♣']", "2")
            page.fill("#sheet-class", "Fighter")
            page.fill("#sheet-chips", "12")
            fight.locator("button[data-fight='round']").click()
            fight.locator("select.stance").select_option("cautious")
            for _ in range(20):
                fight.locator("button[data-fight='attack']").click()
                if fight.locator("button[data-fight='spend']").is_visible():
                    break
                fight.locator("button[data-fight='round']").click()
            spend = fight.locator("button[data-fight='spend']")
            assert spend.is_visible() and "♣ chips to hit" in spend.inner_text()
            spend.click()
            assert "chips: a hit." in fight.locator(".result").inner_text()
            assert int(page.input_value("#sheet-chips")) < 12 and not spend.is_visible()
        # An ability these rules do not have: the reader chooses one, and nothing throws.
        if where == "#cover":
            page.evaluate("location.hash = '#entry-1'")
            page.wait_for_selector("#entry-1.current")
        card = page.locator("#entry-1 .card.check")
        assert "is not an ability of" in card.locator(".hint").inner_text()
        if card.locator("input[value='turn+check']").count():
            card.locator("input[value='turn+check']").check()
        card.locator("button.roll").click()
        assert card.locator("a.continue").count() == 1
        # Encounter counts are rolled.
        page.goto((tmp_path / "fight.html").as_uri() + "?seed=2#cover")
        page.click("#cover button[data-act='table']")
        assert re.search(r"You meet [1-4] Rats \(1d4\)", page.inner_text("#cover .table-roller .result"))
        # Wandering creatures are fought from their cards on the cover.
        helper = page.locator("#cover details.fight").first
        helper.evaluate("d => { d.open = true; }")  # (Death & Treasure's was opened above)
        helper.locator("button[data-fight='round']").click()
        assert helper.locator(".result").inner_text()


def test_the_sheet_opens_and_closes_by_mouse_and_keyboard_and_clears_the_header(browser: Any, book: str) -> None:
    with Page(browser) as page:
        page.goto(book + f"#entry-{SHORE}")
        box = page.locator(".sheet-box")
        summary = page.locator(".sheet-box > summary")
        summary.click()
        assert box.get_attribute("open") is None
        summary.click()
        assert box.get_attribute("open") is not None
        summary.focus()
        page.keyboard.press("Enter")
        assert box.get_attribute("open") is None
        page.keyboard.press("Enter")
        assert box.get_attribute("open") is not None
    with Page(browser, PHONE) as page:
        page.goto(book + f"#entry-{SHORE}")
        page.click(".masthead .to-sheet")
        page.wait_for_timeout(300)
        header = page.evaluate("document.querySelector('.masthead').getBoundingClientRect().bottom")
        top = page.evaluate("document.querySelector('.sheet-box > summary').getBoundingClientRect().top")
        assert top >= header - 1, f"the sheet's heading ({top}px) is under the header ({header}px)"


@pytest.mark.parametrize("name", BOOKS)
def test_each_bundled_book_reads_without_javascript(browser: Any, bundled: dict[str, Any], name: str) -> None:
    """With scripts off every choice is a plain link: the checks show their S and F entries."""
    url, graph = bundled[name]
    with Page(browser, java_script_enabled=False) as page:
        page.goto(url)
        assert page.locator("button:visible").count() == 0  # no dead controls
        checks = [(e["number"], c) for e in graph["entries"] for c in e["choices"]
                  if not c["error"] and c.get("roll") is None and c["failure"] is not None]
        number, choice = checks[0]
        page.goto(f"{url}#entry-{number}")
        link = page.locator(f"#entry-{number} .card.check a.f").first
        assert link.is_visible() and link.get_attribute("href") == f"#entry-{choice['failure']}"
        link.click()
        page.wait_for_function(f"location.hash === '#entry-{choice['failure']}'")


def test_a_dungeon_rules_hazard_rolls_d20_for_its_own_scores(browser: Any, bundled: dict[str, Any]) -> None:
    url, graph = bundled["the-chime-pits"]
    number = next(e["number"] for e in graph["entries"] if "Rotten Joists" in e.get("hazards", []))
    with Page(browser) as page:
        page.goto(f"{url}?seed=3#entry-{number}")
        page.fill("#sheet-ab-AGI", "12")
        hazard = page.locator(f"#entry-{number} .hazard")
        # dtc play's hazard (dungeon_rules/hazards.py): a d20 against the better of its abilities, the
        # base's WIS as much as the overlay's AGI.
        assert "1d20 ≤ the better of WIS and AGI" in hazard.inner_text()
        assert hazard.locator("select.ability").count() == 0
        hazard.locator("button.roll-hazard").click()
        assert "Enter your WIS score" in hazard.locator(".result").inner_text()
        page.fill("#sheet-ab-WIS", "9")
        page.fill("#sheet-hp", "20")
        hazard.locator("button.roll-hazard").click()
        result = hazard.locator(".result").inner_text()
        assert re.match(r"The better of WIS and AGI is AGI\. Rolled \d+ = \d+ against AGI 12: (success|failure)\.",
                        result), result
        assert hazard.locator("button.roll-hazard").is_disabled()
        assert page.evaluate("document.activeElement.classList.contains('result')")
