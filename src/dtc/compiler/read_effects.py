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
from typing import Any

from dtc import numbers
from dtc.compiler.entries import EXIT_VERBS
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
ITEM = re.compile(r"^(?:an?)\s+(?P<name>[^\W\d_][\w'’ -]*)$", re.I)
NOT_ITEM = frozenset((
    "to", "in", "on", "at", "from", "with", "that", "which", "who", "where", "hidden", "lying", "way", "nothing",
    "source", "place", "sense", "feeling", "one", "something", "anything", "room", "passage", "door", "doorway",
    "path", "exit", "stair", "stairs", "staircase",
))


_PUNCT = re.compile(r"[().!?]")
_HAS_DIGIT = re.compile(r"[0-9]")
#: Cheap lower-case keyword tests that gate the costlier regexes (most prose has none of them).
_GATES = {
    "fight": ("combat", "fighting"),
    "check": ("check", "save", "saving"),
    "damage": ("damage", "hp", "hit point"),
    "heal": ("hp", "hit point"),
    "find": ("find", "found", "discover", "receiv", "gather", "loot", "pick", "contain", "inside", "have"),
    "exit": ("return", "go", "skip", "turn", "proceed", "continue", "head", "flip", "jump", "read"),
    "rule": ("damage", "hp", "hit point", "check", "saving", "poison", "weight", "heal", "regain", "coin", "gem",
             "jewel", "ration", "oil"),
}


def _trie(words: Iterable[str]) -> str:
    """An alternation of ``words`` as a trie (``c(?:heck|o(?:in|ntain))``): the regex engine then
    compares one letter per level instead of trying every word at every position."""
    tree: dict[str, Any] = {}
    for word in words:
        node = tree
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def alternation(node: dict[str, Any]) -> str:
        parts = [re.escape(ch) + alternation(child) if ch else "" for ch, child in sorted(node.items())]
        if parts == [""]:
            return ""
        optional = "" in parts
        parts = [p for p in parts if p]
        body = parts[0] if len(parts) == 1 and not optional else "(?:" + "|".join(parts) + ")"
        return body + "?" if optional else body

    return alternation(tree)


_GATE_RX = {name: re.compile(_trie(words)) for name, words in _GATES.items()}
_GATE_RX["any"] = re.compile(_trie(dict.fromkeys(w for words in _GATES.values() for w in words)))


