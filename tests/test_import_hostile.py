"""Hostile input to dtc import: every reader, fuzzed, ends in a book or one line — never a
traceback or a hang — and the XML reader expands no entity and reads no external one."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dtc.compiler.api import compile_text
from dtc.interop.aon import XmlError, parse_xml
from dtc.interop.api import ImportFailed, import_book, read

TWEE_BITS = [":: A\n", ":: B [tag] {\"position\":\"1,2\"}\n", ":: StoryData\n", "{\"start\": \"A\"}\n", "[[", "]]",
             "->", "<-", "|", "<<set $x to ", "<<if $x gte 3>>", "<<elseif _r lte 2>>", "<<else>>", "<</if>>",
             "<<set _r to random(1, 6)>>", "<<goto \"B\">>", "<<return>>", "(set: $y to it + 1)", "(if: $y)[",
             "(else:)[", "]", "(random: 1, 6)", "/* dtc: check DEX D2 */", "/*", "*/", "(", ")", "$x", " not ",
             " and ", " or ", "1", "true", "false", "\n", " ", "A", "B", "turn to 12", "THE END", "[+rope]", "@x"]
GBF_BITS = ["* 1 start\n", "* b\n", "* c :dummy:\n", "* d :HTML:\n", "= Intro\n", "title = T\n", "[[", "]]", "][",
            "[has item]", "[/has]", "[hasnot item]", "[atleast gold]", "[inc gold]", "[/inc]", "[add item]",
            "[/add]", "[random]", "[/random]", "[b]", "[/b]", "auto ", "xor ", "b", "c", "d", "start", "3",
            "key", " ", "\n", "[", "]", "(D0, S2)"]
AON_BITS = ["<gamebook version=\"0.12\">", "</gamebook>", "<meta><title>T</title></meta>", "<section id=\"sect1\">",
            "<section id=\"sect2\">", "</section>", "<meta><title>1</title></meta>", "<meta><title>2</title></meta>",
            "<data>", "</data>", "<p>", "</p>", "<choice idref=\"sect2\">", "</choice>", "If you have a ",
            "<item>Key</item>", "turn to 2", "<combat><enemy>Rat</enemy><enemy-attribute class=\"endurance\">3"
            "</enemy-attribute></combat>", "<deadend>x</deadend>", "0&ndash;4", "&ellips;", "&amp;", "pick a number",
            "<puzzle idrefs=\"sect1 sect2\">p</puzzle>", "<", ">", "\"", " ", "\n"]


def _survives(name: str, data: bytes) -> None:
    started = time.monotonic()
    try:
        imported = import_book(name, data)
    except ImportFailed as exc:
        message = str(exc)
        assert "\n" not in message and ": error: " in message
    else:
        compile_text(imported.text, "imported.txt").graph()
    assert time.monotonic() - started < 60  # a hang guard


def _strategy(bits: list[str]) -> st.SearchStrategy[bytes]:
    pieces = st.one_of(st.sampled_from(bits), st.text(max_size=8))
    return st.lists(pieces, max_size=60).map(lambda parts: "".join(parts).encode("utf-8", "surrogatepass"))


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(_strategy(TWEE_BITS))
def test_twee_reader_survives_anything(data: bytes) -> None:
    _survives("book.twee", data)


@FUZZ
@given(_strategy(GBF_BITS))
def test_gamebookformat_reader_survives_anything(data: bytes) -> None:
    _survives("book.gamebook", data)


@FUZZ
@given(_strategy(AON_BITS))
def test_aon_reader_survives_anything(data: bytes) -> None:
    _survives("book.xml", data)


@FUZZ
@given(st.binary(max_size=300))
def test_any_bytes_end_in_a_book_or_one_line(data: bytes) -> None:
    for name in ("book.twee", "book.gamebook", "book.xml", "book"):
        _survives(name, data)


@pytest.mark.parametrize(("name", "unit"), [("big.twee", "(if: $a)[(set: $a to it + 1)[[x->y]] <<if $a>>[[z]] /* (["),
                                             ("big.gamebook", "* s\n[has item]k[/has] [[auto s]] [b] [[x"),
                                             ("big.twee", "<<if $a>>[[a"), ("big.twee", "(a:" * 3),
                                             ("big.twee", "[[a->b]]<<set $a to $a + 1>>(if: not not $a)[x]")])
def test_large_unclosed_markup_does_not_hang(name: str, unit: str) -> None:
    """200 KB of markup that never closes is read (a guard against a reader that would scan to
    the end of the file for each construct, not a measure of speed)."""
    data = (":: A\n" if name.endswith(".twee") else "") + unit * (200_000 // len(unit))
    started = time.monotonic()
    read(name, data.encode())
    assert time.monotonic() - started < 120


def test_xml_entities_are_never_expanded() -> None:
    """A billion laughs: the entity is not expanded, so the text stays a few characters long."""
    lol = "".join(f'<!ENTITY lol{i} "{"&lol" + str(i - 1) + ";" * 1}{("&lol" + str(i - 1) + ";") * 9}">'
                  for i in range(1, 10))
    doc = f'<?xml version="1.0"?><!DOCTYPE gamebook [<!ENTITY lol0 "lol">{lol}]><gamebook><p>&lol9;</p></gamebook>'
    root = parse_xml(doc.encode())
    assert len(root.text()) < 100


def test_xml_external_entities_are_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-CONTENT", encoding="utf-8")
    doc = (f'<?xml version="1.0"?><!DOCTYPE gamebook [<!ENTITY leak SYSTEM "{secret.as_uri()}">'
           f'<!ENTITY % p SYSTEM "{secret.as_uri()}"> %p;]><gamebook><p>&leak;</p></gamebook>')
    try:
        root = parse_xml(doc.encode())
    except XmlError:
        return
    assert "SECRET" not in root.text()


def test_bad_xml_is_one_line_with_its_place() -> None:
    with pytest.raises(ImportFailed) as info:
        import_book("book.xml", b'<gamebook>\n  <section id="a">\n</gamebook>')
    assert str(info.value).startswith("book.xml:3:3: error: not well-formed XML")


DTC_BITS = ["1 ", "2 ", "@cellar ", "\n\n", "(D0, S2)", "(DEX D2, S2, F1)", "(roll d6, 1-3 S1, 4-6 S2)",
            "(D0, S2, if key)", "(D0, S1, if not key or 3 coins)", "[+key]", "[-3 coins]", "[may +rope]",
            "[-all coins]", "[+once bell]", "THE END", "THE END (death)", "Return to your most recent entry.",
            "turn to 2", "**Door** ", "<<if $x>>", "[[a->b]]", "/*", "(set: $a to 1)", "::", "Start with: 2 key\n",
            "Title: T\n", "Adventure Entries\n", "Rat HP 3 | Bite d4\n", " ", "\n"]


@FUZZ
@given(_strategy(DTC_BITS))
def test_export_of_any_book_imports_again(data: bytes) -> None:
    from dtc.interop.api import export_book

    text = data.decode("utf-8", "replace").replace("\x00", "")  # a source with a NUL is refused before
    graph = compile_text(text, "book.txt").graph()
    for fmt, name in (("twee", "book.twee"), ("gamebookformat", "book.gamebook")):
        exported = export_book(graph, fmt)
        try:
            imported = import_book(name, exported.text.encode("utf-8"))
        except ImportFailed as exc:
            assert "no passage or section" in str(exc)
        else:
            compile_text(imported.text, "again.txt").graph()
