"""Every bundled book played from its print edition and ebook alone: what a reader with only the
page and dice was left to guess, pinned for every book. When a turn passes and what a wandering
creature does (only in a book that has an encounter table), how to flee and where to, what losing
a fight means, a check the text asks for without a difficulty, a possession the starting kit
already holds, a creature table's abbreviations, Dungeon Rules door work, loot and conditions, and
a malformed effects bracket printed as words rather than notation."""

from __future__ import annotations

import io
import re
import zipfile
from functools import cache
from pathlib import Path

import pytest

from dtc.compiled.graphjson import CompiledGraph
from dtc.compiler.api import compile_text
from dtc.editions.epub import render_epub
from dtc.editions.print import render_markdown, render_print_html
from dtc.editions.reader import book_rules, effects_words, fight_outcomes, unread_bracket
from dtc.runtime.inventory import kit_holdings, read_names
from dtc.systems import parse_rules, play_rules

ROOT = Path(__file__).resolve().parent.parent
NAMES = [b.stem for b in sorted((ROOT / "adventures").glob("*.txt"))]
EDITIONS = ["print", "epub", "md"]


@cache
def graph_of(name: str) -> CompiledGraph:
    graph: CompiledGraph = compile_text((ROOT / "adventures" / f"{name}.txt").read_text(encoding="utf-8"),
                                        f"{name}.txt").graph()
    return graph


