"""Files in and out: what dtc writes never replaces what it must not, what it reads cannot hang it.

Outputs go to FIFOs, pseudo-terminals and device nodes this file makes itself (in ``tmp_path``;
never the machine's own ``/dev`` entries), inputs come from FIFOs made here, oversized inputs are
fed just past a limit patched small, and crash windows are simulated by making a step raise.
Anything that could block runs under an alarm, so a regression fails instead of hanging.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import stat
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dtc.renumber.journal as renumber_journal
from dtc import fileio, fileread
from dtc.cli import main
from dtc.fileio import OutputError
from dtc.fileread import ReadError
from helpers.books import LABELS

ROOT = Path(__file__).resolve().parent.parent
CHAPEL = ROOT / "adventures" / "the-drowned-chapel.txt"


def dtc(*args: str, input: bytes | str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def one_line(result: Result) -> str:
    """The error output, checked to be one line and no traceback."""
    err = result.stderr.strip()
    assert "Traceback" not in result.output + result.stderr
    assert len(err.splitlines()) == 1, err
    return err


@pytest.fixture(autouse=True)
def alarm() -> Iterator[None]:
    """Fail a test that blocks (on a FIFO, a device) instead of hanging the suite."""
    def ring(signum: int, frame: Any) -> None:
        raise TimeoutError("blocked: a read or write that should not wait did")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(30)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "book.txt"
    shutil.copyfile(CHAPEL, path)
    return path


def make_fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def make_device(path: Path, minor: int) -> Path:
    """A character device node of the memory driver (1,3 discards writes; 1,5 reads zeros)."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
    except OSError as exc:  # not root, or tmp_path is mounted nodev
        path.unlink(missing_ok=True)
        pytest.skip(f"cannot make a device node here ({exc.strerror})")
    return path


class Drain(threading.Thread):
    """Read everything from a FIFO or a pty master until it closes (or ``stop``)."""

    def __init__(self, path: Path | None = None, fd: int | None = None) -> None:
        super().__init__(daemon=True)
        self.path, self.fd, self.data = path, fd, b""
        self.ready = threading.Event()

    def run(self) -> None:
        fd = self.fd if self.fd is not None else os.open(str(self.path), os.O_RDONLY)
        self.ready.set()
        try:
            while chunk := os.read(fd, 65536):
                self.data += chunk
        except OSError:  # a pty master reads EIO once the other side is closed
            pass
        finally:
            if self.fd is None:
                os.close(fd)


# --- outputs -----------------------------------------------------------------------------------


def test_regular_output_is_atomic_and_keeps_mode(tmp_path: Path, book: Path) -> None:
    out = tmp_path / "out.json"
    out.write_text("old", encoding="utf-8")
    out.chmod(0o640)
    r = dtc("compile", str(book), "-o", str(out))
    assert r.exit_code == 0, r.output
    assert json.loads(out.read_text(encoding="utf-8"))["title"] == "The Drowned Chapel"
    assert out.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.txt", "out.json"]  # no temporary left


