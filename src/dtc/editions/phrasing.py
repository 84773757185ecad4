"""Choices in words, as printed gamebooks put them: "If you succeed, turn to 7; if you fail, turn to 15".

The print edition and the ebook read a choice's notation (``(DEX D2, S7, F15)``) to the reader in
sentences rather than printing it raw. A sentence is a list of :class:`Words`: plain text, or a
number the reader turns to (``target``), which an edition prints bold or makes a link. The words
come from the compiled choice and the system's roller (what a difficulty asks), never from the
author's prose, so they are the same in every edition.
"""

from __future__ import annotations

from dataclasses import dataclass

from dtc.compiled.graphjson import Choice
from dtc.editions.book import CheckRules, target_number

_COUNT = {1: "one", 2: "two", 3: "three"}


@dataclass(frozen=True, slots=True)
class Words:
    """A run of a sentence: ``text``, or the number of the entry it turns to (``target``)."""

    text: str
    target: int | None = None


def _turn(target: int | str | None, numbers: set[int], labels: dict[str, int]) -> list[Words]:
    if isinstance(target, str) and target in labels:
        target = labels[target]
    t = target_number(target, numbers)
    if t is not None:
        return [Words("turn to "), Words(str(t), t)]
    return [Words(f"turn to {target}")]


def check_words(choice: Choice, rules: CheckRules) -> str:
    """What a check asks, in words: "you need any two of: …; roll 3d6, equal to or under your DEX"."""
    d = int(choice["difficulty"] or 0)
    ability = choice["ability"]
    yours = f"your {ability}" if ability else "your best ability"
    dice = rules.roll_words(d)
    roll = f"roll {dice}: a total equal to or under {yours} succeeds" if dice else f"make a check of {yours}"
    if rules.options and dice:
        needs = "all three" if d >= len(rules.options) else f"any {_COUNT.get(d, str(d))}"
        return f"you need {needs} of: {', '.join(rules.options)} ({roll})"
    return roll


def choice_sentence(choice: Choice, rules: CheckRules, numbers: set[int],
                    labels: dict[str, int]) -> list[Words]:
    """The choice as a sentence: "Great Doors: turn to 26." or a check with both outcomes."""
    label = " ".join(str(choice.get("label") or "").split())
    label = label[:1].upper() + label[1:]
    success, failure = choice["success"], choice["failure"]
    d = int(choice["difficulty"] or 0)
    if d == 0 and failure is None:
        if label:
            return [Words(f"{label}: "), *_turn(success, numbers, labels), Words(".")]
        return [*_cap(_turn(success, numbers, labels)), Words(".")]
    what = f"{choice['ability']}, difficulty {d}" if choice["ability"] else f"difficulty {d}"
    head = f"{label} ({what}): " if label else f"A check ({what}): "
    out = [Words(head + check_words(choice, rules) + ". ")]
    if success is not None:
        out += [Words("If you succeed, "), *_turn(success, numbers, labels)]
    if failure is not None:
        out += [Words("; if you fail, " if success is not None else "If you fail, "),
                *_turn(failure, numbers, labels)]
    out.append(Words("."))
    return out


def _cap(words: list[Words]) -> list[Words]:
    if words and words[0].target is None:
        first = words[0]
        return [Words(first.text[:1].upper() + first.text[1:]), *words[1:]]
    return words


def how_checks_work(rules: CheckRules) -> list[str]:
    """What S and F mean and how this system's checks are rolled, for the front of a book."""
    lines = [
        "The book is divided into numbered sections. Read section by section, and turn to the number "
        "each choice gives you; never read straight on.",
        "Where a choice needs a check, its section says what to roll and where to turn if you succeed "
        "and if you fail (S and F in the author's notation).",
    ]
    if rules.dice:
        dice = ", ".join(f"{n}d{rules.sides} for difficulty {d}" for d, n in sorted(rules.dice.items()))
        lines.append(f"In {rules.title} a check rolls {dice}; a total equal to or under your ability succeeds.")
        if rules.options:
            lines.append(f"A difficulty is how many of these the choice needs: {', '.join(rules.options)}.")
    lines.append("A choice of difficulty 0 needs no roll: simply turn to its number.")
    return lines


def plain(words: list[Words]) -> str:
    """The sentence as plain text (numbers as they are)."""
    return "".join(w.text for w in words)
