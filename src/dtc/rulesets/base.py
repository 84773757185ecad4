"""The interface every ruleset implements."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction


@dataclass(frozen=True)
class Ruleset:
    """A rule system as the compiler and linter see it.

    ``abilities`` maps every accepted spelling (upper-cased) to the canonical ability name.
    ``difficulties`` are the D-numbers the notation may use.
    """

    name: str
    title: str
    abilities: dict[str, str]
    difficulties: tuple[int, ...]
    source: str = ""
    overlays: tuple[str, ...] = field(default=())

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

    def canonical_ability(self, text: str) -> str | None:
        return self.abilities.get(text.strip().upper())

    @property
    def ability_names(self) -> list[str]:
        return list(dict.fromkeys(self.abilities.values()))

    def combine(self, overlay: Ruleset) -> Ruleset:
        """This ruleset with an overlay's abilities and difficulties added."""
        return replace(
            self,
            name=f"{self.name} + {overlay.name}",
            title=f"{self.title} with {overlay.title}",
            abilities={**self.abilities, **overlay.abilities},
            difficulties=tuple(sorted(set(self.difficulties) | set(overlay.difficulties))),
            source=self.source,
            overlays=(*self.overlays, overlay.name),
        )
