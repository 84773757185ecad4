"""Game systems: one package each (``dtc/systems/<name>/``), one registry, one reader of ``Rules:``.

An adventure names its system with the ``Rules:`` front-matter key (default
``death-and-treasure``); an overlay joins a base with ``+`` (``death-and-treasure +
dungeon-rules``). Everything a system means sits in its package and is registered by one
:class:`~dtc.systems.base.System` record (``SYSTEM`` in the package): the ruleset the compiler,
linter and odds read, the runtime rules that play it (imported only when played), its web
roller. Other packages add systems through the ``dtc.systems`` entry-point group (see
``docs/architecture.md``); the built-in ones win a name clash.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING

from dtc.systems.base import Combined, Roller, Ruleset, System

if TYPE_CHECKING:
    from collections.abc import Mapping

    from dtc.runtime.ruleset import Rules

DEFAULT = "death-and-treasure"
#: The entry-point group through which other packages register a :class:`System`.
ENTRY_POINT_GROUP = "dtc.systems"
#: The built-in systems' packages, in the order ``dtc rules`` lists them.
BUILTIN = ("death_and_treasure", "maze_rats", "zilch", "dungeon_rules")

BUILTIN_SYSTEMS: dict[str, System] = {}
for _package in BUILTIN:
    _system: System = importlib.import_module(f"dtc.systems.{_package}").SYSTEM
    BUILTIN_SYSTEMS[_system.name] = _system

#: Ruleset name -> ruleset, the built-in ones (plugins: :func:`all_systems`).
REGISTRY: dict[str, Ruleset] = {name: system.ruleset for name, system in BUILTIN_SYSTEMS.items()}


class BrokenPlugin(LookupError):
    """A ``dtc.systems`` entry point that does not load, or does not give a :class:`System`."""


@cache
def plugin_systems() -> dict[str, System]:
    """The systems other installed packages register (read once, and only when first asked)."""
    from importlib.metadata import entry_points

    found: dict[str, System] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = point.load()
        except Exception as error:  # a broken plugin must not take dtc down with it
            raise BrokenPlugin(f"the game-system plugin '{point.name}' ({point.value}) does not load: "
                               f"{type(error).__name__}: {error}") from error
        system = loaded() if callable(loaded) and not isinstance(loaded, System) else loaded
        if not isinstance(system, System):
            raise BrokenPlugin(f"the game-system plugin '{point.name}' ({point.value}) gives "
                               f"{type(system).__name__}, not a dtc.systems.System")
        if system.name not in BUILTIN_SYSTEMS:
            found[system.name] = system
    return found


def all_systems() -> dict[str, System]:
    """Every registered system: the built-in ones, then the plugins'."""
    return {**BUILTIN_SYSTEMS, **plugin_systems()}


def find_system(name: str) -> System | None:
    """The system registered under ``name`` (plugins are looked up only for a name not built in)."""
    if name in BUILTIN_SYSTEMS:
        return BUILTIN_SYSTEMS[name]
    return plugin_systems().get(name)


class UnknownRuleset(LookupError):
    """A ``Rules:`` value dtc cannot use; ``name`` is the offending part."""

    def __init__(self, name: str, message: str | None = None) -> None:
        super().__init__(name)
        self.name = name
        self.message = message or f"unknown ruleset '{name}'{suggestion(name)} (known: {', '.join(known_names())})"


