"""Choice labels: the bold text or the words before the parenthetical, never a stat block or a
fragment; a fallback named by the target where neither names the choice (see "Choice labels" in
docs/format.md)."""

from __future__ import annotations

import pytest

from dtc.compiler.api import compile_text
from dtc.compiler.labels import read_label

HEAD = "Test Book\n\nAdventure Entries\n\n"


@pytest.mark.parametrize(
    ("before", "label"),
    [
        # Bold wins, right before the notation or earlier in its clause.
        ("the **Great Doors** ", "Great Doors"),
        ("Past the planks, the **Gallery** runs on ", "Gallery"),
        ("The **Rails** lead on ", "Rails"),
        ("Back to the **Cellar** floor ", "Cellar"),
        ("The **Lens** is yours to deal with ", "Lens"),
        ("The **Cellar** is dark again ", "Cellar"),
        ("You see a **Door** **Iron Gate", "Iron Gate"),  # bold round the notation: **Iron Gate (D0, S2)**
        # ... but not across a connective, nor over a destination.
        ("the **Key**, or back ", "back"),
        ("the **Key** and then back ", "back"),
        ("the **Keeper's Door** leads to the kitchen ", "kitchen"),
        ("take the **Sword** and climb down ", "climb down"),
        # The few words before it, as before.
        ("You can go in the Frog Mouth ", "Frog Mouth"),
        ("or search for other entrances ", "search for other entrances"),
        ("Passages lead north ", "north"),
        ("go back down to the nave ", "nave"),
        ("climb the rotten ivy ", "climb the rotten ivy"),
        ("Back ", "Back"),
        ("or back ", "back"),
        ("Walk in ", "Walk in"),
        ("the stairs down ", "stairs down"),
        ("Quietly climb down ", "Quietly climb down"),
        # A way that goes somewhere is named by the way.
        ("the corridor runs on ", "corridor"),
        ("A spiral stair goes down ", "spiral stair"),
        ("The shaft waits ", "shaft"),
        ("The trestle leads back ", "trestle"),
        ("The way back to the junction is clear ", "junction"),
        ("There is a door ", "door"),
        ("The door is open ", "door"),
        # A line break right before the notation does not cut hard-wrapped prose.
        ("and come out in a flooded grotto\n", "out in a flooded grotto"),
        # Nothing worth showing: a stat block, a reference, a fragment.
        ("Smuggler 1 HP 4 | Morale 7 | Cutlass d6 ", ""),
        ("Smuggler 1 HP 4 | Morale 7 | Cutlass d6\n", ""),
        ("**Smuggler HP 4 | Morale 7 | Cutlass d6**", ""),
        ("Guard HP 4 ", ""),
        ("Fight them; if you win, turn to 17 ", ""),
        ("The way you came → 14 ", ""),
        ("The way you came -> 14 ", ""),
        ("leave the way you came ", ""),
        ("You smell something fishy ", "smell something fishy"),  # "you" opens the clause: its verb is the choice
        ("go to 2 ", ""),
        ("You are in the cellar, at least ", ""),
        ("It is dark ", ""),
        ("deal with ", ""),
        ("The stair. ", ""),
        ("", ""),
    ],
)
def test_read_label(before: str, label: str) -> None:
    assert read_label(before) == label


def _labels(*entries: str) -> list[str]:
    graph = compile_text(HEAD + "\n\n".join(entries) + "\n", "book.txt").graph()
    return [c["label"] for e in graph["entries"] for c in e["choices"]]


def test_the_issue_books_get_labels_or_the_fallback() -> None:
    assert _labels(
        "1 Two smugglers dice at a barrel.\nSmuggler 1 HP 4 | Morale 7 | Cutlass d6\n"
        "Smuggler 2 HP 3 | Morale 6 | Cutlass d6\nIf you win, turn to 17 (D0, S17). Or **Bribe Them** (D0, S2).",
        "2 The way you came → 14 (D0, S14). Past the planks, the corridor runs on (D0, S5). Then go to 2 (D0, S2).",
        "5 Leap (DEX D2, S17, F14). (D2, S17, F14) (roll d6, 1-3 S14, 4-6 S17)",
        "14 A. THE END", "17 B. THE END",
    ) == ["Go on to 17", "Bribe Them", "Go on to 14", "corridor", "Go on to 2", "Leap", "Try for 17", "Roll d6"]


def test_a_choice_knows_whether_its_text_names_it() -> None:
    from dtc.compiler.parse import parse

    doc = parse(HEAD + "1 A **Door** (D0, S2). The way you came (D0, S2). (D1 S2)\n\n2 X. THE END\n")
    assert [(c.label, c.label_found) for c in doc.entries[0].choices] == [
        ("Door", True), ("Go on to 2", False), ("", True)]
