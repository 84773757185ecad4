"""Diagnostics: small frozen records that checks yield and reporters render.

A diagnostic may carry a :class:`Fix`: the edits that resolve it, built by the rule that knows
them. ``dtc lint --fix`` applies the safe ones, the language server offers every one as a code
action, and the JSON and SARIF reports include them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple


class Severity(enum.IntEnum):
    """How serious a finding is; errors make ``dtc lint`` exit 1."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    def __str__(self) -> str:
        return self.name.lower()


class Span(NamedTuple):
    """A source range: 1-based lines and columns, ``end_column`` exclusive.

    A named tuple rather than a dataclass: a book has hundreds of thousands of spans, and tuples
    are created several times faster; they are immutable and order by position all the same.
    """

    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def point(cls, line: int, column: int = 1) -> Span:
        return cls(line, column, line, column + 1)


class Step(NamedTuple):
    """One step of a witness route: at ``entry`` the reader takes ``taken`` (written at ``span``);
    the last step, where the finding is, takes nothing (``taken`` is empty, ``span`` the entry's)."""

    entry: int
    taken: str
    span: Span


class Applicability(enum.Enum):
    """Whether a fix may be applied without the author looking (as ruff says it)."""

    #: Keeps what the author meant: ``dtc lint --fix`` applies it.
    SAFE = "safe"
    #: Right in most books but a guess, or it writes text the author must still finish: applied
    #: only with ``--unsafe-fixes``; offered in the editor either way.
    UNSAFE = "unsafe"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text of ``span`` with ``replacement``; an empty span (``end == start``) inserts."""

    span: Span
    replacement: str

    @classmethod
    def insert(cls, line: int, column: int, text: str) -> Edit:
        return cls(Span(line, column, line, column), text)

    def to_dict(self) -> dict[str, object]:
        return {"line": self.span.line, "column": self.span.column, "end_line": self.span.end_line,
                "end_column": self.span.end_column, "replacement": self.replacement}


@dataclass(frozen=True, slots=True)
class Fix:
    """What resolves a finding: a title for the editor and edits applied together or not at all."""

    title: str
    edits: tuple[Edit, ...]
    applicability: Applicability = Applicability.SAFE

    @property
    def safe(self) -> bool:
        return self.applicability is Applicability.SAFE

    def to_dict(self) -> dict[str, object]:
        return {"title": self.title, "applicability": str(self.applicability),
                "edits": [e.to_dict() for e in self.edits]}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding: which rule, how serious, what it says, and where; state findings also carry
    a witness, the shortest route that shows them (a tuple of steps, immutable like the rest)."""

    code: str
    rule: str
    severity: Severity
    message: str
    span: Span
    entry: int | None = None
    path: str = "<input>"
    fix: Fix | None = None
    witness: tuple[Step, ...] | None = None

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.path, self.span.line, self.span.column, self.code, self.message)

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.span.line,
            "column": self.span.column,
            "end_line": self.span.end_line,
            "end_column": self.span.end_column,
            "code": self.code,
            "rule": self.rule,
            "severity": str(self.severity),
            "message": self.message,
            "entry": self.entry,
            "fix": None if self.fix is None else self.fix.to_dict(),
        } | ({} if self.witness is None else {"witness": [
            {"entry": s.entry, "taken": s.taken, "line": s.span.line, "column": s.span.column} for s in self.witness
        ]})

    def route(self) -> str:
        """The witness in words: ``1 -[Cellar Door]-> 2 -[coal chute: failure]-> 5``."""
        if not self.witness:
            return ""
        return " ".join(f"{s.entry} -[{s.taken}]->" if s.taken else str(s.entry) for s in self.witness)
