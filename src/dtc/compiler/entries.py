"""Read one entry's text: its choices, prose exits, counted creatures, returns, ending and stat blocks.

:func:`dtc.compiler.parse.parse` finds where each entry begins and ends (the layout); this module reads
what an entry says. Parentheticals that look like choice notation go to the grammar
(:mod:`dtc.compiler.notation`); everything else is prose, from which a few well-defined phrases are read
(``go to 17``, ``THE END``, "return to your most recent entry", ``3 Goblins``).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from functools import partial
from itertools import accumulate

import dtc.compiler.dungeon as dungeon
from dtc.compiled.graphjson import DYNAMIC_RETURN
from dtc.compiler.labels import REACH
from dtc.compiler.model import (
    Attack,
    Choice,
    Creature,
    CreatureGroup,
    Document,
    Entry,
    ProseExit,
    Roll,
    RollBranch,
    StateChange,
)
from dtc.compiler.notation import (
    Change,
    Failed,
    Field,
    difficulty_value,
    fast_notation_after_paren,
    parse_effects,
    parse_notation,
    parse_statblock,
    statblock_error,
    target_value,
)
from dtc.diagnostics import Span
from dtc.numbers import ENTRY, bounded

_SP = r"[ \t\u00a0\u2000-\u200b\u202f\u205f\u3000]"

#: After a fight's outcome in a stat block (``win``), its target: ``S13``.
_FIGHT_TARGET = re.compile(rf"{_SP}*[Ss]{_SP}*(?:[0-9]+|@[A-Za-z][A-Za-z0-9_-]*)")
STAT_INLINE = re.compile(
    r"(?:(?<=^)|(?<=[.!?:]\s)|(?<=\n))"
    r"([A-Z][\w'’-]*[ \t]+(?:(?:[A-Z][\w'’-]*|[0-9]+)[ \t]+){0,4}HP[ \t]+[0-9]+(?:[ \t]*\|[^|\n]*)*)",
    re.M,
)
FIGHT = re.compile(r"\b(?:fights?|attacks?|combat|battle|ambush(?:es)?|charges?)\b", re.I)
CANDIDATE = re.compile(r"\(([^()]{1,200})\)")
#: A parenthetical is read as notation when a comma-separated field of it is a whole S/F target
#: (``(S5, F6)``), when it opens with a D-number and a comma (``(DEX D2, 13)``), or when it holds
#: both a D-number and an S/F target anywhere (``(D1 S5 F6)``). ``(D6)``, ``(S3 corridor)`` and
#: ``(d4 damage)`` are prose.
NOTATION_HINT = re.compile(
    rf"(?:^|,){_SP}*[SsFf]{_SP}*(?:[0-9]+|@[A-Za-z][\w-]*){_SP}*(?:,|$)"
    rf"|^{_SP}*(?:[^\W\d_]+{_SP}+)?D{_SP}*[0-9]+{_SP}*,"
    rf"|^{_SP}*[Rr][Oo][Ll][Ll]{_SP}+[0-9]*[Dd][0-9]+{_SP}*,(?=.*(?<![\w@])[SsFf]{_SP}*(?:[0-9]|@[A-Za-z]))"
)
SF_TOKEN = re.compile(rf"(?<![\w@])[SsFf]{_SP}*(?:[0-9]+|@[A-Za-z])(?![\w])")
D_TOKEN = re.compile(rf"(?<![\w@])[Dd]{_SP}*[0-9]+(?!\w)")
#: Numbers and @labels in prose: the anchor of prose exits and of counted creatures.
#: :func:`_scan_numbers` decides exactly what each is; this pattern only spares it numbers that
#: cannot be either. It finds every @label, and each whole run of digits that is
#: - after the last letter of ``to``, ``entry``, ``section`` or ``paragraph`` and 1–12 spaces or
#:   ``§`` (``go to 12``; the scan looks 14 characters back for those words), or
#: - followed by a capitalised word, which only a count can be (``(3 Goblins)``, ``2d6 Rats``):
#:   after a dice ``d`` or anything but a letter, ``_``, ``@`` or a digit.
#: A digit run glued to a word (``S24``, ``x2``) is neither. The pattern opens with a character
#: class, so the regex engine skips ahead to the next digit or ``@`` on its own; the cheapest
#: test comes first (most digits are inside notation or a longer number), the twelve
#: look-behinds for the exit words last.
_AFTER_EXIT_WORD = "|".join(rf"(?<=[oOyYnNhH][ \t\n§]{{{k}}}[0-9])" for k in range(1, 13))
NUMBER = re.compile(
    r"[@0-9](?:(?<=@)[A-Za-z][A-Za-z0-9_-]*"
    r"|(?<=[0-9])(?<![A-CE-Za-ce-z_0-9@][0-9])"
    rf"(?:(?=[0-9]*[ \t]+[A-Z])|(?<=[ \t\n§][0-9])(?:{_AFTER_EXIT_WORD}))[0-9]*)"
)
#: ``NUMBER`` for an entry without ``@``, run over its one-byte copy (see :func:`read_entry`) in
#: which every ASCII digit is NUL: the pattern then opens with a literal, which the regex engine
#: finds at ``memchr`` speed instead of testing a character class at every character (a tenth
#: of the parse). Every class of ``NUMBER`` is ASCII or ``§``, which the copy keeps as they are.
_NUL_DIGITS = bytes.maketrans(b"0123456789\x00", bytes(10) + b"\x01")
_AFTER_EXIT_WORD_NUL = "|".join(rf"(?<=[oOyYnNhH][ \t\n\xa7]{{{k}}}\x00)" for k in range(1, 13))
DIGITS = re.compile(
    (
        r"\x00(?<![A-CE-Za-ce-z_\x00@]\x00)"
        rf"(?:(?=\x00*[ \t]+[A-Z])|(?<=[ \t\n\xa7]\x00)(?:{_AFTER_EXIT_WORD_NUL}))\x00*"
    ).encode("ascii")
)
#: The verbs of a prose exit ("return to 17"); the language server completes after them too.
EXIT_VERBS = r"(?:return|go|skip|turn(?:ing)?|proceed|continue|head|flip|jump)\s+(?:back\s+)?to"
#: What must stand just before a number for it to be a prose exit ("go to 17", "read entry 17").
EXIT_BEFORE = re.compile(
    rf"\b(?:{EXIT_VERBS}"
    r"(?:\s+(?:entry|section|paragraph))?|read\s+(?:entry|section|paragraph))\s*§?\s*$",
    re.I,
)
#: What may not follow an exit number: "turn to 3 more pages" is fine, "go to 3 hours" is not an exit.
EXIT_AFTER_UNIT = re.compile(
    r"[,.][0-9]|[A-Za-z]|\s*(?:%|turns?\b|minutes?\b|hours?\b|rounds?\b|feet\b|ft\b|foot\b|paces?\b|steps?\b"
    r"|yards?\b|miles?\b|met(?:er|re)s?\b|inch(?:es)?\b|levels?\b|floors?\b|coins?\b|gold\b|gp\b|days?\b"
    r"|HP\b|damage\b|times?\b|more\b|of\b)",
    re.I,
)
MENTION_AFTER = re.compile(r"[ \t]+([A-Z][\w'’-]*(?:[ \t]+[A-Z][\w'’-]*){0,3})")
#: Capitalised words after a count that name quantities, not creatures ("2 Rounds", "d4 HP").
NOT_CREATURES = frozenset(
    (
        *("rounds", "round", "turns", "turn", "minutes", "minute", "hours", "hour", "days", "day"),
        *("coins", "coin", "gems", "gem", "gold", "silver", "copper", "feet", "foot", "paces", "steps"),
        *("times", "hp", "xp", "gp", "sp", "cp", "ac"),
    )
)
#: "have read", "had already read": a note about what the reader has read before ("if you have
#: read section 3 earlier"), not a direction to read it now (see :func:`read_before`).
_HAVE_READ = re.compile(
    r"(?:\bhav(?:e|ing)|\bhas|\bhad|['’]ve|['’]d)\s+(?:(?:already|not|never|previously|just|ever|once|yet)\s+){0,2}$",
    re.I,
)


def read_before(text: str, at: int) -> bool:
    """Whether ``read`` at ``at`` in ``text`` speaks of having read ("if you have read section 3
    earlier"): a cross-reference in a note, not a prose exit."""
    return _HAVE_READ.search(text, max(0, at - 40), at) is not None


#: A prose exit's number follows one of these words (a cheap test before EXIT_BEFORE runs).
EXIT_WORDS = ("to", "entry", "section", "paragraph")
ENDING_CAPS = re.compile(r"\bTHE\s+END\b")
THE_END = re.compile(r"(?i:the end)")
#: "The End." as a sentence of its own, any case (checked around each "the end" found).
ENDING_BEFORE = re.compile(r"(?:^|[.!?*_]\s*|\n\s*)[*_]*$")
ENDING_AFTER = re.compile(r"(?![A-Za-z0-9])(?:[ \t]*\([ \t]*(?i:death|victory)[ \t]*\))?[.!*_]*[ \t]*(?:\n|$)")
#: ``THE END (death)``, ``The End (victory).``: the kind of an ending.
ENDING_KIND = re.compile(r"\b(?i:the\s+end)[ \t]*\([ \t]*(?i:(death|victory))[ \t]*\)")
#: ``[+stone key]``, ``[-10 coins]``: a bracket that opens like effects.
EFFECTS = re.compile(rf"\[{_SP}*(?:(?i:may){_SP}+)?[+-][^\[\]]{{0,200}}\]")
#: ``Span`` built from one tuple without the named tuple's Python-level ``__new__`` (three times
#: faster; the parser makes several hundred thousand).
_span: Callable[[tuple[int, int, int, int]], Span] = partial(tuple.__new__, Span)


class LineIndex:
    """Offsets -> (line, column), both 1-based, columns in characters."""

    def __init__(self, text: str, lines: Sequence[str] | None = None) -> None:
        """``lines``, when the caller has them, are ``text.split("\\n")``: each then starts one
        past the end of the line before, summed without a Python step per line."""
        if lines is None:
            self.starts = [0]
            self.starts.extend(m.end() for m in re.finditer("\n", text))
        else:
            self.starts = list(accumulate(map((1).__add__, map(len, lines[:-1])), initial=0))

    def position(self, offset: int) -> tuple[int, int]:
        i = bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i] + 1

    def span(self, start: int, end: int) -> Span:
        line, col = self.position(start)
        end_line, end_col = self.position(end)
        return Span(line, col, end_line, end_col)


