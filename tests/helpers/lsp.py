"""The books and the edits the language-server tests share (``test_lsp``, ``test_incremental``,
``test_lsp_outline``, ``test_vscode``)."""

from __future__ import annotations

import random
import re

import pytest

from helpers import bundled_and_sample

#: A small book in every construct the server reads.
BOOK = """Title: The Frog Cellar
Rules: death-and-treasure

The Frog Cellar

Encounters

  1. 1d4 Goblins

Goblin HP 3 | Morale 7 | Sword or Bow d6

Adventure Entries

1 A muddy stair leads down. A **Chasm** (DEX D3, S24, F78) yawns ahead; a side door (D0, S2) is open.

2 A small room. A lever (STR D1, S24, F3) or back (D0, S1).

3 The lever snaps. You may go to 24.

24 Beyond the chasm a cold wind blows.
The frogs croak below. Return to 1.

78 You fall into the dark water. THE END
"""


def untouched(old: list[str], new: list[str]) -> tuple[int, int]:
    """How many lines at the start and at the end an edit left alone: what `dtc lsp` works out
    from an editor's changes and passes on (the benchmarks, which also run older checkouts'
    code, keep their own copy: `benchmarks/lsp_edits.py`)."""
    lead = 0
    while lead < min(len(old), len(new)) and old[lead] == new[lead]:
        lead += 1
    trail = 0
    while trail < min(len(old), len(new)) - lead and old[-1 - trail] == new[-1 - trail]:
        trail += 1
    return lead, trail


def edit_lines(rng: random.Random, lines: list[str]) -> list[str]:
    lines = list(lines)
    i = rng.randrange(len(lines))
    kind = rng.randrange(6)
    if kind == 0:
        lines.insert(i, "")
    elif kind == 1 and len(lines) > 1:
        del lines[i]
    elif kind == 2:
        lines.insert(i, f"{rng.randint(1, 40)} A new entry (D0, S{rng.randint(1, 40)}).")
    elif kind == 3:
        lines[i] = lines[i] + " More words, go to 3."
    elif kind == 4:
        lines.insert(i, rng.choice(["<!-- dtc: ignore[dead-end] -->", "Ogre HP 5 | Morale x | Club",
                                    "A Troll HP 9 | Bite d6. Then", "@pit A pit (D1, S@top, F2)."]))
    else:
        lines[i] = lines[i][: len(lines[i]) // 2]
    return lines


#: The books the editor is tested on: a small one, every bundled adventure, and the seed's Sample
#: Dungeon (skipped with the reason when the seed documents are not beside the checkout).
SOURCES = [pytest.param("frog-cellar", BOOK, id="frog-cellar"), *bundled_and_sample()]



PASTES = [
    "{n} A pasted room. Leave (D0, S{t}).", "{n} A pasted room. THE END", "{n} A pasted dead end.",
    "{n} A pit (DEX D2, S{t}, F{t}). Suddenly, 2 Ogres attack!", "{n} A far door (D0, S99999999).",
    "{n} A gate (D0, S{t}, if brass key). [+silver coin]", "{n} A hall. Go to {t}.",
    "{n} Back. Return to your most recent entry.", "{n} A drop (D100, S{t}).",
    "@{label} A labelled room (D0, S{t}).", "{n} A lair.\nOgre HP 5 | Morale 7 | Club d6",
]


def entry_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """(first line, end line) of each entry-like block: a line opening with a number or a label
    after a blank line, up to the next such line."""
    heads = [i for i in range(1, len(lines)) if lines[i][:1].isdigit() or lines[i][:1] == "@"
             if not lines[i - 1].strip()]
    return [(a, heads[k + 1] if k + 1 < len(heads) else len(lines)) for k, a in enumerate(heads)]


def entry_edit(rng: random.Random, lines: list[str]) -> list[str]:
    """An edit an author makes to whole entries: delete one, paste one (with exits, good or
    dangling), move one, add a line at the top of one, change an exit's target, retype prose."""
    blocks = entry_blocks(lines)
    if not blocks:
        return [*lines, "", "1 A room (D0, S1)."]
    a, b = blocks[rng.randrange(len(blocks))]
    kind = rng.randrange(6)
    target = rng.choice([rng.randint(1, 60), 999])
    if kind == 0:  # delete an entry
        return lines[:a] + lines[b:]
    if kind == 1:  # paste an entry before another
        piece = rng.choice(PASTES).format(n=rng.randint(1, 80), t=target, label=rng.choice(["pit", "top"]))
        return [*lines[:a], *piece.split("\n"), "", *lines[a:]]
    if kind == 2:  # move an entry to the end
        return lines[:a] + lines[b:] + ["", *lines[a:b]]
    if kind == 3:  # a line added (or removed) inside an entry, near the top of the book
        first = blocks[0][0]
        if rng.random() < 0.5:
            return [*lines[: first + 1], "A new line of prose.", *lines[first + 1 :]]
        return [*lines[: first + 1], *lines[first + 2 :]] if blocks[0][1] > first + 2 else lines
    if kind == 4:  # an exit changed: the first S or go-to target in the entry
        out = list(lines)
        for i in range(a, b):
            changed = re.sub(r"(S|go to |Go to |Return to )(\d+)", lambda m: f"{m.group(1)}{target}", out[i], count=1)
            if changed != out[i]:
                out[i] = changed
                break
        return out
    out = list(lines)
    out[a] += " Quietly."
    return out
