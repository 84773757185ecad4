"""Twee 3 (Twine's text format) read into a :class:`~dtc.interop.book.Book`.

Passages are ``:: Name [tags] {metadata}``; ``StoryTitle`` names the book and ``StoryData``'s
``start`` its entrance. Links (``[[text->Passage]]``, ``[[Passage<-text]]``, ``[[text|Passage]]``,
``[[Passage]]``) are choices. SugarCube's ``<<set>>``/``<<if>>``/``<<elseif>>``/``<<else>>``,
``<<goto>>``, ``<<link>>``, ``<<return>>`` and Harlowe's ``(set:)``, ``(if:)[…]``, ``(else-if:)``,
``(else:)``, ``(unless:)``, ``(goto:)``, ``(link-goto:)`` are read over booleans and numbers: a
variable is a possession, ``<<set $gold to $gold + 5>>`` is ``[+5 gold]``, a condition around links
is their condition. A ``random()`` (``(random:)``) total tested by an ``<<if>>`` chain whose
branches each hold one link is a random branch. Everything else is kept as text, with a finding.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field

from dtc.interop import exprs
from dtc.interop.book import Book, Choice, Entry, Raw, possession_name
from dtc.interop.exprs import Dnf

_HEADER = re.compile(r"^::(.*)$", re.MULTILINE)
_LINK = re.compile(r"\[\[((?:[^\]\n]|\](?![\]\[])){0,2000})(?:\]\[([^\]\n]{0,2000}))?\]\]")
_SC_MACRO = re.compile(r"<<(/?)([A-Za-z][\w-]{0,60})((?:[^>]|>(?!>)){0,5000})>>")
_HARLOWE = re.compile(r"\(([A-Za-z][\w-]*):")
_COMMENT = re.compile(r"/\*(.{0,20000}?)\*/|<!--(.{0,20000}?)-->", re.DOTALL)
_RANDOM = re.compile(r"^\s*(?:\(\s*random\s*:\s*(-?\d+)\s*,\s*(-?\d+)\s*\)|random\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\))\s*$")
_CHECK = re.compile(r"^\s*dtc:\s*check\s+(?:([^\s*/]{1,20})\s+)?D(\d{1,3})(\s+success\s+only)?\s*$")
_NAME_NOTE = re.compile(r"^\s*dtc name:\s*(.+?)\s*$")
_EXIT_LABEL = re.compile(r"(?i)((?:return|go|turn|turning|skip|proceed|continue|head|flip|jump)(?:\s+back)?\s+to"
                         r"(?:\s+(?:entry|section|paragraph))?|read\s+(?:entry|section|paragraph))\s+(\d{1,7})")
_FIRST_VISIT = re.compile(r"\s*visited\(\)\s*(?:is|===|==|eq)\s*1\s*")
_LIMITS_NOTE = re.compile(r"/\*\s*dtc limits:\s*(.{1,2000}?)\s*\*/")
_CONTAINERS_NOTE = re.compile(r"/\*\s*dtc containers:\s*(.{1,2000}?)\s*\*/")
_SPECIAL = {"StoryTitle", "StoryData", "StoryInit", "StoryMenu", "StoryCaption", "StoryBanner", "StorySubtitle",
            "StoryAuthor", "PassageReady", "PassageDone", "PassageHeader", "PassageFooter", "StoryInterface",
            "StoryShare"}
_CODE_TAGS = {"script", "stylesheet", "widget", "Twine.private", "header", "footer", "debug-header",
              "debug-footer", "debug-startup"}

#: How deep ``<<if>>`` and hooks may nest before the rest is kept as text.
MAX_DEPTH = 40


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def split_header(header: str) -> tuple[str, list[str], str]:
    """A passage header's name, tags and metadata text (after the ``::``)."""
    i, name = 0, []
    while i < len(header):
        ch = header[i]
        if ch == "\\" and i + 1 < len(header):
            name.append(header[i: i + 2])
            i += 2
            continue
        if ch in "[{":
            break
        name.append(ch)
        i += 1
    rest = header[i:].strip()
    tags: list[str] = []
    if rest.startswith("["):
        end = rest.find("]")
        if end != -1:
            tags = [_unescape(t) for t in rest[1:end].split()]
            rest = rest[end + 1:].strip()
    return _unescape("".join(name).strip()), tags, rest


@dataclass(slots=True)
class _Random:
    low: int
    high: int
    dice: str
    offset: int


@dataclass(slots=True)
class _Context:
    """Where the scanner is: the conditions around it, the passage's random totals."""

    conditions: list[Dnf] = field(default_factory=list)
    randoms: dict[str, _Random] = field(default_factory=dict)
    pending_check: Choice | None = None


