"""gamebookformat's ``.gamebook`` files read into a :class:`~dtc.interop.book.Book`.

``key = value`` settings (``title``, ``author``), ``= Heading`` sections (the introduction), and
``* [number] name [:tags:]`` sections, whose lines run together as one paragraph. ``[[ref]]`` and
``[[ref][text]]`` are choices; ``[has item]key[/has]``, ``[hasnot item]…``, ``[atleast c]N``,
``[morethan c]N`` and ``[lessthan c]N`` gate the next link; ``[[auto ref]]`` is taken at once when its
gate holds (so every other link of the section needs the gate not to hold) and ``[[xor ref]]``'s
next link needs its gate not to hold. ``[add item]``, ``[drop item]``, ``[inc c]`` and ``[dec c]``
are effects, ``[found item]`` is ``[may +item]`` (the reader may take it), ``[set c]`` and
``[init c]`` in the start section are what the reader starts with (``Start with:``), and ``[random]`` makes the
section's links one random branch. Everything else is kept as text with a finding.
"""

from __future__ import annotations

import re

from dtc.interop.book import Book, Choice, Entry, Raw, condition_atom, possession_name

_SECTION = re.compile(r"^[A-Za-z][A-Za-z_0-9]*$")
_MARKUP = re.compile(r"\[\[(.{0,2000}?)\]\]"
                     r"|\[([A-Za-z]{1,30})((?:\s+[^\]\s]{1,200}){0,10})\s*\](.{0,2000}?)\[/[^\]]{0,60}\]"
                     r"|\[[^\]]{0,200}\]", re.DOTALL)
_LINK_NAME = re.compile(r"^(.*?)\]\[(.*)$", re.DOTALL)
#: The most auto links of one section whose gates close the section's other links.
MAX_AUTOS = 8
#: Output format a section may be tagged for: dtc reads the variants for plain text.
FORMAT = "TXT"


class _Section:
    def __init__(self, name: str, number: int | None, tags: set[str], line: int) -> None:
        self.name, self.number, self.tags, self.line = name, number, tags, line
        self.lines: list[tuple[int, str]] = []


def read_gamebookformat(text: str) -> Book:
    book = Book("gamebookformat")
    sections: list[_Section] = []
    intro: list[tuple[int, str, list[tuple[int, str]]]] = []
    current: list[tuple[int, str]] | None = None
    before = True
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith("*"):
            before = False
            section = _heading(line, number, book)
            if section is None:
                current = None
                continue
            sections.append(section)
            current = section.lines
        elif line.startswith("="):
            before = False
            intro.append((number, line[1:].strip(), []))
            current = intro[-1][2]
        elif before and "=" in line:
            key, _, value = line.partition("=")
            key, value = key.strip().lower(), value.strip()
            if key == "title":
                book.title = value
                book.map("title")
            elif key == "author":
                book.author = value
                book.map("author")
            else:
                book.kept(number, 1, f"setting {key}", f"the setting '{key[:30]}' is not read")
        elif current is not None:
            current.append((number, line.strip()))
        elif line.strip():
            book.kept(number, 1, "text before the sections", "text before the first section")
            book.intro.append(line)
    for _, heading, lines in intro:
        if heading != "Introduction":  # gamebookformat's usual name for the front section
            book.intro.append(heading)
        paragraph = " ".join(t for _, t in lines if t)
        if paragraph:
            book.intro.append(_plain(paragraph))
        book.map("introduction")
    chosen = _choose(sections, book)
    start = next((s for s in chosen if s.name == "start"), None) or next((s for s in chosen if s.number == 1), None)
    if start is not None:
        book.start = start.name
    for section in chosen:
        entry = Entry(section.name, section.line, section.number)
        book.entries.append(entry)
        _read_section(section, entry, book, section is start)
    return book


