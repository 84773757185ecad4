"""Read what an entry's prose *does* into effects a runtime can automate.

Called by the compiler for every entry; the result is the entry's ``effects`` list in the
compiled graph (``$defs/effect`` in ``schemas/adventure.schema.json``). Each effect keeps the
prose it came from (``text``) and its character offsets in the entry text (``start``/``end``).

Understood, sentence by sentence:

* ``take d4 damage``, ``(d6 damage)``, ``lose 2 HP`` -> ``damage`` with ``dice``;
* ``regain d4 HP`` -> ``heal``;
* ``make a DEX check`` (``D2`` optional) -> ``check``; a following ``On failure, ...`` sentence or
  an ``... or be swallowed`` clause makes the effects in it depend on that check (``when``);
* after *find*, *inside ... is*, *gather*...: ``500 coins``, ``5 gems (500 coins each)``,
  ``a silver crown (1,000 coins)``, ``3 pieces of jewelry`` -> ``treasure``; ``a stone key``,
  ``rations (7)`` -> ``item``;
* ``Follow the combat procedures`` or a stat block -> ``fight`` (``target`` is the exit named
  by an ``If you win, go to 31`` sentence);
* ``4 Goblins`` -> ``creatures``; ``If you ..., skip to 17`` -> ``condition``.

Anything else that reads like a rule (damage each hour, weights, poison...) becomes a ``manual``
effect: the runtime shows it to the player to adjudicate, so nothing is silently dropped.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from itertools import accumulate
from typing import Any

from dtc import numbers
from dtc.compiler.entries import EXIT_VERBS, read_before
from dtc.systems import DEFAULT, get_ruleset

Effect = dict[str, Any]

_DICE = r"[0-9]*[dD][0-9]+(?:\s*[+-]\s*[0-9]+)?|[0-9]+"
_NUM = r"[0-9][0-9,]*|an?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty"
_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "twenty": 20}

#: A stat block inside an entry: ``Animated Frog Statue HP 7 | Morale 12 | Bite d8``.
STAT_INLINE = re.compile(
    r"(?:(?<=^)|(?<=[.!?:]\s)|(?<=\n))([A-Z][\w'’-]*[ \t]+(?:(?:[A-Z][\w'’-]*|[0-9]+)[ \t]+){0,4}HP[ \t]+[0-9]+"
    r"(?:[ \t]*\|[^|\n]*?(?=\||\.\s|\.$|\n|$))*)",
    re.M,
)
#: ``go to 17``, ``skip to 17``, ``return to 25``: an exit written in prose.
PROSE_EXIT = re.compile(
    rf"\b(?:{EXIT_VERBS}|read)\s+"
    r"(?:entry\s+|section\s+|paragraph\s+|§\s*)?([0-9]{1,7}|@[A-Za-z][A-Za-z0-9_-]*)\b",
    re.I,
)


def prose_exits(text: str) -> list[re.Match[str]]:
    """``PROSE_EXIT`` in ``text``, less a note's cross-reference ("if you have read section 3")."""
    return [m for m in PROSE_EXIT.finditer(text)
            if m.group()[:4].lower() != "read" or not read_before(text, m.start())]


