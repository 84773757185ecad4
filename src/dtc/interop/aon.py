"""Project Aon's gamebook XML (gamebook.dtd) read into a :class:`~dtc.interop.book.Book`.

Every ``<section>`` whose title is a number is an entry of that number (its ``id`` is how choices
name it); other sections are the introduction. ``<p>`` and the other blocks are prose,
``<choice idref>`` a choice: its prose is read for a condition where it is clear (``If you have
the Kai Discipline of Tracking``, ``If you possess a Golden Key``, ``If you have 10 Gold Crowns``,
``If you do not have …``), and a run of choices after "pick a number from the Random Number
Table" whose prose gives ranges (``If the number you have picked is 0–4``) that cover 0 to 9 is a
random branch (``roll d10``: 0–4 is 1–5). ``<combat>`` is a stat block (``ENDURANCE`` is ``HP``,
the other attributes stats) and the ``If you win`` choice after it a prose exit. ``<deadend>`` is
``THE END (death)``, the last numbered section ``THE END (victory)``. An ``<item>`` the prose finds
(find, take, pick up...) is ``[may +Item]``; ``<puzzle idrefs>`` is a choice for each answer.
Whatever is not read is kept as text with a finding. A character is read whether written as an
entity (``&ndash;``) or, as the newer documents write it, an empty element (``<ch.endash/>``).

The XML is read by expat with no external entity, no parameter entity and no entity expansion:
an entity the document declares is used only when its value is plain text.
"""

from __future__ import annotations

import re
import xml.parsers.expat as expat
from dataclasses import dataclass, field

from dtc.interop.book import Book, Choice, Entry, Raw, condition_atom, possession_name

#: Character entities Project Aon's documents use (declared in the DTD's modules, not read here).
ENTITIES = {
    "ellips": "…", "lellips": "…", "mdash": "—", "emdash": "—", "ndash": "–", "endash": "–", "minus": "−",
    "thinspace": " ", "nbsp": " ", "lsquot": "‘", "rsquot": "’", "ldquot": "“", "rdquot": "”", "apos": "'",
    "quot": '"', "amp": "&", "lt": "<", "gt": ">", "percent": "%", "plus": "+", "times": "×", "frac12": "½",
    "eacute": "é", "egrave": "è", "auml": "ä", "ouml": "ö", "uuml": "ü", "aacute": "á", "iacute": "í",
    "oacute": "ó", "uacute": "ú", "ntilde": "ñ", "szlig": "ß", "deg": "°", "copy": "©", "blankline": "____",
}
_BLOCKS = {"p", "li", "dt", "dd", "signpost", "blockquote", "td", "th", "poetry", "line"}
_SKIPPED = {"illustration", "illref", "instance", "footnotes", "footnote", "illustrations", "illgroup"}
#: Most nested elements read.
MAX_DEPTH = 200


class XmlError(ValueError):
    def __init__(self, line: int, column: int, message: str) -> None:
        super().__init__(message)
        self.line, self.column = line, column


@dataclass(slots=True)
class Node:
    tag: str
    attrs: dict[str, str]
    line: int
    column: int
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def find(self, tag: str) -> Node | None:
        return next((c for c in self.children if isinstance(c, Node) and c.tag == tag), None)

    def elements(self) -> list[Node]:
        return [c for c in self.children if isinstance(c, Node)]


def parse_xml(data: bytes) -> Node:
    """The document's tree, read safely (see the module's docstring); XmlError with a place.

    A document with no DTD that uses the DTD's character entities (``&ndash;``) is read again
    with each replaced by its character (one it does not know stays as written)."""
    try:
        return _parse(data)
    except XmlError as exc:
        if "undefined entity" not in str(exc):
            raise
    builtin = {"amp", "lt", "gt", "quot", "apos"}

    def known(m: re.Match[bytes]) -> bytes:
        name = m.group(1).decode("ascii")
        if name in builtin:
            return m.group(0)
        if name in ENTITIES:
            return ENTITIES[name].replace("&", "&amp;").replace("<", "&lt;").encode("utf-8")
        return b"&amp;" + m.group(1) + b";"

    return _parse(re.sub(rb"&([A-Za-z][\w.-]{0,60});", known, data))