#: What the entry scan looks for, built on first use from the notation fast path: a
#: parenthetical the fast path reads whole (group 1), or one that the grammar may still read
#: (it holds an S, F or D token) — every ``CANDIDATE`` but those that can only be prose, such as
#: ``(7 days)``, which the regex engine passes over by itself.
_CHOICES: list[re.Pattern[str]] = []
_SUSPECT = rf"(?=[^()]{{0,200}}?[SsFfDd]{_SP}*[0-9@])[^()]{{1,200}}\)"


def read_creature(line: str, offset: int, index: LineIndex, entry: int | None = None) -> Creature | None:
    block = parse_statblock(line.strip())
    if block is None:
        return None
    lead = len(line) - len(line.lstrip())
    span = index.span(offset + lead, offset + len(line.rstrip()))
    return Creature(
        name=block.name,
        hp=block.hp,
        span=span,
        morale=block.morale,
        attacks=[Attack(n, d) for n, d in block.attacks],
        special=block.special,
        stats=dict(block.stats),
        entry=entry,
        exits={outcome: target_value(target) for outcome, target in block.exits},
    )


ARTICLE_HEAD = re.compile(r"(?:an?|the)\s+", re.I)
SENTENCE_CUT = re.compile(r"\.\s")


def _inline_creature(block: str, offset: int, index: LineIndex, number: int | str) -> Creature | None:
    """A stat block inside an entry, which may be followed by more prose on its line."""
    article = ARTICLE_HEAD.match(block)
    if article:
        block, offset = block[article.end() :], offset + article.end()
    owner = number if isinstance(number, int) else None
    creature = read_creature(block, offset, index, owner)
    if creature is None:
        for cut in reversed([m.start() + 1 for m in SENTENCE_CUT.finditer(block)]):
            creature = read_creature(block[:cut], offset, index, owner)
            if creature is not None:
                break
    return creature


