"""Run the lint rules over a compilation: select, ignore, sort."""

from __future__ import annotations

from collections.abc import Iterable

from dtc.api import Compilation
from dtc.diagnostics import Diagnostic
from dtc.rules import RULES, Context, Rule, find_rule


class UnknownRule(LookupError):
    pass


def pick_rules(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> list[Rule]:
    """Rules after ``--select``/``--ignore`` (codes, names, or code prefixes such as ``DT2``)."""

    def expand(keys: Iterable[str]) -> set[str]:
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

    selected = expand(select) if select else set(RULES)
    ignored = expand(ignore)
    return [r for code, r in RULES.items() if code in selected and code not in ignored]


def lint_compilation(comp: Compilation, rules: Iterable[Rule] | None = None) -> list[Diagnostic]:
    ctx = Context(comp.doc, comp.resolved)
    found: list[Diagnostic] = []
    for r in RULES.values() if rules is None else rules:
        found.extend(r.run(ctx))
    found.sort(key=Diagnostic.sort_key)
    return found
