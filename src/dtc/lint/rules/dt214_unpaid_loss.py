from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import SHAPE, Context, Rule, rule
from dtc.lint.state import held_text


@rule("DT214", "unpaid-loss", Severity.WARNING, reads=SHAPE)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """An effect takes more than a reader on some route holds.

    ## What it finds
    A loss — `[-10 coins]`, `[-rope]` — at an entry that a real route from the start reaches
    holding less than it takes. The witness is the shortest such route, replayed with exact
    counts; the message says what the reader held on arrival. (A count never goes below zero:
    the reader simply loses what they have.)

    ## Why it matters
    The book asks for something the reader may not have: a toll they cannot pay, a rope they
    never found. Usually the entry needs a gate (`(D0, S12, if 10 coins)`) in front of it.

    ## Example
    ```
    1 A ferry. Board (D0, S2) or search the bank (D0, S3).
    3 A purse! [+10 coins] Board (D0, S2).
    2 The ferryman takes his fee. [-10 coins] THE END
    ```
    (boarding at once arrives with no coins)

    ## Fix
    Gate the way in (`Board (D0, S2, if 10 coins)`), or give the reader the means on every
    route there.
    """
    state = ctx.state
    if not state.has_state or not state.exact:
        return
    for change, number, witness, held in state.unpaid_losses():
        amount = -change.amount
        what = change.name if amount == 1 else f"{amount} {change.name}"
        yield self.diag(ctx, f"entry {number} takes {what} from a reader {held_text(held)}", change.span, number,
                        witness=witness)
