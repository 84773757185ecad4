"""A compiled book written as Twee 3 (SugarCube) or as gamebookformat.

Twee carries everything the state notation says: each entry is a passage named by its number
(tagged ``death``, ``victory`` or ``ending`` when it is one), a possession is a story variable
(``StoryInit`` sets each to 0 and records its name in a ``/* dtc name: … */`` comment), an effect is
a ``<<set>>``, a condition an ``<<if>>`` around the link, a random branch a ``random()`` total
tested by an ``<<if>>`` chain, a check a ``/* dtc: check DEX D2 */`` comment before its success and
failure links, "return to your most recent entry" ``<<return>>``. gamebookformat carries less;
what it cannot say is returned as a warning (see :func:`to_gamebookformat`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, cast

from dtc.compiled.graphjson import Change, CompiledGraph, Condition
from dtc.compiled.graphjson import Choice as CompiledChoice
from dtc.compiled.graphjson import Entry as CompiledEntry

_EFFECT = re.compile(r"(?i)\[\s*(?:may\s+)?[+-][^\[\]]*\]")
_ENDING = re.compile(r"THE END(?:\s*\((?:death|victory)\))?\.?|(?i:\bthe end\b(?:\s*\((?:death|victory)\))?[.!]*\s*$)",
                     re.MULTILINE)
_RETURN = re.compile(r"(?i)return\s+to\s+(?:your|the)\s+(?:most\s+recent|previous|last)\s+"
                     r"(?:entry|section|room|paragraph|location)\.?")
_PROSE_EXIT = (r"(?i)\b((?:return|go|skip|turn|turning|proceed|continue|head|flip|jump)(?:\s+back)?\s+to"
               r"(?:\s+(?:entry|section|paragraph))?|read\s+(?:entry|section|paragraph))\s+{n}\b")


def _twee_exit(target: int | str, words: str) -> str:
    return f"[[{words} {target}->{target}]]"


def _gbf_exit(section: str, words: str) -> str:
    return f"{words} [[{section}]]"


def _link_exit(text: str, target: int | str, link: Callable[[str], str]) -> tuple[str, int]:
    """``text`` with its first prose exit to ``target`` (``turn to 12``) made a link by ``link``
    (given the words before the number)."""
    pattern = _PROSE_EXIT.format(n=re.escape(str(target)))
    return re.subn(pattern, lambda m: link(m.group(1)), text, count=1)


@dataclass(slots=True)
class Exported:
    text: str
    warnings: list[str] = field(default_factory=list)


def variable_names(names: list[str]) -> dict[str, str]:
    """A SugarCube variable for each possession: letters, digits and ``_``, unique."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for name in names:
        base = re.sub(r"\W+", "_", name.lower().replace("'", "").replace("’", "")).strip("_") or "v"
        if not (base[0].isalpha() and base.isascii()):
            base = "v_" + (base if base.isascii() else "x")
        var, n = base, 2
        while var in taken:
            var = f"{base}_{n}"
            n += 1
        taken.add(var)
        out[name] = "$" + var
    return out


def _pieces(entry: CompiledEntry) -> list[str | CompiledChoice]:
    """The entry's text split around its choices' notation (a bold label right before a
    choice goes with it)."""
    text = entry["text"]
    out: list[str | CompiledChoice] = []
    cursor = 0
    for choice in entry["choices"]:
        at = text.find(choice["text"], cursor)
        if at == -1:
            continue
        before = text[cursor:at]
        label = choice.get("label") or ""
        bold = re.search(r"(\*\*|__)\s*" + re.escape(label) + r"\s*(\*\*|__)\s*$", before) if label else None
        if bold:
            before = before[: bold.start()]
        out.append(before)
        out.append(choice)
        cursor = at + len(choice["text"])
    out.append(text[cursor:])
    return out


def _clean(text: str) -> str:
    text = _EFFECT.sub("", text)
    text = _ENDING.sub("", text)
    return text


def _link_text(text: str) -> str:
    text = re.sub(r"\s+", " ", text).replace("]]", "] ]").replace("][", "] [").replace("->", "-").replace("<-", "-")
    text = text.replace("|", "/")
    return text.replace("[[", "[ [").strip() or "on"


def _fields(condition: Condition) -> Mapping[str, Any]:
    return cast("Mapping[str, Any]", condition)


_SC_OP = {">=": "gte", ">": "gt", "<=": "lte", "<": "lt", "=": "is"}