#: What every ``MENTION`` holds: a digit, spaces, a capital (found at the speed of a scan for digits).
_COUNT_HINT = re.compile(r"[0-9][ \t]+[A-Z]")
#: ``4 Goblins``, ``1d6 Giant Frogs``: a counted, capitalised name.
MENTION = re.compile(r"\b([0-9]+|[0-9]*d[0-9]+(?:[+-][0-9]+)?)[ \t]+([A-Z][\w'’-]*(?:[ \t]+[A-Z][\w'’-]*){0,3})")
NOTATION = re.compile(r"\((?:[^\W\d_]+\s+)?[Dd]\s*[0-9]+\s*,[^()]*\)")
CHECK = re.compile(
    r"\b(?:make|makes|roll|rolls|pass|passes|attempt|attempts)\s+(?:an?\s+)?"
    r"(?:(?P<d1>[Dd][0-9])\s+)?(?:(?P<ability>[A-Za-z]{3,12})\s+)?(?:(?P<d2>[Dd][0-9])\s+)?"
    r"(?:ability\s+)?(?:check|save|saving\s+throw)\b",
    re.I,
)
DAMAGE = re.compile(
    r"\b(?:take|takes|taking|suffer|suffers|suffering|lose|loses|losing)\s+(?:an?\s+)?"
    rf"(?:additional\s+|extra\s+|another\s+)?(?P<dice>{_DICE})\s+(?:additional\s+|extra\s+|more\s+)?"
    r"(?:points?\s+of\s+)?(?:damage|HP|hit\s+points?)\b"
    rf"|\((?P<pdice>{_DICE})\s+damage\)",
    re.I,
)
HEAL = re.compile(
    r"\b(?:regain|regains|recover|recovers|heal|heals|restore|restores|gain|gains)\s+"
    rf"(?P<dice>{_DICE})\s+(?:HP|hit\s+points?)\b",
    re.I,
)
PERIODIC = re.compile(r"\s*(?:each|every|per|a|an)\s+(?:round|hour|turn|day|minute)s?\b", re.I)
FIND = re.compile(
    r"\b(?:(?P<strong>find|finds|finding|found|discover|discovers|discovering|receive|receives|gather|gathers"
    r"|loot|pick\s+up|picks\s+up)|contains?|containing|inside\s+(?:the\s+[\w-]+\s+)?(?:is|are|lies|lie)"
    r"|you\s+(?:now\s+)?have)\b",
    re.I,
)
FIGHT = re.compile(r"\b(?:follow|use)\s+the\s+(?:combat|fighting)\s+(?:procedures?|rules)\b", re.I)
WIN = re.compile(r"^\W*(?:on\s+(?:a\s+)?success|if\s+you\s+(?:win|succeed|survive|defeat|kill|prevail)"
                 r"|if\s+victorious|when\s+you\s+win)\b", re.I)
ON_FAIL = re.compile(r"^\W*(?:on\s+(?:a\s+)?fail(?:ure|ed\s+\w+)?|if\s+you\s+fail)\b", re.I)
ON_PASS = re.compile(r"^\W*(?:on\s+(?:a\s+)?success|if\s+you\s+(?:succeed|pass))\b", re.I)
IF = re.compile(r"^\W*if\b", re.I)
OR = re.compile(r"\bor\b", re.I)
RULE_WORDS = re.compile(
    r"\b(?:damage|HP|hit\s+points?|check|saving\s+throw|poisoned|weight|heal\w*|regain\w*|coins?|gems?"
    r"|jewel\w*|rations?|lantern\s+oil|flasks?\s+of\s+oil)\b",
    re.I,
)
COINS = re.compile(rf"^(?P<n>{_NUM})\s+(?:gold\s+|silver\s+|copper\s+)?(?:coins?|gp|gold\s+pieces?)\b", re.I)
GEMS = re.compile(
    rf"^(?P<n>{_NUM})\s+(?:[\w-]+\s+)?(?:gems?|gemstones?)\b(?:\s*\((?P<v>[0-9][0-9,]*)\s+coins?\s+each\))?", re.I
)
JEWELRY = re.compile(rf"^(?P<n>{_NUM})\s+pieces?\s+(?:of\s+)?jewel(?:le)?ry\b", re.I)
UNIQUE = re.compile(r"^(?:an?|one)\s+(?P<name>[^()]+?)\s*\((?P<v>[0-9][0-9,]*)\s+coins?\)", re.I)
RATIONS = re.compile(r"\brations?\s*\((?P<n>[0-9]+)\)|\b(?P<m>[0-9]+)\s+(?:days?\s+(?:of\s+)?)?rations?\b", re.I)
OIL = re.compile(rf"\b(?:(?P<n>{_NUM})\s+)?flasks?\s+of\s+(?:lantern\s+)?oil\b|\blantern\s+oil\b", re.I)
WEIGHT = re.compile(r"\(\s*weight\s+(?P<w>[0-9]+(?:\.[0-9]+)?)\s*\)", re.I)
#: What COINS, JEWELRY, GEMS and UNIQUE all open with: an amount, then white space.
_AMOUNT = re.compile(rf"(?:{_NUM})\s", re.I)
#: COINS, JEWELRY, GEMS and UNIQUE as one expression, each its own group (``coins``...), their
#: groups prefixed with its name: one call tries the four in that order, and the first that
#: matches wins, as the four tried in turn.
_TREASURE = re.compile("|".join(
    f"(?P<{kind}>{p.pattern.replace('(?P<', f'(?P<{kind}_')})"
    for kind, p in (("coins", COINS), ("jewelry", JEWELRY), ("gems", GEMS), ("unique", UNIQUE))), re.I)
