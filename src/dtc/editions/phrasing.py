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
from dtc.editions.reader import changes_sentence
from dtc.editions.text import needs_words

_COUNT = {1: "one", 2: "two", 3: "three"}
_DICE_COUNTS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


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


_CLOSED = "this way cannot be taken"


def check_words(choice: Choice, rules: CheckRules) -> str:
    """What a check asks, in words: "you need any two of: …; roll 3d6, equal to or under your DEX"."""
    d = int(choice["difficulty"] or 0)
    ability = choice["ability"]
    yours = f"your {ability}" if ability else "your best ability"
    dice = rules.roll_words(d)
    said = rules.how_to_roll(ability, d)
    if said is None and not dice and rules.reader is not None and rules.reader["parts"]:
        # A difficulty these rules do not have (lint reports it): play cannot take this way.
        return f"difficulty {d} is not one of {rules.title}'s: {_CLOSED}"
    roll = said or (f"roll {dice}: a total equal to or under {yours} succeeds" if dice else f"make a check of {yours}")
    if rules.options and dice:
        needs = "all three" if d >= len(rules.options) else f"any {_COUNT.get(d, str(d))}"
        return f"you need {needs} of: {', '.join(rules.options)} ({roll})"
    return roll


def _roll_words(choice: Choice, numbers: set[int], labels: dict[str, int]) -> list[Words]:
    """A random branch: "roll one die: 1–2, turn to 5; 3–6, turn to 9"."""
    roll = choice.get("roll")
    assert roll is not None
    count = int(roll["count"])
    dice = f"{_DICE_COUNTS.get(count, str(count))} {'die' if count == 1 else 'dice'}"
    if roll["sides"] != 6:
        dice += f" ({roll['dice']})"
    out = [Words(f"roll {dice}: ")]
    covered: set[int] = set()
    for i, b in enumerate(roll["branches"]):
        low, high = int(b["low"]), int(b["high"])
        # Ranges that overlap (lint reports them) read as play takes them: the first branch that
        # holds the total; a later one prints only what is left to it, when that is one range.
        left = [n for n in range(low, high + 1) if n not in covered] if high - low < 1000 else []
        if left and left != list(range(low, high + 1)) and left == list(range(left[0], left[-1] + 1)):
            low, high = left[0], left[-1]
        covered.update(left)
        rng = str(low) if low == high else f"{low}–{high}"
        out += [Words(("; " if i else "") + f"{rng}, "), *_turn(b["target"], numbers, labels)]
    return out


def choice_sentence(choice: Choice, rules: CheckRules, numbers: set[int],
                    labels: dict[str, int]) -> list[Words]:
    """The choice as a sentence: "Great Doors: turn to 26.", a check with both outcomes, a gated
    choice ("Stone Door: if you have the stone key, turn to 21.") or a random branch."""
    label = " ".join(str(choice.get("label") or "").split())
    label = label[:1].upper() + label[1:]
    lead = [Words(f"{label}: ")] if label else []
    condition = choice.get("condition")
    needs = f"if {needs_words(condition)}, " if condition is not None else ""
    changes = choice.get("changes") or []
    said = changes_sentence(list(changes))[:-1] if changes else ""  # what taking it does
    pay = [Words(said[:1].lower() + said[1:] + ", then ")] if said else []
    if choice.get("roll") is not None:
        body = [*([Words(needs)] if needs else []), *pay, *_roll_words(choice, numbers, labels)]
        return [*_lead(lead, body), Words(".")]
    success, failure = choice["success"], choice["failure"]
    d = int(choice["difficulty"] or 0)
    if d == 0 and success is not None:  # needs nothing (play takes its success whatever else it says)
        body = [*([Words(needs)] if needs else []), *pay, *_turn(success, numbers, labels)]
        return [*_lead(lead, body), Words(".")]
    what = f"{choice['ability']}, difficulty {d}" if choice["ability"] else f"difficulty {d}"
    if condition is not None:
        what += f"; only if {needs_words(condition)}"
    head = f"{label} ({what}): " if label else f"A check ({what}): "
    asks = check_words(choice, rules)
    if asks.endswith(_CLOSED):
        return [Words(f"{head}{asks}.")]
    out = [Words(head + asks + ". ")]
    if said:
        out.append(Words(f"Taking this way: {said}. "))
    if success is not None:
        out += [Words("If you succeed, "), *_turn(success, numbers, labels)]
    if failure is not None:
        out += [Words("; if you fail, " if success is not None else "If you fail, "),
                *_turn(failure, numbers, labels)]
    out.append(Words("."))
    return out


def _lead(lead: list[Words], body: list[Words]) -> list[Words]:
    """The label's lead, then the body; without a label the body begins with a capital."""
    return [*lead, *body] if lead else _cap(body)


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
    if rules.reader is not None and rules.reader["sections"]:
        return lines  # the system's own words follow, kind by kind (dtc.systems.reference)
    if rules.dice:
        dice = ", ".join(f"{n}d{rules.sides} for difficulty {d}" for d, n in sorted(rules.dice.items()))
        lines.append(f"In {rules.title} a check rolls {dice}; a total equal to or under your ability succeeds.")
        if rules.options:
            lines.append(f"A difficulty is how many of these the choice needs: {', '.join(rules.options)}.")
    lines.append("A choice of difficulty 0 needs no roll: simply turn to its number.")
    return lines


def way_out_lines(start: int) -> list[str]:
    """How a reader leaves the book besides its endings, as play lets them: back at the first
    section after going in (a delve with no ending section ends so), and a section with no way on."""
    return [f"Back at section {start} after going in, you may leave by the way you came in: the adventure "
            "ends there, and what you carry out is yours.",
            "A section that gives no way on sends you back to the section you came from."]


def plain(words: list[Words]) -> str:
    """The sentence as plain text (numbers as they are)."""
    return "".join(w.text for w in words)
