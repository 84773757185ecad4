"""The web edition and `dtc play` are one game: seeded runs of `dtc play --auto` replayed in the page.

For every bundled book and every acceptance book under ``tests/fixtures/books/`` and
``tests/fixtures/published/``, each policy
plays seeded runs with a run log (``dtc play --log``); the book's web edition, in headless
Chromium, replays each log with its own rules and the log's dice (``window.dtcReplay``, the
function behind the cover's "Replay a run") and must say ``match``: every move, check, plan,
random branch, turn, encounter check and possession the page plays itself comes out as the log
recorded it. A log altered by one die face, or one check's result, must be reported as
``diverged`` at that step. Needs Playwright and Chromium, as tests/test_build_browser.py says.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.compiler.api import compile_file
from dtc.editions import build
from dtc.runtime.policies import POLICIES
from helpers import BUNDLED, ROOT, require_sample_dungeon
from helpers.browser import browser  # noqa: F401  (the fixture)

BOOKS = [*BUNDLED, *sorted((ROOT / "tests" / "fixtures" / "books").glob("*.txt")),
         *sorted((ROOT / "tests" / "fixtures" / "published").glob("*.txt"))]
SEEDS = range(6)


def _log(book: Path, policy: str, seed: int, out: Path) -> str:
    log = out / f"{book.stem}-{policy}-{seed}.jsonl"
    result = CliRunner().invoke(main, ["play", str(book), "--auto", policy, "--seed", str(seed), "--log", str(log),
                                       "--no-save", "--max-turns", "300"])
    assert result.exit_code in (0, 1), result.output
    return log.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def editions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("editions")
    found = {}
    for book in BOOKS:
        graph = compile_file(book).graph()
        build(graph, out / book.stem, book.stem, pdf=False)
        found[book.stem] = (out / book.stem / f"{book.stem}.html").as_uri()
    return found


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:  # noqa: F811
    context = browser.new_context()
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    yield tab
    context.close()
    # A divergence is reported on the replay's status element, never thrown as a page error.
    assert not errors, errors


def _replay(page: Any, uri: str, text: str) -> dict[str, str]:
    page.goto(uri)
    return page.evaluate("t => window.dtcReplay(t, 0)", text)  # type: ignore[no-any-return]


@pytest.mark.parametrize("book", BOOKS, ids=[b.stem for b in BOOKS])
def test_every_run_of_play_replays_in_the_page(book: Path, editions: dict[str, str], page: Any,
                                               tmp_path: Path) -> None:
    failures = []
    for policy in POLICIES:
        for seed in SEEDS:
            result = _replay(page, editions[book.stem], _log(book, policy, seed, tmp_path))
            if result["replay"] != "match":
                failures.append(f"{policy} seed {seed}: {result['text']}")
    assert not failures, "\n".join(failures)


def test_every_run_of_play_of_the_sample_dungeon_replays_in_the_page(page: Any, tmp_path: Path) -> None:
    """The seed's Sample Dungeon, as the bundled books above (skipped without the seeds)."""
    book = tmp_path / "sample-dungeon.txt"
    book.write_text(require_sample_dungeon(), encoding="utf-8")
    build(compile_file(book).graph(), tmp_path / "edition", "sample-dungeon", pdf=False)
    uri = (tmp_path / "edition" / "sample-dungeon.html").as_uri()
    failures = []
    for policy in POLICIES:
        for seed in range(3):
            result = _replay(page, uri, _log(book, policy, seed, tmp_path))
            if result["replay"] != "match":
                failures.append(f"{policy} seed {seed}: {result['text']}")
    assert not failures, "\n".join(failures)


def test_an_altered_log_diverges_at_its_step(editions: dict[str, str], page: Any, tmp_path: Path) -> None:
    book = ROOT / "adventures" / "the-drowned-chapel.txt"
    for seed in range(20):
        events = [json.loads(line) for line in _log(book, "bold", seed, tmp_path).splitlines()]
        checks = [e for e in events if e["event"] == "check" and e.get("why") != "escape"]
        if checks:
            break
    else:
        pytest.skip("no seed gave a check")
    checks[0]["success"] = not checks[0]["success"]
    text = "".join(json.dumps(e) + "\n" for e in events)
    result = _replay(page, editions[book.stem], text)
    assert result["replay"] == "diverged"
    assert f"step {checks[0]['seq']}" in result["text"] and "success" in result["text"]


def test_a_log_that_is_not_a_run_log_is_refused(editions: dict[str, str], page: Any) -> None:
    result = _replay(page, editions["the-drowned-chapel"], '{"seq":0,"event":"start"}\n')
    assert result["replay"] == "diverged" and "not a run log" in result["text"]


def test_the_cover_replays_a_chosen_file(editions: dict[str, str], page: Any, tmp_path: Path) -> None:
    book = ROOT / "adventures" / "the-tallow-king.txt"
    log = tmp_path / "run.jsonl"
    log.write_text(_log(book, "cautious", 3, tmp_path), encoding="utf-8")
    page.goto(editions[book.stem])
    page.locator("details.replay summary").click()
    page.select_option("#replay-speed", "0")
    page.set_input_files("#replay-file", str(log))
    page.wait_for_function("document.getElementById('replay-status').dataset.replay !== 'running' && "
                           "document.getElementById('replay-status').dataset.replay !== ''")
    status = page.locator("#replay-status")
    assert status.get_attribute("data-replay") == "match", status.text_content()


def test_a_run_that_carried_things_in_replays(editions: dict[str, str], page: Any, tmp_path: Path) -> None:
    """``dtc play --with``: what the run carried in (the start's ``carried``) is held from the first
    page after the book's own Start with:, in the page as in play."""
    book = ROOT / "adventures" / "the-salt-courier.txt"
    log = tmp_path / "with.jsonl"
    result = CliRunner().invoke(main, ["play", str(book), "--auto", "cautious", "--seed", "2", "--with", "rope",
                                       "--with", "3 provisions", "--log", str(log), "--no-save", "--max-turns", "300"])
    assert result.exit_code in (0, 1), result.output
    replayed = _replay(page, editions[book.stem], log.read_text(encoding="utf-8"))
    assert replayed["replay"] == "match", replayed["text"]
