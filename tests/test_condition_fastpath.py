"""The fast path of conditions and random branches reads what the grammar reads, as Lark does.

``dtc.compiler.notation`` reads ``(D0, S21, if stone key)`` and ``(roll d6, 1-3 S5, 4-6 S9, if not
crab-bitten)`` with one regular expression built from the grammar's terminals; anything it does
not read goes to Lark. These tests hold it to Lark on everything it accepts (the same
:class:`Parsed`: condition trees, counts, names and every offset), and check that it does
accept the forms books write, so that the agreement is not bought by refusing.
"""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dtc.compiler.grammars import parse_notation as through_grammar
from dtc.compiler.notation import (
    All,
    AnyOf,
    Failed,
    Has,
    Not,
    Parsed,
    _state_fast,
    parse_notation,
    parse_notation_lark,
)

#: The grammar's ignored spacing, and none at all where a token boundary allows it.
SPACES = [" ", "  ", "\t", "\u00a0", "\u2003", "\u202f", "\u3000", "\u200b", " \u00a0 "]
NEWLINES = ["\n", " \r\n ", "\n\t"]
#: Words of names, many holding a keyword inside them (they are words, not keywords).
NAME_WORDS = [
    "key", "stone", "Rope", "coins", "crab-bitten", "King’s", "oracle's", "notebook", "Oracle", "android",
    "NOTary", "order", "band", "iffy", "if-only", "not-yet", "and’s", "or's", "nothing", "ORnate", "ANDroid",
    "2nd", "10x", "x_y", "é", "Straße", "ring7", "锁", "ΑΝΔ", "d6", "S5", "F3", "roll", "rolls",
]
#: Words that are keywords where a name word may stand: the grammar makes some of them name
#: words, the fast path leaves them all to Lark.
KEYWORDS_AS_NAMES = ["and", "or", "not", "if", "AND", "Not"]
RANGES = ["1", "1-3", "4 - 6", "2–12", "7\u00a0-\u00a012", "1\u200b-\u200b3"]


def _case(word: str, draw: st.DrawFn) -> str:
    return draw(st.sampled_from([word, word.upper(), word.capitalize(), word.lower()]))


@st.composite
def conditions(draw: st.DrawFn, keyword_names: bool = False, newlines: bool = False) -> str:
    """``if`` and an expression: possessions with counts, ``not``, ``and``, ``or``, odd spacing."""
    spaces = SPACES + (NEWLINES if newlines else [])

    def gap() -> str:
        return draw(st.sampled_from(spaces))

    words = NAME_WORDS + (KEYWORDS_AS_NAMES if keyword_names else [])
    parts = [_case("if", draw)]
    for i in range(draw(st.integers(1, 4))):
        if i:
            parts += [gap(), _case(draw(st.sampled_from(["and", "or"])), draw)]
        for _ in range(draw(st.integers(0, 2))):
            parts += [gap(), _case("not", draw)]
        if draw(st.booleans()):
            parts += [gap(), str(draw(st.sampled_from([0, 1, 2, 10, 99, 7, 12345])))]
        for j in range(draw(st.integers(1, 3))):
            parts.append(gap())
            if j and draw(st.integers(0, 5)) == 0:
                parts.append(str(draw(st.integers(0, 300))))  # a count inside a name: a word of it
            else:
                parts.append(draw(st.sampled_from(words)))
    return "".join(parts)


def _sp(draw: st.DrawFn) -> str:
    return draw(st.sampled_from(["", *SPACES]))


@st.composite
def gated_notation(draw: st.DrawFn, keyword_names: bool = False, newlines: bool = False) -> str:
    """A check or a move with a condition, or a random branch with or without one."""
    condition = draw(conditions(keyword_names, newlines))
    sp = [_sp(draw) for _ in range(8)]
    if draw(st.integers(0, 2)):
        ability = draw(st.sampled_from(["", "DEX ", "dex ", "♣ ", "Str  ", "Wis\u00a0"]))
        difficulty = draw(st.sampled_from(["D0", "D2", "d 3", "D12"]))
        success = draw(st.sampled_from(["S21", "s 4", "S@frog", "S007"]))
        failure = draw(st.sampled_from(["", ",F30", f",{sp[5]}f @pit", f"{sp[5]},{sp[6]}F9"]))
        return f"({sp[0]}{ability}{difficulty}{sp[1]},{sp[2]}{success}{failure}{sp[3]},{sp[4]}{condition}{sp[7]})"
    dice = draw(st.sampled_from(["d6", "2d6", "D10", "3D4", "d20"]))
    branches = "".join(
        _sp(draw) + "," + _sp(draw) + draw(st.sampled_from(RANGES)) + draw(st.sampled_from([" ", "  ", "\t", "\u00a0"]))
        + draw(st.sampled_from(["S5", "s 9", "S@x", "S120"]))
        for _ in range(draw(st.integers(1, 4)))
    )
    roll = draw(st.sampled_from(["roll", "Roll", "ROLL"]))
    tail = f"{sp[1]},{sp[2]}{condition}" if draw(st.booleans()) else ""
    return f"({sp[0]}{roll} {sp[3]}{dice}{branches}{tail}{sp[4]})"