ITEM = re.compile(r"^(?:an?)\s+(?P<name>[^\W\d_][\w'’ -]*)$", re.I)
NOT_ITEM = frozenset((
    "to", "in", "on", "at", "from", "with", "that", "which", "who", "where", "hidden", "lying", "way", "nothing",
    "source", "place", "sense", "feeling", "one", "something", "anything", "room", "passage", "door", "doorway",
    "path", "exit", "stair", "stairs", "staircase",
))



_PUNCT = re.compile(r"[().!?]")


#: Letters by how often English prose holds them, then digits and "@".
_COMMONEST = "etaoinshrdlcumwfgypbvkjxqz0123456789@"


def _trie(words: Iterable[str]) -> str:
    """An alternation of ``words`` as a trie (``c(?:heck|o(?:in|ntain))``): the regex engine then
    compares one letter per level instead of trying every word at every position. The branches
    go commonest letter first: the engine tries them in order at every place whose letter opens
    one, and at most one can match there (they open with different letters)."""
    tree: dict[str, Any] = {}
    for word in words:
        node = tree
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def alternation(node: dict[str, Any]) -> str:
        parts = [re.escape(ch) + alternation(child) if ch else ""
                 for ch, child in sorted(node.items(), key=_by_commonness)]
        if parts == [""]:
            return ""
        optional = "" in parts
        parts = [p for p in parts if p]
        body = parts[0] if len(parts) == 1 and not optional else "(?:" + "|".join(parts) + ")"
        return body + "?" if optional else body

    return alternation(tree)


def _by_commonness(item: tuple[str, Any]) -> tuple[int, str]:
    letter = item[0]
    return _COMMONEST.find(letter) if letter in _COMMONEST else len(_COMMONEST), letter


def _sentences(text: str) -> Iterable[tuple[int, int]]:
    """(start, end) of each sentence, not splitting inside parentheses or numbers."""
    depth, start, size = 0, 0, len(text)
    for m in _PUNCT.finditer(text):
        ch, i = m.group(), m.start()
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and (i + 1 == size or text[i + 1].isspace()):
            yield start, i + 1
            start = i + 1
    if text[start:].strip():
        yield start, size


# --- the fast reader's shortcuts --------------------------------------------------------------
#
# Each expression above can match only where the lower-cased text holds one of its key words
# (or a digit): FIGHT "combat" or "fighting"; CHECK "check", "save" or "saving"; DAMAGE and
# HEAL a digit (every dice does) and "damage", "hp" or "hit"; FIND one of its verbs; RULE_WORDS
# one of its words; PROSE_EXIT a digit or "@"; MENTION a digit. One scan of the entry for all of
# them tells which sentences to read and which expressions to run there (a prose exit also
# needs "to" or "read" in its sentence, and a treasure piece is tried only against the
# expressions its opening and its words allow). Every key word is
# letters only and begins each expression's word (after a word boundary), so the scan, which
# does not overlap its matches, misses none that matters. The regex engine folds "ſ" to "s" and
# "ı" to "i" when it ignores case, and lower-casing does not: a text with either is read by the
# reference reader (:mod:`dtc.compiler.read_effects_reference`), as is one whose offsets
# lower-casing moves ("İ" becomes two letters) and one with the Kelvin sign (which the engine
# folds to "k": the scan reads the text's bytes, where it is no letter; see :meth:`_Reader.read`).

