"""Read an adventure's layout into a :class:`~dtc.compiler.model.Document`.

The layout is line-based (see ``docs/format.md``): optional ``Key: value`` lines at the top, a
title line, an ``Encounters`` table, creature stat blocks, an ``Adventure Entries`` header, and
entries that begin a line with their number. This module finds where each part is; what an
entry's text says is read by :mod:`dtc.compiler.entries`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Container, Sequence

import dtc.compiler.dungeon as dungeon
import dtc.compiler.parallel as parallel
from dtc.compiler.entries import LineIndex, bad_statblock, read_creature, read_entry
from dtc.compiler.model import CreatureGroup, Directive, Document, Encounter, Entry, MetaField
from dtc.diagnostics import Span
from dtc.numbers import ROLL, bounded

_SP = r"[ \t\u00a0\u2000-\u200b\u202f\u205f\u3000]"

META = re.compile(r"((?i:start[ \t]+with)|[A-Za-z][A-Za-z_-]{0,20})[ \t]*:[ \t]*(.*?)[ \t]*$")
KNOWN_META = ("title", "author", "rules", "start", "start with", "limits", "containers")


def meta_key(written: str) -> str:
    """A front-matter key as dtc knows it: lower case, ``Start with``, ``start-with`` and
    ``start_with`` all ``start with``."""
    words = written.lower().replace("_", " ").replace("-", " ").split()
    return "start with" if words == ["start", "with"] else written.lower()
ENCOUNTERS_HEADER = re.compile(r"[#\s]*(?:random\s+)?encounters?(?:\s+table)?\s*:?\s*$", re.I)
ENTRIES_HEADER = re.compile(r"[#\s]*(?:adventure\s+)?entries\s*:?\s*$", re.I)
ENTRY_HEAD = re.compile(
    rf"[ \t]{{0,3}}(?:\*\*)?([0-9]{{1,7}}|@[A-Za-z][A-Za-z0-9_-]*)(?:\*\*)?[.):]?(?={_SP}|$){_SP}*"
)
#: A ``<!-- dtc: ... -->`` line: read by :mod:`dtc.lint.suppressions`, blanked before anything else is read.
DIRECTIVE = re.compile(r"^[ \t]*<!--[ \t]*dtc\b.*$", re.M | re.I)
ENC_ROW = re.compile(r"\s*([0-9]+)(?:\s*[-–]\s*([0-9]+))?[.)]\s+(\S.*?)\s*$")
STAT_LINE = re.compile(r"\s*[^\W\d_][\w'’ -]*?\s+HP\s+[0-9]+", re.I)
GROUP = re.compile(
    r"([0-9]*d[0-9]+(?:[+-][0-9]+)?|[0-9]+)\s+([^\W\d_][\w'’ -]*?)"
    r"(?=\s+(?:fighting|chasing|and|with|or|versus|vs\.?|plus|led\s+by|riding|hunting)\b|\s*[,;(]|\s*$)",
    re.I,
)
def _is_sentence_end(line: str) -> bool:
    stripped = line.rstrip()
    return not stripped or stripped[-1] in ".!?\"”’')]*_"


def parse(text: str, path: str = "<input>", *, blank_separated: bool | None = None) -> Document:
    """Parse decoded source text (see :func:`dtc.compiler.source.decode`).

    ``blank_separated`` says whether the book separates its entries with blank lines; by default
    the book's own layout decides (see :func:`separates_with_blank_lines`).
    """
    doc = Document(path=path)
    lines = text.split("\n")
    index = LineIndex(text, lines)
    directives: dict[int, Directive] = {}  # 0-based line -> directive
    if "<!--" in text:
        for m in DIRECTIVE.finditer(text):
            lead = len(m.group(0)) - len(m.group(0).lstrip())
            span = index.span(m.start() + lead, m.start() + len(m.group(0).rstrip()))
            directives[span.line - 1] = Directive(m.group(0).strip(), span)
        text = DIRECTIVE.sub(lambda m: " " * len(m.group(0)), text)  # offsets stay put
        lines = text.split("\n")
    doc.line_count = len(lines)
    offsets = index.starts
    has_entries_header = any(ENTRIES_HEADER.match(line) for line in lines if len(line) < 40)

    section = "front"
    first = len(lines)  # the first line of the entries section
    prev_blank = True
    for i, line in enumerate(lines):
        if i in directives:
            doc.directives.append(directives[i])  # above the first entry: entry_index stays None
            continue
        stripped = line.strip()
        if section == "front":
            if not stripped and not doc.meta and not doc.unknown_meta:
                continue
            meta = META.fullmatch(line)
            if meta and stripped and not ENTRIES_HEADER.fullmatch(line) and not ENCOUNTERS_HEADER.fullmatch(line):
                key = meta_key(meta.group(1))
                field = MetaField(meta.group(1), meta.group(2), Span(i + 1, 1, i + 1, len(line) + 1))
                if key in KNOWN_META and key not in doc.meta:
                    doc.meta[key] = field
                else:
                    doc.unknown_meta.append(field)
                continue
            section = "preamble"
        if not stripped:
            prev_blank = True
            if section == "preamble" and doc.introduction and doc.introduction[-1]:
                doc.introduction.append("")
            continue
        if ENTRIES_HEADER.fullmatch(line):
            first = i + 1
            break
        if ENCOUNTERS_HEADER.fullmatch(line):
            section = "encounters"
            continue
        if dungeon.ZONES_HEADER.fullmatch(line):
            section = "zones"
            continue
        if dungeon.HAZARD_LINE.match(line):
            doc.hazards.append(dungeon.parse_hazard(line, offsets[i], index.span, None))
            continue
        if section == "zones" and (zrow := dungeon.ZONE_ROW.fullmatch(line)):
            doc.zones.append(dungeon.zone_row(zrow, offsets[i], index.span))
            continue
        if STAT_LINE.match(line):
            creature = read_creature(line, offsets[i], index)
            if creature is not None:
                doc.creatures.append(creature)
            else:
                bad_statblock(doc, line, offsets[i], index)
            continue
        if section == "encounters":
            row = ENC_ROW.fullmatch(line)
            if row:
                doc.encounters.append(_encounter(row, offsets[i], index))
                continue
        head = ENTRY_HEAD.match(line)
        if not has_entries_header and head and _starts_entry(line, head, prev_blank, ""):
            first = i  # no header: the first entry starts the section
            break
        if section == "preamble" and doc.title_span is None:
            doc.title = stripped
            doc.title_span = Span(i + 1, len(line) - len(line.lstrip()) + 1, i + 1, len(line.rstrip()) + 1)
        elif section == "preamble":
            if doc.introduction and doc.introduction[-1]:
                doc.introduction[-1] += " " + stripped
            else:
                doc.introduction.append(stripped)

    lowered: list[tuple[int, re.Match[str], bool]] = []
    heads, after_blank = find_heads(lines, first, directives, lowered)
    if blank_separated is None:
        blank_separated = separates_with_blank_lines(after_blank)
    for i, head, blank in lowered:
        if blank or not blank_separated:  # where a head would stand, had it a capital letter
            token, line = head.group(1), lines[i]
            rest = line[head.end() :].rstrip()
            word = len(rest.split(None, 1)[0]) if rest else 0
            where = Span(i + 1, head.start(1) + 1, i + 1, head.end() + word + 1)
            doc.lowercase_heads.append((int(token) if token.isdigit() else token, where, rest))
    if blank_separated and not all(after_blank):
        # A hard-wrapped line such as "3 Goblins rush in!" after a sentence is prose here; the
        # rules that miss an entry of that number say where it is (a forgotten blank line).
        for (i, head), blank in zip(heads, after_blank, strict=True):
            if not blank:
                token = head.group(1)
                where = Span(i + 1, head.start(1) + 1, i + 1, head.end(1) + 1)
                doc.prose_heads.append((int(token) if token.isdigit() else token, where))
        heads = [h for h, blank in zip(heads, after_blank, strict=True) if blank]
    starts = [i for i, _ in heads]
    for i in sorted(n for n in directives if n >= first):
        before = bisect_right(starts, i)
        directives[i].entry_index = before - 1 if before else None
        doc.directives.append(directives[i])

    del lines  # a copy of the whole text, no longer needed (large books: memory)
    if "title" in doc.meta:
        doc.title = doc.meta["title"].value
    body_starts = [offsets[i] + head.end() for i, head in heads]
    stops = [offsets[i] - 1 for i, _ in heads[1:]]
    stops.append(len(text))
    # Each head's token and column, without its match: a match keeps its whole line alive (a
    # large book's lines are as large as its text), and lines freed after a second process is
    # forked to read entries cost a copied page each (see dtc.compiler.parallel).
    tokens = [(i, head.group(1), head.start(1) + 1) for i, head in heads]
    del heads, lowered

    def read(lo: int, hi: int) -> list[Entry]:
        return [
            read_entry(doc, text, index, tokens[n][1], tokens[n][2], tokens[n][0], body_starts[n],
                       max(body_starts[n], stops[n]))
            for n in range(lo, hi)
        ]

    def body(n: int) -> str:  # entry n's text as read_entry reads it (before directives are taken out)
        return text[body_starts[n] : max(body_starts[n], stops[n])].rstrip()

    if parallel.wanted(len(tokens)):
        doc.entries = parallel.read_entries(doc, text, offsets, len(tokens), body_starts, read, body)
    else:
        doc.entries = read(0, len(tokens))
    for n in sorted({d.entry_index for d in doc.directives if d.entry_index is not None}):
        entry = doc.entries[n]
        kept = [t for k, t in enumerate(entry.text.split("\n")) if entry.span.line - 1 + k not in directives]
        entry.text = "\n".join(kept)
    return doc


def separates_with_blank_lines(after_blank: Sequence[bool]) -> bool:
    """Whether a book separates its entries with blank lines: at least three entry heads follow
    a blank line, and at least three in four do. A head-shaped line right after a sentence (a
    hard-wrapped "3 Goblins rush in!") is then prose; in a book that runs entries together it
    is a head."""
    blank = sum(after_blank)
    return blank >= 3 and blank * 4 >= len(after_blank) * 3


def find_heads(
    lines: Sequence[str], first: int, skip: Container[int] = (),
    lowered: list[tuple[int, re.Match[str], bool]] | None = None,
) -> tuple[list[tuple[int, re.Match[str]]], list[bool]]:
    """The entry heads in ``lines[first:]`` (line index, head match) and, for each, whether it
    follows a blank line. Lines in ``skip`` (comment lines) are passed over. Head-shaped lines
    whose text begins in lower case (prose), after a blank line or a sentence, are added to
    ``lowered`` (line index, head match, whether after a blank line) when it is given."""
    heads: list[tuple[int, re.Match[str]]] = []
    after_blank: list[bool] = []
    prev_blank, prev_line = True, ""
    match = ENTRY_HEAD.match
    for i in range(first, len(lines)):
        if i in skip:
            continue
        line = lines[i]
        head = match(line)
        if head is not None:
            blank = prev_blank or not heads
            if _starts_entry(line, head, blank, prev_line):
                after_blank.append(blank)
                heads.append((i, head))
            elif (lowered is not None and line[head.end() : head.end() + 1].islower()
                  and (prev_blank or _is_sentence_end(prev_line))):
                lowered.append((i, head, prev_blank))
            prev_blank = False
        else:
            prev_blank = not line or line.isspace()
        prev_line = line
    return heads, after_blank


def head_layout(lines: Sequence[str], first: int) -> list[bool]:
    """For each entry head in ``lines[first:]`` (the lines after an entries header), whether it
    follows a blank line — read exactly as :func:`parse` reads them, comment lines skipped."""
    comments = {i for i in range(first, len(lines)) if "<!--" in lines[i] and DIRECTIVE.match(lines[i])}
    return find_heads(lines, first, comments)[1]


def _starts_entry(line: str, head: re.Match[str], prev_blank: bool, prev_line: str) -> bool:
    rest = line[head.end() :]
    if rest[:1].islower():
        return False
    return prev_blank or _is_sentence_end(prev_line)


def _encounter(row: re.Match[str], offset: int, index: LineIndex) -> Encounter:
    low = bounded(row.group(1), ROLL)
    high = bounded(row.group(2), ROLL) if row.group(2) else low
    body_start = offset + row.start(3)
    groups = [
        CreatureGroup(g.group(1), g.group(2).strip(), index.span(body_start + g.start(), body_start + g.end()))
        for g in GROUP.finditer(row.group(3))
    ]
    return Encounter(low, high, row.group(3), index.span(offset + row.start(1), offset + row.end(3)), groups)


