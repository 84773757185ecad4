"""Property tests (hypothesis): the parser and linter never raise, and order does not matter."""

from __future__ import annotations

import re
from collections import Counter
from unittest.mock import patch

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dtc.compiler.entries
from dtc.compiled.schema import validate
from dtc.compiler.api import compile_text
from dtc.compiler.entries import CANDIDATE, D_TOKEN, NOTATION_HINT, SF_TOKEN
from dtc.compiler.notation import fast_notation, parse_notation
from dtc.compiler.parse import parse
from dtc.compiler.source import SourceError, decode
from helpers import lint_text

FRAGMENTS = [
    "(", ")", ",", " ", "\n", "\n\n", "D", "S", "F", "d", "s", "f", "0", "1", "2", "3", "12", "DEX ", "STR",
    "(D0, S2)", "(DEX D3, S4, F5)", "(D1 S2 F3)", "**", "Bold", "THE END", "the end.", "go to 3", "Return to ",
    "your most recent entry", "HP 3 | Morale 7 | Bite d6", "Goblin", "Goblins", "1d6 ", "Encounters\n",
    "Adventure Entries\n", "Start: 2\n", "Rules: zilch\n", "Title: X\n", "@lab", "S@lab", "\u00a0", "“", "”",
    "\t", ":", "|", ".", "1.", "  1. 1d4 Rats\n", "(1,000 coins)", "(d4 damage)", "♣",
]

adventure_text = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=8)), max_size=80).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(adventure_text)
def test_any_text_compiles_and_lints_without_raising(text: str) -> None:
    comp = compile_text(text, "fuzz.txt")
    validate(comp.graph())
    for d in lint_text(text, "fuzz.txt"):
        assert d.span.line >= 1 and d.span.column >= 1


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_decode_or_fail_cleanly(data: bytes) -> None:
    try:
        text = decode(data, "fuzz.txt")
    except SourceError as exc:
        assert str(exc).startswith("fuzz.txt")
        return
    compile_text(text, "fuzz.txt").graph()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="()DSFdsf0123456789 ,@abxEX\u00a0♣", max_size=30))
def test_notation_parser_total(text: str) -> None:
    parse_notation(text)


@st.composite
def adventures(draw: st.DrawFn) -> list[str]:
    numbers = draw(st.lists(st.integers(1, 30), min_size=1, max_size=14, unique=True))
    pool = [*numbers, 99]
    entries = []
    for n in numbers:
        parts = [f"{n} Room {n}."]
        for _ in range(draw(st.integers(0, 3))):
            kind = draw(st.sampled_from(["d0", "check", "prose", "bad", "return", "fight"]))
            s, f = draw(st.sampled_from(pool)), draw(st.sampled_from(pool))
            parts.append({
                "d0": f"Walk on (D0, S{s}).",
                "check": f"Leap (DEX D{draw(st.integers(0, 5))}, S{s}, F{f}).",
                "prose": f"Go to {s}.",
                "bad": f"Try (D1 S{s} F{f}).",
                "return": "Return to your most recent entry.",
                "fight": "Then 2 Ghouls attack!",
            }[kind])
        if draw(st.booleans()):
            parts.append("THE END")
        entries.append(" ".join(parts))
    return entries


def findings(entries: list[str]) -> Counter[tuple[str, int | None]]:
    src = "Book\n\nAdventure Entries\n\n" + "\n\n".join(entries) + "\n"
    return Counter((d.code, d.entry) for d in lint_text(src))


@settings(max_examples=150, deadline=None)
@given(adventures(), st.randoms(use_true_random=False))
def test_reordering_entries_never_changes_findings(entries: list[str], rnd: object) -> None:
    shuffled = list(entries)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert findings(entries) == findings(shuffled)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(
    st.text(alphabet="()DSFdsf0123456789 ,@abxEX\u00a0♣\t", max_size=30),
    st.builds(lambda a, d, s, f: f"({a}D{d}, S{s}{f})",
              st.sampled_from(["", "DEX ", "dex", "♣ ", "Str  ", "roll ", "ROLL\t", "Rolls ", "roll-"]),
              st.integers(0, 99), st.integers(0, 999), st.sampled_from(["", ", F7", ",F@x", " ,  f12 "])),
))
def test_fast_path_agrees_with_the_grammar(text: str) -> None:
    """The regular fast path accepts only what Lark accepts, with the same tokens."""
    from dtc.compiler.notation import _fast_path, parse_notation, parse_notation_lark

    fast = _fast_path().fullmatch(text)
    lark_result = parse_notation_lark(text)
    if fast is not None:
        assert parse_notation(text) == lark_result
    else:
        assert parse_notation(text) == lark_result


