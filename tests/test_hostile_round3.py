"""The third round of hostile cases (data loss first, then hangs and crashes, then the unclear).

Each test names the case it holds. Concurrency cases run real ``dtc`` processes (this Python,
``-m dtc``); everything that could block runs under an alarm, and every FIFO, device-like file
and book is made in the test's own folder.
"""

from __future__ import annotations

import errno
import io
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import dtc.renumber.journal as renumber_journal
from dtc import fileio
from dtc.cli import main
from helpers import lint_text, on_a_terminal
from helpers.books import LABELS

ROOT = Path(__file__).resolve().parent.parent


def dtc(*args: str, input: bytes | str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def one_line(result: Result) -> str:
    """The error output, checked to be one line and no traceback."""
    err = result.stderr.strip()
    assert "Traceback" not in result.output + result.stderr
    assert len(err.splitlines()) == 1, err
    return err


def real_dtc(*args: str, cwd: Path | None = None, **kwargs: Any) -> subprocess.Popen[bytes]:
    """The installed command, as a process of its own (output to pipes unless ``kwargs`` say otherwise)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("stderr", subprocess.PIPE)
    return subprocess.Popen([sys.executable, "-m", "dtc", *args], cwd=cwd, env=env, **kwargs)


@pytest.fixture(autouse=True)
def alarm() -> Iterator[None]:
    """Fail a test that blocks instead of hanging the suite."""
    def ring(signum: int, frame: Any) -> None:
        raise TimeoutError("blocked: something that should not wait did")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(120)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def big_book(entries: int) -> str:
    """A book of ``entries`` labelled entries, each with a check: renumbering it takes a while."""
    lines = ["Title: Big", "Start: @e0", "", "Adventure Entries", ""]
    for i in range(entries - 1):
        a, b = i + 1, min(entries - 1, i + 2)
        lines += [f"@e{i} Room {i}. Climb (DEX D2, S@e{a}, F@e{b}) or go to @e{a}.", ""]
    lines += [f"@e{entries - 1} The last room. THE END", ""]
    return "\n".join(lines)


def leftovers(folder: Path) -> list[str]:
    """Temporaries, journals and locks left in ``folder``."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith((".tmp", ".renumber.json", ".lock")))


# --- 1. a journal is data, not instructions --------------------------------------------------------------


class Killed(BaseException):
    """The process dying at this point (nothing after it runs, no handler catches it)."""


def plant_journal(book: Path, **fields: Any) -> Path:
    """A journal beside ``book`` that a run would finish: by default its "after" is the book as it is."""
    now = book.read_bytes()
    data = {"format": "dtc-renumber-journal", "version": 1, "source": os.path.realpath(book),
            "map": os.path.realpath(book.with_name(book.stem + ".map.json")),
            "before_sha256": "0" * 64, "after_sha256": renumber_journal.sha256(now), "after": now.decode("utf-8"),
            "number_map": '{"format": "dtc-number-map", "version": 1, "numbers": [1, 2, 3, 4], "labels": {}}\n'}
    data.update(fields)
    journal = renumber_journal.journal_path(book)
    journal.write_text(json.dumps(data), encoding="utf-8")
    return journal


@pytest.mark.parametrize("named", ["absolute", "relative"])
def test_case1_a_planted_journal_writes_no_file_it_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         named: str) -> None:
    work = tmp_path / "work"
    work.mkdir()
    book = work / "book.txt"
    book.write_text(LABELS.replace("@gate", "1").replace("@wall", "2").replace("@ditch", "3").replace("@yard", "4"),
                    encoding="utf-8")
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    monkeypatch.chdir(work)
    plant_journal(book, map=str(victim) if named == "absolute" else "../victim.txt")
    before = book.read_bytes()
    r = dtc("renumber", "book.txt")
    assert r.exit_code == 2 and "names the number map" in one_line(r)
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert book.read_bytes() == before and not (work / "book.txt~").exists()


