"""dtc import on real files: gamebookformat's own example books, Twee written for the tests in
SugarCube and Harlowe, and a Project Aon-shaped XML book written for the tests.

Each fixture imports to a book that lints with no error of the import's making, whose exits are
the source's links one for one, and whose state findings are the ones the source really has.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from dtc.compiler.api import compile_text
from dtc.diagnostics import Severity
from dtc.interop.aon import parse_xml
from dtc.interop.api import import_book
from dtc.interop.book import assign
from dtc.interop.twee import split_header
from dtc.lint.engine import lint_compilation
from helpers import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "import"
STATE = {"DT119", "DT211", "DT212", "DT213", "DT214", "DT215"}

#: The state findings each source really has: (code, the source's name for the entry).
EXPECTED_STATE: dict[str, set[tuple[str, str]]] = {
    # nothing in the book gives the codeword fun ("There is no way you can have codeword fun"), and
    # warrior, given at section 2, is always held at autotest and xortest
    "gamebookformat/codewords.gamebook": {("DT119", "choice"), ("DT119", "noautotest"), ("DT119", "xortest"),
                                          ("DT211", "autotest"), ("DT211", "xortest"), ("DT212", "cheater")},
    # losegold takes 5 Gold from a reader who may hold 2 (the source stops at 0: [min gold]0)
    "gamebookformat/counters.gamebook": {("DT214", "losegold")},
    # autotest drops 'something valuable' from a reader who may never have found it
    "gamebookformat/items.gamebook": {("DT214", "autotest")},
    # the fare is raised on every visit to the pier before it is tested: waiting is never offered
    "twee/ferry-bell-harlowe.twee": {("DT211", "Pier")},
    # nothing sets $lens_polished, so the dark room's only link never shows
    "twee/lamp-room-sugarcube.twee": {("DT119", "Dark"), ("DT213", "Dark")},
    "aon/the-reed-causeway.xml": set(),
}
FILES = sorted(str(p.relative_to(FIXTURES)) for p in FIXTURES.rglob("*") if p.suffix in (".gamebook", ".twee", ".xml"))


def _source_links(path: Path) -> dict[str, int]:
    """The links each passage or section of the source has, counted from the source itself."""
    text = path.read_text(encoding="utf-8")
    counts: dict[str, int] = {}
    if path.suffix == ".twee":
        for chunk in re.split(r"(?m)^::", text)[1:]:
            header, _, body = chunk.partition("\n")
            name, tags, _ = split_header(header)
            if name.startswith("Story") or "script" in tags or "startup" in tags:
                continue
            counts[name] = len(re.findall(r"\[\[", body)) + len(re.findall(r"<<goto|\(link-goto:|\(goto:", body))
    elif path.suffix == ".gamebook":
        name = None
        for line in text.split("\n"):
            if line.startswith("*"):
                words = line[1:].split()
                words = words[:-1] if len(words) > 1 and words[-1].startswith(":") else words
                tags = line.split()[-1] if line.split()[-1].startswith(":") else ""
                formats = {t for t in tags.strip(":").split(":") if t.isupper()}
                skip = "dummy" in tags or (formats and "TXT" not in formats) or words[-1] in counts
                name = None if skip else words[-1]
                if name:
                    counts[name] = 0
            elif line.startswith("="):
                name = None
            elif name:
                counts[name] += line.count("[[")
    else:
        root = parse_xml(path.read_bytes())
        stack = [root]
        while stack:
            node = stack.pop()
            if node.tag == "section" and "id" in node.attrs and node.attrs["id"].startswith("sect"):
                data = node.find("data")
                assert data is not None
                blocks = data.elements()
                counts[node.attrs["id"]] = sum(1 for b in blocks if b.tag == "choice") + sum(
                    len(b.attrs.get("idrefs", "").split()) for b in blocks if b.tag == "puzzle")
            stack += node.elements()
    return counts


@pytest.mark.parametrize("name", FILES)
def test_a_fixture_imports_with_its_exits_and_its_state_findings(name: str) -> None:
    path = FIXTURES / name
    imported = import_book(str(path), path.read_bytes())
    assert "exits read differently" not in imported.book.unmapped, imported.book.findings
    comp = compile_text(imported.text, "imported.txt")
    graph = comp.graph(effects=False)
    key_of = {}
    for entry in imported.book.entries:
        key_of[entry.key] = entry
    refs = {}
    for compiled in graph["entries"]:
        refs[str(compiled["number"])] = compiled
        if compiled["label"]:
            refs[compiled["label"]] = compiled

    ref_of = assign(imported.book)
    by_key = {key: refs[ref_of[key]] for key in key_of}
    # the exits: each link of the source is one exit (a random branch's links, one per range)
    source = _source_links(path)
    assert set(source) == set(by_key), (set(source) ^ set(by_key))
    for key, links in source.items():
        exits = [x for x in by_key[key]["exits"] if x["kind"] != "return"]
        assert len(exits) == links, (key, exits)
    # lint: the only errors are state findings the source has; the state findings are exactly those
    found = lint_compilation(comp)
    number_to_key = {by_key[k]["number"]: k for k in by_key}
    state = {(d.code, number_to_key.get(d.entry, "?")) for d in found if d.code in STATE}
    assert state == EXPECTED_STATE.get(name, set())
    errors = [d for d in found if d.severity is Severity.ERROR and d.code not in STATE]
    assert not errors, [(d.code, d.message) for d in errors]


def test_every_listed_fixture_exists() -> None:
    assert set(EXPECTED_STATE) <= set(FILES)


def test_gamebookformat_fixtures_keep_their_licence_notice() -> None:
    notice = (FIXTURES / "gamebookformat" / "LICENSE.txt").read_text(encoding="utf-8")
    assert "Pelle Nilsson" in notice and "publicdomain/zero/1.0" in notice


def test_what_is_not_mapped_is_kept_as_text_and_counted() -> None:
    path = FIXTURES / "twee" / "lamp-room-sugarcube.twee"
    imported = import_book(str(path), path.read_bytes())
    assert '<<audio "wind" play>>' in imported.text
    assert "Config.history.maxStates = 1;" in imported.text
    warnings = [f for f in imported.book.findings if f.severity == "warning"]
    assert sum(imported.book.unmapped.values()) == len(warnings) == 4
    assert {(f.line, f.message) for f in warnings} >= {(46, "the macro <<audio>> is not read (kept as text)")}
    assert "4 not mapped (kept as text)" in imported.book.summary()


def test_sugarcube_state_maps_to_the_notation() -> None:
    path = FIXTURES / "twee" / "lamp-room-sugarcube.twee"
    text = import_book(str(path), path.read_bytes()).text
    assert "Start with: 3 coins" in text
    assert "**Bribe the keeper** (D0, S@keeper, if 5 coins)" in text
    assert "[+oil] [+coins]" in text and "[-5 coins] [+warned]" in text
    assert "**Fill the lamp** (D0, S@lit, if oil) **Wait for dawn** (D0, S@dark, if not oil)" in text
    assert "**Step onto the gallery** (roll d6, 1-2 S@gallery, 3-6 S@landing)" in text
    assert "Return to your most recent entry." in text


def test_harlowe_state_maps_to_the_notation() -> None:
    path = FIXTURES / "twee" / "ferry-bell-harlowe.twee"
    text = import_book(str(path), path.read_bytes()).text
    assert "Start with: 2 fare" in text
    assert "**Pay the ferryman** (D0, S@crossing, if 3 fare)" in text
    assert "**Slip** (roll d6, 1 S@river, 2-6 S@far-bank)" in text
    assert "[-3 fare]" in text and "[+bell]" in text


def test_gamebookformat_gates_auto_and_xor() -> None:
    path = FIXTURES / "gamebookformat" / "codewords.gamebook"
    text = import_book(str(path), path.read_bytes()).text
    assert "(D0, S@noautotest, if warrior)" in text
    assert "(D0, S@the_end, if not warrior)" in text  # the other links of an auto section
    assert "(D0, S@cheater, if fun)" in text and "(D0, S@notsofun, if not fun)" in text  # after an xor
    items = import_book("items.gamebook", (FIXTURES / "gamebookformat" / "items.gamebook").read_bytes()).text
    assert "[may +key]" in items and "[-sword]" in items and "(D0, S@inside, if key)" in items


def test_project_aon_prose_combat_random_and_endings() -> None:
    path = FIXTURES / "aon" / "the-reed-causeway.xml"
    text = import_book(str(path), path.read_bytes()).text
    assert "If you have the Kai Discipline of **Tracking** (D0, S3, if Tracking)" in text
    assert "[may +Tracking]" in text  # chosen before the adventure
    assert "(D0, S8, if 3 gold crowns)" in text and "(D0, S9, if not Bone Whistle)" in text
    assert "Marsh-lurker HP 18 | CS 14\nIf you win the combat, turn to 4." in text
    assert "(roll d10, 1-5 S6, 6-10 S7)" in text
    assert "THE END (death)" in text and text.rstrip().endswith("THE END (victory)")
    assert "Weldmere" in text  # a plain-text entity the document declares
    assert "He counts them twice and lifts the bar. [-3 gold crowns?]" in text
    assert "from your Action Chart. [-Bone Whistle?]" in text
    graph = compile_text(text, "x").graph()
    twelve = next(e for e in graph["entries"] if e["number"] == 12)
    assert twelve.get("ending_kind") == "victory"
    assert Counter(x["kind"] for x in next(e for e in graph["entries"] if e["number"] == 2)["exits"]) == {"prose": 1}


def test_project_aon_prose_conditions_in_their_common_shapes() -> None:
    xml = b"""<?xml version="1.0"?>
