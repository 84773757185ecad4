"""Inline suppressions: ``<!-- dtc: ignore[RULE, ...] -->`` comment lines in the source.

An HTML comment never shows in a rendered (Markdown or HTML) edition, and the parser blanks
these lines before reading anything else (they are kept on ``Document.directives``), so they
are never part of an entry's text. Where the line stands decides what it covers:

* inside an entry (after its number, before the next entry): that entry's findings;
* anywhere above the first entry (front matter, preamble): the whole file.

Rules are named by code (``DT202``) or name (``dead-end``), comma-separated; text after the
closing bracket is a free reason. A directive that cannot be read is reported as DT401
``malformed-suppression``; one that silences nothing as DT402 ``unused-suppression``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from dtc.compiler.compile import Resolved
from dtc.compiler.model import Directive, Document, Entry
from dtc.diagnostics import Diagnostic

SYNTAX = "<!-- dtc: ignore[RULE, ...] -->"
MALFORMED = "DT401"
UNUSED = "DT402"

_VERB = re.compile(r"\s*:\s*([A-Za-z_-]*)\s*")


@dataclass(frozen=True, slots=True)
class Suppression:
    directive: Directive
    #: Rule codes, as written (names resolved to codes), without repeats.
    codes: tuple[str, ...]
    #: Index in ``Document.entries`` of the entry it covers; None covers the whole file.
    entry_index: int | None


@dataclass(frozen=True, slots=True)
class Malformed:
    directive: Directive
    message: str


def read(doc: Document) -> tuple[list[Suppression], list[Malformed]]:
    """Every directive of ``doc``, read: the usable suppressions and the malformed ones."""
    good: list[Suppression] = []
    bad: list[Malformed] = []
    for d in doc.directives:
        result = read_one(d)
        if isinstance(result, Suppression):
            good.append(result)
        else:
            bad.append(result)
    return good, bad


def read_one(d: Directive) -> Suppression | Malformed:
    """Read one directive line: ``<!-- dtc: ignore[RULE, ...] reason -->``."""
    from dtc.lint.rules import find_rule

    text = d.text.strip()
    if not text.endswith("-->"):
        return Malformed(d, f"dtc comment is not closed with '-->'; write {SYNTAX}")
    body = text[4:-3].strip()[3:]  # after "<!--" and "dtc"
    verb = _VERB.match(body)
    if verb is None:
        return Malformed(d, f"expected ':' after 'dtc'; write {SYNTAX}")
    if verb.group(1).lower() != "ignore":
        shown = f"unknown dtc directive '{verb.group(1)}'" if verb.group(1) else "no directive after 'dtc:'"
        return Malformed(d, f"{shown}; write {SYNTAX}")
    rest = body[verb.end() :]
    if not rest.startswith("["):
        return Malformed(d, f"put the rules to ignore in brackets: {SYNTAX}")
    close = rest.find("]")
    if close == -1:
        return Malformed(d, f"missing ']' after the rule list; write {SYNTAX}")
    names = [n.strip() for n in rest[1:close].split(",")]
    if not any(names):
        return Malformed(d, "name the rules to ignore, such as <!-- dtc: ignore[dead-end] -->")
    codes: list[str] = []
    for name in names:
        if not name:
            return Malformed(d, "empty rule name in the list (a stray comma?)")
        rule = find_rule(name)
        if rule is None:
            return Malformed(d, f"unknown rule '{name}' (see `dtc rule --list`)")
        if rule.code in (MALFORMED, UNUSED):
            return Malformed(
                d, f"{rule.code} ({rule.name}) cannot be suppressed inline; ignore it in the configuration"
            )
        if rule.code not in codes:
            codes.append(rule.code)
    return Suppression(d, tuple(codes), d.entry_index)


def _entry_lines(entry: Entry, doc: Document, index: int) -> tuple[int, int]:
    last = max([entry.end_line] + [d.span.line for d in doc.directives if d.entry_index == index])
    return entry.span.line, last


def _covers(s: Suppression, d: Diagnostic, doc: Document, res: Resolved) -> bool:
    if d.code not in s.codes:
        return False
    if s.entry_index is None:
        return True
    first, last = _entry_lines(doc.entries[s.entry_index], doc, s.entry_index)
    if first <= d.span.line <= last:
        return True
    number = res.numbers[s.entry_index]
    return d.entry == number and res.by_number.get(number) == s.entry_index


@dataclass(frozen=True, slots=True)
class Unused:
    suppression: Suppression
    code: str


def apply(
    diags: Iterable[Diagnostic], doc: Document, res: Resolved, ran: Iterable[str]
) -> tuple[list[Diagnostic], list[Unused]]:
    """Drop the findings the suppressions cover; also list each (suppression, rule) that covered
    nothing, among the rules that ``ran`` (a rule that did not run cannot be judged unused)."""
    suppressions, _ = read(doc)
    if not suppressions:
        return list(diags), []
    used: set[tuple[int, str]] = set()
    kept: list[Diagnostic] = []
    for d in diags:
        hit = [n for n, s in enumerate(suppressions) if _covers(s, d, doc, res)]
        used.update((n, d.code) for n in hit)
        if not hit:
            kept.append(d)
    ran_codes = set(ran)
    unused = [
        Unused(s, code)
        for n, s in enumerate(suppressions)
        for code in s.codes
        if code in ran_codes and (n, code) not in used
    ]
    return kept, unused


def scope_text(s: Suppression, res: Resolved) -> str:
    return "this file" if s.entry_index is None else f"entry {res.numbers[s.entry_index]}"


def directive_for(codes: Sequence[str], reason: str = "") -> str:
    """The comment line that suppresses ``codes`` (rule names read best, so names are used)."""
    from dtc.lint.rules import find_rule

    names = [(r.name if (r := find_rule(c)) else c) for c in codes]
    return f"<!-- dtc: ignore[{', '.join(names)}]{' ' + reason if reason else ''} -->"


def malformed(doc: Document) -> Iterator[Malformed]:
    yield from read(doc)[1]
