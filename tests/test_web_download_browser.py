"""The web edition and `dtc play` are one game, the other way: runs played in the page replay in play.

For every bundled book and every acceptance book under ``tests/fixtures/books/`` and
``tests/fixtures/published/``, seeded runs are
played in the web edition in headless Chromium as a reader plays them — a new adventurer from the
sheet, then the page's own controls clicked (a way on, a check's plan, gear and ability, a random
branch, Continue), the picks drawn from a seeded generator — and saved with the sheet's "Download
this run". Each download must be a run log the schema accepts, and ``dtc play BOOK --replay LOG``
must play it again step for step: "same outcome" for every run the page played to its end, "the
same so far" only for one whose log stops for a documented reason, the one the page's status line
gives (an encounter, a fight, a hazard, an entry's finds or checks, which the reader plays; a run
longer than the clicks allowed). Needs Playwright and Chromium, as tests/test_build_browser.py says.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.compiled.schema import validate
from dtc.compiler.api import compile_file
from dtc.editions import build
from helpers import BUNDLED, ROOT, require_sample_dungeon
from helpers.browser import browser  # noqa: F401  (the fixture)

BOOKS = [*BUNDLED, *sorted((ROOT / "tests" / "fixtures" / "books").glob("*.txt")),
         *sorted((ROOT / "tests" / "fixtures" / "published").glob("*.txt"))]
SEEDS = range(4)
#: Clicks at most in one run (a run that goes on longer is downloaded as it stands).
STEPS = 80


@pytest.fixture(scope="module")
def editions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("editions")
    found = {}
    for book in BOOKS:
        build(compile_file(book).graph(), out / book.stem, book.stem, pdf=False)
        found[book.stem] = (out / book.stem / f"{book.stem}.html").as_uri()
    return found


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:  # noqa: F811
    context = browser.new_context(accept_downloads=True)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    yield tab
    context.close()
    assert not errors, errors


#: The current entry's ways on that the page plays itself (not a check rolled by hand, not a leave card).
_WAYS = (".page.current .choices:not(.ending) .card.go:not(.closed), "
         ".page.current .choices:not(.ending) .card.check:not(.closed):has(button.roll), "
         ".page.current .choices:not(.ending) .card.random:not(.closed), "
         ".page.current .choices:not(.ending) .card.return, "
         ".page.current .choices:not(.ending) .card.back-way:not([hidden])")


def _pick(page: Any, rng: random.Random, selector: str) -> None:
    """Choose one of a select's options (not the empty one) at random."""
    values = page.eval_on_selector(selector, "s => Array.from(s.options).map(o => o.value).filter(v => v)")
    if values:
        page.select_option(selector, rng.choice(values))


def _step(page: Any, rng: random.Random) -> bool:
    """One way on, taken as a reader takes it; False when there is none (an ending, the run over)."""
    over = ".page.current .run-over, .page.current .choices.ending:not([hidden]):not(.escaped)"
    if page.locator(over).count():
        # what an ending lets the reader find is asked before the run's end (play asks it): taken
        waiting = page.locator(".page.current .arrival .find button.find-take, "
                               ".page.current .arrival .find button.find-leave")
        if waiting.count() and not page.locator(".page.current .run-over").count():
            waiting.first.click()
            return True
        return False
    if _encounter_step(page, rng):
        return True
    if page.locator(".page.current .choices.in-dark").count():
        page.click("button[data-act='turn+1']")  # in the dark, as play: only a turn waited
        return True
    ways = page.locator(_WAYS)
    if not ways.count():
        return False
    card = ways.nth(rng.randrange(ways.count()))
    if "go" in (card.get_attribute("class") or "").split():
        _follow(page, card.locator("a").first)
        return True
    if "back-way" in (card.get_attribute("class") or "").split():  # a dead end: back the way you came
        _follow(page, card.locator("a.way-back"))
        return True
    if "return" in (card.get_attribute("class") or "").split():  # the way back play offers: where you came from
        came = card.locator("a.came-from")
        _follow(page, came.first if came.count() else card.locator("a.back").first, by_script=True)
        return True
    if card.locator("button.roll-branch").count():
        card.locator("button.roll-branch").click()
    else:
        radios = card.locator('input[type="radio"]')
        if radios.count():
            radios.nth(rng.randrange(radios.count())).check()
        cid = card.get_attribute("data-card")
        if card.locator("select.gear:visible").count():
            _pick(page, rng, f'[data-card="{cid}"] select.gear')
        if card.locator("select.ability:visible").count():
            _pick(page, rng, f'[data-card="{cid}"] select.ability')
        card.locator("button.roll").click()
    go = card.locator("a.continue")
    if not go.count():
        # an encounter came in the middle of it (played next), the run ended, or the book gives no entry
        return bool(page.locator(_ASKED).count())
    _follow(page, go)
    return True


