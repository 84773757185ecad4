"""Saved games: everything needed to continue a run exactly, written atomically after every step.

A save holds the settings of the run (adventure, seed, mode, script position, log length), the
dice state, the character and the game state (``schemas/save.schema.json``). Because the dice
state is saved, a resumed seeded run continues exactly as it would have without the stop.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dtc import __version__
from dtc.compiled.schema import SchemaError, load_json, validate
from dtc.fileio import atomic_write_text
from dtc.runtime.character import Character, CharacterError
from dtc.runtime.dice import Dice
from dtc.runtime.state import GameState

if TYPE_CHECKING:
    from dtc.runtime.engine import Engine

SAVE_FORMAT = "dtc-save"
SAVE_VERSION = 1


class SaveError(ValueError):
    """A save file that cannot be resumed; the message names the file and the field."""


@dataclass(slots=True)
class Settings:
    """How the run was started (what ``--resume`` needs to carry on the same way)."""

    adventure: str
    sha256: str
    title: str | None
    seed: int
    max_turns: int
    mode: str
    policy: str | None = None
    script: str | None = None
    script_line: int = 0
    log: str | None = None
    log_offset: int = 0
    start: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        return cls(**data)


@dataclass(slots=True)
class Saved:
    settings: Settings
    rules: str
    dice: Dice
    character: Character
    state: GameState


def save_data(engine: Engine, settings: Settings) -> dict[str, Any]:
    return {
        "format": SAVE_FORMAT,
        "format_version": SAVE_VERSION,
        "dtc_version": __version__,
        "settings": settings.to_dict(),
        "rules": engine.rules.name,
        "dice": engine.dice.get_state(),
        "character": engine.pc.to_dict(),
        "state": engine.state.to_dict(),
    }


def write_save(path: str | Path, engine: Engine, settings: Settings) -> None:
    """Write the save atomically, keeping the previous one as ``path~``."""
    text = json.dumps(save_data(engine, settings), ensure_ascii=False, separators=(",", ":")) + "\n"
    atomic_write_text(path, text, backup=True)


def read_save(path: str | Path) -> Saved:
    """Load and check a save (raises :class:`SaveError`, leaving the file untouched)."""
    try:
        data = load_json(path, "save")
    except SchemaError as exc:
        raise SaveError(str(exc)) from None
    except OSError as exc:
        raise SaveError(f"{path}: {exc.strerror or exc}") from None
    try:
        validate(data["character"], "character")
    except SchemaError as exc:
        raise SaveError(f"{path}: character.{exc}") from None
    try:
        character = Character.from_dict(data["character"])
    except CharacterError as exc:
        raise SaveError(f"{path}: character.{exc}") from None
    try:
        dice = Dice.from_state(data["dice"])
    except (TypeError, ValueError) as exc:
        raise SaveError(f"{path}: dice.state: not a valid generator state ({exc})") from None
    state = GameState.from_dict(data["state"])
    return Saved(Settings.from_dict(data["settings"]), data["rules"], dice, character, state)
