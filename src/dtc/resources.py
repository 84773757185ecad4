"""Locate the files that ship beside the code: the Lark grammars and the JSON Schemas.

In a wheel they live inside the package (``dtc/grammar``, ``dtc/schemas``); in a source
checkout they live at the top of the repository, which is their single home.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """Return the folder holding ``grammar`` or ``schemas`` files."""
    for candidate in (_PACKAGE / name, _PACKAGE.parent.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"dtc installation is missing its {name}/ folder")


def read_text(folder: str, filename: str) -> str:
    return (data_dir(folder) / filename).read_text(encoding="utf-8")
