"""What the adventurer can do at an entry: its choices, exits and the commands, with exact odds.

Built fresh at every decision from the graph and the state. Option keys: ``choice:N`` (the entry's
N-th choice), ``exit:N`` (its N-th exit, for prose exits), ``return:E`` / ``back:E`` (go to
entry E), and the commands ``wait``, ``rest``, ``oracle``, ``adjust``, ``leave``, ``quit``.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from dtc.compiled.graphjson import Choice, Condition, Entry
from dtc.runtime import conditions
from dtc.runtime.core import MENU, PLAN, Option, Question
from dtc.runtime.equipment import COINS, Item, parse_weight
from dtc.runtime.inventory import is_coins, name_key

if TYPE_CHECKING:
    from dtc.runtime.engine import Engine

NEEDS = {"turn": "spend a turn", "gear": "use gear", "check": "pass a check"}
#: Chance used for "use gear" when planning (the player or the Oracle decides; Probable is 3-in-6).
GEAR_ESTIMATE = Fraction(1, 2)
_CERTAIN = Fraction(1)
ADJUST_HELP = ("Adjust (hp -2 | hp +1 | coins +50 | item [N] NAME [weight W] [value V] | drop NAME [N] | light N): ")
COMMANDS = ("wait", "rest", "oracle", "adjust", "leave", "quit")


# The commands every menu offers, made once (options are immutable).
_COMMAND = frozenset({"command"})
_WAIT = Option("wait", "Spend a turn", tags=_COMMAND)
_WAIT_DARK = Option("wait", "Spend a turn searching for light", tags=_COMMAND)
_ORACLE = Option("oracle", "Ask the Oracle", tags=_COMMAND)
_ADJUST = Option("adjust", "Adjust (adjudicate what the text says)", tags=_COMMAND)
_LEAVE_WITH = Option("leave", "Leave the dungeon with your treasure", tags=frozenset({"command", "leave"}))
_LEAVE_EMPTY = Option("leave", "Leave the dungeon empty-handed", tags=frozenset({"command", "leave"}))
_QUIT = Option("quit", "Quit (the game is saved)", tags=_COMMAND)


def check_odds(game: Engine, ability: str | None, difficulty: int, label: str = "") -> tuple[str, Fraction]:
    """Words and exact chance of the check a choice may need, for this adventurer: worked out once
    per rules object and distinct :meth:`~dtc.runtime.ruleset.Rules.odds_key` where the rules say it."""
    rules = game.rules
    key = rules.odds_key(game.pc, ability)
    if key is None:
        return _check_odds(game, ability, difficulty, label)
    known: dict[tuple[object, ...], tuple[str, Fraction]] | None = rules.__dict__.get("_check_odds")
    if known is None:
        known = rules.__dict__["_check_odds"] = {}
    full = (key, ability, difficulty, label)
    found = known.get(full)
    if found is None:
        if len(known) >= _ODDS_KEPT:
            known.clear()
        found = known[full] = _check_odds(game, ability, difficulty, label)
    return found


#: Checks' odds kept per rules object (then forgotten: a long-lived process).
_ODDS_KEPT = 50_000


def _check_odds(game: Engine, ability: str | None, difficulty: int, label: str) -> tuple[str, Fraction]:
    rules, pc = game.rules, game.pc
    if ability in rules.abilities:
        return rules.choice_odds(pc, ability, difficulty, label)
    best = rules.best_ability(pc, difficulty)
    return f"any ability (best {rules.check_text(pc, best, difficulty)})", rules.check_chance(pc, best, difficulty)


def plan_chance(plan: tuple[str, ...], check: Fraction) -> Fraction:
    p = _CERTAIN
    for need in plan:
        if need == "check":
            p *= check
        elif need == "gear":
            p *= GEAR_ESTIMATE
        elif need != "turn":
            raise KeyError(need)
    return p


@lru_cache(maxsize=4096)
def _best_plan(plans: tuple[tuple[str, ...], ...], numerator: int, denominator: int) -> Fraction:
    """The best chance among the ways to meet a difficulty, once per (ways, check's chance)."""
    check = Fraction(numerator, denominator)
    return max(plan_chance(plan, check) for plan in plans)


def _choice_option(game: Engine, index: int, c: Choice) -> Option:
    tags = {"choice"}
    target = c["success"] if isinstance(c["success"], int) else None
    if target is not None and game.state.visits.get(target):
        tags.add("visited")
    condition = c.get("condition")
    if condition is not None and c["error"] is None and not game.holds(condition):
        return Option(f"choice:{index}", c["label"], f"closed: needs {conditions.needs(condition)}",
                      chance=Fraction(0), target=target, tags=frozenset(tags | {"closed"}))
    if c.get("roll") is not None and c["error"] is None:
        roll = c["roll"]
        ways = "; ".join(f"{b['low']}" + (f"-{b['high']}" if b["high"] != b["low"] else "") + f": go to {b['target']}"
                         for b in roll["branches"])
        return Option(f"choice:{index}", c["label"], f"roll {roll['dice']} ({ways})", chance=Fraction(1),
                      tags=frozenset(tags | {"random"}))
    if c["error"] is not None or c["difficulty"] is None:
        return Option(f"choice:{index}", c["label"], f"malformed: {c['error'] or c['text']}", tags=frozenset(tags))
    d = c["difficulty"]
    plans = game.rules.plans(d)
    if plans is None:
        return Option(f"choice:{index}", c["label"], f"D{d} is not a {game.rules.title} difficulty",
                      tags=frozenset(tags | {"broken"}))
    if d == 0:
        return Option(f"choice:{index}", c["label"], f"go to {c['success']}", chance=Fraction(1), target=target,
                      tags=frozenset(tags))
    words, p = check_odds(game, c["ability"], d, c["label"])
    ability = f"{c['ability']} " if c["ability"] else ""
    best = _best_plan(tuple(plans), p.numerator, p.denominator)
    need = game.rules.difficulty_text(d)
    detail = f"{ability}D{d}: {need}; check {words}" if need else f"{ability}D{d}: {words}"
    return Option(f"choice:{index}", c["label"], detail, chance=best, target=target, tags=frozenset(tags | {"check"}))


def _is_check(game: Engine, c: Choice) -> bool:
    """Whether a choice's option (when open) shows a check's odds, which depend on the adventurer."""
    d = c["difficulty"]
    return (c["error"] is None and c.get("roll") is None and d is not None and d != 0
            and game.rules.plans(d) is not None)


class _EntryMenu:
    """What one entry's menu is made of, worked out once per entry for a rules object: each option
    the entry can show, kept per what it depends on (whether its target was visited, whether its
    condition holds, and for a check the adventurer's odds key: :meth:`Rules.odds_key`)."""

    __slots__ = ("choices", "entry", "exit_keys", "exits", "returns", "seen", "ways")

    def __init__(self, game: Engine, entry: Entry) -> None:
        self.entry = entry
        #: Per choice: (index, the choice, its target, whether it shows a check, its options so far,
        #: the condition that may close it).
        self.choices: list[tuple[int, Choice, int | None, bool, dict[object, Option], Condition | None]] = [
            (i, c, c["success"] if isinstance(c["success"], int) else None, _is_check(game, c), {},
             c.get("condition") if c["error"] is None else None)
            for i, c in enumerate(entry["choices"])]
        found = {e["target"]: e["text"] for e in entry["effects"] if e["kind"] == "condition"}
        #: Per prose exit: (target entry or None, the option unvisited, the option visited).
        self.exits: list[tuple[int | None, Option, Option]] = []
        for j, x in enumerate(entry["exits"]):
            if x["kind"] != "prose":
                continue
            target = x["target"] if isinstance(x["target"], int) else None
            tags = {"exit"}
            detail = ""
            if x["target"] in found:
                tags.add("conditional")
                detail = "only if: " + re.split(r",\s*(?:skip|go|turn|return)\b", found[x["target"]])[0]
            opts = [Option(f"exit:{j}", f"Go to {x['target']}", detail, Fraction(1), target,
                           frozenset(tags | ({"visited"} if visited and target is not None else set())))
                    for visited in (False, True)]
            self.exits.append((target, opts[0], opts[1]))
        #: The entries the return exits lead to, in order, once each.
        self.returns = [t for x in entry["exits"] if x["kind"] == "return" and isinstance(t := x["target"], int)]
        self.seen = any(x["kind"] == "return" for x in entry["exits"])
        #: For :func:`moves`: the choices that are ways on unless a condition closes them (not those
        #: these rules call broken), as (option key, the condition); the prose exits' keys.
        self.ways: list[tuple[str, Condition | None]] = [
            (f"choice:{i}", condition) for i, c, _, _, _, condition in self.choices if not _broken(game, c)]
        self.exit_keys = [unvisited.key for _, unvisited, _ in self.exits]


def _broken(game: Engine, c: Choice) -> bool:
    """Whether a choice's option is tagged broken (:func:`_choice_option`: a difficulty these
    rules do not have), whatever the state."""
    return (c["error"] is None and c.get("roll") is None and c["difficulty"] is not None
            and game.rules.plans(c["difficulty"]) is None)


def moves(game: Engine) -> list[str]:
    """The keys of the menu's options that are ways on (not a command, nor a broken or closed
    choice), then of resting and leaving where offered, in the menu's order: what the random
    policy picks among (:func:`dtc.runtime.policies._ways_or_wait`), without making the options."""
    entry = game.entry
    state = game.state
    visits = state.visits
    rules = game.rules
    keys: list[str] = []
    if rules.can_see(game):
        plan = _entry_menu(game, entry)
        held = game.held
        for key, condition in plan.ways:
            if condition is None or conditions.holds(condition, held, game.score):
                keys.append(key)
        keys += plan.exit_keys
        if plan.seen:
            recent = state.previous
            targets = plan.returns
            if recent in targets:
                targets = [recent]
            for t in dict.fromkeys(targets):
                keys.append(f"return:{t}")
        if not entry["choices"] and not entry["exits"] and not entry["ending"] and state.previous is not None:
            keys.append(f"back:{state.previous}")
    if rules.can_rest_now(game):
        keys.append("rest")
    if state.entry == state.start and (len(visits) > 1 or visits.get(state.start, 0) > 1):
        keys.append("leave")
    return keys


#: Entries' menus per rules object are kept until this many, then forgotten (a long-lived process).
_MENUS_KEPT = 20_000


def _entry_menu(game: Engine, entry: Entry) -> _EntryMenu:
    menus: dict[int, _EntryMenu] | None = game.rules.__dict__.get("_entry_menus")
    if menus is None:
        menus = game.rules.__dict__["_entry_menus"] = {}
    found = menus.get(id(entry))
    if found is None or found.entry is not entry:
        if len(menus) >= _MENUS_KEPT:
            menus.clear()
        found = menus[id(entry)] = _EntryMenu(game, entry)
    return found


def build(game: Engine) -> Question:
    """The menu at the current entry (the adventurer's load, which the odds read, is worked out once
    per state of the items: :attr:`Character.load`)."""
    return _build(game)


def _build(game: Engine) -> Question:
    opts, seeing = options(game)
    prompt = f"Entry {game.state.entry}" + ("" if seeing else " (in the dark: find light)")
    return Question(MENU, prompt, opts, {"dark": not seeing})


def options(game: Engine) -> tuple[tuple[Option, ...], bool]:
    """The options of the menu at the current entry (:func:`build`'s), and whether the adventurer
    sees (False: in the dark)."""
    entry = game.entry
    state = game.state
    visits = state.visits
    rules = game.rules
    opts: list[Option] = []
    seeing = rules.can_see(game)
    if seeing:
        plan = _entry_menu(game, entry)
        held = game.held
        for i, c, target, is_check, known, condition in plan.choices:
            visited = target is not None and bool(visits.get(target))
            closed = condition is not None and not conditions.holds(condition, held, game.score)
            key: object
            if is_check and not closed:
                odds = rules.odds_key(game.pc, c["ability"])
                if odds is None:  # these rules do not say what their odds depend on: work them out
                    opts.append(_choice_option(game, i, c))
                    continue
                key = (visited, odds)
            else:
                key = visited + 2 * closed
            option = known.get(key)
            if option is None:
                if len(known) >= _VARIANTS_KEPT:
                    known.clear()
                option = known[key] = _choice_option(game, i, c)
            opts.append(option)
        for target, unvisited, visited_option in plan.exits:
            opts.append(visited_option if target is not None and visits.get(target) else unvisited)
        if plan.seen:
            recent = state.previous
            targets = plan.returns
            if recent in targets:
                targets = [recent]
            for t in dict.fromkeys(targets):
                opts.append(_return_option(t, t == recent))
        if not entry["choices"] and not entry["exits"] and not entry["ending"] and state.previous is not None:
            back = state.previous
            opts.append(Option(f"back:{back}", f"Go back to {back}", "dead end: the book gives no way on",
                               Fraction(1), back, frozenset({"exit", "dead-end"})))
    pc = game.pc
    opts.append(_WAIT if seeing else _WAIT_DARK)
    if rules.can_rest_now(game):
        opts.append(_rest_option(rules.rest_label(game)))
    opts.append(_ORACLE)
    opts.append(_ADJUST)
    if state.entry == state.start and (len(visits) > 1 or visits.get(state.start, 0) > 1):
        # Back at the entrance after going in: leaving is escaping (dtc.outcomes), treasure or not.
        opts.append(_LEAVE_WITH if pc.has_treasure else _LEAVE_EMPTY)
    opts.append(_QUIT)
    return tuple(opts), seeing


#: Options kept per choice (its variants: visited or not, closed or not, the odds keys met).
_VARIANTS_KEPT = 256


@lru_cache(maxsize=4096)
def _return_option(target: int, recent: bool) -> Option:
    return Option(f"return:{target}", f"Return to {target}", "your most recent entry" if recent else "",
                  Fraction(1), target, frozenset({"exit", "return"}))


@lru_cache(maxsize=256)
def _rest_option(label: str) -> Option:
    return Option("rest", label, tags=_COMMAND)


def ask_plan(game: Engine, choice: Choice, plans: list[tuple[str, ...]]) -> tuple[str, ...]:
    n = game.pick(PLAN, len(plans))
    if n is not None:  # the plan the option ``plan:turn+check`` stands for
        return tuple("+".join(plans[n]).split("+"))
    words, p = check_odds(game, choice["ability"], choice["difficulty"] or 0, choice["label"])
    opts = _plan_options(tuple(plans), words, p)
    q = Question(PLAN, f"'{choice['label']}' (D{choice['difficulty']}): how do you go about it?", opts,
                 {"difficulty": choice["difficulty"], "ability": choice["ability"]})
    key = game.ask(q).key
    return tuple(key.split(":")[1].split("+"))


@lru_cache(maxsize=4096)
def _plan_options(plans: tuple[tuple[str, ...], ...], words: str, p: Fraction) -> tuple[Option, ...]:
    """The ways to meet a difficulty as options, once per (ways, the check's words and chance)."""
    opts = []
    for plan in plans:
        label = " + ".join(NEEDS[n] for n in plan)
        detail = words if "check" in plan else ""
        opts.append(Option("plan:" + "+".join(plan), label, detail, chance=plan_chance(plan, p)))
    return tuple(opts)


def adjust(game: Engine, text: str) -> None:
    """Apply a manual adjustment the player typed (their ruling on prose the runtime cannot read)."""
    words = text.strip().split()
    if not words:
        return
    head = words[0].lower()
    pc = game.pc
    game.emit("adjust", text=text.strip())
    if head == "hp" and len(words) == 2 and re.fullmatch(r"[+-]?[0-9]+", words[1]):
        amount = int(words[1])
        if amount < 0:
            game.damage(-amount, "adjudicated")
        else:
            game.heal(amount, "adjudicated")
        return
    if head == "coins" and len(words) == 2 and re.fullmatch(r"[+-]?[0-9]+", words[1]):
        amount = int(words[1])
        if amount >= 0:
            game.gain(COINS, amount)
            game.emit("item", action="found", name=COINS, quantity=amount, why="adjudicated")
        elif game.held(COINS) >= -amount:
            game.give_up(COINS, -amount)
            game.emit("item", action="dropped", name=COINS, quantity=-amount, why="adjudicated")
        else:
            game.emit("refused", what="adjust", why=f"you do not carry {-amount} {COINS}")
        return
    if head == "item" and len(words) >= 2:
        rest, count = words[1:], 1
        if len(rest) > 1 and re.fullmatch(r"[0-9]{1,6}", rest[0]):  # ``item 3 torches``
            rest, count = rest[1:], int(rest[0])
        name, fields = _name_and_fields(rest)
        if count <= 0:
            game.emit("refused", what="adjust", why=f"not understood: {text.strip()}")
            return
        value = int(fields["value"]) if "value" in fields else None
        weight = parse_weight(fields.get("weight", "0"))
        kind = "treasure" if value is not None else "item"
        if is_coins(name) and value is None and "weight" not in fields:
            game.gain(COINS, count)  # ``item 20 coins``: the coins, as ``coins +20``
            name = COINS
        else:
            pc.add(Item(name, kind, count, weight, value=value, category="unique" if value is not None else None))
        game.emit("item", action="found", name=name, quantity=count, why="adjudicated")
        return
    if head == "drop" and len(words) >= 2:
        count = int(words[-1]) if words[-1].isdigit() and len(words) > 2 else 1
        name = " ".join(words[1:-1] if words[-1].isdigit() and len(words) > 2 else words[1:])
        if pc.use(name, count):  # an item by its full name (``drop Rope (50 ft.)``)
            game.emit("item", action="dropped", name=name, quantity=count, why="adjudicated")
            return
        key = name_key(name)
        if key and game.held(key) >= count:  # else as the book names things: a possession, ``rope``
            game.give_up(key, count)
            game.emit("item", action="dropped", name=key, quantity=count, why="adjudicated")
            return
        game.emit("refused", what="adjust", why=f"you do not carry {count} {name}")
        return
    if game.rules.adjust(game, [w.lower() for w in words]) is None:
        game.emit("refused", what="adjust", why=f"not understood: {text.strip()}")


def _name_and_fields(words: list[str]) -> tuple[str, dict[str, str]]:
    fields: dict[str, str] = {}
    name: list[str] = []
    i = 0
    while i < len(words):
        w = words[i].lower()
        if w in ("weight", "value") and i + 1 < len(words) and re.fullmatch(r"[0-9]+(?:[./][0-9]+)?", words[i + 1]):
            fields[w] = words[i + 1]
            i += 2
            continue
        name.append(words[i])
        i += 1
    return " ".join(name) or "item", fields
