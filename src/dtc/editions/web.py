"""The web edition: one self-contained HTML file that plays the book in a browser, offline.

Everything an author wrote passes through :func:`html.escape` (or :func:`~dtc.editions.book.
script_json` for the data the script reads); the page's own script is allowed by its hash in a
Content-Security-Policy that also forbids every other script and every external request.
Entries are ``<article id="entry-N">``; the script shows one at a time and follows the URL
hash, so links, back and forward work. Without the script the page reads as a plain book.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass
from html import escape
from typing import Any, cast

from dtc.compiled.graphjson import Choice, CompiledGraph, Creature, Entry, Hazard
from dtc.editions.book import (
    CheckRules,
    asset,
    encounter_die,
    roll_label,
    slug,
    stat_rows,
    target_number,
)
from dtc.editions.pictures import Pictures
from dtc.editions.pictures import load as load_pictures
from dtc.editions.prepared import Prepared, prepare
from dtc.editions.text import Piece, exit_sentences, paragraphs
from dtc.editions.webplay import Play, plan_words, play_data
from dtc.outcomes import ending_words, the_end
from dtc.render.html import script_json
from dtc.runtime.effects import found_item, given_by_notation
from dtc.runtime.equipment import KEPT_WHEN_DUMPED
from dtc.systems import DEFAULT, UnknownRuleset, find_system, normalise, play_rules, split_rulings
from dtc.systems.maze_rats.combat import LED_BY
from dtc.systems.webplay import WebSystem

_BOLD = re.compile(r"(?:\*\*|__)(.+?)(?:\*\*|__)", re.S)
#: Run first, in <head>: with scripts on, entries start hidden, so a big book is not laid out whole.
EARLY = 'document.documentElement.classList.add("js");'


def _digest(script: str) -> str:
    return base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")


#: Where a system's own page script (``WebSystem.script``) goes in web.js: inside its closure, after
#: the helpers it uses.
SYSTEM_SCRIPT = "/* @system-script */"


def page_script(web: WebSystem | None) -> str:
    """The page's script: web.js, with the system's own script (if it has one) at its marker."""
    script = asset("web.js")
    if web is None or not web.script:
        return script
    return script.replace(SYSTEM_SCRIPT, web.script.strip(), 1)


def inline(text: str) -> str:
    """Escaped author text, with ``**bold**`` kept as bold."""
    text = escape(text)
    # Bold opens with ** or __: a text with neither is kept as it is (no scan of it all).
    return _BOLD.sub(r"<strong>\1</strong>", text) if "**" in text or "__" in text else text


def link(target: int, body: str, cls: str = "") -> str:
    klass = f' class="{cls}"' if cls else ""
    return f'<a{klass} href="#entry-{target}">{body}</a>'


@dataclass(frozen=True, slots=True)
class _CheckCard:
    """The part of a check card that depends only on its ability and difficulty."""

    ability: str  # as the sheet names it ("" when the rules have no such ability)
    badge: str  # markup
    hint: str  # markup ("": none)
    rolls: bool  # the page rolls it (else it is rolled by hand)
    plans: list[tuple[str, str]]  # the ways to go about it (value, words as markup) when there are several
    gear: bool  # a way uses gear
    options: str  # the abilities to pick from (markup), when the ability is not the rules'
    verb: str  # the roll button's words (markup)


class WebEdition:
    def __init__(self, graph: CompiledGraph, flowchart_svg: str | None = None,
                 prepared: Prepared | None = None, pictures: Pictures | None = None) -> None:
        self.graph = graph
        # the illustrations (read from beside the book when not given: see dtc.editions.pictures)
        self.pictures = pictures if pictures is not None else load_pictures(graph)
        self.book = book = prepare(graph, prepared)
        self.rules: CheckRules = book.rules
        self.play: Play = play_data(graph["rules"])
        self.entries = book.entries
        self.numbers = book.numbers
        self.start = book.start  # None when the start names no entry
        self.creatures = book.creatures
        self.labels = book.labels
        self.hazards = {h["name"]: h for h in graph.get("hazards", [])}
        self.svg = flowchart_svg
        self.title = graph["title"] or "Untitled adventure"
        self._checks: dict[tuple[str, int], _CheckCard] = {}

    # --- page ----------------------------------------------------------------------------

    def render(self) -> str:
        before, after = self.render_around_chart()
        return before + chart_block(self.svg) + after

    def render_around_chart(self) -> tuple[str, str]:
        """The page in two halves, the flowchart (:func:`chart_block`) to go between them; the
        page never depends on the chart otherwise, so it can be written while Graphviz draws."""
        script = page_script(self.play.web)
        hashes = " ".join(f"'sha256-{_digest(s)}'" for s in (EARLY, script))
        csp = (
            "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
            f"script-src {hashes}; base-uri 'none'; form-action 'none'"
        )
        fights = self._fights()
        source = self.graph.get("source", {}).get("path") or self.title
        data = {
            "key": "dtc:" + slug(self.title) + ":" + slug(source.rsplit("/", 1)[-1]),
            "title": self.title,
            "start": self.start,
            "system": self.play.data(self.graph),
            "encounters": [
                {"low": r["low"], "high": r["high"], "text": r["text"],
                 "groups": [[g["count"], g["name"], g.get("creature")] for g in r.get("groups", [])]}
                for r in self.graph["encounters"]
            ],
            "encounterDie": encounter_die(self.graph),
            # dtc play rolls the table from its lowest row to its highest (Engine._wandering).
            "encounterLow": min((r["low"] for r in self.graph["encounters"]), default=1),
            # A run the rules end before an ending (0 HP, lost in the dark): its heading and sentence.
            "endings": {"died": list(ending_words("death")),
                        "lost": ["Lost in the dark", "Without light you cannot find your way: your adventurer's "
                                 "story ends here."]},
            "load": self._load(),
            "run": self._run_log(fights),
            "clock": self._clock(),
            "possessions": list(self.graph.get("possessions", [])),
            # What the reader holds changes as play changes it (Engine._possessions): an entry's
            # changes on arrival, a choice's as it is taken, the front matter's "Start with:".
            "changes": {str(e["number"]): list(e["changes"]) for e in self.entries if e.get("changes")},
            "choiceChanges": {f"e{e['number']}c{i}": list(c["changes"]) for e in self.entries
                              for i, c in enumerate(e["choices"]) if c.get("changes") and c["error"] is None},
            "startWith": list(self.graph.get("start_with", [])),
            "effects": self._effects(),
            "fights": fights,
            "scenes": self._scenes(fights),
            "finds": self._finds(),
            "limits": dict(self.graph.get("limits", {})),
            # ``Containers:``: a limit on a container counts all it holds (``(choose)``: the reader drops).
            "containers": dict(self.graph.get("containers", {})),
            "dropByChoice": list(self.graph.get("drop_by_choice", [])),
            "creatures": {c["name"]: {"hp": c["hp"], "morale": c["morale"],
                                      "attacks": [[a["name"], a["damage"]] for a in c.get("attacks", [])],
                                      "stats": {k.lower(): v for k, v in c.get("stats", {}).items()},
                                      "special": c.get("special")}
                          for c in self.creatures.values()},
        }
        before_chart = "\n".join(
            [
                self._masthead(),
                '<div class="layout">',
                '<main id="main" tabindex="-1">',
                '<p id="notice" class="notice" role="status" hidden></p>',
                self._cover_before_chart(),
            ]
        )
        after_chart = "\n".join(
            [
                "</section>",
                *(self._entry(e) for e in self.entries),
                "</main>",
                self._sheet(),
                "</div>",
                f'<script type="application/json" id="dtc-data">{script_json(data)}</script>',
                f"<script>{script}</script>",
            ]
        )
        return (
            "<!doctype html>\n"
            '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
            '<meta name="color-scheme" content="light dark">\n'
            f'<meta name="generator" content="dtc {escape(str(self.graph.get("dtc_version", "")))}">\n'
            f"<title>{escape(self.title)}</title>\n<style>{asset('web.css')}</style>\n"
            f"<script>{EARLY}</script>\n</head>\n"
            f"<body>\n{before_chart}"
        ), f"\n{after_chart}\n</body>\n</html>\n"

    def _masthead(self) -> str:
        start = self.start
        begin = f'<a href="#entry-{start}">Begin</a>' if start is not None else ""
        return (
            '<a class="skip" href="#main">Skip to the text</a>\n'
            '<header class="masthead"><a class="book" href="#cover">'
            f"{escape(self.title)}</a>"
            f'<nav aria-label="Book">{begin}<a href="#cover">Contents</a>'
            '<a href="#sheet" class="to-sheet js-only">Sheet</a></nav></header>'
        )

    # --- cover ---------------------------------------------------------------------------

    def rules_named(self) -> tuple[str, str]:
        """The system the page plays, in words, and why it is that one when the book does not name it
        ("" when it does). The compiled graph holds the ``Rules:`` value, or dtc's default where the book
        has no such line: a value that is the default's bare name is said to be the default."""
        spec = self.graph["rules"] or ""
        play = self.play
        if not play.title:
            return spec.strip() or "unknown", "rules dtc does not know: the page rolls no dice for them"
        try:
            written = split_rulings(spec)[0]
        except UnknownRuleset:
            written = spec
        first = normalise(written).split("+")[0].strip("-")
        system = find_system(first) if first else None
        default = find_system(DEFAULT)
        base = default.ruleset.title if default is not None else DEFAULT
        if not first or (system is not None and system.overlay):
            return play.title, f"the book names no base rules: {base}, dtc's default, is assumed"
        if normalise(written) == DEFAULT:
            return play.title, "dtc's default rules, played when a book names none"
        return play.title, ""

    def _load(self) -> dict[str, Any] | None:
        """Death & Treasure's load, as play's ``Character.load`` weighs it: what each thing the book
        lets the reader find weighs (by name, in lower case, as ``[numerator, denominator]``), the
        ability it is held against and the kit a full backpack keeps when dumped; None for rules
        that keep no load."""
        if self.play.base != DEFAULT:
            return None
        weights: dict[str, list[int]] = {}
        for entry in self.entries:
            for effect in entry.get("effects", []):
                if effect["kind"] in ("treasure", "item"):
                    item = found_item(effect)
                    weights[item.name.lower()] = [item.weight.numerator, item.weight.denominator]
        return {"limit": "STR", "weights": weights, "kept": sorted(KEPT_WHEN_DUMPED)}

    def _effects(self) -> dict[str, list[dict[str, str]]]:
        """The damage and healing an entry's text deals, by entry, where the page plays the entry's
        effects itself as play does (effects.apply: each rolled, in order): entries whose effects are
        only these (none depending on a check) and prose, under rules where 0 HP is death (Zilch's
        unconscious hour comes with them: :meth:`_fights` plays such entries)."""
        web = self.play.web
        if web is None or web.zero_hp != "death":
            return {}
        found: dict[str, list[dict[str, str]]] = {}
        for entry in self.entries:
            effects = entry.get("effects", [])
            rolled = [e for e in effects if e["kind"] in ("damage", "heal")]
            if rolled and all(_unplayed(e) or (e["kind"] in ("damage", "heal") and e.get("when") is None
                                               and e.get("dice")) for e in effects):
                found[str(entry["number"])] = [{"kind": e["kind"], "dice": str(e["dice"]), "text": e["text"]}
                                               for e in rolled]
        return found

    def _plays_fights(self) -> bool:
        """Whether the page plays this book's fights as play does (Death & Treasure, with the
        Dungeon Rules overlay or without; Maze Rats without an overlay: its system's web data
        carries play's numbers)."""
        web = self.play.web
        if web is not None and web.script and self._clock() is None:
            return True  # (Zilch: its own page script plays them)
        return web is not None and ("play" in web.combat_data
                                    or ("asPlay" in web.combat_data and self._clock() is None))

    def _block_named(self, name: str) -> str | None:
        """The stat block a written name refers to, as play's effects.match_block finds it ("Drowned
        Choristers" -> "Drowned Chorister"), by its name; None when there is none."""
        from dtc.runtime.effects import _singulars

        blocks: dict[str, str] = {}
        for block in self.graph["creatures"]:
            blocks.setdefault(" ".join(block["name"].lower().split()), block["name"])
        return next((blocks[f] for f in _singulars(name) if f in blocks), None)

    @staticmethod
    def _block(block: Creature) -> dict[str, Any]:
        """A stat block as the page's fight reads it."""
        return {"name": block["name"], "hp": block["hp"], "morale": block["morale"],
                "attacks": [[a["name"], a["damage"]] for a in block.get("attacks", [])] or [["attack", "d4"]],
                "stats": {k.lower(): v for k, v in block.get("stats", {}).items()}, "special": block.get("special")}

    def _fights(self) -> dict[str, dict[str, Any]]:
        """The entries whose effects the page plays in order as play does (runtime.effects.apply,
        _fight), by entry: their fights and the checks their text asks for, with the damage,
        healing and creatures named around them (each with the check it depends on, ``when``), the
        entry's own stat blocks and the creatures it names, and where a fight's outcomes lead (a
        block's win, lose, flee). Only where every effect is one of these or met without a die
        (_unplayed), under rules whose fights the page plays (:meth:`_plays_fights`). Where 0 HP is
        not death (Zilch), an entry that only deals damage or heals is one of them too: at 0 HP the
        hour out cold, its encounter checks and the creatures that find the body come with it."""
        if not self._plays_fights():
            return {}
        found: dict[str, dict[str, Any]] = {}
        named = {" ".join(c["name"].lower().split()): c for c in reversed(self.graph["creatures"])}
        abilities = set(self.play.abilities)
        played = ("fight", "creatures", "check")
        # a find beside them, as play offers it (effects._find; under Dungeon Rules, its own loot)
        finds = ("treasure", "item") if self._clock() is None else ()
        web = self.play.web
        hp_too = web is not None and web.zero_hp != "death"
        for entry in self.entries:
            effects = entry.get("effects", [])
            if not any((e["kind"] in played and e["kind"] != "creatures")
                       or (hp_too and e["kind"] in ("damage", "heal") and e.get("dice")) for e in effects) or not all(
                    _unplayed(e) or e["kind"] in played or e["kind"] in finds
                    or (e["kind"] in ("damage", "heal") and e.get("dice")) for e in effects):
                continue
            plan: list[dict[str, Any]] = []
            for i, e in enumerate(effects):
                step: dict[str, Any] = {"i": i, "when": e.get("when")}
                if e["kind"] in ("damage", "heal"):
                    step.update(kind=e["kind"], dice=str(e["dice"]), text=e["text"])
                elif e["kind"] == "creatures":
                    step.update(kind="creatures", name=e["name"], block=self._block_named(e["name"]),
                                count=str(e["count"]))
                elif e["kind"] == "fight":
                    step.update(kind="fight", target=e.get("target"))
                elif e["kind"] in finds:
                    offer = _offered(entry, i, e)
                    step.update(offer, kind="find", item=offer["kind"], given=given_by_notation(entry, e["name"]))
                elif e["kind"] == "check":  # (an ability the rules lack: the reader is asked, as play asks)
                    ability = e.get("ability")
                    step.update(kind="check", ability=ability if ability in abilities else None,
                                difficulty=e.get("difficulty"), text=e["text"])
                else:
                    continue
                plan.append(step)
            own = [b for b in self.graph["creatures"] if b["entry"] == entry["number"]]
            exits: dict[str, Any] = {}
            for block in own:
                for outcome in ("win", "lose", "flee"):
                    if outcome in block.get("exits", {}):
                        exits[outcome] = block["exits"][outcome]
            names = [named[k] for k in (" ".join(n.lower().split()) for n in entry["creatures"]) if k in named]
            # the words around "led by" (Maze Rats' leaders, combat.leaders): before, and the 80 after
            led = LED_BY.split(entry.get("text") or "", maxsplit=1)
            found[str(entry["number"])] = {"effects": plan, "blocks": [self._block(b) for b in own],
                                           "named": [self._block(b) for b in names], "exits": exits,
                                           "ledBy": [led[0].lower(), led[1].lower()[:80]] if len(led) == 2 else None}
        return found

    def _scenes(self, fights: dict[str, dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
        """The creatures each entry names (play's scene, which a later fight reads: effects._group,
        their count rolled where it is dice), by entry, where the page plays fights as play does."""
        if not self._plays_fights():
            return {}
        found: dict[str, list[dict[str, Any]]] = {}
        for entry in self.entries:
            groups = [e for e in entry.get("effects", []) if e["kind"] == "creatures" and e.get("when") is None]
            if groups and str(entry["number"]) not in fights:
                found[str(entry["number"])] = [
                    {"name": e["name"], "block": self._block_named(e["name"]), "count": str(e["count"])}
                    for e in groups]
        return found

    def _finds(self) -> dict[str, list[dict[str, Any]]]:
        """What an entry's text lets the reader find, by entry, where the page offers it as play does
        (effects.apply, effects._find: once a run, "Take it?" for each, taken whole): entries whose
        effects are only finds and what play meets without a die or a question, none depending on a
        check. A Death & Treasure treasure is offered as far as the sacks hold it (with play's "dump
        the kit"), where the page plays that system as play does (:meth:`_plays_fights`; elsewhere how
        much the sacks hold is the reader's to work out, and such an entry stops a run's log). A find
        the entry's own notation already gives is not offered (play's ``given_by_notation``)."""
        found: dict[str, list[dict[str, Any]]] = {}
        dt = self.play.base == DEFAULT and not self._plays_fights()  # (where it plays them, the sacks too)
        for entry in self.entries:
            effects = entry.get("effects", [])
            finds = [(i, e) for i, e in enumerate(effects) if e["kind"] in ("treasure", "item")]
            if not finds or not all(_unplayed(e) or (e["kind"] in ("treasure", "item") and e.get("when") is None
                                                     and not (dt and e["kind"] == "treasure")) for e in effects):
                continue
            offered = []
            for i, e in finds:
                if given_by_notation(entry, e["name"]):
                    continue
                offered.append(_offered(entry, i, e))
            found[str(entry["number"])] = offered
        return found

    def _clock(self) -> dict[str, Any] | None:
        """Dungeon Rules time as play keeps it (``dungeon_rules/play.py``): the minutes a room takes at
        each pace, an action, a rest and a mapping halt, the alarm's interval and the danger cap, and
        the book's conditions, hazards and loot (``dungeon_rules/web.py`` ``page_data``); None for
        rules without the overlay."""
        rules = self.graph.get("rules") or ""
        if "dungeon-rules" not in normalise(rules):
            return None
        import dtc.systems.dungeon_rules.ruleset as dr
        from dtc.systems.dungeon_rules.hazards import MITIGATE_MINUTES
        from dtc.systems.dungeon_rules.web import page_data

        return {"paces": {k: p.minutes for k, p in dr.PACES.items()}, "rests": {k: r[0] for k, r in dr.RESTS.items()},
                "halt": dr.MAPPING_HALT_MINUTES, "mitigate": MITIGATE_MINUTES, "alarm": dr.ALARM_INTERVAL,
                "cap": dr.DANGER_CAP, "forced": [dr.FORCED_MINUTES, dr.FORCED_ROOMS], **page_data(self.graph)}

    def _run_log(self, fights: dict[str, dict[str, Any]]) -> dict[str, Any]:
        """What "Download this run" needs to write a run log ``dtc play --replay`` plays: the
        book's title and the rules' name as ``dtc play`` states them, and, by entry, what play does
        there that the page leaves to the reader (its effects other than possessions and prose: damage,
        finds, checks, creatures, fights; a Dungeon Rules hazard) — a run's log stops there — and
        the Dungeon Rules zone whose first entry asks for a pace."""
        try:
            rules: str | None = play_rules(self.graph.get("rules")).name
        except UnknownRuleset:
            rules = None
        untracked: dict[str, str] = {}
        zones: dict[str, str] = {}
        overlay = bool(rules and "dungeon-rules" in rules)
        played = {**self._effects(), **self._finds(), **fights}  # the entry's effects the page plays itself
        scenes = self._plays_fights()  # (and the creatures an entry names: self._scenes)
        for entry in self.entries:
            kinds: list[str] = [] if str(entry["number"]) in played else sorted(
                {e["kind"] for e in entry.get("effects", []) if not _unplayed(e)
                 and not (scenes and e["kind"] == "creatures" and e.get("when") is None)})
            if entry.get("hazards") and not (overlay and scenes):  # (the page meets them as play does)
                kinds.append("hazard")
            if kinds:
                untracked[str(entry["number"])] = ", ".join(kinds)
            if overlay:  # the zone play is in there (an unknown name or none: the default zone)
                from dtc.systems.dungeon_rules.ruleset import DEFAULT_ZONE, ZONES

                name = entry.get("zone") or DEFAULT_ZONE
                zones[str(entry["number"])] = name if name in ZONES else DEFAULT_ZONE
        file = (self.graph.get("source", {}).get("path") or "").replace("\\", "/").rsplit("/", 1)[-1]
        return {"title": self.graph.get("title"), "rules": rules, "file": file, "untracked": untracked, "zones": zones}

    def _cover_before_chart(self) -> str:
        """The cover up to where the flowchart goes (its ``</section>`` comes after it)."""
        g = self.graph
        parts = ['<section id="cover" class="page cover" aria-labelledby="cover-h">']
        parts.append(f'<h1 id="cover-h" tabindex="-1">{escape(self.title)}</h1>')
        if author := g["author"]:
            parts.append(f'<p class="byline">by {escape(author)}</p>')
        named, why = self.rules_named()
        parts.append(f'<p class="rules-named">Rules: <strong>{escape(named)}</strong>'
                     + (f" ({escape(why)})" if why else "") + "</p>")
        intro = g.get("introduction") or []
        if intro:
            parts.append('<div class="introduction">' + "".join(f"<p>{inline(p)}</p>" for p in intro) + "</div>")
        start = self.start
        if start is not None:
            parts.append(
                f'<p class="begin"><a class="button primary" href="#entry-{start}">Begin the adventure</a>'
                '<a class="button resume" href="#" hidden>Resume</a></p>'
            )
        parts.append(self._how_to_play())
        parts.append(_REPLAY_BOX)
        if g["encounters"]:
            parts.append(self._encounter_table())
        if self.creatures:
            parts.append('<h2 id="bestiary">Creatures</h2><div class="stat-grid">')
            # Wandering creatures are fought from here (an entry's own creatures have the helper there too).
            parts += [self._stat_table(c, self._fight(f"cover-f{k}", c)) for k, c in enumerate(self.creatures.values())]
            parts.append("</div>")
        return "\n".join(parts)

    def _how_to_play(self) -> str:
        items = [
            "<li>Each entry ends with your choices: follow one to the entry it leads to. Your browser’s back "
            "button takes you back.</li>",
            '<li class="js-only">Keep your adventurer on the <a href="#sheet" class="to-sheet">adventure sheet</a>; '
            "it is saved in this browser. A check is rolled once each time you come to its entry.</li>",
        ]
        play = self.play
        # The system's own description (dtc.systems.reference, as the print edition reads it out),
        # kind by kind, under the page's own lines.
        from dtc.editions.reader import book_rules

        reader = self.rules.reader if self.rules.reader is not None else book_rules(self.graph)
        sections = reader["sections"] if play.systems else []
        if sections:
            items.append('<li class="js-only">A check’s card rolls it for you: where a choice asks for several '
                         "things, choose on the card how you go about it.</li>")
        else:  # a system registered without a reference (a plugin): the lines its web data gives
            items += [f"<li>{escape(line)}</li>" for system in play.systems.values() for line in system.notes]
        if not play.systems:
            r = self.rules
            if r.dice:
                dice = ", ".join(f"{n}d{r.sides} for D{d}" for d, n in sorted(r.dice.items()))
                items.append(f"<li>Checks in {escape(r.title)} roll {escape(dice)}; a total equal to or under your "
                             "ability succeeds. D0 needs nothing: just go.</li>")
            else:
                items.append(f"<li>Roll each check as {escape(play.title or r.title)} says; the page has no dice "
                             "for these rules.</li>")
        parts = [f'<h2>How to play</h2><ul class="how">{"".join(items)}</ul>']
        for section in sections:
            lines = [f"<li>{escape(line)}</li>" for line in section["lines"]]
            if section["kind"] == "fights" and play.web is not None and play.web.combat:
                lines.append('<li class="js-only">Each creature’s card has a fight helper.</li>')
            parts.append(f'<h3>{escape(section["heading"])}</h3><ul class="how">{"".join(lines)}</ul>')
        if not sections and play.web is not None and play.web.combat_words:
            said = "".join(f"<li>{escape(w)}</li>" for w in play.web.combat_words)
            parts.append(f'<h3>Fights</h3><ul class="how">{said}'
                         '<li class="js-only">Each creature’s card has a fight helper.</li></ul>')
        return "".join(parts)

    def _encounter_table(self) -> str:
        die = encounter_die(self.graph)
        rows = "".join(
            f'<tr><th scope="row">{roll_label(r["low"], r["high"])}</th><td>{inline(r["text"])}</td></tr>'
            for r in self.graph["encounters"]
        )
        return (
            f'<h2 id="encounters">Encounters</h2><table class="encounters"><caption>Roll 1d{die}</caption>'
            f'<thead><tr><th scope="col">Roll</th><th scope="col">Encounter</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>"
            '<div class="roller table-roller"><button type="button" data-act="table">Roll on the encounter table'
            '</button><p class="result" role="status" aria-live="polite"></p></div>'
        )

    def _stat_table(self, creature: Creature, fight: str = "") -> str:
        rows = "".join(
            f'<tr><th scope="row">{escape(k)}</th><td>{escape(v)}</td></tr>' for k, v in stat_rows(creature)
        )
        return (f'<div class="stat-card"><table class="stats"><caption>{escape(creature["name"])}</caption>'
                f"<tbody>{rows}</tbody></table>{fight}</div>")

    def _fight(self, rid: str, creature: Creature) -> str:
        """The combat helper of one creature: its HP, and one round's rolls by the system's rules."""
        web = self.play.web
        if web is None or not web.combat:
            return ""
        name = escape(creature["name"])
        stance = ""
        if web.combat == "dominoes":
            options = "".join(f'<option value="{k}">{w}</option>' for k, w in
                              (("bold", "Bold"), ("cautious", "Cautious"), ("reckless", "Reckless"),
                               ("guarded", "Guarded")))
            stance = (f'<label for="{rid}-stance">Your stance</label>'
                      f'<select id="{rid}-stance" class="stance">{options}</select>')
        attack = ""
        if web.combat == "roll-under-d20":
            attack = (f'<label for="{rid}-with">Attack with</label><select id="{rid}-with" class="with">'
                      '<option value="STR">STR (hand to hand)</option><option value="DEX">DEX (ranged)</option>'
                      "</select>")
        acts = [("round", "Start a round"), ("attack", "Your attack"), ("defend", "Its attack")]
        if web.combat != "dominoes":
            acts.append(("morale", "Its morale"))
        acts.append(("next", "Next one"))
        buttons = "".join(f'<button type="button" data-fight="{a}">{w}<span class="vh"> ({name})</span></button>'
                          for a, w in acts)
        if web.combat in ("dominoes", "armour"):  # chips (a shield) change a blow's result: offered when they can
            buttons += '<button type="button" data-fight="spend" hidden>Spend chips</button>'
            buttons += '<button type="button" data-fight="take" hidden>Take the blow</button>'
        return (f'<details class="fight js-only" data-creature="{escape(creature["name"])}">'
                f"<summary>Fight the {name}</summary>"
                f'<div class="fight-body"><label for="{rid}-hp">{name}’s HP</label>'
                f'<input id="{rid}-hp" class="foe-hp" type="number" inputmode="numeric" value="{int(creature["hp"])}">'
                f"{attack}{stance}"
                f'<div class="buttons">{buttons}</div>'
                f'<p class="result" role="status" aria-live="polite"></p></div></details>')

    # --- entries -------------------------------------------------------------------------

    def _entry(self, entry: Entry) -> str:
        n = entry["number"]
        names = [c for c in entry["creatures"] if c in self.creatures]
        body = self._body(entry, names)
        parts = [
            f'<article id="entry-{n}" class="page entry" aria-labelledby="entry-{n}-h">',
            f'<h2 id="entry-{n}-h" class="number" tabindex="-1"><span class="vh">Entry </span>{n}</h2>',
            '<p class="arrival js-only" role="status" aria-live="polite"></p>',
            f'<div class="prose">{body}</div>',
        ]
        for name in entry.get("hazards", []):
            if name in self.hazards:
                parts.append(self._hazard(n, self.hazards[name]))
        if names:
            exits = self._fight_exits(n)
            data = f' data-exits="{escape(json.dumps(exits))}"' if exits else ""
            parts.append(f'<div class="stat-grid here"{data}>')
            parts += [self._stat_table(self.creatures[name], self._fight(f"e{n}f{k}", self.creatures[name]))
                      for k, name in enumerate(names)]
            if exits:
                parts.append(self._fight_outcomes(exits))
            parts.append("</div>")
        parts.append(self._panel(entry))
        parts.append("</article>")
        return "\n".join(parts)

    def _body(self, entry: Entry, names: list[str]) -> str:
        """The entry's text as the print edition cuts it (:func:`dtc.editions.reader.blocks`): its
        paragraphs, effects in words, a picture placed where it stands (inlined as a ``data:``
        address: the page stays one file), a zone line; a hazard and a stat block are the cards
        below. A stat block of a creature the entry only names is left out of the prose too."""
        from dtc.editions.reader import blocks, own_creatures

        items = _without_blocks(self._pieces(entry), names, entry.get("hazards", []))
        parts: list[str] = []
        for block in blocks(entry, items, own_creatures(self.graph, entry), paragraphs):
            if block.kind == "para":
                parts.append(f"<p>{''.join(self._piece(entry, p) for p in block.pieces)}</p>")
            elif block.kind == "image":
                picture = self.pictures.found.get(block.name)
                words = f"<figcaption>{escape(block.alt)}</figcaption>" if block.alt else ""
                if picture is not None:
                    parts.append(f'<figure class="picture"><img src="{picture.data_uri()}" alt="{escape(block.alt)}">'
                                 f"{words}</figure>")
                elif words:
                    parts.append(f'<figure class="picture missing">{words}</figure>')
            elif block.kind == "zone":
                from dtc.editions.reader import entry_zone

                parts.append(f'<p class="zone">Zone: {escape(entry_zone(entry) or block.name)}</p>')
        return "\n".join(parts)

    def _fight_exits(self, n: int) -> dict[str, int]:
        """Where a fight in entry ``n`` leads, as play reads it (runtime.effects._fight): the exits
        (win, lose, flee) written on the entry's own stat blocks, a later block's over an earlier's."""
        exits: dict[str, int] = {}
        for block in self.graph["creatures"]:
            got = cast(dict[str, Any], block).get("exits")
            if block["entry"] != n or not isinstance(got, dict):
                continue
            for outcome in ("win", "lose", "flee"):
                target = got.get(outcome)
                if isinstance(target, int) and not isinstance(target, bool) and target in self.numbers:
                    exits[outcome] = target
        return exits

    def _fight_labels(self, entry: Entry) -> dict[str, str]:
        """dtc play's key (``exit:J``) of each prose exit the entry's stat blocks write, with the
        fight's outcome that leads there in words ("If you win")."""
        exits = self._fight_exits(entry["number"])
        if not exits:
            return {}
        from dtc.editions.reader import fight_outcomes

        lines = {c["line"] for c in self.graph["creatures"] if c["entry"] == entry["number"]}
        said: dict[str, str] = dict(zip((k for k in ("win", "lose", "flee") if k in exits),
                        (w for w, _ in fight_outcomes(cast(Creature, {"exits": exits}))), strict=True))
        labels: dict[str, str] = {}
        for j, x in enumerate(entry["exits"]):
            span: dict[str, Any] = cast(dict[str, Any], x.get("span") or {})
            if x["kind"] != "prose" or span.get("line") not in lines:
                continue
            outcome = next((k for k, t in exits.items() if t == x["target"]), None)
            if outcome is not None:
                labels[f"exit:{j}"] = said[outcome].split(" (")[0]
        return labels

    def _fight_outcomes(self, exits: dict[str, int]) -> str:
        """The fight's outcomes under its tables, in the print edition's words, each a link."""
        from dtc.editions.reader import fight_outcomes

        said = fight_outcomes(cast(Creature, {"exits": exits}))  # win, lose, flee: the order of ``exits``
        ways = " ".join(f'<span class="fight-{k}" data-to="{exits[k]}">{escape(words)}, turn to '
                        f"{link(exits[k], str(exits[k]), 'fight-exit')}.</span>"
                        for k, (words, _) in zip((k for k in ("win", "lose", "flee") if k in exits), said, strict=True))
        return f'<p class="fight-outcomes">{ways}</p>'

    def _hazard(self, n: int, hazard: Hazard) -> str:
        rows = [("Telltales", hazard.get("telltales")), ("Trigger", hazard.get("trigger")),
                ("Fail", hazard.get("fail")), ("Pass", hazard.get("pass")),
                ("Mitigation", ", ".join(hazard.get("mitigation") or []) or None)]
        check = hazard.get("check")
        roller = ""
        if check and self.play.web is not None:
            abilities = list(dict.fromkeys(a for a in (self.play.canonical(x) for x in check["abilities"]) if a))
            d = check["difficulty"] or 2
            # dtc play (dungeon_rules/hazards.py): the hazard's own rules' check, whichever system owns
            # the abilities, against the better of them.
            rolled = self.play.hazard_check(d)
            if rolled is not None and abilities:
                rows.insert(0, ("Check", rolled.words(abilities[0] if len(abilities) == 1 else
                                                      "the better of " + " and ".join(abilities))))
            if abilities and rolled is not None:
                rid = f"e{n}h{slug(hazard['name'])}"
                roller = (f'<div class="roller" data-card="{rid}" data-d="{int(d)}" '
                          f'data-abilities="{escape(json.dumps(abilities))}" '
                          f'data-fail="{escape(hazard.get("fail") or "")}" data-hazard="{escape(hazard["name"])}">'
                          f'<button type="button" class="roll-hazard">Roll<span class="vh"> for the hazard '
                          f'{escape(hazard["name"])}</span></button>'
                          '<p class="result" role="status" aria-live="polite"></p></div>')
        body = "".join(f"<tr><th scope=\"row\">{k}</th><td>{inline(v)}</td></tr>" for k, v in rows if v)
        return (f'<div class="hazard card"><table class="stats"><caption>Hazard: {escape(hazard["name"])}</caption>'
                f"<tbody>{body}</tbody></table>{roller}</div>")

    def _pieces(self, entry: Entry) -> list[Piece]:
        return self.book.pieces(entry)

    def _piece(self, entry: Entry, piece: Piece) -> str:
        # The prose names where a choice leads but links nowhere: each choice is one control, below.
        if piece.kind == "label":
            return f"<strong>{escape(piece.text)}</strong>"
        if piece.kind == "exit":
            return f'<span class="ref">{escape(piece.text)}</span>'
        if piece.kind == "choice" and piece.index is not None:
            return self._chip(entry["choices"][piece.index])
        return inline(piece.text)

    def _chip(self, c: Choice) -> str:
        """The notation in the prose, as a quiet reminder (the card below is the control)."""
        if c["error"]:
            return f'<span class="notation">{escape(c["text"])}</span>'
        if c.get("condition") is not None:
            from dtc.runtime.conditions import words

            need = f'<span class="chip-d">if {escape(words(c["condition"]))}</span> '
            bare = cast(Choice, {k: v for k, v in c.items() if k != "condition"})
            return need + self._chip(bare)
        if c.get("roll") is not None:
            roll = c["roll"]
            outs = [f'roll {escape(roll["dice"])}']
            for b in roll["branches"]:
                rng = str(b["low"]) if b["low"] == b["high"] else f'{b["low"]}–{b["high"]}'
                outs.append(f"{rng} → {escape(str(b['target']))}")
            return f'<span class="chip check">{" · ".join(outs)}</span>'
        s, f = target_number(c["success"], self.numbers), target_number(c["failure"], self.numbers)
        if not c["difficulty"] and f is None:
            return f'<span class="chip go">→ {escape(str(s if s is not None else c["success"]))}</span>'
        what = f'{escape(c["ability"])} D{c["difficulty"]}' if c["ability"] else f'D{c["difficulty"]}'
        outs = [what]
        for letter, t, raw in (("S", s, c["success"]), ("F", f, c["failure"])):
            if t is not None or raw is not None:
                outs.append(f"{letter}{escape(str(t if t is not None else raw))}")
        return f'<span class="chip check">{", ".join(outs)}</span>'

    def _panel(self, entry: Entry) -> str:
        n = entry["number"]
        items: list[str] = []
        for i, c in enumerate(entry["choices"]):
            if not c["error"]:
                items.append(self._card(n, i, c))
        prose = [x["target"] for x in entry["exits"] if x["kind"] == "prose"]
        unplaced = [t for t in (target_number(x, self.numbers) for x in prose) if t is not None]
        # dtc play's key for each prose exit (``exit:J``, J its place among the entry's exits), by target.
        keys: dict[int, list[str]] = {}
        for j, x in enumerate(entry["exits"]):
            if x["kind"] == "prose" and (t := target_number(x["target"], self.numbers)) is not None:
                keys.setdefault(t, []).append(f"exit:{j}")
        # An exit written on a stat block (``win S13, lose S12``) is a fight's outcome: labelled by it,
        # never by the stat block's text.
        fought = self._fight_labels(entry)
        for piece, sentence in exit_sentences(self._pieces(entry)):
            t = target_number(piece.target, self.numbers)
            if t is not None and t in unplaced:
                unplaced.remove(t)
                key = keys[t].pop(0)
                items.append(_go_card(t, escape(fought[key]) if key in fought else inline(sentence), key=key))
        for t in unplaced:
            key = keys[t].pop(0)
            items.append(_go_card(t, escape(fought[key]) if key in fought else f"Go to {t}", key=key))
        back = sorted({t for x in entry["exits"] if x["kind"] == "return"
                       and (t := target_number(x["target"], self.numbers)) is not None})
        if back:
            links = " ".join(link(t, f'<span class="vh">return to entry </span>{t}', "back") for t in back)
            items.append(f'<li class="card return"><p>Return to the entry you came from: {links}</p></li>')
        if entry["ending"]:
            return self._ending(entry, items)
        leave = ""
        if n == self.start:
            # Back at the entrance after going in, leaving is an outcome of its own (dtc.outcomes: escaped).
            items.append('<li class="card leave js-only" hidden><button type="button" class="leave">Leave the dungeon'
                         "</button></li>")
            leave = self._ending(entry, [], "escaped", hidden=True)
        if not items:
            stuck = '<p class="stuck">This entry has no way on. <a href="#cover">Back to the cover</a></p>'
            if entry["choices"] or entry["exits"]:
                return stuck
            # play's dead end (menu: back:E): back the way you came, the entry set by the page's script
            return (f'<section class="choices dead-end" aria-labelledby="entry-{n}-c"><h3 id="entry-{n}-c">'
                    'What will you do?</h3><ul><li class="card back-way" hidden><p>A dead end: the book gives no '
                    'way on. <a class="way-back" href="#cover">Go back</a></p></li></ul></section>' + stuck)
        return (f'<section class="choices" aria-labelledby="entry-{n}-c"><h3 id="entry-{n}-c">What will you do?</h3>'
                f'<ul>{"".join(items)}</ul></section>{leave}')

    def _ending(self, entry: Entry, items: list[str], outcome: str | None = None, hidden: bool = False) -> str:
        n = entry["number"]
        kind: str | None = outcome or entry.get("ending_kind")
        heading, sentence = ending_words(kind)
        hide = " hidden" if hidden else ""
        hid = f"entry-{n}-{kind}" if outcome else f"entry-{n}-c"
        again = (f'<a class="button primary play-again" href="#entry-{self.start}">Play again</a>'
                 if self.start is not None else "")
        more = f'<ul>{"".join(items)}</ul>' if items else ""
        end = "" if outcome else f'<p class="the-end">{escape(the_end(kind))}</p>'
        return (f'<section class="choices ending {escape(kind or "end")}" aria-labelledby="{hid}"{hide}>'
                f'<h3 id="{hid}" tabindex="-1">{escape(heading)}</h3>{end}'
                f'<p class="ending-words">{escape(sentence)}</p>{more}'
                f'<p class="begin">{again}<a class="button" href="#cover">Back to the cover</a></p></section>')

    def _card(self, n: int, i: int, c: Choice) -> str:
        card = self._plain_card(n, i, c)
        condition = c.get("condition")
        if condition is None:
            return card
        from dtc.runtime.conditions import needs as needs_words

        assert card.startswith("<li ")
        # in play's words for a closed choice (its menu's "closed: needs ..."), from one place
        needs = f'<p class="needs">Needs {escape(needs_words(condition))}.</p>'
        return (f'<li data-needs="{escape(json.dumps(condition))}" ' + card[len("<li "):-len("</li>")] + needs
                + "</li>")

    def _check_card(self, written: str, d: int) -> _CheckCard:
        """What a check card of ability ``written`` (as the author wrote it) and difficulty ``d``
        shows that does not depend on the choice, worked out once per pair (the same few pairs
        come back on every page)."""
        key = (written, d)
        got = self._checks.get(key)
        if got is not None:
            return got
        play = self.play
        ability = play.canonical(written) or ""
        unknown = bool(written) and not ability and bool(play.abilities)
        check = play.check(ability or None, d)
        plans = play.plans(d)
        dice_words = check.words(ability or "the ability") if check is not None else ""
        needs = play.needs(d)
        hint = ""
        if needs:
            hint = f"Needs {needs}" + (f" ({dice_words})" if dice_words else "") + "."
        elif dice_words:
            hint = f"Roll {dice_words}."
        elif play.systems:
            hint = f"D{d} is not a difficulty of {play.title}: decide with the book’s author’s intent."
        if unknown:
            hint += f" {written} is not an ability of {play.title}: choose one."
        rolls = play.web is not None and check is not None
        got = self._checks[key] = _CheckCard(
            ability=ability,
            badge=f"{escape(written)} · D{d}" if written else f"D{d}",
            hint=escape(hint) if hint else "",
            rolls=rolls,
            plans=[("+".join(p), escape(plan_words(p))) for p in plans] if len(plans) > 1 else [],
            gear=any("gear" in p for p in plans),
            options="".join(f"<option>{escape(a)}</option>" for a in play.abilities) if not ability else "",
            verb=("Attempt it" if len(plans) > 1 or plans[0] != ("check",) else f"Roll {escape(check.dice())}")
            if rolls and check is not None else "",
        )
        return got

    def _plain_card(self, n: int, i: int, c: Choice) -> str:
        rid = f"e{n}c{i}"
        label = f"<strong>{escape(c['label'])}</strong>"
        roll = c.get("roll")
        if roll is not None:
            branches = [[b["low"], b["high"], target_number(b["target"], self.numbers)] for b in roll["branches"]]
            ways = " ".join(
                link(t, f"{lo}–{hi} → {t}" if lo != hi else f"{lo} → {t}") for lo, hi, t in branches if t is not None)
            return (f'<li class="card random" data-count="{int(roll["count"])}" '
                    f'data-sides="{int(roll["sides"])}" data-branches="{escape(json.dumps(branches))}" '
                    f'data-card="{rid}">'
                    f'<p class="card-title">{label} <span class="badge">roll {escape(roll["dice"])}</span></p>'
                    f'<div class="roller"><button type="button" class="roll-branch">Roll {escape(roll["dice"])}'
                    f'<span class="vh">: {escape(c["label"])}</span></button>'
                    f'<p class="result" role="status" aria-live="polite"></p></div>'
                    f'<p class="outcomes">{ways}</p></li>')
        s, f = target_number(c["success"], self.numbers), target_number(c["failure"], self.numbers)
        d = c["difficulty"] or 0
        if d == 0 and f is None:
            return _go_card(s, label, rid) if s is not None else f'<li class="card go"><p>{label}</p></li>'
        card = self._check_card(c["ability"] or "", d)
        parts = [f'<li class="card check" data-card="{rid}" data-d="{d}" data-ability="{escape(card.ability)}"'
                 f' data-s="{s if s is not None else ""}" data-f="{f if f is not None else ""}">',
                 f'<p class="card-title">{label} <span class="badge">{card.badge}</span></p>']
        if card.hint:
            parts.append(f'<p class="hint" id="{rid}-h">{card.hint}</p>')
        if card.rolls:
            controls = []
            if card.plans:
                radios = "".join(f'<label><input type="radio" name="{rid}-plan" value="{value}"> {words}</label>'
                                 for value, words in card.plans)
                controls.append(f'<fieldset class="plan"><legend>How do you go about it?</legend>{radios}</fieldset>')
            if card.gear:
                hidden = " hidden" if card.plans else ""  # shown once a way with gear is chosen
                controls.append(f'<div class="gear-pick"{hidden}><label for="{rid}-g">Gear you use</label>'
                                f'<select id="{rid}-g" class="gear"><option value="">Choose…</option>'
                                '<option value="-">Nothing suitable</option></select></div>')
            if not card.ability:
                hide = " hidden" if card.plans else ""  # shown once a way with a check is chosen
                controls.append(f'<div class="ability-pick"{hide}><label for="{rid}-a">Ability</label>'
                                f'<select id="{rid}-a" class="ability">{card.options}</select></div>')
            controls.append(f'<button type="button" class="roll" aria-describedby="{rid}-h">{card.verb}'
                            f'<span class="vh">: {escape(c["label"])}</span></button>'
                            '<p class="result" role="status" aria-live="polite"></p>')
            parts.append(f'<div class="roller">{"".join(controls)}</div>')
        outs = []
        if s is not None:
            outs.append(link(s, f"Success → {s}", "s"))
        if f is not None:
            outs.append(link(f, f"Failure → {f}", "f"))
        rolled = "" if card.rolls else " by-hand"
        parts.append(f'<p class="outcomes{rolled}">{" ".join(outs)}</p></li>')
        return "".join(parts)

    # --- sheet ---------------------------------------------------------------------------

    def _sheet(self) -> str:
        def number(field: str, label: str, value: str = "", lo: int | None = 0, text: bool = False) -> str:
            kind = 'type="text"' if text else f'type="number" inputmode="numeric"{"" if lo is None else f" min={lo}"}'
            return (f'<div><label for="sheet-{field}">{label}</label>'
                    f'<input id="sheet-{field}" data-field="{field}" {kind} value="{escape(value)}"></div>')

        def buttons(*items: tuple[str, str]) -> str:
            inner = "".join(f'<button type="button" data-act="{act}">{text}</button>' for act, text in items)
            return f'<div class="buttons">{inner}</div>'

        play = self.play
        web = play.web
        named, why = self.rules_named()
        rules = named + (f" ({why})" if why else "")
        hp = escape(web.hp_label) if web is not None else "HP"
        abilities = "".join(number("ab-" + a, escape(a), lo=None) for a in play.abilities)
        parts = [
            '<aside id="sheet" class="sheet" aria-labelledby="sheet-h">',
            '<details class="sheet-box" open><summary><h2 id="sheet-h">Adventure sheet</h2></summary>',
            '<form class="sheet-form" autocomplete="off">',
            f'<p class="hint sheet-rules">Rules: {escape(rules)}</p>',
            '<div><label for="sheet-name">Name</label><input id="sheet-name" data-field="name" type="text"></div>',
            "<fieldset><legend>Health and time</legend>",
            f'<div class="grid3">{number("hp", hp)}{number("hpmax", "Max " + hp)}{number("turn", "Turn", "1", 1)}'
            "</div>",
            buttons(("hp-1", f"−1 {hp}"), ("hp+1", f"+1 {hp}"), ("turn+1", "Next turn")),
            '<label class="check-line"><input type="checkbox" data-field="autoturn" id="sheet-autoturn" checked>'
            " Count a turn with each move</label></fieldset>",
        ]
        if web is not None and web.light:
            turns, flasks = web.light
            parts += ["<fieldset><legend>Light</legend>",
                      f'<div class="grid3">{number("light", "Lantern turns", str(turns))}'
                      f'{number("oil", "Oil flasks", str(flasks - 1))}</div>',
                      buttons(("refill", "Refill lantern")), "</fieldset>"]
        extra = play.fields()
        if extra:
            inner = "".join(number(f.key, escape(f.label), f.value, text=f.text) for f in extra)
            parts.append(f'<fieldset><legend>Combat and more</legend><div class="abilities">{inner}</div></fieldset>')
        if abilities:
            parts.append(f'<fieldset><legend>Abilities</legend><div class="abilities">{abilities}</div>')
            if web is not None and web.create:
                words = "; ".join(s.create_words for s in play.systems.values() if s.create_words)
                parts.append(f'<p class="hint" id="sheet-create-h">{escape(words[:1].upper() + words[1:])}.</p>')
                parts.append('<div class="buttons"><button type="button" data-act="roll-abilities" '
                             'aria-describedby="sheet-create-h">Roll a new adventurer</button></div>')
            parts.append("</fieldset>")
        possessions = self.graph.get("possessions", [])
        if possessions:
            held = "".join(number(f"has-{k}", escape(name)) for k, name in enumerate(possessions))
            parts += [f'<fieldset><legend>Possessions and codewords</legend><div class="abilities">{held}</div>'
                      "</fieldset>"]
        gear = ", ".join(web.gear) if web is not None else ""
        check = buttons(("encounter", "Check for an encounter")) if self.graph["encounters"] else ""
        parts += [
            '<div><label for="sheet-items">Items and treasure</label>'
            f'<textarea id="sheet-items" data-field="items" rows="4">{escape(gear)}</textarea></div>',
            check,
            buttons(("reset", "New adventurer"), ("download", "Download this run")),
            '<p class="sheet-status" role="status" aria-live="polite"></p>',
            "</form></details></aside>",
        ]
        return "\n".join(parts)


def _offered(entry: Entry, i: int, effect: Any) -> dict[str, Any]:
    """A find as the page offers it (effects._find): its key (once a run), name, count, words, kind,
    worth and weight."""
    item = found_item(effect)
    return {"key": f"{entry['number']}:{i}", "name": item.name, "quantity": item.quantity, "text": effect["text"],
            "kind": item.kind, "value": item.value, "weight": [item.weight.numerator, item.weight.denominator]}


def _unplayed(effect: Any) -> bool:
    """An effect play meets without a die or a question (runtime.effects.apply), so a run's log
    goes on through it: a note for the reader (``manual``), a prose exit's condition (it only marks
    the exit in play's menu), creatures named with a fixed count (play's scene for a fight, and a
    fight stops the page's log)."""
    kind = effect["kind"]
    return kind in ("manual", "condition") or (kind == "creatures" and str(effect.get("count", "")).isdigit())


def _without_blocks(items: list[Piece], creatures: list[str], hazards: list[str]) -> list[Piece]:
    """The prose without the stat blocks and hazard lines written in it (each is shown as its own card)."""
    names = [re.escape(n) for n in (*creatures, *hazards)]
    if not names:
        return items
    block = re.compile(rf"(?:^|(?<=\s))(?:(?:{'|'.join(re.escape(c) for c in creatures) or '(?!)'})\s+HP\s+\d+"
                       rf"|Hazard:\s*(?:{'|'.join(re.escape(h) for h in hazards) or '(?!)'})\b)[^\n]*", re.M)
    return [Piece(p.kind, block.sub("", p.text), p.index, p.target) if p.kind == "text" else p for p in items]


#: The cover's "Replay a run" box: a run log (``dtc play --log``) played again in the page, its result on
#: ``data-replay`` (``match`` or ``diverged``, with the step and what differed in words).
_REPLAY_BOX = (
    '<details class="replay js-only"><summary>Replay a run</summary>'
    '<p>Choose a run log written by <code>dtc play --log</code>: the page plays it '
    'again with its own rules and the log’s dice, entry by entry, and says whether it does the same. '
    'The sheet’s “Download this run” writes such a log of your own run.</p>'
    '<p><label for="replay-file">Run log</label> <input type="file" id="replay-file" accept=".jsonl,.json,.txt"> '
    '<label for="replay-speed">Pace</label> <select id="replay-speed"><option value="500">Step by step</option>'
    '<option value="0">At once</option></select></p>'
    '<p id="replay-status" role="status" aria-live="polite" data-replay=""></p></details>'
)


def _go_card(target: int, body: str, card: str = "", key: str = "") -> str:
    """A way on; ``card`` names a choice's card, ``key`` is dtc play's for a prose exit (``exit:J``)."""
    inner = f'<span>{body}</span><span class="to">→ {target}</span>'
    named = (f' data-card="{card}"' if card else "") + (f' data-key="{key}"' if key else "")
    return f'<li class="card go"{named}>{link(target, inner, "action")}</li>'


def _inline_svg(svg: str) -> str:
    """An SVG document as markup to place inside HTML (no XML declaration or DOCTYPE)."""
    if (declaration := _XML_DECLARATION.match(svg)) is not None:  # (a match: a search would try every place)
        svg = svg[declaration.end() :]
    # A chart is tens of megabytes at 10,000 entries: each pattern is run only where it can match.
    if "<!DOCTYPE" in svg:
        svg = _DOCTYPE.sub("", svg)
    svg = _without_comments(svg).strip()
    # "<script" in any case ("s" also matches the long s, U+017F, under re.I; "c" only itself).
    if any(start in svg for start in _SCRIPT_STARTS):
        svg = _SCRIPT.sub("", svg)
    return _chart_ids(svg)


def _chart_ids(svg: str) -> str:
    """The chart's ids and references to them prefixed ``chart-``."""
    # The chart's nodes are id="entry-N" like the entries themselves: keep the page's ids unique.
    # Each id=" after a space (what ``\s`` matches). Graphviz puts a plain space before each of
    # its attributes (and author text never holds a bare quote): when every id=" follows one,
    # one replace does it all; else each is found by its letters and looked behind.
    if svg.count(' id="') == svg.count('id="'):
        svg = svg.replace(' id="', ' id="chart-')
    else:
        out: list[str] = []
        at = 0
        for m in _ID.finditer(svg):
            if m.start() and svg[m.start() - 1].isspace():
                out += [svg[at : m.start()], 'id="chart-']
                at = m.end()
        out.append(svg[at:])
        svg = "".join(out)
    return svg.replace("url(#", "url(#chart-")


def _without_comments(svg: str) -> str:
    """What ``re.sub(r"<!--.*?-->", "", svg, flags=re.S)`` gives, found with ``str.find``."""
    out: list[str] = []
    at = 0
    while (start := svg.find("<!--", at)) >= 0 and (end := svg.find("-->", start + 4)) >= 0:
        out.append(svg[at:start])
        at = end + 3
    if not out:
        return svg
    out.append(svg[at:])
    return "".join(out)


_XML_DECLARATION = re.compile(r"\s*<\?xml[^>]*\?>")
_DOCTYPE = re.compile(r"<!DOCTYPE[^>[]*(\[[^\]]*\])?>")
_SCRIPT = re.compile(r"<script\b.*?</script\s*>", re.S | re.I)
_SCRIPT_STARTS = tuple(f"<{s}{c}" for s in "sS\u017f" for c in "cC")
_ID = re.compile('id="')


def chart_block(svg: str | None) -> str:
    """The web edition's flowchart, as it goes between the halves of
    :meth:`WebEdition.render_around_chart` ("" without one)."""
    if not svg:
        return ""
    return ('\n<details class="flowchart"><summary>Flowchart of every entry (spoilers)</summary>'
            '<p class="chart-hint">Drawn at full size: scroll the chart to see all of it.</p>'
            '<div class="chart" tabindex="0" role="region" aria-label="Flowchart">'
            f'{_inline_svg(svg)}</div></details>')


def render_web_around_chart(graph: CompiledGraph, *, prepared: Prepared | None = None,
                            pictures: Pictures | None = None) -> tuple[str, str]:
    """The web edition in two halves, its flowchart to go between them: :func:`render_web` of
    ``graph`` and ``svg`` is ``before + chart_block(svg) + after`` (``pictures``: its illustrations,
    read by :func:`dtc.editions.pictures.load` when not given)."""
    return WebEdition(graph, None, prepared, pictures).render_around_chart()


def render_web(graph: CompiledGraph, flowchart_svg: str | None = None, *, prepared: Prepared | None = None) -> str:
    """The web edition of a compiled book as HTML text (``prepared``: the book's pieces, shared
    with other editions)."""
    return WebEdition(graph, flowchart_svg, prepared).render()
