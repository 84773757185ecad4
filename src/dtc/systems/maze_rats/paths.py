"""Maze Rats Paths: which choices a Path favours, the one rule ``dtc play``, ``dtc odds`` and the
web edition share.

Seed (*Advantage*): "If the risk of an action is reduced due to the PC's paths, preparation, or
situational factors, the GM may grant Advantage to the roll." dtc reads a Path's activities from
the choice's label (``docs/rulesets/maze-rats.md``):

* the label is cut into **words**: runs of the letters a–z, case ignored; anything else (spaces,
  hyphens, apostrophes, digits, other letters) separates words, so ``rope-bridge`` is ``rope``
  and ``bridge``;
* a Path favours the choice when one of those words is one of its :data:`FORMS`, exactly: a
  whole word, never a part of one (``Recall knowledge`` holds no ``ledge``, ``Block the blow`` no
  ``lock``).

:data:`FORMS` lists every form matched, written out (no stemmer): each word of :data:`PATHS` with
its plural or third-person ``-s``/``-es``, its ``-ing`` and ``-ed`` forms where the word is a verb,
the irregular ones (``leapt``, ``swung``, ``crept``, ``hid``, ``hidden``, ``snuck``) and a few close
compounds (``unlock``, ``lockpick``, ``pickpocket``, ``wilderness``, ``survival``).

Nothing here imports the runtime: the ruleset (odds) and the web edition read it too.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: Each Path's activities, as a person reads them (the feature's offer in ``dtc character new``).
PATHS: dict[str, tuple[str, ...]] = {
    "Briarborn": ("track", "forage", "wild", "trail", "hunt", "root", "thorn", "herb", "survive"),
    "Fingersmith": ("lock", "pick", "tinker", "mechanism", "trap", "pocket", "disarm", "gear", "latch"),
    "Roofrunner": ("climb", "leap", "jump", "balance", "ledge", "wall", "rope", "beam", "swing"),
    "Shadowjack": ("sneak", "hide", "shadow", "stealth", "quiet", "creep", "slip", "unseen"),
}

#: Every word form that counts for each Path, written out.
FORMS: dict[str, tuple[str, ...]] = {
    "Briarborn": (
        "track", "tracks", "tracked", "tracking",
        "forage", "forages", "foraged", "foraging",
        "wild", "wilds", "wilderness",
        "trail", "trails", "trailed", "trailing",
        "hunt", "hunts", "hunted", "hunting",
        "root", "roots", "rooted", "rooting",
        "thorn", "thorns", "thorny",
        "herb", "herbs",
        "survive", "survives", "survived", "surviving", "survival",
    ),
    "Fingersmith": (
        "lock", "locks", "locked", "locking", "unlock", "unlocks", "unlocked", "unlocking",
        "lockpick", "lockpicks", "lockpicking",
        "pick", "picks", "picked", "picking",
        "tinker", "tinkers", "tinkered", "tinkering",
        "mechanism", "mechanisms",
        "trap", "traps", "trapped", "trapping",
        "pocket", "pockets", "pocketed", "pocketing", "pickpocket", "pickpockets", "pickpocketing",
        "disarm", "disarms", "disarmed", "disarming",
        "gear", "gears",
        "latch", "latches", "latched", "latching",
    ),
    "Roofrunner": (
        "climb", "climbs", "climbed", "climbing",
        "leap", "leaps", "leaped", "leapt", "leaping",
        "jump", "jumps", "jumped", "jumping",
        "balance", "balances", "balanced", "balancing",
        "ledge", "ledges",
        "wall", "walls",
        "rope", "ropes",
        "beam", "beams",
        "swing", "swings", "swung", "swinging",
    ),
    "Shadowjack": (
        "sneak", "sneaks", "sneaked", "snuck", "sneaking",
        "hide", "hides", "hid", "hidden", "hiding",
        "shadow", "shadows",
        "stealth", "stealthy", "stealthily",
        "quiet", "quietly",
        "creep", "creeps", "crept", "creeping",
        "slip", "slips", "slipped", "slipping",
        "unseen",
    ),
}

#: A word of a label: a run of the letters a–z (after lower-casing). The web edition's script uses
#: the same pattern (``/[a-z]+/g``).
WORD = re.compile(r"[a-z]+")
WORD_PATTERN = WORD.pattern

_LOOKUP: dict[str, tuple[str, ...]] = {}
for _name, _forms in FORMS.items():
    for _form in _forms:
        _LOOKUP[_form] = (*_LOOKUP.get(_form, ()), _name)


def words(label: str) -> list[str]:
    """The words of a label, lower-cased, in order."""
    return WORD.findall(label.lower())


@lru_cache(maxsize=4096)  # a book has few labels; a simulation asks of each many times
def favoured(label: str) -> tuple[str, ...]:
    """The Paths whose activities a choice's label names (in :data:`PATHS` order; often none)."""
    found = {name for w in words(label) for name in _LOOKUP.get(w, ())}
    return tuple(name for name in PATHS if name in found)


def favours(path: str | None, label: str) -> bool:
    """Whether an adventurer of ``path`` (None: no Path) has advantage on a choice labelled ``label``."""
    return path is not None and path in favoured(label)


#: The feature of a new adventurer by the d6 rolled for it (``make_character``): 1–2 +1 attack
#: bonus (None here: no Path), 3–6 a Path, in :data:`PATHS` order.
FEATURE_DIE = 6


def feature_path(roll: int) -> str | None:
    """The Path a feature roll of ``roll`` (1–6) gives, or None for the +1 attack bonus."""
    return None if roll <= 2 else list(PATHS)[roll - 3]
