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

Building the compiled graph's entries, and reading their effects, are shared the same way by
:func:`halves`, except that the two processes work from both ends until they meet, so that
neither waits for the other. :func:`written_halves` does the same for items that are bytes to be
written with a separator between them (``dtc compile``'s entries, into the file that replaces
its output): each process writes its own, the child as it builds them.

Under ``dtc compile`` the child that read the second half does not end once its entries are
sent: it reads the book's effects ahead, from the last entry, while this process finishes the
parse and lints the book (:class:`Ahead`).

Only work done in a run mode that allows it (:attr:`dtc.runmode.RunMode.parallel`: the one-shot
``dtc`` command's) forks: a long-running process with threads (the language server) must not,
and the tests allow it where they check it. The progress display's threads do not stop it (see
:mod:`dtc.forking`); any other thread does. ``DTC_PARALLEL=0`` in the environment turns it off.
"""

from __future__ import annotations

import marshal
import mmap
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from functools import partial
from typing import IO, Any

from dtc import forking, runmode
from dtc.compiler.model import Choice, CreatureGroup, Document, Entry, ProseExit
from dtc.diagnostics import Span
from dtc.fileio import pwrite_all

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
        runmode.current().parallel
        and count >= MIN_ENTRIES
        and hasattr(os, "fork")
        and os.environ.get("DTC_PARALLEL", "1") != "0"
        and forking.alone()  # forking beside other threads could leave the child waiting on their locks
        and cores() >= 2
    )


def read_entries(
    doc: Document, source: str, starts: Starts, count: int, body_starts: Starts, read: Reader,
    text_of: Callable[[int], str],
) -> list[Entry]:
    """All ``count`` entries, the second half read by a child process (see the module doc).

    ``read(lo, hi)`` reads entries as a serial parse would, adding what it finds beyond the
    entries (bad stat blocks, hazard lines) to ``doc``; ``body_starts[k]`` is where entry
    ``k``'s text begins in ``source``; ``text_of(k)`` is entry ``k``'s text as ``read`` reads it
    (what :class:`Ahead` reads effects from).
    """
    import tempfile  # here, not at the top: a book too small for this never pays for it

    split = max(1, min(count - 1, round(count * PARENT_SHARE)))
    ahead = runmode.current().read_ahead
    later: Ahead | None = None
    with ExitStack() as stack:
        try:
            spool = stack.enter_context(tempfile.TemporaryFile())
            if ahead is not None:
                later = Ahead(ahead)
                stack.callback(_unless_kept, doc, later)
            parent = os.getpid()
            pid = forking.fork()
        except OSError:  # no temporary file, no pipe, or no second process: read here
            return read(0, count)
        if pid == 0:  # the child: never returns
            _child(doc, spool, split, count, read, later, text_of, parent)
        reaped = False  # (a reaped child's number may be another process's by now: never signalled)
        try:
            entries = read(0, split)
            if later is not None:  # the child goes on after its entries: wait for them only
                sent = later.sent(pid)
                rest = _receive(doc, source, starts, spool, split, count, body_starts) if sent else None
                if rest is not None:  # the child reads ahead until the graph is built (Ahead.collect)
                    doc.ahead = later
            else:
                try:
                    _, status = os.waitpid(pid, 0)
                except ChildProcessError:
                    status = -1
                reaped = True
                rest = _receive(doc, source, starts, spool, split, count, body_starts) if status == 0 else None
        except BaseException:  # (a stop, or the reading here failed): the child is stopped and reaped first
            if not reaped:
                _end_child(pid)
            raise
    return entries + (rest if rest is not None else read(split, count))


def _end_child(pid: int) -> None:
    """Stop child ``pid`` at once (SIGKILL: it holds nothing of the parent's to clean up, its files
    are unlinked temporaries) and reap it, if it has not been reaped already."""
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


def _child(doc: Document, spool: IO[bytes], lo: int, hi: int, read: Reader, later: Ahead | None,
           text_of: Callable[[int], str], parent: int) -> None:
    import pickle

    status = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C ends the child quietly
        bad, hazards = len(doc.bad_statblocks), len(doc.hazards)
        for start in range(lo, hi, CHUNK):
            if os.getppid() != parent:  # the parent was killed (SIGKILL): no one to read for
                os._exit(1)
            _write(spool, [encode(e) for e in read(start, min(hi, start + CHUNK))])
        _write(spool, (_END, pickle.dumps((doc.bad_statblocks[bad:], doc.hazards[hazards:]))))
        spool.flush()
        if later is not None:
            later.read_ahead(hi, text_of, {d.entry_index for d in doc.directives})
        status = 0
    finally:  # no clean-up of the parent's state, no atexit handlers, no traceback
        os._exit(status)


def _unless_kept(doc: Document, later: Ahead) -> None:
    """When :func:`read_entries` ends: stop the child unless it was kept reading ahead."""
    if doc.ahead is not later:
        later.collect()


class Ahead:
    """What the reading child of :func:`read_entries` reads ahead, once its entries are sent.

    After sending its entries, the child would sit idle while this process reads the rest of
    its share, rebuilds the child's entries and resolves the book (a tenth of a second at
    10,000 entries, more than a second at 100,000), then lints it (``dtc compile`` lints before
    it builds the graph when this child is reading ahead). When ``dtc compile`` parses in a run
    mode with a ``read_ahead`` (:attr:`dtc.runmode.RunMode.read_ahead`), the child spends that
    time on what the compiled graph takes from an entry's text alone (its effects, as JSON), the
    book's entries from the last towards the first (its own, then this process's: an entry's
    text is a slice of the source), until this
    process asks for them (:meth:`collect`, when the graph is built). It then stops after the
    entry in hand and sends what it has, through a second unlinked temporary file.

    Only what an entry's text alone decides is read ahead: ``read_ahead`` returns None for any
    other entry (one whose effects name creatures, which depend on every stat block of the
    book), and entries that hold a directive are left alone (the parser edits their text after
    reading). Whatever the child reads ahead, the graph is the same: an entry it did not reach,
    or any entry at all if it fails, is read when the graph is built, as it always was.
    """

    def __init__(self, ahead: Callable[[str], str | None]) -> None:
        import tempfile

        self.ahead = ahead  # the run mode's read_ahead when the child was started
        self.parent = os.getpid()
        self.pid = 0
        self._taken: dict[int, str] | None = None
        self._ready_w = -1
        with ExitStack() as opened:  # all or nothing
            self.spool = opened.enter_context(tempfile.TemporaryFile())
            self.stop = opened.enter_context(mmap.mmap(-1, 1))  # set to 1: stop reading ahead
            ready, self._ready_w = os.pipe()
            opened.callback(self._close_write_end)
            self.ready = opened.enter_context(open(ready, "rb", buffering=0))
            opened.pop_all()

    def _close_write_end(self) -> None:
        if self._ready_w >= 0:
            os.close(self._ready_w)
            self._ready_w = -1

    def sent(self, pid: int) -> bool:
        """In this process: wait until child ``pid`` has sent its entries (False: it ended first)."""
        self.pid = pid
        self._close_write_end()
        try:
            return self.ready.read(1) == b"1"
        except OSError:
            return False

    def read_ahead(self, count: int, text_of: Callable[[int], str], skip: set[int | None]) -> None:
        """In the child: tell the parent the entries are sent, then read ahead from the last of
        the book's ``count`` entries (``text_of(k)``: entry ``k``'s text) towards the first."""
        os.write(self._ready_w, b"1")
        ahead = self.ahead
        read: list[tuple[int, str]] = []
        for k in range(count - 1, -1, -1):
            if self.stop[0] or os.getppid() != self.parent:  # asked to stop, or the parent is gone
                break
            if k not in skip and (value := ahead(text_of(k))) is not None:
                read.append((k, value))
        _write(self.spool, read)
        self.spool.flush()

    def collect(self) -> dict[int, str]:
        """In this process: stop the child and take what it read ahead, by entry index (once;
        then empty). The pipe and files are closed."""
        if self._taken is not None:
            return {}
        self._taken = taken = {}
        try:
            self.stop[0] = 1
            _, status = os.waitpid(self.pid, 0) if self.pid else (0, -1)
            if status == 0:
                for part in _frames(self.spool):
                    taken.update(part)
        except (OSError, EOFError, ValueError, TypeError):
            taken.clear()
        finally:
            self.spool.close()
            self.stop.close()
            self.ready.close()
            self._close_write_end()
        return taken


def _write(spool: IO[bytes], data: Any) -> None:
    """One frame: its length, then the data (``marshal.load`` on a file is ten times slower
    than ``marshal.loads`` on bytes)."""
    frame = marshal.dumps(data)
    spool.write(len(frame).to_bytes(8, "little"))
    spool.write(frame)


def _frames(spool: IO[bytes]) -> Iterator[Any]:
    """What :func:`_write` wrote to ``spool``, frame by frame (a frame cut short raises
    :class:`EOFError` or :class:`ValueError`)."""
    spool.seek(0)
    frames = memoryview(spool.read())
    at = 0
    while at < len(frames):
        size = int.from_bytes(frames[at : at + 8], "little")
        yield marshal.loads(frames[at + 8 : at + 8 + size])
        at += 8 + size


def _receive(
    doc: Document, source: str, starts: Starts, spool: IO[bytes], lo: int, hi: int, body_starts: Starts
) -> list[Entry] | None:
    """The child's entries, or ``None`` when what it wrote is incomplete."""
    import pickle

    entries: list[Entry] = []
    try:
        for chunk in _frames(spool):
            if isinstance(chunk, tuple) and chunk[0] == _END:
                bad, hazards = pickle.loads(chunk[1])
                break
            for data in chunk:
                entries.append(decode(data, source, starts, body_starts[lo + len(entries)]))
        else:
            return None  # no end frame
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
    state = [(i, c.condition, c.roll, c.changes) for i, c in enumerate(e.choices)
             if c.condition is not None or c.roll is not None or c.changes]
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
    state: list[tuple[int, Any, Any, Any]] = []
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
    for i, condition, roll, choice_changes in state:
        entry.choices[i].condition = condition
        entry.choices[i].roll = roll
        entry.choices[i].changes = choice_changes
    return entry