<gamebook version="0.12"><meta><title>T</title></meta>
<section id="sect1"><meta><title>1</title></meta><data>
<p>A swaying bridge.</p>
<choice idref="sect2">If you have a Grapnel and wish to use it, <link-text>turn to 2</link-text>.</choice>
<choice idref="sect2">If you wish to use your Kai Discipline of Sixth Sense, <link-text>turn to 2</link-text>.</choice>
<choice idref="sect2">If you have a Grapnel or a Ladder, <link-text>turn to 2</link-text>.</choice>
<choice idref="sect2">If you have already crossed a bridge today, <link-text>turn to 2</link-text>.</choice>
</data></section>
<section id="sect2"><meta><title>2</title></meta><data><p>Across.</p></data></section>
</gamebook>"""
    imported = import_book("t.xml", xml)
    text = imported.text
    assert "If you have a **Grapnel** (D0, S2, if Grapnel) and wish to use it." in text
    assert "If you wish to use your Kai Discipline of **Sixth Sense** (D0, S2, if Sixth Sense)." in text
    assert "(D0, S2, if Grapnel or Ladder)" in text
    assert "[may +Sixth Sense]" in text and "[may +Grapnel] [may +Ladder]" in text
    assert imported.book.unmapped == {"prose condition": 1}  # "already crossed" is no possession


def test_a_random_number_table_with_its_numbers_changed_is_kept_and_reported() -> None:
    xml = b"""<?xml version="1.0"?>
