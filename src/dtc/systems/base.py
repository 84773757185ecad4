"""The interface every ruleset implements, and how an overlay combines with a base.

A :class:`Ruleset` is what the compiler, the linter, ``dtc rules`` and the odds analysis know of a
game: its abilities (every accepted spelling), the difficulties its notation may use, and the
exact chance of a check. :meth:`Ruleset.combine` joins a base with an overlay such as Dungeon
Rules; the result (:class:`Combined`) asks whichever part owns an ability.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from dtc.systems.distributions import sum_distribution

if TYPE_CHECKING:
    from dtc.runtime.ruleset import Rules
    from dtc.systems.reference import Reference
    from dtc.systems.webplay import WebSystem

#: One section of ``dtc rules NAME``: a heading and its lines.
Section = tuple[str, tuple[str, ...]]
#: Scores dealt together at creation: the abilities, and each deal of their scores with its chance.
Block = tuple[tuple[str, ...], list[tuple[Fraction, tuple[int, ...]]]]


@dataclass(frozen=True)
class Ruleset:
    """A rule system as the compiler and linter see it.

    ``abilities`` maps every accepted spelling (upper-cased) to the canonical ability name.
    ``difficulties`` are the D-numbers the notation may use; ``difficulty_notes`` says what each
    one asks of the adventurer. ``typical_score`` is an everyday value of an ability (for odds
    shown without a character) and ``score_range`` the values a character may have.
    """

    name: str
    title: str
    abilities: dict[str, str]
    difficulties: tuple[int, ...]
    source: str = ""
    overlays: tuple[str, ...] = field(default=())
    difficulty_notes: dict[int, str] = field(default_factory=dict)
    typical_score: int = 10
    score_range: tuple[int, int] = (3, 18)
    overlay: bool = False
    doc: str = ""
    sections: tuple[Section, ...] = field(default=())

    def check_dice(self, difficulty: int) -> str:
        """The dice a check of this difficulty rolls, for display (``3d6``)."""
        raise NotImplementedError

    def check_probability(
        self, abilities: Mapping[str, int], ability: str | None, difficulty: int, *, encumbered: bool = False
    ) -> Fraction:
        """Exact probability that the ability check of a choice succeeds for this character.

        ``ability`` is the canonical name, or None when the notation names none (the player then
        picks the most fitting score: the best one). Difficulty 0 needs no roll and returns 1.
        """
        raise NotImplementedError

    def check_outcomes(self, abilities: Mapping[str, int], ability: str | None, difficulty: int) -> dict[str, Fraction]:
        """Exact chance of each degree of a check (``success``/``failure``; Zilch has four)."""
        p = self.check_probability(abilities, ability, difficulty)
        return {"success": p, "failure": 1 - p}

    def score_distribution(self, ability: str | None = None) -> dict[int, Fraction]:
        """P(a freshly made character has score s in ``ability``); 3d6 unless a ruleset says otherwise."""
        return sum_distribution(3)

    def fresh_characters(self) -> list[tuple[Fraction, dict[str, int]]] | None:
        """The exact joint distribution of a freshly made adventurer's abilities, as ``(weight, scores)``.

        None (the default) when the abilities are drawn independently, each from
        :meth:`score_distribution`; a system whose scores are dealt together (Maze Rats deals its
        bonuses +2, +1, +0 in some order) returns every deal with its probability.
        """
        return None

    # --- features that favour a choice by its words (Maze Rats' Paths) -----------------------

    def favoured_by(self, label: str) -> tuple[str, ...]:
        """The features (Maze Rats' Paths) that favour a choice labelled ``label``: an adventurer
        with one of them rolls its check as :meth:`favoured_probability` says. None by default."""
        return ()

    def fresh_features(self) -> list[tuple[Fraction, str | None]]:
        """The chance of each feature of a freshly made adventurer (None: one that favours no
        choice), drawn independently of the scores. By default every adventurer has none."""
        return [(Fraction(1), None)]

    def favoured_probability(
        self, abilities: Mapping[str, int], ability: str | None, difficulty: int, *, encumbered: bool = False
    ) -> Fraction:
        """:meth:`check_probability` for an adventurer whose feature favours the choice (Maze Rats:
        the roll gains advantage); by default the same as a plain check."""
        return self.check_probability(abilities, ability, difficulty, encumbered=encumbered)

    def fresh_blocks(self) -> list[Block]:
        """A fresh adventurer's scores as independent blocks, each block's abilities dealt together.

        From :meth:`fresh_characters` when the ruleset gives a joint distribution (one block),
        else one block per ability from :meth:`score_distribution`. Odds project these onto the
        abilities a book checks (``dtc.odds.checks.fresh_projection``) without listing every
        adventurer.
        """
        joint = self.fresh_characters()
        if joint is not None:
            names = tuple(dict.fromkeys(k for _, scores in joint for k in scores))
            return [(names, [(Fraction(w), tuple(int(scores[n]) for n in names)) for w, scores in joint])]
        return [((name,), [(Fraction(p), (int(s),)) for s, p in self.score_distribution(name).items() if p])
                for name in self.ability_names]

    def overlay_blocks(self, base: Ruleset, own: list[str]) -> tuple[list[Block], dict[str, str]]:
        """How this overlay gives a fresh adventurer of ``base`` the abilities ``own`` it checks.

        Returns independent blocks for the scores it rolls, and the abilities that copy one of
        the base's (``{"AGI": "DEX"}``: Dungeon Rules reads Death & Treasure's DEX as AGI). The
        default rolls each from :meth:`score_distribution`.
        """
        return [((name,), [(Fraction(p), (int(s),)) for s, p in self.score_distribution(name).items() if p])
                for name in own], {}

    def ability_groups(self) -> list[list[str]]:
        """The abilities whose best one a check naming no ability uses, one list per part (one part here)."""
        return [self.ability_names]

    def canonical_ability(self, text: str) -> str | None:
        return self.abilities.get(text.strip().upper())

    def score_of(self, abilities: Mapping[str, int], ability: str | None) -> int:
        """The score a check uses: the named ability's, else the character's best."""
        if ability is None:
            return max(abilities.values(), default=self.typical_score)
        return abilities.get(self.canonical_ability(ability) or ability, self.typical_score)

    @property
    def ability_names(self) -> list[str]:
        return list(dict.fromkeys(self.abilities.values()))

    def aliases(self, name: str) -> list[str]:
        """The other spellings of a canonical ability (``STRENGTH`` for ``STR``)."""
        return [k for k, v in self.abilities.items() if v == name and k != name.upper()]

    def combine(self, overlay: Ruleset) -> Ruleset:
        """This ruleset with an overlay's abilities and difficulties added."""
        return Combined.of(self, overlay)