def test_symlinked_output_writes_the_target_and_the_link_stays(tmp_path: Path, book: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    r = dtc("compile", str(book), "-o", str(link))
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert json.loads(real.read_text(encoding="utf-8"))["title"] == "The Drowned Chapel"


def test_fifo_output_is_written_not_replaced(tmp_path: Path, book: Path) -> None:
    fifo = make_fifo(tmp_path / "pipe")
    reader = Drain(fifo)
    reader.start()
    r = dtc("compile", str(book), "-o", str(fifo))
    reader.join(10)
    assert r.exit_code == 0, r.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert json.loads(reader.data)["title"] == "The Drowned Chapel"


def test_pty_output_is_written_not_replaced(book: Path) -> None:
    master, slave = os.openpty()
    name = os.ttyname(slave)
    reader = Drain(fd=master)
    reader.start()
    try:
        r = dtc("odds", str(book), "-o", name, "--format", "json")
        assert r.exit_code == 0, r.output
        assert stat.S_ISCHR(os.stat(name).st_mode)
    finally:
        os.close(slave)
        reader.join(10)
        os.close(master)
    assert b"endings" in reader.data or b"ending" in reader.data


def test_device_output_is_written_directly_and_never_backed_up(tmp_path: Path, book: Path) -> None:
    null = make_device(tmp_path / "null", 3)
    for args in (("compile", str(book), "-o", str(null)),
                 ("graph", str(book), "-o", str(null), "--format", "dot"),
                 ("simulate", str(book), "-n", "3", "--seed", "1", "-o", str(null)),
                 ("character", "new", "--seed", "1", "--random", "-o", str(null)),
                 ("play", str(book), "--seed", "1", "--auto", "cautious", "--save", str(null),
                  "--log", str(null))):
        r = dtc(*args)
        assert r.exit_code in (0, 1), (args, r.output)
        assert "Traceback" not in r.output
        assert stat.S_ISCHR(os.lstat(null).st_mode), args
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.txt", "null"]  # no null~, no temporary


def test_output_equal_to_the_input_is_refused(tmp_path: Path, book: Path) -> None:
    before = book.read_bytes()
    link = tmp_path / "other-name.txt"
    link.symlink_to(book)
    hard = tmp_path / "hard.txt"
    os.link(book, hard)
    character = tmp_path / "hero.json"
    assert dtc("character", "new", "--seed", "2", "--random", "-o", str(character)).exit_code == 0
    cases = [
        ("compile", str(book), "-o", str(book)),
        ("compile", str(book), "-o", str(link)),
        ("graph", str(book), "-o", str(hard), "--format", "dot"),
        ("odds", str(book), "-o", str(book)),
        ("odds", str(book), "--character", str(character), "-o", str(character)),
        ("simulate", str(book), "-n", "2", "-o", str(book)),
        ("play", str(book), "--seed", "1", "--auto", "bold", "--no-save", "--log", str(book)),
        ("play", str(book), "--seed", "1", "--auto", "bold", "--save", str(link)),
    ]
    for args in cases:
        r = dtc(*args)
        assert r.exit_code == 2, (args, r.output)
        assert "is an input of this command" in one_line(r), args
    assert book.read_bytes() == before
    assert json.loads(character.read_text(encoding="utf-8"))["name"]


def test_build_into_the_sources_own_folder_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    src = tmp_path / "book.md"
    shutil.copyfile(CHAPEL, src)
    before = src.read_bytes()
    r = dtc("build", str(src), "-o", str(tmp_path), "--no-pdf")
    assert r.exit_code == 2 and "is an input of this command" in one_line(r)
    assert src.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["book.md"]


def test_stdin_input_is_an_input_too(book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with open(book, "rb") as handle:
        monkeypatch.setattr(fileio.sys, "stdin", handle)
        with pytest.raises(OutputError, match="is an input of this command \\(it is standard input\\)"):
            fileio.refuse_inputs([book], ["-"])


def test_read_only_output_is_refused_and_left_alone(tmp_path: Path, book: Path) -> None:
    out = tmp_path / "out.json"
    out.write_text("keep me", encoding="utf-8")
    out.chmod(0o444)
    r = dtc("compile", str(book), "-o", str(out))
    assert r.exit_code == 2 and "is read-only" in one_line(r)
    assert out.read_text(encoding="utf-8") == "keep me" and out.stat().st_mode & 0o777 == 0o444


def test_unwritable_folder_names_the_output_not_the_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              book: Path) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied", str(tmp_path / ".out.json.abc.tmp"))

    monkeypatch.setattr(fileio.tempfile, "mkstemp", refuse)
    r = dtc("compile", str(book), "-o", str(tmp_path / "out.json"))
    err = one_line(r)
    assert r.exit_code == 2 and err == f"{tmp_path / 'out.json'}: error: permission denied"


def test_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out.txt"
    out.write_text("old", encoding="utf-8")

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fileio.os, "fsync", full)
    with pytest.raises(OutputError) as info:
        fileio.write_text(out, "new")
    assert str(info.value) == f"{out}: error: no space left on the device"
    assert out.read_text(encoding="utf-8") == "old" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]


_PARTS = [b"", b"head[", *([b"entry \xc3\xa9", b","] * 520), b"", b"last]\n", b""]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(most=st.integers(1, 4000))
def test_parts_are_written_whole_however_the_system_cuts_a_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 most: int) -> None:
    """An output in parts (``dtc compile``'s graph, never joined) is written part after part,
    more parts than one ``writev`` takes, each call cut short after ``most`` bytes."""
    real_writev, real_write = os.writev, os.write

    def short_writev(fd: int, buffers: list[bytes]) -> int:
        assert len(buffers) <= fileio._IOV_MAX
        head = b""
        for part in buffers:  # only as many as the cut needs
            head += part
            if len(head) >= most:
                break
        return int(real_writev(fd, [head[:most]]))

    def short_write(fd: int, data: Any) -> int:
        return int(real_write(fd, bytes(data)[:most]))

    monkeypatch.setattr(fileio.os, "writev", short_writev)
    monkeypatch.setattr(fileio.os, "write", short_write)
    out = tmp_path / f"out-{most}.json"
    fileio.write_bytes(out, _PARTS)
    assert out.read_bytes() == b"".join(_PARTS)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(most=st.integers(1, 4000), at=st.integers(0, 9))
def test_parts_written_at_an_offset_are_whole_however_the_system_cuts_a_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, most: int, at: int) -> None:
    """Parts written at an offset (``dtc compile``'s entries, each process writing its own) land
    whole and in order, more parts than one ``pwritev`` takes, each call cut short after ``most``
    bytes; where they end is returned."""
    real_pwritev, real_pwrite = os.pwritev, os.pwrite

    def short_pwritev(fd: int, buffers: list[bytes], offset: int) -> int:
        assert len(buffers) <= fileio._IOV_MAX
        return int(real_pwritev(fd, [b"".join(buffers)[:most]], offset))

    def short_pwrite(fd: int, data: Any, offset: int) -> int:
        return int(real_pwrite(fd, bytes(data)[:most], offset))

    monkeypatch.setattr(fileio.os, "pwritev", short_pwritev)
    monkeypatch.setattr(fileio.os, "pwrite", short_pwrite)
    out = tmp_path / f"out-{most}-{at}.bin"
    out.write_bytes(b"=" * 12)
    with open(out, "r+b") as f:
        assert fileio.pwrite_all(f.fileno(), _PARTS, at) == at + len(b"".join(_PARTS))
    assert out.read_bytes() == b"=" * at + b"".join(_PARTS)


