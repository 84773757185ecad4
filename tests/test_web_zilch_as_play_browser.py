"""Zilch played in the web edition as ``dtc play`` plays it (issue 39): the page's own Zilch script
(``systems/zilch/page.js``) plays a fight an entry writes round by round (``combat.py`` ``fight``: the
pile shuffled with the run's dice, initiative, play's stance question, "Your move", the chips, the
creatures' blows, a Disarm), a wandering encounter (``play.py`` ``encounter``), and falling unconscious at 0 HP
(the round finished, left for dead, the hour's turns), with play's questions as buttons and each step
logged as play logs it, so that ``dtc play --replay`` follows the downloaded run to the same outcome.
In headless Chromium, as tests/test_build_browser.py says.
"""

from __future__ import annotations

import base64
import hashlib
import random
import re
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from dtc.cli import main
from dtc.compiler.api import compile_text
from dtc.editions import build
from dtc.editions.web import SYSTEM_SCRIPT, render_web
from helpers import ROOT
from helpers.browser import (  # noqa: F401  (browser: the fixture)
    Page,
    answer,
    at_entry,
    begin,
    browser,
    download_run,
    through_to,
    walk_until_encounter,
)

KILN = """Title: Kiln Warden
Rules: zilch
Start: 1

Adventure Entries

1 The kiln door stands open and warm air breathes out of it. **Climb to the loft** (D0, S2).

2 In the loft a warden of fired clay lifts its paddle and steps between you and the stair. Follow the
combat rules. If you win, go to 3. You may also **Crawl out** (D0, S5) the way you came.
Kiln Warden HP 6 | Clubs 8 | Spades 5 | DR 1 | Damage 2 | win S3, lose S4

3 The warden cracks from crown to heel and sits down in a heap of red shards. THE END (victory)

4 You wake among the cold ashes with no memory of the stair. THE END (defeat)

5 You crawl out into the evening, singed but whole. THE END
"""

SUITS = {"♣": "9", "♠": "7", "♦": "6", "♥": "30"}


def _book(tmp_path: Path, text: str, stem: str) -> tuple[str, Path]:
    build(compile_text(text, f"{stem}.txt").graph(), tmp_path, stem, pdf=False)
    book = tmp_path / f"{stem}.txt"
    book.write_text(text, encoding="utf-8")
    return (tmp_path / f"{stem}.html").as_uri(), book


def _begin(page: Any, hp: int, klass: str, items: str, chips: int) -> None:
    """An adventurer of ``SUITS`` with these HP, class, items and chips on the sheet, begun at entry 1."""
    page.fill("#sheet-class", klass)
    page.fill("#sheet-items", items)
    page.fill("#sheet-chips", str(chips))
    begin(page, SUITS, hp)


def _download(page: Any, tmp_path: Path, name: str) -> tuple[list[dict[str, Any]], Path]:
    log = tmp_path / name
    return download_run(page, log), log


def _won_at_1(page: Any, tmp_path: Path, name: str) -> tuple[list[dict[str, Any]], Path] | None:
    """The run downloaded once entry 1's fight is won and its win followed to entry 2; None when the
    fight was not won."""
    won = page.locator("#entry-1 .encounter-play p.fight-win a.fight-exit")
    if not won.count():
        return None
    won.click()
    at_entry(page, 2)
    return _download(page, tmp_path, name)


def _replays(book: Path, log: Path) -> None:
    result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)])
    assert result.exit_code == 0 and "same outcome" in result.output, result.output


