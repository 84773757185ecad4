"""What a reader with only the book and dice needs, shared by the print edition and the ebook.

* :func:`book_rules`: the system's rules in words and the sheet's lines
  (:func:`dtc.systems.reference.describe`), with the book's own state added: its coins,
  possessions and codewords get lines on the sheet (:func:`sheet_lines`).
* :func:`blocks`: an entry cut into what a page shows, each thing once: paragraphs of prose (effects
  in brackets read as sentences, "Cross off 10 coins and note 3 torches."), a Dungeon Rules
  hazard or zone line as a block of its own, a stat block written inside the entry as its table
  (never again as raw text), and an ending as a block headed by its kind ("THE END" taken out of
  the paragraph).
* :func:`hazard_words`: a hazard's card in sentences; :func:`zone_rows`: the book's zones with
  their encounter checks; :func:`uses_random_branches` and :data:`DICE_TABLE`: the dice table of
  the back matter, for a reader without dice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from dtc.compiled.graphjson import CompiledGraph, Creature, Entry, Hazard
from dtc.editions.text import Piece
from dtc.systems import UnknownRuleset
from dtc.systems.reference import BookRules, SheetLine, describe

_SP = r"[ \t]"
#: ``[+20 coins]``, ``[-10 coins, +3 torches]``, ``[may +rope]``: effects in brackets.
EFFECTS = re.compile(rf"\[{_SP}*(?:(?i:may){_SP}+)?[+-][^\[\]\n]{{0,200}}\]")
_CHANGE = re.compile(r"([+-])\s*([0-9]+)?\s*([^,+\-][^,]*?)\s*(?=,|$)")
#: ``THE END``, ``THE END (death)``, ``The End.``: the ending's mark, shown as a block instead.
THE_END = re.compile(r"\b(?:THE|The|the)\s+(?:END|End|end)\b(?:[ \t]*\([ \t]*(?i:death|victory)[ \t]*\))?[.!]*")
#: A Dungeon Rules line of its own in an entry: ``Hazard: Rotten Joists``, ``Zone: dim``.
_OWN_LINE = re.compile(r"^[ \t]*(Hazard|Zone)[ \t]*:[ \t]*([^\n|]*?)[ \t]*(?:\|[^\n]*)?$", re.M)


def book_rules(graph: CompiledGraph) -> BookRules:
    """The book's rules for a reader; an unknown ``Rules:`` value (lint reports it) gives none."""
    try:
        return describe(graph["rules"])
    except UnknownRuleset:
        return {"title": graph["rules"] or "unknown rules", "parts": [], "sections": [], "hp": "HP",
                "abilities": [], "sheet": [], "zones": {}}


def _is_codeword(name: str) -> bool:
    return "-" in name and " " not in name


def book_state(graph: CompiledGraph) -> tuple[list[str], list[str], bool]:
    """The possessions (beyond coins) and codewords the book gives, takes or tests, and whether it
    counts coins."""
    names = list(graph.get("possessions") or [])
    coins = "coins" in names or any(e["kind"] == "treasure" for x in graph["entries"] for e in x["effects"])
    things = [n for n in names if n != "coins" and not _is_codeword(n)]
    words = [n for n in names if _is_codeword(n)]
    return things, words, coins


def sheet_lines(graph: CompiledGraph, rules: BookRules) -> list[SheetLine]:
    """The adventure sheet: name, hit points, the abilities, the system's lines, then a box for each
    possession and codeword the book uses, and notes."""
    lines: list[SheetLine] = [{"label": "Name", "start": "", "size": "short"},
                              {"label": rules["hp"], "start": "", "size": "short"}]
    lines += [{"label": a, "start": "", "size": "short"} for a in rules["abilities"]]
    lines += rules["sheet"]
    things, words, coins = book_state(graph)
    if coins and not any(s["label"] == "Coins" for s in lines):
        lines.append({"label": "Coins", "start": "0", "size": "short"})
    lines += [{"label": f"☐ {name[:1].upper()}{name[1:]}", "start": "", "size": "box"} for name in things]
    lines += [{"label": f"☐ Codeword: {name}", "start": "", "size": "box"} for name in words]
    if not any(s["label"] in ("Equipment", "Items") for s in lines):
        lines.append({"label": "Items and treasure", "start": "", "size": "long"})
    lines.append({"label": "Notes", "start": "", "size": "long"})
    return lines


