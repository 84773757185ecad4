"""Playing at a terminal: the entry text, numbered choices with exact odds, a status line.

:class:`Terminal` is both a :class:`~dtc.runtime.core.Player` (it asks a person) and an event sink
(it narrates what the engine reports). Everything an author wrote is printed as plain text, never
as markup. At an entry: a number picks a choice; ``w`` wait a turn, ``r`` rest, ``o`` Oracle,
``i`` inventory, ``a`` adjust, ``s`` save, ``l`` leave, ``q`` quit, ``?`` help.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from dtc.outcomes import paren
from dtc.runtime.core import MENU, Chooser, Question, RunEnded
from dtc.runtime.dice import percent
from dtc.runtime.equipment import weight_text
from dtc.runtime.policies import match_menu
from dtc.visible import visible

if TYPE_CHECKING:
    from dtc.runtime.character import Character
    from dtc.runtime.engine import Engine
    from dtc.runtime.equipment import Offer

HELP = ("Type a number to choose. Commands: w wait a turn, r rest, o ask the Oracle, i inventory, "
        "a adjust (your ruling: hp -2, coins +50, item NAME, drop NAME, light N), s save, l leave with "
        "your treasure (at the entrance), q quit. Every other question takes a number (or the answer's "
        "name) and i, s, q and ? too. Ctrl-C also stops; the game is saved after every step.")
#: Events narrated in a sentence by :meth:`Terminal._brief`.
BRIEF = frozenset({"morale", "defeated", "effect", "experience", "fight_end", "flee", "escape", "distract",
                   "talk", "light", "dark", "oracle", "gear", "refused", "rest", "encounter_end", "hazard", "pace",
                   "alarm", "adjust"})
ADJUST_KEYS = ("Type your ruling: hp -2, hp +1, coins +50, coins -100, item NAME [weight W] [value V], "
               "drop NAME [N], light N (or pace, map under Dungeon Rules); Enter for none. Also: i inventory, "
               "s save, q quit, ? this help.")
LETTERS = {"wait": "w", "rest": "r", "oracle": "o", "adjust": "a", "leave": "l", "quit": "q"}


#: The author's emphasis: ``**bold**``, ``__bold__`` and ``*italic*`` (a lone ``*`` stays as it is).
_EMPHASIS = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__"
                       r"|(?<![\w*])\*(?=[^\s*])([^*]+?)(?<=[^\s*])\*(?![\w*])")


#: ``3d6 keep best 2``: how many dice of a roll count, and which.
_KEEP = re.compile(r"\bkeep\s+(best|worst)\s+([0-9]+)")


def rolled(event: dict[str, Any]) -> str:
    """A check's dice and total as the player reads them: ``6+1 +2 = 9`` when the total adds a
    bonus to the dice (a Maze Rats danger roll), ``6, 1, 4: kept 6+4 +2 = 12`` when it keeps some
    of them; the dice alone as before (``3+4+5 / 2+6+1 = 12``) when they make the total."""
    groups = [list(map(int, r)) for r in event["rolls"]]
    total = int(event["total"])
    plain = " / ".join("+".join(map(str, r)) for r in groups)
    if len(groups) != 1 or not groups[0]:
        return f"{plain} = {total}"
    dice = groups[0]
    text = str(event.get("dice", ""))
    keep = _KEEP.search(text)
    kept = sorted(dice, reverse=keep.group(1) == "best")[: int(keep.group(2))] if keep else dice
    value = sum(0 if "6=0" in text and d == 6 else d for d in kept)
    bonus = total - value
    shown = f"{', '.join(map(str, dice))}: kept {'+'.join(map(str, kept))}" if keep else plain
    high = event.get("compare") == "≥"  # a roll-high danger roll always shows its bonus, +0 too
    if not bonus and not high:
        return f"{shown} = {total}"
    why = f" {event['ability']}" if high else ""
    return f"{shown} {bonus:+d}{why} = {total}"


def possession_words(event: dict[str, Any]) -> str:
    """``Gained: 3 torches; now 3.``; a codeword (``bell-rung``: one word with a hyphen, held once
    or not at all) is noted or crossed off, never counted: ``Noted: bell-rung.``"""
    name, amount, held = str(event["name"]), int(event["amount"]), int(event["held"])
    short = f" (you had {event['short']} too few)" if "short" in event else ""
    if "over_limit" in event:
        short += f" ({event['over_limit']} more would not fit: lost)"
    if codeword(name) and held in (0, 1) and abs(amount) == 1:
        return f"Noted: {name}{short}." if amount > 0 else f"Crossed off: {name}{short}."
    if amount == 0 and "over_limit" in event:  # nothing of it fits
        return f"No room: {event['over_limit']} {name} left behind; now {held}."
    if "dropped" in event:
        short += f" (your {event['dropped']} was full)"
    verb = "Gained" if amount > 0 else "Dropped" if "dropped" in event else "Lost"
    return f"{verb}: {abs(amount)} {name}{short}; now {held}."


def codeword(name: str) -> bool:
    """A flag the book notes (``goblins-dead``): one word joined by hyphens, no digit."""
    return "-" in name and not any(c.isspace() or c.isdigit() for c in name) and name.strip("-") == name


def emphasised(text: str) -> Text:
    """``text`` as rich text: emphasis shown bold or italic, its marks left out."""
    out = Text()
    at = 0
    for m in _EMPHASIS.finditer(text):
        out.append(text[at : m.start()])
        out.append(m.group(1) or m.group(2) or m.group(3), style="italic" if m.group(3) else "bold")
        at = m.end()
    out.append(text[at:])
    return out


class Terminal:
    def __init__(self, console: Console | None = None, read: Callable[[str], str] = input,
                 save: Callable[[], str | None] | None = None) -> None:
        self.console = console or Console(highlight=False, soft_wrap=False)
        self.read = read
        self.save = save
        #: Where the game is saved (said when ``s`` is typed in the middle of a step).
        self.save_path: str | None = None
        #: The automatic player whose decisions ``-v`` narrates (None when a person decides here).
        self.narrate: Any = None
        self.narrate_name = "The automatic player"
        self.game: Engine | None = None

    # --- output ----------------------------------------------------------------------------

    def say(self, text: str, style: str = "") -> None:
        self.console.print(Text(visible(text), style=style))

    def prose(self, text: str) -> None:
        """An entry's text, wrapped, its ``**bold**`` and ``*italic*`` shown as such (never the stars)."""
        width = max(40, min(self.console.width, 100) - 2)
        for para in visible(text).split("\n"):
            if not para.strip():
                self.console.print(Text(""))
            elif "*" in para or "__" in para:
                self.console.print(emphasised(" ".join(para.split())), width=width)
            else:
                self.console.print(Text(textwrap.fill(para, width)))

    def status(self, game: Engine) -> str:
        pc = game.pc
        parts = [f"HP {pc.hp}/{pc.max_hp}", f"turn {game.state.turn}", game.rules.status(game),
                 (f"load {weight_text(pc.load)}/{pc.load_limit}" + (" ENCUMBERED" if pc.encumbered else ""))
                 if pc.load_limit is not None else "",
                 f"treasure {pc.treasure_value:,}",
                 ", ".join(n if k == 1 else f"{k} {n}" for n, k in sorted(game.state.possessions.items()))]
        return " | ".join(p for p in parts if p)

    def __call__(self, event: dict[str, Any]) -> None:
        kind = event["event"]
        game = self.game
        if kind == "start":
            self.say(f"{event['title'] or 'Untitled adventure'} ({event['rules']}, seed {event['seed']})", "bold")
            self.say(event["character"])
        elif kind == "move":
            # The heading comes on arrival: an encounter on the way in (or death in it) happens
            # at this entry, before its text is read.
            self.console.print()
            self.say(f"— {event['to']} —", "bold cyan")
        elif kind == "entry" and game is not None:
            self.prose(game.entries[event["number"]]["text"])
        elif kind == "check":
            verdict = "success" if event["success"] else "failure"
            compare = event.get("compare", "≤")
            verdict = event.get("degree", verdict)
            self.say(f"{event['ability']} check ({event['dice']} {compare} {event['target']}): rolled "
                     f"{rolled(event)}: {verdict}", "green" if event["success"] else "red")
        elif kind == "possession":
            self.say(possession_words(event), "cyan")
        elif kind == "roll":
            self.say(f"{event['why']}: {event['dice']} rolled {event['total']}")
        elif kind == "damage":
            self.say(f"You take {event['amount']} damage {paren(event['cause'])}. HP {event['hp']}.", "red")
        elif kind == "heal":
            self.say(f"You regain {event['amount']} HP {paren(event['cause'])}. HP {event['hp']}.", "green")
        elif kind == "death":
            self.say(f"You die {paren(event['cause'])}.", "bold red")
        elif kind == "item":
            verb = {"found": "You find", "used": "You use", "dropped": "You drop", "thrown": "You throw"}.get(
                str(event["action"]), str(event["action"]).capitalize())
            why = str(event.get("why") or "")
            because = "" if not why else f" ({why})" if "(" not in why else f": {why}"
            self.say(f"{verb} {event['quantity']} {event['name']}{because}.")
        elif kind == "manual":
            self.say(f"Not automated, your ruling (a to adjust): {event['text']}", "yellow")
        elif kind == "special":
            self.say(f"Special ({event['creature']}), your ruling: {event['text']}", "yellow")
        elif kind == "encounter" and event["text"]:
            self.say(f"Encounter! {event['text']}: {', '.join(event['foes']) or 'nobody'}", "bold magenta")
        elif kind == "surprise" and event["surprised"]:
            self.say("You are surprised!", "magenta")
        elif kind == "reaction":
            self.say(f"Reaction {event['total']}: {event['reaction']}", "magenta")
        elif kind == "fight":
            self.say("Fight: " + ", ".join(f"{f['name']} ({f['hp']} HP)" for f in event["foes"]), "bold")
        elif kind == "attack":
            hit = f"hits for {event['damage']}" if event["hit"] else "misses"
            if event.get("special") and event["hit"]:
                hit = f"{event['target']} drops its {event.get('dropped') or 'weapon'} ({event['special']})"
            self.say(f"  {event['attacker']} → {event['target']} ({event['weapon']}, {event['total']} vs "
                     f"{event['needed']}): {hit}")
        elif kind == "decision" and self.narrate is not None:
            explain = getattr(self.narrate, "explain", None)
            why = explain() if callable(explain) else ""
            if event["question"] == MENU and game is not None:
                self.say(self.status(game), "reverse")
            self.say(f"{self.narrate_name} chooses: {event['label']}" + (f" — {why}" if why else "") + ".", "italic")
        elif kind in BRIEF:
            line = self._brief(event)
            if line:
                self.say(line, "dim" if kind in ("light", "gear", "pace") else "")

    @staticmethod
    def _brief(e: dict[str, Any]) -> str:
        """A sentence for an event the player should hear about ('' for none); never a raw record."""
        kind = e["event"]
        if kind == "morale":
            verdict = "it flees!" if e["flees"] else "it stands."
            return f"  {e['name']} checks morale ({e['total']} against {e['morale']}): {verdict}"
        if kind == "defeated":
            return f"  {e['name']} falls."
        if kind == "effect":
            return f"  {e['text']}"
        if kind == "experience":
            return f"Experience: {e['xp']} XP ({e['why']}); {e['total']} XP in all, level {e['level']}."
        if kind == "fight_end":
            ends = {"won": "You win the fight.", "fled": "You get away from the fight.",
                    "stalemate": "The fight ends with no winner."}
            return ends.get(str(e["result"]), f"The fight is over: {e['result']}.")
        if kind == "flee":
            return f"You run back to entry {e['to']}." if e["to"] is not None else "You get away."
        if kind == "escape":
            return "You get away." if e["success"] else "You fail to get away."
        if kind == "distract":
            what = {"food": "a ration", "treasure": "some treasure"}.get(str(e["dropped"]), str(e["dropped"]))
            return (f"You drop {what} (rolled {e['roll']}): "
                    + ("they are distracted." if e["distracted"] else "they are not distracted."))
        if kind == "talk":
            if "why" in e:
                return f"You cannot talk with them: {e['why']}."
            reaction = e.get("reaction")
            if reaction == "they let you pass":
                return "You talk, and they let you pass."
            return (f"You talk them round: they are now {reaction}." if e["success"]
                    else f"Talking goes badly: they are now {reaction}.")
        if kind == "encounter_end":
            result = str(e["result"])
            return {"left alone": "They leave you alone.", "parley": "They let you pass."}.get(
                result, result[:1].upper() + result[1:] + ".")
        if kind == "oracle":
            return f"The Oracle ({e['odds']}-in-6) rolls {e['roll']}: {e['answer'].upper()}."
        if kind == "light":
            action = {"light": "You light the lantern", "refill": "You refill the lantern",
                      "relight": "You relight the lantern", "out": "Your lantern goes out",
                      "found": "You find light"}.get(str(e["action"]), f"Lantern: {e['action']}")
            return f"{action} ({e['turns']} turns of light, {e['flasks']} flasks left)."
        if kind == "dark":
            return f"In the dark: turn {e['turns']} of {e['limit']}."
        if kind == "refused":
            return f"You cannot {e['what']}: {e['why']}."
        if kind == "gear":
            if e["item"] is None:
                return "You have no suitable gear."
            return f"Your {e['item']} is {'appropriate' if e['appropriate'] else 'not appropriate'}."
        if kind == "rest":
            how = {"rally": "You rally", "rest": "You rest an hour", "sleep": "You sleep the night",
                   "breath": "You catch your breath", "short": "You take a short rest",
                   "long": "You take a long rest", "camp": "You fortify a camp"}.get(str(e.get("rest")), "You rest")
            chips = f" (chips {e['chips']})" if "chips" in e else ""
            return f"{how}{chips}."
        if kind == "hazard":
            stage = e["stage"]
            if stage == "mitigated":
                return f"You deal with the {e['name']} using your {e['gear']}."
            if stage == "cleared":
                return f"You clear the {e['name']} for good with your {e['gear']}."
            if stage == "passed":
                return f"You get past the {e['name']}." + (f" {e['text']}" if e.get("text") else "")
            if stage == "triggered":
                return f"The {e['name']} gets you." + (f" {e['text']}" if e.get("text") else "")
            return ""
        if kind == "pace":
            return f"Pace: {e['pace']} ({e['minutes']} minutes a room)."
        if kind == "alarm":
            return f"The alarm rises to {e['level']} of 5 ({e['why']})."
        if kind == "adjust":
            return f"Your ruling: {e['text']}."
        return ""

    # --- input -----------------------------------------------------------------------------

    def ask_line(self, prompt: str) -> str:
        try:
            return self.read(prompt)
        except EOFError:
            raise RunEnded("stopped", "end of input") from None

    def text(self, prompt: str, game: Engine) -> str:
        while True:
            answer = self.ask_line(prompt)
            if not self._common(answer.strip().lower(), game, ADJUST_KEYS):
                return answer

    def _common(self, low: str, game: Engine, help_text: str) -> bool:
        """Keys every question accepts besides its answers: ``q`` quit, ``s`` save, ``?`` help, ``i``.

        True when ``low`` was one of them (and was handled). Quitting in the middle of a step ends
        the run as *stopped*; the game was saved before the step, so resuming plays it again.
        """
        if low in ("q", "quit"):
            raise RunEnded("stopped", "quit by the player")
        if low in ("s", "save"):
            where = self.save_path
            self.say(f"The game is saved after every step, last before this question, to {where}; "
                     "q quits, and --resume starts this step again." if where else "Saving is off (--no-save).")
            return True
        if low in ("?", "h", "help"):
            self.say(help_text)
            return True
        if low in ("i", "inventory"):
            for line in game.inventory_lines():
                self.say("  " + line)
            return True
        return False

    def decide(self, question: Question, game: Engine) -> int:
        self.game = game
        if question.kind == MENU:
            return self._menu(question, game)
        self.say(question.prompt, "bold")
        for n, o in enumerate(question.options, 1):
            detail = f"  [{o.detail}]" if o.detail else ""
            self.say(f"  {n}. {o.label}{detail}")
        count = len(question.options)
        keys = (f"Type a number from 1 to {count} to answer. Also: i inventory, s save, q quit (the game is "
                "saved before each step), ? this help.")
        while True:
            answer = self.ask_line("> ").strip()
            if answer.isdigit() and 1 <= int(answer) <= count:
                return int(answer) - 1
            found = question.index(answer.lower())
            if found is not None:
                return found
            if self._common(answer.lower(), game, keys):
                continue
            self.say(f"Type a number from 1 to {count} (? for help).", "yellow")

    def _menu(self, q: Question, game: Engine) -> int:
        self.console.print()
        self.say(self.status(game), "reverse")
        nav = [o for o in q.options if "command" not in o.tags]
        for n, o in enumerate(nav, 1):
            odds = f" ({percent(o.chance)})" if o.chance is not None and o.chance < 1 else ""
            detail = f"  [{o.detail}]" if o.detail else ""
            self.say(f"  {n}. {o.label}{odds}{detail}")
        commands = [o for o in q.options if "command" in o.tags]
        self.say("  " + "  ".join(f"{LETTERS.get(o.key, '?')}) {o.label.split(' (')[0]}" for o in commands)
                 + "  i) inventory  s) save  ?) help", "dim")
        while True:
            answer = self.ask_line("> ").strip()
            low = answer.lower()
            if low in ("i", "inventory"):
                for line in game.inventory_lines():
                    self.say("  " + line)
                continue
            if low in ("?", "h", "help"):
                self.say(HELP)
                continue
            if low in ("s", "save"):
                where = self.save() if self.save else None
                self.say(f"Saved to {where}." if where else "Saving is off (--no-save).")
                continue
            found, _ = match_menu(q, answer)
            if found is not None:
                return found
            self.say(f"Type 1–{len(nav)} or a command letter (? for help).", "yellow")