_FIGHT, _CHECK, _DAMAGE, _HEAL, _FIND, _RULE, _DIGIT, _AT = 1, 2, 4, 8, 16, 32, 64, 128
_KEY_BITS: dict[str, int] = {
    "combat": _FIGHT, "fighting": _FIGHT,
    "check": _CHECK | _RULE, "save": _CHECK, "saving": _CHECK | _RULE,
    "damage": _DAMAGE | _RULE, "hp": _DAMAGE | _HEAL | _RULE, "hit": _DAMAGE | _HEAL | _RULE,
    **dict.fromkeys(("find", "found", "discover", "receiv", "gather", "loot", "pick", "contain", "inside", "have"),
                    _FIND),
    **dict.fromkeys(("poison", "weight", "heal", "regain", "coin", "gem", "jewel", "ration", "oil"), _RULE),
    **dict.fromkeys("0123456789", _DIGIT),
    "@": _AT,
}
#: Any key word, a digit or "@". (Every branch opens with a literal: the engine skips, in C,
#: every character none of them opens with.)
_KEYS = re.compile(_trie(_KEY_BITS))
#: The same, over the text's bytes (see :meth:`_Reader.read`).
_KEYS_ASCII = re.compile(_KEYS.pattern.encode("ascii"))
#: Bytes that are no ASCII word character (letter, digit, "_"): what may stand before a key word.
_NOT_WORD = bytes(b for b in range(256) if not (b in b"_0123456789" or b"a"[0] <= b | 0x20 <= b"z"[0]))
#: Where the scan finds the next key: a digit or "@", or a byte that is no word character
#: followed by a key word (the scan runs over the bytes after a space, so that a key word at the
#: start of the text has one). Each expression wants its key word at the start of a word, so a
#: key word inside another word ("whip", "unfound") opens no sentence to read; finding only
#: those at a start, the regex engine stops at spaces and punctuation (a fifth of prose) instead
#: of at half its letters. (The class opens the expression, so the engine skips every other byte
#: in C; digits and "@" match alone, through the look behind.)
_KEY_STARTS = re.compile(
    b"[" + b"".join(re.escape(bytes([b])) for b in _NOT_WORD) + b"0-9@](?:"
    + _trie(k for k in _KEY_BITS if k.isalpha()).encode("ascii") + b"|(?<=[0-9@]))")
_ASCII_BITS = {key.encode("ascii"): bits for key, bits in _KEY_BITS.items()}
_DIGIT_OR_AT = frozenset(b"0123456789@")
#: The letters the shortcuts leave to the reference: "ſ" and "ı" (the regex engine folds them to
#: "s" and "i" when it ignores case, lower-casing does not), "İ" (lower-casing makes it two
#: letters, moving the offsets) and the Kelvin sign (the one other letter that lower-cases to a
#: letter of ASCII, "k"; the engine folds it to "k" too).
_LEFT_TO_THE_REFERENCE = ("ſ", "ı", "İ", "\u212a")
#: What splits the text into sentences where no end lies inside parentheses.
_END_SPLIT = re.compile(r"[.!?](?=\s|\Z)")
#: Parentheses inside which an end may lie: one that opens before another closes it (nesting,
#: or one left open), or one around an end.
_PAREN_TROUBLE = re.compile(r"\([^()]*(?:\(|[.!?]\s|\Z)")


def _ends_in_parentheses(text: str) -> bool:
    """Whether a sentence of ``text`` may end inside parentheses (see :data:`_PAREN_TROUBLE`),
    or a parenthesis is left open or closes none: where :func:`_ends_by_depth` must find the ends."""
    return ("(" in text or ")" in text) and (
        text.count("(") != text.count(")") or _PAREN_TROUBLE.search(text) is not None)


#: The last end of a sentence before ``endpos`` (greedy, so one match finds the last one; the
#: white space after it lies before ``endpos``, where the one that matters always does: see
#: :meth:`_Reader.read`).
_LAST_END = re.compile(r".*[.!?](?=\s)", re.S)


def _sentence_ends(text: str) -> list[int]:
    """Where each sentence of :func:`_sentences` ends but the last, which ends with the text."""
    if _ends_in_parentheses(text):
        ends = _ends_by_depth(text)
    else:  # no end inside parentheses: each split's length, and its end, summed
        ends = list(accumulate(map(_PLUS_ONE, map(len, _END_SPLIT.split(text)))))
        ends.pop()  # the text after the last end
    if ends and ends[-1] == len(text):
        ends.pop()
    return ends


_PLUS_ONE = (1).__add__


def _ends_by_depth(text: str) -> list[int]:
    """The ends outside parentheses, however they nest (a ")" with none open closes nothing)."""
    ends: list[int] = []
    depth = 0
    for m in _PUNCT.finditer(text):
        ch, i = m.group(), m.start()
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth:
                depth -= 1
        elif not depth and (i + 1 == len(text) or text[i + 1].isspace()):
            ends.append(i + 1)
    return ends


#: What splits an enumeration: parentheses (nesting), "," and ";", and " and " (its space matched,
#: so that " and and " gives two, as a scan of every character does). Every branch opens with a
#: literal, so the regex engine skips in C every character none of them opens with.
_LIST_MARK = re.compile(r"\(|\)|,|;| (?=and )")


