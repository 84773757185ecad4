"""What a rule is, and what it is given to check."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from dtc.compiler.compile import Resolved
from dtc.compiler.model import Choice, Document, Target
from dtc.diagnostics import Diagnostic, Fix, Severity, Span, Step
from dtc.fixes import Lines
from dtc.lint.analysis import Analysis
from dtc.systems import Ruleset, UnknownRuleset, get_ruleset
from dtc.visible import visible

if TYPE_CHECKING:
    from dtc.lint.state import StateAnalysis


@dataclass
class Context:
    """Everything a check may look at."""

    doc: Document
    res: Resolved
    #: The source text as dtc read it, for rules that build fixes (None: fixes that need the
    #: text's lines are not built).
    text: str | None = None
    #: ``text.split("\\n")`` when the caller already holds it (the language server): the fixes'
    #: line index is then built from it, on first use, without reading the text again.
    text_lines: list[str] | None = field(default=None, repr=False)
    #: What the summary of a lint should say about this book (the state analysis approximated).
    notes: list[str] = field(init=False, default_factory=list)

    @cached_property
    def analysis(self) -> Analysis:
        """The graph facts (built on first use; the language server may hand in one it kept)."""
        return Analysis.of_resolved(self.res)

    @cached_property
    def lines(self) -> Lines | None:
        if self.text is None:
            return None
        return Lines(self.text) if self.text_lines is None else Lines.of_lines(self.text, self.text_lines)

    @cached_property
    def state(self) -> StateAnalysis:
        """The exploration of (entry, possessions) states (see :mod:`dtc.lint.state`)."""
        from dtc.lint.state import StateAnalysis

        found = StateAnalysis(self.doc, self.res, self.analysis, self.has_state)
        if found.approximated:
            self.notes.append(found.approximated)
        return found

    @cached_property
    def has_state(self) -> bool:
        """Whether the book has anything for the state analysis to explore (an effect, an ending
        kind, a condition or a random branch); the language server may hand it in."""
        from dtc.lint.state import book_has_state

        return book_has_state(self.doc.entries)

    @cached_property
    def returning(self) -> list[int]:
        """Indexes of the entries that return to "your most recent entry" (the language server
        may hand them in)."""
        return [i for i, e in enumerate(self.doc.entries) if e.returns]

    @cached_property
    def ruleset(self) -> Ruleset | None:
        try:
            return get_ruleset(self.doc.rules)
        except UnknownRuleset:
            return None

    @cached_property
    def choices(self) -> list[tuple[int, Choice]]:
        """(entry number, choice) for every choice, file order: one flat list that the
        per-choice rules share instead of each walking the entries again."""
        numbers = self.res.numbers
        return [(numbers[i], c) for i, entry in enumerate(self.doc.entries) for c in entry.choices]

    @cached_property
    def prose_heads(self) -> dict[Target, Span]:
        """Number (or label) -> the first line opening with it that was read as prose (see
        :attr:`Document.prose_heads`)."""
        return dict(reversed(self.doc.prose_heads))

    def first_entries(self) -> Iterator[tuple[int, int]]:
        """(index, number) of each entry that stands for its number."""
        for number, i in self.res.by_number.items():
            yield i, number

    def entries_of(self, numbers: Iterable[int]) -> list[tuple[int, int]]:
        """(index, number) of the entries that stand for ``numbers`` (entry numbers), in file
        order: for a rule that finds its entries with set operations over the graph facts."""
        by_number = self.res.by_number
        return sorted([(by_number[n], n) for n in numbers])

    def judged_gates(self) -> Iterator[tuple[int, int, Choice, tuple[bool, bool]]]:
        """(entry number, choice index, choice, (may open, may stay closed)) of every gated choice
        the state analysis judges: in a book with state, at a reached entry, with a well-formed
        condition whose every name some effect gives or the kit holds (unknown-possession speaks
        of the others)."""
        if not self.has_state:  # (what self.state would say, without the graph facts it is built on)
            return
        state = self.state
        from dtc.compiler.notation import cond_names

        for i, number in self.first_entries():
            for ci, c in enumerate(self.doc.entries[i].choices):
                if c.condition is None or c.error is not None:
                    continue
                if any(name not in state.given and name not in state.held
                       for name in cond_names(c.condition, state.scores)):
                    continue
                facts = state.gate(number, ci)
                if facts is not None:
                    yield number, ci, c, facts


Check = Callable[["Rule", Context], Iterator[Diagnostic]]

# What a rule reads, declared on its registration (``@rule(code, name, severity, reads=SHAPE)``).
# The language server keeps a rule's findings across an edit that leaves what the rule reads alone
# (dtc.lsp.reuse, dtc.lsp.incremental) and runs it again otherwise; a rule that declares nothing
# is run again after every edit. tests/test_rules_read.py edits each kind of text under every
# rule and holds the server's findings to a fresh lint's.

#: One entry alone — its choices, checks, outcomes and text — with the book's path, ruleset and
#: label numbers: a finding about an entry is about nothing else, and lies inside it. Kept per
#: stretch of text, while the stretch is unchanged.
ENTRY = "entry"
#: As :data:`ENTRY`, and which of the targets its prose exits name are entries of the book.
TARGETS = "targets"
#: Of the entries only their stat blocks, the creatures they name, zone, hazards, effects that do
#: not parse and numbers too large to read (``dtc.lsp.reuse.content``), and the document-level
#: items (front matter, stat blocks, hazards, zones). Kept across every edit that leaves those
#: alone.
CONTENT = "content"
#: The book's shape: what every entry says apart from its prose and its place (numbers, choices,
#: exits, gates, effects, stat blocks, comment lines, endings). Kept across edits to prose.
SHAPE = "shape"
#: Anything, prose and places included: run again after every edit. The default.
EVERYTHING = "everything"
READS = (ENTRY, TARGETS, CONTENT, SHAPE, EVERYTHING)


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    check: Check = field(repr=False)
    #: What the rule reads (:data:`READS`); :data:`EVERYTHING` unless its registration says less.
    reads: str = EVERYTHING
    #: Its messages or fixes name a line number, so a finding cannot simply be moved with the text:
    #: its findings are kept only while it finds nothing.
    quotes_lines: bool = False

    @property
    def doc(self) -> str:
        return inspect.cleandoc(self.check.__doc__ or "")

    @property
    def summary(self) -> str:
        return self.doc.split("\n", 1)[0]

    def diag(self, ctx: Context, message: str, span: Span, entry: int | None = None,
             fix: Fix | None = None, witness: tuple[Step, ...] | None = None) -> Diagnostic:
        """A finding; author text quoted in ``message`` keeps to one line, control characters
        made visible (a ``Start:`` holding an escape sequence must not reach a terminal)."""
        return Diagnostic(self.code, self.name, self.severity, visible(message, newlines=False), span, entry,
                          ctx.doc.path, fix=fix, witness=witness)

    def run(self, ctx: Context) -> Iterator[Diagnostic]:
        return self.check(self, ctx)


def forgotten_blank_line(ctx: Context, number: Target) -> str:
    """A hint for a finding about a missing entry: the line where an entry of that number seems
    to start but was read as prose, for want of a blank line before it; else nothing."""
    where = ctx.prose_heads.get(number)
    if where is None:
        return ""
    return (f"; line {where.line} starts with {number} right after a sentence, so it is read as prose"
            f" (this book puts a blank line before each entry)")


def rule(code: str, name: str, severity: Severity, *, reads: str = EVERYTHING,
         quotes_lines: bool = False) -> Callable[[Check], Rule]:
    """Declare a rule; the decorated function's docstring is its documentation. ``reads`` says
    what it reads (:data:`READS`; the language server keeps its findings while that is
    unchanged) and ``quotes_lines`` that its messages name line numbers."""
    if reads not in READS:
        raise ValueError(f"{code}: reads={reads!r} is not one of {', '.join(READS)}")

    def wrap(check: Check) -> Rule:
        return Rule(code, name, severity, check, reads, quotes_lines)

    return wrap
