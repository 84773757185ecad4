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
from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from dtc.compiled.graphjson import CompiledGraph, Creature, Entry, Hazard
from dtc.editions.text import Piece
from dtc.systems import UnknownRuleset
from dtc.systems.reference import BookRules, SheetLine, describe

_SP = r"[ \t]"
#: ``[+20 coins]``, ``[-10 coins, +3 torches]``, ``[may +rope]``: effects in brackets.
EFFECTS = re.compile(rf"\[{_SP}*(?:(?i:may){_SP}+)?[+-][^\[\]\n]{{0,200}}\]")
#: ``THE END``, ``THE END (death)``, ``The End.``: the ending's mark, shown as a block instead.
THE_END = re.compile(r"\b(?:THE|The|the)\s+(?:END|End|end)\b(?:[ \t]*\([ \t]*(?i:death|victory)[ \t]*\))?[.!]*")
#: A Dungeon Rules line of its own in an entry: ``Hazard: Rotten Joists``, ``Zone: dim``.
_OWN_LINE = re.compile(r"^[ \t]*(Hazard|Zone|Image)[ \t]*:[ \t]*([^\n|]*?)[ \t]*(?:\|[^\n]*)?$"
                       r"|!\[[^\[\]\n]{0,300}\]\([ \t]*<?([^\s()<>]{1,500})>?(?:[ \t]+\"[^\"\n]*\")?[ \t]*\)", re.M)


def book_rules(graph: CompiledGraph, known: BookRules | None = None) -> BookRules:
    """The book's rules for a reader (``known``: its system's, already described); an unknown
    ``Rules:`` value (lint reports it) gives none. A book without an encounter table has no
    wandering creatures (play rolls for none), so their section is left out."""
    if known is None:
        try:
            known = describe(graph["rules"])
        except UnknownRuleset:
            return {"title": graph["rules"] or "unknown rules", "parts": [], "sections": [], "hp": "HP",
                    "abilities": [], "sheet": [], "zones": {}}
    if graph["encounters"]:
        return known
    return {**known, "sections": [s for s in known["sections"] if s["kind"] != "encounters"]}


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


def counted_names(graph: CompiledGraph) -> set[str]:
    """The possessions a book counts (more than one at a time: a number on the sheet, not a box)."""
    found: set[str] = set(graph.get("limits") or {})
    found.update(s["name"] for s in graph.get("start_with") or [] if s["amount"] != 1)

    def conditions(c: Mapping[str, Any]) -> None:
        if "has" in c and (c["count"] != 1 or "op" in c):
            found.add(c["has"])
        for inner in (c.get("not"), *(c.get("all") or []), *(c.get("any") or [])):
            if isinstance(inner, Mapping):
                conditions(inner)

    for entry in graph["entries"]:
        changes: list[Mapping[str, Any]] = list(entry.get("changes") or [])
        for choice in entry["choices"]:
            changes += choice.get("changes") or []
            if (condition := choice.get("condition")) is not None:
                conditions(condition)
        found.update(c["name"] for c in changes if abs(c["amount"]) != 1 or c.get("dice") or c.get("all"))
    return found


def sheet_lines(graph: CompiledGraph, rules: BookRules) -> list[SheetLine]:
    """The adventure sheet: name, hit points, the abilities, the system's lines, then a box for each
    possession and codeword the book uses, and notes."""
    lines: list[SheetLine] = [{"label": "Name", "start": "", "size": "short"},
                              {"label": rules["hp"], "start": "", "size": "short"}]
    lines += [{"label": a, "start": "", "size": "short"} for a in rules["abilities"]]
    lines += rules["sheet"]
    things, words, coins = book_state(graph)
    start = {s["name"]: s["amount"] for s in graph.get("start_with") or []}
    limits = graph.get("limits") or {}

    def begin(name: str) -> str:
        held = f"{start[name]}" if name in start else ""
        most = f"at most {limits[name]}" if name in limits else ""
        return "; ".join(w for w in (held, most) if w)

    if begin("coins"):  # the system's Coins line, with what the book starts with and allows
        lines = [{"label": x["label"], "start": begin("coins"), "size": x["size"]} if x["label"] == "Coins" else x
                 for x in lines]
    if coins and not any(s["label"] == "Coins" for s in lines):
        lines.append({"label": "Coins", "start": begin("coins") or "0", "size": "short"})
    counted = counted_names(graph)
    kit = _kit(graph, things)
    for name in things:
        title = name[:1].upper() + name[1:]
        if name in counted:
            lines.append({"label": title, "start": begin(name), "size": "short"})
        else:
            held = "start with it" if name in start else "start with it (in your kit)" if name in kit else ""
            lines.append({"label": f"☐ {title}", "start": held, "size": "box"})
    chosen = set(graph.get("drop_by_choice") or ())
    for box, members in (graph.get("containers") or {}).items():  # ``Containers:``, their limits
        what = "holds " + ", ".join(members)
        if box in limits:
            what += (f"; at most {limits[box]} in all (past that, cross off one of your choice)" if box in chosen
                     else f"; at most {limits[box]} in all (what does not fit is lost)")
        lines.append({"label": box[:1].upper() + box[1:], "start": what, "size": "long"})
    lines += [{"label": f"☐ Codeword: {name}", "start": "", "size": "box"} for name in words]
    if not any(s["label"] in ("Equipment", "Items") for s in lines):
        lines.append({"label": "Items and treasure", "start": "", "size": "long"})
    lines.append({"label": "Notes", "start": "", "size": "long"})
    return lines


