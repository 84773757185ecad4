"""The ``dtc`` command line: a thin click layer over the library.

Exit codes are named in :class:`~dtc.cli.base.Exit`. Each command lives in its own module of this
package and is listed in :data:`~dtc.cli.base.COMMANDS`, imported only when it runs.

This module itself imports next to nothing: :func:`run`, the ``dtc`` command's entry point, first
makes Ctrl-C end the process at once with one line and status 130 (:func:`stop_early`), and only
then imports the command line, which takes the first tenth of a second (a Ctrl-C there once
ended in a traceback). The command takes Ctrl-C back when it starts (see
:func:`dtc.cli.base.take_back_ctrl_c`). Before that only ``signal`` is imported (``typing``
alone would take longer than the rest of this module).
"""

from __future__ import annotations

import signal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from dtc.cli.base import COMMANDS, Exit, main

__all__ = ["COMMANDS", "Exit", "main", "run", "stop_early"]


def stopped_early(signum: int, frame: object) -> None:
    """Ctrl-C before a command starts: nothing is written yet, so the process ends at once."""
    import os  # (imported by the interpreter's start already)

    try:  # noqa: SIM105 - contextlib is not imported yet
        os.write(2, b"\nstopped: interrupted\n")
    except OSError:
        pass
    os._exit(130)


def stop_early() -> None:
    """Until a command starts, Ctrl-C ends the process with one line and status 130 (where it
    is not ignored: a background job's stays ignored)."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, stopped_early)


def run() -> None:
    """The ``dtc`` console command (see :func:`dtc.cli.base.run`)."""
    stop_early()
    from dtc.cli.base import run as run_command_line

    run_command_line()


def __getattr__(name: str) -> Any:
    if name in ("COMMANDS", "Exit", "main"):
        import dtc.cli.base as base

        return getattr(base, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
