"""Writing files so that nothing is lost and nothing is replaced that must not be.

Every file dtc writes goes through this module (reading goes through :mod:`dtc.fileread`):

- ``-`` is standard output.
- A symbolic link is followed and its target written; the link stays a link.
- A character device or a named pipe (a terminal, ``/dev/null``, a FIFO) is written directly,
  as a shell's ``>`` would: never replaced, never truncated, never backed up. Directories, block
  devices and sockets are refused.
- A regular file is written atomically: a temporary file in the same folder, flushed to disk
  (``fsync``), then renamed over the target, so a crash leaves the old file or the new one,
  never half of one. An existing file keeps its permissions, its owner and its group; a file
  that is read-only, or whose owner or group dtc could not keep, is refused rather than replaced.
- ``inputs``: an output that is the same file as one of the command's inputs (same device and
  inode, through links, ``-o .`` or any other name) is refused: :class:`OutputError`, exit 2.
  Commands that rewrite their input on purpose (``renumber``, ``lint --fix``) leave it out and
  use :func:`write_source` inside :func:`rewriting`.
- ``backup=True``: once the new file is complete, a complete copy of the old one is written to
  ``FILE~`` atomically in its turn (never a second name of the file), then the new file is
  renamed into place: an earlier backup is only replaced by a finished one, in a write that
  completes.

Errors name the output as given, never the temporary file.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any


class OutputError(OSError):
    """An output dtc will not or cannot write; ``filename`` is the output as given."""

    def __init__(self, path: str | Path, message: str, code: int = 0) -> None:
        super().__init__(code, message, str(path))

    def __str__(self) -> str:
        return f"{self.filename}: error: {self.strerror}"


@dataclass(frozen=True, slots=True)
class Written:
    """What :func:`write_bytes` did: the file written and the backup kept (if any)."""

    path: str
    target: Path | None
    backup: Path | None = None
    direct: bool = False


def _reason(exc: OSError) -> str:
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.ENOSPC:
        return "no space left on the device"
    if exc.errno == errno.EROFS:
        return "the file system is read-only"
    if exc.errno == errno.ENOENT:
        return "no such folder"
    if exc.errno == errno.ENOTDIR:
        return "a part of the path is not a folder"
    if exc.errno == errno.EISDIR:
        return "is a directory"
    return exc.strerror or str(exc)


def identity(path: str | Path) -> tuple[int, int] | None:
    """(device, inode) of the regular file ``path`` names, links followed; ``-`` is standard input.

    None when there is no such file, or it is not a regular file (a device, a pipe).
    """
    try:
        info = os.fstat(sys.stdin.fileno()) if str(path) == "-" else os.stat(path)
    except (OSError, ValueError, AttributeError):
        return None
    if not stat.S_ISREG(info.st_mode):  # a terminal, a pipe: nothing an output could overwrite
        return None
    return info.st_dev, info.st_ino


def refuse_inputs(outputs: Iterable[str | Path], inputs: Iterable[str | Path | None]) -> None:
    """Raise :class:`OutputError` when an output is the same file as an input."""
    known: dict[tuple[int, int], str] = {}
    for item in inputs:
        if item is None:
            continue
        key = identity(item)
        if key is not None:
            known.setdefault(key, "standard input" if str(item) == "-" else str(item))
    if not known:
        return
    for output in outputs:
        if str(output) == "-":
            continue
        key = identity(output)
        if key is not None and key in known:
            source = known[key]
            same = "" if os.path.abspath(output) == os.path.abspath(source) else f" (it is {source})"
            raise OutputError(output, f"is an input of this command{same}; dtc does not overwrite its "
                                      "input: choose another output")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


#: What :func:`write_bytes` writes: bytes, or the parts they are joined from, in order (written
#: in turn, never joined: a large output's parts need no second copy of it in memory).
Data = bytes | list[bytes]


def _iov_max() -> int:
    """How many buffers one ``writev`` may take (POSIX promises at least 16; Linux takes 1,024)."""
    try:
        return max(16, min(1024, os.sysconf("SC_IOV_MAX")))
    except (AttributeError, ValueError, OSError):
        return 16


_IOV_MAX = _iov_max()


def _write_all(fd: int, data: Data) -> None:
    """All of ``data``: bytes, or parts written in turn (``os.writev`` of up to :data:`_IOV_MAX`
    at a time; a call cut short is finished from where it stopped, as a short ``write`` is)."""
    if isinstance(data, bytes):
        _write_view(fd, memoryview(data))
        return
    writev = getattr(os, "writev", None)
    at, count = 0, len(data)
    while at < count:
        if writev is None:  # pragma: no cover - every POSIX system has writev
            _write_view(fd, memoryview(data[at]))
            at += 1
            continue
        batch = data[at : at + _IOV_MAX]
        done = writev(fd, batch)
        for part in batch:
            at += 1
            size = len(part)
            if done >= size:
                done -= size
                continue
            _write_view(fd, memoryview(part)[done:])  # the rest of the part the call cut short
            break


def _write_view(fd: int, view: memoryview) -> None:
    while view:
        done = os.write(fd, view)
        view = view[done:]


def _check_existing(name: str, info: os.stat_result) -> bool:
    """True for a file written directly (character device, pipe); raise for what is refused."""
    mode = info.st_mode
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return True
    if stat.S_ISDIR(mode):
        raise OutputError(name, "is a directory")
    if not stat.S_ISREG(mode):
        raise OutputError(name, "is a block device or socket; dtc writes only regular files, character "
                                "devices and pipes")
    if not mode & 0o222 or not os.access(name, os.W_OK):
        raise OutputError(name, "is read-only; dtc does not replace a read-only file (make it writable "
                                "first, or choose another output)")
    return False


def _direct(name: str, target: Path, data: Data) -> Written:
    """Write to a character device or a pipe as it is: no truncation, no rename, no backup."""
    try:
        fd = os.open(target, os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise OutputError(name, _reason(exc), exc.errno or 0) from None
    try:
        _write_all(fd, data)
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise OutputError(name, "the reader of the pipe went away", exc.errno) from None
        raise OutputError(name, _reason(exc), exc.errno or 0) from None
    finally:
        os.close(fd)
    return Written(name, target, None, True)


def _keep_owner(name: str, fd: int, info: os.stat_result) -> None:
    """Give the new file the old one's owner and group, or refuse to replace it.

    Another user's file is refused (replacing it would hand it to us); so is a file whose group
    we cannot give the new one (we are not in it, and are not root): it would change group, and
    its group's permissions would then be another group's.
    """
    mine = os.fstat(fd)
    if (mine.st_uid, mine.st_gid) == (info.st_uid, info.st_gid):
        return
    try:
        os.fchown(fd, info.st_uid, info.st_gid)
        return
    except PermissionError:
        pass
    if mine.st_uid != info.st_uid:
        raise OutputError(name, f"belongs to another user (uid {info.st_uid}); replacing it would change its "
                                "owner, so dtc does not")
    with contextlib.suppress(PermissionError):
        os.fchown(fd, -1, info.st_gid)
    if os.fstat(fd).st_gid != info.st_gid:
        raise OutputError(name, f"belongs to the group {_group_name(info.st_gid)}, which you are not in; "
                                "replacing it would change its group, so dtc does not (change its group first, "
                                "or write it as a member)")


def _group_name(gid: int) -> str:
    try:
        import grp

        return f"{grp.getgrgid(gid).gr_name} ({gid})"
    except (ImportError, KeyError):
        return str(gid)


class _Stops(threading.local):
    """A stop (SIGTERM, SIGHUP: see ``dtc.cli.base.ends_cleanly``) that arrives while a temporary
    is being made waits until the ``try`` that removes it is entered: raised at once, it could
    leave the new temporary behind, its name not yet known to that ``try``. Kept per thread (a
    signal's handler runs in the main thread, and reads the main thread's)."""

    def __init__(self) -> None:
        self.holding = 0
        self.pending: int | None = None

    def stop(self, code: int) -> None:
        """End with ``SystemExit(code)`` now, or as soon as no temporary is being made."""
        if self.holding:
            self.pending = code
        else:
            raise SystemExit(code)

    def let_through(self) -> None:
        self.holding -= 1
        if not self.holding and self.pending is not None:
            code, self.pending = self.pending, None
            raise SystemExit(code)


#: The one :class:`_Stops` of this process.
STOPS = _Stops()


def _temporary(name: str, folder: Path, stem: str) -> tuple[int, str]:
    """A new temporary beside the file it will become. Call with ``STOPS.holding`` raised, and call
    ``STOPS.let_through()`` first thing in the ``try`` that removes it."""
    try:
        return tempfile.mkstemp(prefix=f".{stem}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise OutputError(name, _reason(exc), exc.errno or 0) from None


def _replace(name: str, target: Path, fill: IO[bytes] | Data, info: os.stat_result | None,
             new_mode: int | None, before_replace: Callable[[], None] | None = None) -> None:
    """Write ``fill`` (bytes or their parts, or a file to copy) to a temporary beside ``target``,
    then rename it (``before_replace()`` first, once the temporary is complete)."""
    with _temporary_beside(name, target, info, new_mode, before_replace) as fd:
        try:
            if isinstance(fill, (bytes, list)):
                _write_all(fd, fill)
            else:
                with os.fdopen(os.dup(fd), "wb") as out:
                    import shutil  # here: a command that writes no backup never loads it

                    shutil.copyfileobj(fill, out, 1024 * 1024)
        except OutputError:
            raise
        except OSError as exc:
            raise OutputError(name, _reason(exc), exc.errno or 0) from None


@contextlib.contextmanager
def _temporary_beside(name: str, target: Path, info: os.stat_result | None, new_mode: int | None,
                      before_replace: Callable[[], None] | None = None) -> Iterator[int]:
    """A temporary beside ``target``, open for writing while the block runs (the block must not
    close it), with the old file's owner and permissions (``info``; None: ``new_mode``, else 0666
    less the umask); flushed to disk and renamed over ``target`` when the block ends, removed when
    it raises (what it raised goes on as it was). ``before_replace()``, if given, runs once the
    temporary is complete on disk, just before the rename; what it raises leaves ``target`` as
    it was."""
    STOPS.holding += 1
    try:
        fd, tmp = _temporary(name, target.parent, target.name)
    except BaseException:
        STOPS.let_through()
        raise
    try:
        STOPS.let_through()  # a stop from here on removes the temporary (below)
        try:
            if info is not None:
                _keep_owner(name, fd, info)
                mode = stat.S_IMODE(info.st_mode)
            else:
                mode = new_mode if new_mode is not None else 0o666 & ~_umask()
            os.fchmod(fd, mode)
        except OutputError:
            raise
        except OSError as exc:
            raise OutputError(name, _reason(exc), exc.errno or 0) from None
        yield fd
        try:
            os.fsync(fd)
            os.close(fd)
            fd = -1
        except OSError as exc:
            raise OutputError(name, _reason(exc), exc.errno or 0) from None
        if before_replace is not None:
            before_replace()
        try:
            os.replace(tmp, target)
        except OSError as exc:
            raise OutputError(name, _reason(exc), exc.errno or 0) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    finally:
        if fd != -1:
            os.close(fd)
    fsync_dir(target.parent)


@contextlib.contextmanager
def replacing(path: str | Path, *, inputs: Iterable[str | Path | None] = ()) -> Iterator[int | None]:
    """The file that will replace ``path``, as :func:`write_bytes` writes a regular file (a
    temporary beside it, with its owner and permissions), open while the block runs, for a
    command that writes its output in pieces at their offsets (``os.pwrite``), from more than
    one process (``dtc compile``: see :func:`dtc.compiler.parallel.written_halves`). When the
    block ends it is flushed to disk and renamed over ``path``; if the block raises, it is removed
    and ``path`` is left as it was. An OS error the block raises that names no file (a write to
    the temporary: a full disk) is raised as an :class:`OutputError` naming ``path``.

    Yields None, and opens nothing, where ``path`` is ``-`` or a character device or a pipe
    (written as they are, in order, not replaced): write those with :func:`write_bytes`. Refuses
    what :func:`write_bytes` refuses, with the same :class:`OutputError`.
    """
    name = str(path)
    if name == "-":
        yield None
        return
    refuse_inputs([name], inputs)
    target, info = resolve(name)
    if info is not None and _check_existing(name, info):
        yield None
        return
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(name, _reason(exc), exc.errno or 0) from None
    with _temporary_beside(name, target, info, None) as fd:
        try:
            yield fd
        except OutputError:
            raise
        except OSError as exc:
            if exc.filename is not None:
                raise
            raise OutputError(name, _reason(exc), exc.errno or 0) from None


def pwrite_all(fd: int, parts: list[bytes], offset: int) -> int:
    """Write ``parts`` in turn to ``fd`` from ``offset`` (``os.pwritev`` of up to
    :data:`_IOV_MAX` at a time; a call cut short is finished from where it stopped); return
    where they end. For a file opened by :func:`replacing`."""
    pwritev = getattr(os, "pwritev", None)
    at, count = 0, len(parts)
    while at < count:
        batch = parts[at : at + _IOV_MAX] if pwritev is not None else parts[at : at + 1]
        done = pwritev(fd, batch, offset) if pwritev is not None else os.pwrite(fd, batch[0], offset)
        for part in batch:
            size = len(part)
            if done >= size:
                done -= size
                offset += size
                at += 1
                continue
            view = memoryview(part)[done:]  # the rest of the part the call cut short
            offset += done
            while view:
                wrote = os.pwrite(fd, view, offset)
                if wrote <= 0:
                    raise OSError(errno.EIO, "the file took none of what was written")
                view, offset = view[wrote:], offset + wrote
            at += 1
            break
    return offset


def backup_path(target: Path) -> Path:
    """Where the backup of ``target`` is kept: ``FILE~`` beside it."""
    return target.with_name(target.name + "~")


def check_backup_place(target: Path) -> None:
    """Raise :class:`OutputError` if ``target``'s backup could not be put in place: ``FILE~`` is
    there and is neither a regular file nor a symbolic link (a link is replaced, not followed)."""
    dest = backup_path(target)
    try:
        there = os.lstat(dest)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputError(dest, _reason(exc), exc.errno or 0) from None
    if not (stat.S_ISREG(there.st_mode) or stat.S_ISLNK(there.st_mode)):
        raise OutputError(dest, "the backup's place is taken by something that is not a regular file")


def write_backup(name: str, target: Path, content: bytes | None = None,
                 before_replace: Callable[[], None] | None = None) -> Path:
    """Keep the regular file ``target`` as ``target~``, atomically; return the backup's path.

    The backup is always a copy of its own, never a second name of ``target`` (an edit made in
    place through one name would change both): ``content`` when given (what was read of
    ``target``, checked to be there still), else ``target``'s bytes, written to a temporary and
    renamed, so the earlier backup stays in place until the new one is complete (and stays as it
    was if ``before_replace()`` raises). A ``FILE~`` that is not a regular file (or a link, which
    is replaced, not followed) is refused.
    """
    dest = backup_path(target)
    check_backup_place(target)
    try:
        source = open(target, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise OutputError(name, _reason(exc), exc.errno or 0) from None
    with source:
        info = os.fstat(source.fileno())  # the backup gets the file's owner, group and permissions
        if not stat.S_ISREG(info.st_mode):  # pragma: no cover - checked by the caller
            raise OutputError(name, "is not a regular file; nothing to back up")
        _replace(str(dest), dest, source if content is None else content, info, None, before_replace)
    return dest


def _digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _check_unchanged(name: str, target: Path, expected: str) -> None:
    """Raise :class:`OutputError` unless ``target`` still holds the bytes whose SHA-256 is ``expected``."""
    from dtc.fileread import LIMITS, ReadError, read_bytes

    try:
        now = _digest(read_bytes(target, "source", limit=LIMITS["graph"]))
    except ReadError as exc:
        raise OutputError(name, f"cannot be read again before it is replaced ({exc.message}); not written") from None
    if now != expected:
        raise OutputError(name, "changed since dtc read it (saved by another program meanwhile?); dtc did not "
                                "write over the change: run it again")


# --- locking a source that is rewritten ------------------------------------------------------

#: How long a command that rewrites a source waits for another one to finish with it, in seconds.
LOCK_WAIT = 10.0


def lock_path(source: str | Path) -> Path:
    """The lock file of a source: ``.NAME.lock`` beside the file it finally names."""
    real = Path(os.path.realpath(source))
    return real.with_name(f".{real.name}.lock")


class rewriting:
    """Hold the exclusive lock on ``source`` while the block reads and rewrites it.

    Every command that rewrites a source (``renumber``, ``lint --fix``) does so inside this
    block, so two never interleave: the second waits up to :data:`LOCK_WAIT` seconds for the
    first, then refuses with one line. The lock is ``flock`` on ``.NAME.lock`` beside the source
    (the source itself is replaced by a new file, so it cannot carry the lock); the lock file is
    removed when the block ends, while the lock is still held, and a waiting command that finds
    it was removed takes a new one. A lock left by a killed command is free (the system releases
    it) and is taken over. (A class, not a generator: an exception that is a frozen dataclass,
    such as ``SourceError``, passes through it untouched.)
    """

    def __init__(self, source: str | Path, *, wait: float | None = None) -> None:
        self.name = str(source)
        self.path = lock_path(source)
        self.wait = LOCK_WAIT if wait is None else wait
        self.fd = -1

    def __enter__(self) -> None:
        import fcntl
        import time

        name, path = self.name, self.path
        limit = time.monotonic() + self.wait
        flags = (os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
                 | getattr(os, "O_CLOEXEC", 0))
        while True:
            try:
                fd = self._open(flags)
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    raise OutputError(path, "is a symbolic link; dtc's lock file never is (remove it)") from None
                if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOENT):
                    return  # a folder nothing can be written in: no rewrite can happen there to guard
                raise OutputError(name, f"cannot take the lock {path.name} beside it ({_reason(exc)})",
                                  exc.errno or 0) from None
            try:
                info = os.fstat(fd)
                if not stat.S_ISREG(info.st_mode):
                    raise OutputError(path, "is not a regular file; dtc's lock file always is (remove it)")
                while True:
                    try:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        break
                    except BlockingIOError:
                        if time.monotonic() >= limit:
                            raise OutputError(name, "another dtc command is rewriting it (renumber or lint "
                                                    "--fix); try again when it has finished") from None
                        time.sleep(0.05)
                try:
                    now: os.stat_result | None = os.lstat(path)
                except FileNotFoundError:
                    now = None
                if now is not None and (now.st_dev, now.st_ino) == (info.st_dev, info.st_ino):
                    self.fd = fd
                    return
            except BaseException:
                os.close(fd)
                raise
            os.close(fd)  # the holder removed that lock file as it finished: take the new one

    def _open(self, flags: int) -> int:
        """The lock file, made if need be; another user's (which this one cannot write) is opened
        to read, which is enough to lock it."""
        try:
            return os.open(self.path, flags, 0o666 & ~_umask())
        except PermissionError:
            return os.open(self.path, (flags & ~(os.O_RDWR | os.O_CREAT)) | os.O_RDONLY)

    def __exit__(self, *exc: object) -> None:
        if self.fd == -1:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        os.close(self.fd)
        self.fd = -1


def _hold_stops() -> Callable[[], None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP back (in the main thread) until the returned function is
    called; one that came meanwhile then takes effect. For steps that must not be parted."""
    import signal

    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        return lambda: None
    held = {getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n)}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)

    def release() -> None:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)

    return release


