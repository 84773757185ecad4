"""Story-format conditions read as dtc's: every comparison over a count, put in dtc's shape."""

from __future__ import annotations

import pytest

from dtc.interop import exprs
from dtc.interop.api import import_book

NAMES = {"$a": "a", "$b": "b", "$c": "c", "$gold": "gold"}


@pytest.mark.parametrize(("source", "condition"), [
    ("$a", "a"), ("$a is true", "a"), ("$a is false", "not a"), ("not $a", "not a"), ("!$a", "not a"),
    ("$gold gte 3", "3 gold"), ("$gold >= 3", "3 gold"), ("$gold gt 3", "4 gold"), ("3 lt $gold", "4 gold"),
    ("$gold lt 3", "not 3 gold"), ("$gold lte 3", "not 4 gold"), ("$gold is 2", "2 gold and not 3 gold"),
    ("$gold is not 0", "gold"), ("$gold gte 0", None), ("$a and $b or $c", "a and b or c"),
    ("not ($a or $b)", "not a and not b"), ("($a or $b) and $c", "a and c or b and c"), ("$a && !$b", "a and not b"),
])
def test_a_condition_is_written_in_dtc_notation(source: str, condition: str | None) -> None:
    tree = exprs.parse(source)
    assert tree is not None
    dnf = exprs.to_dnf(tree, NAMES)
    assert dnf is not None and exprs.write(dnf) == condition


@pytest.mark.parametrize("source", ["$a + 1", "$name is \"Bob\"", "visited(\"x\")", "((((((((((((((((((((((($a",
                                    "not " * 50 + "$a"])
def test_what_cannot_be_written_is_refused(source: str) -> None:
    tree = exprs.parse(source)
    assert tree is None or exprs.to_dnf(tree, NAMES) is None


def test_harlowe_unless_and_else_if() -> None:
    twee = b"""::Start
(set: $gold to it + 2)
(unless: $gold >= 5)[ [[Beg->Alms]] ](else-if: $gold >= 2)[ [[Buy bread->Bread]] ](else:)[ [[Wait->Start]] ]

:: Alms
Coins rain down. THE END

:: Bread
Warm bread.
"""
    text = import_book("t.twee", twee).text
    assert "**Beg** (D0, S@alms, if not 5 gold)" in text
    assert "**Buy bread** (D0, S@bread, if 5 gold and 2 gold)" in text
    assert "**Wait** (D0, S@start, if 5 gold and not 2 gold)" in text


def test_sugarcube_link_with_goto_and_sets_is_a_choice_with_effects() -> None:
    twee = b""":: A
Hi <<link "Pay the toll">><<set $gold to $gold - 3>><<goto "B">><</link>> or <<link "Run">><<goto "B">><</link>>.

:: B
The far side.
"""
    imported = import_book("t.twee", twee)
    assert "**Pay the toll** (D0, S@b, -3 gold) or **Run** (D0, S@b)." in imported.text
    assert not imported.book.unmapped
