"""`compile_json` writes each entry's JSON text itself: it must be what ``json.dumps`` of
`compile_document`'s graph gives, byte for byte, whatever the author wrote."""

from __future__ import annotations

import json
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dtc.compiler.parallel as parallel
from dtc.compiler.compile import compile_document, compile_json, compile_json_write, resolve
from dtc.compiler.parse import parse

_ODD = st.text(
    alphabet=st.sampled_from([*'ab Zé"\\\t/\u2028\u00a0ſ*_[]()+-.,!?@0123456789\x01\x1f😀', "\u0130"]),
    max_size=30,
)


def _same(text: str) -> None:
    doc = parse(text, "odd.txt")
    res = resolve(doc)
    graph = compile_document(doc, text, res)
    expected = json.dumps(graph, ensure_ascii=False, separators=(",", ":"))
    doc = parse(text, "odd.txt")
    assert compile_json(doc, text, resolve(doc)) == expected
    doc = parse(text, "odd.txt")  # what `dtc compile` writes to a file: the same text as UTF-8
    with tempfile.TemporaryFile() as out:
        length = compile_json_write(doc, text, out.fileno(), resolve(doc), end="\n")
        written = out.read()
    assert written == (expected + "\n").encode("utf-8") and length == len(written)


@pytest.fixture(autouse=True)
def _serial(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "wanted", lambda count: False)


def test_every_kind_of_choice_exit_and_entry_is_written_as_json_dumps_writes_it() -> None:
    text = (
        'Title: A "quoted" \\ book\nStart: 1\n\n'
        'Gnawer HP 3 | Morale 8 | Teeth d4\n\n'
        '1 The **Gate "of" \\ Ash** (D2, S2, F@end) or the left tunnel é (STR D1, S3, F4). '
        "Go to 3. Or **Jump** (roll d6, 1-3 S2, 4-6 S3). The **Door** (D0, S4, if stone key). "
        "You find 30 coins and a silver crown (1,000 coins). 2 Gnawers wait. [+stone key]\n\n"
        "2 Take d4 damage.\x01 Return to 1 (D0, S1).\n\n"
        "3 A broken ( notation (D9, S99999). (Q7, S2)\n\n"
        "4 THE END (victory)\n\n"
        "@end THE END\n"
    )
    doc = parse(text, "odd.txt")
    graph = compile_document(doc, text, resolve(doc))
    keys = {key for entry in graph["entries"] for choice in entry["choices"] for key in choice}
    assert {"condition", "roll"} <= keys and graph["entries"][-1]["label"] == "@end", keys
    _same(text)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(label=_ODD, prose=_ODD, target=st.sampled_from(["2", "@end", "99", "x"]))
def test_any_text_is_written_as_json_dumps_writes_it(label: str, prose: str, target: str) -> None:
    text = (
        f"Title: Odd\nStart: 1\n\n1 You {prose} **{label}** (D1, S{target}, F2) {label} (WIS D2, S2). {prose}\n\n"
        f"2 You {prose} THE END\n\n@end THE END\n"
    )
    _same(text)


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(["a", "é", "\u2014", "😀", "\n"]), min_size=0, max_size=80),
       step=st.integers(min_value=1, max_value=7))
def test_the_digest_taken_a_slice_at_a_time_is_that_of_the_whole_text(text: str, step: int) -> None:
    import hashlib

    from dtc.compiler.compile import _digest

    # (slices that cut between letters of every width in UTF-8)
    assert _digest(text, step) == hashlib.sha256(text.encode("utf-8")).hexdigest()