@dataclass(frozen=True)
class Combined(Ruleset):
    """A base ruleset with an overlay: each ability is checked by the part that owns it.

    The base's abilities keep the base's checks (an adventure's checks stay its game's); the
    abilities only the overlay has are checked the overlay's way.
    """

    base: Ruleset | None = None
    parts: tuple[Ruleset, ...] = field(default=())

    @classmethod
    def of(cls, base: Ruleset, overlay: Ruleset) -> Combined:
        inner = base.parts if isinstance(base, Combined) else (base,)
        root = inner[0]
        abilities = dict(base.abilities)
        for spelling, name in overlay.abilities.items():
            abilities.setdefault(spelling, name)
        return cls(
            name=f"{base.name} + {overlay.name}",
            title=f"{base.title} with {overlay.title}",
            abilities=abilities,
            difficulties=tuple(sorted(set(base.difficulties) | set(overlay.difficulties))),
            source=base.source,
            overlays=(*base.overlays, overlay.name),
            difficulty_notes=dict(root.difficulty_notes),
            typical_score=root.typical_score,
            score_range=root.score_range,
            doc=root.doc,
            sections=root.sections,
            base=root,
            parts=(*inner, overlay),
        )

    def owner(self, ability: str | None) -> Ruleset:
        """The part whose rules check ``ability`` (the base for None and for its own abilities)."""
        if ability is None:
            return self.parts[0]
        for part in self.parts:
            canonical = part.canonical_ability(ability)
            if canonical is not None and (part is self.parts[0] or canonical not in self.parts[0].ability_names):
                return part
        return self.parts[0]

    def check_dice(self, difficulty: int) -> str:
        base = self.parts[0].check_dice(difficulty)
        extra = [f"{p.check_dice(difficulty)} for {' '.join(self.own_abilities(p))}" for p in self.parts[1:]
                 if self.own_abilities(p) and difficulty in p.difficulties and difficulty > 0]
        return base + "".join(f" ({e})" for e in extra)

    def own_abilities(self, part: Ruleset) -> list[str]:
        """The abilities ``part`` checks in this combination."""
        return [a for a in part.ability_names if self.owner(a) is part]

    def check_probability(
        self, abilities: Mapping[str, int], ability: str | None, difficulty: int, *, encumbered: bool = False
    ) -> Fraction:
        return self._by_part(abilities, ability, difficulty, encumbered, favoured=False)

    def favoured_probability(
        self, abilities: Mapping[str, int], ability: str | None, difficulty: int, *, encumbered: bool = False
    ) -> Fraction:
        """The part that owns the ability says (the base's feature does not help an overlay's check)."""
        return self._by_part(abilities, ability, difficulty, encumbered, favoured=True)

    def _by_part(self, abilities: Mapping[str, int], ability: str | None, difficulty: int, encumbered: bool, *,
                 favoured: bool) -> Fraction:
        def chance(part: Ruleset, scores: Mapping[str, int], name: str | None) -> Fraction:
            ask = part.favoured_probability if favoured else part.check_probability
            return ask(scores, name, difficulty, encumbered=encumbered)

        if ability is None:
            best = Fraction(0)
            for part in self.parts:
                own = {a: abilities[a] for a in self.own_abilities(part) if a in abilities}
                if own and difficulty in part.difficulties:
                    best = max(best, chance(part, own, None))
            return best if difficulty > 0 else Fraction(1)
        part = self.owner(ability)
        return chance(part, abilities, part.canonical_ability(ability) or ability)

    def favoured_by(self, label: str) -> tuple[str, ...]:
        return self.parts[0].favoured_by(label)

    def fresh_features(self) -> list[tuple[Fraction, str | None]]:
        return self.parts[0].fresh_features()

    def check_outcomes(self, abilities: Mapping[str, int], ability: str | None, difficulty: int) -> dict[str, Fraction]:
        return self.owner(ability).check_outcomes(abilities, ability, difficulty)

    def score_distribution(self, ability: str | None = None) -> dict[int, Fraction]:
        return self.owner(ability).score_distribution(ability)

    def combine(self, overlay: Ruleset) -> Ruleset:
        return Combined.of(self, overlay)

    def fresh_blocks(self) -> list[Block]:
        """The base's creation, then each overlay's scores for the abilities it checks (an
        ability an overlay copies from the base is dealt with that base score's block)."""
        blocks: list[Block] = list(self.parts[0].fresh_blocks())
        for part in self.parts[1:]:
            own, copies = part.overlay_blocks(self.parts[0], self.own_abilities(part))
            blocks.extend(own)
            for copy, source in copies.items():
                for i, (names, deals) in enumerate(blocks):
                    if source in names:
                        at = names.index(source)
                        blocks[i] = ((*names, copy), [(w, (*v, v[at])) for w, v in deals])
                        break
        return blocks

    def ability_groups(self) -> list[list[str]]:
        """Each part's own abilities: a check naming none takes the best of them part by part."""
        return [self.own_abilities(part) for part in self.parts]



