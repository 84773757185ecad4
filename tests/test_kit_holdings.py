"""One inventory in odds and lint: the reader starts with what every fresh adventurer's kit holds.

``dtc play`` counts the kit's rope for ``if rope`` (docs/format.md, "How names match"); ``dtc odds``
and ``dtc lint`` start their reader with the same holdings (:func:`dtc.systems.kit_holdings_of`),
so the three agree on a book whose gate reads the kit."""

from __future__ import annotations

import pytest

from dtc.compiler.api import compile_text
from dtc.odds import compute_odds
from dtc.systems import kit_holdings_of
from helpers import lint_text

LEDGE = """Title: Kit
Rules: {rules}

1 A ledge over the dark. **Lower Yourself** (D0, S2, if rope), or **Turn Back** (D0, S3).

2 You cut the rope free behind you. [-rope] The vault below is yours. THE END (victory)

3 You go home with nothing. THE END
"""


@pytest.mark.parametrize("rules", ["death-and-treasure", "maze-rats", "zilch",
                                   "death-and-treasure + dungeon-rules"])
def test_the_kit_rope_opens_the_gate_in_odds(rules: str) -> None:
    graph = compile_text(LEDGE.format(rules=rules), "kit.txt").graph()
    assert kit_holdings_of(rules, ["rope", "grappling hook"]) == {"rope": 1}
    odds = compute_odds(graph, decisive=False)
    assert odds.outcomes["ending:2"] == pytest.approx(0.5, abs=1e-12)
    assert any("kit holds of those: rope" in line for line in odds.assumptions)


def test_lint_counts_the_kit_and_still_names_what_no_one_holds() -> None:
    found = lint_text(LEDGE.format(rules="death-and-treasure"))
    codes = {d.code for d in found}
    # the rope is the kit's: not unknown, the gate opens, the loss is paid
    assert not codes & {"DT119", "DT211", "DT212", "DT214", "DT215"}
    # and it opens for every reader: the gate is always open (true: nothing takes the rope first)
    assert "DT306" in codes
    hook = LEDGE.format(rules="death-and-treasure").replace("if rope", "if grappling hook")
    assert "DT119" in {d.code for d in lint_text(hook)}


def test_a_book_of_no_known_rules_starts_with_nothing() -> None:
    assert kit_holdings_of("no-such-system", ["rope"]) == {}