def test_case1_a_planted_journal_cannot_put_its_text_in_the_book(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    evil = "Adventure Entries\n\n1 Something else entirely. THE END\n"
    plant_journal(book, before_sha256=renumber_journal.sha256(book.read_bytes()),
                  after=evil, after_sha256=renumber_journal.sha256(evil.encode("utf-8")),
                  number_map='{"format": "dtc-number-map", "version": 1, "numbers": [1], "labels": {}}\n')
    r = dtc("renumber", str(book))
    assert r.exit_code == 2 and "not a renumbering" in one_line(r)
    assert book.read_text(encoding="utf-8") == LABELS and not (tmp_path / "book.map.json").exists()


def test_case1_a_journal_for_another_source_is_refused(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    plant_journal(book, source=str(tmp_path / "other.txt"))
    r = dtc("renumber", str(book))
    assert r.exit_code == 2 and "names another file" in one_line(r)
    assert book.read_text(encoding="utf-8") == LABELS


def test_case1_a_journal_that_is_a_link_is_never_written_through(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    victim = tmp_path / "elsewhere" / "victim.txt"
    victim.parent.mkdir()
    renumber_journal.journal_path(book).symlink_to(victim)  # dangling: the run would create it
    r = dtc("renumber", str(book))
    assert r.exit_code == 2 and "journal" in one_line(r)
    assert not victim.exists() and book.read_text(encoding="utf-8") == LABELS


def test_case1_a_legitimate_interrupted_run_with_its_map_is_still_finished(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """An interrupted run with --map is finished by a run given the same --map (and only by one)."""
    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    other_map = tmp_path / "maps" / "numbers.json"
    other_map.parent.mkdir()
    real_replace = os.replace

    def killed_before_the_map(src: Any, dst: Any) -> None:
        if str(dst).endswith("numbers.json"):
            raise Killed  # the source is written, its map is not
        real_replace(src, dst)

    monkeypatch.setattr(fileio.os, "replace", killed_before_the_map)
    with pytest.raises(Killed):
        dtc("renumber", str(book), "--map", str(other_map))
    monkeypatch.setattr(fileio.os, "replace", real_replace)
    renumbered = book.read_text(encoding="utf-8")
    assert "@" not in renumbered and renumber_journal.journal_path(book).exists() and not other_map.exists()
    r = dtc("renumber", str(book))
    assert r.exit_code == 2 and "names the number map" in one_line(r)
    assert not (tmp_path / "book.map.json").exists()
    r = dtc("renumber", str(book), "--map", str(other_map))
    assert r.exit_code == 0, r.output
    assert "finished an interrupted renumber" in r.stderr
    assert json.loads(other_map.read_text(encoding="utf-8"))["numbers"] == [1, 2, 3, 4]
    assert book.read_text(encoding="utf-8") == renumbered and leftovers(tmp_path) == []


# --- 2. one rewrite of a source at a time, and never over a change -------------------------------------


def _alone(tmp_path: Path, text: str, *args: str) -> tuple[bytes, bytes]:
    """The book and map one renumber run alone makes of ``text``."""
    folder = tmp_path / ("alone" + "".join(args).replace("-", ""))
    folder.mkdir()
    (folder / "book.txt").write_text(text, encoding="utf-8")
    process = real_dtc("renumber", "book.txt", *args, cwd=folder)
    _, err = process.communicate(timeout=100)
    assert process.returncode == 0, err
    return (folder / "book.txt").read_bytes(), (folder / "book.map.json").read_bytes()


def _published(number_map: bytes) -> tuple[Any, Any]:
    data = json.loads(number_map)
    return data["numbers"], data["labels"]


def test_case2_two_renumbers_at_once_run_one_after_the_other(tmp_path: Path) -> None:
    """Plain and --shuffle at once on one book, as two processes: the outcome is one of theirs alone
    (the second finds the first's map and leaves the book as it is), the original is the backup."""
    text = big_book(3000)
    plain, shuffled = _alone(tmp_path, text), _alone(tmp_path, text, "--shuffle", "--seed", "3")
    for trial in range(3):
        folder = tmp_path / f"trial{trial}"
        folder.mkdir()
        book = folder / "book.txt"
        book.write_text(text, encoding="utf-8")
        logs = [folder / "a.log", folder / "b.log"]  # files, not pipes: a run may say much
        with open(logs[0], "wb") as a, open(logs[1], "wb") as b:
            runs = [real_dtc("renumber", "book.txt", cwd=folder, stdout=subprocess.DEVNULL, stderr=a),
                    real_dtc("renumber", "book.txt", "--shuffle", "--seed", "3", cwd=folder,
                             stdout=subprocess.DEVNULL, stderr=b)]
            codes = [p.wait(timeout=100) for p in runs]
        ends = [(code, log.read_text(encoding="utf-8")) for code, log in zip(codes, logs, strict=True)]
        for log in logs:
            log.unlink()
        for code, err in ends:
            assert code == 0 or (code == 2 and "another dtc command is rewriting it" in err), err
            assert "Traceback" not in err
        assert any(code == 0 for code, _ in ends)
        assert (folder / "book.txt~").read_text(encoding="utf-8") == text, f"trial {trial}: the original is lost"
        alone = plain if book.read_bytes() == plain[0] else shuffled
        assert book.read_bytes() == alone[0], f"trial {trial}: the book is neither run's alone"
        assert _published((folder / "book.map.json").read_bytes()) == _published(alone[1])
        assert leftovers(folder) == []


def test_case2_a_second_rewrite_waits_then_refuses_in_one_line(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process holds the book's lock: renumber and lint --fix wait, then say so in one line."""
    book = tmp_path / "book.txt"
    book.write_text(LABELS.replace("(DEX D2, S@wall, F @ditch)", "(DEX D2 S@wall F @ditch)"), encoding="utf-8")
    before = book.read_bytes()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom dtc import fileio\nwith fileio.rewriting(sys.argv[1]):\n"
         "    print('held', flush=True)\n    time.sleep(30)\n", str(book)],
        stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        monkeypatch.setattr(fileio, "LOCK_WAIT", 0.3)
        r = dtc("renumber", str(book))
        assert r.exit_code == 2 and "another dtc command is rewriting it" in one_line(r)
        r = dtc("lint", "--no-config", "--fix", str(book))
        assert r.exit_code == 2 and "another dtc command is rewriting it" in one_line(r)
        assert book.read_bytes() == before and not (tmp_path / "book.txt~").exists()
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()
    assert dtc("renumber", str(book)).exit_code == 0  # a lock its holder left (killed) is free


def test_case2_a_hand_edit_saved_while_renumber_runs_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dtc.cli.renumber_cmd as renumber_cmd

    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    (tmp_path / "book.txt~").write_text("the earlier backup", encoding="utf-8")
    edited = LABELS.replace("The yard is quiet.", "The yard is quiet, and a hand edit was saved.")
    real = renumber_cmd.renumber

    def meanwhile(*args: Any, **kwargs: Any) -> Any:
        with open(book, "w", encoding="utf-8") as f:  # an editor saving in place while renumber works
            f.write(edited)
        return real(*args, **kwargs)

    monkeypatch.setattr(renumber_cmd, "renumber", meanwhile)
    r = dtc("renumber", str(book))
    assert r.exit_code == 2 and "changed since dtc read it" in one_line(r)
    assert book.read_text(encoding="utf-8") == edited
    assert (tmp_path / "book.txt~").read_text(encoding="utf-8") == "the earlier backup"
    assert not (tmp_path / "book.map.json").exists() and leftovers(tmp_path) == []


def test_case2_a_hand_edit_saved_while_lint_fix_runs_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dtc.cli.lint_fix as lint_fix

    book = tmp_path / "book.txt"
    source = "1 Start (D0, S2).\n\n2 Fork (DEX D1 S4 F5).\n\n4 Out. THE END\n\n5 Out. THE END\n"
    book.write_text(source, encoding="utf-8")
    edited = source.replace("Start", "Start, edited by hand")
    real = lint_fix.fix_text

    def meanwhile(*args: Any, **kwargs: Any) -> Any:
        book.write_text(edited, encoding="utf-8")
        return real(*args, **kwargs)

    monkeypatch.setattr(lint_fix, "fix_text", meanwhile)
    r = dtc("lint", "--no-config", "--fix", str(book))
    assert r.exit_code == 2 and "changed since dtc read it" in one_line(r)
    assert book.read_text(encoding="utf-8") == edited and not (tmp_path / "book.txt~").exists()
    assert leftovers(tmp_path) == []


def test_case2_lint_fix_in_a_folder_nothing_can_be_written_in_still_lints(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The lock file cannot be made (a read-only folder): a book with nothing to fix is linted as
    before; one with a fix is refused by the write itself, naming the book."""
    clean = tmp_path / "clean.txt"
    clean.write_text("1 Start (D0, S2).\n\n2 End. THE END\n", encoding="utf-8")
    real_open = os.open

    def read_only_folder(path: Any, flags: int, *args: Any) -> int:
        if str(path).endswith(".lock") or (flags & os.O_CREAT and str(path).endswith(".tmp")):
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(path, flags, *args)

    monkeypatch.setattr(fileio.os, "open", read_only_folder)
    r = dtc("lint", "--no-config", "--fix", str(clean))
    assert r.exit_code == 0, r.output


# --- 3. FILE~ is a copy of its own, and a failed run keeps the earlier one --------------------------


def test_case3_an_interrupted_renumber_leaves_a_backup_of_its_own(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    real_replace = os.replace

    def killed(src: Any, dst: Any) -> None:
        if str(dst) == str(book):
            raise Killed  # the backup is in place, the source not yet replaced
        real_replace(src, dst)

    monkeypatch.setattr(fileio.os, "replace", killed)
    with pytest.raises(Killed):
        dtc("renumber", str(book))
    monkeypatch.setattr(fileio.os, "replace", real_replace)
    backup = tmp_path / "book.txt~"
    assert backup.read_text(encoding="utf-8") == LABELS
    assert not os.path.samefile(book, backup) and os.stat(book).st_nlink == 1 == os.stat(backup).st_nlink
    with open(book, "a", encoding="utf-8") as f:  # an edit in place changes the source alone
        f.write("\nAn edit.\n")
    assert backup.read_text(encoding="utf-8") == LABELS
    r = dtc("renumber", str(book))  # the journal of the interrupted run is over a changed source
    assert r.exit_code == 2 and "has changed since" in one_line(r)


def test_case3_a_failed_lint_fix_keeps_the_earlier_backup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = tmp_path / "book.txt"
    source = "1 Start (D0, S2).\n\n2 Fork (DEX D1 S4 F5).\n\n4 Out. THE END\n\n5 Out. THE END\n"
    book.write_text(source, encoding="utf-8")
    (tmp_path / "book.txt~").write_text("the earlier backup", encoding="utf-8")
    real_write = fileio._write_all

    def disk_full(fd: int, data: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(fileio, "_write_all", disk_full)
    r = dtc("lint", "--no-config", "--fix", str(book))
    monkeypatch.setattr(fileio, "_write_all", real_write)
    assert r.exit_code == 2 and "no space left" in one_line(r)
    assert (tmp_path / "book.txt~").read_text(encoding="utf-8") == "the earlier backup"
    assert book.read_text(encoding="utf-8") == source and leftovers(tmp_path) == []
    r = dtc("lint", "--no-config", "--fix", str(book))
    assert (tmp_path / "book.txt~").read_text(encoding="utf-8") == source
    assert not os.path.samefile(book, tmp_path / "book.txt~")


def test_case3_every_backup_is_a_copy(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    save.write_text("first", encoding="utf-8")
    fileio.write_text(save, "second", backup=True)
    assert os.stat(save).st_nlink == 1 and os.stat(tmp_path / "game.json~").st_nlink == 1
    assert (tmp_path / "game.json~").read_text(encoding="utf-8") == "first"


# --- 4. a refused renumber leaves nothing to be finished later --------------------------------------


def test_case4_a_refused_renumber_leaves_no_journal(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    os.mkfifo(tmp_path / "book.txt~")
    r = dtc("renumber", str(book), "--shuffle", "--seed", "5", "--gap", "2")
    assert r.exit_code == 2 and "book.txt~" in one_line(r)
    assert not renumber_journal.journal_path(book).exists() and leftovers(tmp_path) == []
    assert book.read_text(encoding="utf-8") == LABELS and not (tmp_path / "book.map.json").exists()
    (tmp_path / "book.txt~").unlink()
    r = dtc("renumber", str(book))
    assert r.exit_code == 0 and "finished an interrupted" not in r.stderr
    assert "(DEX D2, S2, F 3)" in book.read_text(encoding="utf-8")  # the plain numbering, not the shuffle's


def test_case4_a_refusal_after_the_journal_removes_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Refused while the source is written (a full disk): the journal goes too."""
    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    real_write = fileio._write_all
    calls = [0]

    def full_on_the_second(fd: int, data: Any) -> None:
        calls[0] += 1
        if calls[0] == 2:  # the journal is written; the new source is not
            raise OSError(errno.ENOSPC, "No space left on device")
        real_write(fd, data)

    monkeypatch.setattr(fileio, "_write_all", full_on_the_second)
    r = dtc("renumber", str(book), "--shuffle", "--seed", "5", "--gap", "2")
    monkeypatch.setattr(fileio, "_write_all", real_write)
    assert r.exit_code == 2 and "no space left" in one_line(r)
    assert leftovers(tmp_path) == [] and book.read_text(encoding="utf-8") == LABELS


# --- 5. owner and group ---------------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="changing users needs root")
def test_case5_a_file_of_a_group_the_writer_is_not_in_keeps_its_group(tmp_path: Path) -> None:
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="dtc-group-"))  # a folder every user can reach
    try:
        folder.chmod(0o777)
        book = folder / "book.txt"
        book.write_text("old\n", encoding="utf-8")
        os.chown(book, 65534, 0)  # nobody:root
        book.chmod(0o640)
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: write it as nobody, in no group but its own
            code = 3
            try:
                os.close(read)
                os.setgroups([])
                os.setgid(65534)
                os.setuid(65534)
                try:
                    fileio.write_text(book, "new\n")
                    code = 0
                except fileio.OutputError as exc:
                    os.write(write, str(exc).encode())
                    code = 2
            finally:
                os._exit(code)
        os.close(write)
        with os.fdopen(read, "rb") as said:
            message = said.read().decode()
        _, status = os.waitpid(pid, 0)
        info = os.stat(book)
        assert (info.st_uid, info.st_gid) == (65534, 0), "the group changed"
        if os.waitstatus_to_exitcode(status) == 2:
            assert "group" in message and book.read_text(encoding="utf-8") == "old\n"
        else:
            assert os.waitstatus_to_exitcode(status) == 0 and book.read_text(encoding="utf-8") == "new\n"
    finally:
        shutil.rmtree(folder)


def test_case5_the_group_refusal_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the group cannot be given (simulated: fchown refused), the file is left and one line says why."""
    out = tmp_path / "out.json"
    out.write_text("old", encoding="utf-8")
    info = os.stat(out)
    fake_gid = info.st_gid + 1
    real_stat, real_fstat = os.stat, os.fstat

    def other_group(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        result = real_stat(path, *args, **kwargs)
        if str(path) == str(out):
            values = list(result)
            values[5] = fake_gid
            return os.stat_result(values)
        return result

    def refuse(fd: int, uid: int, gid: int) -> None:
        if gid not in (-1, real_fstat(fd).st_gid):
            raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(fileio.os, "stat", other_group)
    monkeypatch.setattr(fileio.os, "fchown", refuse)
    with pytest.raises(fileio.OutputError, match="group"):
        fileio.write_text(out, "new")
    monkeypatch.undo()
    assert out.read_text(encoding="utf-8") == "old" and leftovers(tmp_path) == []


# --- 6. per-file globs in linear time ---------------------------------------------------------------------


def _reference_glob(pattern: str, relpath: str) -> bool:
    """What a per-file pattern meant when it was a regular expression (the meaning is kept)."""
    import re
    from pathlib import PurePosixPath

    def regex(p: str) -> str:
        out, i = [], 0
        while i < len(p):
            if p.startswith("**/", i):
                out.append("(?:.*/)?")
                i += 3
            elif p.startswith("**", i):
                out.append(".*")
                i += 2
            elif p[i] == "*":
                out.append("[^/]*")
                i += 1
            elif p[i] == "?":
                out.append("[^/]")
                i += 1
            else:
                out.append(re.escape(p[i]))
                i += 1
        return "".join(out)

    pattern = pattern.strip().removeprefix("./")
    if "/" not in pattern:
        return re.fullmatch(regex(pattern), PurePosixPath(relpath).name) is not None
    return re.fullmatch(regex(pattern.lstrip("/")), relpath) is not None


@pytest.mark.parametrize("stars", [80, 160, 5000])
def test_case6_a_glob_of_many_stars_is_matched_at_once(stars: int) -> None:
    from dtc.lint.configuration import glob_match

    started = time.perf_counter()
    for pattern in ("*" * stars + "x", "a" + "*a" * stars + "x", "**/" * stars + "*x", "?*" * stars + "/y"):
        assert not glob_match(pattern, "a" * 60 + "/" + "a" * 60)
    assert glob_match("*" * stars + "a", "a" * 60)
    assert time.perf_counter() - started < 2.0


def test_case6_lint_with_a_hostile_per_file_glob_answers_in_time(tmp_path: Path) -> None:
    book = tmp_path / ("a" * 60 + ".txt")
    book.write_text("1 Start. THE END\n", encoding="utf-8")
    (tmp_path / "dtc.toml").write_text(f'[per-file."{"*" * 160}x"]\nignore = ["DT201"]\n', encoding="utf-8")
    started = time.perf_counter()
    r = dtc("lint", str(book))
    assert r.exit_code == 0, r.output
    assert time.perf_counter() - started < 10.0


def test_case6_the_glob_means_what_it_meant() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from dtc.lint.configuration import glob_match

    @settings(max_examples=600, deadline=None)
    @given(st.text("a/*?.", max_size=10), st.text("ab/.", max_size=12))
    def same(pattern: str, path: str) -> None:
        assert glob_match(pattern, path) == _reference_glob(pattern, path), (pattern, path)

    same()
    for pattern, path, want in [("drafts/**", "drafts/a/b.txt", True), ("**/*.txt", "a.txt", True),
                                ("**/*.txt", "x/y/a.txt", True), ("*.txt", "x/y/a.txt", True),
                                ("x/*.txt", "x/y/a.txt", False), ("x/**/a.txt", "x/a.txt", True),
                                ("?.txt", "ab.txt", False), ("***/a", "b/a", True)]:
        assert glob_match(pattern, path) is want is _reference_glob(pattern, path), pattern


# --- 7. a save is checked for meaning -------------------------------------------------------------------

RATS = """Title: R
Rules: maze-rats

Adventure Entries

1 A door (D0, S4).

4 A corridor (D0, S2).

2 A Brute HP 30 | Armor 6 | AB 4 | DEX 1 | WIL 6 blocks the hall and attacks. Go to 3.

3 The end. THE END
"""


@pytest.fixture
def rats_save(tmp_path: Path) -> Path:
    book = tmp_path / "rats.txt"
    book.write_text(RATS, encoding="utf-8")
    save = tmp_path / "game.json"
    r = dtc("play", str(book), "--seed", "1", "--auto", "bold", "--max-turns", "1", "--save", str(save))
    assert r.stdout.startswith("stopped"), r.output
    return save


def _edit(save: Path, change: Any) -> None:
    data = json.loads(save.read_text(encoding="utf-8"))
    change(data)
    save.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["dice"].__setitem__("state", [0] * 625), "cannot advance"),
    (lambda d: d["dice"].__setitem__("state", [0] * 624 + [624]), "cannot advance"),
    (lambda d: d["dice"]["state"].__setitem__(624, 625), "position 625"),
    (lambda d: d["dice"]["state"].__setitem__(5, 2**32), "32-bit"),
    (lambda d: d["dice"].__setitem__("version", 2), "version 2"),
    (lambda d: d["settings"].__setitem__("max_turns", 10**30), "settings.max_turns"),
], ids=["zeros", "zeros-at-the-end", "position", "word", "version", "max-turns"])
def test_case7_a_save_that_cannot_go_on_is_one_line(rats_save: Path, change: Any, message: str) -> None:
    _edit(rats_save, change)
    r = dtc("play", "--resume", str(rats_save), "--max-turns", "5")
    assert r.exit_code == 2 and message in one_line(r)


def test_case7_a_state_with_one_word_set_still_plays(rats_save: Path) -> None:
    """Only the state the generator cannot leave is refused: one set bit makes a real state."""
    _edit(rats_save, lambda d: d["dice"].__setitem__("state", [0x80000000] + [0] * 623 + [624]))
    r = dtc("play", "--resume", str(rats_save), "--max-turns", "5")
    assert r.exit_code in (0, 1) and "Traceback" not in r.output


# --- 8. interactive input is read a line at a time, with a limit ---------------------------------------


class EndlessLine(io.RawIOBase):
    """Standard input holding one line of ``size`` bytes and no line end; counts what was read."""

    def __init__(self, size: int) -> None:
        self.left = size
        self.taken = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = min(len(buffer), self.left)
        buffer[:n] = b"x" * n
        self.left -= n
        self.taken += n
        return n


def test_case8_an_endless_input_line_is_read_only_to_its_limit(tmp_path: Path) -> None:
    from dtc.cli.play_cmd import LINE_LIMIT

    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    stream = EndlessLine(32 * 1024 * 1024)
    r = CliRunner().invoke(main, ["play", str(book), "--seed", "1", "--no-save"], input=stream,
                           catch_exceptions=False)
    assert "Traceback" not in r.output
    assert f"a line of input longer than {LINE_LIMIT:,} characters" in r.stdout
    assert stream.taken < 1024 * 1024, f"{stream.taken:,} bytes read of a line with no end"


def test_case8_a_real_process_stops_reading_a_line_with_no_end(tmp_path: Path) -> None:
    """``dtc play`` fed by a program that writes one line forever: it stops, and the writer sees
    the pipe close long before the 64 MiB it would write."""
    import threading

    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    process = real_dtc("play", str(book), "--seed", "1", "--no-save", stdin=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    written = [0]

    def feed() -> None:
        chunk = b"x" * 65536
        try:
            assert process.stdin is not None
            while written[0] < 64 * 1024 * 1024:
                process.stdin.write(chunk)
                written[0] += len(chunk)
        except (BrokenPipeError, OSError, ValueError):
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    out, _ = process.communicate(timeout=100)
    writer.join(10)
    assert b"a line of input longer than" in out
    assert written[0] < 64 * 1024 * 1024


def test_case8_a_line_at_the_limit_is_still_an_answer(tmp_path: Path) -> None:
    from dtc.cli.play_cmd import LINE_LIMIT

    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    r = dtc("play", str(book), "--seed", "1", "--no-save", input=" " * (LINE_LIMIT - 1) + "q\n")
    assert "quit by the player" in r.stdout, r.output


# --- 9. a save is a regular file ------------------------------------------------------------------------


def test_case9_a_fifo_save_is_refused_before_the_game(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    fifo = tmp_path / "save.fifo"
    os.mkfifo(fifo)
    r = dtc("play", str(book), "--seed", "1", "--auto", "cautious", "--save", str(fifo))
    assert r.exit_code == 2 and "named pipe" in one_line(r) and "regular file" in one_line(r)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    r = dtc("play", "--resume", str(fifo))  # (a FIFO is no save to resume either)
    assert r.exit_code == 2 and "named pipe" in one_line(r)


def test_case9_a_save_that_becomes_a_fifo_mid_game_is_refused_not_opened(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The save is swapped for a FIFO nobody reads after the first turn: the next save is refused
    in one line (it was opened again every turn, and blocked)."""
    import dtc.cli.play_cmd as play_cmd

    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    save = tmp_path / "game.json"
    real = play_cmd.write_save
    saved = [0]

    def swapped(path: Any, *args: Any, **kwargs: Any) -> None:
        saved[0] += 1
        if saved[0] == 2:
            save.unlink()
            os.mkfifo(save)
        real(path, *args, **kwargs)

    monkeypatch.setattr(play_cmd, "write_save", swapped)
    r = dtc("play", str(book), "--seed", "1", "--auto", "cautious", "--save", str(save))
    assert r.exit_code == 2 and "named pipe" in one_line(r)
    assert stat.S_ISFIFO(os.lstat(save).st_mode)


# --- 10. numbers bounded, Ctrl-C at any moment ------------------------------------------------------------

HUGE = str(10**40)


@pytest.mark.parametrize("args", [
    ("renumber", "{book}", "--keep", "9" * 5000),
    ("renumber", "{book}", "--keep", HUGE),
    ("renumber", "{book}", "--gap", HUGE, "--shuffle"),
    ("renumber", "{book}", "--seed", HUGE),
    ("simulate", "{book}", "-n", HUGE),
    ("simulate", "{book}", "-n", "9" * 5000),
    ("simulate", "{book}", "--workers", HUGE),
    ("simulate", "{book}", "--max-turns", HUGE),
    ("simulate", "{book}", "--seed", HUGE),
    ("simulate", "{book}", "--limit", HUGE),
    ("play", "{book}", "--max-turns", HUGE, "--no-save"),
    ("play", "{book}", "--from", HUGE, "--no-save"),
    ("play", "{book}", "--seed", "-" + HUGE, "--no-save"),
    ("odds", "{book}", "--limit", HUGE),
], ids=lambda a: "-".join(x if len(x) < 12 else "N" for x in a if x != "{book}"))
def test_case10_every_numeric_option_is_bounded_in_one_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    r = dtc(*(str(book) if a == "{book}" else a for a in args))
    assert r.exit_code == 2, r.output
    line = one_line(r)
    assert line.startswith("error: ") and ("--" in line or "-n" in line), line
    assert book.read_text(encoding="utf-8") == LABELS


def test_case10_the_turn_limits_agree() -> None:
    from dtc.cli.base import MAX_TURNS
    from dtc.runtime.save import MAX_TURNS as SAVED

    assert MAX_TURNS == SAVED


def test_case10_a_usage_error_is_one_line(tmp_path: Path) -> None:
    for args in (("lint",), ("nosuch",), ("lint", "--nosuch", "x"), ("renumber", str(tmp_path))):
        r = dtc(*args)
        assert r.exit_code == 2 and one_line(r).startswith("error: "), args


def test_case10_ctrl_c_in_a_command_is_130_and_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dtc.cli.lint_cmd as lint_cmd

    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(lint_cmd, "lint_compilation", interrupted, raising=False)
    monkeypatch.setattr(lint_cmd, "config_for", interrupted)
    r = dtc("lint", str(book))
    assert r.exit_code == 130 and one_line(r) == "stopped: interrupted"


def _started_frames_only(err: str) -> bool:
    """A traceback from the interpreter's own start (its site module and the ``.pth`` files it
    runs, runpy finding ``-m dtc``), which no program can catch: none of its frames is dtc's or
    click's."""
    frames = [line for line in err.splitlines() if line.strip().startswith("File ")]
    return all("/dtc/" not in f and "/click/" not in f for f in frames)


def test_case10_ctrl_c_at_any_moment_is_130_and_one_line(tmp_path: Path) -> None:
    """SIGINT at moments from the interpreter's start to the middle of the work. Before the command
    line was imported it ended in a traceback (the first 0.15 s), then in click's "Aborted!" (exit 1)."""
    book = tmp_path / "book.txt"
    book.write_text(big_book(20000), encoding="utf-8")
    stopped = 0
    for delay in (0.03, 0.06, 0.09, 0.12, 0.16, 0.2, 0.3, 0.5, 0.8):
        process = real_dtc("lint", str(book), stdout=subprocess.DEVNULL)
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        _, err_bytes = process.communicate(timeout=60)
        err = err_bytes.decode()
        assert "Aborted" not in err, (delay, err)
        if process.returncode == 130:
            assert err.strip() == "stopped: interrupted", (delay, err)
            stopped += 1
        elif "Traceback" in err or "Fatal Python error" in err:  # the interpreter was still starting
            assert _started_frames_only(err), (delay, err)
        elif process.returncode == -signal.SIGINT:  # before the interpreter took SIGINT: killed by it
            assert not err.strip(), (delay, err)
        else:
            assert process.returncode in (0, 1), (delay, err)
    assert stopped >= 4  # the later moments fall in the work (a 20,000-entry book), whatever the machine


# --- 11. every error names its file ---------------------------------------------------------------------


def _no_space(*args: Any, **kwargs: Any) -> Any:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_case11_compile_on_a_full_disk_names_its_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    out = tmp_path / "out.json"
    out.write_text("the old graph", encoding="utf-8")
    monkeypatch.setattr(os, "pwritev", _no_space)
    monkeypatch.setattr(os, "pwrite", _no_space)
    r = dtc("compile", str(book), "-o", str(out))
    assert r.exit_code == 2 and one_line(r) == f"{out}: error: no space left on the device"
    assert out.read_text(encoding="utf-8") == "the old graph" and leftovers(tmp_path) == []


class _FullFile(io.FileIO):
    """A file on a full disk: every write fails."""

    def write(self, data: Any) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


def test_case11_the_event_log_on_a_full_disk_names_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    log = tmp_path / "run.jsonl"
    monkeypatch.setattr(io, "FileIO", _FullFile)
    r = dtc("play", str(book), "--seed", "1", "--auto", "cautious", "--no-save", "--log", str(log))
    monkeypatch.undo()
    assert r.exit_code == 2 and one_line(r) == f"{log}: error: no space left on the device"


def test_case11_a_log_on_a_device_that_is_full_names_itself(tmp_path: Path) -> None:
    """A real ENOSPC from the kernel: a node of the "full" device (1, 7), made here in the test's
    folder (skipped where nodes cannot be made; never the machine's own /dev entry)."""
    full = tmp_path / "full"
    try:
        os.mknod(full, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot make a device node here ({exc})")
    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    r = dtc("play", str(book), "--seed", "1", "--auto", "cautious", "--no-save", "--log", str(full))
    assert r.exit_code == 2 and one_line(r) == f"{full}: error: no space left on the device"
    r = dtc("compile", str(book), "-o", str(full))
    assert r.exit_code == 2 and one_line(r) == f"{full}: error: no space left on the device"
    assert stat.S_ISCHR(os.lstat(full).st_mode)


def test_case11_a_full_standard_output_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    class Full(io.BytesIO):
        def write(self, data: Any) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

        def writelines(self, lines: Any) -> None:
            for line in lines:
                self.write(line)

    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(Full()))
    with pytest.raises(fileio.OutputError, match="no space left") as info:
        fileio.write_bytes("-", b"data\n")
    assert str(info.value) == "<stdout>: error: no space left on the device"


# --- 12. every terminal path through dtc.visible ------------------------------------------------------------

EVIL = "\x1b]0;PWNED\x07"


@pytest.mark.parametrize("dry_run", [False, True])
def test_case12_renumber_quotes_bad_notation_with_visible_controls(tmp_path: Path, dry_run: bool) -> None:
    book = tmp_path / "book.txt"
    book.write_text(f"1 Go (DEX{EVIL} D1, S2, F3).\n\n2 A. THE END\n\n3 B. THE END\n", encoding="utf-8")
    r = dtc("renumber", str(book), *(["--dry-run"] if dry_run else []))
    assert r.exit_code == 1 and "choice notation does not parse" in r.stderr
    assert "\x1b" not in r.output + r.stderr and "\x07" not in r.stderr and "\\x1b]0;PWNED\\x07" in r.stderr


def _on_a_terminal(argv: list[str], tmp_path: Path) -> str:
    """What ``argv`` prints to a pseudo-terminal this test makes (never a real device)."""
    return on_a_terminal(argv, tmp_path, {**os.environ, "PYTHONPATH": str(ROOT / "src")})


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")
def test_case12_lint_diff_shows_a_person_visible_controls_and_a_pipe_the_bytes(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text(f"1 Start (D0, S2).\n\n2 Fork {EVIL} (DEX D1 S4 F5).\n\n4 Out. THE END\n\n5 Out. THE END\n",
                    encoding="utf-8")
    argv = [sys.executable, "-m", "dtc", "lint", "--no-config", "--diff", str(book)]
    shown = _on_a_terminal(argv, tmp_path)
    assert "\x1b" not in shown and "\x07" not in shown and "\\x1b]0;PWNED\\x07 (DEX D1, S4, F5)" in shown, repr(shown)
    piped = subprocess.run(argv, capture_output=True, timeout=60,
                           env={**os.environ, "PYTHONPATH": str(ROOT / "src")}).stdout.decode("utf-8")
    assert f"+2 Fork {EVIL} (DEX D1, S4, F5)." in piped


# --- 13. over-long notation gets a finding, never silence ----------------------------------------------------


def _codes(text: str) -> list[str]:
    return sorted(d.code for d in lint_text(text))


@pytest.mark.parametrize("notation", [
    "(D1, S" + "2" * 200 + ")",
    "(D1, S2, F3, " + "x" * 250 + ")",
    "(DEX D2, S2, F" + "3" * 300 + ")",
    "(D1 S2 F3" + " " * 240 + ")",
], ids=["200-digits", "long-tail", "300-digits", "spaces"])
def test_case13_overlong_notation_is_a_finding(notation: str) -> None:
    text = f"1 A door {notation}.\n\n2 In. THE END\n\n3 Out. THE END\n"
    found = [d for d in lint_text(text) if d.code == "DT101"]
    assert found and "longer than 200 characters" in found[0].message
    assert found[0].span.line == 1 and found[0].span.column == 10


def test_case13_overlong_notation_stops_renumber_with_a_reason(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text("1 A door (D1, S" + "2" * 200 + ").\n\n2 In. THE END\n", encoding="utf-8")
    r = dtc("renumber", str(book))
    assert r.exit_code == 1 and "longer than 200 characters" in r.stderr


def test_case13_long_prose_in_parentheses_stays_prose() -> None:
    text = "1 A door (" + "it creaks, and the wind howls through it " * 8 + ") (D0, S2).\n\n2 In. THE END\n"
    assert "DT101" not in _codes(text)


def test_case13_a_hundred_digits_are_still_dt121() -> None:
    assert "DT121" in _codes("1 A door (D1, S" + "2" * 100 + ", F2).\n\n2 In. THE END\n")


def test_case13_many_long_parentheses_are_read_in_linear_time() -> None:
    from dtc.compiler.api import compile_text

    body = ("(" + "x" * 300) * 3000 + ("(D1, S2, F3, " + "y" * 300 + ") ") * 3000
    started = time.perf_counter()
    comp = compile_text(f"1 {body}\n\n2 THE END\n\n3 THE END\n", "long.txt")
    assert time.perf_counter() - started < 20
    assert sum(1 for c in comp.doc.entries[0].choices if c.error) == 3000


# --- 14. a socket, a directory and an unusable configuration: one line each, exit 2 --------------------------


@pytest.fixture
def socket_path(tmp_path: Path) -> Iterator[Path]:
    import socket

    path = tmp_path / "book.sock"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        yield path
    finally:
        server.close()


@pytest.mark.parametrize("command", ["lint", "compile", "graph", "odds", "renumber", "play"])
def test_case14_a_socket_input_says_it_is_a_socket(socket_path: Path, command: str) -> None:
    r = dtc(command, str(socket_path))
    assert r.exit_code == 2 and "socket" in one_line(r) and str(socket_path) in one_line(r)
    assert "No such device" not in r.stderr


@pytest.mark.parametrize("command", ["lint", "compile", "graph", "odds", "renumber", "play", "simulate"])
def test_case14_a_directory_input_is_one_line(tmp_path: Path, command: str) -> None:
    folder = tmp_path / "book.txt"
    folder.mkdir()
    r = dtc(command, str(folder))
    assert r.exit_code == 2 and str(folder) in one_line(r) and "directory" in one_line(r)


@pytest.mark.parametrize("kind", ["fifo", "directory", "self-link", "dangling-link"])
@pytest.mark.parametrize("command", ["lint", "compile"])
def test_case14_an_unusable_dtc_toml_is_one_line(tmp_path: Path, kind: str, command: str) -> None:
    book = tmp_path / "book.txt"
    book.write_text(LABELS, encoding="utf-8")
    config = tmp_path / "dtc.toml"
    if kind == "fifo":
        os.mkfifo(config)
    elif kind == "directory":
        config.mkdir()
    elif kind == "self-link":
        config.symlink_to(config.name)
    else:
        config.symlink_to("nowhere.toml")
    args = [command, str(book)] + (["-o", str(tmp_path / "out.json")] if command == "compile" else [])
    r = dtc(*args)
    assert r.exit_code == 2 and one_line(r).startswith(f"{config}: error: ")
    assert not (tmp_path / "out.json").exists()
