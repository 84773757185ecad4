"""One inventory: how a name in the book (``if rope``, ``[-10 coins]``) finds what the reader holds.

The reader holds two kinds of things: the book's possessions and flags (``[+stone key]``, kept in
``GameState.possessions``) and the adventurer's items (the kit, what they bought and found, their
coins: ``Character.items``). A condition, a loss and the player's *adjust* all read and change the
two as one inventory. The rules for names are here, once (docs/format.md, "How names match"):

* a possession's name is compared as the compiler writes it: lower case, single spaces, ``’`` as
  ``'`` (:func:`dtc.compiler.notation.possession_name`);
* an item's name is compared on its words before any parenthetical (``Rope (50 ft.)`` is
  ``rope``), normalised the same way;
* the last word may be a simple plural of the other's: ``torches``/``torch``, ``rations``/
  ``ration``, ``berries``/``berry`` (an ``s``, an ``es``, or ``ies`` for ``y``);
* ``coins`` (or ``coin``) are the adventurer's coins, the treasure on the character sheet.

:func:`kit_holdings` is what a fresh adventurer of a book's rules holds of the names the book's
conditions and losses read (:func:`read_names`): the counts a reader starts the book with, which
``dtc play`` finds in the adventurer's kit and a tool that reads only the graph must be told
(``kit_holdings(read_names(graph), play_rules(graph["rules"]).kit())``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from dtc.runtime.equipment import COINS, TREASURE_WEIGHT, Item

if TYPE_CHECKING:
    from dtc.compiled.graphjson import CompiledGraph

_PARENTHETICAL = re.compile(r"\([^()]*\)")


@lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """``Rope (50 ft.)`` -> ``rope``; ``King’s  Seal`` -> ``king's seal``."""
    return " ".join(_PARENTHETICAL.sub(" ", name).replace("\u2019", "'").lower().split())


@lru_cache(maxsize=4096)
def forms(name: str) -> frozenset[str]:
    """The name (a key, see :func:`name_key`) and what it is the simple plural of."""
    found = {name}
    if name.endswith("ies") and len(name) > 3:
        found.add(name[:-3] + "y")
    if name.endswith("es") and len(name) > 2:
        found.add(name[:-2])
    if name.endswith("s") and not name.endswith("ss") and len(name) > 1:
        found.add(name[:-1])
    return frozenset(found)


@lru_cache(maxsize=16384)
def same(item_name: str, name: str) -> bool:
    """Whether an item called ``item_name`` is a ``name`` (a possession's name as compiled)."""
    a, b = name_key(item_name), name_key(name)
    return a == b or not forms(a).isdisjoint(forms(b))


def is_coins(name: str) -> bool:
    """``coins``, ``coin``: the adventurer's coins (treasure on the character sheet)."""
    return same(COINS, name)


def coins(amount: int) -> Item:
    """``amount`` coins as the sheet holds them (what ``adjust coins +50`` and a find of coins give)."""
    return Item(COINS, "treasure", amount, TREASURE_WEIGHT["coins"], value=1, category="coins")


def holding(items: Iterable[Item], name: str) -> int:
    """How many of ``name`` the items hold (every kind: gear, weapons, armour, finds, treasure)."""
    return sum(i.quantity for i in items if i.quantity > 0 and same(i.name, name))


def _condition_names(condition: Mapping[str, Any]) -> Iterator[str]:
    if "score" in condition:  # the adventurer's score, no possession
        return
    if "has" in condition:
        yield str(condition["has"])
    elif "not" in condition:
        yield from _condition_names(condition["not"])
    else:
        for part in condition.get("all") or condition.get("any") or ():
            yield from _condition_names(part)


def read_names(graph: CompiledGraph) -> set[str]:
    """The names some condition tests or some loss takes: the ones whose count can matter."""
    names: set[str] = set()
    for entry in graph["entries"]:
        for choice in entry["choices"]:
            condition = choice.get("condition")
            if condition is not None:
                names.update(_condition_names(condition))
        for change in [*entry.get("changes", ()), *(ch for c in entry["choices"] for ch in c.get("changes", ()))]:
            if change["amount"] < 0 and not change.get("pick"):
                names.add(change["name"])
    return names


def kit_holdings(names: Iterable[str], kit: Iterable[Item]) -> dict[str, int]:
    """Of ``names`` (a book's :func:`read_names`), those the ``kit`` (a fresh adventurer's items,
    :meth:`dtc.runtime.ruleset.Rules.kit`) holds, with how many: ``{"rope": 1}`` for a Death &
    Treasure book that asks ``if rope``. What a reader holds on the first page, before any effect:
    ``dtc play`` finds it in the adventurer's items; a tool that reads only the graph (``dtc odds``,
    ``dtc lint``) starts its reader with it."""
    items = list(kit)
    held = {name: holding(items, name) for name in sorted(set(names))}
    return {name: n for name, n in held.items() if n > 0}
