"""``dtc lsp`` on the wire: what no well-behaved client sends gets a JSON-RPC error, and the
server goes on answering. Raw frames over a pipe (``lsp_wire``), every read with a timeout."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from helpers.lsp_wire import Wire

URI = "file:///book.txt"
BOOK = "1 A ledge (DEX D10000, S2, F3). Or climb (DEX D2, S2, F3).\n\n2 THE END\n\n3 THE END\n"
HOVER_BIG = {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 14}}
HOVER_OK = {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 47}}


@pytest.fixture
def wire() -> Iterator[Wire]:
    w = Wire()
    w.initialize()
    w.send({"method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": URI, "languageId": "dtc", "version": 1, "text": BOOK}}})
    yield w
    if w.proc.poll() is None:
        w.proc.kill()
        w.proc.wait()


def still_answers(w: Wire, request_id: int) -> None:
    reply = w.request(request_id, "textDocument/hover", HOVER_OK)
    assert "DEX D2" in reply["result"]["contents"]["value"], reply


def next_error(w: Wire) -> dict[str, object]:
    while True:
        message = w.next()
        assert message is not None, w.stderr[-2000:]
        if "error" in message:
            return message


@pytest.mark.parametrize("params", [{"textDocument": 5}, {}, None, [1, 2], {"textDocument": {"uri": URI}}])
def test_invalid_params_get_an_error_response(wire: Wire, params: object) -> None:
    reply = wire.request(2, "textDocument/hover", params)
    assert reply["error"]["code"] == -32602, reply
    still_answers(wire, 3)
    assert wire.close() == 0
    assert b"Traceback" not in wire.stderr, wire.stderr[-2000:]


@pytest.mark.parametrize("frame, code", [
    (b"Content-Length: abc\r\n\r\n{}", -32700),
    (b"Content-Length: -5\r\n\r\n", -32700),
    (b"Content-Length: 99999999999999999999999999\r\n\r\n", -32700),
    (b"Content-Length: 1" + b"0" * 5000 + b"\r\n\r\n", -32700),
    (b"X-Junk: " + b"x" * 100_000 + b"\r\n\r\n", -32700),
    (b"Content-Length: 7\r\n\r\nnotjson", -32700),
    (b"Content-Length: 10\r\n\r\n\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6", -32700),
    (b"Content-Length: 2\r\n\r\n[]", -32600),
    (b"Content-Length: 7\r\n\r\n\"hello\"", -32600),
    (b"Content-Length: 20\r\n\r\n{\"id\": 9, \"x\": true}", -32600),
])
def test_a_frame_that_cannot_be_read_is_answered_and_reading_goes_on(wire: Wire, frame: bytes, code: int) -> None:
    wire.raw(frame)
    error = next_error(wire)
    assert error["error"]["code"] == code, error  # type: ignore[index]
    still_answers(wire, 4)


def test_a_deeply_nested_message_is_a_parse_error(wire: Wire) -> None:
    body = b"[" * 100_000 + b"]" * 100_000
    wire.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    assert next_error(wire)["error"]["code"] == -32700  # type: ignore[index]
    still_answers(wire, 5)


def test_a_request_after_shutdown_is_an_invalid_request(wire: Wire) -> None:
    assert wire.request(6, "shutdown", None)["result"] is None
    reply = wire.request(7, "textDocument/hover", HOVER_OK)
    assert reply["error"]["code"] == -32600, reply
    wire.send({"method": "exit"})
    assert wire.proc.wait(timeout=30) == 0


def test_a_huge_difficulty_hover_answers_and_the_next_request_too(wire: Wire) -> None:
    reply = wire.request(8, "textDocument/hover", HOVER_BIG, timeout=60)
    text = reply["result"]["contents"]["value"]
    assert "no odds" in text and "D10000" in text, text
    still_answers(wire, 9)


def test_the_end_of_input_ends_the_server_without_a_traceback() -> None:
    w = Wire()
    w.raw(b"Content-Length: 999999\r\n\r\n{\"jsonrpc\"")  # the client dies mid-message
    w.close()
    assert b"Traceback" not in w.stderr and b"MemoryError" not in w.stderr


def test_a_header_line_without_end_under_a_memory_limit() -> None:
    """A header that never ends is read 4 KiB at a time and dropped, whatever its length."""
    if sys.platform != "linux":
        pytest.skip("uses RLIMIT_AS")
    import subprocess

    code = (
        "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (400 * 2**20, 400 * 2**20)); "
        "from dtc.cli import main; sys.argv = ['dtc', 'lsp']; main()"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdin is not None
    chunk = b"y" * (1 << 20)
    for _ in range(600):  # 600 MiB, more than the process may hold
        proc.stdin.write(chunk)
    proc.stdin.close()
    assert proc.wait(timeout=120) == 0
    assert proc.stderr is not None
    err = proc.stderr.read()
    assert b"MemoryError" not in err and b"Traceback" not in err, err[-2000:]


# --- the same through a real client (pytest-lsp) ----------------------------------------------

import pytest_lsp  # noqa: E402
from lsprotocol import types  # noqa: E402
from pygls.exceptions import JsonRpcException  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

lsp = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "dtc", "lsp"]), scope="module")
async def client(lsp_client: LanguageClient) -> Iterator[None]:  # type: ignore[misc]
    await lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
    lsp_client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=URI, language_id="dtc", version=1, text=BOOK)))
    await lsp_client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    yield
    await lsp_client.shutdown_session()


@lsp
async def test_a_client_gets_an_error_for_invalid_params(client: LanguageClient) -> None:
    bad = types.Position(0, 0)
    object.__setattr__(bad, "line", -1)  # past the client's checks: the server's must catch it
    with pytest.raises(JsonRpcException) as info:
        await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=URI), position=bad))
    assert info.value.code == -32602
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=URI), position=types.Position(0, 14)))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "no odds" in hover.contents.value


def test_a_book_as_large_as_dtc_reads_fits_in_one_message() -> None:
    """didOpen carries the whole book: the frame limit leaves room for the largest source dtc
    reads from a file (a 100,000-entry book is about 85 MB), with its JSON escapes."""
    from dtc.fileread import LIMITS
    from dtc.lsp.wire import MAX_MESSAGE

    assert 2 * LIMITS["source"] <= MAX_MESSAGE
