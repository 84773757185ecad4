"""The distribution's name is free on the public package index, and no document installs another one."""

from __future__ import annotations

import re
import tomllib

from helpers import ROOT

#: Where a user might be told how to install dtc.
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "editors").rglob("*.md")),
             ROOT / "editors" / "vscode" / "extension.js", ROOT / ".pre-commit-hooks.yaml",
             ROOT / "benchmarks" / "README.md", ROOT / "adventures" / "README.md"]


def test_the_distribution_is_not_the_unrelated_dtc() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == "dtc-gamebook"  # "dtc" on the public index is someone else's project
    assert project["scripts"] == {"dtc": "dtc.cli:run"}


def test_no_document_says_pip_install_dtc() -> None:
    wrong = re.compile(r"\b(?:pip|pipx|uv pip)\s+install\s+(?:-U\s+|--upgrade\s+)?['\"]?dtc(?![\w.-])")
    for path in DOCUMENTS:
        if path.is_file():
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                assert not wrong.search(line), f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
