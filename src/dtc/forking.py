"""Forking a child that does part of this process's work, beside the progress display's threads.

A forked child holds only the thread that forked it; every lock another thread held at that
moment stays held in the child for good. So dtc forks only when no other thread is running,
except threads marked :func:`harmless`: the progress display's (the timer that waits before
showing it, and the thread that then redraws it). Outside :data:`lock` they write to the
terminal and nothing else, and a child never writes there; what could leave a child waiting
(importing a module takes a lock per module) they do holding :data:`lock`, which :func:`fork`
holds while it forks.

Before this, any other thread at all kept the work on one process, and the progress display
runs only on a terminal: an author at a terminal got one core where a script got two.
"""

from __future__ import annotations

import os
import threading
import warnings
import weakref

#: Held by :func:`fork`, and by a harmless thread while it does what a child could wait on.
lock = threading.Lock()
_harmless: weakref.WeakSet[threading.Thread] = weakref.WeakSet()


def harmless(thread: threading.Thread) -> None:
    """Mark ``thread`` as one a forked child never waits on (see the module doc)."""
    _harmless.add(thread)


def alone() -> bool:
    """True when this is the main thread, and every other thread running is :func:`harmless`."""
    main = threading.main_thread()
    if threading.current_thread() is not main:
        return False
    return all(t is main or t in _harmless for t in threading.enumerate())


def fork() -> int:
    """:func:`os.fork`, never while a harmless thread holds :data:`lock`.

    From Python 3.12, forking beside any thread warns that the child may deadlock; beside the
    harmless threads it cannot (see the module doc), so that warning is not passed on."""
    with lock, warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=DeprecationWarning, message=r".*fork\(\)")
        return os.fork()