def test_a_zilch_fight_played_in_the_page_replays_in_play(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """A Fighter with a longsword, chain mail and a shield fights the warden round by round: play's
    stance question (its four stances, best first), "Your move" (the longsword, two weapons with the
    shield's bash, flee), a ♣ chip spent to hit; won, the way to 3; the run replays."""
    uri, book = _book(tmp_path, KILN, "kiln")
    for seed in range(1, 10):
        with Page(browser) as page:
            page.goto(f"{uri}?seed={seed}#cover")
            _begin(page, 12, "Fighter", "Longsword, Chain mail, Shield", 9)
            page.locator("#entry-1 .card.go a").first.click()
            at_entry(page, 2)
            asked = page.locator("#entry-2 .encounter-play .ep-ask").inner_text()
            assert asked.startswith("Your stance this round (the creatures: Kiln Warden bold)"), asked
            for stance in ("Reckless:", "Bold:", "Cautious:", "Guarded:"):
                assert stance in asked, asked
            for _ in range(200):
                if not answer(page, ("Bold:", "Spend", "Attack with Longsword")):
                    break
            fight = page.locator("#entry-2 .encounter-play").last.inner_text()
            won = page.locator("#entry-2 .encounter-play p.fight-win a.fight-exit")
            if not won.count():
                continue
            assert "Initiative: you " in fight and "You stand bold and turn up " in fight, fight
            won.click()
            at_entry(page, 3)
            events, log = _download(page, tmp_path, f"won-{seed}.jsonl")
        asked_kinds = {e["question"] for e in events if e["event"] == "decision"}
        assert {"menu", "stance", "combat"} <= asked_kinds, asked_kinds
        kinds = {e["event"] for e in events}
        assert {"fight", "turn", "round", "attack", "defeated", "fight_end"} <= kinds, kinds
        assert "round" in events[0]["recorded"]
        rounds = [e for e in events if e["event"] == "round"]
        assert all(e["stance"] == "bold" and len(e["domino"]) == 2 for e in rounds), rounds
        sheet = {i["name"]: i for i in events[0]["sheet"]["items"]}
        assert sheet["Longsword"]["kind"] == "weapon"
        mail = sheet["Chain mail"]
        assert (mail["kind"], mail["slot"], mail["defense"]) == ("armour", "body", 2)
        assert (sheet["Shield"]["slot"], sheet["Shield"]["defense"]) == ("shield", 1)
        assert [e for e in events if e["event"] == "move"][-1]["how"] == "win"
        assert events[-1]["event"] == "end"
        _replays(book, log)
        return
    raise AssertionError("no fight won in seeds 1-9")


def test_unconscious_in_a_zilch_fight_the_hour_passes_and_the_run_replays(browser: Any,  # noqa: F811
                                                                          tmp_path: Path) -> None:
    """1 HP, no armour, Reckless: the warden's first blow knocks the adventurer out. Play's order: the
    creatures finish the round against the Defenseless body (every point draining ♥), leave it for
    dead (the fight is over: no way to 3), and an hour passes (six turns); at 0 HP the reader crawls
    out. The run replays in play to the same outcome."""
    uri, book = _book(tmp_path, KILN, "kiln")
    with Page(browser) as page:
        page.goto(f"{uri}?seed=3#cover")
        _begin(page, 1, "Fighter", "Longsword", 0)
        page.locator("#entry-1 .card.go a").first.click()
        at_entry(page, 2)
        for _ in range(20):
            if not answer(page, ("Reckless:", "Attack with Longsword")):
                break
        fight = page.locator("#entry-2 .encounter-play").last.inner_text()
        assert "You fall unconscious (0 HP)" in fight and "The creatures leave you for dead." in fight, fight
        assert "An hour passes:" in fight and "You come to, at 0 HP" in fight, fight
        assert not page.locator("#entry-2 .encounter-play a.fight-exit").count()
        assert page.input_value("#sheet-hp") == "0"
        page.locator("#entry-2 .card.go a").first.click()
        at_entry(page, 5)
        events, log = _download(page, tmp_path, "down.jsonl")
    assert {"result": "left for dead"}.items() <= next(e for e in events if e["event"] == "fight_end").items()
    assert [e["why"] for e in events if e["event"] == "turn"] == ["move", "combat", *["unconscious"] * 6]
    assert events[-1]["event"] == "end"
    _replays(book, log)


WANDERING = """Title: Ash Stair
Rules: zilch
Start: 1

Encounters
  1-6. 1d2 Ash Moths

Ash Moth HP 2 | Clubs 6 | Spades 6 | Damage 1

Adventure Entries

1 The top of a stair of soft grey ash. **Down** (D0, S2).

2 A landing where ash moths circle a cold brazier. **Up** (D0, S1), or on to the **door** (D0, S3).

3 A door of scorched oak, and clean night air beyond it. THE END (victory)
"""


def test_a_zilch_wandering_encounter_played_in_the_page_replays_in_play(browser: Any,  # noqa: F811
                                                                       tmp_path: Path) -> None:
    """play.py Zilch.encounter: the ♠ test to notice them (else a surprise round), then Parley, Fight or
    Flee as buttons, and the fight after it; the run goes on to the door and replays."""
    uri, book = _book(tmp_path, WANDERING, "stair")
    with Page(browser) as page:
        page.goto(f"{uri}?seed=4#cover")
        _begin(page, 20, "Rogue", "Short sword, Shortbow, Leather armour", 7)
        assert walk_until_encounter(page, 40), "no encounter in 40 turns"  # 1-in-6 a turn
        assert "Noticing them (♠): 3d6 " in page.locator(".page.current .encounter-play").inner_text()
        # through it (fighting), then to the door
        through_to(page, 3, ("Fight", "Bold:", "Keep your chips", "Attack with Short sword"))
        assert page.locator("#entry-3.current").count(), page.inner_text(".page.current")
        events, log = _download(page, tmp_path, "met.jsonl")
    kinds = {e["event"] for e in events}
    assert {"encounter", "check", "surprise", "fight", "round", "attack", "fight_end"} <= kinds, kinds
    assert any(e["event"] == "check" and e.get("why") == "notice them coming" for e in events)
    assert events[-1]["event"] == "end"
    _replays(book, log)


BANDIT = """Title: Toll Bridge
Rules: zilch
Start: 1

Adventure Entries

1 A bandit with a notched sword blocks the toll bridge and holds out a grimy hand for your purse.
Follow the combat rules. If you win, go to 2.
Bandit HP 6 | Clubs 7 | Spades 5 | Sword d6 | win S2

2 The bandit limps off into the reeds, and the bridge is yours to cross. THE END (victory)
"""


def test_a_disarmed_creature_fights_on_with_bare_hands_and_the_run_replays(browser: Any,  # noqa: F811
                                                                          tmp_path: Path) -> None:
    """combat.py: a creature whose attack names a weapon it holds may be disarmed (a Special Attack
    against its better of ♠ and ♣, no damage); then it strikes with bare hands (1 damage), and its
    sword's d6 is rolled no more. The run replays in play."""
    uri, book = _book(tmp_path, BANDIT, "bridge")
    for seed in range(1, 16):
        with Page(browser) as page:
            page.goto(f"{uri}?seed={seed}#cover")
            _begin(page, 20, "Fighter", "Longsword, Chain mail, Shield", 0)
            asked = page.locator("#entry-1 .encounter-play .ep-ask")
            for _ in range(200):
                if "Disarm Bandit: no damage; it drops its Sword" in asked.inner_text():
                    page.locator("#entry-1 .encounter-play button.ep-option", has_text="Disarm").first.click()
                elif not answer(page, ("Bold:", "Attack with Longsword")):
                    break
            got = _won_at_1(page, tmp_path, f"bridge-{seed}.jsonl")
            if got is None:
                continue
            events, log = got
        disarms = [e for e in events if e["event"] == "attack" and e.get("special") == "disarm"]
        if not any(e["hit"] for e in disarms):
            continue
        assert disarms[0]["weapon"] == "Disarm (Longsword)" and disarms[0]["dropped"] == "Sword", disarms
        after = events[events.index(next(e for e in disarms if e["hit"])):]
        blows = [e for e in after if e["event"] == "attack" and e["attacker"] == "Bandit"]
        assert all(e["weapon"] == "bare hands (disarmed)" for e in blows), blows
        assert events[-1]["event"] == "end"
        _replays(book, log)
        return
    raise AssertionError("no disarm that held, in a won fight, in seeds 1-15")


def test_the_zilch_script_is_inlined_into_the_pages_and_allowed_by_its_hash() -> None:
    """WebSystem.script: Zilch's page.js goes into the page's script at its marker, and the page's
    Content-Security-Policy allows that script (the whole of it) by its hash; another system's page
    has none of it."""
    def script_and_policy(rules: str) -> tuple[str, str]:
        html = render_web(compile_text(KILN.replace("Rules: zilch", rules), "kiln.txt").graph())
        script = max(re.findall(r"<script>(.*?)</script>", html, re.S), key=len)
        policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html)
        assert policy is not None
        return script, policy.group(1)

    script, policy = script_and_policy("Rules: zilch")
    assert SYSTEM_SCRIPT not in script and "function* zFight(" in script
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    assert f"'sha256-{digest}'" in policy
    other, _ = script_and_policy("Rules: maze-rats")
    assert "function* zFight(" not in other and SYSTEM_SCRIPT in other