def _kit(graph: CompiledGraph, names: list[str]) -> set[str]:
    """Of ``names``, those a fresh adventurer's kit holds (a Death & Treasure book's "if rope"), as
    play finds them there (:func:`dtc.runtime.inventory.kit_holdings`); none for unknown rules."""
    from dtc.runtime.inventory import kit_holdings
    from dtc.systems import play_rules

    try:
        rules = play_rules(graph["rules"])
    except LookupError:  # an unknown system or ruling, a broken plugin: lint reports it
        return set()
    return set(kit_holdings(names, rules.kit()))


def _plural(name: str) -> bool:
    """Whether a possession's name reads as a plural (torches, rations; not a spyglass or a compass)."""
    return name.endswith("s") and not name.endswith(("ss", "us", "is"))


def _thing(name: str, amount: int | None) -> str:
    if _is_codeword(name):
        return f"the codeword {name}"
    if amount is None:
        return f"the {name}" if not _plural(name) else f"one of your {name}"
    return f"{amount} {name}"


def change_words(change: Mapping[str, Any]) -> str:
    """One change of the book's state in words: "note the rope", "cross off 10 coins", "roll 1d10
    and multiply it by 3: add that many gold crowns", "cross off the rope if you have it"."""
    name, amount = str(change["name"]), int(change["amount"])
    gain = amount > 0
    if change.get("dice"):
        times = f" and multiply it by {change['times']}" if change.get("times") else ""
        said = f"roll {change['dice']}{times}: {'add' if gain else 'cross off'} that many {name}"
    elif change.get("all") and change.get("container") == name:  # ``[-all backpack]``
        said = f"cross off everything in your {name}"
    elif change.get("all"):
        said = f"cross off all your {name}"
    elif change.get("pick"):  # ``[-1 item of choice]``, ``[-1 item of choice from backpack]``
        n = abs(amount)
        box = f" from your {change['container']}" if change.get("container") else ""
        said = f"cross off {'one item' if n == 1 else f'{n} items'} of your choice{box}"
    else:
        n = abs(amount)
        counted = n != 1 or name == "coins"
        said = f"{'note' if gain else 'cross off'} {_thing(name, n if counted else None)}"
        if gain and not counted and _plural(name) and not _is_codeword(name):
            said = f"add one to your {name}"
        if name == "coins":
            said = f"{'add' if gain else 'cross off'} {n} coin{'s' if n != 1 else ''}"
    if change.get("if_held"):
        said += " if you have it" if abs(amount) == 1 and not change.get("all") else " if you have them"
    if change.get("once"):
        said += " (only the first time you read this)"
    return said


def changes_sentence(changes: list[Mapping[str, Any]], may: bool = False) -> str:
    """Changes as one sentence: "Cross off 10 coins and note 3 torches."."""
    from dtc.runtime.conditions import as_written

    said = [change_words(c) for c in as_written(changes)]
    if not said:
        return ""
    text = ", ".join(said[:-1]) + (" and " if len(said) > 1 else "") + said[-1]
    if may or all(c.get("may") for c in changes):
        text = f"you may {text}"
    return text[:1].upper() + text[1:] + "."


