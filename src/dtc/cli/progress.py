"""Progress on long work: one line on stderr naming the step under way, only at a terminal.

A 10,000-entry book takes seconds to compile, tens of seconds to lay out with Graphviz; the
commands that can take that long say what they are doing instead of sitting silent. Nothing is
shown when stderr is not a terminal (a pipe, a file, CI, the tests), under ``TERM=dumb``, or for
work that ends within :data:`DELAY` seconds, and the line is erased when the work ends, so
that what the command prints afterwards is all that stays. ``rich`` is imported only when the
line is actually shown.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from types import TracebackType
from typing import IO, Any

from dtc import forking
from dtc.lint.reporters import visible

#: Seconds of work before the line appears: a quick command never flickers.
DELAY = 0.4


def wanted(stream: Any = None) -> bool:
    """Whether progress may be drawn on ``stream`` (default stderr): a terminal that is not dumb."""
    stream = sys.stderr if stream is None else stream
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class Working:
    """``with Working("compiling book.txt") as work: ...; work.step("drawing")``.

    ``file`` is where to draw (default stderr; tests pass a terminal-like stream with
    ``force=True``). The spinner line shows the current step and the seconds spent.
    """

    def __init__(self, text: str, *, file: IO[str] | None = None, force: bool = False,
                 delay: float | None = None) -> None:
        self.text = visible(text)
        self.file = file
        self.enabled = force or wanted(file)
        self.delay = DELAY if delay is None else delay
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._status: Any = None
        self._started = time.monotonic()
        self._closed = False

    def __enter__(self) -> Working:
        if self.enabled:
            self._started = time.monotonic()
            if self.delay <= 0:
                self._show()
            else:
                self._timer = threading.Timer(self.delay, self._show)
                self._timer.daemon = True
                forking.harmless(self._timer)  # while it waits (see _show)
                self._timer.start()
        return self

    def _show(self) -> None:
        # The imports, and the display's first drawing (which imports more), hold
        # forking.lock: a child forked meanwhile could wait for good on what they take. After
        # that, this thread and the one that redraws the display hold nothing a child needs.
        with forking.lock:
            from rich.console import Console
            from rich.status import Status
            from rich.text import Text  # noqa: F401 - what __rich__ imports, imported here first

            with self._lock:
                if self._closed or self._status is not None:
                    return
                console = Console(file=self.file or sys.stderr, stderr=self.file is None, highlight=False,
                                  force_terminal=True if self.file is not None else None)
                self._status = Status(self, console=console, spinner="dots")
                before = set(threading.enumerate())
                self._status.start()
                for thread in threading.enumerate():  # rich's redrawing thread, not one of ours started meanwhile
                    if thread not in before and type(thread).__module__.partition(".")[0] == "rich":
                        forking.harmless(thread)

    def __rich__(self) -> Any:
        """The line as rich draws it on every refresh: the step, and the seconds spent so far."""
        from rich.text import Text

        return Text(f"{self.text}…").append(f"  {int(time.monotonic() - self._started)} s", style="dim")

    def step(self, text: str) -> None:
        """Name the next step of the work (``text`` may hold a file name: it is shown safely)."""
        self.text = visible(text)

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
            if self._status is not None:
                self._status.stop()
                self._status = None
