"""``Document.scores`` (the names conditions read that are the adventurer's scores) is read once
per gated choice by the compiler and lint: it is worked out once per document, and again only
when the document's entries or rules change (the language server builds an edited document as a
copy of the last one with a new list of entries)."""

from __future__ import annotations

import copy

import pytest

from dtc.compiler.api import compile_text
from dtc.compiler.model import Document
from dtc.lint.engine import lint_compilation

GATES = ("if STR >= 12", "if iron key", "if CON < 10 and not iron key", "if HP >= 2")


def gated_book(n: int) -> str:
    entries = [f"{k} A hall of doors. [+iron key] **Left** (D0, S{k + 1}, {GATES[k % 4]}); "
               f"**Right** (D0, S{k + 1})." for k in range(1, n)]
    return "Title: Doors\nRules: death-and-treasure\n\nAdventure Entries\n\n" + "\n\n".join(
        [*entries, f"{n} The last door. THE END"]) + "\n"


def test_the_scores_are_worked_out_once_per_document(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    find = Document._find_scores

    def counted(self: Document) -> frozenset[str]:
        calls.append(len(self.entries))
        return find(self)

    monkeypatch.setattr(Document, "_find_scores", counted)
    comp = compile_text(gated_book(60), "doors.txt")
    lint_compilation(comp)
    assert len(calls) == 1
    assert comp.doc.scores == frozenset({"str", "con", "hp"}) and len(calls) == 1


def test_a_copy_with_other_entries_or_rules_works_them_out_again() -> None:
    doc = compile_text(gated_book(8), "doors.txt").doc
    assert doc.scores == frozenset({"str", "con", "hp"})
    edited = copy.copy(doc)  # as the language server makes an edited document
    edited.entries = [e for e in doc.entries if all("STR" not in c.text for c in e.choices)]
    assert edited.scores == frozenset({"con", "hp"})
    assert doc.scores == frozenset({"str", "con", "hp"})
    doc.meta = {k: v for k, v in doc.meta.items() if k != "rules"}
    doc.default_rules = "no-such-rules"
    assert doc.scores == frozenset({"hp"})  # only HP is a score under rules nobody knows
