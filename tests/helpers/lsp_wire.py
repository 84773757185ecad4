"""A language-server client that speaks raw JSON-RPC frames to ``dtc lsp`` over a pipe, for
tests that send what no well-behaved client sends (bad headers, invalid params). Every read
has a timeout, so a server that stops answering fails the test instead of hanging it."""

from __future__ import annotations

import contextlib
import json
import queue
import subprocess
import sys
import threading
from typing import Any

SERVER = [sys.executable, "-m", "dtc", "lsp"]


class Wire:
    def __init__(self) -> None:
        self.proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.stderr = b""
        threading.Thread(target=self._read, daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            assert length is not None
            self.messages.put(json.loads(out.read(length)))

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        self.stderr = self.proc.stderr.read()

    def raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def next(self, timeout: float = 30.0) -> dict[str, Any] | None:
        return self.messages.get(timeout=timeout)

    def response(self, request_id: int, timeout: float = 30.0) -> dict[str, Any]:
        """The response to ``request_id`` (notifications before it are passed over)."""
        while True:
            message = self.next(timeout)
            assert message is not None, f"the server closed its output; stderr: {self.stderr[-2000:]!r}"
            if message.get("id") == request_id and "method" not in message:
                return message

    def request(self, request_id: int, method: str, params: Any, timeout: float = 30.0) -> dict[str, Any]:
        self.send({"id": request_id, "method": method, "params": params})
        return self.response(request_id, timeout)

    def initialize(self) -> None:
        reply = self.request(1, "initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        assert "result" in reply, reply
        self.send({"method": "initialized", "params": {}})

    def close(self) -> int:
        assert self.proc.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            self.proc.stdin.close()
        try:
            code = self.proc.wait(timeout=30)
            self._stderr_reader.join(timeout=30)
            return code
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise
