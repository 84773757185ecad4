"""The adventurer: abilities, HP, what they carry, and the Death & Treasure numbers derived from it.

A character is plain data (:meth:`Character.to_dict` is the JSON of
``schemas/character.schema.json``); the modifiers follow the seed's "Ability Scores" table and
Defense is 9 + armour + the STR and DEX modifiers. A character of another ruleset (``ruleset``:
Maze Rats bonuses, Zilch suits) keeps its abilities in ``abilities`` and any other numbers its
rules track (attack bonus, class chips, Dungeon Rules scores) in ``stats``; Defense, the load
limit and encumbrance are Death & Treasure's and mean nothing there.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd
from pathlib import Path
from typing import Any

from dtc.runtime.dice import DiceError, parse_dice
from dtc.runtime.equipment import (
    BACKPACK,
    BACKPACK_HOLDS,
    COINS,
    HAND,
    KEPT_WHEN_DUMPED,
    KIT_DUMPED,
    OIL,
    RANGED,
    RATIONS,
    SACK_HOLDS,
    WATERSKIN,
    Item,
    weight_text,
)
from dtc.runtime.inventory import holding, same

ABILITIES = ("STR", "DEX", "CON", "WIS", "INT", "CHA")
ABILITY_NAMES = {"STR": "Strength", "DEX": "Dexterity", "CON": "Constitution", "WIS": "Wisdom",
                 "INT": "Intelligence", "CHA": "Charisma"}
BASE_DEFENSE = 9
DEFAULT_RULESET = "death-and-treasure"
#: Rulesets whose abilities are bonuses, shown with a sign (``STR +2``).
SIGNED = frozenset({"maze-rats"})
CHARACTER_FORMAT = "dtc-character"
CHARACTER_VERSION = 1


class CharacterError(ValueError):
    """A character file that cannot be used; the message names the field."""


def high_low(score: int) -> int:
    """+1 above 13, -1 below 8, else 0: the direction of every ability's special effect."""
    return 1 if score > 13 else -1 if score < 8 else 0


