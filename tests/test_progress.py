"""Progress on long work: on stderr, only at a terminal, erased when done; never in a pipe."""

from __future__ import annotations

import io
import os
import sys
import tempfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.cli.progress import Working, wanted
from helpers import ROOT, count_forks

CHAPEL = str(ROOT / "adventures" / "the-drowned-chapel.txt")


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_line_names_each_step_and_is_erased_at_the_end() -> None:
    screen = FakeTerminal()
    with Working("parsing book.txt", file=screen, force=True, delay=0) as work:
        time.sleep(0.2)
        work.step("drawing \x1b[31m")
        time.sleep(0.3)
    drawn = screen.getvalue()
    assert "parsing book.txt…" in drawn and "drawing ␛[31m…" in drawn
    assert "drawing \x1b[31m" not in drawn  # author text (a file name) never drives the terminal
    assert drawn.endswith("\x1b[2K") and "\x1b[?25h" in drawn  # line erased, cursor back


def test_quick_work_shows_nothing() -> None:
    screen = FakeTerminal()
    with Working("parsing", file=screen, force=True, delay=5):
        pass
    assert screen.getvalue() == ""


def test_only_a_terminal_that_is_not_dumb_gets_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not wanted(io.StringIO())
    assert wanted(FakeTerminal())
    monkeypatch.setenv("TERM", "dumb")
    assert not wanted(FakeTerminal())
    screen = io.StringIO()
    with Working("parsing", file=screen, delay=0):
        pass
    assert screen.getvalue() == ""


@pytest.mark.parametrize("args", [["compile", CHAPEL, "-o", "{tmp}/c.json"], ["graph", CHAPEL, "-o", "{tmp}/c.dot"],
                                  ["odds", CHAPEL], ["lint", CHAPEL, CHAPEL], ["simulate", CHAPEL, "-n", "3"],
                                  ["build", CHAPEL, "-o", "{tmp}/b", "--no-pdf"]])
def test_no_progress_in_a_pipe(args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("dtc.cli.progress.DELAY", 0)
    result = CliRunner().invoke(main, [a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.exit_code in (0, 1), result.output
    assert "…" not in result.stderr and "\x1b" not in result.stderr


def _in_a_terminal(args: list[str], env: dict[str, str]) -> str:
    pexpect = pytest.importorskip("pexpect")
    code = "import sys; import dtc.cli.progress as p; p.DELAY = 0; from dtc.cli import main; main()"
    child = pexpect.spawn(sys.executable, ["-c", code, *args], env={**os.environ, **env}, encoding="utf-8",
                          timeout=120, dimensions=(24, 100))
    child.expect(pexpect.EOF)
    child.close()
    return str(child.before)


def test_a_terminal_sees_the_steps(tmp_path: Path) -> None:
    out = _in_a_terminal(["compile", CHAPEL, "-o", str(tmp_path / "c.json")], {"TERM": "xterm"})
    assert "…" in out and f"wrote {tmp_path / 'c.json'}" in out
    quiet = _in_a_terminal(["compile", CHAPEL, "-o", str(tmp_path / "d.json")], {"TERM": "dumb"})
    assert "…" not in quiet and "wrote" in quiet


def test_build_says_why_there_is_no_pdf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # as if not installed
    result = CliRunner().invoke(main, ["build", CHAPEL, "-o", str(tmp_path / "b")])
    assert result.exit_code == 0
    assert "note: no PDF: WeasyPrint is not installed; `pip install weasyprint` adds it" in result.stderr
    quiet = CliRunner().invoke(main, ["build", CHAPEL, "-o", str(tmp_path / "c"), "--no-pdf"])
    assert "note:" not in quiet.stderr


def test_the_display_leaves_the_work_on_two_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The display's threads (the timer waiting to show it, the thread redrawing it) do not keep a
    large book's work on one process, as they did: an author at a terminal got one core where a
    script got two. Any other thread still does."""
    import threading

    import dtc.compiler.parallel as parallel
    from dtc.runmode import RunMode, running

    monkeypatch.setattr(parallel, "cores", lambda: 2)
    monkeypatch.delenv("DTC_PARALLEL", raising=False)
    count = parallel.MIN_ENTRIES
    with running(RunMode(parallel=True)):
        assert parallel.wanted(count)
        screen = FakeTerminal()
        for delay in (0, 5):  # shown at once: the redrawing thread; not yet: the timer
            with Working("compiling", file=screen, force=True, delay=delay):
                assert threading.active_count() > 1
                assert parallel.wanted(count)
        other = threading.Thread(target=time.sleep, args=(0.3,))
        other.start()
        try:
            assert not parallel.wanted(count)
        finally:
            other.join()


def test_a_book_compiled_beside_the_display_is_built_on_two_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    import dtc.compiler.parallel as parallel
    from dtc.compiler.api import compile_text
    from dtc.runmode import RunMode, running

    monkeypatch.setattr(parallel, "cores", lambda: 2)
    monkeypatch.setattr(parallel, "MIN_ENTRIES", 2)
    monkeypatch.delenv("DTC_PARALLEL", raising=False)
    text = Path(CHAPEL).read_text(encoding="utf-8")
    def written() -> bytes:
        with tempfile.TemporaryFile() as out:
            compile_text(text, CHAPEL).write_graph_json(out.fileno(), "\n")
            return out.read()

    alone = written()  # a long-running process's mode: on one process
    children = count_forks(monkeypatch)
    with running(RunMode(parallel=True)), Working("compiling", file=FakeTerminal(), force=True, delay=0):
        assert written() == alone
    assert len(children) >= 2  # the entries read, and the graph built, on two processes


def test_a_fork_waits_while_the_display_imports() -> None:
    """The display imports what it draws with (a lock per module) holding ``forking.lock``,
    which a fork waits for: a child never starts with an import half done."""
    import threading

    from dtc import forking

    released = []
    forking.lock.acquire()

    def release() -> None:
        time.sleep(0.2)
        released.append(time.monotonic())
        forking.lock.release()

    threading.Thread(target=release).start()
    pid = forking.fork()
    if pid == 0:
        os._exit(0)
    forked_at = time.monotonic()
    os.waitpid(pid, 0)
    assert released and forked_at >= released[0]