class TweeReader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.book = Book("twee")
        self.names: dict[str, str] = {}  # variable -> possession name
        self.entry: Entry | None = None
        self.parens: dict[int, int] | None = None
        self.brackets: dict[int, int] | None = None
        self.if_ends: dict[int, int] | None = None
        self.as_written = False  # the next random() total's branches are each an <<if>> of their own
        self.own_prose = False  # a passage tagged dtc: its prose is dtc's own (written by dtc export)
        self.exit_in_text = False  # the next link is an exit the passage's own text gives
        #: ``/* dtc: -all backpack (3) */``: the next sets to 0 are the loss of a container's all
        #: (its name, how many sets are left, and whether one was not a set to 0 of all)
        self.all_of: list[object] | None = None
        self.text_exits: set[str] = set()  # passages with such exits
        self.written: dict[str, Choice | None] = {}  # such totals, and the random branch they make

    def _close(self, at: int, end: int) -> int | None:
        """Where the bracket at ``at`` closes, if it does before ``end``."""
        if self.text[at] == "(":
            if self.parens is None:
                self.parens = pairs(self.text, "(", ")")
            close = self.parens.get(at)
        else:
            if self.brackets is None:
                self.brackets = pairs(self.text, "[", "]")
            close = self.brackets.get(at)
        return close if close is not None and close < end else None

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def kept(self, offset: int, construct: str, message: str) -> None:
        line, column = self.position(offset)
        self.book.kept(line, column, construct, message)

    def note(self, offset: int, message: str) -> None:
        line, column = self.position(offset)
        self.book.note(line, column, message)

    # --- passages --------------------------------------------------------------------------

    def read(self) -> Book:
        headers = list(_HEADER.finditer(self.text))
        if headers and self.text[: headers[0].start()].strip():
            self.kept(0, "text before the first passage", "text before the first passage")
            self.book.intro.append(self.text[: headers[0].start()])
        passages: list[tuple[str, list[str], int, int, int]] = []
        for i, m in enumerate(headers):
            name, tags, meta = split_header(m.group(1))
            body_start = m.end() + 1
            body_end = headers[i + 1].start() if i + 1 < len(headers) else len(self.text)
            passages.append((name, tags, m.start(), min(body_start, body_end), body_end))
            if meta and not meta.startswith("{"):
                self.note(m.start(), f"passage header of '{name}' has text after its tags: ignored")
        for name, _tags, _at, start, end in passages:
            if name == "StoryInit":
                self._read_names(self.text[start:end])
                self._read_limits(self.text[start:end])
        for _, _, _, start, end in passages:
            self._read_names_anywhere(self.text[start:end])
        seen: set[str] = set()
        init: list[tuple[int, int]] = []
        story_start: str | None = None
        for name, tags, at, start, end in passages:
            body = self.text[start:end]
            if name == "StoryTitle":
                self.book.title = body.strip() or None
                self.book.map("StoryTitle")
            elif name == "StoryData":
                story_start = self._story_data(body, at)
            elif name == "StoryAuthor":
                self.book.author = body.strip() or None
                self.book.map("StoryAuthor")
            elif name == "StoryInit" or "startup" in tags:
                init.append((start, end))
            elif "dtc-front-matter" in tags:  # written by dtc export: the book's tables, as they were
                rules = re.match(r"Rules:[ \t]*(.+)\n?", body)
                if rules:
                    self.book.rules = rules.group(1).strip()
                    body = body[rules.end():]
                self.book.front = body.strip("\n")
                self.book.map("front matter")
            elif name in _SPECIAL or _CODE_TAGS & set(tags):
                what = "JavaScript" if "script" in tags else f"special passage '{name}'" if name in _SPECIAL else \
                    f"passage tagged {', '.join(sorted(_CODE_TAGS & set(tags)))}"
                self.kept(at, what, f"{what} is not part of the book")
                if body.strip():
                    self.book.intro.append(body)
            elif name in seen:
                self.kept(at, "duplicate passage", f"a second passage named '{name}'")
                self.book.intro.append(body)
            else:
                seen.add(name)
                number = int(name) if name.isascii() and name.isdigit() and len(name) <= 7 else None
                line, _ = self.position(at)
                self.entry = Entry(name, line, number)
                self.book.entries.append(self.entry)
                self.written, self.as_written, self.all_of = {}, False, None
                self.own_prose = "dtc" in tags
                self._scan(start, end, _Context(), 0)
                self._finish_entry(self.entry, tags)
                for tag in tags:
                    if tag not in ("death", "victory", "ending", "dead-end", "dtc"):
                        self.note(at, f"the tag '{tag[:40]}' of '{name[:40]}' is not read")
        if story_start is not None and story_start not in seen:
            self.note(0, f"StoryData's start '{story_start[:60]}' names no passage: the first entry is the start")
        elif story_start is not None:
            self.book.start = story_start
        elif any(e.key == "Start" for e in self.book.entries):
            self.book.start = "Start"
        for start, end in init:
            self._read_init(start, end)
        return self.book

    def _story_data(self, body: str, at: int) -> str | None:
        try:
            data = json.loads(body) if len(body) < 100_000 else None
        except (ValueError, RecursionError):
            data = None
        if not isinstance(data, dict):
            self.kept(at, "StoryData", "StoryData is not a JSON object")
            return None
        self.book.map("StoryData")
        fmt = data.get("format")
        if isinstance(fmt, str) and fmt.lower() not in ("sugarcube", "harlowe", ""):
            self.note(at, f"story format {fmt[:40]!r}: read as SugarCube or Harlowe")
        start = data.get("start")
        return start if isinstance(start, str) else None

    def _read_limits(self, body: str) -> None:
        m = _LIMITS_NOTE.search(body)
        if m:
            for item in m.group(1).split(","):
                words = item.split()
                chosen = len(words) >= 3 and words[-1].lower() == "(choose)"  # the reader drops (Containers:)
                if chosen:
                    words = words[:-1]
                if len(words) >= 2 and words[-1].isdigit():
                    self.book.limits.append(f"{possession_name(' '.join(words[:-1]))} {int(words[-1])}"
                                            + (" (choose)" if chosen else ""))
            self.book.map("limits")
        m = _CONTAINERS_NOTE.search(body)
        if m:  # ``Containers:`` as written (dtc lint reads it again: DT125)
            self.book.containers = " ".join(m.group(1).split())
            self.book.map("containers")

    def _read_names(self, body: str) -> None:
        for m in re.finditer(r"<<set\s+(\$\w+)\s+to\s+[^>]*>>\s*/\*\s*dtc name:\s*(.+?)\s*\*/", body):
            self.names[m.group(1)] = possession_name(m.group(2))

    def _read_names_anywhere(self, body: str) -> None:
        for m in re.finditer(r"[$](?:[A-Za-z_]\w*)", body):
            var = m.group(0)
            if var not in self.names:
                self.names[var] = possession_name(var[1:].replace("_", " "))

    def _read_init(self, start: int, end: int) -> None:
        """StoryInit (Harlowe: ``startup`` passages): a variable set to a number above 0 or to
        true is held from the first page (``Start with:``)."""
        body = self.text[start:end]
        gains: list[str] = []
        for m in re.finditer(r"<<set\s+(.*?)>>|\(set:\s*(.*?)\)", body, re.DOTALL):
            for assignment in _assignments(m.group(1) or m.group(2) or ""):
                var, value = assignment
                tree = exprs.parse(value)
                if tree is None or var not in self.names:
                    self.kept(start + m.start(), "StoryInit", f"initial value {value.strip()[:40]!r} not read")
                    continue
                if tree in (("num", 0), ("bool", False)):
                    self.book.map("initial value")
                elif tree == ("bool", True):
                    gains.append(self.names[var])
                    self.book.map("initial value")
                elif tree[0] == "num" and isinstance(tree[1], int) and tree[1] > 0:
                    gains.append(f"{tree[1]} {self.names[var]}" if tree[1] != 1 else self.names[var])
                    self.book.map("initial value")
                else:
                    self.kept(start + m.start(), "StoryInit", f"initial value {value.strip()[:40]!r} not read")
        self.book.start_with += gains

    # --- the scanner -----------------------------------------------------------------------

    def _prose(self, text: str, ctx: _Context, offset: int) -> None:
        assert self.entry is not None
        if ctx.conditions and text.strip():
            self.kept(offset, "conditional text", "text shown only under a condition is shown always")
        self.entry.parts.append(Raw(text) if self.own_prose else text)

    def _scan(self, pos: int, end: int, ctx: _Context, depth: int) -> None:
        assert self.entry is not None
        text = self.text
        tokens = ("[[", "<<", "(", "/*", "<!--")
        found = [-2] * len(tokens)  # the next place of each token (-1: none before end)
        while pos < end:
            for k, token in enumerate(tokens):
                if found[k] != -1 and found[k] < pos:
                    found[k] = text.find(token, pos, end)
            candidates = [i for i in found if i != -1]
            nxt = min(candidates) if candidates else end
            if nxt > pos:
                self._prose(text[pos:nxt], ctx, pos)
            if nxt >= end:
                return
            pos = self._construct(nxt, end, ctx, depth)

    def _construct(self, at: int, end: int, ctx: _Context, depth: int) -> int:
        text = self.text
        if text.startswith("[[", at):
            m = _LINK.match(text, at, end)
            if m:
                self._link(m.group(1), at, ctx, setter=m.group(2))
                return m.end()
            self._prose("[[", ctx, at)
            return at + 2
        if text.startswith("/*", at) or text.startswith("<!--", at):
            m = _COMMENT.match(text, at, end)
            if not m:
                self._prose(text[at:at + 2], ctx, at)
                return at + 2
            body = m.group(1) if m.group(1) is not None else m.group(2)
            check = _CHECK.match(body)
            if re.fullmatch(r"\s*dtc:\s*ranges\s+as\s+written\s*", body):
                self.as_written = True
                return m.end()
            if re.fullmatch(r"\s*dtc:\s*exit\s+in\s+the\s+text\s*", body):
                self.exit_in_text = True
                return m.end()
            box = re.fullmatch(r"\s*dtc:\s*-all\s+(.{1,200}?)\s+\((\d{1,4})\)\s*", body)
            if box:  # a container's loss of everything it holds, as written (docs/import.md)
                self.all_of = [possession_name(box.group(1)), int(box.group(2))]
                return m.end()
            if check:
                ctx.pending_check = Choice([], ability=check.group(1), difficulty=int(check.group(2)),
                                           label="" if check.group(3) else None)
                self.book.map("check")
            elif not _NAME_NOTE.match(body):
                self.book.map("comment")
            return m.end()
        if text.startswith("<<", at):
            m = _SC_MACRO.match(text, at, end)
            if not m:
                self._prose("<<", ctx, at)
                return at + 2
            return self._sugarcube(m, end, ctx, depth)
        m = _HARLOWE.match(text, at, end)
        if m:
            return self._harlowe(m, end, ctx, depth)
        self._prose("(", ctx, at)
        return at + 1

    def _condition(self, ctx: _Context, at: int) -> tuple[bool, str | None]:
        """Whether the conditions around are mappable, and the condition they make."""
        dnf = exprs.conjoin(ctx.conditions)
        if dnf is None:
            return False, None
        if not dnf:
            self.note(at, "a link under a condition that is never true")
        return True, exprs.write(dnf) if dnf else None

    def _link(self, inner: str, at: int, ctx: _Context, setter: str | None = None) -> None:
        assert self.entry is not None
        if self.exit_in_text:
            self.exit_in_text = False
            if self.own_prose:  # the passage's own text says it (dtc export wrote the link for Twine)
                self.book.map("link")
                self.text_exits.add(self.entry.key)
                return
        if "->" in inner:
            label, _, target = inner.rpartition("->")
        elif "<-" in inner:
            target, _, label = inner.partition("<-")
        elif "|" in inner:
            label, _, target = inner.rpartition("|")
        else:
            label = target = inner
        target = target.strip()
        effects: list[str] = []
        if setter is not None:
            read = self._setter(setter, at)
            if read is None:
                self.kept(at, "setter link", f"the setter [{setter.strip()[:40]}] of a link")
            else:
                effects = read
                self.book.map("setter", len(read))
        self._goto(label.strip(), target, at, ctx, effects)

    def _goto(self, label: str, target: str, at: int, ctx: _Context, effects: list[str] | None = None) -> None:
        assert self.entry is not None
        if not target:
            self.kept(at, "empty link", "a link to no passage")
            self.entry.parts.append(f"[[{label}]]")
            return
        if ctx.pending_check is not None and ctx.pending_check.targets:
            ctx.pending_check.targets.append(target)
            ctx.pending_check = None
            self.book.map("link")
            return
        ok, condition = self._condition(ctx, at)
        if not ok:
            self.kept(at, "condition", "a condition dtc cannot write, on a link (the link is kept without it)")
            condition = None
        elif condition:
            self.book.map("condition")
        words = _EXIT_LABEL.fullmatch(label)
        if words and words.group(2) == target and not ctx.conditions and ctx.pending_check is None and not effects:
            choice = Choice([target], prose=words.group(1))
        else:
            choice = Choice([target], label=label if label != target else None, condition=condition,
                            effects=effects or [])
        if ctx.pending_check is not None:
            choice.ability, choice.difficulty = ctx.pending_check.ability, ctx.pending_check.difficulty
            choice.prose = None
            ctx.pending_check = None if ctx.pending_check.label == "" else choice
        self.entry.parts.append(choice)
        self.book.map("link")

    # --- SugarCube ---------------------------------------------------------------------

    def _sugarcube(self, m: re.Match[str], end: int, ctx: _Context, depth: int) -> int:
        assert self.entry is not None
        closing, name, args = m.group(1), m.group(2), m.group(3)
        at = m.start()
        if closing:
            self.kept(at, "unmatched closing macro", f"<</{name}>> closes nothing")
            self._prose(m.group(0), ctx, at)
            return m.end()
        if name == "set":
            self._set(args, at, ctx, m.group(0))
            return m.end()
        if name == "if" and depth < MAX_DEPTH:
            return self._sc_if(m, end, ctx, depth)
        if name in ("goto", "link", "button"):
            parts = re.findall(r'"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\'|\[\[(.*?)\]\]', args)
            words = [a or b or c for a, b, c in parts]
            if name == "goto" and len(words) == 1:
                inner = parts[0][2]
                if inner:
                    self._link(inner, at, ctx)
                else:
                    self._goto("", words[0], at, ctx)
                return m.end()
            if name in ("link", "button") and len(words) == 2 and not parts[0][2]:
                self._goto(words[0], words[1], at, ctx)
                return m.end()
            if name in ("link", "button") and len(words) == 1 and parts[0][2]:
                self._link(parts[0][2], at, ctx)
                return m.end()
        if name == "link" and re.fullmatch(r"\s*(\"[^\"]*\"|'[^']*')\s*", args):
            close = self.text.find("<</link>>", m.end(), end)
            if close != -1:
                effects = self._sets_only(m.end(), close)
                if effects is not None and all(e.startswith("+") for e in effects):
                    self.entry.parts.append(Raw("[may " + ", ".join(effects) + "]"))
                    self.book.map("optional gain", len(effects))
                    return close + len("<</link>>")
                body = self.text[m.end():close]
                goto = list(re.finditer(r"<<goto\s+(\"[^\"]*\"|'[^']*')\s*>>", body))
                if len(goto) == 1:
                    rest = body[: goto[0].start()] + body[goto[0].end():]
                    sets = self._sets_in(rest)
                    if sets is not None:  # <<link "text">><<set …>><<goto "P">><</link>>: a choice
                        self._goto(args.strip()[1:-1], goto[0].group(1)[1:-1], at, ctx, sets)
                        return close + len("<</link>>")
        if name in ("return", "back") and not args.strip():
            self.entry.returns = True
            self.book.map("return")
            return m.end()
        if name == "script":
            close = self.text.find("<</script>>", m.end(), end)
            stop = close + len("<</script>>") if close != -1 else m.end()
            self.kept(at, "JavaScript", "JavaScript is not read")
            self._prose(self.text[at:stop], ctx, at)
            return stop
        if name in ("run", "print", "=", "-"):
            what = "JavaScript" if name in ("script", "run") else f"<<{name}>>"
            self.kept(at, what, f"{what} is not read")
        else:
            self.kept(at, f"<<{name}>>", f"the macro <<{name}>> is not read")
        self._prose(m.group(0), ctx, at)
        return m.end()

    def _sc_if(self, m: re.Match[str], end: int, ctx: _Context, depth: int) -> int:
        """An ``<<if>>`` chain: its branches, each scanned under its condition."""
        branches: list[tuple[str | None, int, int, int]] = []  # condition text, header at, body start, end
        cond: str | None = m.group(3)
        body_start = m.end()
        level = 0
        pos = m.end()
        header_at = m.start()
        if self.if_ends is None:
            self.if_ends = self._if_pairs()
        close = self.if_ends.get(m.start())
        if close is None or close >= end:
            self.kept(m.start(), "<<if>>", "an <<if>> without its <</if>>")
            self._prose(m.group(0), ctx, m.start())
            return m.end()
        if _FIRST_VISIT.fullmatch(m.group(3)) and not ctx.conditions:
            effects = self._sets_only(m.end(), close)
            if effects is not None and all(e[0] == "+" and "?" not in e for e in effects):
                assert self.entry is not None
                self.entry.parts.append(Raw("[" + ", ".join(f"+once {e[1:]}" for e in effects) + "]"))
                self.book.map("first-visit effect", len(effects))
                return close + len("<</if>>")
        for inner in _SC_MACRO.finditer(self.text, pos, close + 7):
            closing, name = inner.group(1), inner.group(2)
            if name == "if":
                level += 1 if not closing else -1
                if level < 0:
                    branches.append((cond, header_at, body_start, inner.start()))
                    return self._branches(branches, ctx, depth, inner.end())
            elif level == 0 and not closing and name in ("elseif", "else"):
                branches.append((cond, header_at, body_start, inner.start()))
                cond = inner.group(3) if name == "elseif" else None
                header_at, body_start = inner.start(), inner.end()
        self.kept(m.start(), "<<if>>", "an <<if>> without its <</if>>")
        self._prose(m.group(0), ctx, m.start())
        return m.end()

    def _sets_only(self, start: int, stop: int) -> list[str] | None:
        """The effects of a stretch that holds nothing but ``<<set>>`` macros, or None."""
        effects: list[str] = []
        pos = start
        for m in _SC_MACRO.finditer(self.text, start, stop):
            if self.text[pos:m.start()].strip() or m.group(1) or m.group(2) != "set":
                return None
            for var, value in _assignments(m.group(3)):
                effect = self._effect(var, value)
                if effect is None:
                    return None
                effects.append(effect)
            pos = m.end()
        return effects if effects and not self.text[pos:stop].strip() else None

    def _sets_in(self, text: str) -> list[str] | None:
        """The effects of text that holds nothing but ``<<set>>`` macros (possibly none), as a
        choice's effects, or None."""
        effects: list[str] = []
        pos = 0
        for m in _SC_MACRO.finditer(text):
            if text[pos:m.start()].strip() or m.group(1) or m.group(2) != "set":
                return None
            for var, value in _assignments(m.group(3)):
                effect = self._effect(var, value)
                if effect is None or "?" in effect or effect.split()[0] in ("-all",) or "d" in effect.split()[0][1:]:
                    return None
                effects.append(effect)
            pos = m.end()
        return effects if not text[pos:].strip() else None

    def _if_pairs(self) -> dict[int, int]:
        """Where each ``<<if>>`` is closed by its ``<</if>>``, in one pass."""
        closing: dict[int, int] = {}
        stack: list[int] = []
        for m in _SC_MACRO.finditer(self.text):
            if m.group(2) == "if":
                if not m.group(1):
                    stack.append(m.start())
                elif stack:
                    closing[stack.pop()] = m.start()
        return closing

    def _branches(self, branches: list[tuple[str | None, int, int, int]], ctx: _Context, depth: int,
                  after: int) -> int:
        trees = [exprs.parse(c) if c is not None else ("bool", True) for c, _, _, _ in branches]
        # a random branch: every condition reads one dice variable, every branch one link
        dice_vars = {v for t in trees if t is not None for v in exprs.variables(t)}
        if len(dice_vars) == 1 and (var := next(iter(dice_vars))) in self.written and len(branches) == 1 \
                and self._written_branch(branches[0], trees[0], ctx, var):
            return after
        if len(dice_vars) == 1 and (var := next(iter(dice_vars))) in ctx.randoms \
                and self._random_branches(branches, trees, ctx, var):
            return after
        before: list[Dnf] = []
        for (cond, at, start, stop), tree in zip(branches, trees, strict=True):
            dnf = exprs.to_dnf(tree, self.names) if tree is not None else None
            if dnf is None:
                self.kept(at, "condition", f"the condition {(cond or '').strip()[:60]!r} is not read")
                self._scan_unread(start, stop, ctx, depth)
                continue
            negated = [n for b in before if (n := exprs.negate(b)) is not None]
            if len(negated) != len(before):
                self.kept(at, "condition", "an <<else>> of a condition too large to write")
                self._scan_unread(start, stop, ctx, depth)
                continue
            inner = _Context([*ctx.conditions, *negated, dnf], ctx.randoms)
            self._scan(start, stop, inner, depth + 1)
            before.append(dnf)
        return after

    def _scan_unread(self, start: int, stop: int, ctx: _Context, depth: int) -> None:
        """A branch whose condition is not read: its links are kept without one."""
        self._scan(start, stop, _Context(list(ctx.conditions), ctx.randoms), depth + 1)

    def _written_branch(self, branch: tuple[str | None, int, int, int], tree: exprs.Node | None, ctx: _Context,
                        var: str) -> bool:
        """One ``<<if>>`` of a random branch whose ranges are kept as written (``/* dtc: ranges as
        written */``: they may overlap or leave a total out, which dtc reports)."""
        assert self.entry is not None
        dice = ctx.randoms.get(var)
        body = self.text[branch[2]:branch[3]].strip()
        link = _LINK.fullmatch(body)
        chosen = exprs.totals(tree, var, dice.low, dice.high) if tree is not None and dice is not None else None
        if dice is None or link is None or not chosen or len(_runs(sorted(chosen))) != 1:
            return False
        inner = link.group(1)
        label, target = inner.rpartition("->")[::2] if "->" in inner else (inner, inner)
        low, high = min(chosen) - dice.offset, max(chosen) - dice.offset
        choice = self.written[var]
        if choice is None:
            ok, condition = self._condition(ctx, branch[1])
            if not ok:
                return False
            choice = Choice([], label=label.strip() or None, condition=condition, dice=dice.dice)
            self.written[var] = choice
            self.entry.parts.append(choice)
            self.book.map("random branch")
        choice.targets.append(target.strip())
        choice.ranges.append((low, high))
        return True

    def _random_branches(self, branches: list[tuple[str | None, int, int, int]],
                         trees: list[exprs.Node | None], ctx: _Context, var: str) -> bool:
        assert self.entry is not None
        dice = ctx.randoms[var]
        remaining = set(range(dice.low, dice.high + 1))
        targets: list[str] = []
        ranges: list[tuple[int, int]] = []
        label = ""
        for (_, _, start, stop), tree in zip(branches, trees, strict=True):
            if tree is None:
                return False
            chosen = exprs.totals(tree, var, dice.low, dice.high)
            if chosen is None:
                return False
            chosen &= remaining
            remaining -= chosen
            body = self.text[start:stop].strip()
            link = _LINK.fullmatch(body)
            if not chosen:
                if body:
                    return False
                continue
            if link is None:
                return False
            inner = link.group(1)
            text, target = (inner.rpartition("->")[::2] if "->" in inner else
                            inner.partition("<-")[::-2] if "<-" in inner else
                            inner.rpartition("|")[::2] if "|" in inner else (inner, inner))
            label = label or text.strip()
            for run in _runs(sorted(chosen)):
                ranges.append((run[0] - dice.offset, run[1] - dice.offset))
                targets.append(target.strip())
        if remaining or not targets:
            return False
        ok, condition = self._condition(ctx, branches[0][1])
        if not ok:
            return False
        order = sorted(range(len(ranges)), key=lambda i: ranges[i])
        self.entry.parts.append(Choice([targets[i] for i in order], label=label or None, condition=condition,
                                       dice=dice.dice, ranges=[ranges[i] for i in order]))
        self.book.map("random branch")
        return True

    def _set(self, args: str, at: int, ctx: _Context, source: str) -> None:
        assert self.entry is not None
        for var, value in _assignments(args):
            random = _random_total(value)
            if random is not None and var.startswith("_"):
                ctx.randoms[var] = random
                self.book.map("random()")
                if self.as_written:
                    self.written[var] = None
                    self.as_written = False
                continue
            effect = self._effect(var, value)
            if effect is None:
                self.kept(at, "<<set>>", f"the assignment {var} to {value.strip()[:40]!r} is not read")
                self._prose(source, ctx, at)
                return
            if ctx.conditions:
                self.kept(at, "conditional effect", "an effect under a condition")
                self._prose(source, ctx, at)
                return
            if self.all_of is not None and effect.startswith("-all "):
                name, left = self.all_of
                assert isinstance(left, int)
                self.all_of = [name, left - 1] if left > 1 else None
                if left == 1:
                    self.entry.parts.append(Raw(f"[-all {name}]"))
                self.book.map("set")
                continue
            self.all_of = None
            self.entry.parts.append(Raw(f"[{effect}]"))
            self.book.map("set")

    def _effect(self, var: str, value: str) -> str | None:
        """``[+5 gold]``'s inside for ``$gold to $gold + 5`` (and ``+=``, Harlowe's ``it + 5``): ``true`` is
        a gain, ``false`` or ``0`` ``-all``, ``Math.max(0, $gold - 5)`` a loss if held (``-5 gold?``),
        ``$gold + random(1, 10) * 2`` a rolled amount (``+1d10*2 gold``)."""
        if var not in self.names:
            return None
        name = self.names[var]
        value = value.strip()
        if value == "true":
            return f"+{name}"
        if value in ("false", "0"):
            return f"-all {name}"
        own = rf"(?:{re.escape(var)}|it)"
        m = re.fullmatch(rf"Math\.max\(\s*0\s*,\s*{own}\s*-\s*(\d{{1,7}})\s*\)", value)
        if m and int(m.group(1)):
            n = int(m.group(1))
            return f"-{n} {name}?" if n != 1 else f"-{name}?"
        m = re.fullmatch(rf"{own}\s*([+-])\s*(\d{{1,7}})", value) or re.fullmatch(r"([+-])=\s*(\d{1,7})", value)
        if m:
            sign, n = m.group(1), int(m.group(2))
            if n == 0:
                return None
            return f"{sign}{n} {name}" if n != 1 else f"{sign}{name}"
        m = re.fullmatch(rf"{own}\s*\+\s*(.+?)(?:\s*\*\s*(\d{{1,4}}))?", value)
        if m:
            rolled = _random_total(m.group(1))
            if rolled is not None and rolled.offset == 0:
                dice = rolled.dice if rolled.dice[0].isdigit() else "1" + rolled.dice
                times = f"*{int(m.group(2))}" if m.group(2) and int(m.group(2)) != 1 else ""
                return f"+{dice}{times} {name}"
        return None

    def _setter(self, setter: str, at: int) -> list[str] | None:
        """A setter link's assignments as a choice's effects (``-all coins``, ``-1 rope?``,
        ``+1d6 coins``: every form a choice takes), or None (kept as text)."""
        effects = []
        for var, value in _assignments(setter):
            effect = self._effect(var, value)
            if effect is None:
                return None
            effects.append(effect)
        return effects

    # --- Harlowe -----------------------------------------------------------------------

    def _harlowe(self, m: re.Match[str], end: int, ctx: _Context, depth: int) -> int:
        assert self.entry is not None
        name = m.group(1).lower()
        close = self._close(m.start(), end)
        if close is None:
            self._prose("(", ctx, m.start())
            return m.start() + 1
        args = self.text[m.end():close]
        after = close + 1
        at = m.start()
        if name == "set":
            for var, value in _assignments(args):
                random = _random_total(value)
                if random is not None and var.startswith("_"):
                    ctx.randoms[var] = random
                    self.book.map("random()")
                    continue
                effect = self._effect(var, value)
                if effect is None or ctx.conditions:
                    self.kept(at, "(set:)", f"the assignment {var} to {value.strip()[:40]!r} is not read")
                    self._prose(self.text[at:after], ctx, at)
                    return after
                self.entry.parts.append(Raw(f"[{effect}]"))
                self.book.map("set")
            return after
        if name in ("if", "unless", "else-if", "elseif", "else") and depth < MAX_DEPTH:
            return self._harlowe_if(m, args, after, end, ctx, depth)
        if name in ("goto", "go-to", "link-goto"):
            words = re.findall(r'"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\'', args)
            values = [a or b for a, b in words]
            if name in ("goto", "go-to") and len(values) == 1:
                self._goto("", values[0], at, ctx)
                return after
            if name == "link-goto" and len(values) in (1, 2):
                self._goto(values[0], values[-1], at, ctx)
                return after
        self.kept(at, f"({name}:)", f"the macro ({name}:) is not read")
        self._prose(self.text[at:after], ctx, at)
        return after

    def _harlowe_if(self, m: re.Match[str], args: str, after: int, end: int, ctx: _Context, depth: int) -> int:
        branches: list[tuple[str | None, int, int, int]] = []
        name = m.group(1).lower()
        at = m.start()
        if name in ("else-if", "elseif", "else"):
            self.kept(at, f"({name}:)", f"({name}:) with no (if:) before it")
            self._prose(self.text[at:after], ctx, at)
            return after
        cond: str | None = args if name == "if" else f"not ({args})"
        pos = after
        while True:
            if pos >= end or self.text[pos] != "[":
                self.kept(at, f"({name}:)", f"({name}:) with no hook after it")
                self._prose(self.text[at:pos], ctx, at)
                return pos
            close = self._close(pos, end)
            if close is None:
                self.kept(at, f"({name}:)", "a hook without its closing ]")
                self._prose(self.text[at:pos], ctx, at)
                return pos
            branches.append((cond, at, pos + 1, close))
            pos = close + 1
            nxt = re.compile(r"\s*\((else-if|elseif|else):").match(self.text, pos, end)
            if not nxt:
                break
            close_args = self._close(nxt.end() - len(nxt.group(1)) - 2, end)
            if close_args is None:
                break
            at = nxt.start()
            word = nxt.group(1)
            cond = None if word == "else" else self.text[nxt.end():close_args]
            pos = close_args + 1
        return self._branches(branches, ctx, depth, pos)

    def _finish_entry(self, entry: Entry, tags: list[str]) -> None:
        """An ending: a passage tagged ``death``, ``victory`` or ``ending``, or one with no link (unless
        tagged ``dead-end``)."""
        kinds = [t for t in ("death", "victory") if t in tags]
        if kinds:
            entry.ending = kinds[0]
        elif "ending" in tags or (not entry.choices() and not entry.returns and "dead-end" not in tags
                                  and entry.key not in self.text_exits):
            entry.ending = ""
        if entry.ending is not None:
            self.book.map("ending")


