"""What stands at a position, and where it leads: go to definition (``S24``, ``F78``, "go to 24"
-> entry 24), find references (every exit into an entry: "what leads here"), the document
outline and folding."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lsprotocol import types

from dtc.compiler.model import Choice, Entry, Target
from dtc.compiler.notation import cond_names
from dtc.diagnostics import Span
from dtc.lsp.positions import Lines, contains
from dtc.lsp.workspace import Snapshot, first_lines, stored
from dtc.numbers import ENTRY, bounded


@dataclass(frozen=True, slots=True)
class Found:
    #: ``head`` (an entry's number), ``success``/``failure`` (a target token in notation),
    #: ``choice`` (elsewhere in a parenthetical), ``prose`` (``go to 17``), ``start`` (``Start:``).
    kind: str
    span: Span
    #: The entry the thing belongs to (for ``head``: that entry).
    index: int | None = None
    target: Target | None = None
    choice: Choice | None = None


def find(snap: Snapshot, line: int, column: int) -> Found | None:
    """The most specific thing at 1-based ``line``/``column``."""
    start = snap.doc.meta.get("start")
    if start is not None and start.span.line == line:
        value = start.value.strip()
        target: Target = bounded(value, ENTRY) if value.isdigit() else value
        return Found("start", start.span, None, target)
    index = snap.entry_at(line)
    if index is None:
        return None
    entry = snap.doc.entries[index]
    if contains(entry.span, line, column):
        return Found("head", entry.span, index, entry.number)
    for c in entry.choices:
        if not contains(c.span, line, column):
            continue
        if c.success_span is not None and contains(c.success_span, line, column):
            return Found("success", c.success_span, index, c.success, c)
        if c.failure_span is not None and contains(c.failure_span, line, column):
            return Found("failure", c.failure_span, index, c.failure, c)
        return Found("choice", c.span, index, c.success, c)
    for p in entry.prose_exits:
        if contains(p.span, line, column):
            return Found("prose", p.span, index, p.target)
    return None


def referenced_number(snap: Snapshot, found: Found) -> int | None:
    """The entry number a found thing names or is (None when it names no entry)."""
    if found.kind == "head" and found.index is not None:
        return snap.number_of(found.index)
    if found.target is None:
        return None
    return snap.comp.resolved.target_number(found.target)


# --- features ------------------------------------------------------------------------------



def definition(snap: Snapshot, line: int, column: int) -> list[types.Location]:
    """Where a target leads; inside a parenthetical but off its targets, both outcomes."""
    found = find(snap, line, column)
    if found is None or found.kind == "head":
        return []
    targets = [found.target]
    if found.kind == "choice" and found.choice is not None:
        c = found.choice
        if c.condition is not None and c.condition_span is not None and contains(c.condition_span, line, column):
            return _givers(snap, set(cond_names(c.condition)))
        targets = [c.success, c.failure]
        if c.roll is not None:
            inside: list[Target | None] = [b.target for b in c.roll.branches if contains(b.span, line, column)]
            targets = inside or [b.target for b in c.roll.branches]
    out = []
    for target in targets:
        entry = None if target is None else snap.entry_for(target)
        if entry is not None:
            out.append(types.Location(snap.uri, snap.lines.range(entry.span)))
    return out


def _givers(snap: Snapshot, names: set[str]) -> list[types.Location]:
    """Where the effects that give any of ``names`` are written (``[+stone key]``)."""
    return [types.Location(snap.uri, snap.lines.range(ch.span, by))
            for entry, by in stored(snap.doc.entries) for ch in entry.changes if ch.amount > 0 and ch.name in names]


def references(snap: Snapshot, line: int, column: int, include_declaration: bool) -> list[types.Location]:
    """Every exit that leads into the entry at (or named at) the position."""
    found = find(snap, line, column)
    if found is None:
        return []
    number = referenced_number(snap, found)
    if number is None:
        return []
    res = snap.comp.resolved
    out: list[types.Location] = []
    if include_declaration:
        entry = snap.doc.entries[res.by_number[number]]
        out.append(types.Location(snap.uri, snap.lines.range(entry.span)))
    seen: set[tuple[int, int, int, int]] = set()
    for i, exits in enumerate(res.exits):
        for x in exits:
            if res.target_number(x.target) != number or (span := res.exit_span(i, x)) is None:
                continue
            key = (span.line, span.column, span.end_line, span.end_column)
            if key not in seen:  # a "return to your most recent entry" may be one span for many
                seen.add(key)
                out.append(types.Location(snap.uri, snap.lines.range(span)))
    out.sort(key=lambda loc: (loc.range.start.line, loc.range.start.character))
    return out


def _summary(text: str, width: int = 60) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1].rstrip() + "…"


#: One outline item as the JSON LSP sends (a ``DocumentSymbol``).
SymbolJSON = dict[str, Any]


@dataclass(slots=True)
class _Item:
    """What an entry's outline item holds that an edit elsewhere leaves as it is: its lines
    counted from the entry's first, their characters, and its words; with what they were worked
    out from, checked before they are used again (the entry's words come from its lines)."""

    entry: Entry
    encoding: str
    lines: list[str]  # the entry's lines then: the characters count their code units
    detail: str
    last: int  # the entry's last line, from its first
    end: int  # the character after its last line's end
    selection: tuple[int, int, int, int]  # (line, character) where its number's span starts and ends
    children: list[tuple[str, str, int, int, int, int]]  # name, detail, then the span as above


def _item(entry: Entry, by: int, lines: Lines, own: list[str]) -> _Item:
    head = entry.span.line + by
    last = max(entry.end_line + by, head)

    def where(span: Span) -> tuple[int, int, int, int]:
        r = lines.range_json(span, by)
        start, end = r["start"], r["end"]
        return start["line"] - (head - 1), start["character"], end["line"] - (head - 1), end["character"]

    return _Item(entry, lines.encoding, own,
                 ("THE END · " if entry.ending else "") + _summary(first_lines(entry, limit=1)),
                 last - head, lines.units(last, len(lines.line(last)) + 1), where(entry.span),
                 [(c.label or c.text, c.text, *where(c.span)) for c in entry.choices])


def document_symbols(snap: Snapshot) -> list[SymbolJSON]:
    """The outline: every entry (its choices as children), then the stat blocks.

    Built as the JSON the reply carries, not as :class:`lsprotocol.types.DocumentSymbol`
    objects: a 10,000-entry book's outline has about 40,000 items, and making the typed objects
    and converting them back to JSON took over a second. (A test holds the shape to LSP's.)
    What each entry's item holds apart from where the entry stands (its characters, counted in
    code units of its lines, and its words) is remembered from one version to the next
    (:attr:`Snapshot.outline`) and worked out again only for an entry an edit changed: editors
    ask for the outline after every change, and lines added near the top move every entry."""
    doc, lines = snap.doc, snap.lines
    known: dict[int, _Item] = snap.outline
    symbols: list[SymbolJSON] = []
    key, event, struct = types.SymbolKind.Key.value, types.SymbolKind.Event.value, types.SymbolKind.Struct.value
    shifted = stored(doc.entries)
    text_lines, encoding = lines.lines, lines.encoding
    for i, (entry, by) in enumerate(shifted):
        number = snap.number_of(i)
        name = str(entry.number) if isinstance(entry.number, int) else f"{entry.number} ({number})"
        head = entry.span.line + by
        own = text_lines[max(head - 1, 0):max(entry.end_line + by, head)]
        item = known.get(id(entry))
        if item is None or item.entry is not entry or item.encoding != encoding or item.lines != own:
            item = known[id(entry)] = _item(entry, by, lines, own)
        base = head - 1
        line, character, end_line, end_character = item.selection
        symbol: SymbolJSON = {
            "name": name,
            "detail": item.detail,
            "kind": key,
            "range": {"start": {"line": max(base, 0), "character": 0},
                      "end": {"line": max(base + item.last, 0), "character": item.end}},
            "selectionRange": {"start": {"line": base + line, "character": character},
                               "end": {"line": base + end_line, "character": end_character}},
        }
        if item.children:
            children = []
            for label, detail, line, character, end_line, end_character in item.children:
                where = {"start": {"line": base + line, "character": character},
                         "end": {"line": base + end_line, "character": end_character}}
                children.append({"name": label, "detail": detail, "kind": event, "range": where,
                                 "selectionRange": where})
            symbol["children"] = children
        symbols.append(symbol)
    # Stat blocks no entry owns: the file's, and those inside a labelled entry (which
    # :meth:`~dtc.compiler.model.Document.all_creatures` also lists; read here with the entries'
    # shifts, so that no entry is moved).
    blocks = [(c, 0) for c in doc.creatures if c.entry is None]
    blocks += [(c, by) for entry, by in shifted for c in entry.creatures if c.entry is None]
    blocks.sort(key=lambda block: (block[0].span.line + block[1], block[0].span.column))
    for creature, by in blocks:
        where = lines.range_json(creature.span, by)
        symbols.append({
            "name": creature.name,
            "detail": f"HP {creature.hp}" + (f" | Morale {creature.morale}" if creature.morale is not None else ""),
            "kind": struct,
            "range": where,
            "selectionRange": where,
        })
    symbols.sort(key=_start)
    return symbols


def _start(symbol: SymbolJSON) -> tuple[int, int]:
    start = symbol["range"]["start"]
    return start["line"], start["character"]


def folding_ranges(snap: Snapshot) -> list[types.FoldingRange]:
    """Each entry of more than one line folds to its first line."""
    out = []
    for entry, by in stored(snap.doc.entries):
        if entry.end_line > entry.span.line:
            out.append(types.FoldingRange(start_line=entry.span.line + by - 1, end_line=entry.end_line + by - 1,
                                          kind=types.FoldingRangeKind.Region))
    return out