def suggestion(name: str) -> str:
    """``; did you mean 'maze-rats'?`` for a near miss of a known name, else nothing."""
    import difflib

    close = difflib.get_close_matches(name.strip().lower(), known_names(), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def normalise(spec: str | None) -> str:
    return (spec or DEFAULT).strip().lower().replace(" ", "-").replace("_", "-")


def split_rulings(spec: str | None) -> tuple[str | None, dict[str, str]]:
    """``death-and-treasure [same-room: free; morale: at-most]`` -> the systems and the rulings.

    The bracket, at the end of a ``Rules:`` value, picks readings where a seed is silent or both
    readings are reasonable (each system's page lists them under "dtc's rulings").
    """
    if spec is None or "[" not in spec:
        return spec, {}
    head, _, tail = spec.partition("[")
    body = tail.rstrip().removesuffix("]")
    chosen: dict[str, str] = {}
    for part in body.replace(",", ";").split(";"):
        if not part.strip():
            continue
        name, sep, value = part.partition(":") if ":" in part else part.partition("=")
        key = normalise(name).strip("-")
        if not sep or not value.strip() or "]" in value:
            raise UnknownRuleset(key or part.strip(), f"the ruling '{part.strip()}' is not 'name: reading'")
        chosen[key] = normalise(value).strip("-")
    return head.strip() or None, chosen


def check_rulings(systems: tuple[System, ...], chosen: dict[str, str]) -> dict[str, str]:
    """Every ruling of ``systems``: the book's choice, else the default; unknown names or readings raise."""
    allowed: dict[str, tuple[str, ...]] = {}
    for system in systems:
        allowed.update(system.rulings)
    for name, value in chosen.items():
        if name not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            raise UnknownRuleset(name, f"unknown ruling '{name}' (this ruleset's rulings: {known})")
        if value not in allowed[name]:
            raise UnknownRuleset(name, f"the ruling '{name}' is one of {', '.join(allowed[name])}, not '{value}'")
    return {name: chosen.get(name, values[0]) for name, values in allowed.items()}


def parse_rules(spec: str | None) -> tuple[System, tuple[System, ...]]:
    """The one reader of a ``Rules:`` value: its base system and its overlays, in order.

    ``maze-rats``, ``death-and-treasure + dungeon-rules``; an overlay written alone
    (``dungeon-rules``) sits on the default base; an overlay named twice counts once. Raises
    :class:`UnknownRuleset` naming the part that is not a registered system, or a base after ``+``.
    """
    written = spec
    try:
        spec, chosen = split_rulings(spec)
    except UnknownRuleset as error:  # name the whole value: "no rules for 'zilch [morale]'"
        raise UnknownRuleset((written or "").strip(), error.message) from None
    parts = [p.strip("-") for p in normalise(spec).split("+")]
    systems: list[System] = []
    for part in parts:
        system = find_system(part or DEFAULT)
        if system is None:
            raise UnknownRuleset(part)
        systems.append(system)
    base, overlays = systems[0], systems[1:]
    if base.overlay:
        base, overlays = BUILTIN_SYSTEMS[DEFAULT], [base, *overlays]
    for overlay in overlays:
        if not overlay.overlay:
            raise UnknownRuleset(overlay.name, f"'{overlay.name}' is a base ruleset, not an overlay: write it "
                                               f"first, or use one of {', '.join(overlay_names())} after '+'")
    unique = tuple({o.name: o for o in overlays}.values())
    try:
        check_rulings((base, *unique), chosen)
    except UnknownRuleset as error:
        raise UnknownRuleset((written or "").strip(), error.message) from None
    return base, unique


def with_rulings(spec: str | None, chosen: Mapping[str, str]) -> str | None:
    """A ``Rules:`` value with ``chosen`` rulings put over the book's own (the command line's
    ``--ruling name=reading`` overriding the book's ``[name: reading]``); unchanged when none."""
    if not chosen:
        return spec
    head, book = split_rulings(spec)
    merged = {**book, **chosen}
    return f"{head or DEFAULT} [{'; '.join(f'{k}: {v}' for k, v in merged.items())}]"


def get_ruleset(spec: str | None) -> Ruleset:
    """The ruleset (abilities, difficulties, exact checks) of a ``Rules:`` value, overlays combined."""
    base, overlays = parse_rules(spec)
    ruleset = base.ruleset
    for overlay in overlays:
        ruleset = ruleset.combine(overlay.ruleset)
    return ruleset


def play_rules(spec: str | None) -> Rules:
    """The runtime rules that play a ``Rules:`` value (each overlay wraps the rules before it)."""
    base, overlays = parse_rules(spec)
    rulings = check_rulings((base, *overlays), split_rulings(spec)[1])
    rules: Rules = base.rules_class()()
    rules.rulings = rulings
    for overlay in overlays:
        wrapper: type[Rules] = overlay.rules_class()
        rules = wrapper(rules)  # type: ignore[call-arg]
        rules.rulings = rulings
    return rules


def kit_holdings_of(spec: str | None, names: Iterable[str]) -> dict[str, int]:
    """Of ``names`` (possessions a book's conditions and losses read), those a fresh adventurer of
    the ``Rules:`` value ``spec`` carries in the kit, with how many (``{"rope": 1}``): what
    ``dtc play`` finds in the adventurer's items before the first page, and what ``dtc odds`` and
    ``dtc lint`` start their reader with (one inventory, docs/format.md "How names match"). Empty
    when the rules cannot be read (lint reports that on its own)."""
    from dtc.runtime.inventory import kit_holdings

    try:
        kit = play_rules(spec).kit()
    except (UnknownRuleset, ValueError, KeyError):
        return {}
    return kit_holdings(names, kit)


def roller(spec: str | None) -> Roller | None:
    """The web edition's check roller for a ``Rules:`` value: its base system's."""
    return parse_rules(spec)[0].roller


def known_names() -> list[str]:
    return sorted(all_systems())


def overlay_names() -> list[str]:
    return sorted(n for n, s in all_systems().items() if s.overlay)


def has_overlay(ruleset: Ruleset | None, name: str) -> bool:
    return ruleset is not None and name in ruleset.overlays


__all__ = ["DEFAULT", "ENTRY_POINT_GROUP", "REGISTRY", "BrokenPlugin", "Combined", "Roller", "Ruleset", "System",
           "UnknownRuleset", "all_systems", "find_system", "get_ruleset", "has_overlay", "known_names",
           "overlay_names", "parse_rules", "play_rules", "roller",
           "with_rulings"]
