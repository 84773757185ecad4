"""Entries read by a forked child (dtc.compiler.parallel) are the same as entries read here, object for object."""

from __future__ import annotations

import io
import json
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

import dtc.compiler.parallel as parallel
from dtc import runmode
from dtc.compiler.api import compile_text
from dtc.compiler.model import Choice, Document, Entry
from dtc.compiler.parse import parse
from dtc.lint.engine import lint_compilation
from dtc.runmode import RunMode
from helpers import SEEDS_MISSING, alive, benchmark, count_forks, sample_dungeon, terminated

ROOT = Path(__file__).resolve().parent.parent
BOOKS = (sorted((ROOT / "adventures").glob("*.txt")) + sorted((ROOT / "tests" / "fixtures" / "rules").glob("*.txt"))
         + sorted((ROOT / "tests" / "fixtures" / "published").glob("*.txt")))

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

#: Every entry part travels through the codec; a new field must be added there (and here).
ENTRY_FIELDS = {
    "number", "span", "text", "end_line", "choices", "prose_exits", "returns", "ending", "creatures",
    "mentions", "fight_mentions", "zone", "zone_span", "hazard_refs", "changes", "effect_errors", "ending_kind",
}
CHOICE_FIELDS = {
    "text", "ability", "difficulty", "success", "failure", "error", "source", "label_from", "label_to",
    "label_text", "spans", "starts", "condition", "roll", "changes",
}