#: One part of a bracket of effects: a sign, then an amount (a count, dice or ``all``) and a name.
_PART = re.compile(r"([+-])\s*(?:(all)\s+|([0-9]*d[0-9]+)(?:\s*[*x×]\s*([0-9]+))?\s+|([0-9]+)\s+)?"
                   r"(once\s+)?([^,?]+?)(\s+once)?\s*(\?)?", re.I)


def _parse_bracket(bracket: str) -> tuple[list[dict[str, Any]], bool] | None:
    """A bracket of effects read as changes (None when it does not read as effects)."""
    inner = bracket.strip()[1:-1].strip()
    may = inner[:3].lower() == "may" and inner[3:4].isspace()
    if may:
        inner = inner[3:].strip()
    found: list[dict[str, Any]] = []
    for part in inner.split(","):
        m = _PART.fullmatch(part.strip())
        if m is None:
            return None
        sign, every, dice, times, count, once, name, once_after, maybe = m.groups()
        change: dict[str, Any] = {"name": " ".join(name.split()),
                                  "amount": (int(count) if count else 1) * (1 if sign == "+" else -1)}
        if every:
            change["all"] = True
        if dice:
            change.update(dice=dice, times=int(times)) if times else change.update(dice=dice)
        if once or once_after:
            change["once"] = True
        if maybe:
            change["if_held"] = True
        found.append(change)
    return found, may


def effects_words(bracket: str, changes: list[Mapping[str, Any]] | None = None) -> str:
    """``[-10 coins, +3 torches]`` as a sentence: "Cross off 10 coins and note 3 torches."; ``[may
    +rope]``: "You may note the rope."; ``changes``: the compiled changes the bracket made (their
    names as the book counts them), else the bracket's own reading. What does not read as effects
    is given back unchanged."""
    parsed = _parse_bracket(bracket)
    if parsed is None:
        return unread_bracket(bracket)
    read, may = parsed
    if changes is not None:
        from dtc.runtime.conditions import as_written

        changes = as_written(changes)
    chosen: list[Mapping[str, Any]] = list(changes) if changes is not None and len(changes) == len(read) else [*read]
    return changes_sentence(chosen, may)


def unread_bracket(bracket: str) -> str:
    """A bracket that opens as effects but does not read as them (lint DT120: "[+150 coins,
    spyglass]"; play applies none of it) as the author's words in parentheses, signs left out:
    "(150 coins, spyglass)". The reader sees everything written, and no notation."""
    words = [re.sub(r"^(?i:may\s+)?[+-]\s*", "", part.strip()) for part in bracket.strip()[1:-1].split(",")]
    said = ", ".join(" ".join(w.split()) for w in words if w.strip())
    return f"({said})" if said else ""


@dataclass(frozen=True, slots=True)
class Block:
    """A part of a section as a page shows it: ``para`` (pieces of prose), ``hazard`` (a name),
    ``zone`` (the words of a zone line), ``image`` (an illustration), ``stats`` (a creature written
    in the entry) or ``ending`` (its kind: ``death``, ``victory`` or "")."""

    kind: str
    pieces: list[Piece] = field(default_factory=list)
    name: str = ""
    creature: Creature | None = None
    #: An illustration's words (``image``: ``name`` is its file).
    alt: str = ""