def _parse(data: bytes) -> Node:
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    declared: dict[str, str] = {}
    root: list[Node] = []
    stack: list[Node] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        if len(stack) >= MAX_DEPTH:
            raise XmlError(parser.CurrentLineNumber, parser.CurrentColumnNumber + 1, "elements nested too deep")
        if tag.startswith("ch.") and stack and tag[3:] in ENTITIES:
            # the newer documents' characters as empty elements (``0<ch.endash/>4``): read as text,
            # so 0–4 stays a range and Kl<ch.ouml/>cker a name
            stack[-1].children.append(ENTITIES[tag[3:]])
            stack.append(Node(tag, attrs, parser.CurrentLineNumber, parser.CurrentColumnNumber + 1))
            return
        node = Node(tag, attrs, parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)
        if stack:
            stack[-1].children.append(node)
        else:
            root.append(node)
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        if stack:
            stack[-1].children.append(data)

    def entity_decl(name: str, is_parameter: bool, value: str | None, *rest: object) -> None:
        if value is not None and not is_parameter and len(value) <= 1000 and "&" not in value and "%" not in value:
            declared[name] = value

    def skipped(name: str, is_parameter: bool) -> None:
        if stack and not is_parameter:
            stack[-1].children.append(declared.get(name, ENTITIES.get(name, f"&{name};")))

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.EntityDeclHandler = entity_decl
    parser.SkippedEntityHandler = skipped
    parser.DefaultHandler = lambda data: None  # no entity is expanded
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise XmlError(exc.lineno, exc.offset + 1, f"not well-formed XML: {expat.ErrorString(exc.code)}") from None
    except RecursionError:
        raise XmlError(parser.CurrentLineNumber, 1, "elements nested too deep") from None
    if not root:
        raise XmlError(1, 1, "no root element")
    return root[0]


_CONDITION = re.compile(
    r"(?i)^\s*if\s+you\s+(?P<not>do\s+not\s+|don['’]t\s+)?(?:have|possess|carry)\s+"
    r"(?:(?:the|a|an)\s+)?(?:(?:kai|magnakai|grand\s+master|lore-circle\s+of\s+the)\s+)?"
    r"(?:(?P<discipline>discipline)\s+of\s+)?(?P<what>[^,;.]+?)\s*(?P<tail>[,;.]|$)"
)
#: "use your Kai Discipline of Mind Over Matter to open this lock", "... of Healing on this man": the
#: Discipline's name ends before what it is used for (no Discipline's name holds these words).
_USE = re.compile(r"(?i)\buse\s+(?:your|the)\s+(?:(?:kai|magnakai|grand\s+master)\s+)?discipline\s+of\s+([^,;.—–]+?)"
                  r"\s*(?=\s(?:to|on|upon|and|against|in|for|so|as|at|with)\s|[,;.—–]|$)")
#: "If you possess and wish to use the Kai Discipline of Healing": a use, not a possession named "and wish…".
_HAVE_AND_USE = re.compile(r"(?i)^\s*if\s+you\s+(?:have|possess)\s+and\s+(?:wish|want|decide|choose)\s+to\s+use\b")
#: "If you have 10 or more ENDURANCE points left", "fewer than 8 ENDURANCE points": a gate on HP (the
#: stat blocks' ENDURANCE is HP).
_ENDURANCE = re.compile(r"(?i)^\s*if\s+you\s+have\s+(?:(?P<more>\d{1,3})\s+(?:or\s+more|or\s+above|or\s+over)|"
                        r"(?:fewer|less)\s+than\s+(?P<less>\d{1,3})|(?P<most>\d{1,3})\s+or\s+(?:fewer|less))\s+"
                        r"endurance\s+points?(?:\s+(?:left|remaining))?\s*(?=[,;.]|$)")
_NOT_A_THING = {"ever", "already", "been", "previously", "just", "recently", "not", "no", "never", "lost", "used",
                "eaten", "seen", "heard", "read", "met", "fought", "won", "less", "fewer", "more", "any", "some",
                "enough", "and", "this", "that", "these", "those", "it", "them", "skill", "skills", "discipline"}