@pytest.fixture
def forked(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every book of two or more entries is read on two processes, in chunks of three entries;
    yields the list of children forked."""
    children = count_forks(monkeypatch)
    monkeypatch.setattr(parallel, "wanted", lambda count: count >= 2)
    monkeypatch.setattr(parallel, "CHUNK", 3)
    monkeypatch.setattr(parallel, "_step", lambda count: 2)  # shared work: parts of two items
    yield children


def _generated(entries: int, possessions: int = 0) -> str:
    text = benchmark("generate").generate(entries, seed=3, possessions=possessions)
    assert isinstance(text, str)
    return text


def _texts() -> list[Any]:
    """Every bundled and fixture book, and the seed's Sample Dungeon (skipped, with the reason, when
    the seed documents are not beside the checkout)."""
    found: list[Any] = [pytest.param(p.name, p.read_text(encoding="utf-8"), id=p.name) for p in BOOKS]
    sample = sample_dungeon()
    found.append(pytest.param("sample", sample or "", id="sample",
                              marks=pytest.mark.skipif(sample is None, reason=SEEDS_MISSING)))
    return found


def _same(serial: Document, forked: Document) -> None:
    assert forked == serial
    for a, b in zip(serial.entries, forked.entries, strict=True):
        assert [c.label for c in a.choices] == [c.label for c in b.choices]
        assert [c.source[c.label_from : c.label_to] for c in b.choices] == [
            c.source[c.label_from : c.label_to] for c in a.choices
        ]
        assert [b.mentions.index(g) for g in b.fight_mentions] == [a.mentions.index(g) for g in a.fight_mentions]


def test_codec_knows_every_field() -> None:
    assert {f.name for f in fields(Entry)} == ENTRY_FIELDS, "update dtc.compiler.parallel.encode/decode"
    assert {f.name for f in fields(Choice)} == CHOICE_FIELDS, "update dtc.compiler.parallel.encode/decode"


@pytest.mark.parametrize(("name", "text"), _texts())
def test_books_read_on_two_processes_are_the_same(name: str, text: str, forked: list[int]) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(parallel, "wanted", lambda count: False)
        serial = parse(text, name)
    assert not forked
    two = parse(text, name)
    if len(serial.entries) >= 2:
        assert forked, "the second half was not read by a child"
    _same(serial, two)


def test_generated_book_graph_and_findings_are_the_same(forked: list[int]) -> None:
    text = _generated(150)
    parallel_comp = compile_text(text, "book.txt")
    assert forked
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(parallel, "wanted", lambda count: False)
        serial_comp = compile_text(text, "book.txt")
    _same(serial_comp.doc, parallel_comp.doc)
    assert parallel_comp.graph() == serial_comp.graph()
    assert lint_compilation(parallel_comp) == lint_compilation(serial_comp)


def test_directives_and_stat_blocks_in_the_second_half(forked: list[int]) -> None:
    text = (
        "Title: Split\n\nAdventure Entries\n\n"
        "1 Start here. Door (D0, S2)\n\n"
        "2 A hall. Lever (STR D1, S3, F4)\n\n"
        "3 A pit.\n<!-- dtc: ignore[DT304] -->\nOgre HP 9 | Morale 8 | Club d8. 2 Ogres attack! (D0, S4)\n\n"
        "4 A broken bit (DEX D9, S1 F).\nTroll HP 4 | Morale many | Claw d6\nTHE END\n"
    )
    serial = compile_text(text, "split.txt")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(parallel, "wanted", lambda count: count >= 2)
        mp.setattr(parallel, "CHUNK", 1)
        two = compile_text(text, "split.txt")
    _same(serial.doc, two.doc)
    assert serial.doc.bad_statblocks and serial.doc.entries[2].creatures and serial.doc.directives
    assert two.doc.bad_statblocks == serial.doc.bad_statblocks
    assert lint_compilation(two) == lint_compilation(serial)


def test_a_failing_child_leaves_the_parent_to_read(forked: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    text = _generated(40)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(parallel, "wanted", lambda count: False)
        serial = parse(text, "x")
    forked.clear()

    def broken(entry: Entry) -> tuple[Any, ...]:
        raise RuntimeError("the child fails")

    monkeypatch.setattr(parallel, "encode", broken)
    two = parse(text, "x")
    assert forked
    _same(serial, two)


def test_incomplete_output_is_refused() -> None:
    doc = Document(path="x")
    spool = io.BytesIO()
    parallel._write(spool, [parallel.encode(Entry(1, parse("1 A room.\n").entries[0].span, "A room.", 1))])
    whole = spool.getvalue()  # no end frame
    assert parallel._receive(doc, "1 A room.\n", [0, 10], io.BytesIO(whole), 0, 1, [2]) is None
    assert parallel._receive(doc, "1 A room.\n", [0, 10], io.BytesIO(whole[:-3]), 0, 1, [2]) is None


def test_off_for_small_books_and_by_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runmode, "current", lambda: RunMode(parallel=True))
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    assert not parallel.wanted(parallel.MIN_ENTRIES - 1)
    assert parallel.wanted(parallel.MIN_ENTRIES)
    monkeypatch.setenv("DTC_PARALLEL", "0")
    assert not parallel.wanted(parallel.MIN_ENTRIES)
    monkeypatch.delenv("DTC_PARALLEL")
    monkeypatch.setattr(runmode, "current", lambda: RunMode(parallel=False))
    assert not parallel.wanted(parallel.MIN_ENTRIES)


def test_effects_read_by_a_child_are_the_same(forked: list[int]) -> None:
    import dtc.compiler.dungeon as dungeon
    import dtc.compiler.read_effects as effects
    from dtc.compiler.compile import creature_index

    books = [(p.values[0], p.values[1]) for p in _texts() if p.values[1]]  # the sample only where it is
    for name, text in [*books, ("generated", _generated(60))]:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(parallel, "wanted", lambda count: False)
            doc = parse(text, name)
        texts = [dungeon.blank_lines(e.text) for e in doc.entries]
        index = creature_index(doc)
        serial = [effects.extract_effects(t, index) for t in texts]
        forked.clear()
        assert effects.extract_all(texts, index) == serial, name
        if len(texts) >= 2:
            assert forked, name


def test_effects_child_that_fails_leaves_the_parent_to_read(forked: list[int],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import dtc.compiler.dungeon as dungeon
    import dtc.compiler.read_effects as effects

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(parallel, "wanted", lambda count: False)
        doc = parse(_generated(30), "x")
    texts = [dungeon.blank_lines(e.text) for e in doc.entries]
    serial = [effects.extract_effects(t) for t in texts]
    _fail_in_the_child(monkeypatch)
    forked.clear()
    assert effects.extract_all(texts) == serial
    assert forked


def _fail_in_the_child(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the effects reader raise in any process but this one (a forked child that fails)."""
    import dtc.compiler.read_effects as effects

    parent = os.getpid()
    read = effects.extract_effects

    def only_here(text: str, creatures: Any = None) -> list[dict[str, Any]]:
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        return read(text, creatures)

    monkeypatch.setattr(effects, "extract_effects", only_here)


