"""Saved games: everything needed to continue a run exactly, written atomically after every step.

A save holds the settings of the run (adventure, seed, mode, script position, log length), the
dice state, the character and the game state (``schemas/save.schema.json``). Because the dice
state is saved, a resumed seeded run continues exactly as it would have without the stop.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dtc import __version__
from dtc.compiled.graphjson import CompiledGraph
from dtc.compiled.schema import SchemaError, load_json, quote, validate
from dtc.fileio import write_text
from dtc.runtime.character import Character, CharacterError
from dtc.runtime.dice import Dice
from dtc.runtime.state import GameState

if TYPE_CHECKING:
    from dtc.runtime.engine import Engine
    from dtc.runtime.ruleset import Rules

SAVE_FORMAT = "dtc-save"
SAVE_VERSION = 1
#: The largest turn limit a run takes (``--max-turns``, and a save's ``settings.max_turns``).
MAX_TURNS = 1_000_000_000


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
    #: ``--ruling`` readings over the book's own (``{"morale": "above"}``), None when none.
    rulings: dict[str, str] | None = None

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


def write_save(path: str | Path, engine: Engine, settings: Settings,
               inputs: Iterable[str | Path | None] = ()) -> None:
    """Write the save atomically, keeping the previous one as ``path~`` (never over an input).

    A named pipe in its place is refused (:class:`dtc.fileio.OutputError`), never opened again
    every turn (it blocked once nobody read it); a character device is written as it is."""
    text = json.dumps(save_data(engine, settings), ensure_ascii=False, separators=(",", ":")) + "\n"
    write_text(path, text, backup=True, inputs=inputs, pipes=False)


def default_save_path(adventure: str | Path) -> Path:
    """``build/NAME-HASH.save.json``: HASH is taken from the adventure's absolute path, so two books
    of the same name (in different folders) never share a save."""
    absolute = os.path.abspath(adventure)
    digest = hashlib.sha256(absolute.encode("utf-8", "surrogateescape")).hexdigest()[:8]
    return Path("build") / f"{Path(adventure).stem}-{digest}.save.json"


def read_save(path: str | Path) -> Saved:
    """Load and check a save (raises :class:`SaveError`, leaving the file untouched).

    Every value is checked for meaning, not only for the shape the schema gives it: a dice state
    the generator cannot go on from (every word zero draws zeros forever), a turn limit past
    :data:`MAX_TURNS`, an unknown policy, a path with control characters."""
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
    except RecursionError:
        raise SaveError(f"{path}: character: nested too deeply") from None
    try:
        character = Character.from_dict(data["character"])
    except CharacterError as exc:
        raise SaveError(f"{path}: character.{exc}") from None
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise SaveError(f"{path}: character: not a valid adventurer ({type(exc).__name__})") from None
    try:
        dice = Dice.from_state(data["dice"])
    except (TypeError, ValueError, OverflowError, KeyError) as exc:
        raise SaveError(f"{path}: dice.state: not a valid generator state ({exc})") from None
    try:
        state = GameState.from_dict(data["state"])
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise SaveError(f"{path}: state: not a valid game state ({type(exc).__name__})") from None
    settings = Settings.from_dict(data["settings"])
    _check_settings(settings, str(path))
    return Saved(settings, data["rules"], dice, character, state)


def _check_settings(settings: Settings, path: str) -> None:
    from dtc.runtime.policies import POLICIES

    if settings.policy is not None and settings.policy not in POLICIES:
        raise SaveError(f"{path}: settings.policy: unknown policy {quote(settings.policy)} "
                        f"(dtc has {', '.join(sorted(POLICIES))})")
    for name in ("adventure", "script", "log"):
        value = getattr(settings, name)
        if value is not None and not value.isprintable():
            raise SaveError(f"{path}: settings.{name}: the path {quote(value)} holds control characters")
    if settings.max_turns > MAX_TURNS:
        raise SaveError(f"{path}: settings.max_turns: a turn limit past the largest a run takes ({MAX_TURNS:,})")
    if settings.mode == "auto" and settings.policy is None:
        raise SaveError(f"{path}: settings.policy: an automatic run needs a policy")
    if settings.mode == "script" and not settings.script:
        raise SaveError(f"{path}: settings.script: a scripted run needs its script")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object" if isinstance(value, dict) else "value"


def _fits(value: Any, model: Any) -> bool:
    kind, want = _kind(value), _kind(model)
    if want == "null":  # a value that may be unset (a zone's name...): any scalar
        return kind in ("null", "string", "integer")
    if want == "number":
        return kind in ("number", "integer")
    return kind == want


def _check_rules_state(saved: dict[str, Any], model: dict[str, Any], where: str) -> None:
    for key, expected in model.items():
        if key not in saved:
            raise SaveError(f"{where}.{key}: missing (the {_kind(expected)} this ruleset keeps there)")
        if not _fits(saved[key], expected):
            raise SaveError(f"{where}.{key}: {_kind(saved[key])} where {_kind(expected)} was expected")
        if isinstance(expected, dict):
            _check_rules_state(saved[key], expected, f"{where}.{key}")


def check_against(saved: Saved, graph: CompiledGraph, rules: Rules, path: str | Path) -> None:
    """Raise :class:`SaveError` unless the save can go on in this adventure under these rules.

    The entry the run stands at must still be in the (maybe edited) book, the save's ruleset
    must be the one the book plays, and the ruleset's own values in the state must be there with
    the types a new run gives them.
    """
    from dtc.runtime.engine import Engine
    from dtc.runtime.policies import POLICIES

    if saved.rules != rules.name:
        raise SaveError(f"{path}: the game was saved under the rules {quote(saved.rules)}; "
                        "the adventure now plays "
                        f"'{rules.name}'")
    numbers = {e["number"] for e in graph["entries"]}
    if saved.state.entry not in numbers:
        raise SaveError(f"{path}: state.entry: the game stands at entry {saved.state.entry}, which the adventure "
                        "no longer has (it was edited since the save)")
    pc = Character.from_dict(saved.character.to_dict())
    if not rules.fits(pc):
        pc = rules.new_character(Dice(0))
    scratch = Engine(graph, pc, POLICIES["random"](), dice=Dice(0), rules=rules)
    if not scratch.entries:
        return
    rules.begin(scratch)
    _check_rules_state(saved.state.rules, scratch.state.rules, f"{path}: state.rules")
