"""The choice notation and stat blocks, as the grammars in ``grammar/`` define them.

A book repeats a handful of notation *shapes* thousands of times, so two things keep reading
them cheap, and neither changes what is accepted:

- fast paths — one regular expression for the notation rule, another for notation with a
  condition and for random branches, and a token-by-token reading of the stat-block rule —
  built from the grammars' own terminal patterns (:mod:`dtc.compiler.terminals`) and
  property-tested against Lark; they only ever accept;
- everything else goes to the Lark parsers (:mod:`dtc.compiler.grammars`), each digit shape once: a
  ``(D0, S12)`` and a ``(D0, S97)`` differ only in digits, and share one parse.

Lark is imported only when a line needs it, which a well-formed book may never do.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from dtc import numbers
from dtc.compiler.terminals import ignored, terminals

_DIGITS = re.compile(r"[0-9]+")
_SPACES = " \t\u00a0\u200b\u202f\u205f\u3000" + "".join(chr(c) for c in range(0x2000, 0x200B))


@dataclass(frozen=True, slots=True)
class Field:
    """A token's text and its offsets within the parsed string."""

    value: str
    start: int
    end: int


# --- state: conditions, random branches, effects (see "State" in docs/format.md) ------------


#: How a condition compares a count or a score with its number (``if END >= 10``).
COMPARISONS = (">=", ">", "<=", "<", "=")
#: The same, as an author may write them (``≥``, ``≤``).
_COMPARE_ALIASES = {"≥": ">=", "≤": "<="}


@dataclass(frozen=True, slots=True)
class Has:
    """``if stone key`` (count 1), ``if 10 coins``: at least ``count`` of ``name`` (normalised);
    ``if END >= 10``, ``if HP < 5``, ``if gold crowns >= 3``: ``name`` compared by ``op`` with
    ``count`` (``>=`` is the plain form: ``if 3 gold crowns``). A name the rules call a score
    (an ability, ``HP``) is the adventurer's score; any other is a count of what is held."""

    name: str
    count: int = 1
    op: str = ">="


@dataclass(frozen=True, slots=True)
class Not:
    arg: Cond


@dataclass(frozen=True, slots=True)
class All:
    """``a and b``."""

    args: tuple[Cond, ...]


@dataclass(frozen=True, slots=True)
class AnyOf:
    """``a or b``."""

    args: tuple[Cond, ...]


Cond = Has | Not | All | AnyOf


def possession_name(words: str) -> str:
    """A possession's name as dtc compares it: lower case, single spaces, straight apostrophes."""
    return " ".join(words.replace("\u2019", "'").lower().split())


def cond_names(cond: Cond, scores: frozenset[str] = frozenset()) -> list[str]:
    """Every possession a condition names, in the order written; ``scores`` (a book's
    :attr:`dtc.compiler.model.Document.scores`) are the adventurer's, no possession, and left out."""
    if isinstance(cond, Has):
        return [] if cond.name in scores else [cond.name]
    if isinstance(cond, Not):
        return cond_names(cond.arg, scores)
    return [n for a in cond.args for n in cond_names(a, scores)]


def cond_text(cond: Cond, top: bool = True) -> str:
    """A condition in words, as written in notation (``stone key and not alarm``)."""
    if isinstance(cond, Has):
        if cond.op != ">=":
            return f"{cond.name} {cond.op} {cond.count}"
        return cond.name if cond.count == 1 else f"{cond.count} {cond.name}"
    if isinstance(cond, Not):
        return f"not {cond_text(cond.arg, False)}"
    if isinstance(cond, All):
        return " and ".join(cond_text(a, False) for a in cond.args)
    text = " or ".join(cond_text(a, False) for a in cond.args)
    return text if top else f"({text})"


