from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers import require_sample_dungeon


@pytest.fixture
def sample_text() -> str:
    return require_sample_dungeon()


@pytest.fixture
def sample_path(tmp_path: Path, sample_text: str) -> Path:
    path = tmp_path / "sample-dungeon.txt"
    path.write_text(sample_text, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def plain_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """Output as in a pipe, whatever the environment the tests run in asks for (colour, width)."""
    for name in ("NO_COLOR", "FORCE_COLOR", "COLUMNS"):
        monkeypatch.delenv(name, raising=False)
