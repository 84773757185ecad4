"""The choice notation and stat blocks, parsed by the Lark grammars in ``grammar/``.

The grammars are loaded once (LALR, positions kept). A book repeats a handful of notation
*shapes* thousands of times — ``(D0, S12)`` and ``(D0, S97)`` differ only in digits — so each
shape is parsed by Lark once and the result reused with the digits of each occurrence. Every
parenthetical is still accepted or refused by the grammar alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import lark
from lark import Lark, Token, Transformer, v_args

from dtc.resources import data_dir

_DIGITS = re.compile(r"[0-9]+")
_SPACES = " \t\u00a0\u200b\u202f\u205f\u3000" + "".join(chr(c) for c in range(0x2000, 0x200B))

#: How the grammar's terminals read in a message.
_EXPECTED = {
    "DIFFICULTY": "a difficulty such as D2",
    "TARGET_S": "a success entry such as S12",
    "TARGET_F": "a failure entry such as F13",
    "ABILITY": "an ability such as DEX",
    "COMMA": "','",
    "RPAR": "')'",
    "LPAR": "'('",
    "$END": "the end",
}


@cache
def _parser(name: str, start: str) -> Lark:
    path = data_dir("grammar") / f"{name}.lark"
    return Lark(
        path.read_text(encoding="utf-8"),
        start=start,
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=True,
        cache=False,
    )


@dataclass(frozen=True, slots=True)
class Field:
    """A token's text and its offsets within the parsed string."""

    value: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Parsed:
    ability: Field | None
    difficulty: Field
    success: Field
    failure: Field | None


@dataclass(frozen=True, slots=True)
class Failed:
    message: str
    start: int
    end: int


class _ToFields(Transformer[Token, object]):
    """Builds :class:`Parsed` from the tree, keeping every token's offsets."""

    @v_args(inline=True)
    def notation(
        self, ability: Field | None, difficulty: Field, success: Field, failure: Field | None
    ) -> Parsed:
        return Parsed(ability, difficulty, success, failure)

    @v_args(inline=True)
    def _field(self, token: Token) -> Field:
        assert token.start_pos is not None and token.end_pos is not None
        return Field(str(token), token.start_pos, token.end_pos)

    ability = difficulty = success = failure = _field


def _describe(expected: set[str]) -> str:
    names = sorted(_EXPECTED.get(t, t) for t in expected if not t.startswith("__"))
    if not names:
        return "valid notation"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _parse_uncached(text: str) -> Parsed | Failed:
    try:
        tree = _parser("notation", "notation").parse(text)
    except lark.UnexpectedToken as exc:
        tok = exc.token
        if tok.type == "$END":
            return Failed(f"expected {_describe(exc.expected)} before the end", len(text) - 1, len(text))
        start = tok.start_pos or 0
        found = str(tok)
        return Failed(f"expected {_describe(exc.expected)}, found '{found}'", start, start + len(found))
    except lark.UnexpectedCharacters as exc:
        pos = exc.pos_in_stream or 0
        m = re.compile(r"[^\s,()]+|.").match(text, pos)
        end = m.end() if m else pos + 1
        return Failed(f"expected {_describe(set(exc.allowed))}, found '{text[pos:end]}'", pos, end)
    except lark.UnexpectedEOF as exc:
        return Failed(f"expected {_describe(set(exc.expected))} before the end", len(text) - 1, len(text))
    result = _ToFields().transform(tree)
    assert isinstance(result, Parsed)
    return result


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


@cache
def _fast_path() -> re.Pattern[str]:
    return re.compile(_fast_path_source())


@cache
def _fast_path_source() -> str:
    """The notation rule as one regular expression, assembled from the grammar's own terminals.

    ``notation`` is a fixed sequence of tokens, so it is a regular language; this pattern spells
    that sequence with the grammar's terminal patterns and its ignored whitespace. It only ever
    *accepts* — anything it does not match goes to Lark, which also words the error — and a
    property test checks that whatever it accepts, Lark accepts with the same tokens.
    """
    parser = _parser("notation", "notation")
    term = {t.name: f"(?:{t.pattern.to_regexp()})" for t in parser.terminals}
    ignored = [t.pattern.to_regexp() for t in parser.terminals if t.name in parser.ignore_tokens]
    if len(ignored) == 1 and re.fullmatch(r"\[[^\]]+\]\+", ignored[0]):
        ws = ignored[0][:-1] + "*"  # one character class: X* rather than the slower (?:X+)*
    else:
        ws = "(?:" + "|".join(ignored) + ")*"
    return (
        rf"{term['LPAR']}{ws}(?:(?P<ability>{term['ABILITY']}){ws})?(?P<difficulty>{term['DIFFICULTY']}){ws}"
        rf"{term['COMMA']}{ws}(?P<success>{term['TARGET_S']})"
        rf"(?:{ws}{term['COMMA']}{ws}(?P<failure>{term['TARGET_F']}))?{ws}{term['RPAR']}"
    )


