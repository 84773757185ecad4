"""One editing session with ``dtc lsp``, as a process ``run.py`` can time like any other command.

    python benchmarks/lsp_session.py BOOK [DTC ...]

Starts the language server (``dtc lsp``, or the command given after the book), opens BOOK,
waits for its diagnostics, types a word in a middle entry, waits for the diagnostics of that
version, and shuts the server down. Speaks JSON-RPC over the server's stdin and stdout itself
(no client library), so what it adds to the figures is writing the book once as JSON and reading
two lists of diagnostics. Exits 0 when the server answered everything, 2 otherwise.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import IO, Any


def _send(pipe: IO[bytes], message: dict[str, Any]) -> None:
    body = json.dumps({"jsonrpc": "2.0", **message}, ensure_ascii=False).encode("utf-8")
    pipe.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    pipe.flush()


def _receive(pipe: IO[bytes]) -> dict[str, Any]:
    length = None
    while True:
        line = pipe.readline()
        if not line:
            raise EOFError("the server closed its output")
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    if length is None:
        raise ValueError("a message without Content-Length")
    message: dict[str, Any] = json.loads(pipe.read(length))
    return message


def _wait(pipe: IO[bytes], *, request: int | None = None, version: int | None = None) -> dict[str, Any]:
    """The answer to ``request``, or the diagnostics published for ``version``."""
    while True:
        message = _receive(pipe)
        if "error" in message and message.get("id") is None:  # a frame the server could not read
            raise ValueError(f"the server answered {message['error'].get('message')!r}")
        if request is not None and message.get("id") == request and "method" not in message:
            return message
        if (version is not None and message.get("method") == "textDocument/publishDiagnostics"
                and message["params"].get("version") == version):
            return message


def session(book: Path, command: list[str]) -> int:
    text = book.read_text(encoding="utf-8")
    lines = text.split("\n")
    middle = next((i for i in range(len(lines) // 2, len(lines)) if lines[i][:1].isdigit()), 0)
    uri = book.resolve().as_uri()
    server = subprocess.Popen([*command, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert server.stdin is not None and server.stdout is not None
    try:
        _send(server.stdin, {"id": 1, "method": "initialize",
                             "params": {"processId": None, "rootUri": None, "capabilities": {}}})
        _wait(server.stdout, request=1)
        _send(server.stdin, {"method": "initialized", "params": {}})
        _send(server.stdin, {"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "dtc", "version": 1, "text": text}}})
        _wait(server.stdout, version=1)
        end = len(lines[middle])
        change = {"range": {"start": {"line": middle, "character": end}, "end": {"line": middle, "character": end}},
                  "text": " word"}
        _send(server.stdin, {"method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2}, "contentChanges": [change]}})
        _wait(server.stdout, version=2)
        _send(server.stdin, {"id": 2, "method": "shutdown", "params": None})
        _wait(server.stdout, request=2)
        _send(server.stdin, {"method": "exit", "params": None})
        server.stdin.close()
        return 0 if server.wait(timeout=60) == 0 else 2
    except (EOFError, ValueError, OSError, subprocess.TimeoutExpired) as exc:
        print(f"error: the language server session failed: {exc}", file=sys.stderr)
        server.kill()
        server.wait()
        return 2


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: lsp_session.py BOOK [DTC ...]", file=sys.stderr)
        return 2
    command = args[1:] or [str(Path(sys.executable).parent / "dtc")]
    return session(Path(args[0]), command)


if __name__ == "__main__":
    sys.exit(main())
