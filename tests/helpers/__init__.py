"""Test helpers: the one-line lint harness and the compile round trip."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from dtc.compiled.schema import validate
from dtc.compiler.api import compile_text
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.engine import lint_compilation

ROOT = Path(__file__).resolve().parent.parent.parent
#: The seed documents: the rule texts the game systems implement, kept beside the checkout as
#: ``../shared/seeds`` for reference. A clone has no such folder; the tests that read them skip with
#: ``SEEDS_MISSING`` as their reason, and no test falls back to other data in their place.
SEEDS = ROOT.parent / "shared" / "seeds"
SEEDS_MISSING = ("the seed documents (../shared/seeds, the rule texts the game systems implement) "
                 "are not beside this checkout")
#: The bundled adventures (our own writing), always present.
BUNDLED = sorted((ROOT / "adventures").glob("*.txt"))


#: Warnings :func:`assert_diagnostics` compares only where a test names them (see there).
LENIENT = frozenset({"unlabelled-choice"})


def lint_text(src: str, path: str = "test.txt") -> list[Diagnostic]:
    return lint_compilation(compile_text(src, path))


def assert_diagnostics(src: str, *expected: str) -> list[Diagnostic]:
    """Lint ``src`` and assert exactly ``expected`` fire (rule names, or ``name@line:col``).

    Errors and warnings must match exactly; info findings are compared only for rules named in
    ``expected``, so a fixture need not avoid every informational note. So are the findings of
    unlabelled-choice (DT307): the small books here leave most choices unnamed, ``(D0, S2)``,
    which speaks to that rule alone (its own tests name it).
    """
    found = lint_text(src)
    names = {e.split("@")[0] for e in expected}
    considered = [d for d in found if (d.severity > Severity.INFO and d.rule not in LENIENT) or d.rule in names]
    want = Counter(expected)
    got = Counter(
        f"{d.rule}@{d.span.line}:{d.span.column}" if any(
            e.startswith(d.rule + "@") for e in expected) else d.rule
        for d in considered
    )
    assert got == want, "\n".join(
        [f"expected {sorted(want.elements())}", f"got      {sorted(got.elements())}"]
        + [f"  {d.span.line}:{d.span.column} {d.code} {d.rule}: {d.message}" for d in considered]
    )
    return found


def round_trip(src: str, path: str = "adventure.txt") -> dict[str, Any]:
    """compile -> JSON text -> schema -> reload: what every runtime test plays from."""
    graph = compile_text(src, path).graph()
    text = json.dumps(graph)
    reloaded = json.loads(text)
    validate(reloaded)
    assert reloaded == graph
    return reloaded  # type: ignore[no-any-return]


def sample_dungeon() -> str | None:
    """The seed's Sample Dungeon, from its "Sample Dungeon" line to the end (None if absent)."""
    seed = SEEDS / "death-and-treasure-v0.1.txt"
    if not seed.exists():
        return None
    text = seed.read_text(encoding="utf-8")
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip() == "Sample Dungeon")
    return "\n".join(lines[start:])


def require_sample_dungeon() -> str:
    """The seed's Sample Dungeon, or skip the calling test with ``SEEDS_MISSING``."""
    text = sample_dungeon()
    if text is None:
        pytest.skip(SEEDS_MISSING)
    return text


def bundled_and_sample() -> list[Any]:
    """pytest parameters ``(name, text)``: every bundled adventure, then the seed's Sample Dungeon,
    which is skipped with ``SEEDS_MISSING`` (never replaced by another book) when the seeds are absent."""
    params: list[Any] = [pytest.param(p.stem, p.read_text(encoding="utf-8"), id=p.stem) for p in BUNDLED]
    sample = sample_dungeon()
    params.append(pytest.param("sample-dungeon", sample or "", id="sample-dungeon",
                               marks=pytest.mark.skipif(sample is None, reason=SEEDS_MISSING)))
    return params


def sigint_default() -> None:
    """In a child before it runs dtc (``preexec_fn``): Ctrl-C as at a terminal. A test runner
    started in the background by a shell without job control ignores SIGINT, and an ignored
    signal stays ignored in its children, so a test that sends Ctrl-C would wait forever."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def count_forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the children ``os.fork`` starts from here on (the list, which fills with their pids)."""
    import os

    children: list[int] = []
    fork = os.fork

    def counting_fork() -> int:
        pid = fork()
        if pid:
            children.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", counting_fork)
    return children


def alive(pid: int) -> bool:
    """Whether process ``pid`` is still running (a zombie, ended and not yet waited for, is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


def terminated(proc: subprocess.Popen[str]) -> str:
    """Send ``proc`` (a dtc command) SIGTERM and wait for it (killed if it outlives 30 s); check
    that it ended as dtc ends on a stop, through its clean-ups (status 143, no traceback), and
    return what it wrote to stderr."""
    try:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "Traceback" not in err
    return str(err)


def benchmark(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` as a module (loaded once: the benchmarks are scripts, not a package)."""
    key = f"dtc_bench_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, ROOT / "benchmarks" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


def on_a_terminal(argv: list[str], tmp_path: Path, env: dict[str, str] | None = None) -> str:
    """What ``argv`` prints to a pseudo-terminal the test makes (never a real device); its
    standard error goes to a file of the test's own."""
    leader, follower = os.openpty()
    try:
        with (tmp_path / "stderr.txt").open("wb") as printed:
            process = subprocess.Popen(argv, stdout=follower, stderr=printed, stdin=subprocess.DEVNULL, env=env)
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the other end closed
                break
            if not chunk:
                break
            chunks.append(chunk)
        process.wait(timeout=60)
    finally:
        os.close(leader)
    return b"".join(chunks).decode("utf-8")
