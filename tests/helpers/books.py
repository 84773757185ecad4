"""Small books several test modules share."""

from __future__ import annotations

#: A book numbered by labels: a check, a D0 move, a prose exit and a return.
LABELS = """\
Title: Labels
Start: @gate

Adventure Entries

@gate You stand at a gate. Climb it (DEX D2, S@wall, F @ditch) or walk in (D0, s@yard).

@wall You top the wall. Go to @yard.

@ditch You fall in the ditch. Return to @gate.

@yard The yard is quiet. THE END
"""