class TerminalChooser(Chooser):
    """Character creation questions at a terminal."""

    def __init__(self, terminal: Terminal) -> None:
        self.t = terminal

    def show(self, text: str) -> None:
        self.t.say(text)

    def swap(self, scores: dict[str, int]) -> tuple[str, str] | None:
        while True:
            answer = self.t.ask_line("Swap two scores? (e.g. 'STR DEX', Enter for none) > ").strip().upper()
            if not answer:
                return None
            parts = answer.replace(",", " ").split()
            if len(parts) == 2 and all(p in scores for p in parts) and parts[0] != parts[1]:
                return parts[0], parts[1]
            self.t.say("Name two different abilities: STR DEX CON WIS INT CHA.", "yellow")

    def pick(self, stage: str, pc: Character, offers: list[Offer], labels: list[str], prompt: str) -> int | None:
        self.t.say(prompt, "bold")
        for n, label in enumerate(labels, 1):
            self.t.say(f"  {n}. {label}")
        while True:
            answer = self.t.ask_line("> ").strip()
            if not answer:
                return None
            if answer.isdigit() and 1 <= int(answer) <= len(labels):
                return int(answer) - 1
            self.t.say(f"Type 1–{len(labels)}, or Enter when done.", "yellow")

    def name(self, suggestion: str) -> str:
        return self.t.ask_line(f"Name (Enter for {suggestion}) > ").strip() or suggestion

    def choose(self, prompt: str, options: list[str]) -> int:
        self.t.say(prompt, "bold")
        for n, label in enumerate(options, 1):
            self.t.say(f"  {n}. {label}")
        while True:
            answer = self.t.ask_line("> ").strip()
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return int(answer) - 1
            self.t.say(f"Type a number from 1 to {len(options)}.", "yellow")