def test_a_glass_orchard_victory_with_its_find_replays_in_play(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """A seeded Glass Orchard run clicked through as the download suite clicks it, through its fights,
    to the victory: the ending's find ("a cup of gold leaf and glass") is asked first, as play asks it,
    and the run's end is logged once it is taken; the run replays to the same outcome."""
    from test_web_download_browser import STEPS, _step

    book = ROOT / "adventures" / "the-glass-orchard.txt"
    build(compile_text(book.read_text(encoding="utf-8"), str(book)).graph(), tmp_path, "orchard", pdf=False)
    with Page(browser) as page:
        page.goto((tmp_path / "orchard.html").as_uri() + "?seed=1")
        page.locator("details.sheet-box").evaluate("d => d.open = true")
        page.click("button[data-act='roll-abilities']")
        page.click("#cover a.button.primary")
        rng = random.Random(1)
        for _ in range(STEPS):
            if not _step(page, rng):
                break
        assert page.locator("#entry-20.current").count(), page.inner_text(".page.current")
        # (the suite's reader takes what an ending lets them find: only then is the run's end logged)
        assert page.locator("#entry-20 .arrival button.find-take").count() == 0
        events, log = _download(page, tmp_path, "victory.jsonl")
    assert {"fight", "round", "attack", "fight_end"} <= {e["event"] for e in events}
    assert [e["choice"] for e in events if e["event"] == "decision"][-1] == "take"
    assert events[-1]["event"] == "end" and events[-1]["outcome"] == "ended"
    result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)])
    assert result.exit_code == 0 and "same outcome (ended: THE END at entry 20" in result.output, result.output


