from __future__ import annotations

from collections.abc import Iterator

from dtc.compiler.compile import creature_index, match_creature
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import Context, Rule, rule


@rule("DT206", "unused-creature", Severity.WARNING)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A creature stat block that no encounter and no entry uses.

    ## What it finds
    A stat block in the bestiary whose creature is named by no encounter-table row and no
    entry (`4 Goblins` uses `Goblin`). A stat block written inside an entry belongs to that
    entry and is always used.

    ## Why it matters
    Either the creature was cut and its block forgotten, or the encounter meant to use it
    spells its name differently.

    ## Example
    ```
    Troll HP 12 | Morale 9 | Claws d8
    ```
    with no encounter or entry mentioning trolls.

    ## Fix
    Name the creature where it appears, or delete the block.
    """
    doc = ctx.doc
    index = creature_index(doc)
    used: set[str] = set()
    names = [g.name for e in doc.encounters for g in e.groups]
    names += [m.name for e in doc.entries for m in e.mentions]
    for name in names:
        found = match_creature(name, index)
        if found is not None:
            used.add(found.name)
    for c in doc.creatures:
        if c.name not in used:
            yield self.diag(ctx, f"creature '{c.name}' is not used by any encounter or entry", c.span)
