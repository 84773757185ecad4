from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import CONTENT, Context, Rule, rule


@rule("DT112", "malformed-stat-block", Severity.ERROR, reads=CONTENT)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A line that starts like a creature stat block but does not parse.

    ## What it finds
    A line of the form `Name HP <n> | ...` (or such a block inside an entry) one of whose fields
    the stat-block grammar refuses: `Morale high`, an attack without dice, a stray word.
    The caret points at the field.

    ## Why it matters
    The creature is dropped: encounters that name it report `unknown-creature`, and `dtc play`
    has no HP, morale or attacks to fight it with.

    ## Example
    ```
    Goblin HP 3 | Morale high | Sword d6
    ```

    ## Fix
    Write every field as `Morale N`, an attack with dice (`Sword d6`), `Name N` (`Armor 2`), or
    `Special: text`, separated by `|`.
    """
    for message, span in ctx.doc.bad_statblocks:
        yield self.diag(ctx, message, span)
