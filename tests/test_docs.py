"""Docs stay true: the rule reference is generated from the registry, the wheel ships its data."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import dtc.lint.ruledocs as ruledocs
from helpers import ROOT


def test_rule_reference_is_up_to_date() -> None:
    current = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert current == ruledocs.render(), "run: python -m dtc.lint.ruledocs > docs/rules.md"


def test_wheel_ships_grammar_and_schemas(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path),
         str(ROOT)],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    (wheel,) = tmp_path.glob("dtc_gamebook-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("dtc/grammar/notation.lark", "dtc/grammar/statblock.lark", "dtc/schemas/adventure.schema.json",
                   "dtc/cli/__init__.py", "dtc/editions/static/web.js", "dtc/editions/static/web.css"):
        assert needed in names, f"{needed} missing from the wheel"


def test_fast_and_reference_validators_agree() -> None:
    """fastjsonschema (speed) and jsonschema (messages) must accept and refuse the same graphs."""
    import copy
    import json as _json

    import fastjsonschema
    import jsonschema

    from dtc.compiled.schema import _compiled, _fast, schema_of

    schema = schema_of("adventure")
    fast = _fast("adventure")  # as dtc compiles it (oneOf [X, null] checked as anyOf [null, X])
    rust = _compiled("adventure")  # jsonschema-rs, where installed
    ref = jsonschema.Draft202012Validator(schema)
    good = _json.loads((ROOT / "tests" / "golden" / "the-drowned-chapel.json").read_text(encoding="utf-8"))
    mutations = [
        ("format_version", 99), ("start", "one"), ("title", 5), ("extra", 1), ("entries", {}),
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
    # the branches that may be null: a span, a target, an effect's condition
    with_choice = next(e for e in good["entries"] if e["choices"] and e["exits"])
    at = good["entries"].index(with_choice)
    for where, key, value in [("choices", "success", 1.5), ("choices", "success", [1]), ("choices", "failure", {}),
                              ("choices", "span", None), ("exits", "span", "here"), ("exits", "span", {"line": 1}),
                              ("exits", "target", None)]:
        bad = copy.deepcopy(good)
        bad["entries"][at][where][0][key] = value
        cases.append(bad)
    fine = copy.deepcopy(good)
    fine["entries"][at]["exits"][0]["span"] = None
    fine["entries"][at]["choices"][0]["failure"] = None
    cases.append(fine)
    for case in cases:
        ok_ref = ref.is_valid(case)
        try:
            fast(case)
            ok_fast = True
        except fastjsonschema.JsonSchemaException:
            ok_fast = False
        assert ok_fast == ok_ref
        if rust is not None:
            assert rust.is_valid(case) == ok_ref
    assert sum(ref.is_valid(c) for c in cases) == 2


def test_validate_gives_the_same_verdicts_without_the_compiled_validator(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without jsonschema-rs, fastjsonschema decides; either way jsonschema names the field."""
    import copy
    import json as _json

    import dtc.compiled.schema as schema

    good = _json.loads((ROOT / "tests" / "golden" / "the-drowned-chapel.json").read_text(encoding="utf-8"))
    bad = copy.deepcopy(good)
    bad["entries"][0]["ending"] = "yes"
    for compiled in (True, False):
        if not compiled:
            monkeypatch.setattr(schema, "_compiled", lambda name: None)
        schema.validate(good)
        with pytest.raises(schema.SchemaError, match=r"entries\[0\]\.ending"):
            schema.validate(bad)
