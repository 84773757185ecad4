"""`dtc lsp`, driven as an editor drives it: a real client over the server's stdio JSON-RPC."""

from __future__ import annotations

import asyncio
import itertools
import sys
from collections.abc import AsyncIterator, Sequence
from fractions import Fraction
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from helpers import require_sample_dungeon
from helpers.lsp import BOOK

#: Every async test shares the module's server process (and its event loop).
lsp = pytest.mark.asyncio(loop_scope="module")

SERVER = [sys.executable, "-m", "dtc", "lsp"]



@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


_counter = itertools.count()


async def open_doc(client: LanguageClient, text: str, folder: Path | None = None) -> str:
    """Open ``text`` as a new document and wait for its diagnostics; returns its URI."""
    name = f"book{next(_counter)}.dtc.txt"
    uri = (folder / name).as_uri() if folder else f"untitled:{name}"
    if folder:
        (folder / name).write_text(text, encoding="utf-8")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="dtc", version=1, text=text)
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return uri


async def change(client: LanguageClient, uri: str, version: int, rng: types.Range, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(range=rng, text=text)],
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)


def pos(text: str, needle: str, offset: int = 0, nth: int = 0) -> types.Position:
    """The LSP (UTF-16) position of the ``nth`` ``needle`` in ``text``, plus ``offset`` characters."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at)
    line_start = text.rfind("\n", 0, at) + 1
    return types.Position(line, len(text[line_start:at].encode("utf-16-le")) // 2)


def line_of(text: str, prefix: str) -> int:
    return next(i for i, ln in enumerate(text.split("\n")) if ln.startswith(prefix))


def apply_edits(text: str, edits: Sequence[types.TextEdit]) -> str:
    lines = text.split("\n")

    def offset(p: types.Position) -> int:
        head = sum(len(ln) + 1 for ln in lines[: p.line])
        units = lines[p.line].encode("utf-16-le")[: p.character * 2].decode("utf-16-le")
        return head + len(units)

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end) :]
    return text


# --- diagnostics -----------------------------------------------------------------------------


@lsp
async def test_diagnostics_on_open_carry_code_severity_and_rule_link(client: LanguageClient) -> None:
    text = BOOK.replace("Return to 1.", "")  # entry 24 becomes a dead end
    uri = await open_doc(client, text)
    diags = client.diagnostics[uri]
    dead = [d for d in diags if d.code == "DT202"]
    assert len(dead) == 1
    assert dead[0].severity == types.DiagnosticSeverity.Warning
    assert dead[0].range.start == types.Position(line_of(text, "24 "), 0)
    assert dead[0].source == "dtc"
    href = dead[0].code_description.href if dead[0].code_description else ""
    assert href.endswith("dt202-dead-end") or href == "https://dtc.invalid/rules/DT202"


@lsp
async def test_state_findings_carry_their_route_as_related_information(client: LanguageClient) -> None:
    text = ("Title: Keys\n\nAdventure Entries\n\n1 A fork. Left (D0, S2) or right (D0, S3).\n\n"
            "2 A key on the path. [+key] On (D0, S3).\n\n3 A locked gate (D0, S4, if key).\n\n4 Free. THE END\n")
    uri = await open_doc(client, text)
    lock = [d for d in client.diagnostics[uri] if d.code == "DT213"]
    assert len(lock) == 1 and lock[0].related_information is not None
    steps = [r.message for r in lock[0].related_information]
    assert steps == ["route, step 1: entry 1, right", "route, step 2: entry 3"]


@lsp
async def test_diagnostics_follow_edits(client: LanguageClient) -> None:
    uri = await open_doc(client, BOOK)
    assert not [d for d in client.diagnostics[uri] if d.code == "DT101"]
    # Break the notation: delete the comma after D3.
    start = pos(BOOK, "D3,", 2)
    await change(client, uri, 2, types.Range(start, types.Position(start.line, start.character + 1)), "")
    assert [d.code for d in client.diagnostics[uri] if d.code == "DT101"] == ["DT101"]
    # Put it back.
    await change(client, uri, 3, types.Range(start, start), ",")
    assert not [d for d in client.diagnostics[uri] if d.code == "DT101"]
    # A new line above everything moves every finding down by one.
    before = {(d.code, d.range.start.line) for d in client.diagnostics[uri]}
    await change(client, uri, 4, types.Range(types.Position(0, 0), types.Position(0, 0)), "\n")
    after = {(d.code, d.range.start.line - 1) for d in client.diagnostics[uri]}
    assert after == before


@lsp
async def test_a_burst_of_changes_ends_with_the_last_versions_diagnostics(client: LanguageClient) -> None:
    uri = await open_doc(client, BOOK)
    at = pos(BOOK, "D3,", 2)
    for version in range(2, 8):  # delete and restore the comma, three times, without waiting
        rng = types.Range(at, types.Position(at.line, at.character + 1)) if version % 2 == 0 else types.Range(at, at)
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(range=rng, text="" if version % 2 == 0 else ",")],
        ))
    while True:
        # Two notifications read in one go reach the test as one wake-up, and the second would
        # never come to a waiter: after 10 s of silence the server has published version 7, and
        # the client's record of the diagnostics (kept for every notification) holds it.
        waiting = asyncio.ensure_future(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS))
        try:
            published = await asyncio.wait_for(asyncio.shield(waiting), timeout=10)
        except TimeoutError:
            break
        if published.uri == uri and published.version == 7:
            break
    assert not [d for d in client.diagnostics[uri] if d.code == "DT101"]  # version 7 has its comma back


@lsp
async def test_suppression_comment_silences_a_finding_and_an_unused_one_is_reported(
    client: LanguageClient,
) -> None:
    text = BOOK.replace("Return to 1.", "Nothing else.\n<!-- dtc: ignore[dead-end] a quiet ledge -->")
    uri = await open_doc(client, text)
    codes = [d.code for d in client.diagnostics[uri]]
    assert "DT202" not in codes and "DT402" not in codes
    text2 = BOOK.replace("Return to 1.", "Return to 1.\n<!-- dtc: ignore[dead-end] -->")
    uri2 = await open_doc(client, text2)
    unused = [d for d in client.diagnostics[uri2] if d.code == "DT402"]
    assert len(unused) == 1 and list(unused[0].tags or []) == [types.DiagnosticTag.Unnecessary]


@lsp
async def test_config_beside_the_file_applies_and_a_bad_one_is_reported(
    client: LanguageClient, tmp_path: Path
) -> None:
    (tmp_path / "dtc.toml").write_text('[severity]\nprose-reference = "warning"\n', encoding="utf-8")
    uri = await open_doc(client, BOOK, tmp_path)
    prose = [d for d in client.diagnostics[uri] if d.code == "DT302"]
    assert prose and all(d.severity == types.DiagnosticSeverity.Warning for d in prose)
    (tmp_path / "dtc.toml").write_text('[severity]\ndangling-reference = "info"\n', encoding="utf-8")
    uri = await open_doc(client, BOOK, tmp_path)
    config = [d for d in client.diagnostics[uri] if d.source == "dtc config"]
    assert len(config) == 1 and "lowered to \"warning\" at most" in config[0].message


# --- navigation ------------------------------------------------------------------------------


@lsp
async def test_go_to_where_a_possession_is_given_and_to_a_random_branch(client: LanguageClient) -> None:
    text = ("Title: Keys\n\nAdventure Entries\n\n1 A hall. The **Door** (D0, S3, if stone key). "
            "Dice (roll d6, 1-3 S2, 4-6 S3).\n\n2 A key. [+stone key] Back (D0, S1).\n\n3 Out. THE END\n")
    uri = await open_doc(client, text)
    doc = types.TextDocumentIdentifier(uri=uri)
    given = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc, position=pos(text, "stone key)", 2)))
    assert isinstance(given, list) and len(given) == 1
    key_line = line_of(text, "2 A key")
    assert given[0].range.start == types.Position(key_line, text.split("\n")[key_line].index("+stone"))
    branch = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc, position=pos(text, "S2,", 1)))
    assert isinstance(branch, list) and [r.range.start.line for r in branch] == [line_of(text, "2 A key")]


@pytest.mark.parametrize(("needle", "offset", "target"), [("S24", 1, "24 "), ("F78", 2, "78 "),
                                                           ("go to 24", 6, "24 "), ("S2)", 0, "2 ")])
@lsp
async def test_go_to_definition(client: LanguageClient, needle: str, offset: int, target: str) -> None:
    uri = await open_doc(client, BOOK)
    result = await client.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos(BOOK, needle, offset))
    )
    assert isinstance(result, list) and len(result) == 1
    assert result[0].range.start == types.Position(line_of(BOOK, target), 0)


@lsp
async def test_find_references_lists_every_way_in(client: LanguageClient) -> None:
    uri = await open_doc(client, BOOK)
    result = await client.text_document_references_async(
        types.ReferenceParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos(BOOK, "24 Beyond"),
                              context=types.ReferenceContext(include_declaration=False))
    )
    assert result is not None
    starts = {(r.range.start.line, r.range.start.character) for r in result}
    assert starts == {
        (pos(BOOK, "S24").line, pos(BOOK, "S24").character),
        (pos(BOOK, "S24", nth=1).line, pos(BOOK, "S24", nth=1).character),
        (pos(BOOK, "go to 24").line, pos(BOOK, "go to 24").character),
    }


@lsp
async def test_document_symbols_list_entries(client: LanguageClient) -> None:
    uri = await open_doc(client, BOOK)
    result = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert result is not None
    entries = [s.name for s in result if isinstance(s, types.DocumentSymbol) and s.kind == types.SymbolKind.Key]
    assert entries == ["1", "2", "3", "24", "78"]
    first = next(s for s in result if isinstance(s, types.DocumentSymbol) and s.name == "1")
    assert first.children and first.children[0].name == "Chasm"


# --- hover -----------------------------------------------------------------------------------


def enumerate_odds(dice: int, score: int = 10) -> Fraction:
    rolls = list(itertools.product(range(1, 7), repeat=dice))
    return Fraction(sum(1 for r in rolls if sum(r) <= score), len(rolls))


@lsp
async def test_hover_on_a_choice_shows_odds_and_the_target(client: LanguageClient) -> None:
    uri = await open_doc(client, BOOK)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos(BOOK, "DEX D3"))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    value = hover.contents.value
    odds = enumerate_odds(4)
    assert odds == Fraction(206, 1296)
    assert f"{odds.numerator}/{odds.denominator}" in value and f"{float(odds) * 100:.1f}%" in value
    assert "4d6" in value and "Beyond the chasm a cold wind blows." in value
    assert "You fall into the dark water." in value
    hover2 = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos(BOOK, "STR D1"))
    )
    assert hover2 is not None and isinstance(hover2.contents, types.MarkupContent)
    d1 = enumerate_odds(2)
    assert f"{d1.numerator}/{d1.denominator}" in hover2.contents.value and "2d6" in hover2.contents.value


# --- completion ------------------------------------------------------------------------------


@lsp
async def test_completion_offers_entries_and_abilities(client: LanguageClient) -> None:
    text = BOOK.replace("Return to 1.", "Return to 1. A rope (D1, S")
    uri = await open_doc(client, text)
    caret = pos(text, "(D1, S", 6)
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=caret)
    )
    assert isinstance(result, types.CompletionList)
    labels = [i.label for i in result.items]
    assert labels == ["S1", "S2", "S3", "S24", "S78"]
    assert "muddy stair" in (result.items[0].detail or "")
    text2 = BOOK.replace("Return to 1.", "Return to 1. A rope (DE")
    uri2 = await open_doc(client, text2)
    result2 = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri2), position=pos(text2, "(DE", 3))
    )
    assert isinstance(result2, types.CompletionList)
    labels2 = {i.label for i in result2.items}
    assert {"STR", "DEX", "CON", "WIS", "INT", "CHA", "D0", "D3"} <= labels2


@lsp
async def test_completion_offers_possession_names(client: LanguageClient) -> None:
    text = BOOK.replace("Return to 1.", "Return to 1. [+stone key, +3 torches] A door (D0, S2, if st")
    uri = await open_doc(client, text)
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos(text, "if st", 5))
    )
    assert isinstance(result, types.CompletionList)
    assert [i.label for i in result.items] == ["stone key", "torches"]
    text2 = BOOK.replace("Return to 1.", "Return to 1. [+stone key] Later [-st")
    uri2 = await open_doc(client, text2)
    result2 = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri2), position=pos(text2, "[-st", 4))
    )
    assert isinstance(result2, types.CompletionList)
    assert [i.label for i in result2.items] == ["stone key"]


# --- code actions ----------------------------------------------------------------------------


async def code_actions(client: LanguageClient, uri: str, at: types.Position) -> list[types.CodeAction]:
    diags = [d for d in client.diagnostics[uri] if d.range.start.line == at.line]
    result = await client.text_document_code_action_async(
        types.CodeActionParams(text_document=types.TextDocumentIdentifier(uri=uri), range=types.Range(start=at, end=at),
                               context=types.CodeActionContext(diagnostics=diags))
    )
    return [a for a in result or [] if isinstance(a, types.CodeAction)]


@lsp
async def test_code_action_writes_the_entry_a_slip_meant_and_never_invents_one(client: LanguageClient) -> None:
    text = BOOK.replace("F3)", "F30)")  # entry 3: nothing else leads there
    uri = await open_doc(client, text)
    (dangling,) = [d for d in client.diagnostics[uri] if d.code == "DT107"]
    assert "did you mean 3?" in dangling.message
    actions = await code_actions(client, uri, pos(text, "F30", 1))
    assert not any(a.title.startswith("Create entry") for a in actions)
    retarget = next(a for a in actions if a.title == "Write 3 for 30")
    assert retarget.edit and retarget.edit.changes
    fixed = apply_edits(text, retarget.edit.changes[uri])
    assert "(STR D1, S24, F3)" in fixed
    uri2 = await open_doc(client, fixed)
    assert not any(d.code in ("DT107", "DT201") for d in client.diagnostics[uri2])


@lsp
async def test_code_action_inserts_missing_commas(client: LanguageClient) -> None:
    text = BOOK.replace("(DEX D3, S24, F78)", "(DEX D3 S24 F78)")
    uri = await open_doc(client, text)
    assert any(d.code == "DT101" for d in client.diagnostics[uri])
    actions = await code_actions(client, uri, pos(text, "S24", 1))
    fix = next(a for a in actions if "missing commas" in a.title)
    assert fix.edit and fix.edit.changes
    fixed = apply_edits(text, fix.edit.changes[uri])
    assert "(DEX D3, S24, F78)" in fixed
    uri2 = await open_doc(client, fixed)
    assert not any(d.code == "DT101" for d in client.diagnostics[uri2])


@lsp
async def test_code_action_suppresses_a_warning_for_its_entry(client: LanguageClient) -> None:
    text = BOOK.replace("Return to 1.", "")
    uri = await open_doc(client, text)
    actions = await code_actions(client, uri, types.Position(line_of(text, "24 "), 0))
    quiet = next(a for a in actions if a.title.startswith("Ignore DT202"))
    assert quiet.edit and quiet.edit.changes
    fixed = apply_edits(text, quiet.edit.changes[uri])
    assert "<!-- dtc: ignore[dead-end] -->" in fixed
    uri2 = await open_doc(client, fixed)
    assert not any(d.code in ("DT202", "DT401", "DT402") for d in client.diagnostics[uri2])


@lsp
async def test_code_action_starts_an_entry_read_as_prose(client: LanguageClient) -> None:
    text = BOOK.replace("\n24 Beyond", "\n24 beyond")
    uri = await open_doc(client, text)
    assert any(d.code == "DT118" for d in client.diagnostics[uri])
    actions = await code_actions(client, uri, types.Position(line_of(text, "24 "), 0))
    start = next(a for a in actions if a.title.startswith("Start entry 24 here"))
    assert start.edit and start.edit.changes and start.is_preferred
    fixed = apply_edits(text, start.edit.changes[uri])
    assert fixed == BOOK
    uri2 = await open_doc(client, fixed)
    assert not any(d.code in ("DT118", "DT107") for d in client.diagnostics[uri2])


# --- positions: UTF-16 -----------------------------------------------------------------------


@lsp
async def test_astral_characters_count_as_two_utf16_units(client: LanguageClient) -> None:
    frog = "\U0001f438"  # outside the BMP: two UTF-16 code units, one character
    text = BOOK.replace("A small room. A lever (STR D1, S24, F3)",
                        f"A small room {frog}{frog}. A lever (STR D1, S24, F3) or a hatch (D1 S3 F78)")
    uri = await open_doc(client, text)
    bad = next(d for d in client.diagnostics[uri] if d.code == "DT101")
    line = text.split("\n")[bad.range.start.line]
    # The finding points at "S3" (where a comma was expected): its UTF-16 column counts each frog twice.
    assert bad.range.start.character == line.index("S3 F78") + 2
    assert bad.range.end.character == line.index("S3 F78") + 2 + 2
    result = await client.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos(text, "S24", 2, nth=1))
    )
    assert isinstance(result, list) and result[0].range.start.line == line_of(text, "24 ")
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos(text, "(STR", 1))
    )
    assert hover is not None and hover.range is not None
    assert hover.range.start == pos(text, "(STR")
    assert hover.range.end == pos(text, "F3)", 3)
    # A position in the middle of a frog (between its two UTF-16 units) finds nothing and breaks nothing.
    middle = pos(text, frog, 0)
    middle.character += 1
    nothing = await client.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=middle)
    )
    assert not nothing


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def utf8_client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    capabilities = types.ClientCapabilities(
        general=types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf8])
    )
    result = await lsp_client.initialize_session(types.InitializeParams(capabilities=capabilities))
    assert result.capabilities.position_encoding == types.PositionEncodingKind.Utf8
    yield
    await lsp_client.shutdown_session()


@lsp
async def test_a_client_that_counts_in_utf8_gets_utf8_columns(utf8_client: LanguageClient) -> None:
    frog = "\U0001f438"  # four bytes in UTF-8
    text = BOOK.replace("A small room.", f"A small room {frog}é.").replace("(STR D1, S24, F3)", "(STR D1 S24 F3)")
    uri = await open_doc(utf8_client, text)
    bad = next(d for d in utf8_client.diagnostics[uri] if d.code == "DT101")
    line = text.split("\n")[bad.range.start.line]
    assert bad.range.start.character == len(line[: line.index("S24 F3")].encode("utf-8"))
    at = len(line[: line.index("S24 F3") + 1].encode("utf-8"))
    hover = await utf8_client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(bad.range.start.line, at)))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "Malformed choice" in hover.contents.value


@lsp
async def test_definition_on_the_start_key(client: LanguageClient) -> None:
    text = "Start: 2\n" + BOOK
    uri = await open_doc(client, text)
    result = await client.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(0, 7))
    )
    assert isinstance(result, list) and result[0].range.start == types.Position(line_of(text, "2 "), 0)


# --- the whole seed adventure ----------------------------------------------------------------


@lsp
async def test_sample_dungeon_lints_in_the_editor_as_on_the_command_line(client: LanguageClient) -> None:
    text = require_sample_dungeon()
    from helpers import lint_text

    uri = await open_doc(client, text)
    expected = sorted((d.code, d.span.line - 1, d.span.column - 1) for d in lint_text(text))
    got = sorted((str(d.code), d.range.start.line, d.range.start.character) for d in client.diagnostics[uri])
    assert got == expected
