"""The play runtime: plays a compiled adventure graph (JSON) with a ruleset automated.

It reads only the compiled graph — never the source or the parser — so anything that can produce
the JSON contract (``schemas/adventure.schema.json``) can be played. :class:`Engine` is pure (no
terminal, no files); :mod:`dtc.runtime.terminal` puts a person in front of it,
:mod:`dtc.runtime.policies` plays by itself, :mod:`dtc.runtime.save` and :mod:`dtc.runtime.log`
keep the record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dtc.runtime.core import Option, Outcome, Player, Question
    from dtc.runtime.engine import Engine

__all__ = ["Engine", "Option", "Outcome", "Player", "Question"]


def __getattr__(name: str) -> Any:
    """The package's names, imported when first asked for: a module that needs only the dice
    (a game system's exact odds, read by the linter) does not load the engine with them."""
    if name == "Engine":
        from dtc.runtime.engine import Engine

        return Engine
    if name in ("Option", "Outcome", "Player", "Question"):
        import dtc.runtime.core as core

        return getattr(core, name)
    raise AttributeError(f"module 'dtc.runtime' has no attribute {name!r}")