def _list_cuts(text: str) -> list[tuple[int, int]]:
    """Where an enumeration splits: commas, semicolons and " and " outside parentheses."""
    if "," not in text and ";" not in text and " and " not in text:
        return []  # no mark that cuts (most pieces: "rations (7 days)")
    depth = 0
    cuts: list[tuple[int, int]] = []
    for m in _LIST_MARK.finditer(text):
        ch, i = m.group(), m.start()
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and not (ch == "," and _THOUSANDS.match(text, i - 1)):
            cuts.append((i, i + 5) if ch == " " else (i, i + 1))  # " and ", else "," or ";"
    return cuts


#: A comma between thousands ("8,000 coins"), which is part of a number, not a list.
_THOUSANDS = re.compile(r"[0-9],[0-9]{3}(?![0-9])")


def _split_list(text: str, base: int, cuts: list[tuple[int, int]] | None = None) -> Iterable[tuple[str, int]]:
    """Pieces of an enumeration (see :func:`_list_cuts`; ``cuts``, when the caller has them), with
    their offsets."""
    start = 0
    for cut_start, cut_end in [*(_list_cuts(text) if cuts is None else cuts), (len(text), len(text))]:
        piece, lead = _trimmed(text[start:cut_start])
        if piece:
            yield piece, base + start + lead
        start = cut_end


def _trimmed(piece: str) -> tuple[str, int]:
    """A piece of an enumeration without the spaces, commas and stops around it, nor an opening
    "and ", and where it then begins in the piece (the offset counts what the strip takes:
    "find.a flask")."""
    stripped = piece.lstrip(" ,.")
    lead = len(piece) - len(stripped)
    piece = stripped.rstrip(" ,.")
    if piece.lower().startswith("and "):
        return piece[4:], lead + 4
    return piece, lead


def _number(token: str) -> int:
    return _WORDS.get(token.lower(), 0) or numbers.bounded(token.replace(",", ""), numbers.AMOUNT)


def _singulars(name: str) -> set[str]:
    n = " ".join(name.lower().split())
    forms = {n}
    for suffix, repl in (("ies", "y"), ("ves", "f"), ("men", "man"), ("es", ""), ("s", "")):
        if n.endswith(suffix):
            forms.add(n[: -len(suffix)] + repl)
    return forms


def _normalized(creatures: Iterable[str] | None) -> frozenset[str] | None:
    """The creature names, lower-cased with single spaces (the same names give the same set, made once;
    names given as a ``frozenset``, as the compiler gives them, are not even copied to look it up)."""
    return None if creatures is None else _normal_forms(frozenset(creatures))


@lru_cache(maxsize=16)
def _normal_forms(names: frozenset[str]) -> frozenset[str]:
    return frozenset(" ".join(c.lower().split()) for c in names)


@cache
def _default_abilities() -> dict[str, str]:
    try:
        return get_ruleset(DEFAULT).abilities
    except LookupError:  # pragma: no cover - the default ruleset always exists
        return {}



def _blank(m: re.Match[str]) -> str:
    return " " * (m.end() - m.start())


class _Found:
    """The effects found so far in one entry, and how an ability's word is named: what the fast
    reader and the reference (:mod:`dtc.compiler.read_effects_reference`) share."""

    raw: str
    effects: list[Effect]
    open_fights: list[Effect]
    any_fight: bool
    abilities: dict[str, str]

    def add(self, kind: str, start: int, end: int, when: dict[str, Any] | None, **fields: Any) -> int:
        if when is not None:
            when = dict(when)
            when.setdefault("_ref", self.effects[when["check"]])
        effect: Effect = {"kind": kind, "text": self.raw[start:end].strip(), "start": start, "end": end,
                          "when": when, **fields}
        if kind == "fight":
            self.any_fight = True
            self.open_fights.append(effect)
        self.effects.append(effect)
        return len(self.effects) - 1

    def ability(self, word: str | None) -> str | None:
        if word is None or word.lower() in {"ability", "a", "an", "the"}:
            return None
        canonical = self.abilities.get(word.upper())
        if canonical is not None:
            return canonical
        return word.upper() if word.isupper() else None


