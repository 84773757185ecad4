"""The front matter's state lines, as the grammar's ``start_with``, ``limits`` and ``containers``
rules read them.

``Start with: crystal star pendant, 20 gold crowns`` is what the reader holds on the first page;
``Limits: coins 50, backpack 8, weapons 2`` the most of each name they can hold (docs/format.md,
"Writing a published gamebook"); ``Containers: backpack: rope, meal; weapons: sword, axe`` which
possessions each container holds. Each reader gives (name, count, error) per part: the name as
possessions are compiled (:func:`dtc.compiler.notation.possession_name`), or ``""`` with the
error and where it stands in the value when the line does not parse (lint DT123 reports it).
"""

from __future__ import annotations

from functools import cache

from dtc.compiler.notation import Failed, possession_name

#: (name, count, error): ``error`` is None, or (message, start, end) in the value.
Part = tuple[str, int, tuple[str, int, int] | None]


@cache
def start_with(value: str) -> tuple[Part, ...]:
    """``crystal star pendant, 20 gold crowns`` ->
    ``(("crystal star pendant", 1, None), ("gold crowns", 20, None))``."""
    return _read(value, "start_with")


@cache
def limits(value: str) -> tuple[Part, ...]:
    """``coins 50, backpack 8`` -> ``(("coins", 50, None), ("backpack", 8, None))``."""
    return tuple((n, abs(k), e) for n, k, e in _read(value, "limits"))


@cache
def chosen(value: str) -> frozenset[str]:
    """The names of a ``Limits:`` line past whose limit the reader chooses what to drop:
    ``coins 50, backpack 8 (choose)`` -> ``{"backpack"}``."""
    return frozenset(n for n, k, e in _read(value, "limits") if e is None and k < 0)


#: (container, its possessions, error): ``error`` is None, or (message, start, end) in the value.
Container = tuple[str, tuple[str, ...], tuple[str, int, int] | None]


@cache
def containers(value: str) -> tuple[Container, ...]:
    """``backpack: rope, meal; weapons: sword`` -> ``(("backpack", ("rope", "meal"), None),
    ("weapons", ("sword",), None))``. A possession named in two containers, or a container named
    twice, is an error of the second naming."""
    if not value.strip():
        return (("", (), ("an empty line: name each container and what goes in it", 0, 0)),)
    from dtc.compiler.grammars import parse_containers

    found = parse_containers(value)
    if isinstance(found, Failed):
        return (("", (), (found.message, found.start, found.end)),)
    out: list[Container] = []
    where: dict[str, str] = {}
    for name, members, start, end in found:
        error = None
        if name in where.values() or any(n == name for n, _, _ in out):
            error = (f"the container {name} is named twice", start, end)
        for m in members:
            if m == name:
                error = error or (f"the container {name} cannot hold itself", start, end)
            elif m in where:
                error = error or (f"{m} is already in the container {where[m]}", start, end)
            else:
                where[m] = name
        out.append((name if error is None else "", members, error))
    return tuple(out)


def _read(value: str, rule: str) -> tuple[Part, ...]:
    if not value.strip():
        return (("", 0, ("an empty line: name what the reader holds, or remove the line", 0, 0)),)
    from dtc.compiler.grammars import parse_front

    found = parse_front(value, rule)
    if isinstance(found, Failed):
        return (("", 0, (found.message, found.start, found.end)),)
    return tuple((name, count, None) for name, count in found)


__all__ = ["Container", "Part", "chosen", "containers", "limits", "possession_name", "start_with"]