_GOLD = re.compile(r"(?i)^(?:at\s+least\s+)?(\d{1,5})\s+(gold\s+crowns?|crowns?|gold|.*?)$")
_WISH = re.compile(r"(?i)^(\s*(?:if\s+you\s+(?:wish|want|decide|prefer|choose|would\s+rather|would\s+like)"
                   r"(?:\s+to)?|if\s+you\s+would\s+rather)\s+)(.+?)([,.;:]?\s*)$")
_RANGES = (re.compile(r"(?<!\d)(\d{1,2})\s*(?:–|-|—|to)\s*(\d{1,2})(?!\d)"),
           re.compile(r"(?<!\d)(\d{1,2})\s+or\s+(\d{1,2})(?!\d)"),
           re.compile(r"\b(?:is|pick|picks|picked)\s+(\d{1,2})(?![\d–—-])"))
_LOSES = re.compile(r"(?i)\b(lose|loses|lost|erase|erases|discard|discards|give\s+up|hand\s+over|hands\s+over|"
                    r"pay|pays|paid|surrender|surrenders|is\s+stolen|are\s+stolen|steals?|drop|drops)\b")
_GOLD_AMOUNT = re.compile(r"(?i)\b(\d{1,5})\s+(gold\s+crowns?)\b")
_FINDS = re.compile(r"(?i)\b(find|finds|found|take|takes|took|pick(?:s|ed)?\s+up|discover|discovers|receive|receives|"
                    r"gives?\s+you|hands?\s+you|acquire|keep)\b")
#: A second way into a choice that any reader may take ("If you do not have the documents or do not
#: wish to show them", "If you have winnings to collect, or if you wish to withdraw"): no condition.
_ANYONE = re.compile(r"(?i)\bor\s+(?:if\s+you\s+)?(?:do\s+not|don['’]t)\s+(?:wish|want|choose)\b|"
                     r"\bor\s+if\s+you\s+(?:wish|want|would|prefer|decide|choose)\b")
_UNCLEAR = re.compile(r"(?i)^\s*if\s+(?:you\s+(?:have|possess|carry|are|were|do|did)|your)\b")