def bad_statblock(doc: Document, line: str, offset: int, index: LineIndex) -> None:
    text = line.strip()
    lead = len(line) - len(line.lstrip())
    failed = statblock_error(text)
    if failed is not None:
        where = offset + lead + failed.start
        doc.bad_statblocks.append((failed.message, index.span(where, max(where + 1, offset + lead + failed.end))))


def read_entry(
    doc: Document, text: str, index: LineIndex, token: str, column: int, line_no: int, start: int, stop: int
) -> Entry:
    """The entry whose head ``token`` (its number or label) stands at 1-based ``column`` of line
    ``line_no + 1``, and whose text is ``text[start:stop]``."""
    body = text[start:stop].rstrip()
    stop = start + len(body)
    number: int | str = int(token) if token.isdigit() else token
    entry = Entry(
        number=number,
        span=_span((line_no + 1, column, line_no + 1, column + len(token))),
        text=body,
        end_line=bisect_right(index.starts, stop),
    )
    notation: list[tuple[int, int]] = []  # where the choices are in the body: their numbers are not prose
    if "(" in body:
        if not _CHOICES:
            _CHOICES.append(re.compile(rf"\((?:({fast_notation_after_paren()})|{_SUSPECT})"))
        for m in _CHOICES[0].finditer(body):
            s, e = m.span()
            if e - s > 202:
                continue  # longer than any candidate (a run of spaces in otherwise good notation)
            if m.start(1) >= 0:
                entry.choices.append(_fast_choice(text, index.starts, start, s, m))
            else:
                inner = body[s + 1 : e - 1]
                if not (NOTATION_HINT.search(inner) or (SF_TOKEN.search(inner) and D_TOKEN.search(inner))):
                    continue
                entry.choices.append(_choice(text, index, start + s, start + e, start))
            notation.append((s, e))
        if len(body) > NOTATION_LIMIT + 2:
            _overlong_notation(entry, text, index, body, start, notation)
    if "[" in body:
        _read_effects(entry, body, start, index, notation)
    # One byte per character (what Latin-1 cannot hold becomes "?"): offsets are the body's.
    one_byte = body.encode("latin-1", "replace")
    _scan_numbers(entry, body, one_byte, start, index, notation)
    # Lower-cased for the word tests below: ASCII case only, which is five times cheaper than
    # str.lower() on text with curly quotes, and the words tested have no other case forms.
    # Tested with find(), not ``in``: CPython's bytes.__contains__ first tries its argument as an
    # integer, and raising and clearing that TypeError costs more than the search itself.
    low = one_byte.lower()
    if low.find(b"return") >= 0:
        entry.returns = [index.span(start + m.start(), start + m.end()) for m in DYNAMIC_RETURN.finditer(body)]
    entry.ending = _is_ending(body, low)
    if entry.ending and "(" in body:
        kind = ENDING_KIND.search(body)
        if kind is not None:
            entry.ending_kind = kind.group(1).lower()
    if ":" in body and (low.find(b"zone") >= 0 or low.find(b"hazard") >= 0):
        dungeon.entry_lines(doc, entry, body, start, index.span, number)
    if "HP" in body:
        for m in STAT_INLINE.finditer(body):
            creature = _inline_creature(m.group(1), start + m.start(1), index, number)
            if creature is not None:
                entry.creatures.append(creature)
                block, base = m.group(1), start + m.start(1)
                for outcome, target in creature.exits.items():  # a fight's exits: ways on, as prose exits are
                    at = max(0, block.lower().rfind(outcome))
                    tail = _FIGHT_TARGET.match(block, at + len(outcome))
                    end = tail.end() if tail is not None else len(block)
                    entry.prose_exits.append(ProseExit(target, block[at:end], index.span(base + at, base + end),
                                                       outcome))
            elif "|" in m.group(1):
                bad_statblock(doc, m.group(1), start + m.start(1), index)
    return entry