<gamebook version="0.12"><meta><title>T</title></meta>
<section id="sect1"><meta><title>1</title></meta><data>
<p>Pick a number from the Random Number Table. If you have the Kai Discipline of Hunting, add 2 to it.</p>
<choice idref="sect2">If your total is now 0&ndash;6, <link-text>turn to 2</link-text>.</choice>
<choice idref="sect3">If it is 7&ndash;11, <link-text>turn to 3</link-text>.</choice>
</data></section>
<section id="sect2"><meta><title>2</title></meta><data><p>Caught.</p><deadend>The end.</deadend></data></section>
<section id="sect3"><meta><title>3</title></meta><data><p>Free.</p></data></section>
</gamebook>"""
    imported = import_book("t.xml", xml)
    assert imported.book.unmapped == {"random number table": 2}
    assert "(D0, S2)" in imported.text and "(D0, S3)" in imported.text


def test_project_aon_newer_documents_characters_ranges_and_uses() -> None:
    """The newer documents write characters as empty elements (``0<ch.endash/>4``): read as text,
    so a Random Number Table's ranges are read; a range may be open at one end (``4 or lower``)
    or one number (``pick 0``); a Discipline used for something is named without what it is used
    for; "this skill" names no possession; "10 or more ENDURANCE points" is a gate on HP."""
    xml = b"""<?xml version="1.0"?>
