"""The web edition says what a closed choice needs in `dtc play`'s words (issue 41): one wording,
from :func:`dtc.runtime.conditions.needs`, never the notation's ``not X``."""

from __future__ import annotations

import re
from html import unescape

from dtc.compiler.api import compile_text
from dtc.editions.web import render_web
from dtc.runtime.conditions import needs

BOOK = """Title: Two Doors
Rules: death-and-treasure

1 A hall with two doors and a bell rope. **Ring the Bell** (D0, S2). **North Door** (D0, S3, if not bell-rung).
**South Door** (D0, S3, if brass key and not bell-rung).

2 The bell booms through the hall. [+bell-rung] **Back to the Hall** (D0, S1).

3 You step out into the morning. THE END
"""


def _needs_lines(html: str) -> list[str]:
    return [unescape(m) for m in re.findall(r'<p class="needs">(.*?)</p>', html)]


def test_a_closed_choice_needs_what_play_says_it_needs() -> None:
    graph = compile_text(BOOK, "two-doors.txt").graph()
    lines = _needs_lines(render_web(graph))
    conditions = [c["condition"] for c in graph["entries"][0]["choices"] if c.get("condition")]
    assert lines == [f"Needs {needs(c)}." for c in conditions]
    assert lines == ["Needs you not to have bell-rung.", "Needs brass key and you not to have bell-rung."]
    assert not any("not bell-rung" in line and "not to have" not in line for line in lines)