#: The longest parenthetical read as notation, in characters between its parentheses.
NOTATION_LIMIT = 200
#: A parenthetical longer than that (possessive: no backtracking inside it).
_OVERLONG = re.compile(rf"\((?:[^()]{{{NOTATION_LIMIT + 1},}}+)\)")


def _overlong_notation(entry: Entry, text: str, index: LineIndex, body: str, start: int,
                       notation: list[tuple[int, int]]) -> None:
    """A parenthetical over :data:`NOTATION_LIMIT` characters that reads as notation (by the
    hints a shorter one is read by) becomes a choice that does not parse, saying why: such a
    choice, or a target of 200 digits, would otherwise vanish without a finding. Its numbers are
    not prose (it joins ``notation``, kept sorted)."""
    found = False
    for m in _OVERLONG.finditer(body):
        inner = m.group()[1:-1]
        if not (NOTATION_HINT.search(inner) or (SF_TOKEN.search(inner) and D_TOKEN.search(inner))):
            continue
        s, e = m.span()
        at = start + s
        choice = Choice(m.group(), source=text, label_from=max(start, at - REACH), label_to=at)
        choice.error = (f"notation longer than {NOTATION_LIMIT} characters, which dtc does not read "
                        "(shorten it, or split the choice)")
        whole = index.span(at, start + e)
        choice.spans = (whole, whole, None, None, None, None, None)
        where = bisect_left([c.label_to for c in entry.choices], at)
        entry.choices.insert(where, choice)
        notation.append((s, e))
        found = True
    if found:
        notation.sort()