class AonReader:
    def __init__(self, root: Node) -> None:
        self.root = root
        self.book = Book("aon")
        self.disciplines: dict[str, int] = {}  # name -> the line of the first choice naming it
        self.conditioned: dict[str, tuple[int, int]] = {}  # item -> the most a condition asks for, a line
        self.given: set[str] = set()  # items and gold the book's prose gives

    def read(self) -> Book:
        meta = self.root.find("meta")
        if meta is not None:
            title = meta.find("title")
            if title is not None:
                self.book.title = _one_line(title.text())
                self.book.map("title")
            for creator in (c for c in meta.elements() if c.tag == "creator"):
                if creator.attrs.get("class", "author") == "author":
                    self.book.author = _one_line(creator.text())
                    self.book.map("author")
                    break
        numbered: list[tuple[Node, int]] = []
        self._sections(self.root, numbered)
        ids = {node.attrs.get("id", f"#{n}"): n for node, n in numbered}
        for node, number in numbered:
            entry = Entry(node.attrs.get("id", f"#{number}"), node.line, number)
            self.book.entries.append(entry)
            self._entry(node, entry, ids)
        if numbered:
            self.book.start = next((e.key for e in self.book.entries if e.number == 1), self.book.entries[0].key)
            first = next(e for e in self.book.entries if e.key == self.book.start)
            carried = {n: c for n, c in self.conditioned.items() if n.lower() not in self.given}
            if carried:
                offered = " ".join(f"[may +{count} {name}]" if count != 1 else f"[may +{name}]"
                                   for name, (count, _) in carried.items())
                first.parts.insert(0, Raw(f"What you may carry from before: {offered}\n"))
                self.book.note(min(line for _, line in carried.values()), 1, "what the choices ask for and no section "
                               f"gives may be carried from before: the start entry offers it ({', '.join(carried)})")
            if self.disciplines:
                chosen = " ".join(f"[may +{name}]" for name in self.disciplines)
                first.parts.insert(0, Raw(f"Disciplines chosen before the adventure: {chosen}\n"))
                self.book.note(min(self.disciplines.values()), 1, "the Disciplines the choices name are chosen before "
                               f"the adventure: the start entry offers each ({', '.join(self.disciplines)})")
            last = max(self.book.entries, key=lambda e: e.number or 0)
            if not last.choices() and last.ending in (None, ""):
                last.ending = "victory"
                self.book.note(last.line, 1, f"section {last.number}, the last, is the victory")
        return self.book

    def _sections(self, node: Node, numbered: list[tuple[Node, int]]) -> None:
        for child in node.elements():
            if child.tag == "data" or child.tag == "gamebook":
                self._sections(child, numbered)
            elif child.tag == "section":
                meta = child.find("meta")
                title_node = meta.find("title") if meta is not None else None
                title = _one_line(title_node.text()) if title_node is not None else ""
                if title.isdigit() and len(title) <= 7:
                    numbered.append((child, int(title)))
                    continue
                data = child.find("data")
                blocks = [b for b in data.elements() if b.tag != "section"] if data is not None else []
                texts = [t for t in (_one_line(b.text()) for b in blocks) if t]
                if texts:
                    if title:
                        self.book.intro.append(title)
                    self.book.intro += texts
                    self.book.map("front matter")
                self._sections(child, numbered)

    def _entry(self, section: Node, entry: Entry, ids: dict[str, int]) -> None:
        for extra in section.elements():
            if extra.tag in ("footnotes", "illustrations") and extra.elements():
                self.book.kept(extra.line, extra.column, f"<{extra.tag}>", f"<{extra.tag}> of section {entry.number} "
                               "is left out")
        data = section.find("data")
        if data is None:
            self.book.kept(section.line, section.column, "section without data", "a section with no <data>")
            return
        blocks = data.elements()
        random_context = False
        i = 0
        while i < len(blocks):
            block = blocks[i]
            text = _one_line(block.text())
            if block.tag == "choice":
                if random_context:
                    run = [b for b in blocks[i:] if b.tag == "choice"]
                    run = run[: next((k for k, b in enumerate(run) if _range(_prose_of(b)) is None), len(run))]
                    if self._random(run, entry):
                        i += len(run)
                        continue
                self._choice(block, entry, blocks[i - 1] if i else None, random_context)
            elif block.tag == "combat":
                self._combat(block, entry)
            elif block.tag == "deadend":
                entry.parts.append(text + "\n")
                entry.ending = "death"
                self.book.map("deadend")
            elif block.tag == "puzzle":
                targets = block.attrs.get("idrefs", "").split()
                entry.parts.append(text + "\n")
                for target in targets:
                    entry.parts.append(Choice([target], label="the answer"))
                self.book.map("puzzle")
                self.book.note(block.line, block.column, "a puzzle: each answer it names is a choice")
            elif block.tag in _SKIPPED:
                self.book.kept(block.line, block.column, f"<{block.tag}>", f"<{block.tag}> is left out")
            else:
                self._prose_block(block, entry)
                if re.search(r"(?i)random\s+number\s+table|pick\s+a\s+number", text):
                    random_context = True
            i += 1
        if not entry.choices() and entry.ending is None:
            entry.ending = ""
            self.book.note(section.line, section.column, f"section {entry.number} has no choice: an ending")

    def _condition(self, what: str, negated: bool, discipline: bool, line: int) -> tuple[str, str] | None:
        """A choice's prose condition (``what`` follows "If you have"): the dtc condition and the
        words to name the choice by; None when it is not clear. "X or Y", "X and Y", "neither X
        nor Y" are read; "X or Y and Z" is not."""
        if re.match(r"(?i)^\s*n?either\s+of\b", what):
            return None  # "either of these skills", "neither of the above": named elsewhere
        what = re.sub(r"(?i)^\s*either\s+(?=.+\bor\b)", "", what)  # "either the Seal or the documents"
        first = what.split()[0].lower() if what.split() else ""
        if first in _NOT_A_THING or (first.endswith("ed") and len(first) > 4):
            return None  # "If you have ever visited…", "If you have already eaten…": not a possession
        neither = re.match(r"(?i)^neither\s+(.+?)\s+nor\s+(.+)$", what.strip())
        if neither:
            if negated:
                return None
            parts, joiner, negated = [neither.group(1), neither.group(2)], " and ", True
        else:
            words = re.split(r"(?i)\s+(or|and)\s+", what.strip())
            joiners = {w.lower() for w in words[1::2]}
            if len(joiners) > 1:
                return None
            parts = words[0::2]
            joiner = f" {joiners.pop()} " if joiners else ""
            if negated and joiner:  # "do not have X or Y": neither; "do not have X and Y": unclear
                if joiner != " or ":
                    return None
                joiner = " and "
        atoms: list[str] = []
        for i, part in enumerate(parts):
            name, is_discipline, count = _thing(("discipline of " if discipline and i == 0 else "") + part)
            if not name or len(part) > 80:
                return None
            if is_discipline:
                self.disciplines.setdefault(name, line)
            else:
                self.conditioned[name] = max(self.conditioned.get(name, (0, line))[0], count), line
            atoms.append(condition_atom(name, count, negated))
        return joiner.join(atoms), what.strip()

    def _prose_block(self, block: Node, entry: Entry) -> None:
        """A paragraph (or list, table...): its text; an ``<item>`` its sentence finds is
        ``[may +Item]``, one it loses (lose, erase, discard, give up...) ``[-Item?]``; Gold Crowns
        found are ``[+5 gold crowns]``, paid or lost ``[-5 gold crowns?]``."""
        if block.tag not in _BLOCKS and block.tag not in ("ul", "ol", "dl", "table", "tr", "hr", "a"):
            self.book.kept(block.line, block.column, f"<{block.tag}>", f"the element <{block.tag}> is read as prose")
        text = _one_line(block.text())
        sentences = re.findall(r"[^.!?]+[.!?]*", text)
        changes: list[str] = []
        for item in _items(block):
            name = _one_line(item.text())
            sentence = next((x for x in sentences if name and name in x), "")
            if name and _LOSES.search(sentence):
                changes.append(f"-{possession_name(name)}?")
                self.book.map("item")
            elif name and _FINDS.search(sentence):
                changes.append(f"may +{possession_name(name)}")
                self.given.add(possession_name(name).lower())
                self.book.map("item")
            elif name:
                self.book.note(item.line, item.column, f"the item '{name[:40]}' is named, not found or lost: prose")
        for sentence in sentences:
            gold = _GOLD_AMOUNT.search(sentence)
            if gold is None:
                continue
            name = possession_name(gold.group(2).lower())
            if _LOSES.search(sentence):
                changes.append(f"-{int(gold.group(1))} {name}?")
                self.book.map("gold")
            elif _FINDS.search(sentence):
                changes.append(f"+{int(gold.group(1))} {name}")
                self.given.add(name)
                self.book.map("gold")
        if text:
            entry.parts.append(text)
        entry.parts.append(Raw(" ".join(f"[{c}]" for c in changes) + "\n"))

    def _combat(self, block: Node, entry: Entry) -> None:
        enemy = block.find("enemy")
        name = re.sub(r"[^\w '’-]", " ", _one_line(enemy.text()) if enemy is not None else "").strip()
        name = " ".join(w.capitalize() if i == 0 else w for i, w in enumerate(name.split()))
        stats: dict[str, int] = {}
        for attribute in (c for c in block.elements() if c.tag == "enemy-attribute"):
            value = _one_line(attribute.text())
            label = attribute.attrs.get("class", "")
            if value.lstrip("-").isdigit() and len(value) <= 6:
                key = {"endurance": "HP", "combatskill": "CS"}.get(label.lower(), re.sub(r"\W", "", label.upper()))
                stats[key or "STAT"] = int(value)
        if not name or not name[0].isalpha() or "HP" not in stats or stats["HP"] < 0:
            self.book.kept(block.line, block.column, "<combat>", "a combat without a name and an ENDURANCE")
            entry.parts.append(_one_line(block.text()) + "\n")
            return
        fields = [f"{name[:60]} HP {stats.pop('HP')}"] + [f"{k} {v}" for k, v in stats.items() if v >= 0]
        entry.parts.append(Raw("\n" + " | ".join(fields) + "\n"))
        self.book.map("combat")

    def _choice(self, block: Node, entry: Entry, before: Node | None, random_context: bool = False) -> None:
        target = block.attrs.get("idref", "")
        if not target:
            self.book.kept(block.line, block.column, "choice without idref", "a choice that names no section")
            entry.parts.append(_one_line(block.text()) + "\n")
            return
        prose = _prose_of(block)
        self.book.map("choice")
        if re.match(r"(?i)\s*if\s+you\s+win\b", prose) or (before is not None and before.tag == "combat"
                                                           and re.search(r"(?i)\bwin\b", prose)):
            entry.parts.append(prose.rstrip(" ,.;:") + ", ")
            entry.parts.append(Choice([target], prose="turn to"))
            entry.parts.append(".\n")
            return
        hp = _ENDURANCE.match(prose)
        if hp:  # "If you have 10 or more ENDURANCE points left": a gate on HP
            condition = (f"HP >= {hp.group('more')}" if hp.group("more") else
                         f"HP < {hp.group('less')}" if hp.group("less") else f"HP <= {hp.group('most')}")
            entry.parts.append(prose[: hp.start()] + "If you have ")
            entry.parts.append(Choice([target], label=prose[hp.start():hp.end()].strip()[len("if you have "):],
                                      condition=condition))
            rest = prose[hp.end():].strip(" ,;.")
            entry.parts.append((", " + rest if rest else "") + ".\n")
            self.book.map("prose condition")
            return
        m = _CONDITION.match(prose)
        if m and _ANYONE.search(prose):  # "…or do not wish to show them", "…, or if you wish to withdraw":
            m = None  # every reader may take it (kept as text: open to every reader)
        what_end = m.end("what") if m else 0
        if m:  # "If you have a Rope and wish to use it", "a Spear but do not wish to give it": before the wish
            wish_tail = re.search(r"(?i)\s+(?:and|but)\s+(?:do\s+not\s+|don['’]t\s+)?"
                                  r"(?:wish|want|decide|would|choose|prefer)\b", m.group("what"))
            if wish_tail:
                what_end = m.start("what") + wish_tail.start()
        read = self._condition(prose[m.start("what"):what_end], bool(m.group("not")), bool(m.group("discipline")),
                               block.line) if m else None
        if m and read is not None:
            condition, label = read
            entry.parts.append(prose[: m.start("what")])
            entry.parts.append(Choice([target], label=label, condition=condition))
            rest = prose[what_end:].strip(" ,;.")
            entry.parts.append((" " + rest if rest.lower().startswith("and ") else ", " + rest if rest else "") + ".\n")
            self.book.map("prose condition")
            return
        use = _USE.search(prose)
        if use and (not _UNCLEAR.match(prose) or _HAVE_AND_USE.match(prose)):  # "If you wish to use your Kai
            # Discipline of Sixth Sense", "If you possess and wish to use the Kai Discipline of Healing"
            name = possession_name(use.group(1))
            self.disciplines.setdefault(name, block.line)
            entry.parts.append(prose[: use.start(1)])
            entry.parts.append(Choice([target], label=use.group(1).strip(), condition=condition_atom(name)))
            rest = prose[use.end(1):].strip(" ,;.")
            entry.parts.append((", " + rest if rest else "") + ".\n")
            self.book.map("prose condition")
            return
        if random_context and _range(prose) is not None:
            self.book.kept(block.line, block.column, "random number table",
                           f"the Random Number Table branch '{prose.rstrip(' ,.;:')[:60]}' is not read (the numbers "
                           "are changed, or the branches do not cover 0 to 9 once): the choice is open to every reader")
        elif _UNCLEAR.match(prose):
            self.book.kept(block.line, block.column, "prose condition",
                           f"the condition in '{prose.rstrip(' ,.;:')[:60]}' is not read: the choice is open to every "
                           "reader")
        wish = _WISH.match(prose)
        if wish:
            entry.parts.append(wish.group(1))
            entry.parts.append(Choice([target], label=wish.group(2)))
            entry.parts.append(".\n")
            return
        entry.parts.append(prose.rstrip(" ,.;:") + " ")
        entry.parts.append(Choice([target]))
        entry.parts.append(".\n")

    def _random(self, run: list[Node], entry: Entry) -> bool:
        """A run of choices whose ranges cover 0 to 9 once: a d10 random branch."""
        ranges: list[tuple[int, int]] = []
        targets: list[str] = []
        covered: list[int] = []
        for block in run:
            prose = _prose_of(block)
            if re.search(r"(?i)\b(add|deduct|subtract|total|plus|minus)\b", prose):
                return False
            found = _range(prose)
            if found is None or not block.attrs.get("idref"):
                return False
            lo, hi = found
            ranges.append((lo + 1, hi + 1))
            targets.append(block.attrs["idref"])
            covered += range(lo, hi + 1)
        if sorted(covered) != list(range(10)):
            return False
        order = sorted(range(len(ranges)), key=lambda k: ranges[k])
        entry.parts.append(" ".join(_prose_of(block).rstrip(" ,.;:") + "." for block in run) + "\n")
        entry.parts.append(Choice([targets[k] for k in order], label="Pick a number", dice="d10",
                                  ranges=[ranges[k] for k in order]))
        entry.parts.append(" (the Random Number Table's 0–9 read as 1–10)\n")
        self.book.map("random number table")
        return True


