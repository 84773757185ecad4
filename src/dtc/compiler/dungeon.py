"""The Dungeon Rules notation: the ``Zones`` table, ``Zone:`` lines and ``Hazard:`` lines.

Written in the source (``docs/format.md``, "Zones and hazards")::

    Zones
      1-6. Quiet
      7-12. Perilous
      13. Lair heart

    Hazard: Sour Gas Pocket | Check: CON D2 | Fail: choking, 1d4 damage | Mitigation: wet cloth

A zone row gives a range of entries (or one entry) a zone type; a ``Zone: deep`` line inside an
entry sets that entry's zone, over the table. A hazard line before the entries defines a hazard;
inside an entry it defines *and places* it there, and ``Hazard: Name`` alone places one defined
elsewhere. Hazard lines are parsed by ``grammar/hazard.lark``. Zone names are checked by the
linter against :data:`dtc.systems.dungeon_rules.ruleset.ZONES`, not here: this module only reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from dtc.compiler.model import Document, Entry, Hazard, HazardCheck, ZoneRow
from dtc.diagnostics import Span
from dtc.numbers import DIFFICULTY, ENTRY, bounded
from dtc.resources import data_dir

if TYPE_CHECKING:
    from lark import Lark, Token, Tree

ZONES_HEADER = re.compile(r"[#\s]*(?:dungeon\s+)?zones?(?:\s+table)?\s*:?\s*$", re.I)
ZONE_ROW = re.compile(r"\s*([0-9]+)(?:\s*[-–]\s*([0-9]+))?[.)]\s+(\S.*?)\s*$")
ZONE_LINE = re.compile(r"^([ \t]*)Zone[ \t]*:[ \t]*(\S.*?)[ \t]*$", re.I | re.M)
HAZARD_LINE = re.compile(r"^[ \t]*Hazard[ \t]*:", re.I)
HAZARD_LINES = re.compile(r"^[ \t]*Hazard[ \t]*:.*$", re.I | re.M)

#: How the grammar's terminals read in a message.
_EXPECTED = {
    "NAME": "the hazard's name", "TEXT": "text", "ABILITY": "an ability such as CON",
    "DIFFICULTY": "a difficulty such as D2", "_OR": "'or'", "VBAR": "'|'", "$END": "the end of the line",
    "_CHECK": "Check:", "_FAIL": "Fail:", "_PASS": "Pass:", "_MITIGATION": "Mitigation:",
    "_TELLTALES": "Telltales:", "_TRIGGER": "Trigger:",
}


@cache
def _parser() -> Lark:
    from lark import Lark  # imported only for books that have hazard lines

    text = (data_dir("grammar") / "hazard.lark").read_text(encoding="utf-8")
    return Lark(text, start="hazard", parser="lalr", propagate_positions=True, cache=False)


def _describe(expected: set[str]) -> str:
    names = sorted({_EXPECTED.get(t, t) for t in expected if not t.startswith("__")})
    if not names:
        return "a field"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def parse_hazard(line: str, offset: int, span_of: Callable[[int, int], Span], entry: int | None) -> Hazard:
    """A hazard line at source ``offset``; ``span_of(start, end)`` turns offsets into a Span."""
    import lark

    text = line.rstrip()
    lead = len(text) - len(text.lstrip())
    body = text.strip()
    base = offset + lead
    hazard = Hazard(name="", span=span_of(base, base + len(body)), entry=entry)
    try:
        tree = _parser().parse(body)
    except lark.UnexpectedToken as exc:
        at = exc.token.start_pos or 0 if exc.token.type != "$END" else len(body)
        found = "the end of the line" if exc.token.type == "$END" else f"'{exc.token}'"
        hazard.error = f"expected {_describe(set(exc.expected))}, found {found}"
        hazard.error_span = span_of(base + min(at, max(0, len(body) - 1)), base + max(at + 1, len(body)
                                    if exc.token.type == "$END" else at + len(str(exc.token))))
        hazard.name = _name_guess(body)
        return hazard
    except lark.UnexpectedCharacters as exc:
        at = exc.pos_in_stream or 0
        end = re.compile(r"[^|]*").match(body, at)
        hazard.error = f"unexpected '{body[at:end.end() if end else at + 1].strip() or body[at]}' in hazard " \
                       "(fields are Check:, Fail:, Pass:, Mitigation:, Telltales: and Trigger:)"
        hazard.error_span = span_of(base + at, base + max(at + 1, end.end() if end else at + 1))
        hazard.name = _name_guess(body)
        return hazard
    except lark.UnexpectedEOF:  # pragma: no cover - LALR reports the end as UnexpectedToken
        hazard.error = "the hazard line ends too early"
        hazard.error_span = hazard.span
        return hazard
    _read(tree, hazard, base, span_of)
    return hazard


def _name_guess(body: str) -> str:
    return body.split(":", 1)[1].split("|", 1)[0].strip() if ":" in body else ""


def _token_text(node: Tree[Token] | Token) -> str:
    from lark import Token

    return str(node).strip() if isinstance(node, Token) else ""


def _read(tree: Tree[Token], hazard: Hazard, base: int, span_of: Callable[[int, int], Span]) -> None:
    from lark import Token, Tree

    for child in tree.children:
        if isinstance(child, Token) and child.type == "NAME":
            hazard.name = str(child).strip()
            continue
        if not isinstance(child, Tree):
            continue
        kind = str(child.data)
        if kind == "check_field":
            inner = child.children[0]
            assert isinstance(inner, Tree)
            abilities: list[str] = []
            difficulty: int | None = None
            for part in inner.children:
                if isinstance(part, Tree) and part.data == "ability":
                    abilities.append(_token_text(part.children[0]))
                elif isinstance(part, Tree) and part.data == "difficulty":
                    difficulty = bounded(re.sub(r"\D", "", _token_text(part.children[0])), DIFFICULTY)
            start = child.meta.start_pos if not child.meta.empty else 0
            end = child.meta.end_pos if not child.meta.empty else 0
            hazard.check = HazardCheck(abilities, difficulty, span_of(base + start, base + max(end, start + 1)))
            continue
        value = _token_text(child.children[0]) if child.children else ""
        if kind == "mitigation":
            hazard.mitigation = [m.strip() for m in re.split(r",|;|\bor\b|\band\b", value) if m.strip()]
        elif kind == "pass_":
            hazard.pass_ = value
        elif kind in ("fail", "telltales", "trigger"):
            setattr(hazard, kind, value)


def entry_lines(doc: Document, entry: Entry, body: str, start: int, span_of: Callable[[int, int], Span],
                number: int | str) -> None:
    """``Zone:`` and ``Hazard:`` lines inside an entry whose text ``body`` starts at ``start``."""
    for m in ZONE_LINE.finditer(body):
        entry.zone = m.group(2)
        entry.zone_span = span_of(start + m.start(2), start + m.end(2))
    for m in HAZARD_LINES.finditer(body):
        line = m.group(0)
        after = line.split(":", 1)[1]
        if "|" in line:
            hazard = parse_hazard(line, start + m.start(), span_of, number if isinstance(number, int) else None)
            doc.hazards.append(hazard)
            if hazard.name:
                entry.hazard_refs.append((hazard.name, hazard.span))
            continue
        name = after.strip()
        at = start + m.start() + line.index(":") + 1 + len(after) - len(after.lstrip())
        entry.hazard_refs.append((name, span_of(at, at + max(1, len(name)))))


def zone_row(match: re.Match[str], offset: int, span_of: Callable[[int, int], Span]) -> ZoneRow:
    low = bounded(match.group(1), ENTRY)
    high = bounded(match.group(2), ENTRY) if match.group(2) else low
    return ZoneRow(low, high, match.group(3), span_of(offset + match.start(1), offset + match.end(3)),
                   span_of(offset + match.start(3), offset + match.end(3)))


def blank_lines(text: str) -> str:
    """The entry text with its hazard and zone lines blanked (same length: offsets stay put), so the
    effects reader does not take a hazard's ``Fail: 1d4 damage`` for damage the entry deals."""
    if not may_hold_notation(text):
        return text
    text = HAZARD_LINES.sub(lambda m: " " * len(m.group(0)), text)
    return ZONE_LINE.sub(lambda m: " " * len(m.group(0)), text)


def may_hold_notation(text: str) -> bool:
    """A cheap test before the regular expressions: could ``text`` hold a Zone: or Hazard: line?"""
    return ":" in text and any(word in text for word in ("Zone", "zone", "ZONE", "azard", "AZARD"))