def test_a_replacement_is_renamed_whole_or_not_at_all(tmp_path: Path) -> None:
    """:func:`fileio.replacing`: the new file takes the old one's place (and permissions) when the
    block ends; if the block raises, the old file stays and no temporary is left; a pipe and
    ``-`` get None, the pipe never opened (a pipe nobody reads would block)."""
    out = tmp_path / "out.json"
    out.write_text("old", encoding="utf-8")
    out.chmod(0o640)
    with pytest.raises(RuntimeError, match="stopped"), fileio.replacing(out) as fd:
        assert fd is not None
        os.pwrite(fd, b"half", 0)
        raise RuntimeError("stopped")
    assert out.read_text(encoding="utf-8") == "old" and [p.name for p in tmp_path.iterdir()] == ["out.json"]
    with fileio.replacing(out) as fd:
        assert fd is not None
        os.pwrite(fd, b"new", 3)
        os.pwrite(fd, b"the", 0)
    assert out.read_bytes() == b"thenew" and out.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]
    made = tmp_path / "new" / "folder" / "made.json"
    with fileio.replacing(made) as fd:
        assert fd is not None
        os.pwrite(fd, b"{}", 0)
    assert made.read_bytes() == b"{}"
    fifo = make_fifo(tmp_path / "pipe")
    for name in (fifo, "-"):
        with fileio.replacing(name) as fd:
            assert fd is None
    with pytest.raises(OutputError, match="is an input"), fileio.replacing(out, inputs=[out]):
        pass


def test_parts_go_whole_to_a_fifo_and_to_standard_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fifo = make_fifo(tmp_path / "pipe")
    reader = Drain(fifo)
    reader.start()
    assert fileio.write_bytes(fifo, _PARTS).direct
    reader.join(10)
    assert reader.data == b"".join(_PARTS) and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    captured = io.BytesIO()
    monkeypatch.setattr("sys.stdout", io.TextIOWrapper(captured))
    fileio.write_bytes("-", _PARTS)
    assert captured.getvalue() == b"".join(_PARTS)


@pytest.mark.skipif(os.geteuid() != 0, reason="changing a file's owner needs root")
def test_ownership_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("old", encoding="utf-8")
    os.chown(out, 12345, 23456)
    fileio.write_text(out, "new")
    assert (out.stat().st_uid, out.stat().st_gid) == (12345, 23456) and out.read_text(encoding="utf-8") == "new"


