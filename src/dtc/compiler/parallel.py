"""Read a large book's entries on two cores.

Reading entries is most of a lint (two thirds at 10,000 entries), and each entry is read on
its own. For a book of at least :data:`MIN_ENTRIES` entries, :func:`read_entries` forks a
child that reads the second half while this process reads the first. The child sends its
entries back in a compact form — numbers, offsets and short strings in tuples, written with
:mod:`marshal` chunk by chunk to an unlinked temporary file — and drops each chunk once
written, so its own memory stays small; the parent then rebuilds the objects, slicing every
text from its own copy of the source. Rebuilding costs a sixth of reading.

The result is the same as reading every entry here, object for object: if the child cannot be
started, dies, or sends back less than it should, the parent reads those entries itself. The
few rare parts of an entry (stat blocks, zones, hazard lines) travel pickled.

Only the one-shot ``dtc`` command turns this on (:data:`enabled`): a long-running process with
threads (the language server) must not fork, and the tests turn it on where they check it.
``DTC_PARALLEL=0`` in the environment turns it off.
"""

from __future__ import annotations

import marshal
import os
import signal
import threading
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from functools import partial
from typing import IO, Any

from dtc.compiler.model import Choice, CreatureGroup, Document, Entry, ProseExit
from dtc.diagnostics import Span

#: Set by the installed ``dtc`` command (see :func:`dtc.cli.base.run`).
enabled = False
#: Below this many entries the parse takes a tenth of a second or less, and what a second
#: process saves there is lost in the machine's noise (the fork itself takes 1–3 ms; each of
#: the child's entries costs about a quarter of its reading again, in instructions, to encode
#: and to rebuild).
MIN_ENTRIES = 1500
#: Entries the child writes at a time (its memory holds one chunk).
CHUNK = 1000
#: The share of the entries the parent reads itself: it also rebuilds the child's, while the
#: child also encodes them; the two extras cost about the same.
PARENT_SHARE = 0.55

#: Reads entries ``lo`` to ``hi`` (indices into the book's entry heads), in order, into the document.
Reader = Callable[[int, int], list[Entry]]
#: Offsets into the source: where entry ``k``'s text begins, or where line ``k`` does.
Starts = Sequence[int]

_span: Callable[[Any], Span] = partial(tuple.__new__, Span)
_END = "end"


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def wanted(count: int) -> bool:
    """Whether to read ``count`` entries on two cores."""
    return (
        enabled
        and count >= MIN_ENTRIES
        and hasattr(os, "fork")
        and os.environ.get("DTC_PARALLEL", "1") != "0"
        and threading.active_count() == 1  # forking beside other threads can deadlock the child
        and cores() >= 2
    )


def read_entries(
    doc: Document, source: str, starts: Starts, count: int, body_starts: Starts, read: Reader
) -> list[Entry]:
    """All ``count`` entries, the second half read by a child process (see the module doc).

    ``read(lo, hi)`` reads entries as a serial parse would, adding what it finds beyond the
    entries (bad stat blocks, hazard lines) to ``doc``; ``body_starts[k]`` is where entry
    ``k``'s text begins in ``source``.
    """
    import tempfile  # here, not at the top: a book too small for this never pays for it

    split = max(1, min(count - 1, round(count * PARENT_SHARE)))
    with ExitStack() as stack:
        try:
            spool = stack.enter_context(tempfile.TemporaryFile())
            pid = os.fork()
        except OSError:  # no temporary file, or no second process: read here
            return read(0, count)
        if pid == 0:  # the child: never returns
            _child(doc, spool, split, count, read)
        entries = read(0, split)
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:
            status = -1
        rest = _receive(doc, source, starts, spool, split, count, body_starts) if status == 0 else None
    return entries + (rest if rest is not None else read(split, count))


def _child(doc: Document, spool: IO[bytes], lo: int, hi: int, read: Reader) -> None:
    import pickle

    status = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C ends the child quietly
        bad, hazards = len(doc.bad_statblocks), len(doc.hazards)
        for start in range(lo, hi, CHUNK):
            _write(spool, [encode(e) for e in read(start, min(hi, start + CHUNK))])
        _write(spool, (_END, pickle.dumps((doc.bad_statblocks[bad:], doc.hazards[hazards:]))))
        spool.flush()
        status = 0
    finally:  # no clean-up of the parent's state, no atexit handlers, no traceback
        os._exit(status)


def _write(spool: IO[bytes], data: Any) -> None:
    """One frame: its length, then the data (``marshal.load`` on a file is ten times slower
    than ``marshal.loads`` on bytes)."""
    frame = marshal.dumps(data)
    spool.write(len(frame).to_bytes(8, "little"))
    spool.write(frame)


