"""The terminals the fast paths read from ``grammar/`` are the ones Lark reads."""

from __future__ import annotations

import pytest
from lark import Lark

from dtc.compiler.terminals import ignored, terminals
from dtc.resources import read_text

GRAMMARS = [("notation", "notation,effects,start_with,limits,containers"), ("statblock", "statblock"),
            ("hazard", "hazard")]


@pytest.mark.parametrize(("grammar", "start"), GRAMMARS)
def test_terminals_are_what_lark_reads(grammar: str, start: str) -> None:
    lark = Lark(read_text("grammar", f"{grammar}.lark"), start=start.split(","), parser="lalr")
    ours = terminals(grammar)
    theirs = {t.name: t for t in lark.terminals if not t.name.startswith("__") and t.pattern.type == "re"}
    assert set(ours) == set(theirs)
    for name, t in theirs.items():
        assert ours[name].regex == t.pattern.to_regexp(), name
        assert ours[name].priority == t.priority, name
    lark_ignored = [t.pattern.to_regexp() for t in lark.terminals if t.name in lark.ignore_tokens]
    assert list(ignored(grammar)) == lark_ignored