def _sugarcube(condition: Condition, var: dict[str, str], warnings: list[str]) -> str:
    c = _fields(condition)
    if "has" in c:
        name, count, op = var[str(c["has"])], int(c["count"]), str(c.get("op", ">="))
        return name if count == 1 and op == ">=" else f"{name} {_SC_OP[op]} {count}"
    if "score" in c:
        warnings.append(f"a condition on the adventurer's {c['score']} is written as a story variable")
        return f"$score_{re.sub(r'[^A-Za-z0-9]', '_', str(c['score']))} {_SC_OP[str(c['op'])]} {int(c['count'])}"
    if "not" in c:
        return f"not {_sugarcube(c['not'], var, warnings)}"
    if "all" in c:
        return " and ".join(_sugarcube(x, var, warnings) for x in c["all"])
    return " or ".join(_sugarcube(x, var, warnings) for x in c["any"])


def to_twee(graph: CompiledGraph, ifid: str) -> Exported:
    start_with = {item["name"]: item["amount"] for item in graph.get("start_with", [])}
    names = list(dict.fromkeys([*start_with, *graph.get("possessions", [])]))  # held first, in their order
    var = variable_names(names)
    lines = [":: StoryTitle", graph["title"] or "Untitled", ""]
    data = {"ifid": ifid, "format": "SugarCube", "format-version": "2.36.1"}
    if graph["start"] is not None:
        data["start"] = str(graph["start"])
    lines += [":: StoryData", json.dumps(data, indent=2), ""]
    if graph.get("author"):
        lines += [":: StoryAuthor", str(graph["author"]), ""]
    if names:
        lines.append(":: StoryInit")
        lines += [f"<<set {var[n]} to {start_with.get(n, 0)}>> /* dtc name: {n.replace('*/', '* /')} */"
                  for n in names]
        if graph.get("limits"):
            chosen = set(graph.get("drop_by_choice", []))  # ``backpack 8 (choose)``: the reader drops
            limits = ", ".join(f"{n} {k}" + (" (choose)" if n in chosen else "")
                               for n, k in graph.get("limits", {}).items())
            lines.append(f"/* dtc limits: {limits.replace('*/', '* /')} */")
        if graph.get("containers"):  # ``Containers:``: what each holds (SugarCube counts each possession)
            held = "; ".join(f"{box}: {', '.join(members)}" for box, members in graph.get("containers", {}).items())
            lines.append(f"/* dtc containers: {held.replace('*/', '* /')} */")
        lines.append("")
    front = _front_matter(graph)
    if front:
        lines += [":: dtc-front-matter [dtc-front-matter]", front, ""]
    out = Exported("")
    roll = 0
    for entry in graph["entries"]:
        tags = ["dtc"] + ([entry["ending_kind"]] if entry.get("ending_kind") else ["ending"] if entry["ending"] else
                ["dead-end"] if not entry["exits"] else [])
        lines.append(f":: {entry['number']} [{' '.join(tags)}]")
        body = ""
        changes = entry.get("changes", [])
        k = 0
        while k < len(changes):
            change = changes[k]
            box = change.get("container")
            if box is not None and change.get("all") and not (change.get("once") or change.get("may")):
                # ``[-all backpack]``: each it holds set to 0, after a note that says so (read back as written)
                run = len(graph.get("containers", {}).get(box, ()))
                if run < 1 or any(c.get("container") != box or not c.get("all") or c.get("once") or c.get("may")
                                  for c in changes[k:k + run]) or len(changes[k:k + run]) < run:
                    body += _twee_change(change, var)
                    k += 1
                    continue
                body += f"/* dtc: -all {box} ({run}) */" + "".join(_twee_change(c, var) for c in changes[k:k + run])
                k += run
                continue
            body += _twee_change(change, var)
            k += 1
        if body:
            body += "\n"
        prose_exits = [x["target"] for x in entry["exits"] if x["kind"] == "prose"]
        for piece in _pieces(entry):
            if isinstance(piece, str):
                text = _twee_escape(_clean(piece))
                text = _RETURN.sub("<<return>>", text)
                for target in list(prose_exits):
                    text, n = _link_exit(text, target, partial(_twee_exit, target))
                    if n:
                        prose_exits.remove(target)
                body += text
                continue
            roll += 1
            body += _twee_choice(piece, var, f"_r{roll}", out.warnings)
        for target in prose_exits:
            # an exit dtc reads where no words say it (a stat block's "win S13"): a link for Twine,
            # which dtc import leaves to the text
            body += f"\n/* dtc: exit in the text */[[turn to {target}->{target}]]"
        lines += [body.strip("\n"), ""]
    out.text = "\n".join(lines)
    return out


