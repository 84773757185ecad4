"""Interactive dtc in a pseudo-terminal the test makes (pexpect; never a real device)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from helpers import sigint_default

pexpect = pytest.importorskip("pexpect")


def dtc_command() -> str:
    beside = Path(sys.executable).parent / "dtc"
    found = str(beside) if beside.exists() else shutil.which("dtc")
    if not found:
        pytest.skip("the dtc command is not installed")
    return found


def spawn(args: list[str], cwd: Path) -> pexpect.spawn:  # type: ignore[name-defined]
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb"}
    return pexpect.spawn(dtc_command(), args, cwd=str(cwd), env=env, encoding="utf-8", timeout=30,
                         dimensions=(50, 120), preexec_fn=sigint_default)