RATS = """Title: Rat Cellar
Rules: zilch
Start: 1

Adventure Entries

1 Something large and whiskered shifts among the apple barrels. Follow the combat rules. If you win, go
to 2. Cellar Rat HP 9 | Hearts 6 | Size 2 | Clubs 9 | Spades 6 | Damage 3 | win S2

2 The cellar is quiet again, and the apples are safe for the winter. THE END (victory)
"""


def test_a_small_creature_with_hearts_is_sized_as_play_sizes_it(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """combat.py size_up and blow: a block that gives Hearts has HP of its Hearts times its size
    modifier (a 2-foot rat is Small: 6 × ½ = 3, not the 9 written), and its blows are halved, half up;
    the page fights it so, and the run replays in play to the same outcome."""
    uri, book = _book(tmp_path, RATS, "cellar")
    for seed in range(1, 10):
        with Page(browser) as page:
            page.goto(f"{uri}?seed={seed}#cover")
            _begin(page, 20, "Rogue", "Short sword", 0)
            for _ in range(200):
                if not answer(page, ("Reckless:", "Attack with Short sword")):
                    break
            got = _won_at_1(page, tmp_path, f"cellar-{seed}.jsonl")
            if got is None:
                continue
            events, log = got
        dealt = sum(e["damage"] for e in events if e["event"] == "attack" and e["attacker"] == "you")
        assert 3 <= dealt < 9, dealt  # felled at 3 HP
        assert next(e for e in events if e["event"] == "fight")["foes"][0]["hp"] == 9  # (sized after the event)
        _replays(book, log)
        return
    raise AssertionError("no fight won in seeds 1-9")