def _front_matter(graph: CompiledGraph) -> str:
    """The book's own text before its entries, as dtc's notation: rules, introduction, zones,
    encounters, stat blocks and hazards (a passage dtc import puts back as it is)."""
    lines: list[str] = [f"Rules: {graph['rules']}"] if graph.get("rules") else []
    lines += [p.strip() + "\n" for p in graph.get("introduction", []) if p.strip()]

    def rows(header: str, items: list[tuple[int, int, str]]) -> None:
        if items:
            lines.append(header)
            lines.extend(f"  {lo}-{hi}. {text}" if lo != hi else f"  {lo}. {text}" for lo, hi, text in items)
            lines.append("")

    rows("Zones", [(z["low"], z["high"], z["text"]) for z in graph.get("zones", [])])
    rows("Encounters", [(e["low"], e["high"], e["text"]) for e in graph.get("encounters", [])])
    for c in graph.get("creatures", []):
        if c.get("entry") is None:
            fields = [f"{c['name']} HP {c['hp']}"]
            if c.get("morale") is not None:
                fields.append(f"Morale {c['morale']}")
            fields += [f"{a['name']} {a['damage']}" for a in c.get("attacks", [])]
            fields += [f"{k} {v}" for k, v in (c.get("stats") or {}).items()]
            if c.get("special"):
                fields.append(f"Special: {c['special']}")
            lines += [" | ".join(fields), ""]
    for h in graph.get("hazards", []):
        if h.get("entry") is None and not h.get("error"):
            fields = [f"Hazard: {h['name']}"]
            check = h.get("check")
            if check:
                fields.append(f"Check: {' or '.join(check['abilities'])} D{check['difficulty']}")
            for key, word in (("fail", "Fail"), ("pass", "Pass")):
                if h.get(key):
                    fields.append(f"{word}: {h[key]}")  # type: ignore[literal-required]
            if h.get("mitigation"):
                fields.append(f"Mitigation: {', '.join(h['mitigation'])}")
            for key, word in (("telltales", "Telltales"), ("trigger", "Trigger")):
                if h.get(key):
                    fields.append(f"{word}: {h[key]}")  # type: ignore[literal-required]
            lines += [" | ".join(fields), ""]
    return "\n".join(lines).strip("\n")


def _twee_escape(text: str) -> str:
    """Prose no story format reads as markup: no macro, link, comment or Harlowe call opens in it."""
    text = text.replace("<<", "< <").replace(">>", "> >").replace("[[", "[ [").replace("]]", "] ]")
    text = text.replace("/*", "/ *").replace("<!--", "< !--")
    text = re.sub(r"^::", ": :", text, flags=re.MULTILINE)
    return re.sub(r"\(([A-Za-z][\w-]*):", r"( \1:", text)


def _assignment(change: Change, var: dict[str, str]) -> str:
    """``$v to …`` for one change (see :func:`_twee_change`)."""
    v, amount = var[change["name"]], change["amount"]
    if change.get("all"):
        return f"{v} to 0"
    if "dice" in change:
        count, _, sides = change["dice"].partition("d")
        total = " + ".join([f"random(1, {sides})"] * int(count or 1))
        times = change.get("times", 1)
        return f"{v} to {v} + {total}" + (f" * {times}" if times != 1 else "")
    if amount > 0:
        return f"{v} to {v} + {amount}"
    if change.get("if_held"):
        return f"{v} to Math.max(0, {v} - {-amount})"
    return f"{v} to {v} - {-amount}"


def _twee_change(change: Change, var: dict[str, str]) -> str:
    """An effect as SugarCube: ``<<set>>``; a loss if held takes at most what is held
    (``Math.max(0, …)``), a first-reading effect is under ``<<if visited() is 1>>``, one the reader
    may take is a ``<<link>>``."""
    if change.get("pick"):  # the reader's choice of what to lose: SugarCube has no such effect,
        # so the dtc notation stays in the passage as its words (an import reads it back as written)
        return f"[-{abs(int(change['amount']))} {change['name']}]"  # (``item of choice from backpack`` too)
    text = f"<<set {_assignment(change, var)}>>"
    if change.get("once"):
        text = f"<<if visited() is 1>>{text}<</if>>"
    if change.get("may"):
        text = f'<<link "Take the {change["name"]}">>{text}<</link>>'
    return text