def cond_json(cond: Cond, score: Callable[[str], str | None] | None = None) -> dict[str, object]:
    """The compiled graph's form (``$defs/condition``); ``score`` names the adventurer's score a
    name is (``con`` -> ``CON``, ``hp`` -> ``HP``), or None for a possession."""
    if isinstance(cond, Has):
        named = None if score is None else score(cond.name)
        if named is not None:
            return {"score": named, "count": cond.count, "op": cond.op}
        if cond.op != ">=":
            return {"has": cond.name, "count": cond.count, "op": cond.op}
        return {"has": cond.name, "count": cond.count}
    if isinstance(cond, Not):
        return {"not": cond_json(cond.arg, score)}
    if isinstance(cond, All):
        return {"all": [cond_json(a, score) for a in cond.args]}
    return {"any": [cond_json(a, score) for a in cond.args]}


@dataclass(frozen=True, slots=True)
class Branch:
    """One outcome of a random branch: totals ``low``..``high`` lead to ``target``."""

    low: int
    high: int
    target: Field
    range: Field


@dataclass(frozen=True, slots=True)
class RollSpec:
    """``roll 2d6`` and its branches."""

    dice: Field
    count: int
    sides: int
    branches: tuple[Branch, ...]


def compare_op(written: str) -> str:
    """A comparison as written (``>=``, ``≥``, ``<``) in the form the graph keeps."""
    return _COMPARE_ALIASES.get(written, written)


@dataclass(frozen=True, slots=True)
class Change:
    """One effect: ``+3 torches`` is ``Change("torches", 3)``; a loss is negative.

    The published-gamebook forms (docs/format.md, "Writing a published gamebook") set the rest:
    ``[-rope?]`` ``if_held`` (lose it if held; no shortfall), ``[-all coins]`` ``all`` (``amount``
    is -1), ``[+once stone key]`` ``once`` (the first reading of the entry only), ``[+1d10*3
    coins]`` ``dice`` ``1d10`` and ``times`` 3 (``amount`` is the sign, 1 or -1, times the
    roll), ``[may +rope]`` ``may`` (the reader may take it or leave it)."""

    name: str
    amount: int
    start: int
    end: int
    all: bool = False
    if_held: bool = False
    once: bool = False
    dice: str | None = None
    times: int = 1
    may: bool = False

    @property
    def pick(self) -> bool:
        """``[-1 item of choice]``: the reader chooses which of the book's possessions to lose
        (``[-1 item of choice from backpack]``: of what the container holds)."""
        return self.amount < 0 and (self.name in PICK_NAMES or self.name.startswith(PICK_FROM))

    @property
    def source(self) -> str | None:
        """The container a ``[-1 item of choice from backpack]`` chooses in (``backpack``), or None."""
        if not self.pick:
            return None
        for opening in PICK_FROM:
            if self.name.startswith(opening):
                return self.name[len(opening):]
        return None

    def words(self) -> str:
        """The effect as the notation writes it (``-1d6 coins?``, ``+once stone key``)."""
        sign = "+" if self.amount > 0 else "-"
        if self.all:
            size = "all "
        elif self.dice is not None:
            size = self.dice + (f"*{self.times}" if self.times != 1 else "") + " "
        else:
            size = "" if abs(self.amount) == 1 and not self.pick else f"{abs(self.amount)} "
        text = f"{sign}{size}{'once ' if self.once else ''}{self.name}{'?' if self.if_held else ''}"
        return f"may {text}" if self.may else text


#: The names that mean "one of the reader's choice" in a loss (``[-1 item of choice]``).
PICK_NAMES = frozenset({"item of choice", "items of choice"})
#: How a name opens that means "one of the reader's choice from a container"
#: (``[-1 item of choice from backpack]``).
PICK_FROM = ("item of choice from ", "items of choice from ")


def change_json(change: Change) -> dict[str, object]:
    """The compiled graph's form of one effect (``$defs/change``): its name and amount, and the
    published-gamebook keys only where they are set."""
    out: dict[str, object] = {"name": change.name, "amount": change.amount}
    if change.all:
        out["all"] = True
    if change.if_held:
        out["if_held"] = True
    if change.once:
        out["once"] = True
    if change.dice is not None:
        out["dice"] = change.dice
        out["times"] = change.times
    if change.may:
        out["may"] = True
    if change.pick:
        out["pick"] = True
    return out


