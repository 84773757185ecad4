"""Books from other gamebook tools, and back: ``dtc import`` and ``dtc export``.

Each reader (:mod:`.twee`, :mod:`.gamebookformat`, :mod:`.aon`) turns a file into an
:class:`~dtc.interop.book.Book`: entries with prose, choices, effects and endings, and a
:class:`~dtc.interop.book.Finding` for every construct it could not map (kept as text).
:func:`~dtc.interop.book.write_book` writes the book in dtc's notation and checks, by compiling
it, that every entry's exits are the ones the source has. The writers (:mod:`.export`) go the other
way, from a compiled graph. docs/import.md is the mapping table.
"""