def blocks(entry: Entry, items: list[Piece], own: list[Creature], split: object) -> list[Block]:
    """The entry's ``items`` (pieces) as blocks; ``own``: the creatures whose stat blocks the entry
    writes; ``split``: the edition's paragraph splitter (:func:`dtc.editions.text.paragraphs`)."""
    pending: list[Mapping[str, Any]] = list(entry.get("changes") or [])

    def said(m: re.Match[str]) -> str:
        parsed = _parse_bracket(m.group())
        if parsed is None:
            return unread_bracket(m.group())
        mine = pending[: len(parsed[0])]
        del pending[: len(parsed[0])]
        return effects_words(m.group(), mine)

    # A stat block runs to the end of its line (docs/format.md): from its name and HP on, the line
    # is left out, across the pieces it spans (a fight's outcomes may be notation of their own).
    names = sorted({c["name"] for c in own}, key=len, reverse=True)
    start = re.compile("|".join(rf"{re.escape(n)}[ \t]+HP[ \t]*[0-9]+" for n in names)) if names else None
    skipping = False
    pieces: list[Piece] = []
    for p in items:
        if skipping:
            cut = p.text.find("\n") if p.kind == "text" else -1
            if cut == -1:
                continue
            p = Piece("text", p.text[cut:])  # the rest of the piece, after the block's line
            skipping = False
        if p.kind != "text":
            pieces.append(p)
            continue
        text = p.text
        while start is not None and (m := start.search(text)) is not None:
            end = text.find("\n", m.end())
            if end == -1:
                text, skipping = text[: m.start()], True
                break
            text = text[: m.start()] + text[end:]
        if entry["ending"]:
            text = THE_END.sub("", text)
        if "[" in text:
            text = EFFECTS.sub(said, text)
        at = 0
        lines = "Hazard" in text or "Zone" in text or "Image" in text or "![" in text
        for m in _OWN_LINE.finditer(text) if lines else ():
            if text[at : m.start()]:
                pieces.append(Piece("text", text[at : m.start()]))
            pieces.append(Piece(m.group(1).lower(), m.group(2)) if m.group(1) else Piece("image", m.group(3)))
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
        if p.kind in ("hazard", "zone", "image"):
            flush()
            alt = next((i["alt"] for i in entry.get("images") or [] if i["src"] == p.text), "")
            out.append(Block(p.kind, name=p.text, alt=alt))
        else:
            run.append(p)
    flush()
    out += [Block("stats", creature=c) for c in own]
    if entry["ending"]:
        out.append(Block("ending", name=entry.get("ending_kind") or ""))
    return out


ENDING_HEADS = {"death": "Death", "victory": "Victory", "": "An ending"}


def fight_outcomes(creature: Creature) -> list[tuple[str, int | str]]:
    """Where a fight with a creature written in a section leads (``win S13, lose S12, flee S3`` on its
    stat block), as ("If you win", 13) pairs, win, lose and flee first; none where it says none."""
    exits = cast(Mapping[str, Any], creature).get("exits") or {}
    if not isinstance(exits, Mapping):
        return []
    order = sorted(exits, key=lambda k: ("win", "lose", "flee").index(k) if k in ("win", "lose", "flee") else 3)
    return [(_OUTCOME_WORDS.get(key, f"If you {key}"), exits[key]) for key in order
            if isinstance(exits[key], (int, str)) and not isinstance(exits[key], bool)]


#: What each outcome of a fight means, as play takes it: lose when the fight would kill (the reader
#: comes to with 1 HP), flee when the reader gets away by the rules' flight.
_OUTCOME_WORDS = {"win": "If you win",
                  "lose": "If you lose (the fight would kill you: instead you come to with 1 HP)",
                  "flee": "If you flee (as the fight rules say)"}


def _inside(creature: Creature, entry: Entry) -> bool:
    return creature["entry"] == entry["number"] or entry["line"] <= creature["line"] <= entry["end_line"]


def own_creatures(graph: CompiledGraph, entry: Entry) -> list[Creature]:
    """The creatures whose stat blocks this entry writes (shown as tables in its section)."""
    return [c for c in graph["creatures"] if _inside(c, entry)] if graph["creatures"] else []


def _placed(graph: CompiledGraph) -> list[Entry | None]:
    """For each creature of the graph, the entry whose lines hold its stat block (None: the bestiary)."""
    entries = sorted(graph["entries"], key=lambda e: e["line"])
    starts = [e["line"] for e in entries]
    found: list[Entry | None] = []
    for c in graph["creatures"]:
        at = bisect_right(starts, c["line"]) - 1
        inside = entries[at] if at >= 0 and c["line"] <= entries[at]["end_line"] else None
        found.append(inside if inside is not None or c["entry"] is None
                     else next((e for e in entries if e["number"] == c["entry"]), None))
    return found


def creatures_by_entry(graph: CompiledGraph) -> dict[int, list[Creature]]:
    """:func:`own_creatures` of every entry at once, by entry number (one pass for a whole book)."""
    out: dict[int, list[Creature]] = {}
    for c, entry in zip(graph["creatures"], _placed(graph), strict=True):
        if entry is not None:
            out.setdefault(entry["number"], []).append(c)
    return out


def bestiary(graph: CompiledGraph) -> list[Creature]:
    """The creatures written outside the entries, once each (the first of a name): the front matter's."""
    seen: dict[str, Creature] = {}
    for c, entry in zip(graph["creatures"], _placed(graph), strict=True):
        if entry is None:
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