def halves(count: int, build: Callable[[int, int], list[Any]],
           meanwhile: Callable[[], object] | None = None) -> list[Any]:
    """``build(0, count)``, shared with a forked child when :func:`wanted`; ``meanwhile()``, if
    given, runs once in this process first, while the child starts on the items from the back.

    ``meanwhile`` is for work this process must do alone (``dtc compile`` lints the book there):
    the child builds while it runs, so both cores stay busy. Without a child it runs before the
    items are built. If it raises, the child is stopped and reaped before the error goes on.

    ``build(lo, hi)`` returns one item per index from ``lo`` to ``hi`` (the same items however
    the range is cut), made of what :mod:`marshal` writes (dicts, lists, strings, numbers,
    None, booleans), which come back equal, key order included.

    The two processes share the work rather than halve it: this one builds from the front,
    the child from the back, a part of :func:`_step` items at a time, until they meet. Each
    says how far it has come in a few bytes of memory both see, and looks at how far the
    other has come before each part. So when one core is busier (with the other process's
    work, or the machine's), the other builds more, and neither waits for the other by more
    than a part. A look may see an old number, or the two may build the part where they meet
    both; neither matters: this process keeps its own items up to where it stopped, takes the
    child's from there, and builds any it finds missing itself. The child sends its items
    back through an unlinked temporary file, each part as it is built; if it cannot be
    started, fails, or sends back anything else, this process builds them itself, so the
    result is always the same.
    """
    if not wanted(count):
        return _here(count, build, meanwhile)
    import tempfile

    with tempfile.TemporaryFile() as spool:
        shared = _share(count, build, meanwhile, spool, lambda lo, items: _write(spool, items),
                        lambda start: _write(spool, (_END, start)))
        if shared is None:
            return _here(count, build, meanwhile)
        mine, end, sent = shared
        theirs = _parts(spool, count) if sent else None
    if theirs is None:
        return mine + build(end, count)
    begun = count - len(theirs)
    if begun > end:  # a gap between the two (a look saw a torn number): built here
        return mine + build(end, begun) + theirs
    return mine + theirs[end - begun:]  # where both built, this process's items are kept


