"""JSON Schemas of dtc's files, and loading a compiled graph back with its contract checked.

Validation runs fast when a document is valid, and carefully when it is not: ``jsonschema-rs``
(compiled, in Rust) checks a 10,000-entry graph in a few hundredths of a second, a tenth of the
time Python takes to parse its JSON; where it is not installed, ``fastjsonschema`` (which
compiles each schema into Python) does it in about a second. Only when the fast validator
refuses a document does the reference ``jsonschema`` validator run, to name the offending field
well. A test keeps the three in agreement.
"""

from __future__ import annotations

import gc
import json
from functools import cache
from pathlib import Path
from typing import Any

from dtc import runmode
from dtc.compiled.graphjson import READABLE_VERSIONS, CompiledGraph
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


def _null_first(node: Any, defs: dict[str, Any]) -> Any:
    """The schema with each ``oneOf: [X, null]`` as ``anyOf: [null, X]``, where X cannot be null.

    The two accept the same documents (X and null are disjoint), but fastjsonschema checks a
    ``oneOf`` by trying every branch and raising an exception for each that fails: a quarter of
    the time it took to check a graph (spans, targets and ``when`` are mostly one or the other).
    """
    if isinstance(node, list):
        return [_null_first(v, defs) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _null_first(v, defs) for k, v in node.items()}
    branches = out.get("oneOf")
    null = {"type": "null"}
    if isinstance(branches, list) and len(branches) == 2 and null in branches:
        other = branches[1 - branches.index(null)]
        ref = other.get("$ref", "") if isinstance(other, dict) else ""
        target = defs.get(ref.rpartition("/")[2]) if ref.startswith("#/$defs/") else other
        kinds = target.get("type") if isinstance(target, dict) else None
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if isinstance(kinds, list) and "null" not in kinds:
            del out["oneOf"]
            out["anyOf"] = [null, other]
    return out


@cache
def _fast(name: str) -> Any:
    """The compiled validator (fastjsonschema): a callable that raises on the first problem."""
    import fastjsonschema

    schema = schema_of(name)
    return fastjsonschema.compile(_null_first(schema, schema.get("$defs", {})))


def quote(text: str) -> str:
    """``text`` in double quotes with every character that is not printable escaped (one safe line)."""
    body = json.dumps(text, ensure_ascii=False)
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in body)


def _step(part: Any) -> str:
    """One step of a field's path: ``[3]``, ``.name``, or a quoted key (``["a b"]``) that is not a plain word."""
    if isinstance(part, int):
        return f"[{part}]"
    text = str(part)
    if text and all(c.isalnum() or c in "_-♥" for c in text):
        return f".{text}"
    return f"[{quote(text)}]"


def _where(error: Any) -> str:
    path = "".join(_step(p) for p in error.absolute_path)
    return path.lstrip(".") or "(top level)"


@cache
def _compiled(name: str) -> Any:
    """The jsonschema-rs validator, or None where that package is not installed."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    return jsonschema_rs.validator_for(schema_of(name))


def _fast_valid(instance: Any, name: str) -> bool:
    """Whether the fastjsonschema validator accepts ``instance``."""
    import fastjsonschema

    try:
        _fast(name)(instance)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def validate(instance: Any, name: str = "adventure") -> None:
    """Raise :class:`SchemaError` naming the first offending field."""
    rust = _compiled(name)
    if rust is None:
        if _fast_valid(instance, name):
            return
    else:
        try:
            if rust.is_valid(instance):
                return
        except (ValueError, TypeError, OverflowError):  # a value it cannot take (an integer past 64 bits)
            if _fast_valid(instance, name):
                return
    errors = sorted(_validator(name).iter_errors(instance), key=lambda e: list(e.absolute_path))
    if errors:
        best = errors[0]
        raise SchemaError(f"{_where(best)}: {best.message}")
    if rust is not None and _fast_valid(instance, name):
        return  # the compiled validator alone refused it: the two Python validators accept it
    raise SchemaError("the document does not satisfy its schema")  # the validators disagree


def load_json(path: str | Path, name: str) -> Any:
    """Read a JSON file and check it against schema ``name``; raise SchemaError if it fails.

    The cyclic garbage collector is paused while the JSON is parsed and checked: parsed JSON
    holds no reference cycles, and each collection would walk every dict and list made so far
    (two fifths of the time a 10,000-entry graph took to read).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _load_json(path, name)
    finally:
        if runmode.current().freeze:  # the one-shot command: the collector never walks the graph again
            gc.freeze()
        if enabled:
            gc.enable()


def _load_json(path: str | Path, name: str) -> Any:
    from dtc.fileread import ReadError, read_text

    kind = {"adventure": "graph"}.get(name, name)
    try:
        data = json.loads(read_text(path, kind))
    except ReadError as exc:
        raise SchemaError(str(exc)) from None
    except json.JSONDecodeError as exc:
        raise SchemaError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    except ValueError:  # a number of more than 4,300 digits (Python's limit on reading one)
        raise SchemaError(f"{path}: a number too long to read (over 4,300 digits)") from None
    except RecursionError:
        raise SchemaError(f"{path}: nested too deeply to be a dtc file") from None
    except MemoryError:
        raise SchemaError(f"{path}: not enough memory to read the JSON") from None
    if name == "adventure" and isinstance(data, dict) and data.get("format_version") not in (None, *READABLE_VERSIONS):
        readable = " and ".join(map(str, READABLE_VERSIONS))
        raise SchemaError(
            f"{path}: compiled with format version {data.get('format_version')}; "
            f"this dtc reads version {readable} (recompile the source)"
        )
    try:
        validate(data, name)
    except SchemaError as exc:
        raise SchemaError(f"{path}: {exc}") from None
    except RecursionError:
        raise SchemaError(f"{path}: nested too deeply to be a dtc file") from None
    return data


def load_graph_json(path: str | Path) -> CompiledGraph:
    """A compiled graph file, its version one this dtc reads and its contract checked."""
    graph: CompiledGraph = load_json(path, "adventure")
    return graph
