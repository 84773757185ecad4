"""How this process runs dtc's work: one object in force for a block, not switches set on modules.

The installed ``dtc`` command is a one-shot process. It may read a large book on two cores (a
forked child: :mod:`dtc.compiler.parallel`), freeze what a build allocated away from the cyclic
garbage collector (:func:`dtc.compiler.api.no_gc_pauses`, :func:`dtc.compiled.schema.load_graph_json`)
and end without tearing its objects down (:func:`dtc.cli.base.finish`). A long-running process —
the language server, ``dtc lint --watch``, a test runner — must do none of these: it has threads
a fork would strand, and frozen garbage would never be collected.

:class:`RunMode` says which of these a piece of work may do; :func:`current` is the mode in force
and :func:`running` puts one in force for a block (``with running(ONE_SHOT): main()``). It is a
context variable, so the mode belongs to the block that set it: when the block ends the previous
mode is back, and a thread started elsewhere sees the default, :data:`LONG_RUNNING`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class RunMode:
    """What work done in this mode may do."""

    #: Read a large book's entries, and build its graph, on two cores (a forked child).
    parallel: bool = False
    #: Freeze what a build or a load allocated (:func:`gc.freeze`): the collector never walks it again.
    freeze: bool = False
    #: End the process at once when the command's output is written (no tear-down of the book).
    quick_exit: bool = False
    #: What the reading child reads ahead of the compiler (``dtc compile``: an entry's effects as
    #: JSON, or None where the entry's text alone does not decide them; see
    #: :class:`dtc.compiler.parallel.Ahead`). None: nothing is read ahead.
    read_ahead: Callable[[str], str | None] | None = None


#: A long-running process (the language server, ``dtc lint --watch``, tests): the default.
LONG_RUNNING = RunMode()
#: The installed ``dtc`` command (:func:`dtc.cli.base.run`).
ONE_SHOT = RunMode(parallel=True, freeze=True, quick_exit=True)

_CURRENT: ContextVar[RunMode] = ContextVar("dtc_run_mode", default=LONG_RUNNING)


def current() -> RunMode:
    """The mode in force here."""
    return _CURRENT.get()


@contextmanager
def running(mode: RunMode) -> Iterator[RunMode]:
    """Put ``mode`` in force for the block; the previous mode is back when it ends."""
    token = _CURRENT.set(mode)
    try:
        yield mode
    finally:
        _CURRENT.reset(token)
