"""The front matter's state lines, as the grammar's ``start_with`` and ``limits`` rules read them.

``Start with: crystal star pendant, 20 gold crowns`` is what the reader holds on the first page;
``Limits: coins 50, backpack 8, weapons 2`` the most of each name they can hold (docs/format.md,
"Writing a published gamebook"). Each reader gives (name, count, error) per part: the name as
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
    return _read(value, "limits")


def _read(value: str, rule: str) -> tuple[Part, ...]:
    if not value.strip():
        return (("", 0, ("an empty line: name what the reader holds, or remove the line", 0, 0)),)
    from dtc.compiler.grammars import parse_front

    found = parse_front(value, rule)
    if isinstance(found, Failed):
        return (("", 0, (found.message, found.start, found.end)),)
    return tuple((name, count, None) for name, count in found)


__all__ = ["Part", "limits", "possession_name", "start_with"]