def _share(
    count: int, build: Callable[[int, int], list[Any]], meanwhile: Callable[[], object] | None, spool: IO[bytes],
    send: Callable[[int, list[Any]], None], finish: Callable[[int], None],
) -> tuple[list[Any], int, bool] | None:
    """The two processes of :func:`halves` at work: the child sends each part it builds
    (``send(lo, items)``, the last first), then where it began (``finish(start)``), to
    ``spool``; this process runs ``meanwhile()`` and builds from the front. Returns this
    process's items, where they end, and whether the child ended well (then ``spool`` holds
    what it sent); None when no child could be started (``meanwhile`` has not run)."""
    step = _step(count)
    # Offsets 0 and 4: how far this process has built (from 0), where the child has built from (to count).
    shared = mmap.mmap(-1, 8)
    shared[0:8] = _pair(0, count)
    with shared:
        try:
            pid = forking.fork()
        except OSError:
            return None
        if pid == 0:  # the child: never returns
            status = 1
            try:
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                start = count
                while (front := _read(shared, 0)) < start:
                    lo = max(start - step, front)
                    send(lo, build(lo, start))  # each part sent as it is built, the last first
                    start = lo
                    shared[4:8] = start.to_bytes(4, "little")
                finish(start)
                spool.flush()
                status = 0
            finally:  # no clean-up of the parent's state, no atexit handlers, no traceback
                os._exit(status)
        mine: list[Any] = []
        end = 0
        try:
            if meanwhile is not None:
                meanwhile()
            while end < (back := _read(shared, 4)):
                hi = min(end + step, back)
                mine += build(end, hi)
                end = hi
                shared[0:4] = end.to_bytes(4, "little")
        except BaseException:  # (a stop, or ``meanwhile`` failed): the child is stopped and reaped first
            _end_child(pid)
            raise
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:
            status = -1
    return mine, end, status == 0


