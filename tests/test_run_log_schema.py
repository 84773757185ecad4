"""schemas/run-log.schema.json: every line `dtc play --log` writes satisfies it, for every bundled
book and policy; its lists are the runtime's own; the three validators agree on it."""

from __future__ import annotations

import copy
import json
from typing import Any

import fastjsonschema
import jsonschema
import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.compiled.schema import SchemaError, _compiled, _fast, schema_of, validate
from dtc.outcomes import RUN_OUTCOMES
from dtc.runtime.log import EVENT_KINDS
from dtc.runtime.policies import POLICIES
from dtc.runtime.replay import LOG_VERSION
from helpers import BUNDLED, ROOT

SCHEMA = "run-log"


def _verdicts(line: Any) -> tuple[bool, bool, bool | None]:
    """(reference jsonschema, fastjsonschema, jsonschema-rs or None where not installed): valid?"""
    reference = jsonschema.Draft202012Validator(schema_of(SCHEMA)).is_valid(line)
    try:
        _fast(SCHEMA)(line)
        fast = True
    except fastjsonschema.JsonSchemaException:
        fast = False
    rust = _compiled(SCHEMA)
    return reference, fast, None if rust is None else bool(rust.is_valid(line))


def assert_valid(line: Any) -> None:
    validate(line, SCHEMA)
    reference, fast, rust = _verdicts(line)
    assert reference and fast and rust in (True, None), (line, reference, fast, rust)


def assert_refused(line: Any) -> None:
    with pytest.raises(SchemaError):
        validate(line, SCHEMA)
    reference, fast, rust = _verdicts(line)
    assert not reference and not fast and rust in (False, None), (line, reference, fast, rust)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Any]]:
    """Every bundled book played by every policy of `dtc play` (two seeds each), with --log."""
    folder = tmp_path_factory.mktemp("run-logs")
    found: dict[str, list[Any]] = {}
    for book in BUNDLED:
        for policy in POLICIES:
            for seed in ("1", "2"):
                log = folder / f"{book.stem}-{policy}-{seed}.jsonl"
                result = CliRunner().invoke(main, ["play", str(book), "--seed", seed, "--auto", policy, "--log",
                                                   str(log), "--no-save"], catch_exceptions=False)
                assert result.exit_code in (0, 1), result.output
                found[log.stem] = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    return found


def test_the_schema_is_a_2020_12_schema_found_where_the_others_are() -> None:
    schema = schema_of(SCHEMA)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == schema_of("save")["$schema"]
    assert schema["$id"].endswith("/run-log.schema.json")
    assert (ROOT / "schemas" / "run-log.schema.json").is_file()  # packaged with the others (pyproject.toml)


def test_the_schemas_lists_are_the_runtimes() -> None:
    schema = schema_of(SCHEMA)
    assert schema["properties"]["event"]["enum"] == list(EVENT_KINDS)
    by_kind = {part["if"]["properties"]["event"]["const"]: part["then"] for part in schema["allOf"]}
    assert by_kind["end"]["properties"]["outcome"]["enum"] == list(RUN_OUTCOMES)
    assert by_kind["start"]["properties"]["log"]["const"] == LOG_VERSION


def test_every_line_of_every_logged_run_is_valid(logs: dict[str, list[Any]]) -> None:
    assert len(logs) == len(BUNDLED) * len(POLICIES) * 2
    kinds: set[str] = set()
    for name, lines in logs.items():
        assert lines[0]["event"] == "start" and lines[-1]["event"] == "end", name
        for line in lines:
            assert_valid(line)
            kinds.add(line["event"])
    assert {"start", "decision", "end", "check", "move", "entry"} <= kinds
    assert any("faces" in line for lines in logs.values() for line in lines)


def test_what_a_replay_needs_is_required(logs: dict[str, list[Any]]) -> None:
    lines = next(iter(logs.values()))
    start, end = lines[0], lines[-1]
    decision = next(line for line in lines if line["event"] == "decision")
    faced = next(line for line in lines if line.get("faces"))

    def changed(line: dict[str, Any], **fields: Any) -> dict[str, Any]:
        out = copy.deepcopy(line)
        for key, value in fields.items():
            if value is ...:
                del out[key]
            else:
                out[key] = value
        return out

    for bad in (changed(start, seq=...), changed(start, event="begin"), changed(start, seq=-1),
                changed(start, turn="0"), changed(start, sheet=...), changed(start, log=2), changed(start, made=...),
                changed(start, rulings={"morale": 1}), changed(start, sheet="Brangar"), changed(start, title=3),
                changed(decision, choice=...), changed(decision, choice=0), changed(end, outcome="won"),
                changed(end, reason=...), changed(faced, faces=[]), changed(faced, faces=[[6, 0]]),
                changed(faced, faces=[[6]]), changed(faced, faces=[[6, 2, 1]]), changed(faced, faces=[[0, 1.5]]),
                changed(faced, faces=[[0.5, 0.25]]), changed(faced, faces=[[-6, 2]]), changed(faced, faces=[[6, 2.5]]),
                changed(faced, faces=[6, 2]), [start], "start"):
        assert_refused(bad)
    for good in (changed(faced, faces=[[0, 0.5], [1, 1], [20, 20]]), changed(start, title=None),
                 changed(end, ending_kind="victory"), changed(decision, extra="a kind's own field")):
        assert_valid(good)