def test_backup_is_complete_and_the_earlier_one_survives_a_crash(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    save = tmp_path / "game.json"
    save.write_text("second", encoding="utf-8")
    (tmp_path / "game.json~").write_text("first", encoding="utf-8")
    real_replace = os.replace

    def crash(src: str, dst: str) -> None:
        if str(dst).endswith("~"):
            raise KeyboardInterrupt  # killed just before the new backup is in place
        real_replace(src, dst)

    monkeypatch.setattr(fileio.os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        fileio.write_text(save, "third", backup=True)
    assert (tmp_path / "game.json~").read_text(encoding="utf-8") == "first"
    assert save.read_text(encoding="utf-8") == "second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "game.json~"]
    monkeypatch.setattr(fileio.os, "replace", real_replace)
    written = fileio.write_text(save, "third", backup=True)
    assert written.backup == tmp_path / "game.json~"
    assert (tmp_path / "game.json~").read_text(encoding="utf-8") == "second"


def test_backup_of_a_file_with_other_names_is_a_copy(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("old", encoding="utf-8")
    fileio.write_text(out, "new", backup=True)  # one name: the old file itself becomes out.txt~
    assert (tmp_path / "out.txt~").read_text(encoding="utf-8") == "old"
    os.link(out, tmp_path / "other.txt")
    fileio.write_text(out, "newer", backup=True)
    (tmp_path / "other.txt").write_text("changed through the other name", encoding="utf-8")
    assert (tmp_path / "out.txt~").read_text(encoding="utf-8") == "new"
    assert out.read_text(encoding="utf-8") == "newer"


def test_backup_place_taken_by_a_fifo_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("old", encoding="utf-8")
    make_fifo(tmp_path / "out.txt~")
    with pytest.raises(OutputError, match="not a regular file"):
        fileio.write_text(out, "new", backup=True)
    assert out.read_text(encoding="utf-8") == "old"


def test_directories_and_sockets_are_refused(tmp_path: Path) -> None:
    import socket

    with pytest.raises(OutputError, match="is a directory"):
        fileio.write_text(tmp_path, "x")
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tmp_path / "s"))
        with pytest.raises(OutputError, match="socket"):
            fileio.write_text(tmp_path / "s", "x")
    finally:
        sock.close()


def test_the_log_stream_follows_the_same_rules(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    log.write_text("0123456789", encoding="utf-8")
    handle, length = fileio.open_stream(log, keep=4)
    with handle:
        assert length == 4
        handle.write(b"ab")
    assert log.read_text(encoding="utf-8") == "0123ab"
    log.chmod(0o444)
    with pytest.raises(OutputError, match="read-only"):
        fileio.open_stream(log)
    with pytest.raises(OutputError, match="is an input"):
        fileio.open_stream(log, inputs=[log])


# --- inputs ------------------------------------------------------------------------------------


def test_fifo_inputs_are_refused_at_once(tmp_path: Path, book: Path) -> None:
    fifo = make_fifo(tmp_path / "pipe.txt")
    json_fifo = make_fifo(tmp_path / "pipe.json")
    toml_fifo = make_fifo(tmp_path / "dtc-pipe.toml")
    cases = [
        ("lint", str(fifo)),
        ("compile", str(fifo), "-o", "-"),
        ("graph", str(json_fifo)),
        ("play", str(book), "--character", str(json_fifo), "--no-save", "--auto", "bold"),
        ("play", str(book), "--script", str(fifo), "--no-save"),
        ("odds", str(book), "--character", str(json_fifo)),
        ("lint", str(book), "--config", str(toml_fifo)),
        ("play", "--resume", str(json_fifo)),
        ("renumber", str(fifo)),
    ]
    for args in cases:
        r = dtc(*args)
        assert r.exit_code == 2, (args, r.output)
        assert "named pipe" in one_line(r), args


def test_fifo_as_the_number_map_does_not_hang(tmp_path: Path) -> None:
    src = tmp_path / "book.txt"
    src.write_text(LABELS, encoding="utf-8")
    fifo = make_fifo(tmp_path / "map.json")
    r = dtc("renumber", str(src), "--map", str(fifo))
    assert r.exit_code == 2 and str(fifo) in one_line(r)
    assert src.read_text(encoding="utf-8") == LABELS


def test_device_inputs_are_refused_without_reading(tmp_path: Path, book: Path) -> None:
    zero = make_device(tmp_path / "zero", 5)
    for args in (("lint", str(zero)), ("graph", str(zero)), ("renumber", str(book), "--map", str(zero)),
                 ("play", str(book), "--character", str(zero), "--no-save", "--auto", "bold")):
        r = dtc(*args)
        assert r.exit_code == 2, (args, r.output)
        assert "device" in one_line(r), args


def test_directories_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ReadError, match="is a directory"):
        fileread.read_bytes(tmp_path, "source")


def test_inputs_past_the_limit_are_refused_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(fileread.LIMITS, "source", 100)
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * 101)
    r = dtc("lint", str(big))
    assert r.exit_code == 2 and "100-byte limit for a source file" in one_line(r)
    big.write_bytes(b"x" * 100)
    assert dtc("lint", str(big)).exit_code != 2


