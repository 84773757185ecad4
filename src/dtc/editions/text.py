"""An entry's text cut into pieces an edition can render: prose, choice notation, prose exits.

The editions read only the compiled graph. Choices and exits carry source spans (line and
column); the entry's ``text`` starts on its head line just after the head (``17 `` or
``**@gate**. ``), so columns on that first line are shifted by the head's width, which the
graph does not record. :func:`pieces` recovers that shift from a choice on the first line (its
text is known) or a prose exit (its shape is known), checks every located piece against the
text, and leaves unlocatable ones out (they are still listed among the entry's choices).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dtc.compiled.graphjson import Entry, SpanDict

_PROSE_SHAPE = re.compile(r"[^\W\d_].*(?:[0-9]+|@[A-Za-z][A-Za-z0-9_-]*)", re.S)
_BOLD_END = re.compile(r"(?:\*\*|__)[^*_\n]{1,80}(?:\*\*|__)\s*$")


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of an entry's text.

    ``kind`` is ``text`` (plain prose), ``label`` (the words a choice belongs to, printed bold),
    ``choice`` (a parenthetical; ``index`` into the entry's choices) or ``exit`` (a prose exit
    such as "go to 17"; ``target`` is the entry it leads to).
    """

    kind: str
    text: str
    index: int | None = None
    target: int | str | None = None


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(m.end() for m in re.finditer("\n", text))
    return starts


class _Locator:
    """Source (line, column) -> offset in the entry's text."""

    def __init__(self, entry: Entry) -> None:
        self.text: str = entry["text"]
        self.line: int = entry["line"]
        self.starts = _line_starts(self.text)
        self.first = self.text[: self.starts[1] - 1] if len(self.starts) > 1 else self.text
        head = entry["label"] or str(entry["number"])
        self.shift = self._find_shift(entry, len(head) + 1)

    def _find_shift(self, entry: Entry, guess: int) -> int:
        for c in entry["choices"]:
            span = c["span"]
            if span["line"] == self.line:
                pos: int = self.first.find(str(c["text"]))
                if pos != -1:
                    column: int = span["column"]
                    return column - 1 - pos
        for x in entry["exits"]:
            exit_span = x["span"]
            if x["kind"] != "prose" or exit_span is None or exit_span["line"] != self.line:
                continue
            width = exit_span["end_column"] - exit_span["column"] if exit_span["end_line"] == self.line else None
            for shift in (guess, *range(0, 64)):
                start = exit_span["column"] - 1 - shift
                if start < 0:
                    break
                end = start + width if width is not None else self.starts[1] + exit_span["end_column"] - 1
                if _PROSE_SHAPE.fullmatch(self.text, start, end) and not self.text[start - 1 : start].isalnum():
                    return int(shift)
        return guess

    def offset(self, line: int, column: int) -> int | None:
        row = line - self.line
        if row < 0 or row >= len(self.starts):
            return None
        pos = self.starts[row] + column - 1 - (self.shift if row == 0 else 0)
        return pos if 0 <= pos <= len(self.text) else None

    def region(self, span: SpanDict | None) -> tuple[int, int] | None:
        if span is None:
            return None
        start = self.offset(span["line"], span["column"])
        end = self.offset(span["end_line"], span["end_column"])
        if start is None or end is None or end <= start:
            return None
        return start, end


def pieces(entry: Entry) -> list[Piece]:
    """The entry's text as pieces, in order; joined, their texts give back the text."""
    loc = _Locator(entry)
    text = loc.text
    regions: list[tuple[int, int, Piece]] = []
    cursor = 0
    for i, c in enumerate(entry["choices"]):
        found = loc.region(c["span"])
        if found is None or text[found[0] : found[1]] != c["text"]:
            pos = text.find(c["text"], cursor)
            found = (pos, pos + len(c["text"])) if pos != -1 and c["text"] else None
        if found is not None:
            regions.append((found[0], found[1], Piece("choice", c["text"], index=i)))
            cursor = found[1]
    for x in entry["exits"]:
        if x["kind"] != "prose":
            continue
        found = loc.region(x["span"])
        if found is not None and _PROSE_SHAPE.fullmatch(text, *found):
            regions.append((found[0], found[1], Piece("exit", text[found[0] : found[1]], target=x["target"])))
    regions.sort(key=lambda r: r[0])
    out: list[Piece] = []
    pos = 0
    for start, end, piece in regions:
        if start < pos:
            continue  # overlaps a piece already placed
        if start > pos:
            out.append(Piece("text", text[pos:start]))
        if piece.kind == "choice" and out and out[-1].kind == "text":
            label = entry["choices"][piece.index or 0]["label"]
            out[-1:] = _split_label(out[-1].text, label)
        out.append(piece)
        pos = end
    if pos < len(text):
        out.append(Piece("text", text[pos:]))
    return out


def _split_label(before: str, label: str) -> list[Piece]:
    """Mark the choice's label when it ends the text before the parenthesis."""
    stripped = before.rstrip()
    # (_BOLD_END can only match where the stripped text ends with ** or __: look no further otherwise)
    bold = stripped.endswith(("**", "__")) and _BOLD_END.search(stripped) is not None
    if not label or bold or not stripped.endswith(label):
        return [Piece("text", before)]
    cut = len(stripped) - len(label)
    if cut > 0 and (stripped[cut - 1].isalnum() or stripped[cut - 1] == "*"):
        return [Piece("text", before)]
    head = [Piece("text", before[:cut])] if cut else []
    return [*head, Piece("label", label), Piece("text", before[len(stripped) :])]