def dice_parts(rolled: str) -> tuple[str, int]:
    """A ``ROLLED`` token (``1d10*3``, ``d6``, ``2d6 x 5``) -> (``1d10``, 3)."""
    body = "".join(rolled.split()).lower()
    for mark in ("*", "×", "x"):
        if mark in body:
            dice, _, times = body.partition(mark)
            return (dice if not dice.startswith("d") else "1" + dice), numbers.bounded(times, numbers.AMOUNT)
    return (body if not body.startswith("d") else "1" + body), 1


@dataclass(frozen=True, slots=True)
class Parsed:
    ability: Field | None
    difficulty: Field | None
    success: Field | None
    failure: Field | None
    condition: Cond | None = None
    #: Where the condition is written (``if stone key``).
    condition_field: Field | None = None
    roll: RollSpec | None = None
    #: ``(D0, S37, -3 coins)``: what taking the choice does, in the order written (a ``buy``
    #: price first, as a loss; its check is in ``condition``).
    changes: tuple[Change, ...] = ()


@dataclass(frozen=True, slots=True)
class Failed:
    message: str
    start: int
    end: int


def _parse_uncached(text: str) -> Parsed | Failed:
    from dtc.compiler.grammars import parse_notation as through_grammar  # Lark: only when needed

    return through_grammar(text)


@cache
def _parse_shape(shape: str) -> Parsed | Failed:
    return _parse_uncached(shape)


def _remap(offset: int, runs: list[tuple[int, int]]) -> int:
    """Offset in the digit-normalised shape -> offset in the original text."""
    shift = 0
    for start, end in runs:
        if start - shift >= offset:
            break
        shift += end - start - 1
    return offset + shift


def _field(field: Field | None, text: str, runs: list[tuple[int, int]]) -> Field | None:
    if field is None:
        return None
    start, end = _remap(field.start, runs), _remap(field.end, runs)
    return Field(text[start:end], start, end)


def _real_field(field: Field, text: str, runs: list[tuple[int, int]]) -> Field:
    found = _field(field, text, runs)
    assert found is not None
    return found


@cache
def _fast_path() -> re.Pattern[str]:
    return re.compile(_fast_path_source())


@cache
def _fast_path_source() -> str:
    """The notation rule as one regular expression, assembled from the grammar's own terminals.

    ``notation`` is a fixed sequence of tokens, so it is a regular language; this pattern spells
    that sequence with the grammar's terminal patterns and its ignored whitespace. Where the lexer
    would take a higher-priority terminal, the pattern does not take a lower one: ``roll`` opens a
    random branch, never an ability (``(roll D3, S5)`` is not a check). It only ever
    *accepts* — anything it does not match goes to Lark, which also words the error — and a
    property test checks that whatever it accepts, Lark accepts with the same tokens.
    """
    term = {name: f"(?:{t.regex})" for name, t in terminals("notation").items()}
    term |= {"LPAR": r"(?:\()", "COMMA": "(?:,)", "RPAR": r"(?:\))"}  # the rule's quoted tokens
    ws = _spacing()
    return (
        rf"{term['LPAR']}{ws}(?:(?!{term['ROLL']})(?P<ability>{term['ABILITY']}){ws})?"
        rf"(?P<difficulty>{term['DIFFICULTY']}){ws}{term['COMMA']}{ws}(?P<success>{term['TARGET_S']})"
        rf"(?:{ws}{term['COMMA']}{ws}(?P<failure>{term['TARGET_F']}))?{ws}{term['RPAR']}"
    )