@dataclass(slots=True)
class Character:
    name: str
    abilities: dict[str, int]
    max_hp: int
    hp: int
    items: list[Item] = field(default_factory=list)
    rolled: list[int] | None = None
    swap: tuple[str, str] | None = None
    languages: int = 0
    notes: list[str] = field(default_factory=list)
    #: The ruleset the character was made for.
    ruleset: str = DEFAULT_RULESET
    #: Other numbers the ruleset tracks (``AB``, ``chips``, Dungeon Rules scores such as ``LUCK``).
    stats: dict[str, int] = field(default_factory=dict)
    #: The load while the adventurer is held :meth:`steady` (None: worked out at every ask).
    _steady_load: Fraction | None = field(default=None, init=False, repr=False, compare=False)
    _steady: bool = field(default=False, init=False, repr=False, compare=False)
    #: The load last worked out: (the item list it was read from, its length, the load, STR, encumbered).
    #: Items change through :meth:`add`, :meth:`use` and :meth:`dump_kit`, which forget it; a new
    #: list, or one grown or shrunk, is read afresh.
    _load_memo: tuple[list[Item], int, Fraction, int | None, bool] | None = field(
        default=None, init=False, repr=False, compare=False)
    #: Defense, remembered the same way as the load (with STR and DEX).
    _defense_memo: tuple[list[Item], int, tuple[int, int], int] | None = field(
        default=None, init=False, repr=False, compare=False)
    #: How many of each name (lower-cased) are carried, remembered the same way as the load.
    _count_memo: tuple[list[Item], int, dict[str, int]] | None = field(
        default=None, init=False, repr=False, compare=False)
    #: The weapons and what they show (name, damage, mode), remembered the same way as the load.
    _weapons_memo: tuple[list[Item], int, list[tuple[Item, str]], tuple[tuple[str, str | None, str], ...]] | None = (
        field(default=None, init=False, repr=False, compare=False))
    #: Every item's name, lower-cased, one a line, remembered the same way as the load.
    _names_memo: tuple[list[Item], int, str] | None = field(default=None, init=False, repr=False, compare=False)
    #: How many each possession's name finds among the items (:meth:`holding`), remembered the same way.
    _held_memo: tuple[list[Item], int, dict[str, int]] | None = field(
        default=None, init=False, repr=False, compare=False)

    # --- abilities and derived numbers --------------------------------------------------

    def score(self, ability: str) -> int:
        if ability in self.abilities:
            return self.abilities[ability]
        return self.stats[ability]

    @property
    def dt(self) -> bool:
        """A Death & Treasure character (Defense, load and encumbrance apply)."""
        return self.ruleset == DEFAULT_RULESET

    @property
    def defense(self) -> int:
        memo = self._defense_memo
        items = self.items
        strength, dexterity = self.abilities["STR"], self.abilities["DEX"]
        if memo is None or memo[0] is not items or memo[1] != len(items) or memo[2] != (strength, dexterity):
            memo = self._defense_memo = (items, len(items), (strength, dexterity), self._defense())
        return memo[3]

    def _defense(self) -> int:
        # The best piece in each slot (body, shield, head; 0 for an empty slot), in one pass.
        best: dict[str, int] = {}
        for i in self.items:
            slot = i.slot
            if slot == "body" or slot == "shield" or slot == "head":
                d = i.defense
                if slot not in best or d > best[slot]:
                    best[slot] = d
        armour = best.get("body", 0) + best.get("shield", 0) + best.get("head", 0)
        return BASE_DEFENSE + armour + high_low(self.abilities["STR"]) + high_low(self.abilities["DEX"])

    def _defense_reference(self) -> int:
        """:meth:`_defense` as three searches, one per slot (the tests hold the one to the other)."""
        armour = 0
        for slot in ("body", "shield", "head"):
            armour += max((i.defense for i in self.items if i.slot == slot), default=0)
        return BASE_DEFENSE + armour + high_low(self.abilities["STR"]) + high_low(self.abilities["DEX"])

    def attack_modifier(self, mode: str) -> int:
        """Added to the d20 attack roll (roll-under: STR/DEX above 13 gives -1)."""
        return -high_low(self.abilities["STR" if mode == HAND else "DEX"])

    def attack_ability(self, mode: str) -> str:
        return "STR" if mode == HAND else "DEX"

    # --- load and treasure -----------------------------------------------------------------

    @contextmanager
    def steady(self) -> Iterator[None]:
        """While nothing changes the adventurer (a menu being built, its odds being worked out), the
        load — which every check's odds ask for, to know whether the adventurer is encumbered — is
        worked out once. Whoever holds it steady must not change the items meanwhile."""
        if self._steady:
            yield
            return
        self._steady = True
        try:
            yield
        finally:
            self._steady = False
            self._steady_load = None

    @property
    def load(self) -> Fraction:
        """Total weight carried outside the standard kit (exact; integer arithmetic for speed)."""
        if self._steady:
            if self._steady_load is None:
                self._steady_load = self._memo()[2]
            return self._steady_load
        return self._memo()[2]

    def _memo(self) -> tuple[list[Item], int, Fraction, int | None, bool]:
        """The load and whether it encumbers, worked out once per state of the items (and STR)."""
        memo = self._load_memo
        items = self.items
        limit = self.load_limit
        if memo is None or memo[0] is not items or memo[1] != len(items) or memo[3] != limit:
            load = self._load()
            memo = self._load_memo = (items, len(items), load, limit, limit is not None and load > limit)
        return memo

    def _load(self) -> Fraction:
        num, den = 0, 1
        for i in self.items:
            w = i.weight
            if i.standard or not i.quantity or not w:
                continue
            d = w.denominator
            if den % d:
                common = den * d // gcd(den, d)
                num *= common // den
                den = common
            num += w.numerator * i.quantity * (den // d)
        return Fraction(num, den)

    @property
    def load_limit(self) -> int | None:
        """The weight carried without penalty (Death & Treasure: STR); None when the rules set none."""
        return self.abilities["STR"] if self.dt else None

    @property
    def treasure_room(self) -> Fraction | None:
        """Death & Treasure: the weight of treasure there is still room for — in sacks (5 small,
        10 large) and, once its kit is dumped, the backpack (6); None where the rules set no limit."""
        if not self.dt:
            return None
        holds = sum(SACK_HOLDS.get(i.key, 0) * i.quantity for i in self.items)
        if KIT_DUMPED in self.notes and self.find(BACKPACK) is not None:
            holds += BACKPACK_HOLDS
        held = sum((i.weight * i.quantity for i in self.items if i.kind == "treasure"), Fraction(0))
        return max(Fraction(0), holds - held)

    def fitting(self, item: Item) -> int:
        """How many pieces of ``item`` there is room to carry (all but treasure: every one)."""
        room = self.treasure_room
        if room is None or item.kind != "treasure" or not item.weight:
            return item.quantity
        return min(item.quantity, int(room / item.weight))

    def can_dump_kit(self) -> bool:
        """Whether the backpack still holds a standard kit that could be dumped for room."""
        return (self.dt and KIT_DUMPED not in self.notes and self.find(BACKPACK) is not None
                and any(i.standard and i.key not in KEPT_WHEN_DUMPED for i in self.items))

    def dump_kit(self) -> list[Item]:
        """Leave the backpack's standard kit behind (the lit lantern and the knife stay): the backpack
        then holds items up to weight 6. Returns what was left."""
        left = [i for i in self.items if i.standard and i.key not in KEPT_WHEN_DUMPED]
        self._load_memo = self._count_memo = self._defense_memo = self._weapons_memo = self._names_memo = None
        self._held_memo = None
        self.items = [i for i in self.items if i not in left]
        self.notes.append(KIT_DUMPED)
        return left

    @property
    def encumbered(self) -> bool:
        """Carrying more than STR: every roll is made twice and the worse kept."""
        if self._steady and self._steady_load is not None:
            limit = self.load_limit
            return limit is not None and self._steady_load > limit
        memo = self._load_memo
        items = self.items
        if (memo is not None and memo[0] is items and memo[1] == len(items)
                and memo[3] == (self.abilities["STR"] if self.ruleset == DEFAULT_RULESET else None)):
            return memo[4]  # what _memo() would give, read without its calls
        return self._memo()[4]

    @property
    def treasure_value(self) -> int:
        return sum(i.worth for i in self.items if i.kind == "treasure")

    @property
    def has_treasure(self) -> bool:
        return any(i.kind == "treasure" and i.quantity > 0 for i in self.items)

    def count(self, name: str) -> int:
        memo = self._count_memo
        items = self.items
        if memo is None or memo[0] is not items or memo[1] != len(items):
            counts: dict[str, int] = {}
            for i in items:
                key = i.key
                counts[key] = counts.get(key, 0) + i.quantity
            memo = self._count_memo = (items, len(items), counts)
        return memo[2].get(name.lower(), 0)

    def item_names(self) -> str:
        """Every item's name (carried or used up), lower-cased, one a line: ``"x" in
        pc.item_names()`` asks whether some item's name holds ``x`` (a word without a line break)."""
        memo = self._names_memo
        items = self.items
        if memo is None or memo[0] is not items or memo[1] != len(items):
            memo = self._names_memo = (items, len(items), "\n".join([i.key for i in items]))
        return memo[2]

    def holding(self, name: str) -> int:
        """How many of the possession ``name`` (as the book writes it) the items hold: every item
        whose name matches it as docs/format.md, "How names match", says (``Rope (50 ft.)`` is a
        ``rope``, ``Torch`` ×3 is 3 ``torches``, the coins are ``coins``)."""
        memo = self._held_memo
        items = self.items
        if memo is None or memo[0] is not items or memo[1] != len(items):
            memo = self._held_memo = (items, len(items), {})
        known = memo[2]
        n = known.get(name)
        if n is None:
            n = known[name] = holding(items, name)
        return n

    def give_up(self, name: str, quantity: int) -> int:
        """Take up to ``quantity`` of the possession ``name`` from the items (as :meth:`holding`
        matches them; found and bought piles before the standard kit, heaviest first): how many
        were taken. A standard item used up stays listed, at 0, as :meth:`use` leaves it."""
        piles = [i for i in self.items if i.quantity > 0 and same(i.name, name)]
        if not piles or quantity <= 0:
            return 0
        piles.sort(key=lambda i: (i.standard, -i.weight))
        taken = 0
        for pile in piles:
            take = min(pile.quantity, quantity - taken)
            pile.quantity -= take
            taken += take
            if taken == quantity:
                break
        self._load_memo = self._count_memo = self._defense_memo = self._weapons_memo = self._names_memo = None
        self._held_memo = None
        self.items = [i for i in self.items if i.quantity > 0 or i.standard]
        return taken

    def find(self, name: str) -> Item | None:
        key = name.lower()
        for i in self.items:
            if i.quantity > 0 and i.key == key:
                return i
        return None

    def weapons(self) -> list[tuple[Item, str]]:
        """(weapon, mode) pairs the adventurer can attack with (a list kept while the items do not
        change: read it, do not change it)."""
        return self._weapons()[2]

    def weapons_shown(self) -> tuple[tuple[str, str | None, str], ...]:
        """Each of :meth:`weapons` as an attack option shows it: (name, damage, mode)."""
        return self._weapons()[3]

    def _weapons(self) -> tuple[list[Item], int, list[tuple[Item, str]], tuple[tuple[str, str | None, str], ...]]:
        memo = self._weapons_memo
        items = self.items
        if memo is None or memo[0] is not items or memo[1] != len(items):
            pairs = [(i, mode) for i in items if i.kind == "weapon" and i.quantity > 0 and i.damage
                     for mode in i.ranges]
            memo = self._weapons_memo = (items, len(items), pairs, tuple([(i.name, i.damage, m) for i, m in pairs]))
        return memo

    # --- changes ---------------------------------------------------------------------------

    def add(self, item: Item) -> None:
        """Add an item, merging with an identical pile (same name, kind, weight, value, standard)."""
        self._load_memo = self._count_memo = self._defense_memo = self._weapons_memo = self._names_memo = None
        self._held_memo = None
        name, kind, standard = item.key, item.kind, item.standard
        for have in self.items:
            if (have.kind == kind and have.standard == standard and have.key == name
                    and have.weight == item.weight and have.value == item.value
                    and have.damage == item.damage and have.slot == item.slot):
                have.quantity += item.quantity
                return
        self.items.append(item)

    def use(self, name: str, quantity: int = 1) -> bool:
        """Remove ``quantity`` of ``name``, heaviest piles first; False (nothing removed) if short."""
        if self.count(name) < quantity:
            return False
        items, counts = self.items, self._count_memo
        loaded = self._load_memo
        if loaded is not None and (loaded[0] is not items or loaded[1] != len(items)):
            loaded = None
        key = name.lower()
        piles = [i for i in items if i.key == key and i.quantity > 0]
        if len(piles) > 1:
            piles.sort(key=lambda i: (i.standard, -i.weight))
        taken = 0
        for pile in piles:
            take = min(pile.quantity, quantity)
            pile.quantity -= take
            quantity -= take
            taken += take
            if quantity == 0:
                break
        kept = self.items = [i for i in items if i.quantity > 0 or i.standard]
        # What the piles used from can change, the rest stay: the counts (just made by count()
        # above) change by what was taken; the load stays where every pile used from is standard
        # kit or weightless (the load counts neither). The others are worked out afresh.
        self._defense_memo = self._weapons_memo = self._names_memo = self._held_memo = None
        if counts is not None:
            counts[2][key] = counts[2].get(key, 0) - taken
            counts = (kept, len(kept), counts[2])
        self._count_memo = counts
        self._load_memo = (None if loaded is None or any(p.weight and not p.standard for p in piles)
                           else (kept, len(kept), *loaded[2:]))
        return True

    @property
    def can_rest(self) -> bool:
        return self.count(RATIONS) > 0 and self.count(WATERSKIN) > 0

    @property
    def oil(self) -> int:
        return self.count(OIL)

    # --- text ------------------------------------------------------------------------------

    def summary(self) -> str:
        if self.dt:
            scores = "  ".join(f"{a} {self.abilities[a]}" for a in ABILITIES)
            extra = "".join(f"  {k} {v}" for k, v in self.stats.items())
            return f"{self.name}: {scores}{extra}  HP {self.hp}/{self.max_hp}  Defense {self.defense}"
        signed = self.ruleset in SIGNED
        scores = "  ".join(f"{a} {v:+d}" if signed else f"{a} {v}" for a, v in self.abilities.items())
        extra = "".join(f"  {k} {v}" for k, v in self.stats.items())
        return f"{self.name}: {scores}{extra}  HP {self.hp}/{self.max_hp}"

    def inventory_lines(self) -> list[str]:
        lines = []
        for i in self.items:
            if i.quantity <= 0 and i.kind != "gear":
                continue
            qty = f"{i.quantity} " if i.quantity != 1 or i.name == COINS else ""
            extra = []
            if i.damage:
                extra.append(f"{i.damage} {'/'.join(i.ranges)}")
            if i.slot:
                extra.append(f"+{i.defense} Defense")
            if i.kind == "treasure" and i.value:
                extra.append(f"worth {i.worth:,}")
            extra.append("standard" if i.standard else f"weight {weight_text(i.load)}")
            lines.append(f"{qty}{i.name} ({', '.join(extra)})")
        if self.load_limit is not None:
            lines.append(f"Load {weight_text(self.load)} of {self.load_limit}"
                         + ("  ENCUMBERED: every roll twice, keep the worse" if self.encumbered else ""))
        room = self.treasure_room
        lines.append(f"Treasure worth {self.treasure_value:,} coins"
                     + (f"; room for weight {weight_text(room)} more in sacks" if room is not None else "")
                     + ("; backpack kit dumped" if KIT_DUMPED in self.notes else ""))
        return lines

    # --- JSON ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": CHARACTER_FORMAT,
            "format_version": CHARACTER_VERSION,
            "name": self.name,
            "abilities": {a: self.abilities[a] for a in ABILITIES} if self.dt else dict(self.abilities),
            "hp": self.hp,
            "max_hp": self.max_hp,
            "rolled": self.rolled,
            "swap": list(self.swap) if self.swap else None,
            "languages": self.languages,
            "items": [i.to_dict() for i in self.items],
            "notes": list(self.notes),
        }
        data["ruleset"] = self.ruleset  # the game system; a file without it is Death & Treasure's
        if self.stats:
            data["stats"] = dict(self.stats)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Character:
        """Build from JSON already checked against the schema; raises CharacterError on nonsense."""
        ruleset = str(data.get("ruleset", DEFAULT_RULESET))
        abilities = data["abilities"]
        pc = cls(
            name=data["name"],
            abilities={a: int(abilities[a]) for a in ABILITIES} if ruleset == DEFAULT_RULESET else {
                str(a): int(v) for a, v in abilities.items()},
            max_hp=int(data["max_hp"]),
            hp=int(data["hp"]),
            items=[Item.from_dict(i) for i in data["items"]],
            rolled=data.get("rolled"),
            swap=(data["swap"][0], data["swap"][1]) if data.get("swap") else None,
            languages=int(data.get("languages", 0)),
            notes=list(data.get("notes", [])),
            ruleset=ruleset,
            stats={str(k): int(v) for k, v in data.get("stats", {}).items()},
        )
        if pc.hp > pc.max_hp:
            raise CharacterError(f"hp: {pc.hp} is more than max_hp {pc.max_hp}")
        for n, item in enumerate(pc.items):
            if item.kind == "weapon" and item.damage:
                try:
                    parse_dice(item.damage)
                except DiceError:
                    raise CharacterError(f"items[{n}].damage: {item.damage!r} is not dice such as d8") from None
            if item.kind == "weapon" and not set(item.ranges) <= {HAND, RANGED}:
                raise CharacterError(f"items[{n}].ranges: use '{HAND}' and/or '{RANGED}'")
        return pc


def load_character(path: str | Path) -> Character:
    """Read a character file: JSON, schema-checked, then sanity-checked (raises CharacterError)."""
    from dtc.compiled.schema import SchemaError, load_json

    try:
        data = load_json(path, "character")
    except SchemaError as exc:
        raise CharacterError(str(exc)) from None
    except OSError as exc:
        raise CharacterError(f"{path}: {exc.strerror or exc}") from None
    try:
        return Character.from_dict(data)
    except CharacterError as exc:
        raise CharacterError(f"{path}: {exc}") from None


def character_json(pc: Character) -> str:
    import json

    return json.dumps(pc.to_dict(), indent=1, ensure_ascii=False) + "\n"