def write_source(path: str | Path, data: bytes, read: bytes) -> Written:
    """Rewrite the source ``path`` (a regular file, read as ``read``) with ``data``, keeping the
    bytes read as ``path~``; call it inside :func:`rewriting`.

    The new file is written whole first; then ``path`` is checked to hold ``read`` still (else
    nothing is replaced: :class:`OutputError`, and an earlier backup stays as it was); then the
    backup, a copy of ``read``, is written whole, the source checked once more, and the backup and
    the new file are renamed into place one after the other (no stop comes between the two). A run
    that fails at any step before leaves the source and an earlier backup as they were.
    """
    name = str(path)
    target, info = resolve(name)
    if info is None:
        raise OutputError(name, "no such file")
    if _check_existing(name, info):
        raise OutputError(name, "is not a regular file; dtc rewrites only regular files")
    expected = _digest(read)
    backups: list[Path] = []
    release: list[Callable[[], None]] = []

    def last_check() -> None:
        _check_unchanged(name, target, expected)
        release.append(_hold_stops())

    def backup() -> None:
        _check_unchanged(name, target, expected)
        backups.append(write_backup(name, target, read, last_check))

    try:
        _replace(name, target, data, info, None, backup)
    finally:
        for let_go in release:
            let_go()
    return Written(name, target, backups[0] if backups else None)


