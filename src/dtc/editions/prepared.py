"""What every edition reads of a book, worked out once per build and shared between editions.

``dtc build`` writes the web edition, the Markdown and the paper HTML (and the ebook) from one
compiled graph. Each used to cut every entry's text into pieces again (the web edition twice per
entry) and to phrase every choice again; :class:`Prepared` does each of these once per entry, on
first use, and hands the same result to every edition. It never changes what an edition writes:
the pieces and sentences are the ones :mod:`dtc.editions.text` and :mod:`dtc.editions.phrasing`
give. A :class:`Prepared` belongs to one graph, read as it is when it is made: do not change the
graph while it is in use.
"""

from __future__ import annotations

from dtc.compiled.graphjson import CompiledGraph, Creature, Entry
from dtc.editions.book import (
    CheckRules,
    check_rules,
    creatures_by_name,
    entries_in_order,
    label_numbers,
    target_number,
)
from dtc.editions.phrasing import Words, choice_sentence
from dtc.editions.text import Piece, numbered, pieces
from dtc.lint.analysis import Analysis


class Prepared:
    """A graph's entries in order, labels, rules and start, and each entry's pieces and sentences
    (``facts``: the graph's :meth:`Analysis.of_graph`, when the caller has it already)."""

    def __init__(self, graph: CompiledGraph, facts: Analysis | None = None) -> None:
        self.graph = graph
        self.rules: CheckRules = check_rules(graph["rules"])
        self.labels: dict[str, int] = label_numbers(graph)
        self.entries: list[Entry] = entries_in_order(graph)
        self.numbers: set[int] = {e["number"] for e in self.entries}
        self.creatures: dict[str, Creature] = creatures_by_name(graph)
        #: The entry a reader begins at, None when the start names no entry.
        self.start: int | None = (facts or Analysis.of_graph(graph)).start
        # id(entry) -> (entry, value): the entry is kept so that its id is not reused.
        self._pieces: dict[int, tuple[Entry, list[Piece]]] = {}
        self._sentences: dict[int, tuple[Entry, list[list[Words]]]] = {}

    def pieces(self, entry: Entry) -> list[Piece]:
        """The entry's pieces as a reader sees them (labels shown as numbers): :func:`numbered`."""
        got = self._pieces.get(id(entry))
        if got is None:
            got = self._pieces[id(entry)] = (entry, numbered(pieces(entry), self.labels))
        return got[1]

    def sentences(self, entry: Entry) -> list[list[Words]]:
        """Each choice (but those in error) read out in words: :func:`choice_sentence`."""
        got = self._sentences.get(id(entry))
        if got is None:
            found = [choice_sentence(c, self.rules, self.numbers, self.labels)
                     for c in entry["choices"] if not c["error"]]
            got = self._sentences[id(entry)] = (entry, found)
        return got[1]

    def returns(self, entry: Entry) -> list[int]:
        """The entries a ``return`` exit may lead back to, in order."""
        return sorted({t for x in entry["exits"] if x["kind"] == "return"
                       and (t := target_number(x["target"], self.numbers)) is not None})


def prepare(graph: CompiledGraph, prepared: Prepared | None = None) -> Prepared:
    """``prepared`` when it was made for this graph, else a new :class:`Prepared`."""
    return prepared if prepared is not None and prepared.graph is graph else Prepared(graph)
