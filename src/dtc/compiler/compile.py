"""Turn a parsed :class:`~dtc.compiler.model.Document` into the compiled graph (a JSON-ready dict).

:func:`resolve` settles what the graph's edges are — label numbers, the start, every exit,
"return to your most recent entry" expanded to each entry that leads in — once, for both the
JSON writer here and the analyses in :mod:`dtc.lint.analysis`.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial
from typing import Any, NamedTuple, cast

import dtc.compiler.dungeon as dungeon
from dtc import FORMAT_VERSION, FORMAT_VERSION_PUBLISHED, __version__
from dtc.compiled.graphjson import CompiledGraph
from dtc.compiler.model import Choice, Creature, Document, Entry, Offsets, StateChange, Target
from dtc.compiler.notation import Cond, Has, Not, change_json, cond_json, cond_names
from dtc.diagnostics import Span
from dtc.numbers import ENTRY, bounded
from dtc.systems import Ruleset, UnknownRuleset, get_ruleset


class Exit(NamedTuple):
    """An edge: a named tuple, since a large book has hundreds of thousands of them.

    A choice's exits leave ``span`` empty: the choice knows where its S and F targets are (see
    :meth:`Resolved.exit_span`), and works it out only when asked.
    """

    target: Target
    kind: str  # success | failure | random | prose | return
    choice: int | None
    span: Span | None


#: ``Exit`` from one tuple, without the named tuple's Python-level ``__new__``.
_new_exit: Callable[[tuple[Target, str, int | None, Span | None]], Exit] = partial(tuple.__new__, Exit)


@dataclass(slots=True)
class Resolved:
    """The graph a document describes: entries by number and the exits of each."""

    doc: Document
    numbers: list[int]  # the number of each entry (labels numbered), file order
    by_number: dict[int, int] = field(default_factory=dict)  # number -> index of first entry
    labels: dict[str, int] = field(default_factory=dict)
    exits: list[list[Exit]] = field(default_factory=list)
    start: int | None = None
    start_text: str | None = None  # the Start: value as written, when it names no number
    #: Indices of the entries that hold notation that does not parse (ascending, each once).
    malformed: list[int] = field(default_factory=list)

    def exit_span(self, index: int, exit_: Exit) -> Span | None:
        """Where exit ``exit_`` of entry ``doc.entries[index]`` is written: a choice's S or F
        target, a prose exit's phrase, a "return to your most recent entry"."""
        if exit_.choice is None or exit_.kind == "random":
            return exit_.span
        choice = self.doc.entries[index].choices[exit_.choice]
        return choice.success_span if exit_.kind == "success" else choice.failure_span

    def target_number(self, target: Target) -> int | None:
        """The entry number a target names, or None when it names no entry."""
        if isinstance(target, str):
            return self.labels.get(target)
        return target if target in self.by_number else None


def resolve_exits(entries: Sequence[Entry], labels: dict[str, int], malformed: list[int],
                  returning: list[int]) -> tuple[list[list[Exit]], bool]:
    """The exits of each of ``entries``, in order, their labels numbered as ``labels`` says: the
    one resolver, which :func:`resolve` runs over the whole book and the language server over
    each chunk of text (``dtc.lsp.incremental``), so the loop stays inline in both.

    Appends to ``malformed`` the index (in ``entries``) of each entry that holds notation that
    does not parse, and to ``returning`` that of each entry with a "return to your most recent
    entry" (whose exits depend on the whole book: :func:`resolve` adds them). Also returns
    whether any exit carries a span (random branches and prose exits do; a choice's S and F
    targets are found through the choice)."""
    new_exit = _new_exit
    spanned = False
    out: list[list[Exit]] = []
    for i, entry in enumerate(entries):
        exits: list[Exit] = []
        for ci, c in enumerate(entry.choices):
            if c.error is not None and (not malformed or malformed[-1] != i):
                malformed.append(i)
            t = c.success
            if t is not None:
                exits.append(new_exit((labels.get(t, t) if t.__class__ is str else t, "success", ci, None)))
            t = c.failure
            if t is not None:
                exits.append(new_exit((labels.get(t, t) if t.__class__ is str else t, "failure", ci, None)))
            if c.roll is not None:
                for b in c.roll.branches:
                    spanned = True
                    t = b.target
                    exits.append(new_exit((labels.get(t, t) if t.__class__ is str else t, "random", ci, b.span)))
        prose = entry.prose_exits
        if prose:
            spanned = True
            for p in prose:
                t = p.target
                exits.append(new_exit((labels.get(t, t) if t.__class__ is str else t, "prose", None, p.span)))
        if entry.returns:
            returning.append(i)
        out.append(exits)
    return out, spanned