@settings(max_examples=1000, deadline=None)
@given(
    st.text(alphabet="0123456789@aAbdDSsFfGo_-–. ()é²\n", max_size=50),
    st.sampled_from(["to ", "", "Go to ", "turn to  \n  §", "entry§", "read section\t"]),
)
def test_prose_number_pattern_finds_what_the_plain_pattern_found(prose: str, lead: str) -> None:
    """The prose scan's pattern pre-filters in the regex engine; the exits and counts it finds
    are those that scanning every number finds."""
    text = "Adventure Entries\n1 Here " + lead + prose + "\n2 THE END"
    found = parse(text)
    plain_pattern = re.compile(r"[0-9]+|@[A-Za-z][A-Za-z0-9_-]*")
    def plain_numbers(body: str, _: bytes) -> list[tuple[int, int]]:
        return [m.span() for m in plain_pattern.finditer(body)]

    with patch.object(dtc.compiler.entries, "_prose_numbers", plain_numbers):
        plain = parse(text)
    assert [(e.prose_exits, e.mentions) for e in found.entries] == [(e.prose_exits, e.mentions) for e in plain.entries]


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet="0123456789aAbdDSsFfGoOnNyYhH_-–. ()é²§\x00\u00a0’\n\t", max_size=60))
def test_prose_numbers_in_one_byte_copy_are_those_of_the_text(prose: str) -> None:
    """The scan over the entry's one-byte copy (digits as NUL) finds exactly what ``NUMBER``
    finds in the text itself."""
    one_byte = prose.encode("latin-1", "replace")
    entries = dtc.compiler.entries
    assert list(entries._prose_numbers(prose, one_byte)) == [m.span() for m in entries.NUMBER.finditer(prose)]


def _reference_choices(body: str) -> list[str]:
    """Which parentheticals are choices, decided one candidate at a time (the plain reading)."""
    found = []
    for m in CANDIDATE.finditer(body):
        inner = m.group(1)
        one_line_fast = fast_notation(m.group()) is not None and "\n" not in inner and "\r" not in inner
        hinted = NOTATION_HINT.search(inner) or (SF_TOKEN.search(inner) and D_TOKEN.search(inner))
        if one_line_fast or hinted:
            found.append(m.group())
    return found


_prose_bits = st.text(alphabet="()DSFdsf0123456789 ,@abxEX\u00a0\n\r♣.", max_size=20)
_notation_bits = st.builds(
    lambda a, d, s, f: f"({a}D{d},{s}{f})",
    st.sampled_from(["", "DEX ", "dex", "♣ ", "Str\n", " "]), st.integers(0, 9),
    st.sampled_from([" S1", "S@x", "\nS2", " s 3 ", "13"]), st.sampled_from(["", ", F7", ",F@x", " ,\nf12 ", ",F"]),
)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.one_of(_prose_bits, _notation_bits), max_size=6))
def test_entry_scan_finds_the_choices_each_candidate_gives(bits: list[str]) -> None:
    """The entry scan passes over prose parentheticals inside the regex engine; the choices it
    finds are those that judging every candidate finds."""
    body = "Here " + " ".join(bits).replace("\n\n", "\n")
    doc = parse("Adventure Entries\n1 " + body + "\n\n2 THE END")
    assert [c.text for c in doc.entries[0].choices] == _reference_choices(doc.entries[0].text)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.one_of(_prose_bits, _notation_bits), max_size=6), st.sampled_from(["", "x\n", "é “q”\r\n  "]))
def test_choices_work_out_the_spans_the_grammar_gives(bits: list[str], lead: str) -> None:
    """A choice the fast path read finds its spans again when asked: the same spans the grammar
    path gives the same notation, line by line. The three the compiled graph writes
    (``graph_spans``) are the same, asked for before the spans are worked out or after."""
    text = "Adventure Entries\n" + lead + "1 Here " + " ".join(bits).replace("\n\n", "\n") + "\n\n2 THE END"
    doc = parse(text)
    index = dtc.compiler.entries.LineIndex(text)
    for c in doc.entries[0].choices:
        lazy = c.spans is None
        through_grammar = dtc.compiler.entries._choice(text, index, c.label_to, c.label_to + len(c.text), c.label_from)
        spans = through_grammar.located()
        assert c.graph_spans() == through_grammar.graph_spans() == (spans[0], spans[4], spans[5])
        assert (c.spans is None) == lazy  # graph_spans keeps nothing
        assert c.located() == spans
        assert c.graph_spans() == (spans[0], spans[4], spans[5])
        assert lazy or c.spans == through_grammar.spans


