"""Docs stay true: the rule reference is generated from the registry, the wheel ships its data."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from dtc import ruledocs
from helpers import ROOT


def test_rule_reference_is_up_to_date() -> None:
    current = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert current == ruledocs.render(), "run: python -m dtc.ruledocs > docs/rules.md"


def test_wheel_ships_grammar_and_schemas(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path),
         str(ROOT)],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    (wheel,) = tmp_path.glob("dtc-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("dtc/grammar/notation.lark", "dtc/grammar/statblock.lark", "dtc/schemas/adventure.schema.json",
                   "dtc/cli/__init__.py", "dtc/edition/static/web.js", "dtc/edition/static/web.css"):
        assert needed in names, f"{needed} missing from the wheel"
