"""What a reader makes of a book in another format, and how it is written in dtc's notation.

A reader fills a :class:`Book`: its entries, in source order, each a list of parts — prose (made
safe by :func:`safe_prose`, so that nothing the author wrote is read as notation), :class:`Raw`
notation the reader made, and :class:`Choice` records — and a :class:`Finding` for each construct
it could not map, which it keeps as text. :func:`write_book` numbers the entries (a number the
source gives is kept, any other entry is an ``@label`` for ``dtc renumber``), writes the text, and
compiles it again to check that every entry's exits and ending are the ones the reader meant.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from dtc.compiler.api import compile_text

#: The largest entry number dtc reads (seven digits).
MAX_NUMBER = 9_999_999

#: Words of the notation that no possession name may hold as a whole word.
RESERVED = frozenset({"and", "or", "not", "if", "all", "once", "may", "buy"})


@dataclass(frozen=True, slots=True)
class Finding:
    """Something the reader kept as text, or a note on how it read the source: line and column in
    the source (1-based)."""

    line: int
    column: int
    message: str
    severity: str = "warning"  # "warning": not mapped, kept as text; "note": how the source was read


@dataclass(frozen=True, slots=True)
class Raw:
    """Text in dtc's notation, written as it is (an effect, a stat block, an ending)."""

    text: str


@dataclass(slots=True)
class Choice:
    """A way out of an entry. ``targets`` are the source's names of entries: one for a move or a
    prose exit, success and failure for a check, one per range for a random branch."""

    targets: list[str]
    label: str | None = None
    condition: str | None = None
    ability: str | None = None
    difficulty: int = 0
    dice: str | None = None
    ranges: list[tuple[int, int]] = field(default_factory=list)
    prose: str | None = None  # written as a prose exit: these words, then the target
    effects: list[str] = field(default_factory=list)  # "-3 gold crowns", "+lantern": as it is taken

    def kinds(self) -> list[str]:
        """The kind of each target's exit in the compiled graph."""
        if self.dice is not None:
            return ["random"] * len(self.targets)
        if self.prose is not None:
            return ["prose"]
        return ["success", "failure"][: len(self.targets)]


Part = str | Raw | Choice


@dataclass(slots=True)
class Entry:
    key: str  # the source's name for it
    line: int
    number: int | None = None
    parts: list[Part] = field(default_factory=list)
    ending: str | None = None  # None: not an ending; "": THE END; "death" or "victory"
    returns: bool = False  # "Return to your most recent entry."

    def choices(self) -> list[Choice]:
        return [p for p in self.parts if isinstance(p, Choice)]


@dataclass(slots=True)
class Book:
    source: str  # the format's name
    title: str | None = None
    author: str | None = None
    start: str | None = None
    start_with: list[str] = field(default_factory=list)  # "2 fare", "bell": held on the first page
    limits: list[str] = field(default_factory=list)  # "gold crowns 40": the most a reader may hold
    containers: str = ""  # "backpack: rope, meal; weapons: sword": what each container holds
    rules: str | None = None
    front: str | None = None  # dtc's own text before the entries (written by dtc export), kept as it is
    intro: list[str] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    mapped: Counter[str] = field(default_factory=Counter)
    unmapped: Counter[str] = field(default_factory=Counter)

    def kept(self, line: int, column: int, construct: str, message: str) -> None:
        """A construct not mapped, kept as text: a finding and a count."""
        self.unmapped[construct] += 1
        self.findings.append(Finding(line, column, f"{message} (kept as text)"))

    def note(self, line: int, column: int, message: str) -> None:
        self.findings.append(Finding(line, column, message, "note"))

    def differs(self, line: int, message: str) -> None:
        """What was written does not read as the source: a warning, counted as not mapped."""
        self.unmapped["exits read differently"] += 1
        self.findings.append(Finding(line, 1, message))

    def map(self, construct: str, count: int = 1) -> None:
        self.mapped[construct] += count

    def summary(self) -> str:
        """One line: what was mapped and what was not."""
        mapped = sum(self.mapped.values())
        unmapped = sum(self.unmapped.values())
        line = (f"{len(self.entries)} entries; {mapped} construct{'s' if mapped != 1 else ''} mapped, "
                f"{unmapped} not mapped (kept as text)")
        if self.unmapped:
            line += ": " + ", ".join(f"{name} ×{n}" for name, n in sorted(self.unmapped.items()))
        return line


