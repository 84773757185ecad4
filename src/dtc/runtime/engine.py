"""The engine: a state machine over the compiled graph, with no terminal and no files.

It reads the graph JSON (never the source), asks its :class:`~dtc.runtime.core.Player` for every
decision, reports everything as events to its sinks, and leaves rule specifics to its
:class:`~dtc.runtime.ruleset.Rules`. :meth:`Engine.run` plays until an outcome; between steps it
calls ``checkpoint`` (the CLI saves the game there), so a run can stop and resume at any step.

A step is either a pending move (read the next entry: a turn passes, an encounter may happen,
the entry's effects apply; an ending is read at once, with no turn and so no encounter) or a
decision at the current entry (the menu).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from dtc.compiled.graphjson import Change, Choice, CompiledGraph, Creature, Entry
from dtc.runtime import conditions, effects, inventory, menu
from dtc.runtime.character import Character
from dtc.runtime.core import (
    ABILITY,
    DROP,
    GEAR,
    GEAR_OK,
    LOSE,
    ORACLE,
    TAKE,
    Option,
    Outcome,
    Player,
    Question,
    RunEnded,
    Sink,
    oracle_options,
)
from dtc.runtime.dice import Dice, DiceError
from dtc.runtime.foes import Foe, foes_from
from dtc.runtime.replay import LOG_VERSION
from dtc.runtime.ruleset import FLED, Rules
from dtc.runtime.state import GameState

DEFAULT_MAX_TURNS = 1000


#: The entries by number and the stat blocks by name of the graphs played last (a simulation makes
#: an engine per run): (the entries' list, its length, the creatures' list, its length, the indexes).
_INDEXES: list[tuple[list[Entry], int, list[Creature], int, dict[int, Entry], dict[str, Creature]]] = []


def _indexes(graph: CompiledGraph) -> tuple[dict[int, Entry], dict[str, Creature]]:
    """A graph's entries by number (the first of a number) and stat blocks by name, made once per
    graph while it is not changed (the lists are kept, so their ids are not reused meanwhile)."""
    listed, creatures = graph["entries"], graph["creatures"]
    for known in _INDEXES:
        if known[0] is listed and known[1] == len(listed) and known[2] is creatures and known[3] == len(creatures):
            return known[4], known[5]
    entries: dict[int, Entry] = {}
    for entry in listed:
        entries.setdefault(entry["number"], entry)
    blocks: dict[str, Creature] = {}
    for block in creatures:
        blocks.setdefault(" ".join(block["name"].lower().split()), block)
    _INDEXES.insert(0, (listed, len(listed), creatures, len(creatures), entries, blocks))
    del _INDEXES[4:]
    return entries, blocks


#: What :meth:`Engine._route` works out of the sinks (see there).
_Routes = tuple[int, frozenset[str], bool, tuple[Callable[[int], object], ...] | None]


class Engine:
    def __init__(
        self,
        graph: CompiledGraph,
        pc: Character,
        player: Player,
        *,
        dice: Dice,
        rules: Rules,
        state: GameState | None = None,
        start: int | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
        sinks: Iterable[Sink] = (),
        checkpoint: Callable[[Engine], None] | None = None,
        made: bool = False,
        carried: Sequence[tuple[str, int]] = (),
    ) -> None:
        self.graph = graph
        #: What the reader carries in besides the book's ``Start with:`` (``dtc play --with``), as
        #: the start event records it; the graph's ``start_with`` already holds it.
        self.carried = list(carried)
        self.entries, self.blocks = _indexes(graph)
        #: The block each name as written found (a fight reads a creature's stats many times).
        self._named: dict[str, Creature | None] = {}
        self.rules = rules
        self.pc = pc
        self.player = player
        self.dice = dice
        self.max_turns = max_turns
        self.sinks = list(sinks)
        #: What the sinks read, worked out when first needed (and again when sinks are added or removed).
        self._routes: _Routes | None = None
        self.checkpoint = checkpoint
        #: The adventurer was made with this run's dice (a replay makes it again from them).
        self.made = made
        self._new = state is None
        entrance: int | None = graph.get("start")
        first = start if start is not None else entrance
        if state is None:
            state = GameState(entry=first or 0, start=entrance if entrance is not None else first or 0)
        self.state = state
        self._saved_at = -1
        self.outcome: Outcome | None = self.state.outcome
        #: Why the clock last moved (``move``, ``action``, ``wait``, ``rest``, ``combat``): rules that
        #: count time in minutes (Dungeon Rules) read it in ``turn_passed``.
        self.clock_reason = ""
        #: What the action that chose the pending move needed (``("turn", "check")``; None: no action).
        self.last_plan: tuple[str, ...] | None = None
        #: The player whose ``blind`` answer :meth:`pick` looked up last, and that answer (or None).
        self._blind_of: object = None
        self._blind: Callable[[str, int, Engine], int | None] | None = None
        #: Each possession of a container with a limit: (the container, its possessions, its limit).
        self._boxes: dict[str, tuple[str, list[str], int]] | None = None

    # --- services for rules, effects and players ------------------------------------------

    @property
    def entry(self) -> Entry:
        return self.entries[self.state.entry]

    def emit(self, kind: str, **fields: Any) -> None:
        state = self.state
        seq = state.events
        state.events = seq + 1
        sinks = self.sinks
        routes = self._routes
        if routes is None or routes[0] != len(sinks):
            routes = self._route(sinks)
        if kind not in routes[1] and not routes[2]:
            return  # no sink reads this kind: no event is built
        event: dict[str, Any] | None = None
        for sink in sinks:
            kinds = getattr(sink, "kinds", None)  # a sink may say which events it reads (core.Sink)
            if kinds is not None and kind not in kinds:
                continue
            if event is None:
                event = {"seq": seq, "turn": state.turn, "entry": state.entry, "event": kind}
                event.update(fields)
            sink(event)

    def skip(self, kind: str) -> bool:
        """True when no sink reads ``kind``: the event is then counted (its number taken, as
        :meth:`emit` would) and the caller need not build its fields. A hot call site reads
        ``if not game.skip(kind): game.emit(kind, ...)``."""
        sinks = self.sinks
        routes = self._routes
        if routes is None or routes[0] != len(sinks):
            routes = self._route(sinks)
        if routes[2] or kind in routes[1]:
            return False
        self.state.events += 1
        return True

    def reads(self, kind: str) -> bool:
        """Whether some sink reads events of ``kind`` (nothing is counted: :meth:`skip` still is,
        where the event would be sent). A rule that would draw its dice only to show them in the
        event draws the same numbers more cheaply when nobody reads it."""
        sinks = self.sinks
        routes = self._routes
        if routes is None or routes[0] != len(sinks):
            routes = self._route(sinks)
        return routes[2] or kind in routes[1]

    def _route(self, sinks: list[Sink]) -> _Routes:
        """(how many sinks, the kinds some sink names, whether some sink reads every kind, and
        the ``arrived`` methods of the sinks that read ``entry``, when each has one: see core.Sink)."""
        named: set[str] = set()
        every = False
        arrivals: list[Callable[[int], object]] | None = []
        for sink in sinks:
            kinds = getattr(sink, "kinds", None)
            if kinds is None:
                every = True
            else:
                named.update(kinds)
                if "entry" in kinds and arrivals is not None:
                    arrived = getattr(sink, "arrived", None)
                    arrivals = None if arrived is None else [*arrivals, arrived]
        self._routes = (len(sinks), frozenset(named), every, None if every or arrivals is None else tuple(arrivals))
        return self._routes

    def ask(self, question: Question) -> Option:
        source: Any = self.dice._rng
        if hasattr(source, "paused"):  # a run log's dice: a player's draws are not the rules'
            source.paused += 1
            try:
                n = self.player.decide(question, self)
            finally:
                source.paused -= 1
        else:
            n = self.player.decide(question, self)
        if not 0 <= n < len(question.options):
            raise RunEnded("stopped", f"no answer to '{question.prompt}'")
        option = question.options[n]
        if not self.skip("decision"):
            self.emit("decision", question=question.kind, choice=option.key, label=option.label)
        return option

    def pick(self, kind: str, count: int) -> int | None:
        """The answer to a question of ``kind`` with ``count`` options, from a player that answers
        such questions from their number alone (its ``blind``: the random policy's draw, or the
        first option of a kind the cautious and bold policies read nothing of), when no sink reads
        the decision: the question need not be built. None: build it and :meth:`ask`. The decision
        is counted as :meth:`ask` counts it."""
        player = self.player
        if player is not self._blind_of:  # the player's blind answer, looked up once per player
            self._blind_of, self._blind = player, getattr(player, "blind", None)
        blind = self._blind
        if blind is None:
            return None
        routes = self._routes  # self.reads("decision"), in place
        if routes is None or routes[0] != len(self.sinks):
            routes = self._route(self.sinks)
        if routes[2] or "decision" in routes[1]:
            return None
        n: int | None = blind(kind, count, self)
        if n is None:
            return None
        if not 0 <= n < count:
            raise RunEnded("stopped", f"no answer to a question of {kind}")
        self.state.events += 1  # the decision event, which no sink reads
        return n

    def clock(self, why: str) -> None:
        """A turn passes (no encounter check: a fight's own turn)."""
        self.state.turn += 1
        self.clock_reason = why
        if not self.skip("turn"):
            self.emit("turn", why=why)
        self.rules.turn_passed(self)

    def spend_turn(self, why: str) -> bool:
        """A turn passes with an encounter check; False when the adventurer fled elsewhere."""
        self.clock(why)
        if self.graph["encounters"] and self.rules.encounter_happens(self) and self._wandering() == FLED:
            return not self._flee()
        return True

    def damage(self, amount: int, cause: str) -> None:
        before = self.pc.hp
        self.pc.hp = max(0, self.pc.hp - amount)
        if not self.skip("damage"):
            self.emit("damage", amount=amount, cause=cause, hp=self.pc.hp)
        if self.pc.hp <= 0:
            self.rules.down(self, cause, max(0, amount - before))

    def heal(self, amount: int, cause: str) -> None:
        gained = max(0, min(amount, self.pc.max_hp - self.pc.hp))
        self.pc.hp += gained
        if not self.skip("heal"):
            self.emit("heal", amount=gained, cause=cause, hp=self.pc.hp)

    def oracle(self, odds: int | None, question: str) -> bool:
        """Ask the Oracle a yes/no question (``odds`` in six; None: the player sets them)."""
        if odds is None:
            options = oracle_options()
            n = self.pick(ORACLE, len(options))
            if n is None:
                prompt = f"Oracle: {question} How likely is yes?" if question.endswith("?") else (
                    f"Oracle ({question}): How likely is yes?")
                odds = int(self.ask(Question(ORACLE, prompt, options)).key.split(":")[1])
            else:
                odds = int(options[n].key.split(":")[1])
        roll, yes = self.dice.in_six(odds)
        if not self.skip("oracle"):
            self.emit("oracle", question=question, odds=odds, roll=roll, answer="yes" if yes else "no")
        return yes

    def block(self, name: str | None) -> Creature | None:
        if name is None:
            return None
        named = self._named
        if name in named:
            return named[name]
        found = named[name] = self.blocks.get(" ".join(name.lower().split()))
        return found

    def go(self, target: int | str, how: str) -> None:
        """Decide a move; it is made at the next step."""
        self.state.pending = {"target": target, "how": how}

    # --- the loop --------------------------------------------------------------------------

    def run(self) -> Outcome:
        if self.outcome is not None:
            return self.outcome
        try:
            if self._new:
                self._new = False
                self._begin()
            state, checkpoint = self.state, self.checkpoint
            while True:
                if checkpoint is not None:
                    self.save_point()
                if state.turn >= self.max_turns:
                    raise RunEnded("stopped", f"turn limit {self.max_turns} reached")
                pending = state.pending
                if pending is not None:
                    state.pending = None
                    self._arrive(pending["target"], pending["how"])
                else:
                    self._decide()
        except RunEnded as end:
            return self._end(end)

    def save_point(self) -> None:
        if self.checkpoint is not None and self._saved_at != self.state.events:
            self.checkpoint(self)
            self._saved_at = self.state.events

    def _end(self, end: RunEnded) -> Outcome:
        self.state.pending = None
        outcome = Outcome(end.kind, self.state.entry if self.state.entry in self.entries else None,
                          self.state.turn, end.reason, self.pc.treasure_value, end.ending_kind)
        self.rules.session_end(self, end.kind)
        if not self.skip("end"):
            extra = {"ending_kind": end.ending_kind} if end.ending_kind else {}
            self.emit("end", outcome=end.kind, reason=end.reason, treasure=outcome.treasure, hp=self.pc.hp, **extra)
        self.outcome = outcome
        if end.kind != "stopped":
            self.state.outcome = outcome
            self.save_point()
        return outcome

    def _begin(self) -> None:
        start = self.state.entry
        if not self.rules.fits(self.pc):
            made_for = self.pc.ruleset
            self.pc = self.rules.new_character(self.dice)
            self.emit("manual", text=f"A {made_for} adventurer cannot play {self.rules.title}: "
                                     f"playing {self.pc.name}, made for it, instead.")
        if not self.skip("start"):
            self.emit("start", title=self.graph.get("title"), rules=self.rules.name, seed=self.dice.seed,
                      character=self.pc.summary(), start=start, log=LOG_VERSION, sheet=self.pc.to_dict(),
                      made=self.made, rulings=dict(self.rules.rulings),
                      **({"carried": [{"name": n, "amount": k} for n, k in self.carried]} if self.carried else {}))
        if not self.entries:
            raise RunEnded("cannot-continue", "the adventure has no entries")
        self.rules.begin(self)
        for item in self.graph.get("start_with", ()):  # ``Start with:``: held from the first page
            self._possessions([{"name": item["name"], "amount": item["amount"]}])
        self._arrive(start, "start")

    def _resolve(self, target: int | str, how: str) -> int:
        if isinstance(target, int) and target in self.entries:
            return target
        here = f"entry {self.state.entry}" if self.state.entry in self.entries else "the start"
        raise RunEnded("cannot-continue", f"{here}: the {how} exit leads to {target}, which is not an entry")

    def _arrive(self, target: int | str, how: str) -> None:
        number = self._resolve(target, how)
        self.state.arrive(number)
        if not self.skip("move"):
            self.emit("move", to=number, how=how)
        plan, self.last_plan = self.last_plan, None
        entry = self.entries[number]
        # An ending ends the run: reading it spends no turn, so no encounter check, no upkeep (light,
        # the dark), no minutes on the Dungeon Rules clock (docs/play.md, "Turns").
        if (how != "start" and not entry["ending"] and self.rules.arrival_costs_turn(self, how, plan)
                and not self.spend_turn("move")):
            return
        routes = self._routes
        if routes is None or routes[0] != len(self.sinks):
            routes = self._route(self.sinks)
        if routes[3] is not None:  # the entry's number is all its readers take (core.Sink)
            self.state.events += 1
            for arrived in routes[3]:
                arrived(number)
        else:
            self.emit("entry", number=number, ending=entry["ending"])
        if "changes" in entry:
            self._possessions(entry["changes"], self.state.visits.get(number, 0) <= 1)
        if entry["effects"]:
            effects.apply(self, entry)
        if self.state.pending is None and not entry["ending"]:
            self.rules.on_entry(self, entry)
        if entry["ending"] and self.state.pending is None:
            kind = entry.get("ending_kind")
            raise RunEnded("ended", f"THE END ({kind})" if kind else "THE END", kind)

    def _possessions(self, changes: list[Change], first: bool = True) -> None:
        """Effects on what the reader holds (an entry's, or a choice's when it is taken), in the
        order written; a count never goes below zero, nor above the book's limit (``Limits:``).

        ``first``: this is the first reading of the entry (``once`` effects apply only then). The
        published-gamebook forms (docs/format.md): ``may`` asks the reader, ``dice`` rolls the
        amount, ``all`` takes every one held, ``if_held`` loses it only if held (no shortfall)."""
        for change in changes:
            name, amount = change["name"], change["amount"]
            if change.get("once") and not first:
                continue
            if change.get("may") and not self._may(change):
                continue
            if change.get("pick"):
                self._pick(-change["amount"], change.get("among"))
                continue
            if "dice" in change:
                amount = self._rolled(change)
            if change.get("all"):
                amount = -self.held(name)
            before = self.held(name)
            if change.get("if_held") or change.get("all"):  # what is held, no more: never short
                amount = max(amount, -before)
                if not amount:
                    continue
            if amount > 0:
                self.gain(name, amount)
            else:
                self.give_up(name, -amount)
            over = self._over_limit(name)
            box = self._container(name) if amount > 0 else None
            if box is not None and box[0] not in self.graph.get("drop_by_choice", ()):
                over += self._fit(name, box)
            if not self.skip("possession"):
                self.emit("possession", name=name, amount=amount - over, held=self.held(name),
                          **({"short": -amount - before} if before + amount < 0 else {}),
                          **({"over_limit": over} if over else {}))
            if box is not None and box[0] in self.graph.get("drop_by_choice", ()):
                self._drop(box)

    def _may(self, change: Change) -> bool:
        """``[may +rope]``: whether the reader takes it (a question of kind ``take``)."""
        keys = ("take", "leave")
        n = self.pick(TAKE, len(keys))
        if n is not None:
            return keys[n] == "take"
        what = f"{change['amount']} {change['name']}" if abs(change["amount"]) != 1 else change["name"]
        verb = "Take" if change["amount"] > 0 else "Give up"
        question = Question(TAKE, f"You may {verb.lower()} {what}. {verb} it?",
                            (Option("take", verb), Option("leave", "Leave it")),
                            {"item": change["name"], "weight": "0", "value": 0})
        return self.ask(question).key == "take"

    def _container(self, name: str) -> tuple[str, list[str], int] | None:
        """The container that holds ``name`` and has a limit (``Containers:``, ``Limits:``): its
        name, its possessions and its limit; None when there is none."""
        boxes = self._boxes
        if boxes is None:
            limits = self.graph.get("limits") or {}
            boxes = {m: (box, members, limits[box]) for box, members in (self.graph.get("containers") or {}).items()
                     if box in limits for m in members}
            self._boxes = boxes
        return boxes.get(name)

    def _fit(self, name: str, box: tuple[str, list[str], int]) -> int:
        """Past a container's limit (``Limits: backpack 8``, counting every possession it holds),
        what the gain of ``name`` brought past it is lost: how much."""
        _, members, limit = box
        over = sum(self.held(m) for m in members) - limit
        return self.give_up(name, over) if over > 0 else 0

    def _drop(self, box: tuple[str, list[str], int]) -> None:
        """``Limits: backpack 8 (choose)``: past the limit, the reader drops one of what the
        container holds at a time, each of their choice (a question of kind ``drop``)."""
        container, members, limit = box
        while sum(self.held(m) for m in members) > limit:
            held = sorted(m for m in members if self.held(m) > 0)
            n = self.pick(DROP, len(held))
            name = held[n] if n is not None else self.ask(Question(
                DROP, f"Your {container} holds at most {limit}: which do you drop?",
                tuple(Option(f"drop:{k}", h) for k, h in enumerate(held)))).label
            if not self.give_up(name, 1):
                return  # (nothing could be taken: never asked again)
            if not self.skip("possession"):
                self.emit("possession", name=name, amount=-1, held=self.held(name), dropped=container)

    def _pick(self, count: int, among: Sequence[str] | None = None) -> None:
        """``[-1 item of choice]``: the reader gives up ``count`` of the book's possessions, one at
        a time, each of their choice (a question of kind ``lose``); none held, nothing lost.
        ``among``: those of a container (``[-1 item of choice from backpack]``)."""
        for _ in range(count):
            held = sorted(name for name, n in self.state.possessions.items() if n > 0
                          and (among is None or name in among))
            if not held:
                return
            n = self.pick(LOSE, len(held))
            name = held[n] if n is not None else self.ask(Question(
                LOSE, "Which do you give up?", tuple(Option(f"lose:{k}", h) for k, h in enumerate(held)))).label
            self.give_up(name, 1)
            if not self.skip("possession"):
                self.emit("possession", name=name, amount=-1, held=self.held(name))

    def _rolled(self, change: Change) -> int:
        """``[+1d10*3 coins]``: the amount rolled, with its sign."""
        times = change.get("times", 1)
        try:
            roll = self.dice.roll(change["dice"])
        except DiceError:
            raise RunEnded("cannot-continue", f"entry {self.state.entry}: {change['dice']} cannot be rolled") from None
        self.emit("roll", dice=roll.expr, rolls=list(roll.dice), total=roll.total * times,
                  why=f"how many {change['name']}" + (f" (times {times})" if times != 1 else ""))
        return roll.total * times * (1 if change["amount"] > 0 else -1)

    def _over_limit(self, name: str) -> int:
        """Past the book's limit for ``name`` (``Limits: coins 50``), the excess is lost: how much."""
        limits = self.graph.get("limits")
        if not limits or name not in limits:
            return 0
        over = self.held(name) - limits[name]
        if over <= 0:
            return 0
        self.give_up(name, over)
        return over

    def score(self, name: str) -> int:
        """The adventurer's score a condition reads (``if CON >= 12``, ``if HP < 5``): HP, an
        ability, or another number the rules track; 0 for one this adventurer has not."""
        if name == "HP":
            return self.pc.hp
        try:
            return self.pc.score(name)
        except KeyError:
            return 0

    # --- one inventory: the book's possessions and the adventurer's items (dtc.runtime.inventory) ---

    def held(self, name: str) -> int:
        """How many of ``name`` (a possession's name as compiled: ``rope``, ``10 coins``' ``coins``)
        the reader holds: as a possession of the book, and among the adventurer's items (the kit,
        finds, coins) as docs/format.md, "How names match", says."""
        return self.state.possessions.get(name, 0) + self.pc.holding(name)

    def gain(self, name: str, amount: int) -> None:
        """Gain ``amount`` of ``name``: coins go to the adventurer's treasure, anything else is a
        possession of the book (a key, a flag)."""
        if inventory.is_coins(name):
            self.pc.add(inventory.coins(amount))
            return
        held = self.state.possessions
        held[name] = held.get(name, 0) + amount

    def give_up(self, name: str, amount: int) -> int:
        """Lose up to ``amount`` of ``name``: the book's possession first, then the adventurer's
        matching items (``[-rope]`` takes the kit's ``Rope (50 ft.)`` when no other rope is held).
        How many were taken."""
        held = self.state.possessions
        have = held.get(name, 0)
        taken = min(have, amount)
        if taken:
            if have > taken:
                held[name] = have - taken
            else:
                del held[name]
        if taken < amount:
            taken += self.pc.give_up(name, amount - taken)
        return taken

    def holds(self, condition: Mapping[str, Any]) -> bool:
        """Whether a choice's condition (the compiled graph's tree) holds for what is held now."""
        return conditions.holds(condition, self.held, self.score)

    def inventory_lines(self) -> list[str]:
        """What the reader holds, for the terminal: the adventurer's items, then the book's possessions."""
        lines = self.pc.inventory_lines()
        held = self.state.possessions
        if held:
            lines.append("Also held: " + ", ".join(n if k == 1 else f"{k} {n}" for n, k in sorted(held.items())))
        return lines

    def wandering(self) -> str:
        """Roll on the encounter table and meet what comes (for rules that call encounters)."""
        return self._wandering()

    def flee(self) -> bool:
        """Run back to the previous entry (False when there is none)."""
        return self._flee()

    def _flee(self) -> bool:
        """Run back the way you came; False when there is nowhere to run (the creatures let you go)."""
        back = self.state.previous
        self.emit("flee", to=back)
        if back is None:
            return False
        self.go(back, "flee")
        return True

    def _wandering(self) -> str:
        rows = self.graph["encounters"]
        low, high = _table_range(rows)
        roll = self.dice.between(low, high)
        row = next((r for r in rows if r["low"] <= roll <= r["high"]), None)
        if row is None:
            self.emit("encounter", roll=roll, text=None, foes=[])
            return "over"
        foes: list[Foe] = []
        for group in row["groups"]:
            try:
                count = max(0, self.dice.total(group["count"]))
            except DiceError:
                count = 1
            foes.extend(foes_from(self.block(group["creature"]), group["name"], count))
        if not self.skip("encounter"):
            self.emit("encounter", roll=roll, text=row["text"], foes=[f.name for f in foes])
        known = [f for f in foes if f.creature is not None]
        if len(known) < len(foes):
            names = sorted({f.name.rstrip(" 0123456789") for f in foes if f.creature is None})
            self.emit("manual", text=f"No stat block for {', '.join(names)}: adjudicate them yourself.")
        if not known:
            return "over"
        return self.rules.encounter(self, known, row["text"])

    # --- decisions at an entry ------------------------------------------------------------------

    def _decide(self) -> None:
        key: str | None = None
        blind = getattr(self.player, "blind_menu", None)
        if blind is not None and not self.reads("decision"):
            # A player that answers a menu by picking among its ways on (the random policy), and
            # nobody reads the decision: no option or question made, only the ways' keys.
            moves = menu.moves(self)
            n: int | None = blind(max(1, len(moves)), self)
            if n is not None:
                if not 0 <= n < max(1, len(moves)):
                    raise RunEnded("stopped", f"no answer to 'Entry {self.state.entry}'")
                self.state.events += 1  # the decision event, which no sink reads
                key = moves[n] if moves else "wait"
        if key is None:
            key = self.ask(menu.build(self)).key
        kind, _, arg = key.partition(":")
        if kind == "choice":
            self._choice(int(arg))
        elif kind == "exit":
            x = self.entry["exits"][int(arg)]
            self.go(x["target"], x["kind"])
        elif kind in ("return", "back"):
            self.go(int(arg), kind)
        elif kind == "wait":
            self.spend_turn("wait")
        elif kind == "rest":
            why = self.rules.rest(self)
            if why:
                self.emit("refused", what="rest", why=why)
        elif kind == "oracle":
            self.oracle(None, "a question of your own")
        elif kind == "adjust":
            menu.adjust(self, self.player.text(menu.ADJUST_HELP, self))
        elif kind == "leave":
            raise RunEnded("escaped", "left by the entrance")
        elif kind == "quit":
            raise RunEnded("stopped", "quit by the player")

    def _choice(self, index: int) -> None:
        here = self.state.entry
        c = self.entry["choices"][index]
        label = c["label"]
        condition = c.get("condition")
        if condition is not None and not self.holds(condition):
            self.emit("refused", what=f"take '{label}'", why=f"it needs {conditions.needs(condition)}")
            return
        if "changes" in c and c["error"] is None:  # ``(D0, S37, -3 coins)``: applied as it is taken
            taken = f"{here}:choice:{index}"  # (its ``once`` effects: the first time it is taken)
            self._possessions(c["changes"], taken not in self.state.looted)
            self.state.looted.add(taken)
        if c.get("roll") is not None and c["error"] is None:
            self._random(c)
            return
        if c["error"] is not None or c["difficulty"] is None or c["success"] is None:
            raise RunEnded("cannot-continue", f"entry {here}: the choice '{label}' {c['text']} is malformed"
                           + (f" ({c['error']})" if c["error"] else ""))
        plans = self.rules.plans(c["difficulty"])
        if plans is None:
            raise RunEnded("cannot-continue", f"entry {here}: '{label}' asks for D{c['difficulty']}, "
                           f"which {self.rules.title} does not have")
        plan = plans[0] if len(plans) == 1 else menu.ask_plan(self, c, plans)
        ability = c["ability"]
        if "check" in plan and ability not in self.rules.abilities:
            if ability is not None:
                self.emit("manual", text=f"'{ability}' is not a {self.rules.title} ability: choose one.")
            ability = self.choose_ability(c["difficulty"], label)
        ok = True
        for need in plan:
            if need == "turn" and not self.spend_turn("action"):
                return
            if need == "gear":
                ok = self.use_gear(label)
            if need == "check":
                assert ability is not None
                ok = self.rules.check(self, ability, c["difficulty"], label)
            if not ok:
                break
        if plan and not self.skip("action"):
            self.emit("action", label=label, plan=list(plan), success=ok)
        target = c["success"] if ok else c["failure"]
        if target is None:
            raise RunEnded("cannot-continue", f"entry {here}: '{label}' failed and the book gives no failure entry")
        self.last_plan = tuple(plan)
        self.go(target, "success" if ok else "failure")

    def _random(self, c: Choice) -> None:
        """A random branch: roll the stated dice and take the branch whose range holds the total."""
        roll_spec = c["roll"]
        try:
            roll = self.dice.roll(f"{roll_spec['count']}d{roll_spec['sides']}")
        except DiceError:
            raise RunEnded("cannot-continue", f"entry {self.state.entry}: '{c['label']}' asks for "
                           f"{roll_spec['dice']}, which cannot be rolled") from None
        self.emit("roll", dice=roll.expr, rolls=list(roll.dice), total=roll.total, why=c["label"])
        branch = next((b for b in roll_spec["branches"] if b["low"] <= roll.total <= b["high"]), None)
        if branch is None:
            raise RunEnded("cannot-continue", f"entry {self.state.entry}: '{c['label']}' rolled {roll.total}, "
                           "which no branch covers")
        self.go(branch["target"], "random")

    def choose_ability(self, difficulty: int | None, why: str) -> str:
        d = difficulty or 1
        opts = tuple(
            Option(a, a, self.rules.check_text(self.pc, a, d), chance=self.rules.check_chance(self.pc, a, d))
            for a in self.rules.abilities
        )
        return self.ask(Question(ABILITY, f"Which ability for '{why}'?", opts)).key

    def use_gear(self, why: str) -> bool:
        names = tuple(dict.fromkeys([i.name for i in self.pc.items if i.quantity > 0 and i.kind != "treasure"]))
        opts = _gear_options(names)
        n = self.pick(GEAR, len(opts))
        pick = self.ask(Question(GEAR, f"Which gear do you use for '{why}'?", opts, {"why": why})) if n is None else (
            opts[n])
        if pick.key == "none":
            self.emit("gear", item=None, appropriate=False)
            return False
        item = pick.label
        answer = self.ask(Question(GEAR_OK, f"Is the {item} appropriate for '{why}'?", _YES_NO_ORACLE,
                                   {"why": why, "item": item}))
        ok = self.oracle(None, f"Is the {item} appropriate?") if answer.key == "oracle" else answer.key == "yes"
        self.emit("gear", item=item, appropriate=ok)
        self.rules.gear_used(self, item)
        return ok


#: The lowest and highest roll of the encounter tables played last: (the rows, their number, low, high).
_RANGES: list[tuple[list[Any], int, int, int]] = []


def _table_range(rows: list[Any]) -> tuple[int, int]:
    """The lowest and highest roll on an encounter table, once per table while it is not changed."""
    for known in _RANGES:
        if known[0] is rows and known[1] == len(rows):
            return known[2], known[3]
    low, high = min(r["low"] for r in rows), max(r["high"] for r in rows)
    _RANGES.insert(0, (rows, len(rows), low, high))
    del _RANGES[4:]
    return low, high


#: Yes, no, or the Oracle decides: made once (options are immutable).
_YES_NO_ORACLE = (Option("yes", "Yes"), Option("no", "No"), Option("oracle", "Ask the Oracle"))


@lru_cache(maxsize=1024)
def _gear_options(names: tuple[str, ...]) -> tuple[Option, ...]:
    """The gear to choose from, once per list of names."""
    return (*(Option(f"gear:{n}", name) for n, name in enumerate(names)), Option("none", "Nothing suitable"))