class _Reader(_Found):
    """One entry's effects, read sentence by sentence as :mod:`dtc.compiler.read_effects_reference`
    reads them, with the shortcuts described above."""

    def __init__(self, text: str, creatures: Iterable[str] | None) -> None:
        self.raw = text
        self.text = NOTATION.sub(_blank, text) if "(" in text else text
        self.effects: list[Effect] = []
        #: Fights whose exit on winning is not yet known (no effect is ever taken back once a
        #: fight is added: only damage, heal, manual, treasure and item effects are).
        self.open_fights: list[Effect] = []
        self.any_fight = False
        #: Where the current sentence's effects begin in ``effects``: an effect lies in the
        #: sentence it was read from, so only these can overlap what the sentence reads next.
        self.sentence_first = 0
        #: The stat blocks' spans (each also a fight effect), in text order.
        self.stat_spans: list[tuple[int, int]] = []
        self.stat_starts: list[int] = []
        self.stat_ends: list[int] = []
        self.creatures = _normalized(creatures)
        self.abilities = _default_abilities()
        #: The masked text's bytes, lower-cased (the same offsets; see :meth:`read`).
        self.low = b""

    def read(self) -> list[Effect] | None:
        """The effects; ``None`` when the text is one the shortcuts do not cover (see above)."""
        stat_spans = self.stat_spans = [m.span(1) for m in STAT_INLINE.finditer(self.raw)] if "HP" in self.raw else []
        if stat_spans:
            self.stat_starts, self.stat_ends = [a for a, _ in stat_spans], [b for _, b in stat_spans]
            for start, end in stat_spans:
                self.add("fight", start, end, None, target=None)
            pieces, at = [], 0  # blank them: one join (a slice per span would copy the text each time)
            for start, end in stat_spans:
                pieces += [self.text[at:start], " " * (end - start)]
                at = end
            pieces.append(self.text[at:])
            self.text = "".join(pieces)
        masked = self.text
        for letter in _LEFT_TO_THE_REFERENCE:
            if letter in masked:
                return None
        # Every key is ASCII, and so is every word the reader looks for in ``low``; no other
        # letter lower-cases to one (checked over every code point by a test). So the text's
        # bytes lower-cased stand for it, each letter outside Latin-1 written "?" (one byte:
        # the offsets stay put): a tenth of lower-casing a text with a dash or a curly quote.
        low = masked.encode("latin-1", "replace").lower()
        self.low = low
        # One pass: find the next key word, digit or "@", read the sentence that holds it with
        # the expressions its keys allow, go on after that sentence.
        # Where no end lies inside parentheses, the sentence around a key is found where it is:
        # it ends at the first end after the key (or with the text), and begins after the last
        # end from where the previous sentence read ends (``pos``, itself an end, or 0) to the
        # key. That end is followed by white space before the key, which is no white space.
        # Elsewhere every end is found first, counting parentheses.
        ends = _sentence_ends(masked) if _ends_in_parentheses(masked) else None
        size, search, keys, key_bits = len(masked), _KEY_STARTS.search, _KEYS_ASCII.findall, _ASCII_BITS
        next_end, last_end = _END_SPLIT.search, _LAST_END.match
        last_check: int | None = None
        pos = 0
        scan = b" " + low  # scan[i + 1] is low[i]: the byte before ``pos`` is scan[pos]
        # (``pos`` is 0, or follows a sentence's end mark, no digit: the match lies after it)
        while pos < size and (m := search(scan, pos)) is not None:
            at = m.start()  # in ``low``: the key word after the byte the match opens with ...
            if scan[at] in _DIGIT_OR_AT:
                at -= 1  # ... or that byte itself, a digit or "@" (a key too, which the bits need)
            if ends is None:
                before = last_end(masked, pos, at)
                start = before.end() if before is not None else pos
                after = next_end(masked, at)
                pos = after.end() if after is not None else size
            else:
                k = bisect_right(ends, at)
                start = ends[k - 1] if k else 0
                pos = ends[k] if k < len(ends) else size
            bits = 0
            for key in keys(low, at, pos):
                bits |= key_bits[key]
            last_check = self._sentence(start, pos, bits, last_check)
        effects = self.effects
        if len(effects) > 1:
            effects.sort(key=_position)
            if any(e["when"] is not None for e in effects):
                _renumber(effects)
        return effects

    def _sentence(self, start: int, end: int, bits: int, last_check: int | None) -> int | None:
        """Read one sentence whose keys are ``bits``; the last check read so far after it."""
        text = self.text[start:end]
        when: dict[str, Any] | None = None
        if last_check is not None:
            if ON_FAIL.match(text):
                when = {"check": last_check, "outcome": "failure"}
            elif ON_PASS.match(text) and not self.any_fight:
                when = {"check": last_check, "outcome": "success"}
        effects = self.effects
        before = self.sentence_first = len(effects)
        if bits & _FIGHT and (fight := FIGHT.search(text)):
            self.add("fight", start + fight.start(), start + fight.end(), when, target=None)
        if bits & (_DIGIT | _AT) and (self.low.find(b"to", start, end) >= 0 or self.low.find(b"read", start, end) >= 0):
            # (every exit verb is followed by "to", but "read")
            win = self.any_fight and WIN.match(text) is not None
            if win or IF.match(text):
                exits = prose_exits(text)
                if exits and win:
                    for e in self.open_fights:
                        e["target"] = _target(exits[0].group(1))
                    self.open_fights.clear()
                else:
                    for x in exits:
                        self.add("condition", start, start + x.end(), when, target=_target(x.group(1)))
        clause_end = len(text)
        if bits & _CHECK:
            for m in CHECK.finditer(text):
                difficulty = m.group("d1") or m.group("d2")
                idx = self.add("check", start + m.start(), start + m.end(), when,
                               ability=self.ability(m.group("ability")),
                               difficulty=int(difficulty[1:]) if difficulty else None)
                last_check = idx
                alt = OR.search(text, m.end())
                if alt:
                    first = len(effects)
                    sub_when = {"check": idx, "outcome": "failure"}
                    self._mechanics(text, start, alt.end(), clause_end, sub_when, bits)
                    if len(effects) == first or any(e["kind"] == "manual" for e in effects[first:]):
                        del effects[first:]
                        self.add("manual", start + alt.start(), start + len(text[:clause_end].rstrip(" .!?")),
                                 sub_when)
                    clause_end = alt.start()
        self._mechanics(text, start, 0, clause_end, when, bits)
        if bits & _FIND:
            self._treasure(text, start, when)
        if bits & _DIGIT and _COUNT_HINT.search(text) is not None:  # else MENTION cannot match
            self._creatures(text, start, when)
        if len(effects) == before and bits & _RULE and RULE_WORDS.search(text) and text.strip():
            self.add("manual", start, end, when)
        return last_check

    def _mechanics(self, text: str, base: int, lo: int, hi: int, when: dict[str, Any] | None, bits: int) -> None:
        if not bits & _DIGIT:
            return  # every dice holds a digit
        if bits & _DAMAGE:
            for m in DAMAGE.finditer(text, lo, hi):
                dice = (m.group("dice") or m.group("pdice")).replace(" ", "")
                if PERIODIC.match(text, m.end()):
                    self.add("manual", base + m.start(), base + len(text[:hi].rstrip(" .!?")), when)
                    continue
                self.add("damage", base + m.start(), base + m.end(), when, dice=dice)
        if bits & _HEAL:
            for m in HEAL.finditer(text, lo, hi):
                self.add("heal", base + m.start(), base + m.end(), when, dice=m.group("dice").replace(" ", ""))

    def _treasure(self, text: str, base: int, when: dict[str, Any] | None) -> None:
        verb = FIND.search(text)
        if verb is None:
            return
        at = verb.end()
        tail = text[at:]
        before = len(self.effects)
        cuts = _list_cuts(tail)
        if cuts:
            for piece, offset in _split_list(tail, base + at, cuts):
                self._piece(piece, offset, when)
        else:  # one piece (most lists): what _split_list gives, without its generator
            piece, lead = _trimmed(tail)
            if piece:
                self._piece(piece, base + at + lead, when)
        if verb.group("strong") is None and not any(e["kind"] == "treasure" for e in self.effects[before:]):
            # "Inside the mouth is a massive, hot cavern": a weak verb names items only beside treasure.
            del self.effects[before:]

    def _piece(self, piece: str, offset: int, when: dict[str, Any] | None) -> None:
        end = offset + len(piece)
        low = self.low
        # (WEIGHT's words are ASCII, and ``low`` is the piece's text lower-cased at its offsets)
        weight_m = WEIGHT.search(piece) if "(" in piece and low.find(b"weight", offset, end) >= 0 else None
        weight = min(float(weight_m.group("w")), numbers.WEIGHT) if weight_m else None
        # (_AMOUNT: what all four open with, cheaper to try first)
        m = _TREASURE.match(piece) if _AMOUNT.match(piece) is not None else None
        if m is not None:
            kind = m.lastgroup  # the outer group: it closes last
            if kind == "coins":
                self.add("treasure", offset, end, when, category="coins", name="coins",
                         quantity=_number(m.group("coins_n")), value=1, weight=None)
            elif kind == "jewelry":
                self.add("treasure", offset, end, when, category="jewelry", name="jewelry",
                         quantity=_number(m.group("jewelry_n")), value=None, weight=weight)
            elif kind == "gems":
                value = _number(m.group("gems_v")) if m.group("gems_v") else None
                self.add("treasure", offset, end, when, category="gems", name="gems",
                         quantity=_number(m.group("gems_n")), value=value, weight=weight)
            else:
                self.add("treasure", offset, end, when, category="unique", name=m.group("unique_name").strip(),
                         quantity=1, value=_number(m.group("unique_v")), weight=weight)
            return
        if low.find(b"ration", offset, end) >= 0 and (m := RATIONS.search(piece)):
            self.add("item", offset + m.start(), offset + m.end(), when, name="Rations",
                     quantity=numbers.bounded(m.group("n") or m.group("m"), numbers.AMOUNT), weight=None)
        elif low.find(b"oil", offset, end) >= 0 and (m := OIL.search(piece)):
            count = _number(m.group("n")) if m.group("n") else 1
            self.add("item", offset + m.start(), offset + m.end(), when, name="Lantern Oil", quantity=count,
                     weight=None)
        elif m := ITEM.match(WEIGHT.sub("", piece).strip() if weight_m else piece.strip()):
            name = m.group("name").strip()
            words = name.lower().split()
            if 0 < len(words) <= 5 and not NOT_ITEM.intersection(words):
                self.add("item", offset, end, when, name=name, quantity=1, weight=weight)

    def _creatures(self, text: str, base: int, when: dict[str, Any] | None) -> None:
        lo, hi = base, base + len(text)
        stat = self.stat_spans
        taken = stat[bisect_right(self.stat_ends, lo) : bisect_left(self.stat_starts, hi)] if stat else []
        taken += [(e["start"], e["end"]) for e in self.effects[self.sentence_first:]]
        for m in MENTION.finditer(text):
            name = m.group(2)
            start, end = base + m.start(), base + m.end()
            if name.isupper() or any(a < end and start < b for a, b in taken):
                continue  # "3 HP", or the number of something already read
            if self.creatures is not None and not (_singulars(name) & self.creatures):
                continue
            if self.creatures is None and not name[:1].isupper():
                continue
            self.add("creatures", start, end, when, count=m.group(1), name=name)