def test_stat_is_not_trusted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that says it is small (as /proc files and devices do) is still read only to the limit."""
    monkeypatch.setitem(fileread.LIMITS, "source", 1000)
    big = tmp_path / "big.txt"
    big.write_bytes(b"y" * 5000)
    real_fstat = os.fstat

    class Small:
        def __init__(self, info: os.stat_result) -> None:
            self.st_mode, self.st_size = info.st_mode, 0

    monkeypatch.setattr(fileread.os, "fstat", lambda fd: Small(real_fstat(fd)))
    with pytest.raises(ReadError, match="1,000-byte limit"):
        fileread.read_bytes(big, "source")


class Endless(io.RawIOBase):
    """A stream that never ends, counting what was taken from it."""

    def __init__(self) -> None:
        self.taken = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = len(buffer)
        buffer[:n] = b"a" * n
        self.taken += n
        return n


def test_an_endless_stdin_is_read_only_past_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(fileread.LIMITS, "source", 4096)
    endless = Endless()
    monkeypatch.setattr(fileread.sys, "stdin", io.TextIOWrapper(io.BufferedReader(endless)))
    with pytest.raises(ReadError, match="4,096-byte limit"):
        fileread.read_bytes("-", "source", stdin=True)
    assert endless.taken < 4096 + 2 * io.DEFAULT_BUFFER_SIZE


def test_stdin_past_the_limit_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(fileread.LIMITS, "source", 64)
    r = dtc("lint", "-", input=b"x" * 65)
    assert r.exit_code == 2 and one_line(r).startswith("<stdin>: error: larger than the 64-byte limit")


@pytest.fixture
def inputs(tmp_path: Path, book: Path) -> dict[str, Path]:
    """One file of every kind dtc reads."""
    files = {"book": book, "graph": tmp_path / "book.json", "character": tmp_path / "hero.json",
             "script": tmp_path / "route.txt", "config": tmp_path / "settings.toml", "save": tmp_path / "game.json",
             "labels": tmp_path / "labels.txt", "map": tmp_path / "labels.map.json"}
    assert dtc("compile", str(book), "-o", str(files["graph"])).exit_code == 0
    assert dtc("character", "new", "--seed", "1", "--random", "-o", str(files["character"])).exit_code == 0
    files["script"].write_text("1\n" * 5, encoding="utf-8")
    files["config"].write_text("ignore = []\n", encoding="utf-8")
    dtc("play", str(book), "--seed", "1", "--auto", "cautious", "--max-turns", "1", "--save", str(files["save"]))
    files["labels"].write_text(LABELS, encoding="utf-8")
    assert dtc("renumber", str(files["labels"]), "--dry-run").exit_code == 0
    files["map"].write_text('{"format": "dtc-number-map", "numbers": [], "labels": {}}', encoding="utf-8")
    return files


#: Each read path of the command line, and the kind of file it reads.
READ_PATHS = [
    ("source", lambda f: ("lint", str(f["book"]))),
    ("source", lambda f: ("lint", "-")),
    ("graph", lambda f: ("graph", str(f["graph"]))),
    ("character", lambda f: ("play", str(f["book"]), "--character", str(f["character"]), "--no-save",
                             "--auto", "bold")),
    ("script", lambda f: ("play", str(f["book"]), "--script", str(f["script"]), "--no-save")),
    ("config", lambda f: ("lint", str(f["book"]), "--config", str(f["config"]))),
    ("save", lambda f: ("play", "--resume", str(f["save"]))),
    ("map", lambda f: ("renumber", str(f["labels"]), "--map", str(f["map"]))),
]


@pytest.mark.parametrize(("kind", "command"), READ_PATHS)
def test_memory_error_is_a_line_not_a_traceback(monkeypatch: pytest.MonkeyPatch, inputs: dict[str, Path],
                                                kind: str, command: Any) -> None:
    real_read = fileread._read_stream

    def starved(stream: Any, path: str, limit: int, what: str, hint: int = 0) -> bytes:
        class Greedy:
            def read(self, n: int) -> bytes:
                raise MemoryError

        return real_read(Greedy() if what == kind else stream, path, limit, what, hint)  # type: ignore[arg-type]

    monkeypatch.setattr(fileread, "_read_stream", starved)
    r = dtc(*command(inputs), input=b"x")
    assert r.exit_code == 2 and "not enough memory" in one_line(r), r.output
    assert inputs["labels"].read_text(encoding="utf-8") == LABELS


@pytest.mark.parametrize(("kind", "command"), READ_PATHS)
def test_every_read_path_names_its_limit(monkeypatch: pytest.MonkeyPatch, inputs: dict[str, Path],
                                         kind: str, command: Any) -> None:
    monkeypatch.setitem(fileread.LIMITS, kind, 8)
    r = dtc(*command(inputs), input=b"x" * 9)
    assert r.exit_code == 2 and f"8-byte limit for a {kind} file" in one_line(r), r.output


# --- renumber ----------------------------------------------------------------------------------


def renumber(*args: str) -> Result:
    return dtc("renumber", *args)


def test_renumber_keeps_mixed_line_ends_exactly(tmp_path: Path) -> None:
    src = tmp_path / "book.txt"
    lines = LABELS.split("\n")
    ends = [("\r\n", "\r", "\n")[i % 3] for i in range(len(lines) - 1)]
    for i in range(1, len(ends)):  # a lone CR, an empty line and an LF would read as CRLF
        if ends[i - 1] == "\r" and not lines[i] and ends[i] == "\n":
            ends[i] = "\r\n"
    mixed = "".join(line + end for line, end in zip(lines, ends, strict=False)) + lines[-1]
    assert "\r" in mixed.replace("\r\n", "")
    src.write_bytes(mixed.encode("utf-8"))
    assert renumber(str(src)).exit_code == 0
    out = src.read_bytes().decode("utf-8")
    import re

    assert re.findall(r"\r\n|\r|\n", out) == re.findall(r"\r\n|\r|\n", mixed)
    assert "@" not in out and (tmp_path / "book.txt~").read_bytes() == mixed.encode("utf-8")


def test_renumber_symlinked_source_writes_the_target(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text(LABELS, encoding="utf-8")
    link = tmp_path / "book.txt"
    link.symlink_to(real)
    assert renumber(str(link)).exit_code == 0
    assert link.is_symlink() and "@" not in real.read_text(encoding="utf-8")
    assert (tmp_path / "real.txt~").read_text(encoding="utf-8") == LABELS


def test_renumber_refuses_read_only_sources_and_map_over_source(tmp_path: Path) -> None:
    src = tmp_path / "book.txt"
    src.write_text(LABELS, encoding="utf-8")
    r = renumber(str(src), "--map", str(src))
    assert r.exit_code == 2 and "is an input" in one_line(r)
    src.chmod(0o444)
    r = renumber(str(src))
    assert r.exit_code == 2 and "read-only" in one_line(r)
    assert src.read_text(encoding="utf-8") == LABELS and sorted(p.name for p in tmp_path.iterdir()) == ["book.txt"]


def test_second_run_keeps_a_complete_backup(tmp_path: Path) -> None:
    src = tmp_path / "book.txt"
    src.write_text(LABELS, encoding="utf-8")
    assert renumber(str(src)).exit_code == 0
    first = src.read_bytes()
    assert renumber(str(src), "--shuffle", "--seed", "4", "--gap", "2", "--fresh").exit_code == 0
    assert (tmp_path / "book.txt~").read_bytes() == first
    assert (tmp_path / "book.map.json~").exists()


def _outcome_of_clean_run(tmp_path: Path) -> tuple[bytes, bytes]:
    clean = tmp_path / "clean"
    clean.mkdir()
    src = clean / "book.txt"
    src.write_text(LABELS, encoding="utf-8")
    assert renumber(str(src), "--seed", "9").exit_code == 0
    assert renumber(str(src), *SHUFFLE).exit_code == 0
    assert renumber(str(src)).exit_code == 0
    return src.read_bytes(), (clean / "book.map.json").read_bytes()


SHUFFLE = ("--shuffle", "--fresh", "--seed", "9", "--gap", "2")


class Killed(BaseException):
    """The process dying at this point (nothing after it runs, no handler catches it)."""


@pytest.mark.parametrize("crash_at", range(1, 8))
def test_renumber_survives_a_crash_between_any_two_steps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         crash_at: int) -> None:
    """Killed at the n-th file operation of the second run, the third run ends where a clean run does."""
    want_source, want_map = _outcome_of_clean_run(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    src = work / "book.txt"
    src.write_text(LABELS, encoding="utf-8")
    assert renumber(str(src), "--seed", "9").exit_code == 0
    published = src.read_bytes()
    real_replace, real_unlink, calls = os.replace, Path.unlink, [0]

    def step() -> None:
        calls[0] += 1
        if calls[0] == crash_at:
            raise Killed

    def replace(a: Any, b: Any) -> None:
        step()
        real_replace(a, b)

    def unlink(self: Path, missing_ok: bool = False) -> None:
        if self.name.endswith(".renumber.json"):
            step()
        real_unlink(self, missing_ok=missing_ok)

    monkeypatch.setattr(fileio.os, "replace", replace)
    monkeypatch.setattr(renumber_journal.Path, "unlink", unlink)
    try:
        renumber(str(src), *SHUFFLE)
        crashed = False
    except Killed:
        crashed = True
    monkeypatch.setattr(fileio.os, "replace", real_replace)
    monkeypatch.setattr(renumber_journal.Path, "unlink", real_unlink)
    assert crashed == (crash_at <= 6)
    assert src.read_bytes() in (published, want_source)
    backup = work / "book.txt~"
    assert not backup.exists() or backup.read_bytes() in (LABELS.encode("utf-8"), published)
    journal = work / ".book.txt.renumber.json"
    if crashed and not journal.exists():  # killed before the journal was complete: nothing happened
        assert src.read_bytes() == published and backup.read_bytes() == LABELS.encode("utf-8")
        assert renumber(str(src), *SHUFFLE).exit_code == 0
    # Run again: an interrupted run is finished first; the map then pins every number.
    r = renumber(str(src))
    assert r.exit_code == 0, r.output
    assert not journal.exists()
    assert src.read_bytes() == want_source
    assert json.loads((work / "book.map.json").read_bytes()) == json.loads(want_map)
    assert want_source != published and (work / "book.txt~").read_bytes() == published
    assert not list(work.glob(".*.tmp"))


def test_a_journal_over_an_edited_source_is_left_alone(tmp_path: Path) -> None:
    src = tmp_path / "book.txt"
    src.write_text(LABELS, encoding="utf-8")
    plan = renumber_journal.Plan(str(src), str(tmp_path / "book.map.json"), b"before", b"after", "{}\n")
    renumber_journal.journal_path(src).write_text(plan.to_json(), encoding="utf-8")
    r = renumber(str(src))
    assert r.exit_code == 2 and "has changed since" in one_line(r)
    assert src.read_text(encoding="utf-8") == LABELS


# --- saves -------------------------------------------------------------------------------------


@pytest.fixture
def saved(tmp_path: Path, book: Path) -> Path:
    """A game stopped by the turn limit at its first step (it can be resumed)."""
    save = tmp_path / "game.json"
    r = dtc("play", str(book), "--seed", "1", "--auto", "cautious", "--max-turns", "1", "--save", str(save))
    assert r.stdout.startswith("stopped"), r.output
    return save


def edit(save: Path, change: Any) -> None:
    data = json.loads(save.read_text(encoding="utf-8"))
    change(data)
    save.write_text(json.dumps(data), encoding="utf-8")


def resume(save: Path, *more: str) -> Result:
    return dtc("play", "--resume", str(save), "--max-turns", "3", *more)


def test_resumed_save_plays_on(saved: Path) -> None:
    r = resume(saved)
    assert r.exit_code in (0, 1) and "Traceback" not in r.output


def test_save_naming_an_entry_the_book_lost_is_one_line(saved: Path, book: Path) -> None:
    entry = json.loads(saved.read_text(encoding="utf-8"))["state"]["entry"]
    text = book.read_text(encoding="utf-8")
    head = f"\n{entry} "
    assert head in text
    start = text.index(head) + 1
    end = text.find("\n\n", start)
    book.write_text(text[:start] + text[end + 2:], encoding="utf-8")
    r = resume(saved)
    assert r.exit_code == 2 and f"stands at entry {entry}, which the adventure no longer has" in one_line(r)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["settings"].update(policy="reckless"), "unknown policy \"reckless\""),
    (lambda d: d["settings"].update(policy=None), "an automatic run needs a policy"),
    (lambda d: d["settings"].update(adventure="\x1b]0;owned\x07book.txt"), "holds control characters"),
    (lambda d: d["state"]["rules"].update(light="bright"), "state.rules.light: string where integer"),
    (lambda d: d["state"]["rules"].pop("dark"), "state.rules.dark: missing"),
    (lambda d: d["state"].update(entry="26"), "state.entry"),
    (lambda d: d.update(rules="maze-rats"), "saved under the rules \"maze-rats\""),
    (lambda d: d["dice"]["state"].__setitem__(0, 2**70), "dice.state"),
    (lambda d: d["character"].update(hp="lots"), "character.hp"),
])
def test_damaged_saves_are_one_line(saved: Path, change: Any, message: str) -> None:
    edit(saved, change)
    r = resume(saved)
    assert r.exit_code == 2 and message in one_line(r), r.output


def test_deeply_nested_save_is_one_line(saved: Path) -> None:
    text = saved.read_text(encoding="utf-8")
    deep = "[" * 100_000 + "]" * 100_000
    saved.write_text(text.replace('"rules":{', f'"rules":{{"deep":{deep},', 1), encoding="utf-8")
    r = resume(saved)
    assert r.exit_code == 2 and "nested too deeply" in one_line(r)


def test_a_save_never_chooses_where_the_log_goes(saved: Path, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    edit(saved, lambda d: d["settings"].update(log=str(victim), log_offset=0))
    r = resume(saved)
    assert r.exit_code in (0, 1) and "Traceback" not in r.output
    assert victim.read_text(encoding="utf-8") == "precious"
    assert f"give --log {victim}" in r.stderr


def test_a_save_naming_a_device_or_fifo_adventure_does_not_hang(saved: Path, tmp_path: Path) -> None:
    fifo = make_fifo(tmp_path / "adventure.json")
    edit(saved, lambda d: d["settings"].update(adventure=str(fifo)))
    r = resume(saved)
    assert r.exit_code == 2 and "named pipe" in one_line(r)
    zero = make_device(tmp_path / "zero.txt", 5)
    edit(saved, lambda d: d["settings"].update(adventure=str(zero)))
    r = resume(saved)
    assert r.exit_code == 2 and "device" in one_line(r)


def test_default_saves_of_books_of_the_same_name_differ(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        shutil.copyfile(CHAPEL, tmp_path / folder / "book.txt")
        r = dtc("play", f"{folder}/book.txt", "--seed", "1", "--auto", "cautious", "--max-turns", "1")
        assert r.exit_code == 0, r.output
    saves = sorted(p.name for p in (tmp_path / "build").glob("*.save.json"))
    assert len(saves) == 2 and all(name.startswith("book-") for name in saves)
    from dtc.runtime.save import default_save_path

    assert default_save_path("a/book.txt") == default_save_path(str(tmp_path / "a" / "book.txt"))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:3]):  # the dice state's 625 words need not all be tried
            yield from _paths(item, (*prefix, i))


@pytest.fixture(scope="module")
def fuzz_base(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], list[tuple[Any, ...]]]:
    folder = tmp_path_factory.mktemp("fuzz")
    graph = folder / "book.json"
    assert dtc("compile", str(CHAPEL), "-o", str(graph)).exit_code == 0
    save = folder / "base.json"
    r = dtc("play", str(graph), "--seed", "1", "--auto", "cautious", "--max-turns", "1", "--save", str(save))
    assert r.stdout.startswith("stopped"), r.output
    data = json.loads(save.read_text(encoding="utf-8"))
    return folder, data, [p for p in _paths(data) if p]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_resume_never_tracebacks_on_a_damaged_save(fuzz_base: tuple[Path, dict[str, Any], list[tuple[Any, ...]]],
                                                   data: st.DataObject) -> None:
    folder, base, paths = fuzz_base
    save = json.loads(json.dumps(base))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        parent = save
        try:
            for key in path[:-1]:
                parent = parent[key]
            if data.draw(st.booleans()) and isinstance(parent, dict):
                parent.pop(path[-1], None)
            else:
                parent[path[-1]] = data.draw(JSON)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed the way there
    target = folder / "damaged.json"
    target.write_text(json.dumps(save), encoding="utf-8")
    (folder / "damaged.json~").unlink(missing_ok=True)
    result = CliRunner().invoke(main, ["play", "--resume", str(target), "--max-turns", "3", "--no-save"])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1, 2) and "Traceback" not in result.output
    if result.exit_code == 2:
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300), limit=st.integers(0, 300))
def test_a_file_is_read_whole_or_refused_at_its_limit(tmp_path: Path, data: bytes, limit: int) -> None:
    path = tmp_path / "input.bin"
    path.write_bytes(data)
    if len(data) <= limit:
        assert fileread.read_bytes(path, "source", limit=limit) == data
    else:
        with pytest.raises(ReadError, match=f"{limit:,}-byte limit"):
            fileread.read_bytes(path, "source", limit=limit)


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\r\n"), max_size=12),
                      min_size=1, max_size=12),
       ends=st.lists(st.sampled_from(["\r\n", "\r", "\n"]), min_size=12, max_size=12), bom=st.booleans())
def test_unchanged_text_is_written_back_byte_for_byte(lines: list[str], ends: list[str], bom: bool) -> None:
    """Every line keeps its own end (and the file its BOM), whatever the mixture."""
    from dtc.compiler.source import decode

    raw_text = "".join(line + end for line, end in zip(lines, ends, strict=False)) + "tail"
    raw = (b"\xef\xbb\xbf" if bom else b"") + raw_text.encode("utf-8")
    try:
        text = decode(raw, "t.txt")
    except Exception:
        return  # not a source dtc reads (a NUL byte...): nothing to write back
    assert renumber_journal.as_written(text, raw).encode("utf-8") == raw


#: Every command that writes a file, as run with a book ``book.txt``, its graph ``book.json`` and
#: ``fix.txt`` (the book with a finding that has a safe fix) in the folder: what a stop must leave alone.
_WRITERS = {
    "compile": ["compile", "book.txt", "-o", "out.json"],
    "graph": ["graph", "book.json", "-o", "out.dot"],
    "build": ["build", "book.txt", "-o", "site", "--no-pdf"],
    "odds": ["odds", "book.json", "-o", "out.json"],
    "simulate": ["simulate", "book.json", "-n", "20", "--workers", "1", "-o", "out.txt"],
    "play": ["play", "book.json", "--auto", "random", "--seed", "1", "--save", "game.save.json"],
    "character new": ["character", "new", "--random", "--seed", "1", "-o", "pc.json"],
    "lint --fix": ["lint", "--no-config", "--fix", "fix.txt"],
    "renumber": ["renumber", "book.txt"],
}


@pytest.mark.parametrize("command", sorted(_WRITERS))
def test_every_command_that_writes_takes_sigterm_as_a_stop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           command: str) -> None:
    """SIGTERM (or SIGHUP) arriving while any command's first file is being written ends the
    command as Ctrl-C does, through its clean-ups: status 143, no temporary left, and the book and
    every file already there as they were. (The handler the command installed is called where
    the signal would arrive, so a command without one fails this test instead of ending it.)"""
    book = "1 Start (D0, S2).\n\n2 Fork (DEX D1, S4, F5).\n\n4 Out. THE END\n\n5 Out. THE END\n"
    (tmp_path / "book.txt").write_text(book, encoding="utf-8")
    (tmp_path / "fix.txt").write_text(book.replace("D1, S4, F5", "D1 S4 F5"), encoding="utf-8")
    assert CliRunner().invoke(main, ["compile", str(tmp_path / "book.txt"), "-o",
                                     str(tmp_path / "book.json")]).exit_code == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    handled = signal.getsignal(signal.SIGTERM)  # (this process's own, put back after the command)
    real, calls = os.fsync, []

    def stopped_at_the_first(fd: int) -> None:  # a file is made and written, not yet renamed
        calls.append(fd)
        if len(calls) == 1:
            handler = signal.getsignal(signal.SIGTERM)
            assert callable(handler) and handler != handled, f"dtc {command} does not take SIGTERM as a stop"
            handler(signal.SIGTERM, None)
        real(fd)

    monkeypatch.setattr(os, "fsync", stopped_at_the_first)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, _WRITERS[command])
    assert calls, f"nothing was written: {result.output} {result.exception!r}"
    assert result.exit_code == 128 + signal.SIGTERM, result.output
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    backups = {name for name in after.keys() - before.keys() if name.endswith("~")}  # made whole, first
    assert all(after[name] == before[name[:-1]] for name in backups)
    assert {name: data for name, data in after.items() if name not in backups} == before
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")]
    assert signal.getsignal(signal.SIGTERM) == handled  # put back as it was


@pytest.mark.parametrize("backup", [False, True])
def test_a_stop_while_a_temporary_is_made_leaves_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      backup: bool) -> None:
    """A termination request (what ``dtc build`` turns SIGTERM into) arriving just as a temporary is
    created, before the code that removes it knows its name, waits until it can be removed."""
    import tempfile

    target = tmp_path / "book.md"
    target.write_text("old\n", encoding="utf-8")
    real = tempfile.mkstemp

    def made_then_stopped(*args: Any, **kwargs: Any) -> tuple[int, str]:
        made = real(*args, **kwargs)
        fileio.STOPS.stop(143)  # as the signal handler would, mid-way
        return made

    monkeypatch.setattr(tempfile, "mkstemp", made_then_stopped)
    with pytest.raises(SystemExit) as stopped:
        fileio.atomic_write_text(target, "new\n", backup=backup)
    assert stopped.value.code == 143
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.md"]
    assert target.read_text(encoding="utf-8") == "old\n"
    assert fileio.STOPS.holding == 0 and fileio.STOPS.pending is None
    with pytest.raises(SystemExit):  # with nothing being made, a stop is at once
        fileio.STOPS.stop(143)
