"""The terminals of a grammar in ``grammar/``, read from the file itself, without Lark.

The fast paths (:mod:`dtc.compiler.notation`) spell a grammar's common sentences as regular expressions
built from the grammar's own terminal patterns. Reading those patterns needs no grammar
compiler: this module reads the ``NAME.priority: /regex/flags`` and ``%ignore /regex/`` lines
and unescapes them exactly as Lark does, so the fast paths run without importing Lark at all
(its import and table construction cost more than linting a whole 400-entry book).
``tests/test_terminals.py`` checks that every terminal read here is the one Lark reads.
"""

from __future__ import annotations

import re
from ast import literal_eval
from dataclasses import dataclass
from functools import cache

from dtc.resources import read_text

_TERMINAL = re.compile(
    r"^(?P<name>_?[A-Z][A-Z0-9_]*)(?:\.(?P<priority>-?[0-9]+))?[ \t]*:[ \t]*"
    r"/(?P<regex>.*)/(?P<flags>[imslux]*)[ \t]*(?://.*)?$",
    re.M,
)
_IGNORE = re.compile(r"^%ignore[ \t]+/(?P<regex>.*)/(?P<flags>[imslux]*)[ \t]*$", re.M)


@dataclass(frozen=True, slots=True)
class Terminal:
    name: str
    #: The pattern as Lark compiles it (``Pattern.to_regexp()``): flags folded in as ``(?i:...)``.
    regex: str
    priority: int


def _fix_escaping(body: str) -> str:
    """A regexp literal's text as Lark reads it: ``\\uXXXX``, ``\\n`` and the like become the
    characters; every other escape is kept for the regex engine (Lark's ``_fix_escaping``)."""
    out = ""
    chars = iter(body)
    for ch in chars:
        out += ch
        if ch == "\\":
            nxt = next(chars)
            if nxt == "\\":
                out += "\\\\"
            elif nxt not in "Uuxnftr":
                out += "\\"
            out += nxt
    out = out.replace('\\"', '"').replace("'", "\\'")
    value = literal_eval(f"u'''{out}'''")
    assert isinstance(value, str)
    return value


def _with_flags(regex: str, flags: str) -> str:
    for flag in flags:
        regex = f"(?{flag}:{regex})"
    return regex


@cache
def terminals(grammar: str) -> dict[str, Terminal]:
    """The named regexp terminals of ``grammar/<grammar>.lark``."""
    source = read_text("grammar", f"{grammar}.lark")
    found: dict[str, Terminal] = {}
    for m in _TERMINAL.finditer(source):
        regex = _with_flags(_fix_escaping(m["regex"]), m["flags"])
        found[m["name"]] = Terminal(m["name"], regex, int(m["priority"] or 0))
    return found


@cache
def ignored(grammar: str) -> tuple[str, ...]:
    """The ``%ignore`` patterns of ``grammar/<grammar>.lark``."""
    source = read_text("grammar", f"{grammar}.lark")
    return tuple(_with_flags(_fix_escaping(m["regex"]), m["flags"]) for m in _IGNORE.finditer(source))