def _thing(text: str) -> tuple[str, bool, int]:
    """A thing a condition names: its possession name, whether it is a Discipline, and a count."""
    text = re.sub(r"(?i)^(?:the|a|an)\s+", "", text.strip())
    discipline = re.match(r"(?i)^(?:(?:kai|magnakai|grand\s+master)\s+)?discipline\s+of\s+(.+)$", text)
    if discipline:
        return possession_name(discipline.group(1)), True, 1
    gold = _GOLD.match(text)
    if gold and gold.group(2):
        return possession_name(gold.group(2).lower()), False, int(gold.group(1))
    return possession_name(text), False, 1


#: A range open at one end: ``4 or lower`` (0–4), ``5 or higher`` (5–9), ``below 5`` (0–4),
#: ``higher than 6`` (7–9); the Random Number Table's numbers run from 0 to 9.
_OPEN_RANGES = (
    (re.compile(r"(?i)(?<!\d)(\d)\s+or\s+(?:lower|less|below|under|fewer)\b"), lambda n: (0, n)),
    (re.compile(r"(?i)(?<!\d)(\d)\s+or\s+(?:higher|more|above|over|greater)\b"), lambda n: (n, 9)),
    (re.compile(r"(?i)\b(?:below|under|less\s+than|lower\s+than|fewer\s+than)\s+(\d)(?!\d)"), lambda n: (0, n - 1)),
    (re.compile(r"(?i)\b(?:above|over|more\s+than|higher\s+than|greater\s+than)\s+(\d)(?!\d)"), lambda n: (n + 1, 9)),
)


