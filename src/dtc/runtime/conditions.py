"""Choice conditions as the compiled graph writes them (``$defs/condition``): evaluated over
what the reader holds, and put in words for the menu. The runtime reads only the graph."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def holds(condition: Mapping[str, Any], held: Callable[[str], int]) -> bool:
    """``{"has": "stone key", "count": 1}``, ``{"not": ...}``, ``{"all": [...]}``, ``{"any": [...]}``;
    ``held(name)``: how many of ``name`` the reader holds, possessions and items alike
    (:meth:`dtc.runtime.engine.Engine.held`)."""
    if "has" in condition:
        return held(condition["has"]) >= int(condition["count"])
    if "not" in condition:
        return not holds(condition["not"], held)
    if "all" in condition:
        return all(holds(c, held) for c in condition["all"])
    return any(holds(c, held) for c in condition["any"])


def words(condition: Mapping[str, Any], top: bool = True) -> str:
    """``stone key and not alarm``, ``10 coins``: the condition as notation writes it."""
    if "has" in condition:
        n = condition["count"]
        return condition["has"] if n == 1 else f"{n} {condition['has']}"
    if "not" in condition:
        return "not " + words(condition["not"], False)
    if "all" in condition:
        return " and ".join(words(c, False) for c in condition["all"])
    text = " or ".join(words(c, False) for c in condition["any"])
    return text if top else f"({text})"