def _list_cuts_by_characters(text: str) -> list[tuple[int, int]]:
    """Where an enumeration splits, as a scan of every character finds it (the reference)."""
    depth, cuts = 0, []
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and ch == "," and i > 0 and text[i - 1].isdigit() and text[i + 1:i + 4].isdigit() \
                and len(text[i + 1:i + 4]) == 3 and not text[i + 4:i + 5].isdigit():
            continue  # "8,000": a thousands separator, part of a number
        elif depth == 0 and ch in ",;":
            cuts.append((i, i + 1))
        elif depth == 0 and text.startswith(" and ", i):
            cuts.append((i, i + 5))
    return cuts


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(["a", " and ", "and", ",", ";", "(", ")", " ", "x y", ".", "gems", "8", "000", "0"]),
                max_size=14))
def test_enumeration_cuts_are_those_of_a_character_scan(bits: list[str]) -> None:
    """The effects reader splits "a key, 3 gems and a crown" where a scan of every character
    would, overlapping " and and " included, and never inside "8,000"."""
    from dtc.compiler.read_effects import _list_cuts

    text = "".join(bits)
    assert _list_cuts(text) == _list_cuts_by_characters(text)


_stat_fields = st.sampled_from([
    "Morale 7", "morale  12", "Morale x", "Special: swallows whole.", "Special:", "special : a | b",
    "Bite d6", "Sword or Bow d6", "Claws 2d4+1", "Claws 2 d6", "Claws d6 or Bite d8", "WIS 13", "Str -1",
    "Bite", "12", "d6", "Morale7", "Moralex 3", "Special d6", "Morale d6", "HP 3", "Bite d6.",
])


@settings(max_examples=1500, deadline=None)
@given(
    st.sampled_from(["Goblin", "Giant Frog", "Orc-Chief", "hp", "Ogre  ", "1Bad", "Cave\u00a0Bear", "Rat's"]),
    st.sampled_from([" HP 3", " hp 12", "HP 3", " HP x", " HP -2", "  HP  7 "]),
    st.lists(_stat_fields, max_size=4),
    st.sampled_from(["", ".", " . ", "|", " x", ". x"]),
    st.sampled_from([" | ", "|", "  |  ", " |", "\u00a0| "]),
)
def test_statblock_fast_path_agrees_with_the_grammar(
    name: str, hp: str, fields: list[str], tail: str, bar: str
) -> None:
    """The stat-block fast path only accepts what Lark accepts, and reads it the same way."""
    from dtc.compiler.grammars import parse_statblock as through_grammar
    from dtc.compiler.notation import _statblock_fast

    text = (name + hp + "".join(bar + f for f in fields) + tail).strip()
    fast = _statblock_fast(text)
    if fast is not None:
        assert fast == through_grammar(text)


def _label_by_every_word(before: str) -> str:
    """A choice's label with each segment split into every one of its words (the reference for
    :func:`dtc.compiler.labels.read_label`, which splits off only the last few)."""
    from dtc.compiler import labels

    kept = labels._LAST_WORDS
    labels._LAST_WORDS = -1  # str.rsplit(None, -1): every word
    try:
        return labels.read_label(before)
    finally:
        labels._LAST_WORDS = kept


_label_words = st.sampled_from([
    "the", "a", "An", "Frog", "mouth", "Old", "Well", "or", "you", "may", "lead", "THE", "x", "**", "Bold**",
    "**Door", ".", ",", "\n", "  ", "\t", "\u00a0", "'Tis", "’s", "[+key]", "[ -gold ]", "__", "“Door”", "to",
    "is", "are", "leads", "runs", "on", "back", "came", "with", "17", "→", "|", "HP", "4", "We",
])


@settings(max_examples=1500, deadline=None)
@given(st.lists(_label_words, max_size=14).map(" ".join), st.sampled_from(["", " ", "  ", "\n", "**"]))
def test_labels_are_those_of_every_word(words: str, end: str) -> None:
    from dtc.compiler.labels import read_label

    before = words + end
    assert read_label(before) == _label_by_every_word(before)