<gamebook version="0.12"><meta><title>The Sc<ch.ouml/>ld Road</title></meta>
<section id="sect1"><meta><title>1</title></meta><data>
<p>Pick a number from the Random Number Table.</p>
<choice idref="sect2">If you have picked a number that is 0<ch.endash/>4, <link-text>turn to 2</link-text>.</choice>
<choice idref="sect3">If the number is 5 or higher, <link-text>turn to 3</link-text>.</choice>
</data></section>
<section id="sect2"><meta><title>2</title></meta><data><p>A ladder.</p>
<p>Pick a number from the Random Number Table.</p>
<choice idref="sect3">If you pick 0, <link-text>turn to 3</link-text>.</choice>
<choice idref="sect3">If you pick 1<ch.endash/>9, <link-text>turn to 3</link-text>.</choice>
</data></section>
<section id="sect3"><meta><title>3</title></meta><data><p>A locked door.</p>
<choice idref="sect4">If you wish to use your Kai Discipline of Mind Over Matter to open this lock,
 <link-text>turn to 4</link-text>.</choice>
<choice idref="sect4">If you possess and wish to use the Kai Discipline of Healing on this man,
 <link-text>turn to 4</link-text>.</choice>
<choice idref="sect4">If you do not possess this skill, <link-text>turn to 4</link-text>.</choice>
<choice idref="sect4">If you have 10 or more <typ class="attribute">ENDURANCE</typ> points left,
 <link-text>turn to 4</link-text>.</choice>
</data></section>
<section id="sect4"><meta><title>4</title></meta><data><p>Through.</p></data></section>
</gamebook>"""
    imported = import_book("t.xml", xml)
    text = imported.text
    assert text.startswith("Title: The Scöld Road")
    assert "(roll d10, 1-5 S2, 6-10 S3)" in text and "(roll d10, 1 S3, 2-10 S3)" in text
    assert "(D0, S4, if Mind Over Matter), to open this lock." in text
    assert "(D0, S4, if Healing)" in text
    assert "(D0, S4, if HP >= 10)" in text
    assert "[may +Mind Over Matter] [may +Healing]" in text
    assert "skill]" not in text  # "this skill" is no possession: the choice is open to every reader
    assert imported.book.unmapped == {"prose condition": 1}
    graph = compile_text(text, "t").graph()
    assert {e["number"] for e in graph["entries"]} == {1, 2, 3, 4}


def test_project_aon_choices_any_reader_may_take_and_references_name_nothing() -> None:
    """"…or do not wish to show them" and ", or if you wish to…" open a choice to every reader;
    "but do not wish to give it" still needs the thing; "either of these skills" and "neither of
    the above" name no possession; "do not have either X or Y" is neither."""
    xml = b"""<?xml version="1.0"?>
<gamebook version="0.12"><meta><title>T</title></meta>
<section id="sect1"><meta><title>1</title></meta><data><p>A guard post.</p>
<choice idref="sect2">If you have the Seal, <link-text>turn to 2</link-text>.</choice>
<choice idref="sect2">If you do not have the documents or do not wish to show them,
 <link-text>turn to 2</link-text>.</choice>
<choice idref="sect2">If you possess a Spear but do not wish to give it away, <link-text>turn to 2</link-text>.</choice>
<choice idref="sect2">If you do not have either the Seal or the Pass, <link-text>turn to 2</link-text>.</choice>
<choice idref="sect2">If you have neither of the above, <link-text>turn to 2</link-text>.</choice>
<choice idref="sect2">If you have winnings to collect, or if you wish to leave,
 <link-text>turn to 2</link-text>.</choice>
</data></section>
<section id="sect2"><meta><title>2</title></meta><data><p>Past.</p></data></section>
</gamebook>"""
    text = import_book("t.xml", xml).text
    assert "(D0, S2, if Seal)" in text and "(D0, S2, if Spear), but do not wish to give it away." in text
    assert "(D0, S2, if not Seal and not Pass)" in text
    for junk in ("wish to show", "neither of", "winnings", "documents"):
        assert f"+{junk}" not in text and f"if {junk}" not in text, junk
    assert text.count("(D0, S2)") == 3  # open to every reader
