"""Property: renumbering changes the numbers and nothing else (hypothesis, random adventures).

Compile before, renumber, compile after, translate the old numbers through the new ones, and
compare every entry's text (modulo numbers and labels), its choices and its exits. This is an
independent check: it does not use :mod:`dtc.renumber.check`, which renumber runs itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dtc.compiler.api import compile_text
from dtc.renumber.rewrite import NumberMap, Options, RenumberError, renumber

ABILITIES = ["", "DEX ", "str ", "Wisdom "]
PROSE = ["The air is cold.", "Water drips somewhere.", "You hear a bell.", "Dust covers the floor."]
NOT_SAFE = ("cannot hold", "no numbering found", "no free number", "lowest number only while")


@dataclass
class Book:
    text: str
    heads: list[str]
    keep: tuple[int, ...]
    options: Options


@st.composite
def books(draw: st.DrawFn) -> Book:
    n = draw(st.integers(2, 9))
    kinds = draw(st.lists(st.booleans(), min_size=n, max_size=n))  # True: a label head
    numbers = draw(st.lists(st.integers(1, 40), min_size=n, max_size=n, unique=True))
    names = draw(st.lists(st.from_regex(r"[a-z][a-z0-9_-]{0,5}", fullmatch=True), min_size=n, max_size=n,
                          unique=True))
    heads = [f"@{name}" if label else str(num) for label, name, num in zip(kinds, names, numbers, strict=True)]
    ref = st.sampled_from(heads)

    def sentence() -> str:
        kind = draw(st.integers(0, 5))
        s_letter, f_letter = draw(st.sampled_from(["S", "s"])), draw(st.sampled_from(["F", "f"]))
        space = draw(st.sampled_from(["", " "]))
        if kind == 0:
            ability = draw(st.sampled_from(ABILITIES))
            d = draw(st.integers(1, 3))
            return (f"Try the Gate ({ability}D{d}, {s_letter}{space}{draw(ref)}, "
                    f"{f_letter}{space}{draw(ref)}).")
        if kind == 1:
            return f"Take the Path (D0, {s_letter}{space}{draw(ref)})."
        if kind == 2:
            return f"{draw(st.sampled_from(['Go to', 'Return to', 'Turn to entry']))} {draw(ref)}."
        if kind == 3:
            return "Return to your most recent entry."
        if kind == 4:
            return "THE END."
        return draw(st.sampled_from(PROSE))

    entries = []
    for head in heads:
        body = " ".join(sentence() for _ in range(draw(st.integers(1, 4))))
        entries.append(f"{head} {draw(st.sampled_from(PROSE))} {body}")
    front = f"Start: {draw(ref)}\n\n" if draw(st.booleans()) else ""
    text = front + "Random Book\n\nAdventure Entries\n\n" + "\n\n".join(entries) + "\n"
    ints = [int(h) for h in heads if not h.startswith("@")]
    keep = tuple(draw(st.lists(st.sampled_from(ints), unique=True, max_size=2))) if ints else ()
    options = Options(shuffle=draw(st.booleans()), seed=draw(st.integers(0, 2**16)), gap=draw(st.integers(1, 4)),
                      keep=keep)
    return Book(text, heads, keep, options)


def modulo_numbers(text: str) -> str:
    return re.sub(r"@[A-Za-z][A-Za-z0-9_-]*|[0-9]+", "#", text)


def shape(graph: dict[str, Any], rename: dict[int, int]) -> list[Any]:
    def t(target: Any) -> Any:
        return rename.get(target, ("unknown", target)) if target is not None else None

    out: list[Any] = [t(graph["start"])]
    for e in graph["entries"]:
        exits = [(t(x["target"]), x["kind"], x["choice"]) for x in e["exits"] if x["kind"] != "return"]
        returns = sorted(t(x["target"]) for x in e["exits"] if x["kind"] == "return")
        choices = [(c["ability"], c["difficulty"], t(c["success"]), t(c["failure"]), modulo_numbers(c["text"]))
                   for c in e["choices"]]
        out.append((t(e["number"]), modulo_numbers(e["text"]), e["ending"], choices, exits, returns))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(books())
def test_renumbering_preserves_the_graph(book: Book) -> None:
    before = compile_text(book.text, "r.txt")
    try:
        result = renumber(book.text, "r.txt", book.options)
    except RenumberError as exc:
        assume(any(reason in str(exc) for reason in NOT_SAFE))  # an impossible spread, refused clearly
        return
    after = compile_text(result.text, "r.txt")
    old, new = before.graph(), after.graph()
    rename = {before.resolved.numbers[i]: result.numbers[e.number] for i, e in enumerate(before.doc.entries)}
    identity = {e["number"]: e["number"] for e in new["entries"]}
    assert shape(old, rename) == shape(new, identity)
    assert result.text.count("\n") == book.text.count("\n")
    assert "@" not in result.text  # every label became a number
    for n in book.keep:
        assert result.numbers[n] == n
    if book.options.shuffle:
        # Kept entries, and the start, which a shuffle pins to the lowest number: a pair of two
        # pinned entries cannot be spread (renumber warns about it instead).
        kept = set(book.keep) | ({rename[before.resolved.start]} if before.resolved.start in rename else set())
        for e in after.doc.entries:
            for c in e.choices:
                s, f = c.success, c.failure
                if isinstance(s, int) and isinstance(f, int) and s != f and not {s, f} <= kept:
                    assert abs(s - f) >= book.options.gap, (s, f, result.text)
    if not book.keep:
        assert sorted(result.numbers.values()) == list(range(1, len(book.heads) + 1))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(books())
def test_a_second_run_with_the_map_changes_nothing(book: Book) -> None:
    try:
        first = renumber(book.text, "r.txt", book.options)
    except RenumberError:
        return
    options = Options(book.options.shuffle, 1234, book.options.gap, (), NumberMap(first.number_map.labels,
                                                                                   first.number_map.numbers))
    second = renumber(first.text, "r.txt", options)
    assert second.text == first.text and second.moved == 0