def _spacing() -> str:
    """The grammar's ignored spacing, any amount of it (none included)."""
    ignore = ignored("notation")
    if len(ignore) == 1 and re.fullmatch(r"\[[^\]]+\]\+", ignore[0]):
        return ignore[0][:-1] + "*"  # one character class: X* rather than the slower (?:X+)*
    return "(?:" + "|".join(ignore) + ")*"


def fast_notation_after_paren() -> str:
    """The fast path's regular expression after its opening parenthesis, kept to one line, for
    a caller that combines it with other patterns behind one literal ``(`` (which the regex
    engine then finds by itself). Its groups are ``ability``, ``difficulty``, ``success`` and
    ``failure``. Notation broken over lines is left to the grammar, which gives each part its
    own line."""
    source = _one_line(_fast_path_source())
    assert source.startswith(r"(?:\()")
    return source[len(r"(?:\()") :]


def _one_line(pattern: str) -> str:
    return pattern.replace("\n", "").replace("\r", "")


@cache
def _fast_path_one_line() -> re.Pattern[str]:
    return re.compile(_one_line(_fast_path_source()))


def fast_notation_at(text: str, pos: int) -> re.Match[str] | None:
    """The fast path's one-line match of notation opening at ``text[pos]``, or None: what
    :func:`fast_notation_after_paren` matched there, found again (the pattern looks at nothing
    outside the parentheses)."""
    return _fast_path_one_line().match(text, pos)


def fast_notation(text: str) -> re.Match[str] | None:
    """The fast path's match (groups ``ability``, ``difficulty``, ``success``, ``failure``), or None."""
    return _fast_path().fullmatch(text)


def _group(m: re.Match[str], name: str) -> Field | None:
    value = m.group(name)
    return None if value is None else Field(value, m.start(name), m.end(name))


def parse_notation(text: str) -> Parsed | Failed:
    """Parse one parenthetical such as ``(DEX D3, S24, F78)``; offsets refer to ``text``."""
    m = _fast_path().fullmatch(text)
    if m is not None:
        difficulty, success = _group(m, "difficulty"), _group(m, "success")
        assert difficulty is not None and success is not None
        return Parsed(_group(m, "ability"), difficulty, success, _group(m, "failure"))
    state = _state_fast(text)
    if state is not None:
        return state
    return parse_notation_lark(text)


# --- the fast path of conditions and random branches ----------------------------------------


@dataclass(frozen=True, slots=True)
class _StatePatterns:
    #: The whole notation with a condition, or a random branch with or without one.
    whole: re.Pattern[str]
    #: One ``, RANGE TARGET_S`` field of a random branch.
    branch: re.Pattern[str]
    #: One token of a condition after its ``if``: a keyword, a count or a word of a name.
    token: re.Pattern[str]


