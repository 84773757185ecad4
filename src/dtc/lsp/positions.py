"""Positions: dtc's 1-based character columns <-> LSP's 0-based code-unit positions.

dtc counts columns in characters (code points) from 1; LSP counts lines from 0 and characters
in code units of the negotiated encoding — UTF-16 unless the client offers another — so a
character outside the Basic Multilingual Plane (an emoji) is two units wide in UTF-16 and four
in UTF-8. :class:`Lines` does the conversions over the text a span refers to.
"""

from __future__ import annotations

from lsprotocol import types

from dtc.diagnostics import Span

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def _units(text: str, encoding: str) -> int:
    """How many code units of ``encoding`` ``text`` takes: a character outside the Basic
    Multilingual Plane is two in UTF-16, and a lone surrogate (which JSON can carry) one.

    Counted in C: a book's entry is often one long line with a dash or a curly quote in it, and
    the outline converts three positions per choice (counting character by character, the
    outline of a 10,000-entry book took seconds)."""
    if encoding == UTF32 or text.isascii():
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def still_worth_keeping(remembered: int, now: int) -> bool:
    """Whether what a document's versions remember of its ``now`` things (lines, entries) is
    handed on to the next version: while it holds ``remembered`` of them, at most twice as many
    (and a thousand) — past that it is mostly what edits replaced, and is forgotten."""
    return remembered <= 2 * now + 1024


class Lines:
    """The lines of one document, for converting positions in the negotiated ``encoding``."""

    def __init__(self, text: str, encoding: str = UTF16) -> None:
        self.lines = text.split("\n")
        self.encoding = str(encoding)
        #: A line's text -> whether each of its characters is one code unit (see :meth:`units`).
        #: Kept by its text, not its number, so the lines an edit makes from these share it: the
        #: lines it left alone are the same strings, wherever they now stand.
        self._flat: dict[str, bool] = {}

    @classmethod
    def edited(cls, before: Lines, first: int, count: int, new: list[str]) -> Lines:
        """``before`` with its ``count`` lines from 0-based ``first`` replaced by ``new`` (what an
        edit changed): the same as the edited text's :class:`Lines`, without splitting it all."""
        lines = cls.__new__(cls)
        lines.lines = before.lines[:first] + new + before.lines[first + count :]
        lines.encoding = before.encoding
        lines._flat = before._flat if still_worth_keeping(len(before._flat), len(lines.lines)) else {}
        return lines

    def line(self, number: int) -> str:
        """A 1-based line's text ('' past the end)."""
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def units(self, line: int, column: int) -> int:
        """The LSP character offset of 1-based ``line``/``column`` (characters): code units of
        the negotiated encoding before it. A line whose characters are each one unit (the
        commonest kind: a dash or a curly quote is one unit in UTF-16) is counted once and
        remembered; the outline asks for three positions per choice on lines that may each be
        a whole paragraph."""
        text = self.line(line)
        at = max(column - 1, 0)
        flat = self._flat.get(text)
        if flat is None:
            flat = self._flat[text] = _units(text, self.encoding) == len(text)
        return min(at, len(text)) if flat else _units(text[:at], self.encoding)

    def to_lsp(self, line: int, column: int) -> types.Position:
        """1-based ``line``/``column`` (characters) -> LSP position."""
        return types.Position(max(line - 1, 0), self.units(line, column))

    def range(self, span: Span, by: int = 0) -> types.Range:
        """``span`` moved ``by`` lines down, as an LSP range."""
        return types.Range(self.to_lsp(span.line + by, span.column), self.to_lsp(span.end_line + by, span.end_column))

    def range_json(self, span: Span, by: int = 0) -> dict[str, dict[str, int]]:
        """:meth:`range` of ``span`` moved ``by`` lines down, as the JSON LSP sends (what a large
        reply is built as: see :func:`dtc.lsp.navigation.document_symbols`)."""
        line, end = span.line + by, span.end_line + by
        return {"start": {"line": max(line - 1, 0), "character": self.units(line, span.column)},
                "end": {"line": max(end - 1, 0), "character": self.units(end, span.end_column)}}

    def from_lsp(self, pos: types.Position) -> tuple[int, int]:
        """LSP position -> 1-based (line, column in characters); a unit inside a character
        (half a surrogate pair, part of a UTF-8 sequence) counts as that character."""
        text = self.line(pos.line + 1)
        target = pos.character
        if self.encoding == UTF32 or text.isascii():
            return pos.line + 1, min(target, len(text)) + 1
        units = 0
        for i, ch in enumerate(text):
            width = _units(ch, self.encoding)
            if units + width > target:
                return pos.line + 1, i + 1
            units += width
        return pos.line + 1, len(text) + 1

    def end(self) -> types.Position:
        return self.to_lsp(len(self.lines), len(self.lines[-1]) + 1)


def contains(span: Span, line: int, column: int) -> bool:
    """Whether 1-based (line, column) lies in ``span`` (end inclusive, so a caret just after a
    token still finds it)."""
    return (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column)


def overlaps(span: Span, first: tuple[int, int], last: tuple[int, int]) -> bool:
    return (span.line, span.column) <= last and first <= (span.end_line, span.end_column)