# --- names -----------------------------------------------------------------------------------

_NAME_JUNK = re.compile(r"[^\w'’ -]+|_")
_SPACES = re.compile(r"\s+")


def possession_name(raw: str) -> str:
    """A possession's name as dtc's notation accepts it: words of letters, digits, hyphens and
    apostrophes; a word of the notation (``and``, ``not``...) is joined to its neighbour by a
    hyphen, and a name that would start with a count gets a ``no-`` before it."""
    words = _SPACES.sub(" ", _NAME_JUNK.sub(" ", raw)).strip(" -'’").split()
    words = [w.strip("-") or "x" for w in words]
    out: list[str] = []
    for word in words:
        if word.lower() in RESERVED:
            if out:
                out[-1] = f"{out[-1]}-{word}"
            else:
                out.append(f"{word}-")
        elif out and out[-1].endswith("-"):
            out[-1] += word
        else:
            out.append(word)
    name = " ".join(out).strip("-") or "flag"
    if name[0].isdigit():
        name = "no-" + name
    return name[:60].rstrip(" -")


#: A name the readers give an adventurer's score (``score:STR``): ``dtc export`` writes a condition
#: on a score as the story variable ``$score_STR``, which an import reads back as the score.
SCORE = "score:"


def condition_atom(name: str, count: int = 1, negated: bool = False) -> str:
    if name.startswith(SCORE):  # at least ``count`` of a score: STR >= 13 (or, negated, STR < 13)
        return f"{name[len(SCORE):]} {'<' if negated else '>='} {count}"
    text = f"{count} {name}" if count != 1 else name
    return f"not {text}" if negated else text


def label_slug(key: str, taken: set[str]) -> str:
    """An ``@label`` (without the ``@``) for a source name, unique among ``taken``."""
    slug = re.sub(r"[^a-z0-9_-]+", "-", key.lower()).strip("-_")
    if not slug or not slug[0].isalpha() or not slug.isascii():
        slug = "p-" + slug if slug and slug.isascii() else "passage"
    slug = slug[:40].strip("-_")
    base, n = slug, 2
    while slug in taken:
        slug = f"{base}-{n}"
        n += 1
    taken.add(slug)
    return slug


def link_label(text: str) -> str:
    """A choice's label: one line, no characters the notation reads."""
    text = _SPACES.sub(" ", re.sub(r"[*()\[\]_`<>|]", " ", text)).strip(" .,;:")
    return safe_prose(text)[:120].strip()


# --- prose made safe ---------------------------------------------------------------------------

_EFFECT_BRACKET = re.compile(r"(?i)\[(\s*(?:may\s+)?[+-][^\[\]]*)\]")
_PAREN = re.compile(r"\(([^()]{1,200})\)")
_EXIT_WORDS = re.compile(
    r"(?i)\b((?:return|go|skip|turn|turning|proceed|continue|head|flip|jump)(?:\s+back)?\s+to"
    r"(?:\s+(?:entry|section|paragraph))?|read\s+(?:entry|section|paragraph))(\s+)(?=[0-9]|@[A-Za-z])"
)
_RETURN = re.compile(r"(?i)\b(return\s+to\s+(?:your|the))(\s+)(?=most\s+recent|previous|last)")
_FIGHT = re.compile(r"(?i)\b(fights?|attacks?|combat|battle|ambush(?:es)?|charges?)\b")
_COUNTED = re.compile(r"(?<![\w@])(\d+|\d*d\d+(?:[+-]\d+)?)(\s+[A-Z])")
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                 "eleven", "twelve")
_ENDING_SENTENCE = re.compile(r"(?i)((?:^|[.!?*_]\s*)the)(\s+end)(?=[.!*\s]*$)", re.MULTILINE)
_LINE_KEYS = re.compile(r"(?im)^(\s*)(zone|hazard)(\s*):")


def _counted(match: re.Match[str]) -> str:
    count = match.group(1)
    if count.isdigit() and int(count) < len(_NUMBER_WORDS):
        return _NUMBER_WORDS[int(count)] + match.group(2)
    return "#" + count + match.group(2)


