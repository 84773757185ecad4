"""The typed contract (dtc.compiled.graphjson) and the schema say the same thing, key by key and type by type."""

from __future__ import annotations

import json
import types
import typing
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import pytest

from dtc import FORMAT_VERSION
from dtc.compiled.graphjson import READABLE_VERSIONS, CompiledGraph
from dtc.compiled.schema import SchemaError, load_graph_json, schema_of

SCHEMA = schema_of("adventure")


SIMPLE = {"integer": int, "string": str, "boolean": bool, "number": float, "null": type(None)}


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        node = {**SCHEMA["$defs"][name], **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _alternatives(node: dict[str, Any]) -> list[dict[str, Any]]:
    """The schema node as a list of alternatives of one kind each (oneOf and type lists split)."""
    node = _resolve(node)
    if "oneOf" in node:
        return [alt for sub in node["oneOf"] for alt in _alternatives(sub)]
    if isinstance(node.get("type"), list):
        return [{**node, "type": kind} for kind in node["type"]]
    return [node]


def _members(tp: Any) -> list[Any]:
    """The alternatives of a union type (a type that is no union: itself)."""
    if get_origin(tp) in (Union, types.UnionType):
        return [m for a in get_args(tp) for m in _members(a)]
    return [tp]


def _fits(alt: dict[str, Any], tp: Any) -> bool:
    """Whether ``tp`` is the shape of schema alternative ``alt`` (its insides are checked apart)."""
    if "const" in alt:
        return tp is type(alt["const"]) or tp == Literal[alt["const"]]
    if "enum" in alt:
        if tp is int:  # format_version: a range of versions, read as an int
            return all(type(v) is int for v in alt["enum"])
        return get_origin(tp) is Literal and set(get_args(tp)) == set(alt["enum"])
    kind = alt["type"]
    if kind in SIMPLE:
        return tp is SIMPLE[kind]
    if kind == "array":
        return get_origin(tp) is list
    if kind == "object" and "properties" in alt:
        # one of several object forms (a condition's has/not/all/any) is told apart by its keys
        return (isinstance(tp, type) and typing.is_typeddict(tp)
                and set(alt["properties"]) == set(tp.__required_keys__) | set(tp.__optional_keys__))
    return kind == "object" and get_origin(tp) is dict


def _check(node: dict[str, Any], tp: Any, where: str) -> None:
    """Fail unless the Python type ``tp`` allows what schema ``node`` allows, no more, no less."""
    alternatives, members = _alternatives(node), _members(tp)
    assert len(alternatives) == len(members), f"{where}: {tp} has {len(members)} forms, the schema {len(alternatives)}"
    for alt in alternatives:
        found = [m for m in members if _fits(alt, m)]
        assert len(found) == 1, f"{where}: no member of {tp} for {alt.get('type', alt)}"
        member = found[0]
        if alt.get("type") == "array":
            _check(alt["items"], get_args(member)[0], f"{where}[]")
        elif alt.get("type") == "object" and "properties" in alt:
            _check_object(alt, member, where)
        elif alt.get("type") == "object":
            _check(alt["additionalProperties"], get_args(member)[1], f"{where}{{}}")


#: TypedDicts already being checked: a recursive definition (a condition holds conditions) is
#: checked once.
_CHECKING: set[Any] = set()


def _check_object(node: dict[str, Any], tp: Any, where: str) -> None:
    if tp in _CHECKING:
        return
    _CHECKING.add(tp)
    try:
        _check_fields(node, tp, where)
    finally:
        _CHECKING.discard(tp)


def _check_fields(node: dict[str, Any], tp: Any, where: str) -> None:
    hints = get_type_hints(tp)
    props = node["properties"]
    assert set(hints) == set(props), f"{where}: TypedDict keys {sorted(hints)} vs schema {sorted(props)}"
    assert set(tp.__required_keys__) == set(node.get("required", [])), f"{where}: required keys differ"
    for key, sub in props.items():
        _check(sub, hints[key], f"{where}.{key}")


def test_typeddicts_match_the_schema() -> None:
    _check(SCHEMA, CompiledGraph, "graph")


def test_the_check_notices_a_missing_key() -> None:
    class Broken(typing.TypedDict):
        line: int

    with pytest.raises(AssertionError):
        _check(SCHEMA["$defs"]["span"], Broken, "span")


def test_the_check_notices_a_wrong_type() -> None:
    class Loose(typing.TypedDict):
        name: str
        damage: int

    with pytest.raises(AssertionError):
        _check(_resolve(SCHEMA["$defs"]["creature"])["properties"]["attacks"]["items"], Loose, "attack")


def test_the_version_written_is_one_read() -> None:
    assert FORMAT_VERSION in READABLE_VERSIONS


def test_the_schema_allows_exactly_the_versions_read() -> None:
    node = SCHEMA["properties"]["format_version"]
    allowed = {node["const"]} if "const" in node else set(node["enum"])
    assert allowed == set(READABLE_VERSIONS)


def test_an_unknown_version_is_refused_with_the_versions_read(tmp_path: Any) -> None:
    path = tmp_path / "book.json"
    path.write_text(json.dumps({"format": "dtc-adventure", "format_version": 999}), encoding="utf-8")
    with pytest.raises(SchemaError, match=r"format version 999; this dtc reads version 1"):
        load_graph_json(path)