@cache
def _state_patterns() -> _StatePatterns:
    """The rules ``notation``, ``random`` and ``condition`` as regular expressions, assembled
    from the grammar's own terminals.

    A condition has no brackets, so it is a regular language too: ``IF factor ((AND | OR)
    factor)*``, a factor ``NOT* has``, ``has`` a ``[COUNT] WORD (WORD | COUNT)*``. Each terminal
    is an atomic group — the regex engine takes what the terminal's pattern alone matches there
    and never backtracks into it, as the lexer does — and where the lexer would take a
    higher-priority terminal (``not`` and a count open a factor; ``and`` and ``or`` follow a
    name) the pattern does not take a lower one. A keyword is never read as a word of a name:
    ``if and``, ``if stone not key`` (names, to the grammar) go to Lark, as does
    ``if 10 20 coins``. Names that merely contain a keyword (``notebook``, ``oracle``) are
    words, as the keywords' own patterns say.
    """
    term = {name: f"(?>{t.regex})" for name, t in terminals("notation").items()}
    ws = _spacing()
    keyword = f"{term['AND']}|{term['OR']}|{term['NOT']}|{term['IF']}"
    first = rf"(?!{keyword}|{term['COUNT']}){term['WORD']}"
    has = rf"(?:{term['COUNT']}{ws})?{first}(?:{ws}(?!{keyword})(?>{term['COUNT']}|{term['WORD']}))*"
    factor = rf"(?:{term['NOT']}{ws})*{has}"
    # Atomic as a whole: what follows a condition (spacing and ")") cannot follow a shorter one,
    # so the engine need not try them (it would, in exponential time, on a near miss).
    condition = rf"(?>{term['IF']}{ws}{factor}(?:{ws}(?>{term['AND']}|{term['OR']}){ws}{factor})*)"
    branch = rf"{ws},{ws}(?P<range>{term['RANGE']}){ws}(?P<target>{term['TARGET_S']})"
    check = (
        rf"(?:(?!{term['ROLL']})(?P<ability>{term['ABILITY']}){ws})?(?P<difficulty>{term['DIFFICULTY']}){ws}"
        rf",{ws}(?P<success>{term['TARGET_S']})(?:{ws},{ws}(?P<failure>{term['TARGET_F']}))?"
    )
    roll = rf"{term['ROLL']}{ws}(?P<dice>{term['DICE']})(?P<branches>(?>(?:{branch.replace('?P<', '?P<_')})+))"
    whole = (
        rf"\({ws}(?:{check}{ws},{ws}(?P<condition>{condition})"
        rf"|{roll}(?:{ws},{ws}(?P<roll_condition>{condition}))?){ws}\)"
    )
    token = (
        rf"(?P<and>{term['AND']})|(?P<or>{term['OR']})|(?P<not>{term['NOT']})|(?P<count>{term['COUNT']})"
        rf"|{term['WORD']}"
    )
    return _StatePatterns(re.compile(whole), re.compile(branch), re.compile(token))


def _state_fast(text: str) -> Parsed | None:
    """Notation with a condition, or a random branch, read without Lark; None when the fast
    path does not read it (Lark then does). ``tests/test_condition_fastpath.py`` checks it
    against the grammar."""
    patterns = _state_patterns()
    m = patterns.whole.fullmatch(text)
    if m is None:
        return None
    try:
        roll = None
        if m.start("dice") >= 0:
            dice = Field(m["dice"], m.start("dice"), m.end("dice"))
            count, _, sides = dice.value.lower().partition("d")
            branches = tuple(
                Branch(*range_bounds(b["range"]), Field(b["target"], b.start("target"), b.end("target")),
                       Field(b["range"], b.start("range"), b.end("range")))
                for b in patterns.branch.finditer(text, m.start("branches"), m.end("branches"))
            )
            roll = RollSpec(dice, int(count or 1), int(sides), branches)
        group = "condition" if m.start("condition") >= 0 else "roll_condition"
        written = m[group]
        condition = None if written is None else _condition(written)
    except ValueError:  # a number past what int() reads: Lark's to say
        return None
    field = None if written is None else Field(written, m.start(group), m.end(group))
    if roll is not None:
        return Parsed(None, None, None, None, condition, field, roll)
    difficulty, success = _group(m, "difficulty"), _group(m, "success")
    return Parsed(_group(m, "ability"), difficulty, success, _group(m, "failure"), condition, field)


@cache
def _condition(written: str) -> Cond:
    """A condition the fast path matched (``if stone key and not alarm``) as the grammar's
    rules build it: ``or`` of ``and`` of ``not``... of a possession."""
    anys: list[Cond] = []
    alls: list[Cond] = []
    nots = 0
    count: str | None = None
    words: list[str] = []
    tokens = _state_patterns().token.finditer(written)
    next(tokens)  # the "if"
    for t in tokens:
        kind = t.lastgroup
        if kind is None or (kind == "count" and words):
            words.append(t.group())
        elif kind == "count":
            count = t.group()
        elif kind == "not":
            nots += 1
        else:  # "and", "or": a factor ends
            alls.append(_has(words, count, nots))
            words, count, nots = [], None, 0
            if kind == "or":
                anys.append(alls[0] if len(alls) == 1 else All(tuple(alls)))
                alls = []
    alls.append(_has(words, count, nots))
    anys.append(alls[0] if len(alls) == 1 else All(tuple(alls)))
    return anys[0] if len(anys) == 1 else AnyOf(tuple(anys))