def _twee_choice(choice: CompiledChoice, var: dict[str, str], roll_var: str, warnings: list[str]) -> str:
    label = _link_text(choice.get("label") or "")
    if choice.get("error"):
        return choice["text"]
    setter = "; ".join(_assignment(c, var) for c in choice.get("changes", []) if not c.get("pick"))
    set_ = f"][{setter}" if setter else ""
    inner: str
    spec = choice.get("roll")
    if spec is not None:
        sides, count = spec["sides"], spec["count"]
        total = " + ".join([f"random(1, {sides})"] * count)
        branches = [f"{roll_var} gte {b['low']} and {roll_var} lte {b['high']}" for b in spec["branches"]]
        covered = sorted(t for b in spec["branches"] for t in range(b["low"], b["high"] + 1))
        if covered == list(range(count, count * sides + 1)):
            inner = f"<<set {roll_var} to {total}>>"
            for i, (branch, b) in enumerate(zip(branches, spec["branches"], strict=True)):
                inner += f"<<{'if' if i == 0 else 'elseif'} {branch}>>[[{label}->{b['target']}{set_}]]"
            inner += "<</if>>"
        else:  # ranges that overlap or leave a total out (DT122): each its own <<if>>, as written
            inner = f"/* dtc: ranges as written */<<set {roll_var} to {total}>>"
            inner += "".join(f"<<if {branch}>>[[{label}->{b['target']}{set_}]]<</if>>"
                             for branch, b in zip(branches, spec["branches"], strict=True))
            warnings.append(f"the random branch {choice['text']} is written as separate <<if>>s: its ranges overlap or "
                            "leave a total out")
    elif choice["failure"] is not None or choice["difficulty"]:
        ability = f"{choice['ability']} " if choice.get("ability") else ""
        only = "" if choice["failure"] is not None else " success only"
        inner = f"/* dtc: check {ability}D{choice['difficulty']}{only} */[[{label}->{choice['success']}{set_}]]"
        if choice["failure"] is not None:
            inner += f" [[{label} (failed)->{choice['failure']}{set_}]]"
    else:
        inner = f"[[{label}->{choice['success']}{set_}]]"
    condition = choice.get("condition")
    if condition is not None:
        return f"<<if {_sugarcube(condition, var, warnings)}>>{inner}<</if>>"
    return inner


# --- gamebookformat ----------------------------------------------------------------------------

def _section_name(graph: CompiledGraph) -> Callable[[int | str], str]:
    start = graph["start"]

    def name(n: int | str) -> str:
        return "start" if n == start else f"e{n}" if isinstance(n, int) else f"e_{re.sub(r'[^A-Za-z0-9]', '_', n)}"

    return name


def to_gamebookformat(graph: CompiledGraph) -> Exported:
    """gamebookformat: items (``[add item]``, ``[drop item]``, ``[has item]``, ``[hasnot item]``)
    for possessions only ever counted one at a time, counters (``[count]``, ``[inc]``, ``[dec]``,
    ``[atleast]``, ``[lessthan]``) for the others; ``or``, checks, unequal random branches, kinds of
    ending and returns cannot be said, and each is a warning."""
    out = Exported("")
    if graph.get("containers"):
        out.warnings.append("gamebookformat has no containers: each possession is kept on its own, and a container's "
                            "limit and the reader's choice of what to drop or lose from it are not said")
    name = _section_name(graph)
    counted = _counters(graph)
    counter = {n: re.sub(r"\W+", "_", n.lower()).strip("_") or "c" for n in counted}
    lines = [f"title = {_one_line(graph['title'] or 'Untitled')}"]
    if graph.get("author"):
        lines.append(f"author = {_one_line(str(graph['author']))}")
    lines.append("")
    intro = [p for p in graph.get("introduction", []) if p.strip()]
    if intro:
        lines.append("= Introduction")
        lines += [_gbf_text(p) for p in intro]
        lines.append("")
    for entry in graph["entries"]:
        number = entry["number"]
        lines.append(f"* {number} {name(number)}")
        body = ""
        if number == graph["start"] and counted:  # the counters, declared where the book starts
            body += " ".join(f"[count {counter[n]}]{_gbf_text(n)}[/count]" for n in counted) + "\n"
        for change in entry.get("changes", []):
            n, amount = change["name"], change["amount"]
            if n in counted:
                tag = "inc" if amount > 0 else "dec"
                body += f"[{tag} {counter[n]}]{abs(amount)}[/{tag}] "
            else:
                tag = "add" if amount > 0 else "drop"
                body += " ".join([f"[{tag} item]{_gbf_text(n)}[/{tag}]"] * abs(amount)) + " "
        if entry.get("ending_kind"):
            out.warnings.append(f"entry {number}: gamebookformat has no kind of ending ({entry['ending_kind']})")
        prose_exits = [x["target"] for x in entry["exits"] if x["kind"] == "prose"]
        for piece in _pieces(entry):
            if isinstance(piece, str):
                text = _clean(piece)
                if _RETURN.search(text):
                    out.warnings.append(f"entry {number}: gamebookformat has no return to the most recent entry")
                for target in list(prose_exits):
                    text, found = _link_exit(text, target, partial(_gbf_exit, name(target)))
                    if found:
                        prose_exits.remove(target)
                body += _gbf_text(text, keep_links=True)
                continue
            body += _gbf_choice(piece, counted, counter, name, out, number)
        for target in prose_exits:
            body += f" Turn to [[{name(target)}]]."
        # a line that starts with * or = would open a section: a space before it keeps it text
        lines += [re.sub(r"(?m)^(?=[*=])", " ", body.strip()) or "…", ""]
    return Exported("\n".join(lines), out.warnings)