def _heading(line: str, number: int, book: Book) -> _Section | None:
    heading = line[1:].strip().split()
    tags: set[str] = set()
    if len(heading) > 1 and heading[-1].startswith(":"):
        if not heading[-1].endswith(":"):
            book.kept(number, 1, "section heading", "a section heading whose tags are not closed by ':'")
            return None
        tags = {t for t in heading[-1][1:-1].split(":") if t}
        heading = heading[:-1]
    section_number: int | None = None
    if len(heading) == 2 and heading[0].isdigit() and len(heading[0]) <= 7:
        section_number, name = int(heading[0]), heading[1]
    elif len(heading) == 1:
        name = heading[0]
    else:
        book.kept(number, 1, "section heading", "a section heading gamebookformat does not read")
        return None
    if not _SECTION.match(name):
        book.kept(number, 1, "section heading", f"the section name '{name[:40]}' gamebookformat does not read")
        return None
    return _Section(name, section_number, tags, number)


def _choose(sections: list[_Section], book: Book) -> list[_Section]:
    """The sections of the book: not ``dummy``; of sections tagged for output formats, those for
    plain text (or for none)."""
    chosen: list[_Section] = []
    names: set[str] = set()
    for section in sections:
        formats = {t for t in section.tags if t.isupper()}
        if "dummy" in section.tags:
            book.note(section.line, 1, f"section '{section.name}' is tagged dummy: left out, as gamebookformat does")
            continue
        if formats and FORMAT not in formats:
            book.note(section.line, 1, f"section '{section.name}' for {', '.join(sorted(formats))}: left out (the "
                                       f"{FORMAT} variant is read)")
            continue
        if section.name in names:
            book.kept(section.line, 1, "duplicate section", f"a second section named '{section.name}'")
            book.intro.append(" ".join(t for _, t in section.lines))
            continue
        names.add(section.name)
        chosen.append(section)
        for tag in sorted(section.tags - formats):
            book.note(section.line, 1, f"tag '{tag}' of section '{section.name}' is not read")
    return chosen


def _plain(text: str) -> str:
    return re.sub(r"\[\[(?:[^\]]*\]\[)?([^\]]*)\]\]", r"\1", text)


def _read_section(section: _Section, entry: Entry, book: Book, is_start: bool) -> None:
    gates: list[str] = []
    after_xor: list[str] | None = None
    autos: list[tuple[Choice, list[str]]] = []
    random_mode = False
    random_links: list[tuple[str, str | None]] = []
    for line_number, line in section.lines:
        pos = 0
        for m in _MARKUP.finditer(line):
            if m.start() > pos:
                entry.parts.append(line[pos:m.start()])
            pos = m.end()
            column = m.start() + 1
            if m.group(1) is not None:  # a link
                inner = m.group(1)
                label: str | None = None
                named = _LINK_NAME.match(inner)
                if named:
                    inner, label = named.group(1), named.group(2)
                words = inner.split()
                if not words:
                    book.kept(line_number, column, "empty link", "a link to no section")
                    entry.parts.append(m.group(0))
                    continue
                target, modifiers = words[-1], [w.lower() for w in words[:-1]]
                if random_mode:
                    random_links.append((target, label))
                    book.map("link")
                    continue
                condition = list(gates)
                if after_xor is not None:
                    condition += after_xor
                    after_xor = None
                choice = Choice([target], label=label, condition=" and ".join(condition) or None)
                entry.parts.append(choice)
                book.map("link")
                if gates:
                    book.map("gate", len(gates))
                for modifier in modifiers:
                    if modifier == "auto":
                        autos.append((choice, list(gates)))
                        book.map("auto")
                    elif modifier == "xor":
                        after_xor = [_negate(g) for g in gates] if len(gates) == 1 else None
                        if len(gates) > 1:
                            book.kept(line_number, column, "xor", "xor after more than one gate")
                        book.map("xor")
                    else:
                        book.kept(line_number, column, f"link modifier {modifier}",
                                  f"the link modifier '{modifier[:20]}' is not read")
                gates = []
                continue
            tag = (m.group(2) or "").lower()
            args = (m.group(3) or "").split()
            inner = m.group(4)
            if m.group(2) is None or inner is None:
                book.kept(line_number, column, "unclosed markup", f"the markup {m.group(0)[:30]!r} has no closing tag")
                entry.parts.append(m.group(0))
                continue
            _tag(tag, args, inner, m.group(0), entry, book, gates, is_start, line_number, column)
            if tag == "random":
                random_mode = True
        if pos < len(line):
            entry.parts.append(line[pos:])
        entry.parts.append(" ")
    if random_links:
        sides = len(random_links)
        if sides == 1:
            entry.parts.append(Choice([random_links[0][0]], label=random_links[0][1]))
        else:
            entry.parts.append(Choice([t for t, _ in random_links], label=random_links[0][1] or "Pick at random",
                                      dice=f"d{sides}", ranges=[(i, i) for i in range(1, sides + 1)]))
            book.map("random branch")
    if len(autos) > MAX_AUTOS:
        book.kept(section.line, 1, "auto", f"more than {MAX_AUTOS} auto links in one section: the others are read as "
                                           "plain links")
        del autos[MAX_AUTOS:]
    choices = entry.choices()
    for auto, auto_gates in autos:
        if not auto_gates:
            book.note(section.line, 1, f"an auto link with no gate in '{section.name}': its other links are kept")
            continue
        negated = [_negate(g) for g in auto_gates]
        for choice in choices:
            if choice is not auto:
                clauses = choice.condition.split(" or ") if choice.condition else [""]
                if len(clauses) * len(negated) > 16:
                    book.kept(section.line, 1, "auto", "too many auto links in one section to write their conditions")
                    continue
                choice.condition = " or ".join(f"{c} and {n}" if c else n for c in clauses for n in negated)
    if gates:
        book.note(section.line, 1, f"a gate in '{section.name}' with no link after it")
    if not choices:
        entry.ending = ""
        book.map("ending")