def fast_notation_after_paren() -> str:
    """The fast path's regular expression after its opening parenthesis, for a caller that
    combines it with other patterns behind one literal ``(`` (which the regex engine then finds
    by itself). Its groups are ``ability``, ``difficulty``, ``success`` and ``failure``."""
    source = _fast_path_source()
    opening = _parser("notation", "notation").get_terminal("LPAR").pattern.to_regexp()
    assert source.startswith(f"(?:{opening})")
    return source[len(opening) + 4 :]


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
    return parse_notation_lark(text)


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
    difficulty = _field(result.difficulty, text, runs)
    success = _field(result.success, text, runs)
    assert difficulty is not None and success is not None
    return Parsed(_field(result.ability, text, runs), difficulty, success, _field(result.failure, text, runs))


def _reword(failed: Failed, text: str, runs: list[tuple[int, int]]) -> str:
    """Put the original token (with its real digits) back into a cached message."""
    start, end = _remap(failed.start, runs), _remap(failed.end, runs)
    head, sep, _ = failed.message.partition(", found '")
    return f"{head}{sep}{text[start:end]}'" if sep else failed.message


def target_value(token: str) -> int | str:
    """``S24`` -> 24, ``F@pit`` -> ``"@pit"``."""
    body = token[1:].strip(_SPACES)
    return body if body.startswith("@") else int(body)


def difficulty_value(token: str) -> int:
    """``D3`` -> 3 (the grammar guarantees a letter, optional spaces, then digits)."""
    return int(token[1:].strip(_SPACES))


# --- stat blocks ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StatBlock:
    name: str
    hp: int
    morale: int | None
    attacks: tuple[tuple[str, str], ...]
    special: str | None
    stats: tuple[tuple[str, int], ...]


_STAT_FIELDS = "fields are Morale N, an attack with dice such as Bite d6, Name N, or Special: text"


def statblock_error(text: str) -> Failed | None:
    """Why ``text`` is not a stat block (offsets into ``text``), or None when it is one."""
    try:
        _parser("statblock", "statblock").parse(text)
    except lark.UnexpectedToken as exc:
        start = exc.token.start_pos or 0
        if exc.token.type == "$END":
            return Failed("the stat block ends too early", max(0, len(text) - 1), len(text))
        word = str(exc.token).strip()
        return Failed(f"unexpected '{word}' in stat block ({_STAT_FIELDS})", start, start + max(1, len(word)))
    except lark.UnexpectedCharacters as exc:
        pos = exc.pos_in_stream or 0
        m = re.compile(r"[^|]*").match(text, pos)
        end = m.end() if m and m.end() > pos else pos + 1
        return Failed(f"cannot read '{text[pos:end].strip()}' in stat block ({_STAT_FIELDS})", pos, end)
    except lark.UnexpectedInput:
        return Failed("not a stat block", 0, len(text))
    return None


def parse_statblock(text: str) -> StatBlock | None:
    """Parse ``Goblin HP 3 | Morale 7 | Sword or Bow d6``; ``None`` when it is not one."""
    try:
        tree = _parser("statblock", "statblock").parse(text)
    except lark.LarkError:
        return None
    name_tok, hp_tok, *fields = tree.children
    morale: int | None = None
    special: str | None = None
    attacks: list[tuple[str, str]] = []
    stats: list[tuple[str, int]] = []
    for f in fields:
        if not isinstance(f, lark.Tree):
            continue
        kids = [str(k).strip() for k in f.children]
        if f.data == "morale":
            morale = int(kids[0])
        elif f.data == "special":
            special = kids[0]
        elif f.data == "attack":
            attacks.append((kids[0], kids[1].replace(" ", "")))
        elif f.data == "stat":
            stats.append((kids[0], int(kids[1])))
    return StatBlock(str(name_tok).strip(), int(str(hp_tok)), morale, tuple(attacks), special, tuple(stats))
