"""dtc export, then dtc import: the same graph, for every bundled book.

Twee carries everything the notation says, so the round trip is exact: every entry's choices
(checks, conditions, random branches — the Broken Lighthouse's, whose ranges overlap, too),
exits, effects, ending, zone, hazards and creatures; the start, rules, possessions, introduction,
stat blocks, encounter and zone tables and hazards.
gamebookformat cannot say checks, ``or``, unequal random branches or kinds of ending (the export
warns of each): its round trip keeps every entry and every exit's target, and is exact for a
book that says only what gamebookformat can.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dtc.compiled.graphjson import CompiledGraph
from dtc.compiler.api import compile_file, compile_text
from dtc.interop.api import export_book, import_book
from helpers import ROOT

BOOKS = sorted((ROOT / "adventures").glob("*.txt"))

def signature(graph: CompiledGraph, skip: set[int] = frozenset()) -> dict[str, Any]:  # type: ignore[assignment]
    entries: dict[int, Any] = {}
    for e in graph["entries"]:
        if e["number"] in entries or e["number"] in skip:
            continue  # dtc follows the first of two entries with one number
        entries[e["number"]] = {
            "ending": e["ending"], "kind": e.get("ending_kind"), "changes": e.get("changes", []),
            "choices": [((c["ability"] or "").upper() or None, c["difficulty"], c["success"], c["failure"],
                         json.dumps(c.get("condition"), sort_keys=True), json.dumps(c.get("roll"), sort_keys=True),
                         json.dumps(c.get("changes", []), sort_keys=True))
                        for c in e["choices"] if not c.get("error")],
            "exits": sorted((str(x["target"]), x["kind"]) for x in e["exits"]),
            "zone": e.get("zone"), "hazards": e.get("hazards"), "conditions": e.get("conditions"),
            "creatures": e["creatures"],
        }

    def without_lines(items: list[Any]) -> list[Any]:
        return [{k: v for k, v in dict(item).items() if k != "line"} for item in items]

    return {"start": graph["start"], "title": graph["title"], "author": graph["author"], "rules": graph["rules"],
            "possessions": sorted(graph.get("possessions", [])), "start_with": graph.get("start_with", []),
            "limits": graph.get("limits"), "introduction": graph.get("introduction"),
            "creatures": without_lines(graph["creatures"]), "encounters": without_lines(graph["encounters"]),
            "zones": without_lines(graph.get("zones", [])), "hazards": without_lines(graph.get("hazards", [])),
            "entries": entries}


def round_trip(graph: CompiledGraph, fmt: str) -> CompiledGraph:
    exported = export_book(graph, fmt)
    imported = import_book(f"book.{'twee' if fmt == 'twee' else 'gamebook'}", exported.text.encode("utf-8"))
    return compile_text(imported.text, "again.txt").graph()


@pytest.mark.parametrize("book", BOOKS, ids=lambda p: p.name)
def test_twee_round_trips_every_bundled_book(book: Path) -> None:
    graph = compile_file(str(book)).graph()
    assert signature(round_trip(graph, "twee")) == signature(graph)


@pytest.mark.parametrize("book", BOOKS, ids=lambda p: p.name)
def test_gamebookformat_keeps_every_entry_and_exit_target(book: Path) -> None:
    graph = compile_file(str(book)).graph()
    again = round_trip(graph, "gamebookformat")

    def targets(g: CompiledGraph) -> dict[int, Counter[str]]:
        out: dict[int, Counter[str]] = {}
        for e in g["entries"]:
            # a link to no entry comes back as a label (gamebookformat names the missing section e27)
            out.setdefault(e["number"], Counter(re.sub(r"^@e(\d+)$", r"\1", str(x["target"]))
                                                for x in e["exits"] if x["kind"] != "return"))
        return out

    before, after = targets(graph), targets(again)
    assert set(before) == set(after)
    returns = {e["number"] for e in graph["entries"] if any(x["kind"] == "return" for x in e["exits"])}
    for number, exits in before.items():
        if number not in returns:
            assert after[number] == exits, number


def test_gamebookformat_round_trip_is_exact_for_what_it_can_say() -> None:
    text = """Title: The Well House

Adventure Entries

1
A bucket hangs over the well. [+bucket] Drop a **Coin** (D0, S2, if 3 coins) or climb **Down** (D0, S3).
You start with nothing but a rope of coins. [+5 coins]