def resolve(name: str) -> tuple[Path, os.stat_result | None]:
    """The file ``name`` finally names (links followed) and its status (None: not there yet)."""
    target = Path(os.path.realpath(name))
    try:
        return target, os.stat(target)
    except FileNotFoundError:
        return target, None
    except OSError as exc:
        raise OutputError(name, _reason(exc), exc.errno or 0) from None


def preflight(path: str | Path | None, inputs: Iterable[str | Path | None] = ()) -> None:
    """Raise :class:`OutputError` now if writing ``path`` later would be refused (None, ``-``: fine).

    Commands call it before their work, so that a long run does not end in a refusal.
    """
    if path is None or str(path) == "-":
        return
    refuse_inputs([path], inputs)
    _, info = resolve(str(path))
    if info is not None:
        _check_existing(str(path), info)


def check_replaceable(path: str | Path) -> None:
    """Raise :class:`OutputError` unless ``path`` is a regular file dtc may replace (or is not there).

    For commands that write several files: they check each first and write nothing when one
    would be refused.
    """
    name = str(path)
    _, info = resolve(name)
    if info is not None and _check_existing(name, info):
        from dtc.fileread import refusal

        raise OutputError(name, refusal(info.st_mode) or "is not a regular file")


def write_bytes(path: str | Path, data: Data, *, inputs: Iterable[str | Path | None] = (),
                backup: bool = False, new_mode: int | None = None, pipes: bool = True) -> Written:
    """Write ``data`` to ``path`` as the module docstring says; return what was done.

    ``data``: bytes, or a list of the parts they are joined from (see :data:`Data`).
    ``new_mode``: the permissions of a file that does not exist yet (default 0666 less the umask).
    ``backup``: the old file is copied to ``FILE~`` once the new one is complete, just before it
    is renamed into place (a write that fails leaves an earlier backup as it was).
    ``pipes=False``: a named pipe is refused rather than written (a save, written again after
    every turn, would open it again every turn, and block once nobody reads it).
    """
    name = str(path)
    if name == "-":
        try:
            sys.stdout.buffer.writelines([data] if isinstance(data, bytes) else data)
            sys.stdout.buffer.flush()
        except BrokenPipeError:
            raise  # the reader went away: the command stops quietly
        except OSError as exc:
            raise OutputError("<stdout>", _reason(exc), exc.errno or 0) from None
        return Written(name, None, None, True)
    refuse_inputs([name], inputs)
    target, info = resolve(name)
    if info is not None and _check_existing(name, info):
        if not pipes and stat.S_ISFIFO(info.st_mode):
            raise OutputError(name, "is a named pipe (FIFO); this file is written again and again, and a pipe "
                                    "would be opened each time, so dtc does not write it (give a regular file)")
        return _direct(name, target, data)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(name, _reason(exc), exc.errno or 0) from None
    backups: list[Path] = []
    if backup and info is not None:
        check_backup_place(target)
        _replace(name, target, data, info, new_mode, lambda: backups.append(write_backup(name, target)))
    else:
        _replace(name, target, data, info, new_mode)
    return Written(name, target, backups[0] if backups else None)