def _position(effect: Effect) -> tuple[int, int]:
    return effect["start"], effect["end"]


def _renumber(effects: list[Effect]) -> None:
    """Sorting moved effects; make ``when.check`` point at the new positions."""
    order = {id(e): i for i, e in enumerate(effects)}
    for e in effects:
        when = e["when"]
        if when is not None and "_ref" in when:
            when["check"] = order[id(when.pop("_ref"))]


def _target(token: str) -> int | str:
    return numbers.bounded(token, numbers.ENTRY) if token.isdigit() else token


def extract_effects(text: str, creatures: Iterable[str] | None = None) -> list[Effect]:
    """The effects an entry's ``text`` describes, in text order.

    ``creatures`` (stat-block names) limits ``creatures`` effects to names that match one; without
    it every capitalised counted noun (``4 Goblins``) is reported.
    """
    found = _Reader(text, creatures).read()
    if found is None:
        from dtc.compiler.read_effects_reference import extract_effects as reference

        return reference(text, creatures)
    return found


def extract_all(texts: Sequence[str], creatures: Iterable[str] | None = None) -> list[list[Effect]]:
    """:func:`extract_effects` of every text, in order; a large book's texts shared with a second process.

    Reading effects is half of a compile once the entries are parsed, and each entry is read on
    its own. When :func:`dtc.compiler.parallel.wanted` allows it (the one-shot ``dtc`` command, at least
    1,500 entries, two cores), a forked child reads texts from the last while this process reads
    them from the first, until they meet, and sends its effects back with :mod:`marshal` (they
    are plain dicts, lists, strings and numbers, so they come back equal, key order included)
    through an unlinked temporary file (see :func:`dtc.compiler.parallel.halves`). If the child
    cannot be started or fails, this process reads those entries itself: the result is always
    the same.
    """
    import dtc.compiler.parallel as parallel

    names = None if creatures is None else list(creatures)
    return parallel.halves(len(texts), lambda lo, hi: [extract_effects(t, names) for t in texts[lo:hi]])
