"""The bounds on every number an author writes, and the one way they are read.

A number in the source is read by :func:`bounded`, which never converts more digits than its
bound has: a number past the bound is read as the bound plus one, whatever its length. Nothing
downstream (the compiled graph, ``dtc play``, ``dtc odds``, the language server) ever holds a
larger number than these bounds allow, so a book of any content is read in time linear in its
size, and Python's limit on converting long digit strings (4,300 digits) is never reached.
The linter reports each number past its bound (``number-out-of-range``, DT118) where it is
written; ``docs/reliability.md`` lists the bounds.

The bounds are far above anything a playable book needs, and small enough that every command
computes with them in bounded time.
"""

from __future__ import annotations

#: Entry numbers: as many digits as an entry's head may have (seven).
ENTRY = 9_999_999
#: A check's difficulty (``D3``); a ruleset allows far fewer (``difficulty-range``, DT104).
DIFFICULTY = 99
#: A creature's HP.
HP = 9_999
#: A creature's morale and any other stat-block number (``Armor 2``, ``STR 16``).
STAT = 999
#: A row of the encounter table (the roll that selects it).
ROLL = 999
#: How many dice one expression rolls, how many sides a die has, and a dice modifier.
DICE = 100
SIDES = 1_000
MODIFIER = 1_000
#: A count of creatures written as a number (``3 Goblins``).
COUNT = 999
#: An item's weight (``(Weight 2)``).
WEIGHT = 1_000
#: Coins, gems and items found (``500 coins``), and the value of a treasure.
AMOUNT = 1_000_000_000

def bounded(digits: str, bound: int) -> int:
    """``digits`` (ASCII digits, perhaps with leading zeros) as a number, or ``bound + 1``
    when it is larger than ``bound`` — without converting more digits than ``bound`` has."""
    significant = digits.lstrip("0")
    if len(significant) > len(str(bound)):
        return bound + 1
    value = int(significant or "0")
    return value if value <= bound else bound + 1


def too_large(value: int | None, bound: int) -> bool:
    """Whether a number read with :func:`bounded` was past ``bound``."""
    return value is not None and value > bound
