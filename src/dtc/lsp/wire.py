"""The language server's stdio transport: JSON-RPC frames read with limits, and every invalid
message answered.

pygls reads ``Content-Length`` frames trusting the length (a huge one is a ``MemoryError``, a
bad one loses the next message too), drops a request whose params do not fit the protocol's
types without answering it, and answers nothing after ``shutdown``. This loop reads the
frames itself and hands each message to pygls's protocol:

- a header line is read up to :data:`MAX_HEADER_LINE` bytes, a body up to :data:`MAX_MESSAGE`;
- a frame that cannot be read (no number, too large, not JSON) is answered with a JSON-RPC
  error whose ``id`` is ``null`` (``-32700`` parse error, ``-32600`` invalid request), and
  reading goes on at the next ``Content-Length`` header, wherever it starts on its line;
- a request whose params are invalid is answered ``-32602`` with its own ``id``;
- a request after ``shutdown`` is answered ``-32600``; only ``exit`` is still obeyed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from typing import BinaryIO

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from dtc.fileread import LIMITS
from dtc.numbers import bounded

log = logging.getLogger("dtc.lsp.wire")

#: The largest message read: room for the largest book dtc reads from a file (512 MiB), with
#: as much again for JSON's escapes. A 100,000-entry book is about 85 MB.
MAX_MESSAGE = 2 * LIMITS["source"]
#: The longest header line read; the rest of a longer line is read and dropped.
MAX_HEADER_LINE = 4096

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

_LENGTH = re.compile(rb"content-length[ \t]*:[ \t]*([^\r\n]*?)[ \t]*\r?\n?$", re.I)


class BadFrame(str):
    """Why a frame could not be read (the reader goes on at the next header)."""


def read_frame(stream: BinaryIO) -> bytes | BadFrame | None:
    """The next message body on ``stream``, a :class:`BadFrame` saying why the next frame
    cannot be read, or None at the end of the stream. Never holds more than
    :data:`MAX_MESSAGE` bytes, nor a header line longer than :data:`MAX_HEADER_LINE`."""
    length: int | None = None
    problem: str | None = None
    while True:
        line = stream.readline(MAX_HEADER_LINE)
        if not line:
            return None
        if not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # drop the rest of an overlong line
                line = stream.readline(MAX_HEADER_LINE)
            if not line:
                return None
            length, problem = None, f"a header line longer than {MAX_HEADER_LINE} bytes"
            continue
        if not line.strip():
            if length is not None:
                break
            if problem is not None:
                return BadFrame(problem)
            continue  # a stray blank line
        m = _LENGTH.search(line)
        if m is None:
            continue  # Content-Type, or what is left of a frame that could not be read
        value = m.group(1).decode("ascii", "replace")
        if not (value.isdigit() and value.isascii()):
            length, problem = None, f"Content-Length {value[:40]!r} is not a number"
        elif bounded(value, MAX_MESSAGE) > MAX_MESSAGE:
            length, problem = None, f"a message of more than {MAX_MESSAGE:,} bytes"
        else:
            length, problem = int(value), None
    body = stream.read(length)
    return body if len(body) == length else None


def _is_notification(method: object) -> bool:
    """Whether the protocol defines ``method`` as a notification (one that takes no answer)."""
    known = types.METHOD_TO_TYPES.get(method) if isinstance(method, str) else None
    return known is not None and known[0].__name__.endswith("Notification")


class Wire:
    """Reads frames from ``stdin`` and passes their messages to ``server``'s protocol."""

    def __init__(self, server: LanguageServer, stdin: BinaryIO, stdout: BinaryIO) -> None:
        self.server = server
        self.stdin = stdin
        self.writer = StdoutWriter(stdout)
        self.shut_down = False

    def send_error(self, msg_id: int | str | None, code: int, message: str) -> None:
        body = json.dumps({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})
        data = body.encode("utf-8")
        self.writer.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)

    def handle(self, body: bytes) -> None:
        """One message: checked, then given to pygls (or answered with an error here)."""
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):  # not JSON, not UTF-8, a number too long, nested too deep
            self.send_error(None, PARSE_ERROR, "Parse error: the message is not JSON")
            return
        if not isinstance(data, dict):
            self.send_error(None, INVALID_REQUEST, "Invalid request: a message is a JSON object")
            return
        raw_id = data.get("id")
        msg_id = raw_id if isinstance(raw_id, (int, str)) and not isinstance(raw_id, bool) else None
        method = data.get("method")
        is_request = "id" in data and "method" in data
        if data.get("jsonrpc") != "2.0" or ("method" in data and not isinstance(method, str)) or (
                "id" in data and msg_id is None):
            if "id" in data or "method" not in data:
                self.send_error(msg_id, INVALID_REQUEST, "Invalid request: not a JSON-RPC 2.0 message")
            return
        if is_request and _is_notification(method):
            self.send_error(msg_id, INVALID_REQUEST, f"Invalid request: {method} is a notification, sent with an id")
            return
        if self.shut_down and method != "exit":
            if is_request:
                self.send_error(msg_id, INVALID_REQUEST, "Invalid request: the server has been shut down")
            return
        protocol = self.server.protocol
        try:
            message = protocol.structure_message(data)
        except JsonRpcException as exc:
            if is_request:
                code = INVALID_PARAMS if isinstance(exc, JsonRpcInvalidParams) else exc.code
                self.send_error(msg_id, code, f"{exc.message}: the params of {method} do not fit its type")
                log.warning("answered a %s request whose params do not fit its type with an error", method)
            elif method is not None:
                log.warning("dropped a %s notification whose params do not fit its type", method)
            else:
                log.warning("dropped a response to a request this server never sent")
            return
        protocol.handle_message(message)
        if is_request and method == "shutdown":
            self.shut_down = True

    async def run(self, stop: threading.Event) -> None:
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            frame = await loop.run_in_executor(None, read_frame, self.stdin)
            if frame is None:
                break
            if isinstance(frame, BadFrame):
                self.send_error(None, PARSE_ERROR, f"Parse error: {frame}")
                continue
            try:
                self.handle(frame)
            except (SystemExit, KeyboardInterrupt):
                raise
            except Exception:  # a fault of ours: logged, and the server goes on
                log.exception("could not handle a message")


def _not_a_deserialisation_traceback(record: logging.LogRecord) -> bool:
    """pygls logs a traceback for every message whose params do not fit their type; this loop
    answers those with an error and a one-line warning of its own."""
    return not str(record.msg).startswith("Unable to deserialize message")


def serve_stdio(server: LanguageServer, stdin: BinaryIO, stdout: BinaryIO) -> None:
    """Run ``server`` on ``stdin``/``stdout`` until ``exit`` or the end of input."""
    logging.getLogger("pygls.protocol.json_rpc").addFilter(_not_a_deserialisation_traceback)
    stop = threading.Event()
    server._stop_event = stop  # what pygls's shutdown() sets
    wire = Wire(server, stdin, stdout)
    server.protocol.set_writer(wire.writer)
    try:
        asyncio.run(wire.run(stop))
    except BrokenPipeError:
        log.error("the client has gone; stopping")
    finally:
        server.shutdown()  # type: ignore[no-untyped-call]