def test_graph_built_by_a_child_is_the_same(forked: list[int]) -> None:
    """The compiled graph's entries, the second half built by a forked child, are the serial ones;
    so is the JSON text of :func:`compile_json`, each entry encoded where it was built, and its
    UTF-8 bytes as :func:`compile_json_write` writes them to a file, each process its own entries."""
    import tempfile

    from dtc.compiler.compile import compile_document, compile_json, compile_json_write, resolve

    books = [(p.values[0], p.values[1]) for p in _texts() if p.values[1]]  # the sample only where it is
    for name, text in [*books, ("generated", _generated(60)), ("state", _generated(40, possessions=6))]:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(parallel, "wanted", lambda count: False)
            doc = parse(text, name)
            graph = compile_document(doc, text, resolve(doc))
            serial = json.dumps(graph)
            compact = json.dumps(graph, ensure_ascii=False, separators=(",", ":"))
            assert compile_json(doc, text, resolve(doc)) == compact, name
        forked.clear()
        doc = parse(text, name)
        assert json.dumps(compile_document(doc, text, resolve(doc))) == serial, name
        if len(doc.entries) >= 2:
            assert forked, name
        forked.clear()
        assert compile_json(doc, text, resolve(doc)) == compact, name
        if len(doc.entries) >= 2:
            assert forked, name
        forked.clear()
        with tempfile.TemporaryFile() as out:
            length = compile_json_write(doc, text, out.fileno(), resolve(doc), end="\n")
            written = out.read()
        assert written == (compact + "\n").encode("utf-8") and length == len(written), name
        if len(doc.entries) >= 2:
            assert forked, name