def written_halves(fd: int, at: int, count: int, build: Callable[[int, int], list[bytes]], sep: bytes,
                   meanwhile: Callable[[], object] | None = None,
                   aside: Callable[[], object] | None = None) -> int:
    """``build(0, count)``'s items (bytes) with ``sep`` between them, written to ``fd`` (a regular
    file, :func:`dtc.fileio.replacing`'s) from offset ``at``; returns where they end.

    Shared with a forked child as :func:`halves` shares them, with the ends swapped: the child
    builds from the front and writes each part where it belongs as soon as it is built (its
    offset is known: the items before it are the child's own), and this process builds from the
    back, keeping its parts until the child says its items are written; they follow its last
    one. So the child's items never pass through a second file nor this process (at 100,000
    entries, copying them from a file of the child's took a quarter of a second with nothing
    beside it).

    ``aside()``, if given, is work that sends nothing back (``dtc compile`` hashes the source
    and writes the digest into the file): the child does it once its items are written, while
    this process writes its own; this process does it where no child ran or the child did not
    end well. ``meanwhile()`` runs here as in :func:`halves`.

    If the child cannot be started, or dies before it says its items are written, this process
    builds and writes every item itself: the file then holds the same bytes (each item lies at
    the same offset whoever writes it).
    """
    if not wanted(count):
        end = pwrite_all(fd, _separated(_here(count, build, meanwhile), sep, False), at)
        if aside is not None:
            aside()
        return end
    step = _step(count)
    # Offsets 0, 4 and 8: how far the child has built and written (from 0), where this process has
    # built from (to count), and where the child's items end in the file (from ``at``).
    shared = mmap.mmap(-1, 16)
    shared[0:8] = _pair(0, count)
    with shared:
        said, say = os.pipe()  # one byte from the child: its items are written
        parent = os.getpid()
        try:
            pid = forking.fork()
        except OSError:
            pid = -1
        if pid == 0:  # the child: never returns
            status = 1
            try:
                os.close(said)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                front, end = 0, at
                while front < (back := _read(shared, 4)):
                    if os.getppid() != parent:  # this process was killed (SIGKILL): no one to write for
                        os._exit(1)
                    hi = min(front + step, back)
                    end = pwrite_all(fd, _separated(build(front, hi), sep, front > 0), end)
                    front = hi
                    shared[8:16] = (end - at).to_bytes(8, "little")
                    shared[0:4] = front.to_bytes(4, "little")
                os.write(say, b"w")
                if aside is not None:
                    aside()
                status = 0
            finally:  # no clean-up of the parent's state, no atexit handlers, no traceback
                os._exit(status)
        os.close(say)
        try:
            if meanwhile is not None:
                meanwhile()
            mine: list[list[bytes]] = []
            back = count
            while back > (front := _read(shared, 0) if pid > 0 else 0):
                lo = max(back - step, front)
                mine.append(build(lo, back))
                back = lo
                shared[4:8] = back.to_bytes(4, "little")
            written = pid > 0 and os.read(said, 1) == b"w"  # else it died first (end of file)
        except BaseException:  # (a stop, or ``meanwhile`` failed): the child is stopped and reaped first
            if pid > 0:
                _end_child(pid)
            raise
        finally:
            os.close(said)
        # (read whole, not through a look: the child has ended its writing, or died)
        front, end = int.from_bytes(shared[0:4], "little"), at + int.from_bytes(shared[8:16], "little")
    if not written or not 0 <= front <= count or end < at:
        front, end = 0, at  # what the child wrote is not known to be whole: all of it again, here
    items = [item for part in reversed(mine) for item in part]  # from ``back`` on
    if front < back:  # a gap (the child failed, or a look saw an old number): built here
        items[:0] = build(front, back)
    else:  # where both built, the child's items are in the file already
        del items[: front - back]
    if items:
        end = pwrite_all(fd, _separated(items, sep, front > 0), end)
    status = -1
    if pid > 0:
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:
            status = -1
    if status != 0 and aside is not None:
        aside()
    return end


