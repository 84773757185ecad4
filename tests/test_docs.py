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


def test_fast_and_reference_validators_agree() -> None:
    """fastjsonschema (speed) and jsonschema (messages) must accept and refuse the same graphs."""
    import copy
    import json as _json

    import fastjsonschema
    import jsonschema

    from dtc.schema import schema_of

    schema = schema_of("adventure")
    fast = fastjsonschema.compile(schema)
    ref = jsonschema.Draft202012Validator(schema)
    good = _json.loads((ROOT / "tests" / "golden" / "the-drowned-chapel.json").read_text(encoding="utf-8"))
    mutations = [
        ("format_version", 3), ("start", "one"), ("title", 5), ("extra", 1), ("entries", {}),
    ]
    entry_mutations = [("number", -1), ("ending", "yes"), ("choices", [{"label": "x"}]), ("exits", [{"target": 1}]),
                       ("text", None), ("label", 3)]
    cases = [good]
    for key, value in mutations:
        bad = copy.deepcopy(good)
        bad[key] = value
        cases.append(bad)
    for key, value in entry_mutations:
        bad = copy.deepcopy(good)
        bad["entries"][0][key] = value
        cases.append(bad)
    for case in cases:
        ok_ref = ref.is_valid(case)
        try:
            fast(case)
            ok_fast = True
        except fastjsonschema.JsonSchemaException:
            ok_fast = False
        assert ok_fast == ok_ref
    assert sum(ref.is_valid(c) for c in cases) == 1