def test_graph_child_that_fails_leaves_the_parent_to_build(forked: list[int],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from dtc.compiler.compile import compile_document, resolve

    text = _generated(30)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(parallel, "wanted", lambda count: False)
        doc = parse(text, "x")
        serial = json.dumps(compile_document(doc, text, resolve(doc)))
    _fail_in_the_child(monkeypatch)
    forked.clear()
    assert json.dumps(compile_document(doc, text, resolve(doc))) == serial
    assert forked


def _compiled(text: str, name: str, wait: float = 0.0) -> tuple[str, dict[str, int]]:
    """``compile_json`` of a book parsed with effects read ahead (its reading child given
    ``wait`` seconds), how many entries the child read ahead (``ahead``) and the first of them
    (``first``)."""

    from dtc.compiler.compile import compile_json, resolve

    counts = {"ahead": 0, "first": -1}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(runmode, "current", lambda: RunMode(read_ahead=effects_ahead))
        doc = parse(text, name)
    if doc.ahead is not None:
        time.sleep(wait)
        collect = doc.ahead.collect

        def counted() -> dict[int, str]:
            taken = collect()
            counts["ahead"] = len(taken)
            counts["first"] = min(taken, default=-1)
            return taken

        doc.ahead.collect = counted
    return compile_json(doc, text, resolve(doc)), counts


def effects_ahead(text: str) -> str | None:
    from dtc.compiler.compile import effects_ahead as ahead

    return ahead(text)


def test_effects_read_ahead_leave_the_graph_as_it_was(forked: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """The reading child of a book read for ``dtc compile`` goes on to read the book's effects
    ahead, from the last entry (dtc.compiler.parallel.Ahead): the JSON is the serial text,
    entries with a directive or with creatures included, whether the child read none, some or
    all of the entries."""
    from dtc.compiler.compile import compile_json, resolve

    # a directive inside entry 34 (the child's) and entry 5 (this process's), between two of
    # their lines: the parser edits the text
    inside = "\n{} It is quiet.\n<!-- dtc: ignore[dead-ends] -->\nTake d4 damage. "
    directive = _generated(40).replace("\n34 ", inside.format(34), 1).replace("\n5 ", inside.format(5), 1)
    assert directive.count("dtc: ignore") == 2
    books = [(p.values[0], p.values[1]) for p in _texts() if p.values[1]]
    for name, text in [*books, ("generated", _generated(60)), ("state", _generated(40, possessions=6)),
                       ("directive", directive)]:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(parallel, "wanted", lambda count: False)
            doc = parse(text, name)
            serial = compile_json(doc, text, resolve(doc))
        for wait in (0.0, 0.3) if name in ("generated", "state", "directive") else (0.0,):
            compiled, counts = _compiled(text, name, wait)
            assert compiled == serial, (name, wait)
            if wait and name in ("generated", "state"):
                # given the time, the child reads this process's share too, not only its own
                assert 0 <= counts["first"] < round(len(doc.entries) * parallel.PARENT_SHARE), (name, counts)


def test_effects_read_ahead_only_where_the_text_decides_them() -> None:
    """An entry's effects are read ahead only when no creatures are among them; then they are
    the same whatever the book's stat blocks name."""
    import json

    from dtc.compiler.compile import _blank_state
    from dtc.compiler.read_effects import extract_effects

    names_of = [None, [], ["Goblin"], ["Goblin", "Giant Frog", "Bell Warden"]]
    for text in ["Suddenly, 4 Goblins attack. Take d4 damage.", "Inside the chest you find 50 coins.",
                 "3 Skeletons and 2 Goblins wait (DEX D1, S3, F4). On failure, lose 2 HP.", "It is quiet."]:
        ahead = effects_ahead(text)
        read = [json.dumps(extract_effects(_blank_state(text), names), ensure_ascii=False, separators=(",", ":"))
                for names in names_of]
        if ahead is None:
            assert "creatures" in read[0]
        else:
            assert read == [ahead] * len(names_of), text


def test_effects_read_ahead_by_a_child_that_fails(forked: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """A child that fails while it reads ahead, or before it sends its entries, leaves the graph
    as it was (this process reads what is missing)."""
    from dtc.compiler.compile import compile_json, resolve

    text = _generated(40)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(parallel, "wanted", lambda count: False)
        doc = parse(text, "x")
        serial = compile_json(doc, text, resolve(doc))
    parent = os.getpid()

    def fails(text: str) -> str | None:
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        return None

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(runmode, "current", lambda: RunMode(read_ahead=fails))
        doc = parse(text, "x")
    assert compile_json(doc, text, resolve(doc)) == serial
    _fail_in_the_child(monkeypatch)
    assert _compiled(text, "x", 0.2)[0] == serial
    encode = parallel.encode

    def fails_to_send(entry: Entry) -> tuple[Any, ...]:
        if os.getpid() != parent:
            raise RuntimeError("the child fails before its entries are sent")
        return encode(entry)

    monkeypatch.setattr(parallel, "encode", fails_to_send)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(runmode, "current", lambda: RunMode(read_ahead=effects_ahead))
        doc = parse(text, "x")
    assert doc.ahead is None  # this process read the child's entries itself
    assert compile_json(doc, text, resolve(doc)) == serial


def _squares(lo: int, hi: int) -> list[Any]:
    return [[i, str(i * i)] for i in range(lo, hi)]


def _slow_in(which: str) -> Any:
    """:func:`_squares`, a millisecond an item in one process ("parent" or "child")."""

    parent = os.getpid()

    def build(lo: int, hi: int) -> list[Any]:
        if (os.getpid() == parent) == (which == "parent"):
            time.sleep(0.001 * (hi - lo))
        return _squares(lo, hi)

    return build


@pytest.mark.parametrize("slow", ["parent", "child"])
def test_shared_work_goes_to_the_idle_process(forked: list[int], slow: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The two processes build from both ends until they meet: whichever is slowed builds less,
    and the items are the serial ones, in order."""
    monkeypatch.setattr(parallel, "_step", lambda count: 4)
    built: list[int] = []
    build = _slow_in(slow)
    parent = os.getpid()

    def counted(lo: int, hi: int) -> list[Any]:
        if os.getpid() == parent:
            built.extend(range(lo, hi))
        return build(lo, hi)

    assert parallel.halves(200, counted) == _squares(0, 200)
    assert forked
    assert (len(built) < 100) is (slow == "parent"), len(built)


@pytest.mark.parametrize("seen", ["stale", "torn"])
def test_shared_work_survives_what_a_look_sees(forked: list[int], seen: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each process's look at how far the other has come may see an old number (then both build
    everything: each keeps going) or any number at all (then a gap or an overlap is left): the
    items are the serial ones either way."""
    import random

    draw = random.Random(7)
    start = {0: 0, 4: 100}

    def look(shared: Any, at: int) -> int:
        return start[at] if seen == "stale" else draw.randrange(0, 101)

    monkeypatch.setattr(parallel, "_read", look)
    assert parallel.halves(100, _squares) == _squares(0, 100)
    for _ in range(20):
        assert parallel.halves(100, _squares) == _squares(0, 100)


@pytest.mark.parametrize("fork", [True, False])
def test_work_meanwhile_is_done_once_here(forked: list[int], fork: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``meanwhile`` (what ``dtc compile`` lints the book with) runs once, in this process, after
    the child has started on the items (or before they are built, when there is no child); the
    items are the serial ones either way."""
    if not fork:
        monkeypatch.setattr(parallel, "wanted", lambda count: False)
    calls: list[tuple[int, int]] = []
    assert parallel.halves(100, _squares, lambda: calls.append((os.getpid(), len(forked)))) == _squares(0, 100)
    assert calls == [(os.getpid(), 1 if fork else 0)]


def test_work_meanwhile_that_fails_leaves_no_child(forked: list[int]) -> None:
    """When ``meanwhile`` raises, the child is stopped and reaped before the error goes on."""

    def fails() -> None:
        raise RuntimeError("the lint fails")

    with pytest.raises(RuntimeError, match="the lint fails"):
        parallel.halves(100, _squares, fails)
    assert len(forked) == 1
    with pytest.raises(ChildProcessError):
        os.waitpid(forked[0], os.WNOHANG)  # already reaped


@pytest.mark.parametrize("reading_ahead", [True, False])
def test_a_stop_while_entries_are_read_leaves_no_child(forked: list[int], monkeypatch: pytest.MonkeyPatch,
                                                       reading_ahead: bool) -> None:
    """A stop (Ctrl-C, or SIGTERM taken as one) while this process reads its share of the
    entries stops and reaps the child reading the rest, which would otherwise read on to the end
    of its share (and then read effects ahead) with no one to send them to."""

    doc = parse("".join(f"{n} A room. Go to {n + 1}.\n\n" for n in range(1, 41)) + "41 The end.\n", "x")
    entries = doc.entries
    parent = os.getpid()
    forked.clear()

    def read(lo: int, hi: int) -> list[Entry]:
        if os.getpid() == parent:
            raise KeyboardInterrupt
        time.sleep(0.5)  # a slow child: still reading when this process stops
        return entries[lo:hi]

    monkeypatch.setattr(runmode, "current", lambda: RunMode(read_ahead=(lambda text: None) if reading_ahead else None))
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        parallel.read_entries(Document(path="x"), "", [], len(entries), [0] * len(entries), read, lambda k: "")
    assert len(forked) == 1
    with pytest.raises(ChildProcessError):
        os.waitpid(forked[0], os.WNOHANG)  # already reaped
    assert time.monotonic() - started < 5  # not after the child's 7 chunks of half a second


@pytest.mark.parametrize("reading_ahead", [True, False])
def test_compile_lints_beside_the_child(forked: list[int], tmp_path: Path, reading_ahead: bool) -> None:
    """``dtc compile`` of a book with lint errors, linted here while a child works: the child
    that read part of the entries and reads effects ahead, or (when there is none) the child
    that builds part of the graph. The JSON is the serial text and the errors are those
    ``dtc lint`` finds."""
    from click.testing import CliRunner

    from dtc.cli import main

    book = tmp_path / "book.txt"
    book.write_text(_generated(30) + "\n## 31\n\nA dead end that names a missing entry (D0, S999).\n", "utf-8")
    out = tmp_path / "book.json"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(parallel, "wanted", lambda count: False)
        comp = compile_text(book.read_text("utf-8"), str(book))
        expected = comp.graph_json("\n")
        errors = [d for d in lint_compilation(comp) if d.severity.name == "ERROR"]
    assert errors
    written_halves, beside = parallel.written_halves, []

    def watched(fd: int, at: int, count: int, build: Any, sep: bytes, meanwhile: Any = None,
                aside: Any = None) -> int:
        beside.append(meanwhile is not None)
        return written_halves(fd, at, count, build, sep, meanwhile, aside)

    def no_reading_ahead(_: Any) -> None:
        raise OSError("no second temporary file")  # read_entries then reads every entry here

    forked.clear()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(parallel, "written_halves", watched)
        if not reading_ahead:
            mp.setattr(parallel, "Ahead", no_reading_ahead)
        result = CliRunner().invoke(main, ["compile", str(book), "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert len(forked) == (2 if reading_ahead else 1)
    assert beside == [not reading_ahead]  # linted before the graph's build while the reader reads ahead
    assert out.read_text("utf-8") == expected
    assert sum("error" in line for line in result.stderr.splitlines()) >= len(errors)


def test_shared_work_refuses_what_a_child_left_incomplete() -> None:
    """What :func:`parallel.halves`' child sends is its parts, last first, then where it began:
    without that last frame, or with a beginning its parts do not reach, it is refused (and the
    parent builds those items itself)."""
    import tempfile

    def sent(*frames: Any) -> list[Any] | None:
        with tempfile.TemporaryFile() as spool:
            for frame in frames:
                parallel._write(spool, frame)
            spool.flush()
            return parallel._parts(spool, 10)

    assert sent(_squares(8, 10), _squares(5, 8), (parallel._END, 5)) == _squares(5, 10)
    assert sent((parallel._END, 10)) == []
    assert sent(_squares(8, 10), _squares(5, 8)) is None  # cut short
    assert sent(_squares(8, 10), (parallel._END, 5)) is None  # begun where its parts do not reach
    assert sent(_squares(8, 10), "not a part", (parallel._END, 8)) is None


def _words(lo: int, hi: int) -> list[bytes]:
    return [f"«{i * i}»".encode() for i in range(lo, hi)]


def _written_file(count: int, build: Any, sep: bytes, tmp_path: Path, **kwargs: Any) -> tuple[bytes, int, int]:
    """:func:`parallel.written_halves` into a new file after a head of three bytes, with an aside
    that writes "!" over the head's first byte: the file, where the items end, and the asides run
    in this process."""
    asides: list[int] = []
    path = tmp_path / f"written-{len(list(tmp_path.iterdir()))}.bin"
    with open(path, "w+b") as out:
        out.write(b"abc")
        out.flush()
        fd = out.fileno()

        def aside() -> None:
            asides.append(os.getpid())
            os.pwrite(fd, b"!", 0)

        end = parallel.written_halves(fd, 3, count, build, sep, aside=aside, **kwargs)
    here = sum(pid == os.getpid() for pid in asides)
    return path.read_bytes(), end, here


@pytest.mark.parametrize("seen", ["true", "stale", "torn"])
def test_written_work_is_the_serial_text(forked: list[int], seen: str, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`parallel.written_halves` writes the items with the separator between them where
    they belong, whoever built which, whatever each look at the other's progress saw; one item,
    or none, as well. The aside runs once, in the child when it ends well."""
    import random

    draw = random.Random(11)
    start = {0: 0, 4: 100}
    if seen != "true":
        monkeypatch.setattr(parallel, "_read", lambda shared, at: start[at] if seen == "stale"
                            else draw.randrange(0, 101))
    for count in (100, 1, 0) if seen == "true" else (100,) * 10:
        forked.clear()
        data, end, here = _written_file(count, _words, b", ", tmp_path)
        assert data == b"!bc" + b", ".join(_words(0, count)) and end == len(data), count
        assert here == (0 if forked else 1)
    if seen != "true":
        return

    def pairs(slowed: Any) -> Any:
        return lambda lo, hi: [f"[{a},{b}]".encode() for a, b in slowed(lo, hi)]

    for slow in ("parent", "child"):
        build = pairs(_slow_in(slow))
        data, end, _ = _written_file(60, build, b"|", tmp_path)
        assert data == b"!bc" + b"|".join(build(0, 60)) and end == len(data), slow


@pytest.mark.parametrize("fails", ["building", "aside", "fork"])
def test_written_work_of_a_child_that_fails_is_done_here(forked: list[int], fails: str, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A child of :func:`parallel.written_halves` that fails part way (after writing some parts),
    or in its aside, or that cannot be forked, leaves that work to this process: the file holds
    the serial text and the aside's mark."""
    parent, slowed = os.getpid(), _slow_in("parent")
    built_here: list[int] = []

    def build(lo: int, hi: int) -> list[bytes]:
        if fails == "building" and os.getpid() != parent and lo >= 20:
            raise RuntimeError("the child fails")
        slowed(lo, hi)  # a millisecond an item here: the child writes parts before it fails
        if os.getpid() == parent:
            built_here.extend(range(lo, hi))
        return _words(lo, hi)

    if fails == "fork":
        def no_fork() -> int:
            raise OSError("no fork today")

        monkeypatch.setattr(parallel.forking, "fork", no_fork)
    if fails == "aside":
        monkeypatch.setattr(os, "pwrite", _failing_in_a_child(os.pwrite, parent))
    data, end, here = _written_file(60, build, b",", tmp_path)
    assert data == b"!bc" + b",".join(_words(0, 60)) and end == len(data)
    assert here == 1
    if fails != "aside":  # what a child wrote before it died is not trusted: all of it built here
        assert sorted(set(built_here)) == list(range(60))
    assert bool(forked) == (fails != "fork")


def _failing_in_a_child(pwrite: Any, parent: int) -> Any:
    """``os.pwrite`` that fails in a child when it writes a single byte (the aside's mark)."""
    def written(fd: int, data: Any, offset: int) -> int:
        if os.getpid() != parent and len(data) == 1:
            raise OSError("the aside fails")
        return int(pwrite(fd, data, offset))

    return written


@pytest.mark.parametrize("where", ["meanwhile", "building"])
@pytest.mark.parametrize("shared", ["halves", "written_halves"])
def test_an_error_here_stops_the_child(forked: list[int], tmp_path: Path, where: str, shared: str) -> None:
    """A ``meanwhile`` that raises, or a stop while this process builds, stops and reaps the child
    of :func:`parallel.halves` and of :func:`parallel.written_halves` before the error goes on."""
    parent = os.getpid()

    def fails() -> None:
        raise RuntimeError("stopped here")

    def build(lo: int, hi: int) -> list[bytes]:
        if os.getpid() == parent and where == "building":
            fails()
        if os.getpid() != parent:
            time.sleep(0.01)  # a slow child: this process always builds a part (on a busy machine too)
        return _words(lo, hi)

    meanwhile = fails if where == "meanwhile" else None
    with pytest.raises(RuntimeError, match="stopped here"):
        if shared == "halves":
            parallel.halves(60, build, meanwhile)
        else:
            _written_file(60, build, b",", tmp_path, meanwhile=meanwhile)
    assert forked
    for pid in forked:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # already reaped


@pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX signals")
def test_a_terminated_compile_leaves_no_file_and_no_child(tmp_path: Path) -> None:
    """SIGTERM while `dtc compile` (the installed command's path: two processes) builds the graph
    into the file that will replace its output: it ends through its clean-ups with status 143,
    the process writing beside it is stopped, and no temporary and no output are left."""
    import subprocess
    import textwrap

    book, out, marks = tmp_path / "book.txt", tmp_path / "out" / "book.json", tmp_path / "marks.txt"
    book.write_text(_generated(2000), "utf-8")
    script = textwrap.dedent(f"""
        import os, sys, time
        import dtc.compiler.read_effects as effects
        real = effects.extract_effects
        def slow(text, creatures=None):  # each process that reads effects says so; the build is slow
            with open({str(marks)!r}, "a") as f:
                f.write(f"{{os.getpid()}}\\n")
            time.sleep(0.003)
            return real(text, creatures)
        effects.extract_effects = slow
        sys.argv = ["dtc", "compile", {str(book)!r}, "-o", {str(out)!r}]
        from dtc.cli import run
        run()
    """)
    with (tmp_path / "stdout.txt").open("wb") as printed:  # a file of the test's own, never a device
        proc = subprocess.Popen([sys.executable, "-c", script], stdout=printed, stderr=subprocess.PIPE,
                                text=True, env={**os.environ, "DTC_PARALLEL": "1"})
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # this process reads effects only in the build
            if marks.exists() and str(proc.pid) in marks.read_text().split():
                break
            time.sleep(0.02)
        time.sleep(0.2)
    finally:
        terminated(proc)
    others = {int(p) for p in marks.read_text().split()} - {proc.pid}
    assert others  # the reading-ahead child, and the one building beside this one
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in others) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in others)
    assert list((tmp_path / "out").iterdir()) == []


def test_compile_whose_lint_fails_leaves_no_child(forked: list[int], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A lint that fails while the reading child reads effects ahead stops that child and reaps
    it before the error goes on; no output is written."""
    from click.testing import CliRunner

    import dtc.cli.compile_cmd as compile_cmd
    from dtc.cli import main

    def fails(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the lint fails")

    book = tmp_path / "book.txt"
    book.write_text(_generated(30), "utf-8")
    monkeypatch.setattr(compile_cmd, "lint", fails)
    result = CliRunner().invoke(main, ["compile", str(book), "-o", str(tmp_path / "book.json")])
    assert result.exit_code != 0 and isinstance(result.exception, RuntimeError)
    assert forked
    for pid in forked:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # already reaped
    assert not (tmp_path / "book.json").exists()
