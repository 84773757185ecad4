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
    if encoding == UTF32 or text.isascii():
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8"))
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


class Lines:
    """The lines of one document, for converting positions in the negotiated ``encoding``."""

    def __init__(self, text: str, encoding: str = UTF16) -> None:
        self.lines = text.split("\n")
        self.encoding = str(encoding)

    @classmethod
    def edited(cls, before: Lines, first: int, count: int, new: list[str]) -> Lines:
        """``before`` with its ``count`` lines from 0-based ``first`` replaced by ``new`` (what an
        edit changed): the same as the edited text's :class:`Lines`, without splitting it all."""
        lines = cls.__new__(cls)
        lines.lines = before.lines[:first] + new + before.lines[first + count :]
        lines.encoding = before.encoding
        return lines

    def line(self, number: int) -> str:
        """A 1-based line's text ('' past the end)."""
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def to_lsp(self, line: int, column: int) -> types.Position:
        """1-based ``line``/``column`` (characters) -> LSP position."""
        text = self.line(line)
        return types.Position(max(line - 1, 0), _units(text[: max(column - 1, 0)], self.encoding))

    def range(self, span: Span) -> types.Range:
        return types.Range(self.to_lsp(span.line, span.column), self.to_lsp(span.end_line, span.end_column))

    def line_range(self, first: int, last: int) -> types.Range:
        """Whole lines ``first``..``last`` (1-based, inclusive)."""
        return types.Range(self.to_lsp(first, 1), self.to_lsp(last, len(self.line(last)) + 1))

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