def _agrees(text: str) -> Parsed | None:
    """The fast path's reading of ``text``, checked against Lark's when it has one; what it
    does not read, ``parse_notation`` leaves to the Lark route."""
    fast = _state_fast(text)
    if fast is not None:
        assert fast == through_grammar(text), text
        assert parse_notation(text) == fast, text
    else:
        assert parse_notation(text) == parse_notation_lark(text), text
    return fast


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gated_notation())
@example("(D0, S21, if stone key)")
@example("(DEX D2, S14, F30, if rope)")
@example("(D0, S9, if stone key and not alarm or 10 coins)")
@example("(roll d6, 1-3 S5, 4-6 S9, if not crab-bitten)")
@example("(roll d6, 1\u200b-\u200b3 S5, 4-6 S9)")
def test_the_fast_path_reads_gated_notation_as_the_grammar_does(text: str) -> None:
    """Written as books write it (no keyword standing as a name word), the fast path reads
    every one, and reads it as Lark does."""
    assert _agrees(text) is not None, text


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gated_notation(keyword_names=True, newlines=True))
@example("(D0, S1, if stone not key)")
@example("(D0, S1, if and)")
@example("(D0, S1, if 3 not)")
@example("(D0, S1, if 10 20 coins)")
@example("(D0, S1, if key if)")
@example("(D0, S1, if 10)")
@example("(D0, S1, if a and)")
@example("(D0, S1, if not)")
@example("(roll D3, S5, if a)")
def test_the_fast_path_agrees_with_the_grammar_on_keywords_as_names(text: str) -> None:
    """With keywords where name words stand, and notation over lines: whatever the fast path
    accepts, Lark reads the same way (the rest is Lark's, errors included)."""
    _agrees(text)


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from([
    "(", ")", ",", " ", "\u00a0", "\n", "D0", "S1", "F2", "DEX", "roll", "d6", "1-3", "2", "S", "if", "IF", "and",
    "or", "not", "NOT", "notebook", "oracle", "android", "key", "’s", "'", "-", "_", "x", "10", "@a", "–", "ifs",
]), max_size=16).map("".join))
def test_the_fast_path_agrees_with_the_grammar_on_any_tokens(text: str) -> None:
    """Tokens of the notation in any order and spacing: agreement wherever the fast path accepts."""
    _agrees(text)


def test_the_trees_are_the_grammars() -> None:
    """Precedence (not > and > or), flattening, counts and names, as written in docs/format.md."""
    cases = {
        "(D0, S9, IF a or b and c)": AnyOf((Has("a"), All((Has("b"), Has("c"))))),
        "(D0, S9, if a and b and c or d or e)": AnyOf((All((Has("a"), Has("b"), Has("c"))), Has("d"), Has("e"))),
        "(D0, S9, if not not 3 King’s  Rings and notebook)": All((Not(Not(Has("king's rings", 3))), Has("notebook"))),
        "(D0, S9, if 0 oracle or android 2)": AnyOf((Has("oracle", 0), Has("android 2"))),
    }
    for text, cond in cases.items():
        parsed = _state_fast(text)
        assert parsed is not None and parsed.condition == cond
        assert parsed == through_grammar(text)


def test_a_range_spaced_with_any_of_the_grammars_spaces_reads() -> None:
    """``RANGE`` allows the grammar's spaces around its dash, zero-width space included, which
    ``int()`` does not strip: the bounds are the range's numbers, whatever stands between."""
    text = "(roll d6, 1\u200b-\u200b3 S5, 4\u00a0–\u20036 S9)"
    for parsed in (through_grammar(text), _state_fast(text)):
        assert isinstance(parsed, Parsed) and parsed.roll is not None
        assert [(b.low, b.high) for b in parsed.roll.branches] == [(1, 3), (4, 6)]


def test_what_the_fast_path_leaves_to_the_grammar() -> None:
    """Keywords as name words, a count before a number, and errors are Lark's (which words them)."""
    for text in ["(D0, S1, if stone not key)", "(D0, S1, if and)", "(D0, S1, if 10 20 coins)", "(D0, S1, if)",
                 "(D0, S1, if a and)", "(roll d6)", "(roll d6, S5)", "(D0, S1, if a, F2)"]:
        assert _state_fast(text) is None, text
    assert isinstance(parse_notation("(D0, S1, if a and)"), Failed)
    assert parse_notation("(D0, S1, if stone not key)") == through_grammar("(D0, S1, if stone not key)")


def test_a_near_miss_is_refused_in_linear_time() -> None:
    """Words that are also counts could be read two ways each; a near miss (the ``)`` lacking) is
    refused without trying every way (that is 2**n ways: minutes, not microseconds)."""
    import time

    for text in ["(D0, S1, if a " + " 1" * 60 + " ,)", "(roll d6" + ", 1-2 S3" * 60 + ", if a 1 1 1 b)x",
                 "(D0, S1, if " + " and ".join(["not 2 a 1"] * 60) + " or)"]:
        start = time.perf_counter()
        assert _state_fast(text) is None
        assert time.perf_counter() - start < 1.0