def _count(n: int) -> str:
    return {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}.get(n, str(n))


def _thing(name: str, amount: int | None) -> str:
    if _is_codeword(name):
        return f"the codeword {name}"
    if amount is None:
        return f"the {name}" if not name.endswith("s") else f"one of your {name}"
    return f"{amount} {name}"


def effects_words(bracket: str) -> str:
    """``[-10 coins, +3 torches]`` as a sentence: "Cross off 10 coins and note 3 torches."; ``[may
    +rope]``: "You may note the rope."; what does not read as effects is given back unchanged."""
    inner = bracket.strip()[1:-1].strip()
    may = inner[:3].lower() == "may" and inner[3:4].isspace()
    if may:
        inner = inner[3:].strip()
    said: list[str] = []
    for part in inner.split(","):
        m = _CHANGE.fullmatch(part.strip())
        if m is None:
            return bracket
        sign, number, name = m.group(1), m.group(2), " ".join(m.group(3).split())
        amount = int(number) if number else None
        if name == "coins":
            said.append(f"{'add' if sign == '+' else 'cross off'} {amount or 1} coin{'s' if amount != 1 else ''}")
        else:
            said.append(f"{'note' if sign == '+' else 'cross off'} {_thing(name, amount)}")
    if not said:
        return bracket
    text = ", ".join(said[:-1]) + (" and " if len(said) > 1 else "") + said[-1]
    text = f"you may {text}" if may else text
    return text[:1].upper() + text[1:] + "."


@dataclass(frozen=True, slots=True)
class Block:
    """A part of a section as a page shows it: ``para`` (pieces of prose), ``hazard`` (a name),
    ``zone`` (the words of a zone line), ``stats`` (a creature written in the entry) or ``ending``
    (its kind: ``death``, ``victory`` or "")."""

    kind: str
    pieces: list[Piece] = field(default_factory=list)
    name: str = ""
    creature: Creature | None = None


def _own_blocks(entry: Entry, creatures: list[Creature]) -> list[str]:
    """The raw texts of the stat blocks written in the entry (to take out of its prose)."""
    names = {c["name"] for c in creatures}
    return [e["text"] for e in entry["effects"] if e["kind"] == "fight" and "|" in e["text"]
            and any(e["text"].startswith(n) for n in names)]


def blocks(entry: Entry, items: list[Piece], own: list[Creature], split: object) -> list[Block]:
    """The entry's ``items`` (pieces) as blocks; ``own``: the creatures whose stat blocks the entry
    writes; ``split``: the edition's paragraph splitter (:func:`dtc.editions.text.paragraphs`)."""
    raw = _own_blocks(entry, own)
    pieces: list[Piece] = []
    for p in items:
        if p.kind != "text":
            pieces.append(p)
            continue
        text = p.text
        for block in raw:
            text = re.sub(re.escape(block) + r"[ \t]*\.?", "", text)
        if entry["ending"]:
            text = THE_END.sub("", text)
        if "[" in text:
            text = EFFECTS.sub(lambda m: effects_words(m.group()), text)
        at = 0
        for m in _OWN_LINE.finditer(text):
            if text[at : m.start()]:
                pieces.append(Piece("text", text[at : m.start()]))
            pieces.append(Piece(m.group(1).lower(), m.group(2)))
            at = m.end()
        if text[at:]:
            pieces.append(Piece("text", text[at:]))
    out: list[Block] = []
    run: list[Piece] = []

    def flush() -> None:
        if run:
            out.extend(Block("para", para) for para in split(list(run)))  # type: ignore[operator]
            run.clear()

    for p in pieces:
        if p.kind in ("hazard", "zone"):
            flush()
            out.append(Block(p.kind, name=p.text))
        else:
            run.append(p)
    flush()
    out += [Block("stats", creature=c) for c in own]
    if entry["ending"]:
        out.append(Block("ending", name=entry.get("ending_kind") or ""))
    return out


ENDING_HEADS = {"death": "Death", "victory": "Victory", "": "An ending"}


def _inside(creature: Creature, entry: Entry) -> bool:
    return creature["entry"] == entry["number"] or entry["line"] <= creature["line"] <= entry["end_line"]