#: A question of the encounter procedure or the fight the page plays as play does (Death & Treasure).
_ASKED = ".page.current .encounter-play button.ep-option"


def _encounter_step(page: Any, rng: random.Random) -> bool:
    """One answer to the encounter or fight under way, the flight it ends in, or the action it
    interrupted, finished since; False when there is none of these."""
    asked = page.locator(_ASKED)
    if asked.count():
        asked.nth(rng.randrange(asked.count())).click()
        return True
    for way in (".page.current .encounter-play a", ".page.current .check.done a.continue"):
        if page.locator(way).count():
            _follow(page, page.locator(way).first)
            return True
    return False


def _follow(page: Any, link: Any, by_script: bool = False) -> None:
    """Follow a link to an entry and wait until the page shows it (the browser's hashchange comes
    after the click: the next step must not look at the entry left behind). ``by_script``: a link
    whose words are mostly hidden (a way back: "8"), clicked as the keyboard's Enter would."""
    target = (link.get_attribute("href") or "#")[1:]
    if by_script:
        link.evaluate("a => a.click()")
    else:
        link.click()
    page.wait_for_function("id => { const p = document.querySelector('.page.current'); return !!p && p.id === id; }",
                           arg=target)


def _play(page: Any, uri: str, seed: int, out: Path) -> tuple[Path, str]:
    """A seeded run clicked through in the page, downloaded: the log and the sheet's word on it."""
    page.goto(f"{uri}?seed={seed}")
    page.locator("details.sheet-box").evaluate("d => d.open = true")
    page.click("button[data-act='roll-abilities']")
    page.click("#cover a.button.primary")
    rng = random.Random(seed)
    for _ in range(STEPS):
        if not _step(page, rng):
            break
    with page.expect_download() as download:
        page.click("button[data-act='download']")
    log = out / f"run-{seed}.jsonl"
    download.value.save_as(log)
    return log, page.text_content(".sheet-status") or ""


#: Why a page's log may stop before its run ended (web.js cutRun, and a run longer than STEPS
#: clicks): the reader took over where the page does not know every die and decision play needs.
_CUT = re.compile(r"; (it stops at (an encounter, which the reader plays|a fight, which the page leaves to the reader"
                  r"|a hazard, which the reader plays|what the entry does \([a-z, ]+\), which the reader plays"
                  r"|an entry with no way on the page plays)|the run goes on)\)")


@pytest.mark.parametrize("book", BOOKS, ids=[b.stem for b in BOOKS])
def test_every_run_played_in_the_page_replays_in_play(book: Path, editions: dict[str, str], page: Any,
                                                      tmp_path: Path) -> None:
    failures = []
    for seed in SEEDS:
        log, said = _play(page, editions[book.stem], seed, tmp_path)
        events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        for event in events:
            validate(event, "run-log")
        assert events[0]["event"] == "start" and events[0]["made"] is False
        result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)])
        # A run the page played to its end replays to the same outcome; one whose log stops, for
        # one of the documented reasons only, the same so far.
        cut = _CUT.search(said)
        ended = events[-1]["event"] == "end"
        if ended == bool(cut):
            failures.append(f"seed {seed}: the page says {said!r} of a log that {'ends' if ended else 'stops'}")
        wanted = "same outcome" if ended else "the same so far"
        if result.exit_code != 0 or wanted not in result.output:
            failures.append(f"seed {seed}: {result.output.strip()}")
    assert not failures, "\n".join(failures)


def test_a_download_before_any_run_says_so(editions: dict[str, str], page: Any) -> None:
    page.goto(editions["the-drowned-chapel"])
    page.locator("details.sheet-box").evaluate("d => d.open = true")
    page.click("button[data-act='download']")
    assert "No run to download yet" in (page.text_content(".sheet-status") or "")


def test_a_run_played_to_its_end_replays_with_the_same_outcome(editions: dict[str, str], page: Any,
                                                               tmp_path: Path) -> None:
    """At least one seeded run of a book without wandering encounters is played to its end."""
    book = next(b for b in BOOKS if b.stem == "maze-rats-keys-and-coins")
    outcomes = []
    for seed in range(4):
        log, _ = _play(page, editions[book.stem], seed, tmp_path)
        result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)])
        assert result.exit_code == 0, result.output
        outcomes.append(result.output)
    assert any("same outcome" in o for o in outcomes), outcomes