def _range(prose: str) -> tuple[int, int] | None:
    """The numbers of the Random Number Table a choice names: ``0–4``, ``5 or 6``, ``is 7``, ``pick 0``, and
    open at one end, ``4 or lower``, ``5 or higher``, ``below 5`` (see :data:`_OPEN_RANGES`)."""
    for pattern, bounds in _OPEN_RANGES:
        m = pattern.search(prose)
        if m is not None:
            lo, hi = bounds(int(m.group(1)))
            return (lo, hi) if 0 <= lo <= hi <= 9 else None
    for k, pattern in enumerate(_RANGES):
        m = pattern.search(prose)
        if m is None:
            continue
        lo = int(m.group(1))
        hi = int(m.group(2)) if k < 2 else lo
        if lo > hi or (k == 1 and hi != lo + 1):
            return None
        return lo, hi
    return None


def _items(node: Node) -> list[Node]:
    found: list[Node] = []
    for child in node.elements():
        if child.tag == "item":
            found.append(child)
        else:
            found += _items(child)
    return found


def _prose_of(choice: Node) -> str:
    """A choice's prose without its link text (``turn to 141``)."""
    parts = [c if isinstance(c, str) else ("" if c.tag == "link-text" else c.text()) for c in choice.children]
    return _one_line("".join(parts))


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def read_aon(data: bytes) -> Book:
    return AonReader(parse_xml(data)).read()