def _sentence_safe(sentence: str) -> str:
    if _FIGHT.search(sentence):
        return _COUNTED.sub(_counted, sentence)
    return sentence


def safe_prose(text: str) -> str:
    """``text`` as prose dtc reads as nothing but prose: no effect brackets, no parenthetical it
    could take for notation, no ``turn to 12`` exit, no ending, no counted creature in a fight
    sentence, no stat block, zone or hazard line, no suppression comment."""
    text = _EFFECT_BRACKET.sub(lambda m: f"‹{m.group(1)}›", text)

    def paren(m: re.Match[str]) -> str:
        inner = m.group(1)
        if not re.search(r"[0-9@]", inner):
            return m.group(0)
        if inner.lstrip().startswith(("+", "-")):
            return f"‹{inner}›"
        return f"[{inner}]"

    text = _PAREN.sub(paren, text)
    text = _EXIT_WORDS.sub(lambda m: f"{m.group(1)}{m.group(2)}#", text)
    text = _RETURN.sub(lambda m: f"{m.group(1)} very{m.group(2)}", text)
    text = text.replace("THE END", "The End")
    text = _ENDING_SENTENCE.sub(lambda m: f"{m.group(1)} very{m.group(2)}", text)
    text = re.sub(r"(?i)\bHP(\s*\d[^|\n]*)\|", r"HP\1/", text)
    text = _LINE_KEYS.sub(lambda m: f"{m.group(1)}{m.group(2)}{m.group(3)} -", text)
    text = text.replace("<!--", "<!- -")
    return re.sub(r"[^.!?]+[.!?]*", lambda m: _sentence_safe(m.group(0)), text)


# --- the writer --------------------------------------------------------------------------------

_HEAD_LIKE = re.compile(r"^[ \t]{0,3}(?:\*\*)?(?:[0-9]|@[A-Za-z])")


def _notation(choice: Choice, ref: dict[str, str]) -> str:
    targets = [ref[t] for t in choice.targets]
    fields: list[str]
    if choice.dice is not None:
        fields = [f"roll {choice.dice}"]
        pairs = zip(choice.ranges, targets, strict=True)
        fields += [f"{lo}-{hi} S{t}" if lo != hi else f"{lo} S{t}" for (lo, hi), t in pairs]
    else:
        check = f"{choice.ability} D{choice.difficulty}" if choice.ability else f"D{choice.difficulty}"
        fields = [check, f"S{targets[0]}"]
        if len(targets) > 1:
            fields.append(f"F{targets[1]}")
    fields += choice.effects
    if choice.condition:
        fields.append(f"if {choice.condition}")
    return "(" + ", ".join(fields) + ")"


def _render(part: Part, ref: dict[str, str]) -> str:
    if isinstance(part, str):
        return safe_prose(part)
    if isinstance(part, Raw):
        return part.text
    if part.prose is not None:
        return f"{part.prose} {ref[part.targets[0]]}"
    label = link_label(part.label or "")
    notation = _notation(part, ref)
    return f"**{label}** {notation}" if label else notation


@dataclass(slots=True)
class Written:
    text: str
    refs: dict[str, str]  # source name -> "12" or "@label"


def assign(book: Book) -> dict[str, str]:
    """Each entry's reference in the book: its own number when the source gives one (once), else
    an ``@label``; a link to a name no entry has gets a label too (dtc reports it as dangling)."""
    ref: dict[str, str] = {}
    used: set[int] = set()
    taken: set[str] = set()
    for entry in book.entries:
        if entry.number is not None and 1 <= entry.number <= MAX_NUMBER and entry.number not in used:
            used.add(entry.number)
            ref[entry.key] = str(entry.number)
    for entry in book.entries:
        if entry.key not in ref:
            ref[entry.key] = "@" + label_slug(entry.key, taken)
    for entry in book.entries:
        for choice in entry.choices():
            for target in choice.targets:
                if target not in ref:
                    digits = target.isascii() and target.isdigit() and 1 <= len(target) <= 7
                    ref[target] = str(int(target)) if digits else "@" + label_slug(target, taken)
    return ref