#: Seeded runs of the Death & Treasure and Maze Rats books that meet wandering encounters or fights
#: (the page plays them as play does: tests/test_web_fights_as_play_browser.py,
#: tests/test_web_maze_rats_as_play_browser.py, tests/test_web_dungeon_rules_as_play_browser.py) and
#: are played to their end
#: (the Drowned Chapel's seed 1 through the poisoned needle's damage and CON check too).
MET = [("the-broken-lighthouse", 2), ("the-broken-lighthouse", 4), ("the-broken-lighthouse", 9),
       ("the-drowned-chapel", 1), ("the-drowned-chapel", 8), ("the-drowned-chapel", 11), ("the-tidewater-vault", 1),
       ("the-tidewater-vault", 3), ("the-salt-courier", 7),
       # Maze Rats: wandering Wick Rats and Drain Cutthroats, the Tallow King fought in its entry
       ("the-tallow-king", 0), ("the-tallow-king", 2), ("the-tallow-king", 14),
       # Zilch (tests/test_web_zilch_as_play_browser.py): the Glass Orchard's sprites and beetles fought round
       # by round (chips, two weapons, a flight), falls at 0 HP with their hour out cold and the creatures
       # that find the body, to a death by drained ♥ (48: a flight from the door's own way back into itself)
       ("the-glass-orchard", 2), ("the-glass-orchard", 3), ("the-glass-orchard", 7), ("the-glass-orchard", 48),
       # Dungeon Rules over Death & Treasure: paces chosen at each new zone; encounters and fights under
       # the clock; the Rotten Joists and the Sour Gas Pocket faced, dealt with and cleared with the
       # kit's gear (an encounter check during the work); the Ley Surge's check in the dim vein
       # gallery; a won fight's loot taken
       ("the-chime-pits", 10), ("the-chime-pits", 29), ("the-chime-pits", 41), ("the-chime-pits", 52),
       # a flight back into the entry the encounter came at (its arrival dropped, as play drops it), then
       # lost in the dark; a turn waited in the dark with a find unanswered (left, as a way on leaves it)
       ("dungeon-rules-doors", 54), ("dungeon-rules-doors", 69)]


@pytest.mark.parametrize(("stem", "seed"), MET, ids=[f"{s}-{n}" for s, n in MET])
def test_runs_through_encounters_and_fights_replay_to_the_same_outcome(stem: str, seed: int, editions: dict[str, str],
                                                                      page: Any, tmp_path: Path) -> None:
    book = next(b for b in BOOKS if b.stem == stem)
    log, said = _play(page, editions[stem], seed, tmp_path)
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    kinds = {e["event"] for e in events}
    assert "fight" in kinds or "encounter" in kinds, f"seed {seed} meets no creature: choose another"
    assert events[-1]["event"] == "end", said
    result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)])
    assert result.exit_code == 0 and "same outcome" in result.output, result.output


def test_the_covers_table_roll_is_no_step_of_the_run(editions: dict[str, str], page: Any, tmp_path: Path) -> None:
    """The cover's table roll is a reference beside the run: rolled in the middle of a run, it changes
    neither the run's dice nor its log (the same seed and picks write the same log without it)."""
    stem, seed = "the-broken-lighthouse", 2
    plain, _ = _play(page, editions[stem], seed, tmp_path)
    page.goto(f"{editions[stem]}?seed={seed}")
    page.locator("details.sheet-box").evaluate("d => d.open = true")
    page.click("button[data-act='roll-abilities']")
    page.click("#cover a.button.primary")
    rng = random.Random(seed)
    rolled = []
    for n in range(STEPS):
        if n in (1, 4):
            rolled.append(page.evaluate("""() => { const b = document.querySelector("#cover button[data-act='table']");
                b.click(); return b.parentNode.querySelector('.result').textContent; }"""))
        if not _step(page, rng):
            break
    assert all(r.startswith("Rolled ") for r in rolled), rolled
    with page.expect_download() as download:
        page.click("button[data-act='download']")
    log = tmp_path / "aside.jsonl"
    download.value.save_as(log)
    assert log.read_text(encoding="utf-8") == plain.read_text(encoding="utf-8")


def test_the_sample_dungeon_played_in_the_page_replays_in_play_to_the_same_outcome(page: Any, tmp_path: Path) -> None:
    """The seed's Sample Dungeon (its Giant Frogs swallow, its trapped chest asks for a check beside
    its treasure, its goblins come as wandering encounters): runs clicked through in the page are
    played to their end and replay in play to the same outcome. Skipped without the seeds."""
    text = require_sample_dungeon()
    book = tmp_path / "sample-dungeon.txt"
    book.write_text(text, encoding="utf-8")
    build(compile_file(book).graph(), tmp_path / "edition", "sample-dungeon", pdf=False)
    uri = (tmp_path / "edition" / "sample-dungeon.html").as_uri()
    ended = 0
    for seed in range(6):
        log, said = _play(page, uri, seed, tmp_path)
        events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)])
        assert result.exit_code == 0, (seed, said, result.output)
        if events[-1]["event"] == "end":
            assert "same outcome" in result.output, (seed, result.output)
            ended += 1
        else:  # only a run longer than the clicks allowed
            assert "the run goes on" in said, (seed, said)
    assert ended >= 4, ended