def _has(words: list[str], count: str | None, nots: int) -> Cond:
    cond: Cond = Has(possession_name(" ".join(words)), 1 if count is None else int(count))
    for _ in range(nots):
        cond = Not(cond)
    return cond


def parse_notation_lark(text: str) -> Parsed | Failed:
    """:func:`parse_notation` through the LALR parser alone (one parse per digit shape)."""
    runs = [m.span() for m in _DIGITS.finditer(text)]
    shape = _DIGITS.sub("0", text) if runs else text
    result = _parse_shape(shape)
    if not runs:
        return result
    if isinstance(result, Failed):
        return Failed(
            _reword(result, text, runs),
            _remap(result.start, runs),
            _remap(result.end, runs),
        )
    if result.condition is not None or result.roll is not None or result.changes:
        return parse_state_notation(text)  # names and counts hold digits: no shape sharing
    difficulty = _field(result.difficulty, text, runs)
    success = _field(result.success, text, runs)
    assert difficulty is not None and success is not None
    return Parsed(_field(result.ability, text, runs), difficulty, success, _field(result.failure, text, runs))


@cache
def parse_state_notation(text: str) -> Parsed | Failed:
    """Notation with a condition or a random branch, parsed as written (cached by text)."""
    return _parse_uncached(text)


def parse_effects(text: str) -> list[Change] | Failed:
    """``[+stone key, +50 coins]``: the effects of one bracket (offsets refer to ``text``)."""
    return _parse_effects_cached(text)


@cache
def _parse_effects_cached(text: str) -> list[Change] | Failed:
    from dtc.compiler.grammars import parse_effects as through_grammar  # Lark: only when needed

    return through_grammar(text)


def _reword(failed: Failed, text: str, runs: list[tuple[int, int]]) -> str:
    """Put the original token (with its real digits) back into a cached message."""
    start, end = _remap(failed.start, runs), _remap(failed.end, runs)
    head, sep, _ = failed.message.partition(", found '")
    return f"{head}{sep}{text[start:end]}'" if sep else failed.message


def target_value(token: str) -> int | str:
    """``S24`` -> 24, ``F@pit`` -> ``"@pit"``."""
    body = token[1:].strip(_SPACES)
    return body if body.startswith("@") else numbers.bounded(body, numbers.ENTRY)


def range_bounds(token: str) -> tuple[int, int]:
    """A random branch's ``RANGE`` token (``1-3``, ``4 – 6``, ``5``) -> (low, high)."""
    numbers_in = _DIGITS.findall(token)
    return int(numbers_in[0]), int(numbers_in[-1])


def difficulty_value(token: str) -> int:
    """``D3`` -> 3 (the grammar guarantees a letter, optional spaces, then digits); past
    :data:`dtc.numbers.DIFFICULTY`, one more than it."""
    return numbers.bounded(token[1:].strip(_SPACES), numbers.DIFFICULTY)


# --- stat blocks ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StatBlock:
    name: str
    hp: int
    morale: int | None
    attacks: tuple[tuple[str, str], ...]
    special: str | None
    stats: tuple[tuple[str, int], ...]
    #: ``win S13, lose S4, flee S3``: each outcome (lower case) and its target as written (``S13``).
    exits: tuple[tuple[str, str], ...] = ()


def statblock_error(text: str) -> Failed | None:
    """Why ``text`` is not a stat block (offsets into ``text``), or None when it is one."""
    if _statblock_fast(text) is not None:
        return None
    from dtc.compiler.grammars import statblock_error as through_grammar

    return through_grammar(text)