def write_text(path: str | Path, text: str, *, inputs: Iterable[str | Path | None] = (),
               backup: bool = False, new_mode: int | None = None, pipes: bool = True) -> Written:
    """:func:`write_bytes` of ``text`` encoded as UTF-8."""
    return write_bytes(path, text.encode("utf-8"), inputs=inputs, backup=backup, new_mode=new_mode,
                       pipes=pipes)


class _Stream(io.BufferedWriter):
    """A growing output (:func:`open_stream`) whose errors name it: a full disk while the event
    log is written is ``run.jsonl: error: no space left on the device``, not a bare OS error."""

    def __init__(self, fd: int, name: str) -> None:
        super().__init__(io.FileIO(fd, "wb"))
        self.output_name = name

    def _failed(self, exc: OSError) -> OutputError:
        if exc.errno == errno.EPIPE:
            return OutputError(self.output_name, "the reader of the pipe went away", exc.errno)
        return OutputError(self.output_name, _reason(exc), exc.errno or 0)

    def write(self, data: Any) -> int:
        try:
            return super().write(data)
        except OutputError:
            raise
        except OSError as exc:
            raise self._failed(exc) from None

    def flush(self) -> None:
        try:
            super().flush()
        except OutputError:
            raise
        except OSError as exc:
            raise self._failed(exc) from None

    def close(self) -> None:
        try:
            super().close()
        except OutputError:
            raise
        except OSError as exc:
            raise self._failed(exc) from None


