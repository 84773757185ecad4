"""What the web edition is handed to play Dungeon Rules as ``dtc play`` plays it
(``dungeon_rules/web.py`` ``page_data``): each entry's hazards as play finds them, the light each
entry is in, each stat block's Encounter Level as play reads it (the first block of a name), the
loot's and the doors' numbers; and the page's run log no longer stops at a Death & Treasure
entry's hazard, treasure or fight under the overlay."""

from __future__ import annotations

from dtc.compiler.api import compile_file, compile_text
from dtc.editions.web import WebEdition
from dtc.systems.dungeon_rules.ruleset import DOOR_WORK, LOOT_MAX_PER_EL, LOOT_MIN_PER_EL
from dtc.systems.dungeon_rules.web import page_data
from helpers import ROOT

CHIME = ROOT / "adventures" / "the-chime-pits.txt"


def test_the_chime_pits_hazards_light_and_encounter_levels() -> None:
    data = page_data(compile_file(CHIME).graph())
    joists = data["hazards"]["6"]
    assert [h["name"] for h in joists] == ["Rotten Joists"]
    assert joists[0]["abilities"] == ["WIS", "AGI"] and joists[0]["d"] == 2 and joists[0]["usable"]
    assert joists[0]["mitigation"] == ["rope", "iron spikes"] and joists[0]["key"] == "6:rotten joists"
    assert data["hazards"]["11"][0]["fail"].endswith("a ringing alarm through the whole fell")
    assert data["lit"] == {"11": ["dim"], **{str(n): ["dark"] for n in range(14, 18)}}
    assert data["conditions"]["dark"][:3] == ["light", -3, 1] and data["better"] == {"dark": "dim", "dim": "bright"}
    # play's game.block: the first block of a name (the bestiary's Lamp Ghoul, EL 2, not entry 19's)
    assert data["levels"] == {"pit gnawer": [0, 0], "lamp ghoul": [2, 0]}
    assert data["loot"]["min"] == LOOT_MIN_PER_EL and data["loot"]["max"] == LOOT_MAX_PER_EL
    assert data["loot"]["zones"]["minor-lair"] == [5, 4]
    assert set(data["doors"]["work"]) == set(DOOR_WORK) and "door" in data["doors"]["doors"]


def test_a_hazard_with_no_usable_check_is_the_readers() -> None:
    text = """Title: Pit
Rules: death-and-treasure + dungeon-rules
Start: 1

Hazard: Odd Mist | Fail: you feel strange

Adventure Entries

1 A mist hangs here.
Hazard: Odd Mist
Go **on** (D0, S2).

2 Out. THE END (victory)
"""
    data = page_data(compile_text(text, "pit.txt").graph())
    assert data["hazards"]["1"][0]["usable"] is False


def test_under_the_overlay_the_page_plays_the_chime_pits_entries() -> None:
    """No entry of the Chime Pits stops a page run's log any more (its hazards, treasure and the
    foreman's office fight are played as play plays them)."""
    edition = WebEdition(compile_file(CHIME).graph())
    assert edition._run_log(edition._fights())["untracked"] == {}
    assert "19" in edition._fights()
