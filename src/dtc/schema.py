"""JSON Schemas of dtc's files, and loading a compiled graph back with its contract checked.

Validation runs twice as fast as it needs to be correct: ``fastjsonschema`` compiles each schema
into Python once and checks a 10,000-entry graph in about a second; only when it refuses a
document does the reference ``jsonschema`` validator run, to name the offending field well. A test
keeps the two in agreement.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from dtc import FORMAT_VERSION, FORMAT_VERSIONS_READ
from dtc.resources import data_dir


class SchemaError(ValueError):
    """A JSON document that does not satisfy its schema; the message names the field."""


@cache
def schema_of(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((data_dir("schemas") / f"{name}.schema.json").read_text(encoding="utf-8"))
    return data


@cache
def _validator(name: str) -> Any:
    """The reference validator (jsonschema), for precise messages."""
    import jsonschema  # imported lazily: `dtc lint` never needs it

    schema = schema_of(name)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


@cache
def _fast(name: str) -> Any:
    """The compiled validator (fastjsonschema): a callable that raises on the first problem."""
    import fastjsonschema

    return fastjsonschema.compile(schema_of(name))


def _where(error: Any) -> str:
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return path.lstrip(".") or "(top level)"


def validate(instance: Any, name: str = "adventure") -> None:
    """Raise :class:`SchemaError` naming the first offending field."""
    import fastjsonschema

    try:
        _fast(name)(instance)
        return
    except fastjsonschema.JsonSchemaException:
        pass
    errors = sorted(_validator(name).iter_errors(instance), key=lambda e: list(e.absolute_path))
    if errors:
        best = errors[0]
        raise SchemaError(f"{_where(best)}: {best.message}")
    raise SchemaError("the document does not satisfy its schema")  # the two validators disagree


def load_json(path: str | Path, name: str) -> Any:
    """Read a JSON file and check it against schema ``name``; raise SchemaError if it fails."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise SchemaError(f"{path}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise SchemaError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    version = data.get("format_version") if isinstance(data, dict) else None
    if name == "adventure" and version not in (None, *FORMAT_VERSIONS_READ):
        raise SchemaError(
            f"{path}: compiled with format version {data.get('format_version')}; "
            f"this dtc reads versions {FORMAT_VERSIONS_READ[0]} to {FORMAT_VERSION} (recompile the source)"
        )
    try:
        validate(data, name)
    except SchemaError as exc:
        raise SchemaError(f"{path}: {exc}") from None
    return data
