"""Choice conditions as the compiled graph writes them (``$defs/condition``): evaluated over
what the reader holds, and put in words for the menu. The runtime reads only the graph."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
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


def needs(condition: Mapping[str, Any]) -> str:
    """What a closed choice needs, in words for the player: ``rope``, ``10 coins``, ``you not to
    have gallery-searched``, ``stone key and you not to have alarm`` (``not`` read as a need)."""
    if "not" in condition:
        return "you not to have " + words(condition["not"], False)
    if "all" in condition:
        return " and ".join(needs(c) if "not" in c else words(c, False) for c in condition["all"])
    return words(condition)


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


def as_written(changes: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Changes as the author wrote them: the graph's ``[-all backpack]`` (a loss of every one of
    each possession the container holds, one change each, marked with its ``container``) is one
    change again, named after the container."""
    out: list[Mapping[str, Any]] = []
    for change in changes:
        box = change.get("container")
        if box is not None and change.get("all"):
            last = out[-1] if out else None
            if last is not None and last.get("all") and last.get("name") == box and last.get("container") == box:
                continue  # (the next possession of the same container)
            out.append({**{k: v for k, v in change.items() if k != "name"}, "name": box})
        else:
            out.append(change)
    return out


def change_words(change: Mapping[str, Any]) -> str:
    """An effect (``$defs/change``) as the notation writes it: ``-3 coins``, ``+once stone key``,
    ``-1d6 coins?``, ``-all coins``, ``may +rope``."""
    sign = "+" if change["amount"] > 0 else "-"
    if change.get("all"):
        size = "all "
    elif "dice" in change:
        times = change.get("times", 1)
        size = change["dice"] + (f"*{times}" if times != 1 else "") + " "
    else:
        size = "" if abs(change["amount"]) == 1 and not change.get("pick") else f"{abs(change['amount'])} "
    text = f"{sign}{size}{'once ' if change.get('once') else ''}{change['name']}{'?' if change.get('if_held') else ''}"
    return f"may {text}" if change.get("may") else text