def own_creatures(graph: CompiledGraph, entry: Entry) -> list[Creature]:
    """The creatures whose stat blocks this entry writes (shown as tables in its section)."""
    return [c for c in graph["creatures"] if _inside(c, entry)]


def bestiary(graph: CompiledGraph) -> list[Creature]:
    """The creatures written outside the entries, once each (the first of a name): the front matter's."""
    spans = sorted((e["line"], e["end_line"]) for e in graph["entries"])
    seen: dict[str, Creature] = {}
    for c in graph["creatures"]:
        if c["entry"] is None and not any(lo <= c["line"] <= hi for lo, hi in spans):
            seen.setdefault(c["name"], c)
    return list(seen.values())


def hazard_card(graph: CompiledGraph, name: str, entry: int | None = None) -> Hazard | None:
    """The hazard a name places (as play finds it): the one defined in ``entry``, else the first."""
    found = [h for h in graph.get("hazards") or [] if h["name"].lower() == name.lower()]
    own = [h for h in found if h["entry"] == entry]
    return own[0] if own else found[0] if found else None


def hazard_words(hazard: Hazard, rules: BookRules) -> list[str]:
    """A hazard's card in sentences: its check, what failing and passing mean, the gear against it."""
    out: list[str] = []
    check = hazard["check"]
    if check is not None and check["abilities"]:
        names = " or ".join(check["abilities"])
        better = f"the better of your {names}" if len(check["abilities"]) > 1 else f"your {names}"
        d = check["difficulty"] or 2
        dr = next((p for p in rules["parts"] if p["system"] == "dungeon-rules"), None)
        template = dr["rolls"].get(str(d)) if dr else None
        roll = template.replace("{ability}", better) if template else f"roll against {better}"
        out.append(f"Check: {names}, difficulty {d}: {roll}.")
    if hazard["fail"]:
        out.append(f"Fail: {hazard['fail']}.")
    if hazard["pass"]:
        out.append(f"Pass: {hazard['pass']}.")
    if hazard["mitigation"]:
        out.append(f"Mitigation: {', '.join(hazard['mitigation'])}.")
    if hazard["telltales"]:
        out.append(f"Telltales: {hazard['telltales']}.")
    if hazard["trigger"]:
        out.append(f"Trigger: {hazard['trigger']}.")
    return [" ".join(s.split()).replace("..", ".") for s in out]


def zone_rows(graph: CompiledGraph, rules: BookRules) -> list[tuple[str, str, str]]:
    """The book's zones table: (sections, the zone as written, its encounter check in words)."""
    rows = []
    for z in graph.get("zones") or []:
        sections = str(z["low"]) if z["low"] == z["high"] else f"{z['low']}–{z['high']}"
        words = rules["zones"].get(z["zone"] or "", "")
        rows.append((sections, z["text"], words.split(": ", 1)[-1] if words else ""))
    return rows


def entry_zone(entry: Entry) -> str | None:
    """The zone and conditions a section lies in, in words (Dungeon Rules), None outside zones."""
    zone = entry.get("zone")
    if zone is None:
        return None
    conditions = entry.get("conditions") or []
    return zone.replace("-", " ") + (f" ({', '.join(c.replace('-', ' ') for c in conditions)})" if conditions else "")


def uses_random_branches(graph: CompiledGraph) -> bool:
    return any(c.get("roll") is not None for e in graph["entries"] for c in e["choices"])


def _dice_table() -> tuple[tuple[int, ...], ...]:
    """Each face ten times in 60 cells, in an order fixed by a small generator (no library's)."""
    cells = [face for face in range(1, 7) for _ in range(10)]
    state = 43
    for i in range(len(cells) - 1, 0, -1):
        state = (state * 1103515245 + 12345) % 2**31
        j = state % (i + 1)
        cells[i], cells[j] = cells[j], cells[i]
    return tuple(tuple(cells[r * 10 : r * 10 + 10]) for r in range(6))


#: A table of 60 die faces, each face ten times, for the back matter of a book with random
#: branches: close your eyes, put a pencil point on it and read the face it lands on (for more
#: dice, the faces that follow). Fixed, so the same book prints the same table.
DICE_TABLE: tuple[tuple[int, ...], ...] = _dice_table()
