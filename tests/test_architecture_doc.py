"""docs/architecture.md names only files and folders that exist, and the names it quotes from them."""

from __future__ import annotations

import re

from helpers import ROOT

DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
#: Paths inside backquotes that start at a top-level folder of the project.
PATHS = sorted(set(re.findall(r"`((?:src|tests|schemas|grammar|docs)/[^`\s]*)`", DOC)))
#: Module files named in the diagrams by their name alone.
DIAGRAM_MODULES = sorted(set(re.findall(r"\b([a-z_]+\.py)\b", DOC)))


def test_the_doc_names_paths() -> None:
    assert len(PATHS) > 20


def test_every_path_it_names_exists() -> None:
    missing = [p for p in PATHS if "nnn" not in p.lower() and "NAME" not in p and not (ROOT / p).exists()]
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"


def test_every_module_in_the_diagrams_exists() -> None:
    src = ROOT / "src" / "dtc"
    found = {p.name for p in src.rglob("*.py")} | {p.name for p in (ROOT / "tests").glob("*.py")}
    missing = [m for m in DIAGRAM_MODULES if m not in found]
    assert not missing, f"docs/architecture.md names modules that do not exist: {missing}"


def test_the_names_it_quotes_are_there() -> None:
    quoted = (
        ("src/dtc/lint/rules/__init__.py", "_MODULE_NAMES"), ("src/dtc/lint/rules/__init__.py", "RETIRED"),
        ("src/dtc/render/formats.py", "FORMATS"), ("src/dtc/render/formats.py", "class Request"),
        ("src/dtc/render/formats.py", "class DrawError"), ("src/dtc/lint/analysis.py", "def of_resolved"),
        ("src/dtc/lint/analysis.py", "def of_graph"), ("src/dtc/systems/__init__.py", "BUILTIN"),
        ("src/dtc/systems/__init__.py", "def parse_rules"), ("src/dtc/systems/__init__.py", "ENTRY_POINT_GROUP"),
        ("src/dtc/systems/base.py", "class System"), ("src/dtc/systems/base.py", "def fresh_characters"),
        ("src/dtc/runtime/game.py", "class Game"), ("src/dtc/render/model.py", "def clean"),
        ("src/dtc/compiler/compile.py", "def compile_document"), ("src/dtc/compiler/compile.py", "def resolve"),
    )
    for path, name in quoted:
        assert name in (ROOT / path).read_text(encoding="utf-8"), f"{path} has no {name}"