@dataclass(frozen=True)
class Roller:
    """How the web edition rolls a check: ``dice[difficulty]`` d``sides``, equal to or under the ability.

    ``options`` names, in words, what a difficulty counts (Death & Treasure: turn, gear, check).
    """

    dice: Mapping[int, int] = field(default_factory=dict)
    sides: int = 6
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class System:
    """Everything dtc knows of one game system, registered under ``ruleset.name``.

    ``ruleset`` is what the compiler, the linter, ``dtc rules`` and the odds read (abilities,
    difficulties, exact checks, a fresh adventurer's scores). ``play`` names the runtime rules
    (:class:`dtc.runtime.ruleset.Rules`) as ``"module:Class"``, imported only when a book is played,
    so that linting never imports the runtime; for an overlay the class wraps a base's rules
    (``Class(base_rules)``). ``roller`` is the print edition's summary of a check (the dice of a
    roll-under check), None where it has none. ``web`` names how the web edition plays the system
    (its roller, sheet and combat helper: a :class:`dtc.systems.webplay.WebSystem`, usually the
    package's ``web.py``) as ``"module:NAME"``, imported only when a web edition is built; "" where
    the page offers no dice.
    """

    ruleset: Ruleset
    play: str
    roller: Roller | None = None
    web: str = ""
    #: The rulings a book may choose (``Rules: maze-rats [morale: at-most]``): name -> the readings
    #: allowed, the default first. See each system's page, "dtc's rulings".
    rulings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: How a reader plays the system with dice and a pencil (its rolls in words, its sheet): a
    #: :class:`dtc.systems.reference.Reference` as ``"module:NAME"`` (the package's ``reference.py``),
    #: imported when an edition is built; "" where the system gives none.
    reference: str = ""

    @property
    def name(self) -> str:
        return self.ruleset.name

    @property
    def overlay(self) -> bool:
        return self.ruleset.overlay

    def reference_card(self) -> Reference | None:
        """The system's rules for a reader (imported now), None without one."""
        if not self.reference:
            return None
        module, _, attr = self.reference.partition(":")
        found: Reference = getattr(importlib.import_module(module), attr)
        return found

    def web_rules(self) -> WebSystem | None:
        """The web edition's description of the system (imported now), None without one."""
        if not self.web:
            return None
        module, _, attr = self.web.partition(":")
        found: WebSystem = getattr(importlib.import_module(module), attr)
        return found

    def rules_class(self) -> type[Rules]:
        """The runtime rules' class (imported now)."""
        module, _, attr = self.play.partition(":")
        cls: type[Rules] = getattr(importlib.import_module(module), attr)
        return cls