def _words(markup: str) -> str:
    markup = re.sub(r"<(style|head)\b.*?</\1>", " ", markup, flags=re.S)
    markup = re.sub(r"</?(?:strong|em|a|span)\b[^>]*>", "", markup)
    markup = re.sub(r"<[^>]+>", " ", markup)
    for entity, char in (("&#x27;", "'"), ("&quot;", '"'), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")):
        markup = markup.replace(entity, char)
    return " ".join(markup.replace("**", "").split())


@cache
def text(name: str, edition: str) -> str:
    graph = graph_of(name)
    if edition == "print":
        return _words(render_print_html(graph))
    if edition == "md":
        return _words(render_markdown(graph).replace("|", " "))  # the sheet's table as its words
    archive = zipfile.ZipFile(io.BytesIO(render_epub(graph)))
    return _words(" ".join(archive.read(n).decode() for n in sorted(archive.namelist()) if n.endswith(".xhtml")))


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("name", NAMES)
def test_wandering_creatures_only_where_the_book_has_them(name: str, edition: str) -> None:
    """Play rolls for wandering creatures only in a book with an encounter table: the edition says
    how they come and how they are met there, and never sends the reader to a table it lacks."""
    page = text(name, edition)
    if graph_of(name)["encounters"]:
        assert "Wandering creatures" in page and "roll on the encounter table" in page
        assert "flee (as in a fight)" in page
    else:
        assert "Wandering creatures" not in page and "encounter table" not in page


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("name", NAMES)
def test_turns_fleeing_and_losing_are_explained(name: str, edition: str) -> None:
    page = text(name, edition)
    _, overlays = parse_rules(graph_of(name)["rules"])
    if overlays:  # Dungeon Rules keeps time in minutes instead
        assert "Time is kept in minutes, not in sections read" in page
    assert "Reading a section takes a turn" in page
    assert "To flee" in page and "else to the one you came from" in page
    for creature in graph_of(name)["creatures"]:
        for said, to in fight_outcomes(creature):
            if said.startswith("If you lose"):
                assert "instead you come to with 1 HP" in said and f"{said}, turn to {to}" in page


@pytest.mark.parametrize("name", NAMES)
def test_a_check_without_a_difficulty_says_how_to_roll(name: str) -> None:
    """"Make a DEX check" in the prose, or a difficulty the rules lack: play rolls it at a fixed
    difficulty, and the rules say how."""
    rules = book_rules(graph_of(name))
    for part in rules["parts"]:
        assert "prose" in part["rolls"], part["system"]
    if graph_of(name)["rules"] == "death-and-treasure":
        assert 'A check the text asks for without a difficulty ("make a CON check") rolls 2d6' in text(name, "print")


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("name", NAMES)
def test_what_the_kit_holds_is_marked_on_the_sheet(name: str, edition: str) -> None:
    """A Death & Treasure kit holds a rope and a lantern: a book that asks "if rope" finds it held
    from the first page (as play does), and its sheet says so."""
    graph = graph_of(name)
    held = kit_holdings(read_names(graph), play_rules(graph["rules"]).kit())
    names = set(graph.get("possessions") or [])
    for thing in held:
        if thing in names and thing != "coins":
            label = thing[:1].upper() + thing[1:]
            assert f"☐ {label} start with it (in your kit)" in text(name, edition), thing


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("name", NAMES)
def test_creature_tables_abbreviations_are_explained(name: str, edition: str) -> None:
    page = text(name, edition)
    fields = {key.upper() for c in graph_of(name)["creatures"] for key in c["stats"]}
    if "AB" in fields:
        assert "AB in a creature's table" in page
    if "DR" in fields and "♠" in page:
        assert "DR is its damage resistance" in page
    if "EL" in fields:
        assert "Encounter Level" in page


@pytest.mark.parametrize("edition", EDITIONS)
def test_dungeon_rules_doors_loot_and_conditions(edition: str) -> None:
    page = text("the-chime-pits", edition)
    assert "Work at a door is a check" in page and "picking a lock takes 1d6 minutes" in page
    assert "Loot: beating creatures whose stat block gives an EL" in page
    assert "dim −2" in page and "dark counts as dim" in page


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("name", NAMES)
def test_no_effects_bracket_is_left_raw(name: str, edition: str) -> None:
    """Every effects bracket reads as a sentence; one that does not read as effects (the Broken
    Lighthouse's "[+150 coins, spyglass]", lint DT120) shows the author's words, no notation. The
    Tidewater Vault's introduction, which tells the reader about brackets, is the book's own prose."""
    page = text(name, edition)
    if name == "the-tidewater-vault":
        page = page.replace("\\[", "[").replace("\\]", "]").replace("[+3 torches]", "").replace("[-10 coins]", "")
    assert re.search(r"\[\s*(?:may\s+)?[+-]", page) is None
    if name == "the-broken-lighthouse":
        assert "a brass spyglass (150 coins, spyglass), and a letter" in page


def test_a_malformed_bracket_in_words() -> None:
    assert unread_bracket("[+150 coins, spyglass]") == "(150 coins, spyglass)"
    assert unread_bracket("[may +rope, lantern]") == "(rope, lantern)"
    assert unread_bracket("[+ ]") == ""
    assert effects_words("[+150 coins, spyglass]") == "(150 coins, spyglass)"
    assert effects_words("[+150 coins, +spyglass]") == "Add 150 coins and note the spyglass."


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("name", NAMES)
def test_the_weapons_and_armour_to_choose_from(name: str, edition: str) -> None:
    """A Death & Treasure adventurer chooses a weapon and armour (play offers the lists): each is
    printed with its damage or Defense, so the sheet's Weapons and Defense can be filled in."""
    from dtc.runtime.equipment import ARMOUR, WEAPONS

    if parse_rules(graph_of(name)["rules"])[0].name != "death-and-treasure":
        return
    page = text(name, edition)
    for offer in WEAPONS:
        assert f"{offer.item.name.lower()} {offer.item.damage} (" in page
    for offer in ARMOUR:
        assert f"{offer.item.name.lower()} +{offer.item.defense} (" in page


@pytest.mark.parametrize("edition", EDITIONS)
def test_zilch_says_what_follows_a_knock_out(edition: str) -> None:
    """Knocked to 0 HP in a Zilch fight the reader is left for dead, not killed: the page says where
    they come to, so a fight's section with only 'If you win' does not leave them without a way on."""
    for name in NAMES:
        if parse_rules(graph_of(name)["rules"])[0].name == "zilch":
            assert "you come to an hour later at 0 HP in the same section" in text(name, edition)


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("name", NAMES)
def test_the_way_out_besides_the_endings(name: str, edition: str) -> None:
    """Play lets a reader back at the first section leave (a delve such as the Chime Pits has no
    ending section) and sends one at a section with no way on back: the page says both."""
    page = text(name, edition)
    start = graph_of(name)["start"]
    assert f"Back at section {start} after going in, you may leave by the way you came in" in page
    assert "A section that gives no way on sends you back to the section you came from." in page


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_broken_lighthouse_reads_as_play_takes_it(edition: str) -> None:
    """Its deliberate mistakes read as play takes them: a difficulty Death & Treasure lacks is a way
    that cannot be taken (play stops there), a difficulty 0 with S and F needs nothing (play turns to
    S), and overlapping random ranges give each total to the first branch that holds it."""
    page = text("the-broken-lighthouse", edition)
    assert ("Climb the Rungs (STR, difficulty 4): difficulty 4 is not one of Death & Treasure's: this way "
            "cannot be taken.") in page
    assert "Gallery: turn to 17." in page and "make a check of your best ability" not in page
    assert "Ride the next wave: roll one die: 1–3, turn to 1; 4–6, turn to 5." in page


@pytest.mark.parametrize("edition", EDITIONS)
def test_maze_rats_says_which_weapons_are_heavy(edition: str) -> None:
    """'A heavy weapon sinks into it' (the Tallow King) and '+1 with a heavy weapon': the page says
    the starting sword is light and names the heavy ones, as play classes them."""
    from dtc.systems.maze_rats.play import HEAVY

    page = text("the-tallow-king", edition)
    assert "Your sword is a light weapon; the heavy ones are the" in page
    assert all(w in page for w in HEAVY)