_BLANK_LINE = re.compile(r"\n[ \t]*\n\s*")


def paragraphs(items: list[Piece]) -> list[list[Piece]]:
    """Split pieces into paragraphs at blank lines (inside ``text`` pieces only)."""
    result: list[list[Piece]] = [[]]
    for piece in items:
        if piece.kind != "text":
            result[-1].append(piece)
            continue
        parts = _BLANK_LINE.split(piece.text) if "\n" in piece.text else [piece.text]
        for n, part in enumerate(parts):
            if n:
                result.append([])
            if part:
                result[-1].append(Piece("text", part))
    return [p for p in result if any(x.text.strip() for x in p)]


_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*\s+|\n[ \t]*\n")


def exit_sentences(items: list[Piece]) -> list[tuple[Piece, str]]:
    """Each prose exit with the part of its sentence that leads up to it ("If you won, go to 17")."""
    found: list[tuple[Piece, str]] = []
    before = ""
    for piece in items:
        if piece.kind == "exit":
            ends = [m.end() for m in _SENTENCE_END.finditer(before)]
            lead = before[ends[-1] :] if ends else before
            if len(lead) > 140:
                lead = "…" + lead[-140:].split(" ", 1)[-1]
            sentence = " ".join((lead + piece.text).split())
            found.append((piece, sentence[:1].upper() + sentence[1:]))
        before += piece.text
    return found


_LABEL = re.compile(r"@[A-Za-z][A-Za-z0-9_-]*")


def numbered(items: list[Piece], labels: dict[str, int]) -> list[Piece]:
    """The pieces as a reader sees them: ``S@gate`` and "go to @gate" show the gate's number."""

    def show(text: str) -> str:
        return _LABEL.sub(lambda m: str(labels.get(m.group(), m.group())), text)

    return [Piece(p.kind, show(p.text), p.index, p.target) if p.kind in ("choice", "exit") else p for p in items]


_COUNTS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _thing(name: str, count: int) -> str:
    if count != 1:
        return f"{count} {name}"
    return f"the codeword {name}" if "-" in name and " " not in name else f"the {name}"


def _compared(op: str, n: int) -> str:
    """``>= 12``: "12 or more"."""
    return {">=": f"{n} or more", ">": f"more than {n}", "<=": f"{n} or less", "<": f"less than {n}",
            "=": f"exactly {n}"}.get(op, f"{op} {n}")


def needs_words(condition: Mapping[str, Any]) -> str:
    """A condition as the print edition says it: "you have the stone key", "you have 10 coins",
    "you do not have the codeword alarm-raised"."""
    if "score" in condition:
        return f"your {condition['score']} is {_compared(condition['op'], condition['count'])}"
    if "has" in condition and "op" in condition:
        n, name = condition["count"], condition["has"]
        return {">=": f"you have at least {n} {name}", ">": f"you have more than {n} {name}",
                "<=": f"you have at most {n} {name}", "<": f"you have fewer than {n} {name}",
                "=": f"you have exactly {n} {name}"}.get(condition["op"], f"you have {n} {name}")
    if "has" in condition:
        return f"you have {_thing(condition['has'], condition['count'])}"
    if "not" in condition and "has" in condition["not"]:
        inner = condition["not"]
        if inner["count"] == 1:
            return f"you do not have {_thing(inner['has'], 1)}"
        return f"you have fewer than {inner['count']} {inner['has']}"
    if "all" in condition:
        return " and ".join(needs_words(c) for c in condition["all"])
    if "any" in condition:
        return " or ".join(needs_words(c) for c in condition["any"])
    from dtc.runtime.conditions import words

    return f"this holds: {words(condition)}"


def state_words(entry: Entry, items: list[Piece]) -> list[Piece]:
    """Choices with a condition or a random branch, put in words for print: "(If you have the
    stone key, turn to 21.)", "(Roll one die: 1–2, turn to 5; 3–6, turn to 9.)". Other pieces
    are kept as they are."""
    out = []
    for p in items:
        c = entry["choices"][p.index] if p.kind == "choice" and p.index is not None else None
        if c is None or c.get("error") or (c.get("condition") is None and c.get("roll") is None):
            out.append(p)
            continue
        roll, condition = c.get("roll"), c.get("condition")
        if roll is not None:
            dice = _COUNTS.get(roll["count"], str(roll["count"]))
            kind = "die" if roll["count"] == 1 else "dice"
            size = "" if roll["sides"] == 6 else f" ({roll['dice']})"
            ways = "; ".join((str(b["low"]) if b["low"] == b["high"] else f"{b['low']}–{b['high']}")
                             + f", turn to {b['target']}" for b in roll["branches"])
            text = f"Roll {dice} {kind}{size}: {ways}"
            if condition is not None:
                text = f"If {needs_words(condition)}: {text[0].lower()}{text[1:]}"
        elif not c.get("difficulty") and c.get("failure") is None:
            text = f"If {needs_words(condition or {})}, turn to {c['success']}"
        else:
            what = f"{c['ability']} D{c['difficulty']}" if c.get("ability") else f"D{c['difficulty']}"
            fail = f", F{c['failure']}" if c.get("failure") is not None else ""
            text = f"{what}, S{c['success']}{fail}; only if {needs_words(condition or {})}"
        out.append(Piece("choice", f"({text})", p.index, p.target))
    return out