def _receive(
    doc: Document, source: str, starts: Starts, spool: IO[bytes], lo: int, hi: int, body_starts: Starts
) -> list[Entry] | None:
    """The child's entries, or ``None`` when what it wrote is incomplete."""
    import pickle

    entries: list[Entry] = []
    try:
        spool.seek(0)
        frames = memoryview(spool.read())
        at = 0
        while True:
            size = int.from_bytes(frames[at : at + 8], "little")
            chunk = marshal.loads(frames[at + 8 : at + 8 + size])
            at += 8 + size
            if isinstance(chunk, tuple) and chunk[0] == _END:
                bad, hazards = pickle.loads(chunk[1])
                break
            for data in chunk:
                entries.append(decode(data, source, starts, body_starts[lo + len(entries)]))
    except (EOFError, ValueError, TypeError, IndexError, pickle.UnpicklingError):
        return None
    if len(entries) != hi - lo:
        return None
    doc.bad_statblocks.extend(bad)
    doc.hazards.extend(hazards)
    return entries


def _t(span: Span | None) -> tuple[int, ...] | None:
    return None if span is None else tuple(span)


def encode(e: Entry) -> tuple[Any, ...]:
    """An entry as marshal-able data (its text and its choices' text are offsets: the parent has the source)."""
    choices = [
        (
            c.label_to, len(c.text), c.ability, c.difficulty, c.success, c.failure, c.error, c.label_from,
            c.label_text, None if c.spans is None else tuple(map(_t, c.spans)),
        )
        for c in e.choices
    ]
    exits = [(p.target, p.phrase, tuple(p.span)) for p in e.prose_exits]
    mentions = [(m.count, m.name, tuple(m.span)) for m in e.mentions]
    fights = [next(i for i, m in enumerate(e.mentions) if m is g) for g in e.fight_mentions]
    rare = None
    state = [(i, c.condition, c.roll) for i, c in enumerate(e.choices) if c.condition is not None or c.roll is not None]
    if e.creatures or e.zone is not None or e.hazard_refs or state or e.changes or e.effect_errors or e.ending_kind:
        import pickle

        rare = pickle.dumps((e.creatures, e.zone, e.zone_span, e.hazard_refs, state, e.changes, e.effect_errors,
                             e.ending_kind))
    return (
        e.number, tuple(e.span), len(e.text), e.end_line, choices, exits, [tuple(s) for s in e.returns],
        e.ending, mentions, fights, rare,
    )


def decode(
    data: tuple[Any, ...], source: str, starts: Sequence[int], body_start: int, span_: Callable[[Any], Span] = _span
) -> Entry:
    """The entry :func:`encode` wrote, its text sliced from ``source`` (whose lines start at ``starts``)."""
    number, span, length, end_line, choices, exits, returns, ending, mentions, fights, rare = data
    groups = [CreatureGroup(count, name, span_(sp)) for count, name, sp in mentions]
    state: list[tuple[int, Any, Any]] = []
    creatures, zone, zone_span, hazard_refs, changes, effect_errors, ending_kind = [], None, None, [], [], [], None
    if rare is not None:
        import pickle

        creatures, zone, zone_span, hazard_refs, state, changes, effect_errors, ending_kind = pickle.loads(rare)
    entry = Entry(
        number,
        span_(span),
        source[body_start : body_start + length],
        end_line,
        [
            Choice(
                source[at : at + n], ability, difficulty, success, failure, error, source, label_from, at,
                label_text, None if spans is None else tuple(None if sp is None else span_(sp) for sp in spans), starts,
            )
            for at, n, ability, difficulty, success, failure, error, label_from, label_text, spans in choices
        ],
        [ProseExit(target, phrase, span_(sp)) for target, phrase, sp in exits],
        [span_(sp) for sp in returns],
        ending,
        creatures,
        groups,
        [groups[i] for i in fights],
        zone,
        zone_span,
        hazard_refs,
        changes,
        effect_errors,
        ending_kind,
    )
    for i, condition, roll in state:
        entry.choices[i].condition = condition
        entry.choices[i].roll = roll
    return entry


def halves(count: int, build: Callable[[int, int], list[Any]], share: float = 0.5) -> list[Any]:
    """``build(0, count)``, with the second part built by a forked child when :func:`wanted`.

    ``build(lo, hi)`` returns one item per index from ``lo`` to ``hi``, made of what
    :mod:`marshal` writes (dicts, lists, strings, numbers, None, booleans), which come back equal,
    key order included. The child sends its part back through an unlinked temporary file; if it
    cannot be started, fails, or sends back anything else, this process builds that part itself,
    so the result is always the same. ``share`` is the part this process builds.
    """
    if not wanted(count):
        return build(0, count)
    import tempfile

    split = max(1, min(count - 1, int(count * share)))
    with tempfile.TemporaryFile() as spool:
        try:
            pid = os.fork()
        except OSError:
            return build(0, count)
        if pid == 0:  # the child: never returns
            status = 1
            try:
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                spool.write(marshal.dumps(build(split, count)))
                spool.flush()
                status = 0
            finally:  # no clean-up of the parent's state, no atexit handlers, no traceback
                os._exit(status)
        mine = build(0, split)
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:
            status = -1
        theirs: Any = None
        if status == 0:
            try:
                spool.seek(0)
                theirs = marshal.loads(spool.read())
            except (EOFError, ValueError, TypeError):
                theirs = None
        if not isinstance(theirs, list) or len(theirs) != count - split:
            theirs = build(split, count)
    result: list[Any] = mine + theirs
    return result
