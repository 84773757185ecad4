"""Read an adventure's layout into a :class:`~dtc.model.Document`.

The layout is line-based (see ``docs/format.md``): optional ``Key: value`` lines at the top, a
title line, an ``Encounters`` table, creature stat blocks, an ``Adventure Entries`` header, and
entries that begin a line with their number. Inside entries, parentheticals that look like choice
notation go to the Lark grammar (:mod:`dtc.notation`); everything else is prose, from which a few
well-defined phrases are read (``go to 17``, ``THE END``, "return to your most recent entry").
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from dtc.diagnostics import Span
from dtc.model import (
    Attack,
    Choice,
    Creature,
    CreatureGroup,
    Document,
    Encounter,
    Entry,
    MetaField,
    ProseExit,
)
from dtc.notation import Failed, Field, difficulty_value, parse_notation, parse_statblock, target_value

_SP = r"[ \t\u00a0\u2000-\u200b\u202f\u205f\u3000]"

META = re.compile(r"([A-Za-z][A-Za-z_-]{0,20})[ \t]*:[ \t]*(.*?)[ \t]*$")
KNOWN_META = ("title", "author", "rules", "start")
ENCOUNTERS_HEADER = re.compile(r"[#\s]*(?:random\s+)?encounters?(?:\s+table)?\s*:?\s*$", re.I)
ENTRIES_HEADER = re.compile(r"[#\s]*(?:adventure\s+)?entries\s*:?\s*$", re.I)
ENTRY_HEAD = re.compile(
    rf"[ \t]{{0,3}}(?:\*\*)?([0-9]{{1,7}}|@[A-Za-z][A-Za-z0-9_-]*)(?:\*\*)?[.):]?(?={_SP}|$){_SP}*"
)
ENC_ROW = re.compile(r"\s*([0-9]+)(?:\s*[-–]\s*([0-9]+))?[.)]\s+(\S.*?)\s*$")
STAT_LINE = re.compile(r"\s*[^\W\d_][\w'’ -]*?\s+HP\s+[0-9]+", re.I)
STAT_INLINE = re.compile(
    r"(?:(?<=^)|(?<=[.!?:]\s)|(?<=\n))((?:[A-Z][\w'’-]*[ \t]+){0,4}[A-Z][\w'’-]*[ \t]+HP[ \t]+[0-9]+(?:[ \t]*\|[^|\n]*)*)",
    re.M,
)
GROUP = re.compile(
    r"([0-9]*d[0-9]+(?:[+-][0-9]+)?|[0-9]+)\s+([^\W\d_][\w'’ -]*?)"
    r"(?=\s+(?:fighting|chasing|and|with|or|versus|vs\.?|plus|led\s+by|riding|hunting)\b|\s*[,;(]|\s*$)",
    re.I,
)
MENTION = re.compile(r"\b([0-9]+|[0-9]*d[0-9]+(?:[+-][0-9]+)?)[ \t]+([A-Z][\w'’-]*(?:[ \t]+[A-Z][\w'’-]*){0,3})")
FIGHT = re.compile(r"\b(?:fights?|attacks?|combat|battle|ambush(?:es)?|charges?)\b", re.I)
CANDIDATE = re.compile(r"\(([^()]{1,200})\)")
NOTATION_HINT = re.compile(
    rf"(?<![\w@])[SF]{_SP}*(?:[0-9]+|@[A-Za-z])|^{_SP}*(?:[^\W\d_]+{_SP}+)?D{_SP}*[0-9]+{_SP}*(?:,|$)"
)
LOWER_HINT = re.compile(rf"(?<![\w@])[sf]{_SP}*[0-9]+(?!\w)")
D_TOKEN = re.compile(rf"(?<![\w@])[Dd]{_SP}*[0-9]+(?!\w)")
PROSE_EXIT = re.compile(
    r"\b(?:(?:return|go|skip|turn|proceed|continue|head|flip|jump)\s+(?:back\s+)?to|read)\s+"
    r"(?:entry\s+|section\s+|paragraph\s+|§\s*)?([0-9]{1,7}|@[A-Za-z][A-Za-z0-9_-]*)\b"
    r"(?!\s*(?:%|turns?\b|minutes?\b|hours?\b|rounds?\b|feet\b|ft\b|coins?\b|gold\b|gp\b|days?\b|HP\b|damage\b|times?\b))",
    re.I,
)
READ_BARE = re.compile(r"\bread\s+(?!entry|section|paragraph|§)", re.I)
DYNAMIC_RETURN = re.compile(
    r"\breturn\s+to\s+(?:your|the)\s+(?:most\s+recent|previous|last)\s+(?:entry|section|room|paragraph|location)",
    re.I,
)
ENDING = re.compile(r"\bTHE\s+END\b|(?:^|(?<=[.!?*_])|(?<=[.!?]\s))[*_]*the\s+end\b[.!*_]*[ \t]*$", re.M | re.I)
BOLD_LABEL = re.compile(r"(?:\*\*|__)([^*_\n]{1,80})(?:\*\*|__)\s*$")
LABEL_CUT = re.compile(r"[.!?;:,()\n\"“”]|\*\*")
STOP_WORDS = frozenset(
    "or and you may can could then to either lead leads have has is are there also will would "
    "must should into onto through toward towards but if we".split()
)
ARTICLES = frozenset(("a", "an", "the", "this", "that"))


class LineIndex:
    """Offsets -> (line, column), both 1-based, columns in characters."""

    def __init__(self, text: str) -> None:
        self.starts = [0]
        self.starts.extend(m.end() for m in re.finditer("\n", text))

    def position(self, offset: int) -> tuple[int, int]:
        i = bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i] + 1

    def span(self, start: int, end: int) -> Span:
        line, col = self.position(start)
        end_line, end_col = self.position(end)
        return Span(line, col, end_line, end_col)


def _is_sentence_end(line: str) -> bool:
    stripped = line.rstrip()
    return not stripped or stripped[-1] in ".!?\"”’')]*_"


def parse(text: str, path: str = "<input>") -> Document:
    """Parse decoded source text (see :func:`dtc.source.decode`)."""
    doc = Document(path=path)
    index = LineIndex(text)
    lines = text.split("\n")
    doc.line_count = len(lines)
    offsets = index.starts
    has_entries_header = any(ENTRIES_HEADER.match(line) for line in lines if len(line) < 40)

    section = "front"
    heads: list[tuple[int, re.Match[str]]] = []  # (line index, head match)
    prev_blank = True
    prev_line = ""
    for i, line in enumerate(lines):
        stripped = line.strip()
        if section == "front":
            if not stripped and not doc.meta and not doc.unknown_meta:
                continue
            m = META.fullmatch(line)
            if m and stripped:
                key = m.group(1).lower()
                field = MetaField(m.group(1), m.group(2), Span(i + 1, 1, i + 1, len(line) + 1))
                if key in KNOWN_META and key not in doc.meta:
                    doc.meta[key] = field
                else:
                    doc.unknown_meta.append(field)
                continue
            section = "preamble"
        if section != "entries":
            if not stripped:
                prev_blank = True
                continue
            if ENTRIES_HEADER.fullmatch(line):
                section = "entries"
                prev_blank = True
                continue
            if ENCOUNTERS_HEADER.fullmatch(line):
                section = "encounters"
                continue
            if STAT_LINE.match(line):
                creature = _creature(line, offsets[i], index)
                if creature is not None:
                    doc.creatures.append(creature)
                    continue
            if section == "encounters":
                row = ENC_ROW.fullmatch(line)
                if row:
                    doc.encounters.append(_encounter(row, offsets[i], index))
                    continue
            head = ENTRY_HEAD.match(line)
            if not has_entries_header and head and _starts_entry(line, head, prev_blank, prev_line):
                section = "entries"
            elif section == "preamble" and doc.title_span is None:
                doc.title = stripped
                doc.title_span = Span(i + 1, len(line) - len(line.lstrip()) + 1, i + 1, len(line.rstrip()) + 1)
                continue
            else:
                continue
        head = ENTRY_HEAD.match(line)
        if head and _starts_entry(line, head, prev_blank or not heads, prev_line):
            heads.append((i, head))
        prev_blank = not stripped
        prev_line = line

    if "title" in doc.meta:
        doc.title = doc.meta["title"].value
    for n, (i, head) in enumerate(heads):
        start = offsets[i] + head.end()
        stop = offsets[heads[n + 1][0]] - 1 if n + 1 < len(heads) else len(text)
        doc.entries.append(_entry(text, index, head, i, start, max(start, stop)))
    return doc


def _starts_entry(line: str, head: re.Match[str], prev_blank: bool, prev_line: str) -> bool:
    rest = line[head.end() :]
    if rest[:1].islower():
        return False
    return prev_blank or _is_sentence_end(prev_line)


def _creature(line: str, offset: int, index: LineIndex, entry: int | None = None) -> Creature | None:
    block = parse_statblock(line.strip())
    if block is None:
        return None
    lead = len(line) - len(line.lstrip())
    span = index.span(offset + lead, offset + len(line.rstrip()))
    return Creature(
        name=block.name,
        hp=block.hp,
        span=span,
        morale=block.morale,
        attacks=[Attack(n, d) for n, d in block.attacks],
        special=block.special,
        stats=dict(block.stats),
        entry=entry,
    )


def _encounter(row: re.Match[str], offset: int, index: LineIndex) -> Encounter:
    low = int(row.group(1))
    high = int(row.group(2)) if row.group(2) else low
    body_start = offset + row.start(3)
    groups = [
        CreatureGroup(g.group(1), g.group(2).strip(), index.span(body_start + g.start(), body_start + g.end()))
        for g in GROUP.finditer(row.group(3))
    ]
    return Encounter(low, high, row.group(3), index.span(offset + row.start(1), offset + row.end(3)), groups)


def _entry(text: str, index: LineIndex, head: re.Match[str], line_no: int, start: int, stop: int) -> Entry:
    body = text[start:stop].rstrip()
    stop = start + len(body)
    token = head.group(1)
    number: int | str = int(token) if token.isdigit() else token
    head_off = index.starts[line_no] + head.start(1)
    entry = Entry(
        number=number,
        span=index.span(head_off, head_off + len(token)),
        text=body,
        end_line=index.position(stop)[0],
    )
    for m in CANDIDATE.finditer(text, start, stop):
        inner = m.group(1)
        if NOTATION_HINT.search(inner) or (LOWER_HINT.search(inner) and D_TOKEN.search(inner)):
            entry.choices.append(_choice(text, index, m.start(), m.end(), start))
    for m in PROSE_EXIT.finditer(text, start, stop):
        if READ_BARE.match(m.group(0)):
            continue
        token = m.group(1)
        target: int | str = int(token) if token.isdigit() else token
        entry.prose_exits.append(ProseExit(target, m.group(0), index.span(m.start(), m.end())))
    entry.returns = [index.span(m.start(), m.end()) for m in DYNAMIC_RETURN.finditer(text, start, stop)]
    entry.ending = ENDING.search(body) is not None
    for m in STAT_INLINE.finditer(body):
        block_text = m.group(1)
        creature = _creature(block_text, start + m.start(1), index, entry=number if isinstance(number, int) else None)
        if creature is not None:
            entry.creatures.append(creature)
    for m in MENTION.finditer(body):
        group = CreatureGroup(m.group(1), m.group(2), index.span(start + m.start(), start + m.end()))
        entry.mentions.append(group)
        sentence_start = max(body.rfind(".", 0, m.start()), body.rfind("!", 0, m.start()), body.rfind("?", 0, m.start()))
        ends = [p for p in (body.find(".", m.end()), body.find("!", m.end()), body.find("?", m.end())) if p != -1]
        sentence = body[sentence_start + 1 : min(ends) if ends else len(body)]
        if FIGHT.search(sentence):
            entry.fight_mentions.append(group)
    return entry


def _choice(text: str, index: LineIndex, start: int, end: int, entry_start: int) -> Choice:
    raw = text[start:end]
    result = parse_notation(raw)
    label = _label(text[max(entry_start, start - 160) : start])
    choice = Choice(label=label, text=raw, span=index.span(start, end))
    if isinstance(result, Failed):
        choice.error = result.message
        choice.error_span = index.span(start + result.start, start + max(result.end, result.start + 1))
        return choice

    def sub(field: Field | None) -> Span | None:
        return None if field is None else index.span(start + field.start, start + field.end)

    if result.ability is not None:
        choice.ability = result.ability.value
    choice.difficulty = difficulty_value(result.difficulty.value)
    choice.success = target_value(result.success.value)
    choice.failure = target_value(result.failure.value) if result.failure else None
    choice.ability_span = sub(result.ability)
    choice.difficulty_span = sub(result.difficulty)
    choice.success_span = sub(result.success)
    choice.failure_span = sub(result.failure)
    if not choice.label:
        choice.label = f"go to {choice.success}"
    return choice


def _label(before: str) -> str:
    """The element a choice belongs to: bold text, else the few words before the parenthesis."""
    bold = BOLD_LABEL.search(before)
    if bold:
        return bold.group(1).strip()
    cut = [m.end() for m in LABEL_CUT.finditer(before)]
    segment = before[cut[-1] :] if cut else before
    words = segment.split()
    taken: list[str] = []
    for word in reversed(words):
        if word.lower().strip("'’") in STOP_WORDS or len(taken) == 5:
            break
        taken.append(word)
    taken.reverse()
    at_sentence_start = len(taken) == len(words)
    caps: list[str] = []
    for word in reversed(taken):
        if not word[:1].isupper():
            break
        caps.append(word)
    caps.reverse()
    if caps and (len(caps) < len(taken) or not at_sentence_start):
        taken = caps
    while taken and taken[0].lower() in ARTICLES:
        taken = taken[1:]
    return " ".join(taken).strip("*_'\"“”’ ")


def iter_targets(entry: Entry) -> Iterator[int | str]:
    """Every explicit target an entry names (notation and prose)."""
    for c in entry.choices:
        if c.success is not None:
            yield c.success
        if c.failure is not None:
            yield c.failure
    for p in entry.prose_exits:
        yield p.target
