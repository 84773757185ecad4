"""The import-linter layers contract names every part of dtc: each subpackage as a layer of the
pipeline, ``dtc.__main__`` on top, and every top-level module (``src/dtc/*.py``) in the lowest
layer, below everything — so a new module or package must be placed before it can be imported
from anywhere (``lint-imports``, run by ``scripts/test``, then holds the layers)."""

from __future__ import annotations

import re
import tomllib

from helpers import ROOT

SRC = ROOT / "src" / "dtc"


def layers() -> list[set[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c["type"] == "layers"]
    return [set(re.split(r"\s*[|:]\s*", layer.strip())) for layer in contract["layers"]]


def test_every_top_level_module_is_in_the_lowest_layer() -> None:
    modules = {f"dtc.{p.stem}" for p in SRC.glob("*.py") if p.stem not in ("__init__", "__main__")}
    assert modules and layers()[-1] == modules


def test_every_package_is_a_layer_and_the_entry_point_is_on_top() -> None:
    named = set().union(*layers())
    packages = {f"dtc.{p.parent.name}" for p in SRC.glob("*/__init__.py")}
    assert packages <= named, sorted(packages - named)
    assert layers()[0] == {"dtc.__main__"}