2
The well grants nothing. [-3 coins] Back **Up** (D0, S1), or **Leave** (D0, S4, if bucket and not 4 coins).

3
Cold water closes over the bucket. [-bucket] Climb **Up** (D0, S1).

4
You walk home with a full bucket. THE END
"""
    graph = compile_text(text, "well.txt").graph()
    exported = export_book(graph, "gamebookformat")
    assert exported.warnings == []
    assert signature(round_trip(graph, "gamebookformat")) == signature(graph)


PUBLISHED_FORMS = """Title: The Toll Road
Start with: sealed letter, 12 gold crowns
Limits: gold crowns 40, provisions 4

Adventure Entries

1
A baker offers bread. [may +provisions] **Pay the toll** (D0, S2, -3 gold crowns), or **climb round** (DEX D2,
S2, F3).

2
The marsh takes your lantern. [-lantern?] A shrine: [+once saint's bell] [+1d10*2 gold crowns once]
**Rest** (D0, S3, if gold crowns >= 10). Robbers take it all. [-all gold crowns] **Walk on** (D0, S3).

3
The gate. THE END (victory)
"""


def test_twee_export_speaks_sugarcube_for_the_published_gamebook_forms() -> None:
    graph = compile_text(PUBLISHED_FORMS, "toll.txt").graph()
    text = export_book(graph, "twee").text
    assert "<<set $sealed_letter to 1>> /* dtc name: sealed letter */" in text  # Start with:
    assert "/* dtc limits: gold crowns 40, provisions 4 */" in text
    assert '<<link "Take the provisions">><<set $provisions to $provisions + 1>><</link>>' in text  # [may +…]
    assert "<<set $lantern to Math.max(0, $lantern - 1)>>" in text  # [-lantern?]
    assert "<<if visited() is 1>><<set $gold_crowns to $gold_crowns + random(1, 10) * 2>><</if>>" in text
    assert "<<set $gold_crowns to 0>>" in text  # [-all gold crowns]
    assert "[[Pay the toll->2][$gold_crowns to $gold_crowns - 3]]" in text  # effects on a choice
    assert signature(round_trip(graph, "twee")) == signature(graph)
    assert round_trip(graph, "twee").get("limits") == {"gold crowns": 40, "provisions": 4}


def test_twee_keeps_every_form_of_a_choices_effects() -> None:
    """A choice's effects in a setter link, every form the notation gives a choice: all of it, a
    loss if held, a rolled amount (the link's setter was kept as text for these)."""
    src = ("Title: Toll\nStart: 1\n\n1 The ferry. **Go** (D0, S2, -all coins, -rope?, +1d6 coins). "
           "**Wait** (D0, S2, +2 coins).\n\n2 The far bank. THE END\n")
    graph = compile_text(src, "toll.txt").graph()
    again = round_trip(graph, "twee")
    assert signature(again) == signature(graph)
    assert [c["name"] for c in again["entries"][0]["choices"][0]["changes"]] == ["coins", "rope", "coins"]


def test_twee_export_speaks_sugarcube() -> None:
    graph = compile_file(str(ROOT / "adventures" / "the-tidewater-vault.txt")).graph()
    text = export_book(graph, "twee").text
    assert ':: StoryData\n{\n  "ifid": "' in text and '"format": "SugarCube"' in text
    assert "<<set $brass_key to 0>> /* dtc name: brass key */" in text
    assert "<<if $brass_key>>[[Iron Door->20]]<</if>>" in text
    assert "<<set _r" in text and "random(1, 6) + random(1, 6)>>" in text
    assert "<<set $coins to $coins - 10>>" in text
    assert ":: 28 [dtc victory]" in text and ":: 18 [dtc death]" in text
    assert export_book(graph, "twee").text == text  # the same IFID each time


def test_gamebookformat_text_never_opens_a_section() -> None:
    text = ("Title: T\n\nAdventure Entries\n\n1\n**Bold** words first, then the **Door** (D0, S2).\n\n"
            "2\n= not a heading. THE END\n")
    graph = compile_text(text, "t.txt").graph()
    exported = export_book(graph, "gamebookformat").text
    assert "\n **Bold** words first" in exported and "\n = not a heading." in exported
    assert signature(round_trip(graph, "gamebookformat"))["entries"].keys() == {1, 2}