def open_stream(path: str | Path, *, inputs: Iterable[str | Path | None] = (),
                keep: int | None = None) -> tuple[IO[bytes], int]:
    """Open an output that grows as a command runs (the play event log); return it and its length.

    The one output written in place rather than replaced: a regular file is truncated to ``keep``
    bytes (a resumed run cuts its log back to the length its save recorded), or emptied. A
    character device or pipe is written as it is (length 0). Links, inputs, read-only files,
    directories and other kinds are treated as :func:`write_bytes` treats them. An error while
    it is written names it (:class:`OutputError`).
    """
    name = str(path)
    refuse_inputs([name], inputs)
    target, info = resolve(name)
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        if info is not None and _check_existing(name, info):
            return _Stream(os.open(target, flags), name), 0
        target.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target, flags | os.O_CREAT, 0o666)
        handle = _Stream(fd, name)
        size = handle.seek(0, os.SEEK_END)
        length = min(keep, size) if keep is not None else 0
        handle.seek(length)
        handle.truncate()
        return handle, length
    except OutputError:
        raise
    except OSError as exc:
        raise OutputError(name, _reason(exc), exc.errno or 0) from None


def atomic_write_bytes(path: str | Path, data: bytes, *, backup: bool = False) -> None:
    """Write ``data`` to ``path`` (see :func:`write_bytes`; kept for callers of the first API)."""
    write_bytes(path, data, backup=backup)


def atomic_write_text(path: str | Path, text: str, *, backup: bool = False) -> None:
    """Write ``text`` as UTF-8 to ``path`` (see :func:`write_bytes`)."""
    write_bytes(path, text.encode("utf-8"), backup=backup)