def parse_statblock(text: str) -> StatBlock | None:
    """Parse ``Goblin HP 3 | Morale 7 | Sword or Bow d6``; ``None`` when it is not one."""
    block = _statblock_fast(text)
    if block is not None:
        return block
    from dtc.compiler.grammars import parse_statblock as through_grammar

    return through_grammar(text)


@dataclass(frozen=True, slots=True)
class _StatLexer:
    """The stat-block grammar's terminals, compiled, in the order its lexer tries them."""

    space: re.Pattern[str]
    name: re.Pattern[str]
    hp: re.Pattern[str]
    integer: re.Pattern[str]
    #: What may open a field after a bar, highest priority first, with the token after it.
    fields: tuple[tuple[str, int, re.Pattern[str], re.Pattern[str]], ...]


@cache
def _stat_lexer() -> _StatLexer:
    t = {name: re.compile(term.regex) for name, term in terminals("statblock").items()}
    prio = {name: term.priority for name, term in terminals("statblock").items()}
    fields = [("morale", "_MORALE", "INT"), ("special", "_SPECIAL", "TEXT"), ("attack", "ATTACK", "DICE"),
              ("stat", "STAT", "INT")]
    ordered = sorted(((kind, prio[head], t[head], t[value]) for kind, head, value in fields), key=lambda f: -f[1])
    return _StatLexer(re.compile("|".join(ignored("statblock"))), t["NAME"], t["_HP"], t["INT"], tuple(ordered))


def _statblock_fast(text: str) -> StatBlock | None:
    """The stat-block grammar read the way its LALR parser reads it, without Lark.

    The rule is a fixed sequence — NAME, HP, INT, then ``| field`` repeated, an optional full
    stop — and the lexer offers, at each point, only the terminals that may come next, trying
    them in priority order. This follows that token by token with the grammar's own terminal
    patterns (read by :mod:`dtc.compiler.terminals`). It only ever accepts: anything unusual (two field
    openers of one priority both matching, any token that does not match) returns ``None`` and
    goes to Lark, which also words the error. ``tests/test_properties.py`` checks that it agrees
    with Lark.
    """
    lx = _stat_lexer()
    end = len(text)

    def skip(pos: int) -> int:
        m = lx.space.match(text, pos)
        return m.end() if m else pos

    name = lx.name.match(text, skip(0))
    if name is None:
        return None
    hp_word = lx.hp.match(text, skip(name.end()))
    if hp_word is None:
        return None
    hp = lx.integer.match(text, skip(hp_word.end()))
    if hp is None:
        return None
    morale: int | None = None
    special: str | None = None
    attacks: list[tuple[str, str]] = []
    stats: list[tuple[str, int]] = []
    pos = skip(hp.end())
    while pos < end:
        if text[pos] == ".":
            if skip(pos + 1) < end:
                return None
            break
        if text[pos] != "|":
            return None
        pos = skip(pos + 1)
        opener: tuple[str, re.Match[str], re.Pattern[str]] | None = None
        level = None
        for kind, priority, head, value in lx.fields:
            if opener is not None and priority != level:
                break  # a higher priority already matched
            m = head.match(text, pos)
            if m is not None:
                if opener is not None:
                    return None  # two of one priority: leave the choice to Lark
                opener, level = (kind, m, value), priority
        if opener is None:
            return None
        kind, head_match, value = opener
        token = value.match(text, skip(head_match.end()))
        if token is None:
            return None
        word = token.group().strip()
        if kind == "morale":
            morale = numbers.bounded(word, numbers.STAT)
        elif kind == "special":
            special = word
        elif kind == "attack":
            attacks.append((head_match.group().strip(), word.replace(" ", "")))
        else:
            stats.append((head_match.group().strip(), numbers.bounded(word, numbers.STAT)))
        pos = skip(token.end())
    hp_value = numbers.bounded(hp.group().strip(), numbers.HP)
    return StatBlock(name.group().strip(), hp_value, morale, tuple(attacks), special, tuple(stats))
