"""The web edition as HTML text: escaping, links, self-containment (the browser tests drive it)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from dtc.compiler.api import compile_text
from dtc.editions import render_web
from dtc.editions.book import check_rules
from dtc.editions.text import pieces
from dtc.render.html import script_json
from helpers.tower import CARVING, HALL, SHORE, STAIR, SURF, WALL_TOP, tower_graph


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self.scripts.append(dict(attrs))


def parsed(html: str) -> _Collector:
    collector = _Collector()
    collector.feed(html)
    return collector


@pytest.fixture(scope="module")
def html() -> str:
    return render_web(tower_graph())


def test_every_entry_is_an_anchor_and_every_exit_a_link(html: str) -> None:
    graph = tower_graph()
    tags = parsed(html).tags
    ids = [a.get("id") for _, a in tags]
    hrefs = {a.get("href") for t, a in tags if t == "a"}
    for entry in graph["entries"]:
        assert ids.count(f"entry-{entry['number']}") == 1
        for x in entry["exits"]:
            assert f"#entry-{x['target']}" in hrefs, x
    # every S and F of a check is a link inside that entry's article
    article = html.split(f'<article id="entry-{SHORE}"', 1)[1].split("</article>", 1)[0]
    assert f'href="#entry-{WALL_TOP}"' in article and f'href="#entry-{SURF}"' in article


def test_author_markup_is_shown_not_run(html: str) -> None:
    scripts = parsed(html).scripts
    assert len(scripts) == 3  # the early class switch, the data block and the page's own script
    assert scripts[1] == {"type": "application/json", "id": "dtc-data"}
    assert "&lt;script&gt;window.pwned=1&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=&quot;window.pwned=2&quot;&gt;" in html
    assert not any(t == "img" for t, _ in parsed(html).tags)
    assert "Test Author &lt;tests@example.org&gt;" in html
    assert "The Salt Tower &amp; the Sea" in html


def test_page_is_self_contained_with_a_strict_policy(html: str) -> None:
    for tag, attrs in parsed(html).tags:
        for name in ("src", "href", "action", "srcset"):
            value = attrs.get(name) or ""
            assert not re.match(r"[a-z]+:|//", value), (tag, name, value)
    assert "<link" not in html and "@import" not in html and "url(http" not in html
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert policy is not None
    assert "default-src 'none'" in policy.group(1) and "script-src 'sha256-" in policy.group(1)
    assert "unsafe-inline" not in policy.group(1).split("script-src")[1]


def test_script_data_is_escaped_json() -> None:
    tricky = {"text": "</script><script>alert(1)</script> & \u2028\u2029 <!--"}
    text = script_json(tricky)
    assert not set("<>&") & set(text) and "\u2028" not in text and "\u2029" not in text
    assert json.loads(text) == tricky


def page_data(html: str) -> dict[str, Any]:
    raw = html.split('<script type="application/json" id="dtc-data">', 1)[1].split("</script>", 1)[0]
    data: dict[str, Any] = json.loads(raw)
    return data


def test_data_block_carries_the_rules_and_table(html: str) -> None:
    data = page_data(html)
    system = data["system"]
    checks = system["checks"]["death-and-treasure"]
    assert {d: (c["count"], c["sides"], c["under"]) for d, c in checks.items()} == {
        "1": (2, 6, True), "2": (3, 6, True), "3": (4, 6, True)}
    assert system["plans"]["2"] == [["turn", "gear"], ["turn", "check"], ["gear", "check"]]
    assert system["abilities"] == ["STR", "DEX", "CON", "WIS", "INT", "CHA"]
    assert system["light"] == [24, 3] and system["combat"] == "roll-under-d20"
    assert data["start"] == SHORE and data["encounterDie"] == 4
    assert data["encounters"][0] == {"low": 1, "high": 1, "text": "1d4 Crabmen",
                                     "groups": [["1d4", "Crabmen", "Crabman"]]}  # (count, name, stat block)
    assert data["encounters"][1]["text"] == "1 Gull Swarm"


def test_checks_carry_what_the_roller_needs(html: str) -> None:
    assert f'data-d="2" data-ability="DEX" data-s="{WALL_TOP}" data-f="{SURF}"' in html
    assert f'data-d="1" data-ability="" data-s="{CARVING}" data-f="{STAIR}"' in html
    # "needs two of": a real choice of turn, gear and check, and the gear the reader uses
    shore = html.split(f'<article id="entry-{SHORE}"', 1)[1].split("</article>", 1)[0]
    assert "<legend>How do you go about it?</legend>" in shore
    assert shore.count('type="radio"') == 3 and 'value="turn+check"' in shore and 'value="gear+check"' in shore
    assert "Needs two of: spend a turn, use suitable gear, pass the check (3d6 ≤ DEX)." in shore
    assert '<select id="e1c1-g" class="gear">' in shore
    # every roller button is named for its choice
    assert 'Attempt it<span class="vh">: Sea Wall</span>' in shore
    assert '<select id="e5c1-a" class="ability">' in html
    assert 'role="status" aria-live="polite"' in html


def test_each_choice_is_one_control(html: str) -> None:
    """The prose names where a choice leads; only its card below links there (no choice heard twice)."""
    for n in range(1, 8):
        article = html.split(f'<article id="entry-{n}"', 1)[1].split("</article>", 1)[0]
        prose = article.split('<div class="prose">', 1)[1].split("</div>", 1)[0]
        assert "<a " not in prose, n


def test_stat_blocks_render_as_tables(html: str) -> None:
    hall = html.split(f'<article id="entry-{HALL}"', 1)[1].split("</article>", 1)[0]
    assert '<table class="stats"><caption>Crabman</caption>' in hall
    assert '<th scope="row">Claw</th><td>d6</td>' in hall
    assert '<th scope="row">Special</th><td>blinds you on a 6</td>' in html
    assert '<table class="encounters">' in html and '<th scope="row">2–3</th>' in html


def test_stat_blocks_are_shown_once(html: str) -> None:
    hall = html.split(f'<article id="entry-{HALL}"', 1)[1].split("</article>", 1)[0]
    prose = hall.split('<div class="prose">', 1)[1].split("</div>", 1)[0]
    assert "HP 4" not in prose and hall.count("<caption>Crabman</caption>") == 1
    assert 'Fight the Crabman' in hall


def test_endings_are_headed_by_kind_with_play_again() -> None:
    text = ("Title: Ends\n\nAdventure Entries\n\n1 Choose (D0, S2) or (D0, S3) or (D0, S4).\n\n"
            "2 Gold! THE END (victory)\n\n3 Teeth. THE END (death)\n\n4 Home. THE END\n")
    html = render_web(compile_text(text, "ends.txt").graph())
    assert "What will you do?" in html.split('<article id="entry-2"', 1)[0]
    for n, heading in ((2, "Victory"), (3, "You have died"), (4, "The end")):
        article = html.split(f'<article id="entry-{n}"', 1)[1].split("</article>", 1)[0]
        assert f'<h3 id="entry-{n}-c" tabindex="-1">{heading}</h3>' in article and "What will you do?" not in article
        assert '<a class="button primary play-again" href="#entry-1">Play again</a>' in article


def test_bold_labels_and_prose_exits_in_text(html: str) -> None:
    assert "<strong>Sea Wall</strong>" in html
    assert f'<span class="ref">Go to {HALL}</span>' in html  # the author's words, the label numbered
    assert "@hall" not in html and "S@" not in html
    assert "Return to the entry you came from" in html


def test_pieces_rebuild_the_text_exactly(sample_text: str) -> None:
    graph = compile_text(sample_text, "sample.txt").graph()
    located = 0
    for entry in graph["entries"]:
        parts = pieces(entry)
        assert "".join(p.text for p in parts) == entry["text"]
        chosen = [p for p in parts if p.kind == "choice"]
        assert [entry["choices"][p.index or 0]["text"] for p in chosen] == [c["text"] for c in entry["choices"]]
        located += sum(1 for p in parts if p.kind == "exit")
    prose = sum(1 for e in graph["entries"] for x in e["exits"] if x["kind"] == "prose")
    assert located == prose > 0


def test_sample_dungeon_web_edition(sample_text: str) -> None:
    html = render_web(compile_text(sample_text, "sample.txt").graph())
    for n in range(1, 32):
        assert f'<article id="entry-{n}"' in html
    assert 'data-d="3" data-ability="DEX" data-s="29" data-f="30"' in html


def test_flowchart_is_inlined_without_clashing_ids() -> None:
    svg = ('<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "x" "y">\n<svg><g id="entry-1"><a xlink:href="#entry-1">'
           "<text>1</text></a></g><script>bad()</script></svg>")
    html = render_web(tower_graph(), svg)
    assert html.count('id="entry-1"') == 1 and 'id="chart-entry-1"' in html
    assert "bad()" not in html and "<?xml" not in html and "DOCTYPE svg" not in html


def test_unknown_rules_have_no_roller() -> None:
    text = "Rules: homebrew\n\nAdventure Entries\n\n1 Go (D2, S2, F3)\n\n2 Yes.\n\n3 No.\n"
    graph = compile_text(text, "h.txt").graph()
    html = render_web(graph)
    assert check_rules("homebrew").dice == {}
    assert 'class="roll"' not in html and 'href="#entry-2"' in html and 'href="#entry-3"' in html
    assert page_data(html)["system"] == {"dice": False, "abilities": []}


ONE_CHECK = ("Rules: {rules}\n\nAdventure Entries\n\n1 The **Ledge** ({check}, S2, F3).\n\n2 Up. THE END\n\n"
             "3 Down. THE END\n")


@pytest.mark.parametrize(("rules", "check", "words", "dice"), [
    ("death-and-treasure", "DEX D2", "3d6 ≤ DEX", (3, 6, 0, True, [], 0)),
    ("maze-rats", "DEX D1", "3d6 keep the best 2 + DEX ≥ 10", (3, 6, 2, False, [], 0)),
    ("maze-rats", "WIL D3", "3d6 keep the worst 2 + WIL ≥ 10", (3, 6, 2, False, [], 0)),
    ("zilch", "Spades D3", "3d6 (6s count 0) ≤ ♠ − 2", (3, 6, 0, True, [6], -2)),
    ("death-and-treasure + dungeon-rules", "LUCK D1", "1d20 ≤ LUCK + 3", (1, 20, 0, True, [], 3)),
    ("death-and-treasure + dungeon-rules", "STR D1", "2d6 ≤ STR", (2, 6, 0, True, [], 0)),
])
def test_each_system_rolls_its_own_check(rules: str, check: str, words: str,
                                         dice: tuple[int, int, int, bool, list[int], int]) -> None:
    html = render_web(compile_text(ONE_CHECK.format(rules=rules, check=check), "c.txt").graph())
    assert words in html, words
    data = page_data(html)["system"]
    ability, d = check.split()
    canonical = {"Spades": "♠"}.get(ability, ability)
    spec = data["checks"][data["owner"][canonical]][d[1:]]
    assert (spec["count"], spec["sides"], spec["keep"], spec["under"], spec["zero"], spec["mod"]) == dice
    assert ("3d6 for each" in html) is rules.startswith("death-and-treasure")  # each system's own way


@pytest.mark.parametrize(("rules", "light", "abilities", "create"), [
    ("death-and-treasure", True, ["STR", "DEX", "CON", "WIS", "INT", "CHA"], "dice"),
    ("maze-rats", False, ["STR", "DEX", "WIL"], "arrays"),
    ("zilch", False, ["♣", "♠", "♦", "♥"], "cards"),
])
def test_each_system_has_its_own_sheet(rules: str, light: bool, abilities: list[str], create: str) -> None:
    html = render_web(compile_text(ONE_CHECK.format(rules=rules, check="D0"), "c.txt").graph())
    assert ("Lantern turns" in html) is light and ("Oil flasks" in html) is light
    data = page_data(html)["system"]
    assert data["abilities"] == abilities and {v["kind"] for v in data["create"].values()} == {create}
    for a in abilities:
        assert f'id="sheet-ab-{a}"' in html


def test_an_unknown_ability_is_chosen_not_thrown() -> None:
    html = render_web(compile_text(ONE_CHECK.format(rules="maze-rats", check="CHA D2"), "c.txt").graph())
    card = html.split('<li class="card check"', 1)[1].split("</li>", 1)[0]
    assert 'data-ability=""' in card and "CHA is not an ability of Maze Rats: choose one." in card
    assert '<select id="e1c0-a" class="ability"><option>STR</option><option>DEX</option><option>WIL</option>' in card


def test_hazards_roll_the_overlay_check() -> None:
    text = ("Rules: death-and-treasure + dungeon-rules\n\nHazard: Bad Air | Check: CON or AGI D2 | "
            "Fail: you choke, 1d4 damage\n\nAdventure Entries\n\n1 A cave.\nHazard: Bad Air\nOn (D0, S2).\n\n"
            "2 Out. THE END\n")
    html = render_web(compile_text(text, "h.txt").graph())
    cave = html.split('<article id="entry-1"', 1)[1].split("</article>", 1)[0]
    # As dtc play meets a hazard: the overlay's d20 against the better of its abilities, CON (Death &
    # Treasure's) as much as AGI (the overlay's).
    assert "<caption>Hazard: Bad Air</caption>" in cave and "1d20 ≤ the better of CON and AGI" in cave
    assert 'class="roll-hazard"' in cave and 'data-abilities="[&quot;CON&quot;, &quot;AGI&quot;]"' in cave
    assert 'data-fail="you choke, 1d4 damage"' in cave
    assert "Hazard: Bad Air" not in cave.split('<div class="prose">', 1)[1].split("</div>", 1)[0]


def test_build_writes_every_edition(tmp_path: Path) -> None:
    from dtc.editions import build

    result = build(tower_graph(), tmp_path / "out", "tower", pdf=False)
    names = sorted(p.name for p in result.written)
    assert {"tower.json", "tower.html", "tower.md", "tower.print.html"} <= set(names)
    assert ("tower.svg" in names) or any("flowchart" in w for w in result.warnings)
    for path in result.written:
        assert path.stat().st_mode & 0o044 == 0o044, f"{path.name} is not readable by others"
