from __future__ import annotations

from collections.abc import Iterator

from dtc.compiler.compile import creature_index, match_creature
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import CONTENT, Context, Rule, rule


@rule("DT207", "unknown-creature", Severity.WARNING, reads=CONTENT)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """An encounter, or a fight in an entry, names a creature with no stat block.

    ## What it finds
    An encounter-table group (`1d6 Ghouls`) or a counted creature in a sentence about a fight
    (`3 Skeletons attack!`) whose name matches no stat block, singular or plural (`Goblins`
    finds `Goblin`). Counted names in other prose are not reported, since they may be things
    rather than creatures.

    ## Why it matters
    When the encounter comes up the reader has no HP, morale or attacks to fight with.

    ## Example
    ```
    Encounters
      1. 1d4 Ghouls
    ```
    with no `Ghoul HP ...` line.

    ## Fix
    Add a stat block for the creature, or correct the name.
    """
    doc = ctx.doc
    index = creature_index(doc)
    for enc in doc.encounters:
        for g in enc.groups:
            if match_creature(g.name, index) is None:
                yield self.diag(ctx, f"encounter names '{g.name}', which has no stat block", g.span)
    for i, entry in enumerate(doc.entries):
        for m in entry.fight_mentions:
            if match_creature(m.name, index) is None:
                yield self.diag(ctx, f"entry names '{m.name}' in a fight, but it has no stat block", m.span,
                                ctx.res.numbers[i])