class _Gates:
    """Whether a sentence of an entry holds one of a gate's words, or a digit.

    The entry is lower-cased once, and each gate's words are one regular expression in the shape
    of a trie (see :func:`_trie`), searched between the sentence's bounds, which the engine
    treats as the ends of the text: a word is found only when it lies wholly inside them. When
    lower-casing moves offsets (a handful of letters lower-case to two), each sentence is
    lower-cased and searched instead.
    """

    __slots__ = ("exact", "low", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        low = self.low = text.lower()
        self.exact = len(low) == len(text)

    def has(self, name: str, start: int, end: int) -> bool:
        """Whether ``text[start:end]``, lower-cased, holds one of gate ``name``'s words."""
        if self.exact:
            return _GATE_RX[name].search(self.low, start, end) is not None
        return _GATE_RX[name].search(self.text[start:end].lower()) is not None

    def digit(self, start: int, end: int) -> bool:
        return _HAS_DIGIT.search(self.text, start, end) is not None


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


#: Where a sentence may end: ``.``, ``!`` or ``?`` before white space or the end of the text.
_END = re.compile(r"[.!?](?=\s|\Z)")
#: A digit or any gate's word: what makes a sentence worth reading.
#: (Digits as ten literals: an alternation whose branches all open with a literal lets the regex
#: engine skip, in C, every character none of them opens with.)
_INTEREST = re.compile("|".join("0123456789") + "|" + _trie(dict.fromkeys(w for ws in _GATES.values() for w in ws)))


_PAREN = re.compile(r"[()]")


def _sentence_ends(text: str) -> list[int]:
    """Where each sentence of :func:`_sentences` ends but the last, which ends with the text."""
    ends = [m.end() for m in _END.finditer(text)]
    if "(" in text:  # drop the ends inside parentheses (a ")" with none open closes nothing)
        inside: list[int] = []  # alternately where a parenthesis opens at depth 0 and where it closes
        depth = 0
        for m in _PAREN.finditer(text):
            if m.group() == "(":
                if not depth:
                    inside.append(m.start())
                depth += 1
            elif depth:
                depth -= 1
                if not depth:
                    inside.append(m.start())
        ends = [e for e in ends if not bisect_right(inside, e - 1) % 2]
    if ends and ends[-1] == len(text):
        ends.pop()
    return ends


#: What splits an enumeration: parentheses (nesting), "," and ";", and " and " (its space matched,
#: so that " and and " gives two, as a scan of every character does). Every branch opens with a
#: literal, so the regex engine skips in C every character none of them opens with.
_LIST_MARK = re.compile(r"\(|\)|,|;| (?=and )")


def _list_cuts(text: str) -> list[tuple[int, int]]:
    """Where an enumeration splits: commas, semicolons and " and " outside parentheses."""
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


def _split_list(text: str, base: int) -> Iterable[tuple[str, int]]:
    """Pieces of an enumeration (see :func:`_list_cuts`), with their offsets."""
    start = 0
    for cut_start, cut_end in [*_list_cuts(text), (len(text), len(text))]:
        piece = text[start:cut_start]
        lead = len(piece) - len(piece.lstrip(" ,"))
        piece = piece.strip(" ,.")
        if piece.lower().startswith("and "):
            piece, lead = piece[4:], lead + 4
        if piece:
            yield piece, base + start + lead
        start = cut_end


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
    """The creature names, lower-cased with single spaces (the same names give the same set, made once)."""
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


class _Reader:
    def __init__(self, text: str, creatures: Iterable[str] | None) -> None:
        self.raw = text
        self.text = NOTATION.sub(lambda m: " " * len(m.group()), text)
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

    def add(self, kind: str, start: int, end: int, when: dict[str, Any] | None, **fields: Any) -> int:
        if when is not None:
            when = dict(when)
            when.setdefault("_ref", self.effects[when["check"]])
        effect: Effect = {"kind": kind, "text": self.raw[start:end].strip(), "start": start, "end": end,
                          "when": when}
        effect.update(fields)
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

    def read(self) -> list[Effect]:
        stat_spans = self.stat_spans = [m.span(1) for m in STAT_INLINE.finditer(self.raw)] if "HP" in self.raw else []
        self.stat_starts, self.stat_ends = [a for a, _ in stat_spans], [b for _, b in stat_spans]
        for start, end in stat_spans:
            self.add("fight", start, end, None, target=None)
        if stat_spans:  # blank them: one join (a slice per span would copy the text each time)
            pieces, at = [], 0
            for start, end in stat_spans:
                pieces += [self.text[at:start], " " * (end - start)]
                at = end
            pieces.append(self.text[at:])
            self.text = "".join(pieces)
        masked = self.text
        gates = self.gates = _Gates(masked)
        last_check: int | None = None
        if gates.exact:
            # One pass: find the next digit or gate word, read the sentence that holds it, go on
            # after that sentence. A sentence with neither holds nothing any reading looks for.
            ends = _sentence_ends(masked)
            size, count, search, low = len(masked), len(ends), _INTEREST.search, gates.low
            pos = 0
            while (m := search(low, pos)) is not None:
                k = bisect_right(ends, m.start())
                s_start = ends[k - 1] if k else 0
                pos = ends[k] if k < count else size
                last_check = self._sentence(s_start, pos, last_check)
        else:
            for s_start, s_end in _sentences(masked):
                if gates.digit(s_start, s_end) or gates.has("any", s_start, s_end):
                    last_check = self._sentence(s_start, s_end, last_check)
        self.effects.sort(key=lambda e: (e["start"], e["end"]))
        return self._renumber()

    def _sentence(self, s_start: int, s_end: int, last_check: int | None) -> int | None:
        """Read one sentence that holds a digit or a gate's word; the last check read so far after it."""
        sentence = self.text[s_start:s_end]
        when: dict[str, Any] | None = None
        if last_check is not None and ON_FAIL.match(sentence):
            when = {"check": last_check, "outcome": "failure"}
        elif last_check is not None and ON_PASS.match(sentence) and not self._is_fight_sentence():
            when = {"check": last_check, "outcome": "success"}
        before = len(self.effects)
        found_check = self.sentence(s_start, s_end, when)
        if found_check is not None:
            last_check = found_check
        if (len(self.effects) == before and self.gates.has("rule", s_start, s_end) and RULE_WORDS.search(sentence)
                and sentence.strip()):
            self.add("manual", s_start, s_end, when)
        return last_check

    def _is_fight_sentence(self) -> bool:
        """Whether a fight has been read in the entry so far."""
        return self.any_fight

    def _renumber(self) -> list[Effect]:
        """Sorting moved effects; make ``when.check`` point at the new positions."""
        order = {id(e): i for i, e in enumerate(self.effects)}
        for e in self.effects:
            when = e["when"]
            if when is not None and "_ref" in when:
                ref = when.pop("_ref")
                when["check"] = order[id(ref)]
        return self.effects

    def _when(self, check: int | None, outcome: str, outer: dict[str, Any] | None) -> dict[str, Any] | None:
        if check is None:
            return outer
        return {"check": check, "outcome": outcome}

    def sentence(self, start: int, end: int, when: dict[str, Any] | None) -> int | None:
        self.sentence_first = len(self.effects)
        text = self.text[start:end]
        gates = self.gates
        digits = gates.digit(start, end)
        last_check: int | None = None
        fight = FIGHT.search(text) if gates.has("fight", start, end) else None
        if fight:
            self.add("fight", start + fight.start(), start + fight.end(), when, target=None)
        exits = list(PROSE_EXIT.finditer(text)) if digits and gates.has("exit", start, end) else []
        if exits and WIN.match(text) and self._is_fight_sentence():
            for e in self.open_fights:
                e["target"] = _target(exits[0].group(1))
            self.open_fights.clear()
        elif exits and IF.match(text):
            for x in exits:
                self.add("condition", start, start + x.end(), when, target=_target(x.group(1)))
        clause_end = len(text)
        for m in CHECK.finditer(text) if gates.has("check", start, end) else ():
            ability = m.group("ability")
            difficulty = m.group("d1") or m.group("d2")
            idx = self.add("check", start + m.start(), start + m.end(), when, ability=self.ability(ability),
                           difficulty=int(difficulty[1:]) if difficulty else None)
            last_check = idx
            alt = OR.search(text, m.end())
            if alt:
                before = len(self.effects)
                sub_when = self._when(idx, "failure", when)
                self._mechanics(text, start, alt.end(), clause_end, sub_when)
                added = self.effects[before:]
                if not added or any(e["kind"] == "manual" for e in added):
                    del self.effects[before:]
                    self.add("manual", start + alt.start(), start + len(text[:clause_end].rstrip(" .!?")), sub_when)
                clause_end = alt.start()
        self._mechanics(text, start, 0, clause_end, when)
        if gates.has("find", start, end):
            self._treasure(text, start, when)
        if digits:
            self._creatures(text, start, when)
        return last_check

    def _mechanics(self, text: str, base: int, lo: int, hi: int, when: dict[str, Any] | None) -> None:
        if not self.gates.has("damage", base, base + len(text)):
            return
        for m in DAMAGE.finditer(text, lo, hi):
            dice = (m.group("dice") or m.group("pdice")).replace(" ", "")
            if PERIODIC.match(text, m.end()):
                self.add("manual", base + m.start(), base + len(text[:hi].rstrip(" .!?")), when)
                continue
            self.add("damage", base + m.start(), base + m.end(), when, dice=dice)
        for m in HEAL.finditer(text, lo, hi):
            self.add("heal", base + m.start(), base + m.end(), when, dice=m.group("dice").replace(" ", ""))

    def _treasure(self, text: str, base: int, when: dict[str, Any] | None) -> None:
        verb = FIND.search(text)
        if verb is None:
            return
        tail = text[verb.end():]
        before = len(self.effects)
        for piece, offset in _split_list(tail, base + verb.end()):
            self._piece(piece, offset, when)
        added = self.effects[before:]
        if verb.group("strong") is None and not any(e["kind"] == "treasure" for e in added):
            # "Inside the mouth is a massive, hot cavern": a weak verb names items only beside treasure.
            del self.effects[before:]

    def _piece(self, piece: str, offset: int, when: dict[str, Any] | None) -> None:
        end = offset + len(piece)
        weight_m = WEIGHT.search(piece)
        weight = min(float(weight_m.group("w")), numbers.WEIGHT) if weight_m else None
        if m := COINS.match(piece):
            self.add("treasure", offset, end, when, category="coins", name="coins", quantity=_number(m.group("n")),
                     value=1, weight=None)
        elif m := JEWELRY.match(piece):
            self.add("treasure", offset, end, when, category="jewelry", name="jewelry",
                     quantity=_number(m.group("n")), value=None, weight=weight)
        elif m := GEMS.match(piece):
            value = _number(m.group("v")) if m.group("v") else None
            self.add("treasure", offset, end, when, category="gems", name="gems", quantity=_number(m.group("n")),
                     value=value, weight=weight)
        elif m := UNIQUE.match(piece):
            self.add("treasure", offset, end, when, category="unique", name=m.group("name").strip(), quantity=1,
                     value=_number(m.group("v")), weight=weight)
        elif m := RATIONS.search(piece):
            self.add("item", offset + m.start(), offset + m.end(), when, name="Rations",
                     quantity=numbers.bounded(m.group("n") or m.group("m"), numbers.AMOUNT), weight=None)
        elif m := OIL.search(piece):
            count = _number(m.group("n")) if m.group("n") else 1
            self.add("item", offset + m.start(), offset + m.end(), when, name="Lantern Oil", quantity=count,
                     weight=None)
        elif m := ITEM.match(WEIGHT.sub("", piece).strip()):
            name = m.group("name").strip()
            words = name.lower().split()
            if 0 < len(words) <= 5 and not NOT_ITEM.intersection(words):
                self.add("item", offset, end, when, name=name, quantity=1, weight=weight)

    def _creatures(self, text: str, base: int, when: dict[str, Any] | None) -> None:
        if _COUNT_HINT.search(text) is None:
            return  # no count before a capital: MENTION cannot match
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


def _target(token: str) -> int | str:
    return numbers.bounded(token, numbers.ENTRY) if token.isdigit() else token


def extract_effects(text: str, creatures: Iterable[str] | None = None) -> list[Effect]:
    """The effects an entry's ``text`` describes, in text order.

    ``creatures`` (stat-block names) limits ``creatures`` effects to names that match one; without
    it every capitalised counted noun (``4 Goblins``) is reported.
    """
    return _Reader(text, creatures).read()


def extract_all(texts: Sequence[str], creatures: Iterable[str] | None = None) -> list[list[Effect]]:
    """:func:`extract_effects` of every text, in order; a large book's second half on a second core.

    Reading effects is half of a compile once the entries are parsed, and each entry is read on
    its own. When :func:`dtc.compiler.parallel.wanted` allows it (the one-shot ``dtc`` command, at least
    1,500 entries, two cores), a forked child reads the second half and sends its effects back
    with :mod:`marshal` (they are plain dicts, lists, strings and numbers, so they come back
    equal, key order included) through an unlinked temporary file. If the child cannot be
    started or fails, this process reads those entries itself: the result is always the same.
    """
    import dtc.compiler.parallel as parallel

    names = None if creatures is None else list(creatures)
    return parallel.halves(len(texts), lambda lo, hi: [extract_effects(t, names) for t in texts[lo:hi]])
