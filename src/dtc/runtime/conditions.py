"""Choice conditions as the compiled graph writes them (``$defs/condition``): evaluated over
what the reader holds, and put in words for the menu. The runtime reads only the graph."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def holds(condition: Mapping[str, Any], held: Callable[[str], int],
          score: Callable[[str], int] | None = None) -> bool:
    """``{"has": "stone key", "count": 1}``, ``{"not": ...}``, ``{"all": [...]}``, ``{"any": [...]}``;
    ``held(name)``: how many of ``name`` the reader holds, possessions and items alike
    (:meth:`dtc.runtime.engine.Engine.held`). Version 3: ``op`` compares (``gold crowns > 3``);
    ``{"score": "CON", ...}`` compares ``score(name)``, the adventurer's (:meth:`Engine.score`;
    without one, no score condition holds)."""
    if "has" in condition:
        have = held(condition["has"])
        op = condition.get("op")
        return have >= int(condition["count"]) if op is None else compared(op, have, int(condition["count"]))
    if "score" in condition:
        return score is not None and compared(condition["op"], score(condition["score"]), int(condition["count"]))
    if "not" in condition:
        return not holds(condition["not"], held, score)
    if "all" in condition:
        return all(holds(c, held, score) for c in condition["all"])
    return any(holds(c, held, score) for c in condition["any"])


def compared(op: str, value: int, count: int) -> bool:
    """``value op count`` (``>=``, ``>``, ``<=``, ``<``, ``=``)."""
    if op == ">=":
        return value >= count
    if op == ">":
        return value > count
    if op == "<=":
        return value <= count
    if op == "<":
        return value < count
    return value == count


def words(condition: Mapping[str, Any], top: bool = True) -> str:
    """``stone key and not alarm``, ``10 coins``: the condition as notation writes it."""
    if "score" in condition or "op" in condition:
        return f"{condition.get('score') or condition.get('has')} {condition['op']} {condition['count']}"
    if "has" in condition:
        n = condition["count"]
        return condition["has"] if n == 1 else f"{n} {condition['has']}"
    if "not" in condition:
        return "not " + words(condition["not"], False)
    if "all" in condition:
        return " and ".join(words(c, False) for c in condition["all"])
    text = " or ".join(words(c, False) for c in condition["any"])
    return text if top else f"({text})"