def _read_effects(entry: Entry, body: str, start: int, index: LineIndex, notation: list[tuple[int, int]]) -> None:
    """``[+stone key, -10 coins]`` brackets: the entry's effects, or why one does not parse.
    Their numbers are not prose (they join ``notation``, kept sorted)."""
    found = False
    for m in EFFECTS.finditer(body):
        found = True
        s, e = m.span()
        notation.append((s, e))
        parsed = parse_effects(m.group())
        if isinstance(parsed, Failed):
            at = start + s + parsed.start
            entry.effect_errors.append((parsed.message, index.span(at, max(at + 1, start + s + parsed.end))))
            continue
        for change in parsed:
            entry.changes.append(StateChange(
                change.name, change.amount, index.span(start + s + change.start, start + s + change.end),
                None if _plain(change) else change))
    if found:
        notation.sort()


def _scan_numbers(
    entry: Entry, body: str, one_byte: bytes, start: int, index: LineIndex, notation: list[tuple[int, int]]
) -> None:
    """One pass over the numbers of an entry's prose: prose exits and counted creatures.

    ``one_byte`` is ``body`` with one byte per character; ``notation`` holds the (sorted)
    ranges of the entry's choices, whose numbers are not prose.
    """
    found = _prose_numbers(body, one_byte)
    if not found:
        return
    skip = iter(notation)
    lo, hi = next(skip, (len(body) + 1, 0))
    sentences: _Sentences | None = None  # built at the first counted creature
    for s, e in found:
        while s >= hi and hi:
            lo, hi = next(skip, (len(body) + 1, 0))
        if lo <= s < hi:
            continue  # inside notation
        prev = body[s - 1] if s else " "
        if prev in "SFsf_@" or prev.isdigit():
            continue  # a notation target (S24) or the middle of a word or number
        if prev.isalpha() and not (prev in "dD" and (s == 1 or not body[s - 2].isalpha())):
            continue  # part of a word; only a dice count such as d6 or 2d6 goes on
        token = body[s:e]
        near = body[max(0, s - 14) : s].rstrip(" \t\n§").lower()
        begin = EXIT_BEFORE.search(body, max(0, s - 40), s) if near.endswith(EXIT_WORDS) else None
        if begin is not None and begin.group()[:4].lower() == "read" and read_before(body, begin.start()):
            begin = None  # "if you have read section 3": what was read before, not where to go
        if begin is not None and not (token[0] != "@" and EXIT_AFTER_UNIT.match(body, e)):
            target: int | str = bounded(token, ENTRY) if token[0] != "@" else token
            entry.prose_exits.append(
                ProseExit(target, body[begin.start() : e], index.span(start + begin.start(), start + e))
            )
            continue
        if token[0] == "@":
            continue
        after = MENTION_AFTER.match(body, e)
        if after is None or after.group(1).split()[0].lower() in NOT_CREATURES or after.group(1).isupper():
            continue
        count_start = s
        while count_start and body[count_start - 1] in "0123456789dD+-":
            count_start -= 1
        while body[count_start] in "+-":
            count_start += 1
        if count_start and body[count_start - 1].isalpha():
            continue
        group = CreatureGroup(body[count_start:e], after.group(1), index.span(start + count_start, start + after.end()))
        entry.mentions.append(group)
        if sentences is None:
            sentences = _Sentences(body)
        if sentences.fight_around(s, e):
            entry.fight_mentions.append(group)


_STOPS = re.compile(r"[.!?]")


class _Sentences:
    """Where an entry's sentences end, found once, and whether each holds a fight word, found
    once per sentence asked about: an entry with *n* counted creatures costs *n* log *n* plus
    one pass over its text, not *n* times its length."""

    def __init__(self, body: str) -> None:
        self.body = body
        self.stops = [m.start() for m in _STOPS.finditer(body)]
        self.fights: dict[tuple[int, int], bool] = {}

    def fight_around(self, start: int, end: int) -> bool:
        """Whether a fight word is in the sentence around ``body[start:end]`` — from just after
        the last ``.``, ``!`` or ``?`` before ``start`` up to the first at or after ``end``."""
        stops = self.stops
        before = bisect_left(stops, start)
        left = stops[before - 1] + 1 if before else 0
        after = bisect_left(stops, end)
        right = stops[after] if after < len(stops) else len(self.body)
        found = self.fights.get((left, right))
        if found is None:
            found = self.fights[left, right] = FIGHT.search(self.body, left, right) is not None
        return found