def _counters(graph: CompiledGraph) -> list[str]:
    """Possessions some effect or condition counts more than one at a time."""
    counted: set[str] = set()

    def visit(condition: Condition) -> None:
        c = _fields(condition)
        if "has" in c:
            if c["count"] != 1 or c.get("op", ">=") != ">=":
                counted.add(str(c["has"]))
        elif "not" in c:
            visit(c["not"])
        else:
            for x in c.get("all", c.get("any", [])):
                visit(x)

    for entry in graph["entries"]:
        for change in entry.get("changes", []):
            if abs(change["amount"]) != 1:
                counted.add(change["name"])
        for choice in entry["choices"]:
            if (cond := choice.get("condition")) is not None:
                visit(cond)
    return [n for n in graph.get("possessions", []) if n in counted]


_GBF_TAG = {(">=", False): ("atleast", 0), (">=", True): ("lessthan", 0), (">", False): ("morethan", 0),
            (">", True): ("lessthan", 1), ("<", False): ("lessthan", 0), ("<", True): ("atleast", 0),
            ("<=", False): ("lessthan", 1), ("<=", True): ("morethan", 0)}


def _gbf_gates(condition: Condition, counted: list[str], counter: dict[str, str]) -> str | None:
    """gamebookformat's gates before a link for an ``and`` of (not) possessions; None if it has none."""
    c = _fields(condition)
    atoms = list(c["all"]) if "all" in c else [condition]
    gates = ""
    for atom in atoms:
        a = _fields(atom)
        negated = "not" in a
        has = _fields(a["not"]) if negated else a
        if "has" not in has:
            return None
        item, count, op = str(has["has"]), int(has["count"]), str(has.get("op", ">="))
        if item in counted:
            if op == "=":
                return None
            tag, shift = _GBF_TAG[(op, negated)]
            gates += f"[{tag} {counter[item]}]{count + shift}[/{tag}] "
        else:
            tag = "hasnot" if negated else "has"
            gates += f"[{tag} item]{_gbf_text(item)}[/{tag}] "
    return gates


def _gbf_choice(choice: CompiledChoice, counted: list[str], counter: dict[str, str],
                name: Callable[[int | str], str], out: Exported, number: int) -> str:
    if choice.get("error"):
        return _gbf_text(choice["text"])
    gates = ""
    condition = choice.get("condition")
    if condition is not None:
        written = _gbf_gates(condition, counted, counter)
        if written is None:
            out.warnings.append(f"entry {number}: gamebookformat cannot say the condition of {choice['text']}: "
                                "the link is written without it")
        else:
            gates = written
    label = _gbf_text(choice.get("label") or "")
    spec = choice.get("roll")
    if spec is not None:
        sizes = {b["high"] - b["low"] for b in spec["branches"]}
        if len(sizes) != 1:
            out.warnings.append(f"entry {number}: gamebookformat's random links are equally likely; "
                                f"{choice['text']} is not")
        links = " or ".join(f"[[{name(b['target'])}]]" for b in spec["branches"])
        return f"{gates}[random]{label or 'Roll'}[/random]: {links}"
    success, failure = choice["success"], choice["failure"]
    if failure is not None and success is not None:
        out.warnings.append(f"entry {number}: gamebookformat has no checks; {choice['text']} is written as two links")
        return f"{gates}{label} [[{name(success)}]] (or, failing, [[{name(failure)}]])"
    target = choice["success"]
    if target is None:
        return _gbf_text(choice["text"])
    return f"{gates}[[{name(target)}][{label}]]" if label else f"{gates}[[{name(target)}]]"


def _gbf_text(text: str, keep_links: bool = False) -> str:
    """Prose gamebookformat reads as prose: its markup brackets replaced, one line."""
    if keep_links:
        parts = re.split(r"(\[\[[A-Za-z][\w]*\]\])", text)
        return "".join(p if i % 2 else _gbf_text(p) for i, p in enumerate(parts))
    text = text.replace("[", "(").replace("]", ")")
    return re.sub(r"\s*\n\s*", " ", text)


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()
