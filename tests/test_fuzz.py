"""Hypothesis fuzzing of the readers an author or an editor feeds: the notation, the effects
reader, configurations and the language server's messages; and the promise that no command
leaves a traceback for any small book. Few examples each (the suite stays fast); hypothesis
keeps the failing ones it finds in its database for the next run."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dtc.cli import main
from dtc.compiler.api import compile_text
from dtc.compiler.notation import Failed, Parsed, parse_notation, parse_statblock
from dtc.compiler.read_effects import extract_effects
from dtc.lint.configuration import ConfigError, load_config

HOSTILE = [
    "(", ")", ",", " ", "\n", "\n\n", "D", "S", "F", "0", "1", "2", "12", "DEX ", "(D0, S2)", "(DEX D3, S4, F5)",
    "(D1 S2 F3)", "**", "THE END", "go to 3", "Return to ", "your most recent entry",
    "Goblin HP 3 | Morale 7 | Bite d6",
    "Goblins", "1d6 ", "3 Goblins attack. ", "Encounters\n", "  1-2. 1d4 Goblins\n", "Adventure Entries\n",
    "Start: 2\n", "Rules: zilch\n", "Rules: death-and-treasure + dungeon-rules\n", "Title: X\n", "@lab", "S@lab",
    "Zones\n  1-3. Quiet\n", "Hazard: Gas | Check: CON D2 | Fail: 1d4 damage\n", "Zone: deep\n",
    "take d6 damage. ", "regain 2 HP. ", "you find 200 coins and a key (Weight 1). ", "Make a DEX check. ",
    "On a failure, lose 1d4 HP. ", "If you win, go to 2. ", "9" * 60, "D" + "9" * 40, "\x1b[2J", "\x00", "\u202e",
    "\u00a0", "“", "♣", "🐉", "\t", ":", "|", ".",
]
books = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=6)), max_size=40).map("".join)
FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FEW
@given(st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=4)), max_size=12).map("".join))
def test_the_notation_and_stat_block_readers_are_total(text: str) -> None:
    assert isinstance(parse_notation("(" + text + ")"), (Parsed, Failed))
    parse_statblock(text)  # a StatBlock or None, never an exception


@FEW
@given(books, st.lists(st.sampled_from(["Goblin", "Rat", "Bell Warden"]), max_size=3) | st.none())
def test_the_effects_reader_is_total_and_its_effects_are_json(text: str, creatures: list[str] | None) -> None:
    effects = extract_effects(text, creatures)
    json.dumps(effects, allow_nan=False)
    for e in effects:
        assert 0 <= e["start"] <= e["end"] <= len(text)


toml_pieces = st.sampled_from([
    "select = ", "ignore = ", "rules = ", "severity = ", "[tool.dtc]\n", "[severity]\n", "[[x]]\n", '"DT1"',
    '"dead-end"', '["DT2", "DT3"]', "[]", '""', '","', "1", "true", "{a = 1}", "\n", "=", "[", "]", "{", "}",
    '"error"', "DT101 = ", "'", '"', "\\", "[" * 50, "#", "x.y = 2\n", '"\x1b"',
])


@FEW
@given(st.lists(st.one_of(toml_pieces, st.text(max_size=5)), max_size=30).map("".join))
def test_a_configuration_is_read_or_refused_in_one_line(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    path = tmp_path_factory.mktemp("config") / "dtc.toml"
    path.write_text(text, encoding="utf-8")
    try:
        load_config(path)
    except ConfigError as exc:
        assert "\n" not in str(exc).strip(), str(exc)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
methods = st.sampled_from([
    "initialize", "initialized", "textDocument/hover", "textDocument/definition", "textDocument/didOpen",
    "textDocument/didChange", "textDocument/completion", "textDocument/codeAction", "textDocument/references",
    "textDocument/documentSymbol", "shutdown", "workspace/unknown", "$/cancelRequest",
])
messages = st.fixed_dictionaries(
    {"jsonrpc": st.sampled_from(["2.0", "2.0", "1.0"])},
    optional={"id": st.integers() | st.text(max_size=4) | st.none(), "method": methods, "params": json_values},
)


@FEW
@given(st.lists(messages | json_values, max_size=6))
def test_the_language_server_answers_or_drops_any_message(batch: list[Any]) -> None:
    from dtc.lsp.server import build
    from dtc.lsp.wire import Wire

    out = io.BytesIO()
    wire = Wire(build(), io.BytesIO(), out)
    wire.server.protocol.set_writer(wire.writer)
    for message in batch:
        wire.handle(json.dumps(message).encode("utf-8"))  # never raises
    for message in batch:  # every request (an object with an id and a method) gets one answer
        if isinstance(message, dict) and isinstance(message.get("id"), (int, str)) and "method" in message:
            assert b'"id": %s' % json.dumps(message["id"]).encode() in out.getvalue() or \
                   b'"id":%s' % json.dumps(message["id"]).encode() in out.getvalue()


@FEW
@given(st.binary(max_size=200))
def test_the_frame_reader_is_total(data: bytes) -> None:
    from dtc.lsp.wire import BadFrame, read_frame

    stream = io.BytesIO(data)
    for _ in range(50):
        frame = read_frame(stream)
        if frame is None:
            break
        assert isinstance(frame, (bytes, BadFrame))


COMMANDS = [
    ["lint", "{book}"], ["compile", "{book}", "-o", "{out}.json"], ["graph", "{book}", "-o", "{out}.dot"],
    ["odds", "{book}"], ["renumber", "{book}", "--dry-run"],
    ["play", "{book}", "--auto", "random", "--seed", "1", "--max-turns", "30", "--save", "{out}.save.json"],
]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(books)
def test_no_command_leaves_a_traceback(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    compile_text(text)  # the reader itself first: the plainest failure
    folder = tmp_path_factory.mktemp("book")
    book = folder / "book.txt"
    book.write_text(text, encoding="utf-8")
    for args in COMMANDS:
        argv = [a.format(book=book, out=folder / "out") for a in args]
        result = CliRunner().invoke(main, argv)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"dtc {' '.join(args)} raised on {text!r}") from result.exception
        assert result.exit_code in (0, 1, 2), (args, result.output)
    assert book.read_bytes() == text.encode("utf-8")  # --dry-run wrote nothing
