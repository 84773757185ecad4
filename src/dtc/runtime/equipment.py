"""Items and the Death & Treasure equipment lists (weapons, armour, gear, treasure weights).

Weights are exact fractions (``½``, ``¼``, ``1/7`` of a 7-day ration pack). An item's ``weight``
is per piece; ``standard`` gear (the kit every adventurer carries) does not count towards the
load. Seed: "Equipment and Encumbrance", "Weapons", "Armor", "Gear", "Treasure".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

HAND = "hand-to-hand"
RANGED = "ranged"

RATIONS = "Rations"
OIL = "Lantern Oil"
WATERSKIN = "Waterskin"
LANTERN = "Lantern"
COINS = "coins"


_NO_WEIGHT = Fraction(0)


@dataclass(slots=True, init=False)
class Item:
    """Something carried. ``kind``: weapon, armour, gear, treasure or item (found, unclassified)."""

    name: str
    kind: str
    quantity: int = 1
    weight: Fraction = Fraction(0)
    standard: bool = False
    damage: str | None = None
    ranges: tuple[str, ...] = ()
    defense: int = 0
    slot: str | None = None
    value: int | None = None
    category: str | None = None
    #: The name lower-cased, how piles are matched (set once: an item's name is never changed).
    key: str = field(init=False, repr=False, compare=False)

    def __init__(self, name: str, kind: str, quantity: int = 1, weight: Fraction = _NO_WEIGHT,
                 standard: bool = False, damage: str | None = None, ranges: tuple[str, ...] = (),
                 defense: int = 0, slot: str | None = None, value: int | None = None,
                 category: str | None = None) -> None:
        # (written out, not the dataclass's own with a __post_init__: the key without a second call)
        self.name = name
        self.kind = kind
        self.quantity = quantity
        self.weight = weight
        self.standard = standard
        self.damage = damage
        self.ranges = ranges
        self.defense = defense
        self.slot = slot
        self.value = value
        self.category = category
        self.key = name.lower()

    @property
    def load(self) -> Fraction:
        return Fraction(0) if self.standard else self.weight * self.quantity

    @property
    def worth(self) -> int:
        return (self.value or 0) * self.quantity

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "kind": self.kind, "quantity": self.quantity,
                                "weight": fraction_text(self.weight), "standard": self.standard}
        if self.damage is not None:
            data["damage"] = self.damage
            data["ranges"] = list(self.ranges)
        if self.slot is not None:
            data["defense"] = self.defense
            data["slot"] = self.slot
        if self.kind == "treasure":
            data["value"] = self.value
            data["category"] = self.category
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Item:
        return cls(
            name=data["name"],
            kind=data["kind"],
            quantity=int(data.get("quantity", 1)),
            weight=parse_weight(data.get("weight", 0)),
            standard=bool(data.get("standard", False)),
            damage=data.get("damage"),
            ranges=tuple(data.get("ranges", ())),
            defense=int(data.get("defense", 0)),
            slot=data.get("slot"),
            value=data.get("value"),
            category=data.get("category"),
        )


def parse_weight(value: Any) -> Fraction:
    """``"1/4"``, ``0.5`` or ``1`` -> an exact fraction."""
    return Fraction(str(value)).limit_denominator(10_000)


def fraction_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def weight_text(value: Fraction) -> str:
    """Human form: ``1½``, ``¼``, ``2.14`` for awkward fractions."""
    return _weight_text(value.numerator, value.denominator)


@lru_cache(maxsize=512)
def _weight_text(numerator: int, denominator: int) -> str:
    """:func:`weight_text`, worked out once per weight (a shop lists the same few weights often)."""
    return _words(Fraction(numerator, denominator))


def _words(value: Fraction) -> str:
    whole, rest = divmod(value, 1)
    glyph = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾", Fraction(0): ""}.get(rest)
    if glyph is None:
        return f"{float(value):.2f}".rstrip("0").rstrip(".")
    if whole == 0 and glyph:
        return glyph
    return f"{whole}{glyph}"


@dataclass(frozen=True, slots=True)
class Offer:
    """One line of an equipment list: the item it gives."""

    item: Item = field(compare=False)
    #: The line as a shop shows it, and what the item weighs in all: worked out once, when the list
    #: is made (an offer's item is never changed: :meth:`take` hands out a copy).
    label: str = field(init=False, compare=False, repr=False)
    load: Fraction = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        i = self.item
        load = i.weight * i.quantity
        parts = [i.name]
        if i.damage:
            parts.append(f"{i.damage} {'/'.join(i.ranges)}")
        if i.slot:
            parts.append(f"+{i.defense} Defense")
        parts.append(f"weight {weight_text(load)}")
        object.__setattr__(self, "label", " - ".join(parts))
        object.__setattr__(self, "load", load)

    def take(self) -> Item:
        i = self.item  # a copy, field by field (what dataclasses.replace makes, without its bookkeeping)
        return Item(i.name, i.kind, i.quantity, i.weight, i.standard, i.damage, i.ranges, i.defense, i.slot, i.value,
                    i.category)


def _weapon(name: str, damage: str, ranges: tuple[str, ...], weight: int) -> Offer:
    return Offer(Item(name, "weapon", weight=Fraction(weight), damage=damage, ranges=ranges))


def _armour(name: str, defense: int, slot: str, weight: int) -> Offer:
    return Offer(Item(name, "armour", weight=Fraction(weight), defense=defense, slot=slot))


def _gear(name: str, weight: Fraction, quantity: int = 1) -> Offer:
    return Offer(Item(name, "gear", quantity=quantity, weight=weight / quantity))


WEAPONS: tuple[Offer, ...] = (
    _weapon("Bow", "d6", (RANGED,), 1),
    _weapon("Crossbow", "d8", (RANGED,), 2),
    _weapon("Dagger", "d4", (RANGED, HAND), 0),
    _weapon("Handaxe", "d6", (RANGED, HAND), 1),
    _weapon("Shortsword", "d6", (HAND,), 1),
    _weapon("Sword", "d8", (HAND,), 2),
    _weapon("Axe", "d8", (HAND,), 2),
    _weapon("Greatsword", "d10", (HAND,), 3),
    _weapon("Greataxe", "d10", (HAND,), 3),
    _weapon("Polearm", "d10", (HAND,), 2),
)

ARMOUR: tuple[Offer, ...] = (
    _armour("Leather", 3, "body", 1),
    _armour("Chainmail", 5, "body", 2),
    _armour("Plate", 7, "body", 3),
    _armour("Shield", 1, "shield", 1),
    _armour("Helmet", 1, "head", 1),
)

GEAR: tuple[Offer, ...] = (
    _gear("Crowbar", Fraction(1, 2)),
    _gear("Grappling Hook", Fraction(1, 2)),
    _gear("Hammer", Fraction(1, 4)),
    _gear(LANTERN, Fraction(1, 4)),
    _gear(OIL, Fraction(1), 3),
    _gear(RATIONS, Fraction(1), 7),
    _gear("Rope (50 ft.)", Fraction(1)),
    _gear("Sack (small)", Fraction(0)),
    _gear("Sack (large)", Fraction(0)),
    _gear("Spikes", Fraction(1), 5),
    _gear("Tinderbox", Fraction(0)),
    _gear(WATERSKIN, Fraction(1)),
)


#: Death & Treasure containers (seed, *Gear*): a sack holds treasure up to its weight; the backpack
#: holds the standard kit or, once that is dumped, items up to weight 6.
SACK_HOLDS = {"sack (small)": 5, "sack (large)": 10}
BACKPACK = "Backpack"
BACKPACK_HOLDS = 6
#: The character's note once the backpack's standard kit has been dumped.
KIT_DUMPED = "backpack: kit dumped"
#: Standard gear kept when the kit is dumped: the lantern is carried in a hand, the knife at the belt.
KEPT_WHEN_DUMPED = frozenset({BACKPACK.lower(), LANTERN.lower(), "knife"})


def standard_gear() -> list[Item]:
    """The kit that does not count towards the load (the Knife fights as a d4 hand-to-hand blade)."""
    return [
        Item("Backpack", "gear", standard=True),
        Item("Rope (50 ft.)", "gear", standard=True),
        Item("Crowbar", "gear", standard=True),
        Item("Knife", "weapon", standard=True, damage="d4", ranges=(HAND,)),
        Item("Hammer", "gear", standard=True),
        Item("Iron Spikes", "gear", standard=True),
        Item(RATIONS, "gear", quantity=14, standard=True),
        Item(WATERSKIN, "gear", standard=True),
        Item(LANTERN, "gear", standard=True),
        Item(OIL, "gear", quantity=3, standard=True),
    ]


#: Weight of one piece of treasure by category (1,000 coins, 10 gems, 5 pieces of jewelry weigh 1).
#: A unique treasure whose text gives no weight counts as a piece of jewelry.
TREASURE_WEIGHT = {"coins": Fraction(1, 1000), "gems": Fraction(1, 10), "jewelry": Fraction(1, 5),
                   "unique": Fraction(1, 5)}

#: Per-piece weight of things found by name (a found ration weighs what a 7-day pack does / 7).
FOUND_WEIGHT = {RATIONS.lower(): Fraction(1, 7), OIL.lower(): Fraction(1, 3)}