def resolve(doc: Document) -> Resolved:
    taken = {e.number for e in doc.entries if isinstance(e.number, int)}
    next_free = max(taken, default=0) + 1
    labels: dict[str, int] = {}
    numbers: list[int] = []
    for entry in doc.entries:
        if isinstance(entry.number, int):
            numbers.append(entry.number)
        else:
            if entry.number not in labels:
                labels[entry.number] = next_free
                next_free += 1
            numbers.append(labels[entry.number])
    res = Resolved(doc, numbers, labels=labels)
    for i, n in enumerate(numbers):
        res.by_number.setdefault(n, i)

    returns: list[int] = []
    res.exits, _ = resolve_exits(doc.entries, labels, res.malformed, returns)

    # "Return to your most recent entry": an exit back to each entry that leads in.
    returning = {numbers[i] for i in returns}
    if returning:
        preds: dict[int, set[int]] = defaultdict(set)
        for number, i in res.by_number.items():
            for x in res.exits[i]:
                if x.target in returning:
                    preds[x.target].add(number)
        for i, entry in enumerate(doc.entries):
            for span in entry.returns:
                for pred in sorted(preds.get(numbers[i], ())):
                    if pred != numbers[i]:
                        res.exits[i].append(Exit(pred, "return", None, span))

    settle_start(res, doc, labels)
    return res


def settle_start(res: Resolved, doc: Document, labels: dict[str, int]) -> None:
    """The start entry: the ``Start:`` field (a number or a label), else the lowest number;
    ``start_text`` keeps a field that names neither (the compiler and the language server both)."""
    start_field = doc.meta.get("start")
    if start_field is not None:
        value = start_field.value.strip()
        if re.fullmatch(r"[0-9]+", value) and bounded(value, ENTRY) <= ENTRY:
            res.start = bounded(value, ENTRY)
        elif value in labels:
            res.start = labels[value]
        else:
            res.start_text = value
    elif res.numbers:
        res.start = min(res.numbers)


# --- creature names ------------------------------------------------------------------------


def _singular_forms(name: str) -> list[str]:
    n = " ".join(name.lower().split())
    forms = [n]
    if n.endswith("ies"):
        forms.append(n[:-3] + "y")
    if n.endswith("ves"):
        forms += [n[:-3] + "f", n[:-3] + "fe"]
    if n.endswith("men"):
        forms.append(n[:-3] + "man")
    if n.endswith("es"):
        forms.append(n[:-2])
    if n.endswith("s"):
        forms.append(n[:-1])
    return forms


def match_creature(name: str, creatures: dict[str, Creature]) -> Creature | None:
    """The stat block a written name refers to: ``Goblins`` finds ``Goblin``."""
    for form in _singular_forms(name):
        if form in creatures:
            return creatures[form]
    return None


def creature_index(doc: Document) -> dict[str, Creature]:
    index: dict[str, Creature] = {}
    for c in doc.all_creatures():
        index.setdefault(" ".join(c.name.lower().split()), c)
    return index


def entry_creatures(entry: Entry, index: dict[str, Creature]) -> list[str]:
    names = [c.name for c in entry.creatures]
    for m in entry.mentions:
        found = match_creature(m.name, index)
        if found is not None and found.name not in names:
            names.append(found.name)
    return names


# --- JSON ----------------------------------------------------------------------------------


def _span(span: Offsets | None) -> dict[str, int] | None:
    """A span (a :class:`Span` or its four numbers as a plain tuple) as the graph writes it."""
    if span is None:
        return None
    line, column, end_line, end_column = span
    return {"line": line, "column": column, "end_line": end_line, "end_column": end_column}


#: A span as compact JSON, from its four numbers (``%d`` writes an int as ``int.__repr__`` does).
_SPAN_TEXT = '{"line":%d,"column":%d,"end_line":%d,"end_column":%d}'


@cache
def _compact_encoder() -> Callable[[Any], str]:
    """``json.dumps(value, ensure_ascii=False, separators=(",", ":"))`` as one reusable function:
    ``json``'s own C encoder made once (``JSONEncoder.encode`` makes one on every call), without
    the circular-reference check, which plain data never needs (and whose absence cannot
    change a text that encodes). One for the process: it keeps no state between calls."""
    import json
    import json.encoder as impl

    make = getattr(impl, "c_make_encoder", None)
    plain = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
    if make is None:  # pragma: no cover - CPython has the C encoder
        return plain.encode
    encode = make(None, plain.default, impl.encode_basestring, None, ":", ",", False, False, True)
    join = "".join

    def dumps(value: Any) -> str:
        return join(encode(value, 0))

    return dumps


