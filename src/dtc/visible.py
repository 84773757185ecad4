"""Author text made safe to show in a terminal: control characters made visible.

A book, a character file or a save may hold escape sequences that a terminal would obey: a
window title (``ESC ] 0 ;``), a hyperlink (OSC 8), a screen clear (``ESC [ 2 J``), a cursor
move that hides a line. Every command that shows author text in a terminal (``dtc play``,
``dtc odds``, ``dtc simulate``, lint messages, ``dtc character``) passes it through
:func:`visible` first, which writes each C0 and C1 control character, and DEL, as a visible
escape (``\\x1b``), and leaves every other character — any script, emoji, punctuation — as it is.
"""

from __future__ import annotations

import re

#: C0 controls but tab and newline, DEL, and the C1 controls (U+0080–U+009F).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTROL_OR_NEWLINE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def _escape(m: re.Match[str]) -> str:
    return f"\\x{ord(m.group()):02x}"


def visible(text: str, *, newlines: bool = True) -> str:
    """``text`` with every control character shown as ``\\xNN`` (``ESC`` -> ``\\x1b``); tabs
    are kept, and newlines unless ``newlines`` is false (for text that must stay on one line)."""
    pattern = _CONTROL if newlines else _CONTROL_OR_NEWLINE
    return pattern.sub(_escape, text) if pattern.search(text) else text
