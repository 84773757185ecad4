"""The play runtime: plays a compiled adventure graph (JSON) with a ruleset automated.

It reads only the compiled graph — never the source or the parser — so anything that can produce
the JSON contract (``schemas/adventure.schema.json``) can be played. :class:`Engine` is pure (no
terminal, no files); :mod:`dtc.runtime.terminal` puts a person in front of it,
:mod:`dtc.runtime.policies` plays by itself, :mod:`dtc.runtime.save` and :mod:`dtc.runtime.log`
keep the record.
"""

from dtc.runtime.core import Option, Outcome, Player, Question
from dtc.runtime.engine import Engine

__all__ = ["Engine", "Option", "Outcome", "Player", "Question"]