def _prose_numbers(body: str, one_byte: bytes) -> list[tuple[int, int]]:
    """Where ``NUMBER`` matches in ``body`` (``one_byte`` is its one-byte copy)."""
    if "@" in body:
        return [m.span() for m in NUMBER.finditer(body)]
    return [m.span() for m in DIGITS.finditer(one_byte.translate(_NUL_DIGITS))]


def _is_ending(body: str, low: bytes) -> bool:
    if "END" in body and ENDING_CAPS.search(body):
        return True
    if low.find(b"the end") < 0:  # find(): see read_entry
        return False
    for m in THE_END.finditer(body):
        at = m.start()
        if ENDING_BEFORE.search(body, max(0, at - 8), at) and ENDING_AFTER.match(body, at + 7):
            return True
    return False


def _plain(change: Change) -> bool:
    """A fixed count on every reading (:attr:`StateChange.plain`)."""
    return not (change.all or change.if_held or change.once or change.dice is not None or change.may or change.pick)


def _fast_choice(text: str, starts: list[int], body_start: int, s: int, fast: re.Match[str]) -> Choice:
    """The common case: notation on one line that the fast path read. The choice works out its
    spans if they are ever asked for (see :meth:`Choice.located`)."""
    at = body_start + s
    _, ability, difficulty, success, failure = fast.groups()  # group 1 is the whole fast match
    target: int | str
    fail_target: int | str | None
    try:  # a few digits right after the letter, the common case
        if len(success) > 8 or len(difficulty) > 3 or (failure is not None and len(failure) > 8):
            raise ValueError  # perhaps past a bound: read by the functions that bound it
        target, value = int(success[1:]), int(difficulty[1:])
        fail_target = None if failure is None else int(failure[1:])
    except ValueError:  # an @label, a space int() does not strip, or many digits
        target, value = target_value(success), difficulty_value(difficulty)
        fail_target = None if failure is None else target_value(failure)
    return Choice(
        fast.group(), ability, value, target, fail_target, None, text, at - REACH if s > REACH else body_start, at,
        None, None, starts,
    )


def _choice(text: str, index: LineIndex, start: int, end: int, entry_start: int) -> Choice:
    """Notation the fast path did not read: through the Lark grammar, spans line by line."""
    raw = text[start:end]
    line, col = index.position(start)
    one_line = "\n" not in raw

    def span(lo: int, hi: int) -> Span:
        if one_line:
            return Span(line, col + lo, line, col + hi)
        return index.span(start + lo, start + hi)

    choice = Choice(raw, source=text, label_from=max(entry_start, start - REACH), label_to=start)
    whole = span(0, end - start)
    result = parse_notation(raw)
    if isinstance(result, Failed):
        choice.error = result.message
        choice.spans = (whole, span(result.start, max(result.end, result.start + 1)), None, None, None, None, None)
        return choice

    def sub(field: Field | None) -> Span | None:
        return None if field is None else span(field.start, field.end)

    if result.ability is not None:
        choice.ability = result.ability.value
    if result.difficulty is not None:
        choice.difficulty = difficulty_value(result.difficulty.value)
    if result.success is not None:
        choice.success = target_value(result.success.value)
    choice.failure = target_value(result.failure.value) if result.failure else None
    choice.condition = result.condition
    choice.changes = [StateChange(c.name, c.amount, span(c.start, c.end), None if _plain(c) else c)
                      for c in result.changes]
    roll = result.roll
    if roll is not None:
        dice = sub(roll.dice)
        assert dice is not None
        choice.roll = Roll(
            roll.dice.value, roll.count, roll.sides,
            [RollBranch(b.low, b.high, target_value(b.target.value), span(b.target.start, b.target.end),
                        span(b.range.start, b.range.end)) for b in roll.branches],
            dice,
        )
    choice.spans = (
        whole, None, sub(result.ability), sub(result.difficulty), sub(result.success), sub(result.failure),
        sub(result.condition_field),
    )
    return choice