def _separated(items: list[bytes], sep: bytes, lead: bool) -> list[bytes]:
    """``items`` with ``sep`` between them, and before the first with ``lead``."""
    parts = [sep] * (2 * len(items) - (not lead)) if items else []
    parts[1 if lead else 0 :: 2] = items
    return parts


def _here(count: int, build: Callable[[int, int], list[Any]], meanwhile: Callable[[], object] | None) -> list[Any]:
    """:func:`halves` with no child: ``meanwhile()``, then every item built here."""
    if meanwhile is not None:
        meanwhile()
    return build(0, count)


def _parts(spool: IO[bytes], count: int) -> list[Any] | None:
    """The items the child of :func:`halves` sent, in order (it sent its parts last first, then
    where it began), or None when what it wrote is incomplete."""
    parts: list[list[Any]] = []
    try:
        for part in _frames(spool):
            if isinstance(part, tuple):
                begun = part[1] if len(part) == 2 and part[0] == _END else None
                break
            if not isinstance(part, list):
                return None
            parts.append(part)
        else:
            return None  # no end frame
    except (EOFError, ValueError, TypeError, IndexError):
        return None
    items = [item for part in reversed(parts) for item in part]
    return items if type(begun) is int and 0 <= begun == count - len(items) else None


def _step(count: int) -> int:
    """Items built between two looks at how far the other process has come: small enough that
    neither waits long for the other at the end (a few milliseconds of a compile), large
    enough that the looks cost nothing."""
    return max(16, min(256, count // 64))


def _pair(front: int, back: int) -> bytes:
    return front.to_bytes(4, "little") + back.to_bytes(4, "little")


def _read(shared: mmap.mmap, at: int) -> int:
    return int.from_bytes(shared[at:at + 4], "little")