def _runs(values: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for v in values:
        if runs and runs[-1][1] == v - 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return runs


def _random_total(value: str) -> _Random | None:
    """``random(1, 6) + random(1, 6)`` (or Harlowe's ``(random: 1, 6)``): the dice it rolls."""
    terms = value.split("+")
    if not 1 <= len(terms) <= 10:
        return None
    bounds: set[tuple[int, int]] = set()
    for term in terms:
        m = _RANDOM.match(term)
        if not m:
            return None
        low, high = (int(m.group(1)), int(m.group(2))) if m.group(1) is not None else (int(m.group(3)), int(m.group(4)))
        bounds.add((low, high))
    if len(bounds) != 1:
        return None
    low, high = bounds.pop()
    sides = high - low + 1
    if not 2 <= sides <= 100:
        return None
    n = len(terms)
    return _Random(n * low, n * high, f"{n if n > 1 else ''}d{sides}", n * (low - 1))


def _assignments(args: str) -> list[tuple[str, str]]:
    """``$a to 1, $b to $b + 2`` (SugarCube) or ``$a to it + 1`` (Harlowe) as (variable, value)s."""
    out: list[tuple[str, str]] = []
    depth, start = 0, 0
    pieces: list[str] = []
    for i, ch in enumerate(args):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch in ",;" and depth == 0:
            pieces.append(args[start:i])
            start = i + 1
    pieces.append(args[start:])
    for piece in pieces:
        m = re.fullmatch(r"\s*([$_][A-Za-z_]\w*)\s*(?:\bto\b|=(?!=))\s*(.*?)\s*", piece, re.DOTALL)
        if m:
            out.append((m.group(1), m.group(2)))
            continue
        m = re.fullmatch(r"\s*([$_][A-Za-z_]\w*)\s*([+-]=\s*\d{1,7})\s*", piece)
        if m:
            out.append((m.group(1), m.group(2)))
        elif piece.strip():
            out.append(("?", piece))
    return out


def pairs(text: str, open_ch: str, close_ch: str) -> dict[int, int]:
    """Where each ``open_ch`` of ``text`` is closed, in one pass (for parentheses, what is inside a
    string is skipped, as Harlowe reads it)."""
    closing: dict[int, int] = {}
    stack: list[int] = []
    quote = ""
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote or ch == "\n":
                quote = ""
        elif ch in "\"'" and open_ch == "(" and stack:
            quote = ch
        elif ch == open_ch:
            stack.append(i)
        elif ch == close_ch and stack:
            closing[stack.pop()] = i
        i += 1
    return closing


def read_twee(text: str) -> Book:
    return TweeReader(text).read()
