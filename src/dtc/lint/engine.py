"""Run the lint rules over a compilation: select, ignore, configure, suppress, sort."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import dtc.lint.suppressions as suppressions
from dtc.compiler.api import Compilation, no_gc_pauses
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules import RULES, Context, Rule, find_rule
from dtc.lint.rules.dt402_unused_suppression import report as report_unused

if TYPE_CHECKING:
    from dtc.lint.configuration import Settings


class UnknownRule(LookupError):
    pass


def expand_codes(keys: Iterable[str]) -> set[str]:
    """Rule codes for codes, names or code prefixes (comma lists allowed); raises :class:`UnknownRule`."""
    codes: set[str] = set()
    for key in keys:
        for part in filter(None, (p.strip() for p in key.split(","))):
            found = find_rule(part)
            if found is not None:
                codes.add(found.code)
                continue
            prefixed = {c for c in RULES if c.startswith(part.upper())}
            if not prefixed:
                raise UnknownRule(part)
            codes |= prefixed
    return codes


def names_nothing(keys: Iterable[str]) -> bool:
    """Whether ``keys`` (a ``select``) name no rule at all: ``""``, ``","`` or nothing."""
    return not any(p.strip() for key in keys for p in key.split(","))


def pick_rules(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> list[Rule]:
    """Rules after ``--select``/``--ignore`` (codes, names, or code prefixes such as ``DT2``)."""
    selected = expand_codes(select) if select else set(RULES)
    ignored = expand_codes(ignore)
    return [r for code, r in RULES.items() if code in selected and code not in ignored]


def error_rules(settings: Settings | None = None) -> list[Rule]:
    """The rules whose findings are errors under ``settings`` (their configured severity, else
    their own), among the rules ``settings`` select: all that a caller showing errors alone
    (``dtc compile``, ``dtc build``) needs to run, since a rule's findings all have its severity.
    When an unused suppression is itself an error, every selected rule: a suppression is judged
    unused only among the rules that ran (see :func:`dtc.lint.suppressions.apply`)."""
    chosen = pick_rules(settings.select, settings.ignore) if settings is not None else list(RULES.values())
    configured = settings.severity if settings is not None else {}
    erring = [r for r in chosen if configured.get(r.code, r.severity) == Severity.ERROR]
    if any(r.code == suppressions.UNUSED for r in erring):
        return chosen
    return erring


def lint_compilation(
    comp: Compilation,
    rules: Iterable[Rule] | None = None,
    *,
    settings: Settings | None = None,
    suppress: bool = True,
    context: Context | None = None,
    found_already: Mapping[str, list[Diagnostic]] | None = None,
) -> list[Diagnostic]:
    """Run ``rules`` (default: all, or those ``settings`` select) over ``comp``.

    ``settings`` (from :mod:`dtc.lint.configuration`) give the default ruleset and severities; inline
    ``<!-- dtc: ignore[...] -->`` suppressions apply unless ``suppress`` is false. ``context``
    may be given when the caller has one for ``comp`` (the language server reuses graph facts), and
    ``found_already`` what some of the rules find, by code (the language server keeps the findings
    of rules that look at one entry at a time, per stretch of text): those rules are not run again.
    """
    if settings is not None:
        settings.apply(comp.doc)
        if rules is None:
            rules = pick_rules(settings.select, settings.ignore)
    chosen = list(RULES.values() if rules is None else rules)
    ctx = context if context is not None else Context(comp.doc, comp.resolved, comp.text)
    if ctx.text is None:
        ctx.text = comp.text
    found: list[Diagnostic] = []
    with no_gc_pauses():  # the graph analyses build large structures, like the parser
        for r in chosen:
            found.extend(found_already[r.code] if found_already and r.code in found_already else r.run(ctx))
    if suppress and comp.doc.directives:
        found, unused = suppressions.apply(found, comp.doc, comp.resolved, (r.code for r in chosen))
        unused_rule = next((r for r in chosen if r.code == suppressions.UNUSED), None)
        if unused_rule is not None:
            found.extend(report_unused(unused_rule, ctx, unused))
    if settings is not None:
        found = settings.adjust(found)
    found.sort(key=Diagnostic.sort_key)
    return found