def _negate(atom: str) -> str:
    return atom[4:] if atom.startswith("not ") else f"not {atom}"


def _count(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() and len(text) <= 7 else None


def _tag(tag: str, args: list[str], inner: str, source: str, entry: Entry, book: Book, gates: list[str],
         is_start: bool, line: int, column: int) -> None:
    kind = args[0] if args else ""
    if tag in ("add", "found", "drop") and inner.strip():
        name = possession_name(inner)
        entry.parts.append(inner)
        effect = {"add": "+", "drop": "-", "found": "may +"}[tag]
        entry.parts.append(Raw(f"[{effect}{name}]"))
        book.map(tag)
        return
    if tag in ("has", "hasnot") and inner.strip():
        gates.append(condition_atom(possession_name(inner), negated=tag == "hasnot"))
        entry.parts.append(inner)
        return
    count = _count(inner)
    if tag in ("atleast", "morethan", "lessthan") and kind and count is not None:
        name = possession_name(kind)
        if tag == "atleast":
            gates.append(condition_atom(name, count) if count > 0 else "")
        elif tag == "morethan":
            gates.append(condition_atom(name, count + 1))
        else:
            gates.append(condition_atom(name, count, negated=True) if count > 0 else "")
        if gates[-1] == "":
            gates.pop()
            book.note(line, column, f"[{tag} {kind}]{count} always holds")
        entry.parts.append(inner)
        return
    if tag in ("inc", "dec") and kind and count is not None:
        entry.parts.append(inner)
        if count:
            sign = "+" if tag == "inc" else "-"
            entry.parts.append(Raw(f"[{sign}{count} {possession_name(kind)}]" if count != 1
                                   else f"[{sign}{possession_name(kind)}]"))
        book.map(tag)
        return
    if tag in ("set", "init") and kind and count is not None and is_start:
        entry.parts.append(inner)
        if count:
            book.start_with.append(f"{count} {possession_name(kind)}" if count != 1 else possession_name(kind))
        book.map(tag)
        return
    if tag == "min" and count == 0:
        entry.parts.append(inner)
        book.map("min")  # dtc's counts never go below zero
        return
    if tag in ("count", "collect", "random"):
        entry.parts.append(inner)
        book.map(tag)
        return
    if tag == "b":
        entry.parts.append(f"**{inner.strip()}**" if inner.strip() else "")
        book.map("b")
        return
    book.kept(line, column, f"[{tag}]", f"the markup [{tag}] is not read")
    entry.parts.append(source)