def _json_value(encoder: Callable[[Any], str], string: Callable[[str], str], value: Any) -> str:
    """``value`` as compact JSON: a plain ``str`` (by ``string``, ``json``'s own), ``int``, bool
    or ``None`` written here, anything else by ``encoder`` (the same text as ``json.dumps``)."""
    kind = type(value)
    if kind is str:
        return string(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return int.__repr__(value)
    return encoder(value)


def compile_document(doc: Document, text: str, resolved: Resolved | None = None, *,
                     effects: bool = True) -> CompiledGraph:
    """The compiled graph of ``doc`` as a dict that satisfies ``schemas/adventure.schema.json``.

    ``effects=False`` leaves every entry's ``effects`` empty (reading them from the prose is the
    larger part of building the graph): for a caller that looks at the structure only.
    """
    graph, _ = _graph(doc, text, resolved, encode=False, effects=effects)
    return graph


#: Entries whose JSON texts a serial build holds at once before encoding them (see ``build_utf8``).
_ENCODE_STEP = 256
#: Where the entries go in :func:`compile_json`'s text, until they are put there.
_ENTRIES = "\x00entries\x00"


def compile_json(doc: Document, text: str, resolved: Resolved | None = None, *, end: str = "") -> str:
    """``json.dumps`` of :func:`compile_document`'s graph, compact, without ASCII escapes, then ``end``.

    Each entry is encoded where it is built, so the entries a second process builds for a large
    book are encoded there too and only their text comes back (see :func:`dtc.compiler.parallel.halves`);
    encoding is compositional, so the text is the same, byte for byte. The whole text is put
    together by one join (a large book's is tens of megabytes: each further copy costs a pass
    over it and a page fault every 4 KiB).
    """
    import json

    graph, entries = _graph(doc, text, resolved, encode=True)
    assert entries is not None
    around = _around_entries(graph)
    if around is None:  # cannot happen: the key's value is ours alone
        graph["entries"] = [json.loads(e) for e in entries]
        return _dumps(graph) + end
    head, tail = around
    if not entries:
        return head + "[]" + tail + end
    # head[e0,e1,...,en]tail as one join: the first and last entries carry the ends.
    entries[0] = head + "[" + entries[0]
    entries[-1] = entries[-1] + "]" + tail + end
    return ",".join(entries)


def compile_json_write(doc: Document, text: str, fd: int, resolved: Resolved | None = None, *, end: str = "",
                       meanwhile: Callable[[], object] | None = None) -> int:
    """:func:`compile_json`'s text, in UTF-8, written to ``fd`` from its start (a new regular file,
    :func:`dtc.fileio.replacing`'s); returns its length, to which the file is cut. The whole
    text never exists as one ``str`` (which, with a dash or a curly quote in it, takes two bytes
    a letter) nor as one ``bytes``: each entry is encoded where it is built.

    The text around the entries is written first, with the source's digest left as zeros; the
    entries follow as :func:`dtc.compiler.parallel.written_halves` builds them (a large book's
    in two processes, each writing its own); then the rest, and the digest in its place, worked
    out by the second process once its entries are written (or here, without one). ``meanwhile()``,
    if given, runs once here while a second process starts on the graph's entries."""
    _graph(doc, text, resolved, encode=True, meanwhile=meanwhile, write_to=(fd, end))
    return os.fstat(fd).st_size  # (cut to its length)


#: The digest's place in the text written by :func:`compile_json_write` until it is known.
_NO_DIGEST = "0" * 64


#: Characters of the source encoded at a time for its digest (see :func:`_digest`).
_DIGEST_STEP = 16384


def _digest(text: str, step: int = _DIGEST_STEP) -> str:
    """The SHA-256 of the source's text in UTF-8, in hex: what the graph records of its source.

    The text is encoded a slice at a time (UTF-8 is encoded code point by code point, so the
    bytes are the same): each slice's bytes fit in memory the allocator reuses, where the whole
    text's (80 MB at 100,000 entries) would be new pages, each a page fault. ``dtc compile``'s
    second process works the digest out at its end: 0.37 s there at 100,000 entries with the
    whole text encoded, 0.11 s a slice at a time (``benchmarks/compile_phases.py``), and 80 MB
    less at its peak. (The whole compile's wall time did not move measurably: the first process
    is still writing its own entries meanwhile.)"""
    import hashlib

    digest = hashlib.sha256()
    for at in range(0, len(text), step):
        digest.update(text[at:at + step].encode("utf-8"))
    return digest.hexdigest()


def _write_graph(fd: int, graph: dict[str, Any], text: str, end: str, count: int,
                 build: Callable[[int, int], list[bytes]], meanwhile: Callable[[], object] | None) -> None:
    """:func:`compile_json_write`'s work, given the graph around its entries and the builder of
    their bytes (``_graph``'s); the file is cut where the text ends."""
    import dtc.compiler.parallel as parallel
    from dtc.fileio import pwrite_all

    around = _around_entries(graph)
    head, tail = around if around is not None else ("", "")
    first = (head + "[").encode("utf-8")
    # The path comes before the digest, as JSON: a quote of its own is written \", so the first
    # '"sha256":"' followed by the zeros is the digest's place.
    hole = first.find(b'"sha256":"' + _NO_DIGEST.encode("ascii"))
    if around is None or hole < 0:  # cannot happen: the placeholders are ours alone
        raise ValueError("the compiled graph's text has no place for its entries or its digest")
    hole += len(b'"sha256":"')

    def digest() -> None:
        pwrite_all(fd, [_digest(text).encode("ascii")], hole)

    at = pwrite_all(fd, [first], 0)
    at = parallel.written_halves(fd, at, count, build, b",", meanwhile, digest)
    at = pwrite_all(fd, [("]" + tail + end).encode("utf-8")], at)
    os.ftruncate(fd, at)


def _around_entries(graph: object) -> tuple[str, str] | None:
    """The graph's compact JSON before and after its entries, which are :data:`_ENTRIES`; None
    where that placeholder is not found exactly once (it cannot be: nothing an author writes
    holds a NUL)."""
    head, found, tail = _dumps(graph).partition(_dumps(_ENTRIES))
    return (head, tail) if found and _dumps(_ENTRIES) not in tail else None


def _dumps(data: Any) -> str:
    import json

    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _graph(
    doc: Document, text: str, resolved: Resolved | None, encode: bool, effects: bool = True,
    meanwhile: Callable[[], object] | None = None, write_to: tuple[int, str] | None = None,
) -> tuple[CompiledGraph, list[Any] | None]:
    """The graph; with ``encode``, its entries are the placeholder :data:`_ENTRIES` and come
    apart, each as JSON text. With ``write_to`` (a file and the text to end it with), the whole
    JSON is written to the file instead, each entry as the UTF-8 of its text, and the entries
    are not returned (see :func:`compile_json_write`)."""
    import dtc.compiler.parallel as parallel

    res = resolved or resolve(doc)
    try:
        ruleset: Ruleset | None = get_ruleset(doc.rules)
    except UnknownRuleset:
        ruleset = None

    def canonical(text: str) -> str | None:
        return ruleset.canonical_ability(text) if ruleset else None

    index = creature_index(doc)
    containers = doc.containers  # ``Containers:`` (docs/format.md, "Writing a published gamebook")
    names = frozenset(index)  # the effects reader's set of them is then made once, not for each entry
    numbers, labels, all_exits = res.numbers, res.labels, res.exits
    span_json = _span
    # Zones and hazards (Dungeon Rules): only in books that write them (optional in the schema).
    zones = bool(doc.zones or doc.hazards or any(e.zone or e.hazard_refs for e in doc.entries))
    if zones:
        from dtc.systems.dungeon_rules.ruleset import merge_conditions, zone_parts

    def optional(i: int, entry: Entry) -> dict[str, Any]:
        """The keys only some entries have, in their order: zone, conditions and hazards in
        books with zones; changes and ending_kind where the entry has them."""
        out: dict[str, Any] = {}
        if zones:
            number = numbers[i]
            row = next((z.text for z in doc.zones if z.low <= number <= z.high), None)
            zone, conditions, _ = zone_parts(row) if row is not None else (None, [], [])
            if entry.zone is not None:  # the entry's own line: what it names wins, kind by kind
                own, over, _ = zone_parts(entry.zone)
                if own is not None or not over:  # conditions alone keep the table's zone
                    zone = own
                conditions = merge_conditions(conditions, over)
            out["zone"] = zone
            if conditions:
                out["conditions"] = conditions
            out["hazards"] = list(dict.fromkeys(name for name, _ in entry.hazard_refs))
        # State (see "State" in docs/format.md): only on the entries that have it.
        if entry.changes:
            out["changes"] = _changes_json(entry.changes, containers)
        if entry.ending_kind is not None:
            out["ending_kind"] = entry.ending_kind
        return out

    def build(lo: int, hi: int) -> Iterator[dict[str, Any]]:
        """The JSON of entries ``lo`` to ``hi``, one at a time: each entry on its own (a large
        book's entries are shared with a second process, see :func:`dtc.compiler.parallel.halves`)."""
        for i in range(lo, hi):
            entry = doc.entries[i]
            spans = [c.graph_spans() for c in entry.choices]  # each choice's, its targets'
            item: dict[str, Any] = {
                "number": numbers[i],
                "label": entry.number if isinstance(entry.number, str) else None,
                "line": entry.span.line,
                "end_line": entry.end_line,
                "text": entry.text,
                "ending": entry.ending,
                "choices": [_state_choice(c, res, doc.score_name, containers, {
                        "label": c.label,
                        "text": c.text,
                        "ability": None if c.ability is None else (canonical(c.ability) or c.ability),
                        "difficulty": c.difficulty,
                        "success": None if c.success is None else labels.get(str(c.success), c.success),
                        "failure": None if c.failure is None else labels.get(str(c.failure), c.failure),
                        "error": c.error,
                        "span": span_json(c_spans[0]),
                    })
                    for c, c_spans in zip(entry.choices, spans, strict=True)
                ],
                "exits": [
                    {"target": x.target, "kind": x.kind, "choice": x.choice, "span": span_json(
                        x.span if x.choice is None or x.kind == "random"  # as Resolved.exit_span finds it
                        else spans[x.choice][1 if x.kind == "success" else 2])}
                    for x in all_exits[i]
                ],
                "creatures": entry_creatures(entry, index),
                "effects": (prose_effects(dungeon.blank_lines(entry.text), names)
                            if effects else []),
            }
            if zones or entry.changes or entry.ending_kind is not None:
                item.update(optional(i, entry))
            if ("Image" in entry.text or "![" in entry.text) and (images := entry_images(entry)):
                item["images"] = images
            yield item

    # Made once, not in each call of build_json (which builds the entries a part at a time):
    canonical_of: dict[str, str] = {}  # each ability as written -> as the graph names it
    digit_labels = any(key.isdigit() for key in labels)  # else no number's text is a label

    # What the reading child read ahead (see dtc.compiler.parallel.Ahead): an entry's effects as JSON.
    ahead: dict[int, str] = {}
    if doc.ahead is not None:  # the child stops here, whatever is built
        ahead, doc.ahead = doc.ahead.collect(), None
        if not effects:
            ahead = {}

    def build_json(lo: int, hi: int) -> list[str]:
        """Each entry's JSON text, written as it is built (only its text is kept): what
        ``json.dumps`` of :func:`build`'s dict gives, compact, byte for byte, without building
        the dicts of its choices and exits (see :func:`_json_value`). An ``int`` is written by
        the f-string itself (``format`` of an ``int`` is its ``repr``, as ``json`` writes it);
        only a bool (a subclass, written ``true``) or any other value goes through ``value``."""
        from json.encoder import encode_basestring as string  # what json.dumps writes a str as

        encoder = _compact_encoder()

        def value(item: Any) -> str:  # _json_value, its commonest cases first, without a call
            kind = type(item)
            if kind is int:
                return int.__repr__(item)
            if item is None:
                return "null"
            return string(item) if kind is str else _json_value(encoder, string, item)

        out: list[str] = []
        span_text = _SPAN_TEXT
        for i in range(lo, hi):
            entry = doc.entries[i]
            choices = []
            targets = []  # each choice's success and failure spans, for its exits
            for c in entry.choices:
                span, success_span, failure_span = c.graph_spans()
                targets.append((success_span, failure_span))
                ability = c.ability
                if ability is not None:
                    named = canonical_of.get(ability)
                    if named is None:
                        named = canonical_of[ability] = canonical(ability) or ability
                    ability = named
                success, failure = c.success, c.failure
                if success is not None and (digit_labels or type(success) is not int):
                    success = labels.get(str(success), success)
                if failure is not None and (digit_labels or type(failure) is not int):
                    failure = labels.get(str(failure), failure)
                choice = (
                    f'{{"label":{string(c.label)},"text":{string(c.text)},'
                    f'"ability":{"null" if ability is None else value(ability)},'
                    f'"difficulty":{difficulty if type(difficulty := c.difficulty) is int else value(difficulty)},'
                    f'"success":{success if type(success) is int else value(success)},'
                    f'"failure":{failure if type(failure) is int else value(failure)},'
                    f'"error":{"null" if c.error is None else value(c.error)},'
                    f'"span":{"null" if span is None else span_text % span}'
                )
                if c.condition is not None or c.roll is not None or c.changes:
                    for key, part in _state_choice(c, res, doc.score_name, containers, {}).items():
                        choice += f',"{key}":{encoder(part)}'
                choices.append(choice + "}")
            exits = []
            for target, kind, at, span in all_exits[i]:
                if at is not None and kind != "random":  # as Resolved.exit_span finds it
                    span = targets[at][0 if kind == "success" else 1]
                exits.append(
                    f'{{"target":{int.__repr__(target) if type(target) is int else value(target)},'
                    f'"kind":{string(kind)},"choice":{"null" if at is None else at if type(at) is int else value(at)},'
                    f'"span":{"null" if span is None else span_text % span}}}'
                )
            number = entry.number
            text = (
                f'{{"number":{n if type(n := numbers[i]) is int else value(n)},'
                f'"label":{string(number) if isinstance(number, str) else "null"},'
                f'"line":{n if type(n := entry.span.line) is int else value(n)},'
                f'"end_line":{n if type(n := entry.end_line) is int else value(n)},"text":{string(entry.text)},'
                f'"ending":{"true" if (end := entry.ending) is True else "false" if end is False else value(end)},'
                f'"choices":[{",".join(choices)}],"exits":[{",".join(exits)}],'
                f'"creatures":[{",".join(map(string, entry_creatures(entry, index)))}],'
                '"effects":' + (ahead.get(i) or encoder(prose_effects(dungeon.blank_lines(entry.text), names)
                                                        if effects else []))
            )
            if zones or entry.changes or entry.ending_kind is not None:
                for key, part in optional(i, entry).items():
                    text += f',"{key}":{encoder(part)}'
            if ("Image" in entry.text or "![" in entry.text) and (images := entry_images(entry)):
                text += f',"images":{encoder(images)}'
            out.append(text + "}")
        return out

    def build_utf8(lo: int, hi: int) -> list[bytes]:
        """build_json's texts encoded, a few hundred entries at a time: each text (a ``str``,
        two bytes a letter where it holds a dash or a curly quote) is dropped once encoded, so
        a serial build of a large book never holds them all (460 MB at 100,000 entries)."""
        out: list[bytes] = []
        for at in range(lo, hi, _ENCODE_STEP):
            out += [part.encode("utf-8") for part in build_json(at, min(hi, at + _ENCODE_STEP))]
        return out

    def skeleton(entries: Any, sha256: str) -> dict[str, Any]:
        """The graph around its entries (``entries``: the entries, or :data:`_ENTRIES` where they go)."""
        graph = {
            "format": "dtc-adventure",
            "format_version": FORMAT_VERSION,
            "dtc_version": __version__,
            "source": {"path": doc.path, "sha256": sha256},
            "title": doc.title,
            "author": doc.meta["author"].value if "author" in doc.meta else None,
            "rules": doc.rules,
            "start": res.start,
            "creatures": [
                {
                    "name": c.name,
                    "hp": c.hp,
                    "morale": c.morale,
                    "attacks": [{"name": a.name, "damage": a.damage} for a in c.attacks],
                    "special": c.special,
                    "stats": dict(c.stats),
                    "entry": c.entry,
                    "line": c.span.line,
                    **({"exits": {k: res.labels.get(t, t) if isinstance(t, str) else t for k, t in c.exits.items()}}
                       if c.exits else {}),
                }
                for c in doc.all_creatures()
            ],
            "encounters": [
                {
                    "low": e.low,
                    "high": e.high,
                    "text": e.text,
                    "line": e.span.line,
                    "groups": [
                        {
                            "count": g.count,
                            "name": g.name,
                            "creature": (m.name if (m := match_creature(g.name, index)) else None),
                        }
                        for g in e.groups
                    ],
                }
                for e in doc.encounters
            ],
            "entries": entries,
        }
        introduction = [p for p in doc.introduction if p]
        if introduction:
            graph["introduction"] = introduction
        if zones:
            _dungeon_notation(doc, graph, canonical)
        _possessions(doc, graph)
        _published(doc, graph)
        return graph

    if write_to is not None:  # written straight to the output, the digest worked out beside
        fd, end = write_to
        graph = skeleton(_ENTRIES, _NO_DIGEST)
        _write_graph(fd, graph, text, end, len(doc.entries), build_utf8, meanwhile)
        return cast(CompiledGraph, graph), None
    encoded: list[Any] | None = None
    entries: Any = _ENTRIES
    if encode:
        encoded = parallel.halves(len(doc.entries), build_json, meanwhile)
    else:
        entries = parallel.halves(len(doc.entries), lambda lo, hi: list(build(lo, hi)))
    graph = skeleton(entries, _digest(text))
    return cast(CompiledGraph, graph), encoded  # a plain dict; tests/test_golden.py validates it


def effects_ahead(text: str) -> str | None:
    """An entry's effects as the compiled graph writes them (JSON), read from its ``text``
    alone, or None when they depend on more: when they name creatures, which are those of the
    book's stat blocks (``dtc compile``'s :attr:`dtc.runmode.RunMode.read_ahead`).

    Read with no stat-block names, the reader takes every counted, capitalised name for
    creatures (``4 Goblins``); given names, it drops those that match none, and it drops effects
    only there. So where it finds no creatures without names, it finds the same effects with
    any names at all."""
    found = prose_effects(dungeon.blank_lines(text), None)
    if any(effect["kind"] == "creatures" for effect in found):
        return None
    return _compact_encoder()(found)


def prose_effects(text: str, names: Iterable[str] | None) -> list[dict[str, Any]]:
    """The effects of an entry's prose (:func:`dtc.compiler.read_effects.extract_effects`), its
    ``[+stone key]`` brackets blanked, less the rule-like sentences (``manual``) that such a
    bracket states exactly — one holding it, or right before it, whose every rule word the
    bracket names ("You count fifty coins into his palm. [-50 coins]"): dtc applies those, so
    there is nothing left for the player's ruling ("Note the oil's weight (Weight 3). [+oil]"
    keeps its note: the weight is not applied)."""
    from dtc.compiler.read_effects import extract_effects

    found = extract_effects(_blank_state(text), names)
    if "[" not in text or not any(e["kind"] == "manual" for e in found):
        return found
    from dtc.compiler.entries import EFFECTS
    from dtc.compiler.read_effects import RULE_WORDS

    brackets = [m.span() for m in EFFECTS.finditer(text)]
    for e in found:  # a bracket that opens a note belongs to the sentence before it
        if e["kind"] == "manual":
            for start, end in brackets:
                if start <= e["start"] < end or (e["start"] <= start and not text[e["start"]:start].strip()):
                    e["start"] = end + len(text[end:e["end"]]) - len(text[end:e["end"]].lstrip())
            e["text"] = text[e["start"]:e["end"]].strip()

    def noted(e: dict[str, Any]) -> bool:
        if e["kind"] != "manual":
            return False
        for start, end in brackets:
            if (start < e["end"] and e["start"] < end) or (start >= e["end"] and not text[e["end"]:start].strip()):
                said = text[start:end].lower()  # every rule word of the sentence must be the bracket's
                return all(w.group().lower().rstrip("s") in said for w in RULE_WORDS.finditer(e["text"]))
        return False

    kept = [i for i, e in enumerate(found) if not noted(e)]  # (a note kept shows its brackets as written)
    if len(kept) == len(found):
        return found
    new = {old: n for n, old in enumerate(kept)}
    out = [found[i] for i in kept]
    for e in out:
        when = e.get("when")
        if when is not None and when.get("check") in new:
            e["when"] = {**when, "check": new[when["check"]]}
    return out


def _blank_state(text: str) -> str:
    """The text with its ``[+stone key]`` effects blanked (same offsets): they are state, which
    the prose-effect reader must not take for rules to adjudicate."""
    if "[" not in text:
        return text
    from dtc.compiler.entries import EFFECTS

    return EFFECTS.sub(lambda m: " " * len(m.group()), text)


def _state_choice(c: Choice, res: Resolved, score: Callable[[str], str | None],
                  containers: Mapping[str, tuple[str, ...]], out: dict[str, Any]) -> dict[str, Any]:
    """A choice's condition, random branch and effects, added only to the choices that have them
    (``score``: the adventurer's score a condition's name is, :meth:`Document.score_name`)."""
    if c.condition is not None:
        out["condition"] = cond_json(c.condition, score)
    if c.changes:
        out["changes"] = _changes_json(c.changes, containers)
    if c.roll is not None:
        out["roll"] = {
            "dice": c.roll.dice,
            "count": c.roll.count,
            "sides": c.roll.sides,
            "branches": [
                {"low": b.low, "high": b.high, "target": res.labels.get(b.target, b.target) if isinstance(
                    b.target, str) else b.target}
                for b in c.roll.branches
            ],
        }
    return out


def _published(doc: Document, graph: dict[str, Any]) -> None:
    """The published-gamebook forms at the graph's top (docs/format.md, "Writing a published
    gamebook"): ``start_with``, ``limits``, ``containers`` and ``drop_by_choice`` (the containers
    past whose limit the reader chooses what to drop) from the front matter, added only to books that
    write them; a book that writes any form of version 3 is written as version 3 (a book
    without them stays version 2, which every reader since state came reads)."""
    start, limits, containers = doc.start_with, doc.limits, doc.containers
    if start:
        graph["start_with"] = [{"name": name, "amount": amount} for name, amount in start]
    if limits:
        graph["limits"] = dict(limits)
    if containers:
        graph["containers"] = {name: list(members) for name, members in containers.items()}
        chosen = sorted(doc.chosen_limits & set(limits))
        if chosen:
            graph["drop_by_choice"] = chosen
    if start or limits or containers or uses_version_3(doc) or any(c.exits for c in doc.all_creatures()):
        graph["format_version"] = FORMAT_VERSION_PUBLISHED


#: An illustration in an entry: ``Image: cellar.png`` or ``Image: cellar.png | the cellar stair`` on a
#: line of its own, or a Markdown image, ``![the cellar stair](cellar.png)``.
IMAGE_LINE = re.compile(r"^[ \t]*Image[ \t]*:[ \t]*([^\s|]+)(?:[ \t]*\|[ \t]*([^\n]*?))?[ \t]*$", re.M)
MARKDOWN_IMAGE = re.compile(r"!\[([^\[\]\n]{0,300})\]\([ \t]*<?([^\s()<>]{1,500})>?(?:[ \t]+\"[^\"\n]*\")?[ \t]*\)")


def entry_images(entry: Entry) -> list[dict[str, Any]]:
    """The illustrations an entry places, in text order: where the image is (as written, relative
    to the book), its words for a reader who cannot see it, and its line."""
    found = [(m.start(), m.group(1), m.group(2) or "") for m in IMAGE_LINE.finditer(entry.text)]
    found += [(m.start(), m.group(2), m.group(1)) for m in MARKDOWN_IMAGE.finditer(entry.text)]
    return [{"src": src, "alt": " ".join(alt.split()), "line": entry.span.line + entry.text.count("\n", 0, at)}
            for at, src, alt in sorted(found)]


def uses_version_3(doc: Document) -> bool:
    """Whether the book writes a form that came with version 3 of the graph: effects on a choice,
    a change of a published-gamebook form, a compared condition or a score, an illustration."""
    for entry in doc.entries:
        if ("Image" in entry.text or "![" in entry.text) and entry_images(entry):
            return True
        if any(ch.change is not None for ch in entry.changes):
            return True
        for c in entry.choices:
            if c.changes or (c.condition is not None and _compares(c.condition, doc)):
                return True
    return False


def _compares(cond: Cond, doc: Document) -> bool:
    if isinstance(cond, Has):
        return cond.op != ">=" or doc.score_name(cond.name) is not None
    if isinstance(cond, Not):
        return _compares(cond.arg, doc)
    return any(_compares(a, doc) for a in cond.args)


def _changes_json(changes: list[StateChange], containers: Mapping[str, tuple[str, ...]]) -> list[dict[str, Any]]:
    """Effects as the graph writes them (``$defs/change``). With containers (``Containers:``):
    ``[-all backpack]`` is a loss of every one of each possession the container holds (one change
    each, marked with its ``container``), and ``[-1 item of choice from backpack]`` chooses
    ``among`` them (none when no container has the name: lint DT126 reports it)."""
    out: list[dict[str, Any]] = []
    for ch in changes:
        c = ch.change
        if c is None:
            out.append({"name": ch.name, "amount": ch.amount})
        elif c.all and ch.name in containers:
            out += [{**change_json(replace(c, name=m)), "container": ch.name} for m in containers[ch.name]]
        elif c.source is not None:
            out.append({**change_json(c), "container": c.source, "among": list(containers.get(c.source, ()))})
        else:
            out.append(change_json(c))
    return out


def _possessions(doc: Document, graph: dict[str, Any]) -> None:
    """The names of the possessions the book gives, takes or tests (see "State" in
    docs/format.md): added only to books that write them (optional in the schema)."""
    names: dict[str, None] = {}
    expanded = doc.expanded  # ([-all backpack] names what the backpack holds)
    for entry in doc.entries:
        if entry.changes:
            names.update(dict.fromkeys(c.name for c in expanded(entry.changes)
                                       if c.change is None or not c.change.pick))
        for c in entry.choices:
            if c.condition is not None:
                names.update(dict.fromkeys(cond_names(c.condition, doc.scores)))
            if c.changes:
                names.update(dict.fromkeys(ch.name for ch in expanded(c.changes)
                                           if ch.change is None or not ch.change.pick))
    names.update(dict.fromkeys(name for name, _ in doc.start_with))
    if names:
        graph["possessions"] = sorted(names)


def _dungeon_notation(doc: Document, graph: dict[str, Any], canonical: Callable[[str], str | None]) -> None:
    """Zones and hazards (Dungeon Rules): added only to books that write them (optional in the
    schema); each entry's zone and hazards are added where it is built."""
    from dtc.systems.dungeon_rules.ruleset import zone_key

    graph["zones"] = [{"low": z.low, "high": z.high, "text": z.text, "zone": zone_key(z.text), "line": z.span.line}
                      for z in doc.zones]
    graph["hazards"] = [
        {
            "name": h.name,
            "entry": h.entry,
            "line": h.span.line,
            "check": None if h.check is None else {
                "abilities": [canonical(a) or a for a in h.check.abilities],
                "difficulty": h.check.difficulty,
            },
            "fail": h.fail,
            "pass": h.pass_,
            "mitigation": list(h.mitigation),
            "telltales": h.telltales,
            "trigger": h.trigger,
            "error": h.error,
        }
        for h in doc.hazards
    ]