def _one_line(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def write_book(book: Book) -> Written:
    """The book in dtc's notation."""
    ref = assign(book)
    lines: list[str] = []
    if book.title:
        lines.append(f"Title: {_one_line(book.title)[:200]}")
    if book.author:
        lines.append(f"Author: {_one_line(book.author)[:200]}")
    if book.rules:
        lines.append(f"Rules: {_one_line(book.rules)[:200]}")
    if book.start is not None and book.start in ref:
        lines.append(f"Start: {ref[book.start]}")
    if book.start_with:
        lines.append(f"Start with: {', '.join(book.start_with)}")
    if book.limits:
        lines.append(f"Limits: {', '.join(book.limits)}")
    if book.containers:
        lines.append(f"Containers: {_one_line(book.containers)[:2000]}")
    if lines:
        lines.append("")
    lines.append(_safe_line(safe_prose(_one_line(book.title or "An imported book"))))
    lines.append("")
    if book.front:
        lines.extend([book.front, ""])
    for paragraph in book.intro:
        text = _one_line(paragraph)
        if text:
            lines.extend([_safe_line(safe_prose(text)), ""])
    lines.extend(["Adventure Entries", ""])
    for entry in book.entries:
        lines.append(ref[entry.key])
        pieces: list[str] = []
        last = ""
        for part in entry.parts:
            text = _render(part, ref)
            if not isinstance(part, str) and last and not last.isspace() and last not in "([":
                pieces.append(" ")
            pieces.append(text)
            last = text[-1:] or last
        body = "".join(pieces)
        tail: list[str] = []
        if entry.returns:
            tail.append("Return to your most recent entry.")
        if entry.ending is not None:
            tail.append(f"THE END ({entry.ending})" if entry.ending else "THE END")
        body_lines = [ln.strip() for ln in body.split("\n")]
        body_lines = [_safe_line(ln) for ln in body_lines if ln]
        if tail:
            body_lines.append(" ".join(tail))
        lines.extend(body_lines or ["…"])
        lines.append("")
    return Written("\n".join(lines), ref)


def _safe_line(line: str) -> str:
    """A line that cannot start an entry, a table or a key."""
    if _HEAD_LIKE.match(line) or re.match(r"(?i)^\s*#*\s*(adventure\s+)?entries|^\s*#*\s*(random\s+)?encounters?"
                                          r"|^\s*#*\s*(dungeon\s+)?zones?\b|^[A-Za-z][\w-]{0,20}:", line):
        return "    " + line
    return line


def verify(book: Book, written: Written, path: str = "<import>") -> None:
    """Compile what was written and compare every entry's exits and ending with the reader's:
    each difference is a finding (never silent)."""
    comp = compile_text(written.text, path)
    graph = comp.graph(effects=False)
    by_ref: dict[str, dict[str, object]] = {}
    for compiled in graph["entries"]:
        by_ref[str(compiled["number"])] = dict(compiled)
        if compiled.get("label"):
            by_ref[str(compiled["label"])] = dict(compiled)
    number_of = {r: str(e["number"]) for r, e in by_ref.items()}
    for entry in book.entries:
        compiled_entry = by_ref.get(written.refs[entry.key])
        if compiled_entry is None:
            book.differs(entry.line, f"'{entry.key}' is not read as an entry by dtc")
            continue
        expected = Counter[tuple[str, str]]()
        for choice in entry.choices():
            for target, kind in zip(choice.targets, choice.kinds(), strict=True):
                ref = written.refs[target]
                expected[(number_of.get(ref, ref), kind)] += 1
        exits = compiled_entry.get("exits")
        got = Counter[tuple[str, str]]()
        if isinstance(exits, list):
            for ex in exits:
                if ex["kind"] != "return":
                    got[(str(ex["target"]), str(ex["kind"]))] += 1
        if got != expected:
            book.differs(entry.line, f"dtc reads the exits of '{entry.key}' as {_exits(got)} where the source has "
                                     f"{_exits(expected)}")
        if bool(compiled_entry.get("ending")) != (entry.ending is not None):
            book.differs(entry.line, f"dtc reads '{entry.key}' as {'an' if compiled_entry.get('ending') else 'no'} "
                                     "ending, unlike the source")


def _exits(exits: Counter[tuple[str, str]]) -> str:
    if not exits:
        return "none"
    return ", ".join(f"{t} ({k})" + (f" ×{n}" if n > 1 else "") for (t, k), n in sorted(exits.items()))
