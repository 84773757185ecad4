"""What a reader can hold where: an exploration of (entry, possessions) states for lint.

A book with state (``[+stone key]``, ``(D0, S21, if stone key)``, ``(roll d6, ...)``; see
"State" in ``docs/format.md``) is explored breadth first from the start entry, a state being
the entry the reader is at and what they hold there, after the entry's effects. What this
module promises, and how:

- **Universal facts** — "this gate never opens", "this entry is reached only through gates that
  never open", "this condition holds on every route", "no victory can be reached" — come from an
  exploration that contains every state a real reader can be in (an *over*-approximation):
  each count is kept exactly up to the largest amount any condition or loss of it names
  (``cap``), and as "more than that" above it; taking some away from "more than" may leave any
  amount from ``cap + 1 - k`` up, and every one of those is explored. Only possessions some
  condition tests or some loss takes are kept at all; the others change nothing a gate sees.
- **Existential facts** — a soft lock, a loss the reader may not be able to pay — are reported
  only with a witness route that has been replayed with exact counts from the start: the route
  is real whatever the exploration over-approximated.
- Past :data:`BUDGET` states, the exploration stops and a coarser over-approximation takes
  over (per entry, the set of amounts each possession may have, independently of the others):
  it still proves the universal facts it can, reports no existential ones, and the lint
  summary says so.

What a route is: the choices in notation (a D0 move, either outcome of a check, every branch
of a random branch), prose exits (always open: a condition written in prose is not read), and
"return to your most recent entry" (back to the entry the route came from when that entry
leads here, else to any entry that does: what ``dtc play`` offers). An ending
stops the route, as it stops ``dtc play``. A route never goes back by fleeing a wandering
encounter or through the play menu's "go back" from a dead end: those are moves of the
runtime, not of the book. Checks are taken to be able to go either way, and a fight to be
won or lost, for some reader.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from math import gcd
from typing import Any

from dtc.compiler.compile import Resolved
from dtc.compiler.model import Document, Entry, StateChange
from dtc.compiler.notation import All, AnyOf, Change, Cond, Has, Not, cond_names
from dtc.diagnostics import Span, Step
from dtc.lint.analysis import _SALVAGE, Analysis
from dtc.lint.explore import Kind, Layout, Room, Way, explore

#: States explored before the exploration gives way to the coarser over-approximation.
BUDGET = 500_000

#: A state found by the exploration: its index in :attr:`dtc.lint.explore.Exploration.nodes`
#: (the entry, what is held there after its effects, and where the route came from when the
#: entry returns to it).
Node = int


@dataclass(slots=True)
class Move:
    """A way out of an entry: a choice (``choice`` its index) or a prose exit (``choice`` None)."""

    choice: int | None
    cond: Cond | None
    #: (target entry number, what led there, which outcome): worked out in words and positions
    #: only for a witness (see :func:`_described`), since reading a label costs.
    outcomes: list[tuple[int, Any, str]]
    #: What taking it does (a choice's effects, ``(D0, S37, -3 coins)``), in order.
    changes: list[StateChange] = field(default_factory=list)


@dataclass(slots=True)
class Place:
    """What the exploration needs of one entry."""

    index: int
    number: int
    entry: Entry
    changes: list[tuple[int, int, StateChange]]
    moves: list[Move]
    returns: bool
    #: Where "return to your most recent entry" may lead: every entry with an exit into this one.
    return_targets: list[int]
    #: It holds notation that does not parse: what it offers is not known exactly.
    uncertain: bool


@dataclass(slots=True)
class GateFacts:
    """What the exploration saw of one gated choice at a reached entry."""

    opened: Node | None = None
    closed: Node | None = None


def _compile_packed(cond: Cond, slot: dict[str, int], unit: dict[str, int], layout: Layout) -> Callable[[int], bool]:
    """A condition as a test of packed values (:class:`dtc.lint.explore.Layout`)."""
    if isinstance(cond, Has):
        i = slot[cond.name]
        off, mask, n = layout.off[i], (1 << layout.width[i]) - 1, cond.count // unit[cond.name]
        return lambda v: (v >> off) & mask >= n
    if isinstance(cond, Not):
        inner = _compile_packed(cond.arg, slot, unit, layout)
        return lambda v: not inner(v)
    parts = [_compile_packed(a, slot, unit, layout) for a in cond.args]
    if isinstance(cond, All):
        return lambda v: all(p(v) for p in parts)
    return lambda v: any(p(v) for p in parts)


def evaluate(cond: Cond, held: dict[str, int]) -> bool:
    """A condition over exact counts (names absent count zero)."""
    if isinstance(cond, Has):
        return held.get(cond.name, 0) >= cond.count
    if isinstance(cond, Not):
        return not evaluate(cond.arg, held)
    if isinstance(cond, All):
        return all(evaluate(a, held) for a in cond.args)
    assert isinstance(cond, AnyOf)
    return any(evaluate(a, held) for a in cond.args)


def held_text(held: dict[str, int]) -> str:
    """``holding 5 coins and the stone key`` / ``holding nothing``."""
    items = [name if n == 1 else f"{n} {name}" for name, n in sorted(held.items()) if n > 0]
    return "holding " + (", ".join(items) if items else "nothing")


def book_has_state(entries: Iterable[Entry]) -> bool:
    """Whether any entry has an effect, an ending kind, a condition or a random branch (else
    there is no state to explore)."""
    for e in entries:  # plain loops: a large book's hundreds of thousands of choices
        if e.changes or e.ending_kind:
            return True
        for c in e.choices:
            if c.condition is not None or c.roll is not None:
                return True
    return False


class StateAnalysis:
    """The (entry, possessions) exploration of one book; see the module's documentation."""

    def __init__(self, doc: Document, res: Resolved, analysis: Analysis, has_state: bool | None = None) -> None:
        self.doc = doc
        self.res = res
        self.analysis = analysis
        #: Set when the exploration passed its budget: the note the lint summary prints.
        self.approximated: str | None = None
        self.has_state = book_has_state(doc.entries) if has_state is None else has_state
        #: Entry number -> the nodes reached there (explicit exploration only).
        self.reached: dict[int, list[Node]] = {}
        #: (entry number, choice index) -> what its gate did, for gated choices at reached entries.
        self.gates: dict[tuple[int, int], GateFacts] = {}
        #: (entry number, index of the change in the entry) -> (node before, move, outcome) of the
        #: first route found on which the loss may not be paid.
        self.unpaid: dict[tuple[int, int], tuple[Node, Way | None, int]] = {}
        #: Entry number -> the first node where every exit is closed.
        self.locked: dict[int, Node] = {}
        #: Entry numbers reached at all (by either method).
        self.reached_numbers: set[int] = set()
        if self.has_state and analysis.start_exists:
            self._prepare()
            if not self._explore():
                self._coarse()

    # --- preparing the book ------------------------------------------------------------------

    @cached_property
    def given(self) -> dict[str, StateChange]:
        """Possession -> the first effect that gives it."""
        out: dict[str, StateChange] = {}
        for ch in self.all_changes:
            if ch.amount > 0:
                out.setdefault(ch.name, ch)
        return out

    @cached_property
    def all_changes(self) -> list[StateChange]:
        """Every effect in the book: entries' and choices', in file order."""
        expanded = self.doc.expanded
        return [ch for e in self.doc.entries
                for ch in expanded([*e.changes, *(x for c in e.choices for x in c.changes)])]

    @cached_property
    def scores(self) -> frozenset[str]:
        """The names conditions read that are the adventurer's scores (:attr:`Document.scores`)."""
        return self.doc.scores

    @cached_property
    def tested(self) -> dict[str, Span]:
        """Possession -> where a condition first names it."""
        out: dict[str, Span] = {}
        for e in self.doc.entries:
            for c in e.choices:
                if c.condition is not None:
                    for name in cond_names(c.condition, self.scores):
                        out.setdefault(name, c.condition_span or c.span)
        return out

    @cached_property
    def lost(self) -> dict[str, StateChange]:
        out: dict[str, StateChange] = {}
        for ch in self.all_changes:
            if ch.amount < 0 and not _picks(ch):
                out.setdefault(ch.name, ch)
        return out

    @cached_property
    def held(self) -> dict[str, int]:
        """What the reader holds before the first entry, of the names the book's conditions and
        losses read: the kit's rope in a Death & Treasure book that asks ``if rope`` (one
        inventory, as ``dtc play`` counts it; :func:`dtc.systems.kit_holdings_of`)."""
        return self._start[0]

    @cached_property
    def overfull(self) -> dict[str, int]:
        """Containers with ``(choose)`` that what the reader starts with fills past the limit, and
        by how much: the start entry may first drop any of what they hold (:meth:`_prepare`)."""
        return self._start[1]

    @cached_property
    def _start(self) -> tuple[dict[str, int], dict[str, int]]:
        from dtc.systems import kit_holdings_of

        held = kit_holdings_of(self.doc.rules, set(self.tested) | set(self.lost))
        limited = self.doc.limited
        kit = kit_holdings_of(self.doc.rules, set(limited)) if limited else {}
        totals = {box: sum(kit.get(m, 0) for m in members) for box, members in self.doc.containers.items()}
        overfull: dict[str, int] = {}
        for name, count in self.doc.start_with:  # ``Start with:`` (docs/format.md)
            held[name] = held.get(name, 0) + count
            if name in limited:  # a container's limit, as play's first page applies it
                box, limit, chosen = limited[name]
                totals[box] += count
                over = totals[box] - limit
                if over > 0 and chosen:
                    overfull[box] = max(overfull.get(box, 0), over)
                elif over > 0:
                    cut = min(count, over)
                    held[name] -= cut
                    totals[box] -= cut
        return held, overfull

    def _prepare(self) -> None:
        caps: dict[str, int] = {}
        unit: dict[str, int] = {}

        def widen(name: str, n: int) -> None:
            caps[name] = max(caps.get(name, 0), n)

        scores = self.scores
        #: ``[-1 item of choice]`` may take one of anything: every count is then kept one by one.
        self.picks = any(_picks(ch) for ch in self.all_changes)
        for ch in self.all_changes:
            if (ch.change is not None and ch.change.all) or _picks(ch):
                continue  # every one, or one of the reader's choice: no amount to count in
            for a in amounts(ch):
                unit[ch.name] = gcd(unit.get(ch.name, 0), abs(a))
                if a < 0:
                    widen(ch.name, -a)
        for e in self.doc.entries:
            for c in e.choices:
                if c.condition is not None:
                    for atom in _atoms(normal(c.condition)):
                        if atom.name in scores:
                            continue
                        unit[atom.name] = gcd(unit.get(atom.name, 0), atom.count)
                        widen(atom.name, atom.count)
        for name, count in self.held.items():  # the kit's counts, in the same units
            if name in unit:
                unit[name] = gcd(unit[name], count)
        limits = {n: k for n, k in self.doc.limits.items() if n in caps or n in self.lost}
        for name, limit in limits.items():  # ``Limits:``: kept exactly, up to the limit (a gain past it is lost)
            unit[name] = gcd(unit.get(name, 0), limit)
        lost = set(self.lost)
        for n in lost:  # a loss of every one (``[-all coins]``) names no amount: it is still tracked
            caps.setdefault(n, 0)
        self.names = sorted(caps)
        self.slot = {name: i for i, name in enumerate(self.names)}
        #: Counts are kept in units of the greatest common divisor of every amount that names
        #: them (coins gained and spent in tens are counted in tens): the same facts, fewer states.
        limited = self._limited = self.doc.limited  # a container's limit: its possessions counted one by one
        self._containers = self.doc.containers
        expanded = self.doc.expanded if self._containers else None  # ([-all backpack]: each it holds)
        self.unit = {name: 1 if self.picks or name in limited else unit.get(name) or 1 for name in self.names}
        #: A count above ``cap`` is kept as ``cap + 1``, "more than cap", for what can be lost.
        #: (A possession nothing takes away never needs "more than": its count only grows.)
        self.top = [limits[n] // self.unit[n] if n in limits else max(1, caps[n] // self.unit[n]) + (n in lost)
                    for n in self.names]
        #: Possessions kept as "more than" above their top: those that can be lost and have no limit.
        self.more = {n for n in lost if n not in limits}
        #: (entry number, choice index) of gates that read a score: open for some reader, closed for another.
        self.unknown_gates: set[tuple[int, int]] = set()
        res = self.res
        by_number = res.by_number
        self.places: dict[int, Place] = {}
        for number, i in by_number.items():
            entry = self.doc.entries[i]
            changes = self._placed(expanded(entry.changes) if expanded is not None else entry.changes)
            if number == self.res.start and self.overfull:
                changes = self._dropped_first() + changes  # (the reader drops what they choose first)
            moves: list[Move] = []
            uncertain = False
            for ci, c in enumerate(entry.choices):
                if c.error is not None:
                    uncertain = True
                    outcomes: list[tuple[int, Any, str]] = [
                        (int(m), c, "malformed") for m in _SALVAGE.findall(c.text) if int(m) in by_number]
                    moves.append(Move(ci, None, outcomes))
                    continue
                outcomes = []
                if c.roll is not None:
                    for b in c.roll.branches:
                        t = res.target_number(b.target)
                        if t is not None:
                            outcomes.append((t, (c, b), "random"))
                else:
                    for target, how in ((c.success, "success"), (c.failure, "failure")):
                        t = None if target is None else res.target_number(target)
                        if t is not None:
                            outcomes.append((t, c, how))
                cond = None if c.condition is None else normal(c.condition)
                if cond is not None and reads_score(cond, scores):
                    cond = None  # a score: open for some reader (its gate is judged neither way)
                    self.unknown_gates.add((number, ci))
                move = Move(ci, cond, outcomes, expanded(list(c.changes)) if expanded is not None else list(c.changes))
                moves.append(move)
            for p in entry.prose_exits:
                t = res.target_number(p.target)
                if t is not None:
                    moves.append(Move(None, None, [(t, p, "prose")]))
            back = list(dict.fromkeys(x.target for x in res.exits[i] if x.kind == "return" and
                                      isinstance(x.target, int) and x.target in by_number))
            self.places[number] = Place(i, number, entry, changes, moves, bool(entry.returns), back, uncertain)

    # --- the explicit exploration -------------------------------------------------------------

    def _explore(self) -> bool:
        """Breadth first over the states (:func:`dtc.lint.explore.explore`); False when the
        budget ran out (what was found up to then is kept: its routes are real)."""
        start = self.res.start
        assert start is not None
        numbers = list(self.places)
        room_of = {n: r for r, n in enumerate(numbers)}
        layout = Layout.of(self.top, [n in self.more for n in self.names], exact=False)
        self.layout = layout
        rooms: list[Room] = []
        for number in numbers:
            place = self.places[number]
            ways: list[Way] = []
            cond_reads = 0
            for move in place.moves:
                test = None
                if move.cond is not None:
                    test = _compile_packed(move.cond, self.slot, self.unit, layout)
                    for name in cond_names(move.cond):
                        cond_reads |= 1 << self.slot[name]
                way_changes = [(i, a, ch) for i, a, ch in self._placed(move.changes) if i >= 0]
                ways.append(Way(move, tuple(room_of[t] for t, _, _ in move.outcomes), test,
                                tuple((i, a) for i, a, _ in way_changes),
                                tuple(kind_of(ch, self.unit.get(ch.name, 1)) for _, _, ch in way_changes)))
            changes = tuple((i, a) for i, a, _ in place.changes if i >= 0)
            kinds = tuple(kind_of(ch, self.unit.get(ch.name, 1)) for i, _, ch in place.changes if i >= 0)
            loss_reads = 0
            for i, a, ch in place.changes:
                if i >= 0 and a < 0 and not (ch.change is not None and (ch.change.if_held or ch.change.all
                                                                         or ch.change.pick)):
                    loss_reads |= 1 << i
            # an entry that says "return" but has no entry leading in keeps no memory of where from
            back = tuple(room_of[t] for t in place.return_targets) if place.returns else ()
            rooms.append(Room(number, changes, ways, bool(place.entry.ending), back, cond_reads, loss_reads,
                              kinds if any(k is not None for k in kinds) else ()))
        # change indices in the Room skip untracked changes: map them back to the entry's
        self._change_index = {
            number: [k for k, (i, _, _) in enumerate(self.places[number].changes) if i >= 0] for number in numbers}
        held = layout.pack([self.held.get(n, 0) // self.unit[n] for n in self.names])  # (pack keeps each to its top)
        ex = explore(rooms, room_of[start], layout, budget=BUDGET, gated_facts=True, held=held)
        self.ex = ex
        self.numbers = numbers
        reached = self.reached
        for i in range(len(ex.nodes)):
            reached.setdefault(numbers[ex.room_of(i)], []).append(i)
        for (r, wi), (opened, closed) in ex.gates.items():
            tag = rooms[r].ways[wi].tag
            assert isinstance(tag, Move) and tag.choice is not None
            self.gates[(numbers[r], tag.choice)] = GateFacts(opened, closed)
        for (r, k), link in ex.unpaid.items():
            self.unpaid[(numbers[r], self._change_index[numbers[r]][k])] = link
        for r, i in ex.locked.items():
            self.locked[numbers[r]] = i
        self.reached_numbers = set(reached)
        return ex.complete

    # --- the coarse over-approximation ---------------------------------------------------------

    def _coarse(self) -> None:
        """Per entry, the set of amounts each possession may have, independently: a fixpoint.

        The sets are packed into one integer per entry, one bit per amount of each possession
        (bit ``off[i] + a`` is set when possession ``i`` may be ``a``): joining two is one ``|``."""
        self.approximated = (
            f"the state analysis passed {BUDGET:,} states: gates that never open (or always open) and entries "
            "gated off are proved by a coarser approximation, and soft locks and unpaid losses are reported only "
            f"where they show within the first {BUDGET:,} states explored (others may exist)"
        )
        self.coarse_gates: dict[tuple[int, int], tuple[bool, bool]] = {}
        self.off = []
        at = 0
        for top in self.top:
            self.off.append(at)
            at += top + 1
        start = self.res.start
        assert start is not None
        zero = sum(1 << (o + min(self.held.get(n, 0) // self.unit[n], top))
                   for o, n, top in zip(self.off, self.names, self.top, strict=True))
        state: dict[int, int] = {start: self._arrive_packed(self.places[start], zero)}
        work = deque([start])
        queued = {start}
        gates = self.coarse_gates
        while work:
            number = work.popleft()
            queued.discard(number)
            place = self.places[number]
            packed = state[number]
            if place.entry.ending:
                continue
            targets: list[tuple[int, int]] = []
            for move in place.moves:
                if move.cond is not None:
                    assert move.choice is not None
                    may_true, may_false = self._possible(move.cond, packed)
                    old = gates.get((number, move.choice), (False, False))
                    gates[(number, move.choice)] = (old[0] or may_true, old[1] or may_false)
                    if not may_true:
                        continue
                taken = self._apply_packed([(i, ch) for i, _, ch in self._placed(move.changes)],
                                           packed) if move.changes else packed
                targets.extend((t, taken) for t, _, _ in move.outcomes)
            targets += [(t, packed) for t in place.return_targets]
            for target, before in targets:
                arrived = self._arrive_packed(self.places[target], before)
                old_packed = state.get(target)
                merged = arrived if old_packed is None else old_packed | arrived
                if merged != old_packed:
                    state[target] = merged
                    if target not in queued:
                        queued.add(target)
                        work.append(target)
        self.reached_numbers = set(state)

    def _placed(self, changes: Iterable[StateChange]) -> list[tuple[int, int, StateChange]]:
        """Changes as the exploration takes them: (slot, amount in its units, the change); -1 for
        a possession nothing reads. ``[-1 item of choice]`` is a loss that may fall on any one
        possession kept (one entry per possession, each of which may apply or not)."""
        out: list[tuple[int, int, StateChange]] = []
        limited = self._limited
        for ch in changes:
            if _picks(ch):
                source = ch.change.source if ch.change is not None else None
                among = self._containers.get(source, ()) if source is not None else self.names
                out += [(i, ch.amount, ch) for i, name in enumerate(self.names) if name in among]
            elif ch.amount > 0 and ch.name in limited:
                out += self._fitted(ch, *limited[ch.name])
            else:
                out.append((self.slot.get(ch.name, -1), ch.amount // self.unit.get(ch.name, 1), ch))
        return out

    def _dropped_first(self) -> list[tuple[int, int, StateChange]]:
        """What a reader who starts with more than a ``(choose)`` container holds may drop before
        the first page's effects: any of its possessions, up to as many as it is over (each may
        apply or not: an over-approximation)."""
        out: list[tuple[int, int, StateChange]] = []
        span = Span(1, 1, 1, 1)
        for box, over in self.overfull.items():
            for m in self._containers[box]:
                i = self.slot.get(m, -1)
                if i >= 0:
                    dropped = Change(m, -1, 0, 0, if_held=True, may=True, dice=f"1d{over}")
                    out.append((i, -1, StateChange(m, -1, span, dropped)))
        return out

    def _fitted(self, ch: StateChange, container: str, limit: int, chosen: bool) -> list[tuple[int, int, StateChange]]:
        """A gain of a possession whose container has a limit, over-approximated: what the gain
        brings past the limit is lost, so any amount from none to all of it may be gained; where
        the reader chooses what to drop, any possession of the container may then lose as much
        (each such change may apply or not, so a witness through it is not offered)."""
        c = ch.change
        most = max(amounts(ch)) if c is not None else ch.amount
        if most <= 0:
            return [(self.slot.get(ch.name, -1), ch.amount, ch)]
        gained = Change(ch.name, 1, ch.span.column, ch.span.column, once=c is not None and c.once, may=True,
                        dice=f"1d{most}")
        out = [(self.slot.get(ch.name, -1), 1, StateChange(ch.name, 1, ch.span, gained))]
        if chosen:
            for m in self._containers[container]:
                i = self.slot.get(m, -1)
                if i >= 0:
                    dropped = Change(m, -1, ch.span.column, ch.span.column, if_held=True, may=True, dice=f"1d{most}")
                    out.append((i, -1, StateChange(m, -1, ch.span, dropped)))
        return out

    def _arrive_packed(self, place: Place, packed: int) -> int:
        return self._apply_packed([(i, ch) for i, _, ch in place.changes], packed)

    def _apply_packed(self, changes: Iterable[tuple[int, StateChange]], packed: int) -> int:
        """The sets of amounts after ``changes`` (an entry's or a choice's, each with its slot):
        each amount a change may be, and not applying it where it may not apply, joined."""
        for i, ch in changes:
            if i < 0:
                continue
            off, top, unit = self.off[i], self.top[i], self.unit[self.names[i]]
            whole = (1 << (top + 1)) - 1
            field = (packed >> off) & whole
            kind = kind_of(ch, unit)
            if kind is None:
                new = _field_after(field, ch.amount // unit, top)
            else:
                maybe, mode, steps, _, _ = kind
                new = field if maybe else 0
                if mode == "all":
                    new |= 1
                else:
                    for a in steps:
                        new |= _field_after(field, a, top)
            packed = (packed & ~(whole << off)) | (new << off)
        return packed

    def _possible(self, cond: Cond, packed: int) -> tuple[bool, bool]:
        """(may be true, may be false) over the packed sets: an over-approximation of both."""
        if isinstance(cond, Has):
            i = self.slot[cond.name]
            field = (packed >> self.off[i]) & ((1 << (self.top[i] + 1)) - 1)
            n = cond.count // self.unit[cond.name]
            return field >> n != 0, field & ((1 << n) - 1) != 0
        if isinstance(cond, Not):
            t, f = self._possible(cond.arg, packed)
            return f, t
        results = [self._possible(a, packed) for a in cond.args]
        if isinstance(cond, All):
            return all(t for t, _ in results), any(f for _, f in results)
        return any(t for t, _ in results), all(f for _, f in results)

    @staticmethod
    def _returns(place: Place, prev: int | None) -> list[int]:
        """Where "return to your most recent entry" leads, as ``dtc play`` offers it: back where
        the route came from when that entry leads here, else to any entry that does."""
        if not place.returns:
            return []
        return [prev] if prev in place.return_targets else place.return_targets

    # --- what the rules ask ---------------------------------------------------------------------

    @cached_property
    def open_reached(self) -> set[int]:
        """Entries a route reaches when every gate is taken to be open (endings stop a route,
        a return goes back where the route came from): what would be reached but for the gates."""
        if not self.has_state or not self.analysis.start_exists:
            return set()
        start = self.res.start
        assert start is not None
        seen: set[tuple[int, int | None]] = {(start, None)}
        queue = deque(seen)
        while queue:
            number, prev = queue.popleft()
            place = self.places[number]
            if place.entry.ending:
                continue
            targets = [t for m in place.moves for t, _, _ in m.outcomes]
            targets += self._returns(place, prev)
            for t in targets:
                nxt = (t, number if self.places[t].returns else None)
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return {n for n, _ in seen}

    @property
    def exact(self) -> bool:
        return self.approximated is None

    def gate(self, number: int, choice: int) -> tuple[bool, bool] | None:
        """(may open, may stay closed) for a gated choice at a reached entry; None when its entry
        is never reached. A gate that reads a score may do either, for some reader."""
        if (number, choice) in getattr(self, "unknown_gates", ()):
            return (True, True) if number in self.reached_numbers else None
        if self.exact:
            facts = self.gates.get((number, choice))
            if facts is None:
                return None
            return facts.opened is not None, facts.closed is not None
        return getattr(self, "coarse_gates", {}).get((number, choice))

    def _step_of(self, way: Way | None, o: int, at: Place) -> tuple[Move | None, int]:
        """The move a link of the exploration took from ``at``, as the witness words it."""
        if way is None:
            return None, -1
        if isinstance(way.tag, Move):
            return way.tag, o
        return Move(None, None, [(self.numbers[t], at.entry, "return") for t in way.targets]), o

    def route(self, node: Node, then: tuple[Move, int] | None = None) -> list[tuple[Place, Move | None, int]]:
        """The route to ``node`` from the start: (place, move taken there, outcome) per entry."""
        ex = self.ex
        steps: list[tuple[Place, Move | None, int]] = []
        here = self.places[self.numbers[ex.room_of(node)]]
        if then is not None:
            steps.append((here, then[0], then[1]))
        else:
            steps.append((here, None, -1))
        link = ex.parent[node]
        while link is not None:
            prev, way, o = link
            at = self.places[self.numbers[ex.room_of(prev)]]
            move, o = self._step_of(way, o, at)
            steps.append((at, move, o))
            link = ex.parent[prev]
        steps.reverse()
        return steps

    def replay(self, steps: list[tuple[Place, Move | None, int]]) -> Iterator[tuple[Place, dict[str, int], list[int]]]:
        """Walk a route with exact counts: yields each place, what is held after its effects, and
        the changes that could not be paid; stops early when a gate on the route is closed."""
        limits = self.doc.limits
        held: dict[str, int] = {n: min(k, limits.get(n, k)) for n, k in self.held.items()}
        visits: dict[int, int] = {}
        for place, move, _ in steps:
            unpaid = []
            visits[place.number] = visits.get(place.number, 0) + 1
            for k, (_, _, ch) in enumerate(place.changes):
                if uncertain(ch):
                    return  # the reader's choice or a roll: the route is not followed exactly
                if ch.change is not None and ch.change.once and visits[place.number] > 1:
                    continue
                amount = ch.amount
                cur = held.get(ch.name, 0)
                if ch.change is not None and (ch.change.all or ch.change.if_held):
                    amount = -cur if ch.change.all else max(amount, -cur)
                if amount < 0 and cur < -amount:
                    unpaid.append(k)
                held[ch.name] = min(max(0, cur + amount), limits.get(ch.name, cur + amount))
            yield place, dict(held), unpaid
            if move is not None and move.cond is not None and not evaluate(move.cond, held):
                return
            for ch in move.changes if move is not None else ():
                if uncertain(ch):
                    return
                if ch.change is not None and ch.change.once and visits[place.number] > 1:
                    continue
                cur = held.get(ch.name, 0)
                amount = -cur if ch.change is not None and ch.change.all else ch.amount
                held[ch.name] = min(max(0, cur + amount), limits.get(ch.name, cur + amount))

    def witness(self, steps: list[tuple[Place, Move | None, int]]) -> tuple[Step, ...]:
        out = []
        for place, move, o in steps:
            if move is None or o < 0:
                out.append(Step(place.number, "", place.entry.span))
            else:
                _, source, kind = move.outcomes[o]
                out.append(Step(place.number, *_described(source, kind)))
        return tuple(out)

    def route_to(self, number: int) -> tuple[Step, ...] | None:
        """The shortest route found to an entry (None when it is not reached, or not known exactly)."""
        nodes = self.reached.get(number)
        if not nodes:
            return None
        return self.witness(self.route(nodes[0]))

    def closed_route(self, number: int, choice: int) -> tuple[tuple[Step, ...], dict[str, int]] | None:
        """A route to a gated choice on which it is closed, replayed exactly."""
        facts = self.gates.get((number, choice))
        if facts is None or facts.closed is None:
            return None
        steps = self.route(facts.closed)
        walked = list(self.replay(steps))
        if len(walked) != len(steps):
            return None
        return self.witness(steps), walked[-1][1]

    def soft_locks(self) -> Iterator[tuple[int, tuple[Step, ...], dict[str, int]]]:
        """(entry, witness, what is held) for each entry where a real route leaves every exit closed."""
        for number, node in sorted(self.locked.items()):
            if self.places[number].returns or self.places[number].uncertain:
                continue  # a way back, or notation that does not parse: not known to be closed
            steps = self.route(node)
            walked = list(self.replay(steps))
            if len(walked) != len(steps):
                continue
            held = walked[-1][1]
            place = self.places[number]
            if all(m.cond is not None and not evaluate(m.cond, held) for m in place.moves):
                yield number, self.witness(steps), held

    def unpaid_losses(self) -> Iterator[tuple[StateChange, int, tuple[Step, ...], dict[str, int]]]:
        """(the loss, its entry, witness, what was held just before) for each loss a real route
        may not pay."""
        for (number, k), (before, way, o) in sorted(self.unpaid.items(), key=lambda kv: kv[0]):
            place = self.places[number]
            if o < 0:  # at the start entry itself
                steps: list[tuple[Place, Move | None, int]] = [(place, None, -1)]
            else:
                move, o = self._step_of(way, o, self.places[self.numbers[self.ex.room_of(before)]])
                assert move is not None
                steps = self.route(before, (move, o))
                steps.append((place, None, -1))
            walked = list(self.replay(steps))
            if len(walked) != len(steps) or k not in walked[-1][2]:
                continue
            held = dict(walked[-2][1]) if len(walked) > 1 else {}
            yield place.changes[k][2], number, self.witness(steps), held


def _field_after(field: int, amount: int, top: int) -> int:
    """A set of amounts (bit a: the amount a; bit ``top``: "more") after a gain or a loss."""
    whole = (1 << (top + 1)) - 1
    below_top = (1 << top) - 1
    if amount > 0:
        shifted = field << amount
        return (shifted & below_top) | ((1 << top) if shifted >> top else 0)
    k = -amount
    low = field & below_top
    new = low >> k
    if low & ((1 << k) - 1):
        new |= 1  # what could not be paid in full leaves nothing
    if (field >> top) & 1:  # "more than": anything from top - k up
        new |= whole ^ ((1 << max(0, top - k)) - 1)
    return new


def _described(source: Any, kind: str) -> tuple[str, Span]:
    """How a route left an entry, in words, and where that is written."""
    if kind == "prose":
        return source.phrase, source.span
    if kind == "return":
        return "return to your most recent entry", source.returns[0] if source.returns else source.span
    if kind == "random":
        c, b = source
        rolled = str(b.low) if b.low == b.high else f"{b.low}-{b.high}"
        return f"{c.label or c.text}: rolled {rolled}", b.span
    label = source.label or source.text
    if kind == "malformed":
        return f"{label} (malformed)", source.span
    span = (source.success_span if kind == "success" else source.failure_span) or source.span
    return (f"{label}: {kind}" if source.difficulty else label), span


def _atoms(cond: Cond) -> Iterator[Has]:
    if isinstance(cond, Has):
        yield cond
    elif isinstance(cond, Not):
        yield from _atoms(cond.arg)
    else:
        for a in cond.args:
            yield from _atoms(a)



def normal(cond: Cond) -> Cond:
    """A condition with its comparisons written as counts (``gold crowns > 3``: at least 4;
    ``x < 3``: not 3 of x; ``x = 2``: 2 and not 3), as every state engine reads conditions."""
    if isinstance(cond, Has):
        if cond.op == ">=":
            return cond
        n = cond.count
        if cond.op == ">":
            return Has(cond.name, n + 1)
        if cond.op == "<":
            return Not(Has(cond.name, n))
        if cond.op == "<=":
            return Not(Has(cond.name, n + 1))
        return All((Has(cond.name, n), Not(Has(cond.name, n + 1))))
    if isinstance(cond, Not):
        return Not(normal(cond.arg))
    if isinstance(cond, All):
        return All(tuple(normal(a) for a in cond.args))
    return AnyOf(tuple(normal(a) for a in cond.args))


def reads_score(cond: Cond, scores: frozenset[str]) -> bool:
    """Whether a condition reads an adventurer's score (``if CON >= 12``, ``if HP < 5``), which
    no state engine of the book knows: such a gate may be open or closed, for some reader."""
    return any(atom.name in scores for atom in _atoms(cond))


def amounts(ch: StateChange) -> tuple[int, ...]:
    """Every amount a change may be, signed: one for a count, each total times the multiplier
    for a rolled amount (``[+1d10*3 coins]``: 3, 6, ... 30)."""
    c = ch.change
    if c is None or c.dice is None:
        return (ch.amount,)
    count, _, sides = c.dice.partition("d")
    n, k = int(count or 1), int(sides)
    sign = 1 if ch.amount > 0 else -1
    return tuple(sign * total * c.times for total in range(n, n * k + 1))


def kind_of(ch: StateChange, unit: int) -> Kind | None:
    """How the exploration applies a change (:data:`dtc.lint.explore.Kind`); None for a plain one.
    A ``once`` find may apply or not (lint over-approximates it; a witness replays it exactly)."""
    c = ch.change
    if c is None:
        return None
    if c.pick:  # one of the reader's choice: this possession, or another
        return (True, "held", (ch.amount,), -1, ())
    mode = "all" if c.all else "held" if c.if_held else "plain"
    return (c.may or c.once, mode, tuple(a // unit for a in amounts(ch)), -1, ())


def uncertain(ch: StateChange) -> bool:
    """A change a replay cannot follow exactly: the reader's choice (``may``, ``[-1 item of
    choice]``), a roll (``dice``)."""
    return ch.change is not None and (ch.change.may or ch.change.dice is not None or ch.change.pick)


def _picks(ch: StateChange) -> bool:
    """``[-1 item of choice]``: a loss of the reader's choice."""
    return ch.change is not None and ch.change.pick
