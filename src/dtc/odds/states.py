"""The chain over what the reader holds: (entry, possessions) states, explored from the start.

A book that gates a choice on what the reader holds (``(D0, S21, if stone key)``) or that sends
the reader back to "your most recent entry" is not a chain over its entries: what happens at an
entry depends on what came before. Here the chain's states are those of
:mod:`dtc.lint.explore` — the entry, the counts that some later condition reads, and, at an
entry that returns, where the reader came from — explored from the start with exact counts,
the same exploration lint proves its state findings over. A closed choice is not an option; a
state where every way on is closed is *locked* (stuck); back at the entrance after going in,
the reader may leave, as everywhere in the odds.

The result is a :class:`dtc.odds.small.PlainShape` whose states are the explored states (and
the outcomes they end in), so the solvers of :mod:`dtc.odds.small` and :mod:`dtc.odds.chain`
solve it unchanged, and :func:`entry_view` adds their answers up per entry.

Past :data:`BUDGET` states the exploration stops; the states it did not expand end in the
outcome ``unexplored``, so every other outcome's probability is a lower bound and adding the
unexplored probability gives an upper bound (:mod:`dtc.odds.analyze` reports both).
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import gcd
from typing import Any

from dtc.lint.explore import PLACED, Exploration, Kind, Layout, Room, Way, explore
from dtc.odds.options import SURE, Book, Branch, Option
from dtc.odds.small import ESCAPED, PlainShape

#: States explored before the odds give bounds instead of figures.
BUDGET = 500_000
#: A count that can be lost is kept exactly up to this many times the largest amount a condition
#: and a loss of it name together (a loop that gains without end is cut there: bounds).
CEILING = 4
#: The outcome of a state the exploration did not expand (past the budget, or a count too large).
UNEXPLORED = "unexplored"


def needs_states(book: Book) -> bool:
    """Whether the book's chain depends on what came before: a condition on a choice that the
    chain offers, or a "return to your most recent entry" with more than one place to go."""
    for n in book.numbers:
        e = book.entries[n]
        for opt in book.options[n]:
            if opt.choice is not None and e["choices"][opt.choice].get("condition") is not None:
                return True
            if opt.kind == "return" and len(opt.branches) > 1:
                return True
    return False


def normal(cond: Mapping[str, Any], scores: Mapping[str, int] | None = None) -> Mapping[str, Any]:
    """A condition with its comparisons (version 3's ``op``) written as counts: ``x > 3`` is at
    least 4 of x, ``x < 3`` not 3 of x, ``x = 2`` 2 and not 3 (as lint reads them,
    :func:`dtc.lint.state.normal`). A score (``{"score": "CON"}``) is the adventurer's: with the
    reader's ``scores`` (``--abilities``, ``--character``) the gate is open or closed for the whole
    run (``{"all": []}`` or ``{"any": []}``); over every fresh adventurer :class:`ValueError` names it.
    HP changes through a run (damage, healing), which the odds do not follow: its comparisons are
    kept as they are, and :func:`hp_points` and :func:`_hp_test` read them (a gate on HP is open
    or closed at each visit, as the run has it)."""
    if "score" in cond:
        if cond["score"] == "HP":  # changes through a run: kept, for :func:`hp_points` (open or closed by visit)
            return cond
        if scores is not None and cond["score"] in scores:
            from dtc.runtime.conditions import compared

            return {"all": []} if compared(cond["op"], scores[cond["score"]], int(cond["count"])) else {"any": []}
        raise ValueError(f"a condition reads the adventurer's score ({cond['score']} {cond['op']} {cond['count']}): "
                         "which dtc odds follows only for one adventurer (--abilities or --character); dtc simulate "
                         "plays it")
    if "has" in cond:
        op, n, name = cond.get("op", ">="), int(cond["count"]), cond["has"]

        def least(k: int) -> Mapping[str, Any]:  # at least k: always so for none (``coins >= 0``)
            return {"has": name, "count": k} if k > 0 else {"all": []}

        if op == ">=":
            return least(n)
        if op == ">":
            return least(n + 1)
        if op == "<":
            return {"not": least(n)}
        if op == "<=":
            return {"not": least(n + 1)}
        return {"all": [least(n), {"not": least(n + 1)}]}
    if "not" in cond:
        return {"not": normal(cond["not"], scores)}
    key = "all" if "all" in cond else "any"
    return {key: [normal(c, scores) for c in cond[key]]}


def _cond_names(cond: Mapping[str, Any]) -> list[tuple[str, int]]:
    if "score" in cond:  # (HP: not a possession)
        return []
    if "has" in cond:
        return [(str(cond["has"]), int(cond["count"]))]
    if "not" in cond:
        return _cond_names(cond["not"])
    out = []
    for c in cond["all" if "all" in cond else "any"]:
        out.extend(_cond_names(c))
    return out


def hp_points(cond: Mapping[str, Any]) -> tuple[int, ...]:
    """One HP for each way the condition's comparisons on HP can fall together (each number a
    comparison names and those on either side of it; empty when it reads no HP): every HP a
    reader may have at a visit opens the condition as one of these does."""
    if "score" in cond:
        return tuple(int(cond["count"]) + d for d in (-1, 0, 1)) if cond["score"] == "HP" else ()
    if "has" in cond:
        return ()
    if "not" in cond:
        return hp_points(cond["not"])
    return tuple(sorted({h for c in cond["all" if "all" in cond else "any"] for h in hp_points(c)}))


def _hp_test(cond: Mapping[str, Any], slot: dict[str, int], unit: dict[str, int], layout: Layout) -> Any:
    """A condition that reads HP as a test of (the state's packed values, an HP)."""
    if "score" in cond:
        from dtc.runtime.conditions import compared

        op, count = str(cond["op"]), int(cond["count"])
        return lambda v, h: compared(op, h, count)
    if "has" in cond:
        test = _test(cond, slot, unit, layout)
        return lambda v, h: test(v)
    if "not" in cond:
        inner = _hp_test(cond["not"], slot, unit, layout)
        return lambda v, h: not inner(v, h)
    parts = [_hp_test(c, slot, unit, layout) for c in cond["all" if "all" in cond else "any"]]
    if "all" in cond:
        return lambda v, h: all(p(v, h) for p in parts)
    return lambda v, h: any(p(v, h) for p in parts)


def _any_hp(test: Callable[[int, int], bool], points: tuple[int, ...]) -> Callable[[int], bool]:
    """Open at some HP: a gate on HP as the chain counts it (open wherever it may be)."""
    return lambda v: any(test(v, h) for h in points)


def _test(cond: Mapping[str, Any], slot: dict[str, int], unit: dict[str, int], layout: Layout) -> Any:
    if "has" in cond:
        i = slot[cond["has"]]
        off, mask, n = layout.off[i], (1 << layout.width[i]) - 1, -(-int(cond["count"]) // unit[cond["has"]])
        return lambda v: (v >> off) & mask >= n
    if "not" in cond:
        inner = _test(cond["not"], slot, unit, layout)
        return lambda v: not inner(v)
    parts = [_test(c, slot, unit, layout) for c in cond["all" if "all" in cond else "any"]]
    if "all" in cond:
        return lambda v: all(p(v) for p in parts)
    return lambda v: any(p(v) for p in parts)


@dataclass(slots=True)
class StateChain:
    """The explored chain, as the solvers take it, and how its states map back to entries."""

    shape: PlainShape
    exploration: Exploration
    #: Per room (index): its entry number; the last room may be the entrance again (BACK).
    numbers: list[int]
    #: Per room: the book's options in the order of the room's ways.
    options: list[list[Option]]
    #: Per state of the shape that is an explored node: its room (-1 for outcomes).
    state_room: array[int]
    #: Per branch of the shape: (entry number, exit index) it follows, as an index into ``exits`` (-1 none).
    br_exit_code: array[int]
    exits: list[tuple[int, int]]
    #: Per option of the shape: (entry number, choice index) as an index into ``choices`` (-1 none).
    opt_choice_code: array[int]
    choices: list[tuple[int, int]]
    names: list[str]  # tracked possessions
    complete: bool
    units: list[int]  # per tracked possession: the amount one step of its count is
    cyclic: set[int]  # entries on a cycle of the book's graph (:func:`cyclic_entries`)
    #: Per room: whether its states are visits of its entry (False for a room after a decision
    #: the reader made at the entry: the best and worst readers' ``[may ...]``).
    counted: list[bool]
    #: Per way gated on HP (by the way's ``id``): its test of (packed values, HP) and the HPs that
    #: decide it (:func:`hp_points`). Such a way is in the chain wherever some HP opens it.
    hp_ways: dict[int, tuple[Callable[[int, int], bool], tuple[int, ...]]] = field(default_factory=dict)

    @property
    def states(self) -> int:
        return len(self.exploration.nodes)

    def hp_menus(self) -> dict[int, list[tuple[int, ...]]]:
        """Per state where a gate on HP is open at some HP and closed at another: the sets of the
        shape's options (indices) open together at one HP, each once (an empty set: the reader
        stuck there). A state not listed has its options open whatever the HP."""
        ex = self.exploration
        out: dict[int, list[tuple[int, ...]]] = {}
        if not self.hp_ways or ex.edges is None:
            return out
        shape = self.shape
        first = dict(zip(shape.group_state, shape.group_start, strict=True))
        for q, ways in enumerate(ex.edges):
            if q in ex.overflow or not ways:
                continue
            room = ex.rooms[ex.room_of(q)]
            tests = [self.hp_ways.get(id(room.ways[wi])) if wi < len(room.ways) else None for wi, _, _ in ways]
            if not any(tests):
                continue
            v = ex.values_of(q)
            points = sorted({h for t in tests if t is not None for h in t[1]})
            menus = dict.fromkeys(tuple(first[q] + k for k, t in enumerate(tests) if t is None or t[0](v, h))
                                  for h in points)
            if len(menus) > 1:
                out[q] = list(menus)
        return out


def build(book: Book, budget: int | None = None, scores: Mapping[str, int] | None = None,
          take: float | None = 0.5, pick: str | None = "random") -> StateChain:
    """Explore the book's states (at most ``budget``, default :data:`BUDGET`) and lay the chain out
    for the solvers. ``scores``: the reader's, for a gate on a score; ``take``: the chance the
    reader takes what a ``[may ...]`` offers (the random reader 1/2, the likeliest one 1; None for a
    reader who decides, whose choice the odds do not follow there); ``pick``: how the reader
    chooses what a ``[-1 item of choice]`` loses, as play's readers do (``"random"``: one of the
    book's possessions held, each as likely; ``"first"``: the first held by name, as the likeliest
    reader answers a question it does not read; None: a reader who decides, not followed)."""
    budget = BUDGET if budget is None else budget
    if book.start is None:
        raise ValueError("the adventure has no start entry")
    numbers = [n for n in book.numbers]
    room_of = {n: r for r, n in enumerate(numbers)}
    start_opts = [] if book.start in book.endings else book.options[book.start]
    back = -1
    if start_opts:  # arriving at the entrance again: the start entry's options and "leave"
        back = len(numbers)
        numbers.append(book.start)
    # what the conditions read, in units of the greatest common divisor of every amount
    unit: dict[str, int] = {}
    tops: dict[str, int] = {}
    for n in book.numbers:
        e = book.entries[n]
        for opt in book.options[n]:
            cond = e["choices"][opt.choice].get("condition") if opt.choice is not None else None
            if cond is not None:
                for name, count in _cond_names(normal(cond, scores)):
                    unit[name] = gcd(unit.get(name, 0), count)
                    tops[name] = max(tops.get(name, 0), count)
    for name, count in book.held.items():  # what the reader carries in counts in the same units
        if name in unit:
            unit[name] = gcd(unit[name], count)
    lost: dict[str, int] = {}
    pickable, kit = _pickable(book, pick)
    for name in pickable:  # every possession a pick may take is kept exactly, one by one
        unit[name] = 1
        tops[name] = max(tops.get(name, 0), 1)
        lost[name] = max(lost.get(name, 0), 1)
    for n in book.numbers:
        entry_own = len(book.entries[n].get("changes", []))
        for i, ch in enumerate(_changes(book, n)):
            if ch.get("pick"):
                continue
            if ch["name"] in unit:
                _exact_only(ch, n, n == book.start, take, way=i >= entry_own)
                for a in (_rolled(ch) if "dice" in ch else () if ch.get("all") else (int(ch["amount"]),)):
                    unit[ch["name"]] = gcd(unit[ch["name"]], abs(a))
                    if a < 0:
                        lost[ch["name"]] = max(lost.get(ch["name"], 0), -a)
                if ch.get("all") and ch["amount"] < 0:
                    lost.setdefault(ch["name"], 0)
    # A container with a limit (``Containers:``, ``Limits: backpack 8``) whose possessions something
    # reads: every one of them kept exactly, one by one, up to the limit and the most one gain brings.
    boxes = _boxes(book, tops, take, pick)
    capped: dict[str, int] = {}
    for name, (_, limit, _, _) in boxes.items():
        unit[name] = 1
        tops[name] = max(tops.get(name, 0), 1)
        most = max([max(_rolled(ch)) if "dice" in ch else int(ch["amount"]) for n in book.numbers
                    for ch in _changes(book, n) if ch["name"] == name and not ch.get("pick")] + [0])
        capped[name] = max(limit, book.held.get(name, 0)) + most
    limits = {n: k for n, k in book.limits.items() if n in tops}
    for name, limit in limits.items():  # ``Limits:``: kept exactly up to the limit, a gain past it lost
        unit[name] = gcd(unit[name], limit)
    names = sorted(tops)
    slot = {name: i for i, name in enumerate(names)}
    units = [unit[n] for n in names]
    # A count that can be lost is kept exactly: up to all its gains together where no gain of it
    # stands on a loop (it can never be more), else up to CEILING times what the largest condition
    # and the largest loss name together; past it a state is not expanded (bounds, not a guess).
    cyclic = cyclic_entries(book)
    gained: dict[str, int] = {name: count for name, count in book.held.items() if name in lost}
    looped: set[str] = set()
    for n in book.numbers:
        for ch in _changes(book, n):
            if ch["name"] in lost and ch["amount"] > 0:
                gained[ch["name"]] = gained.get(ch["name"], 0) + max(_rolled(ch) if "dice" in ch else [ch["amount"]])
                if n in cyclic:
                    looped.add(ch["name"])

    def ceiling(n: str) -> int:
        if n not in looped:
            return max(1, -(-gained.get(n, 0) // unit[n]))
        return max(CEILING * -(-(tops[n] + lost.get(n, 0)) // unit[n]), book.held.get(n, 0) // unit[n])

    # ``[+once stone key]``: a flag of its own per such change, set when it has applied (exact).
    onces: dict[tuple[int, int, int], int] = {}
    for n in book.numbers:
        e = book.entries[n]
        for ci, c in [(-1, e), *((opt.choice, e["choices"][opt.choice]) for opt in book.options[n]
                                 if opt.choice is not None)]:
            for k, ch in enumerate(c.get("changes", [])):
                if ch.get("once") and ch["name"] in slot:
                    onces.setdefault((n, ci, k), len(names) + len(onces))
    flag_names = [f"once:{n}:{ci}:{k}" for (n, ci, k) in onces]
    # What of a pickable possession the adventurer's kit holds (the kit's rope): a slot of its own,
    # as many as the kit still holds, which play never offers to a pick (its count counts both).
    kit_slot = {name: len(names) + len(onces) + j for j, name in enumerate(sorted(kit))}
    flag_names += [f"kit:{name}" for name in sorted(kit)]
    layout = Layout.of([limits[n] // unit[n] if n in limits else capped[n] if n in capped else -(-tops[n] // unit[n])
                        for n in names] + [1] * len(onces) + [kit[n] for n in sorted(kit)],
                       [n in lost and n not in limits and n not in capped for n in names]
                       + [False] * (len(onces) + len(kit)),
                       exact=True,
                       ceilings=[ceiling(n) for n in names] + [1] * (len(onces) + len(kit)))

    picked = tuple(x for name in pickable for x in (slot[name], kit_slot.get(name, -1)))
    picks_read = sum(1 << i for i in picked if i >= 0)

    def picked_of(ch: Any) -> tuple[int, ...]:
        """The slots a ``[-1 item of choice]`` picks from: every pickable one, or those of its
        container (``[-1 item of choice from backpack]``)."""
        among = ch.get("among")
        if among is None:
            return picked
        return tuple(x for name in pickable if name in among for x in (slot[name], kit_slot.get(name, -1)))

    box_reads = sum(1 << i for name in boxes for i in (slot[name], kit_slot.get(name, -1)) if i >= 0)

    def dropping(ch: Any) -> bool:
        """A gain past whose container's limit a reader who decides (the best and the worst)
        chooses what to drop: a decision after it."""
        box = boxes.get(ch["name"])
        return take is None and box is not None and box[3] and ch["amount"] > 0 and not ch.get("pick")

    def most_of(ch: Any) -> int:
        """The most a gain brings (the decisions to drop it may take: one each)."""
        return max(_rolled(ch)) if "dice" in ch else int(ch["amount"])

    def compiled(n: int, ci: int, changes: list[Any],
                 at: list[int] | None = None) -> tuple[tuple[tuple[int, int], ...], tuple[Kind | None, ...]]:
        """A list of changes (an entry's, ``ci`` -1, or a choice's) as a room or a way takes them;
        ``at``: each one's index in its list (default: in order from 0), for its ``once`` flag."""
        out: list[tuple[int, int]] = []
        kinds: list[Kind | None] = []
        for k, ch in zip(at if at is not None else range(len(changes)), changes, strict=True):
            if ch.get("pick"):  # [-1 item of choice]: one of the possessions held, -amount times
                sel = picked_of(ch)
                if sel:
                    for _ in range(-int(ch["amount"])):
                        out.append((sel[0], 0))
                        kinds.append((False, "first" if pick == "first" else "pick", sel, -1, ()))
                continue
            if ch["name"] not in slot:
                continue
            mode = "all" if ch.get("all") else "held" if ch.get("if_held") else "plain"
            flag = onces.get((n, ci, k), -1)
            amount = int(ch["amount"]) // unit[ch["name"]]
            out.append((slot[ch["name"]], amount))
            rolled = _rolled(ch) if "dice" in ch else {int(ch["amount"]): 1.0}  # each amount, with its chance
            if ch.get("may") and take is not None and take < 1:  # left: an amount of none
                rolled = {0: 1 - take, **{a: p * take for a, p in rolled.items()}}
            if len(rolled) > 1 or mode != "plain" or flag >= 0:
                kinds.append((False, mode, tuple(a // unit[ch["name"]] for a in rolled), flag, tuple(rolled.values())))
            else:
                kinds.append(None)
            box = boxes.get(ch["name"])
            if box is not None and ch["amount"] > 0 and not (box[3] and take is None):
                # past the container's limit: lost, or dropped by choice (a reader who decides: a decision)
                _, limit, members, chosen = box
                out.append((slot[ch["name"]], limit))
                kinds.append((False, ("fitfirst" if pick == "first" else "fitpick") if chosen else "fit",
                              tuple(x for m in members for x in (slot[m], kit_slot.get(m, -1))), -1, ()))
            if ch["name"] in kit_slot and (ch["amount"] < 0 or ch.get("all") or box is not None):
                # a loss takes the book's possession first, then the kit's (play's give_up): what
                # the kit still holds is at most what is held after it
                out.append((slot[ch["name"]], 0))
                kinds.append((False, "clamp", (kit_slot[ch["name"]],), -1, ()))
        return tuple(out), tuple(kinds) if any(k is not None for k in kinds) else ()

    sinks: dict[str, int] = {}

    def sink(name: str) -> int:
        if name not in sinks:
            sinks[name] = len(sinks)
        return -1 - sinks[name]

    def target(t: int | str) -> int:
        if isinstance(t, int):
            return back if (t == book.start and back >= 0) else room_of[t]
        return sink(t)

    rooms: list[Room] = []
    options: list[list[Option]] = []
    return_exits: dict[int, dict[int, int]] = {}
    hp_ways: dict[int, tuple[Callable[[int, int], bool], tuple[int, ...]]] = {}
    def decision(n: int, k: int, ch: Any, to: int) -> tuple[list[Way], list[Option], int]:
        """The answers to one decision at entry ``n`` (its change ``k``, ``ch``), each a way on to
        room ``to``: take or leave what a ``[may ...]`` offers; give up each possession held (not
        the kit's), or nothing when none is held. With what the answers' tests and changes read."""
        on = [Branch(None, n, SURE)]
        if dropping(ch):  # past a container's (choose) limit: drop one of what it holds, or it fits
            _, limit, members, _ = boxes[ch["name"]]
            quads = [(layout.off[slot[m]], (1 << layout.width[slot[m]]) - 1) for m in members]

            def over(v: int, quads: list[tuple[int, int]] = quads, limit: int = limit) -> bool:
                return sum((v >> o) & m for o, m in quads) > limit

            d_ways: list[Way] = []
            d_opts: list[Option] = []
            for m, (mo, mm) in zip(members, quads, strict=True):
                def drop(v: int, mo: int = mo, mm: int = mm) -> bool:
                    return over(v) and bool((v >> mo) & mm)

                opt = Option("decide", f"drop {m}", None, None, on)
                c, q = slot[m], kit_slot.get(m, -1)
                d_ways.append(Way(opt, (to,), drop, ((c, -1), (c, 0)) if q >= 0 else ((c, -1),),
                                  (None, (False, "clamp", (q,), -1, ())) if q >= 0 else ()))
                d_opts.append(opt)
            fits = Option("decide", "nothing to drop", None, None, on)
            d_ways.append(Way(fits, (to,), lambda v: not over(v)))
            d_opts.append(fits)
            return d_ways, d_opts, box_reads
        if ch.get("may"):
            took, took_kinds = compiled(n, -1, [{**ch, "may": False}], [k])
            flag = onces.get((n, -1, k), -1)
            left = ((flag, 1),) if flag >= 0 else ()  # (left: the once find is not offered again)
            what = ch["name"]
            take_opt = Option("decide", f"take {what}" if ch["amount"] > 0 else f"give up {what}", None, None, on)
            leave_opt = Option("decide", f"leave {what}" if ch["amount"] > 0 else f"keep {what}", None, None, on)
            return ([Way(take_opt, (to,), None, took, took_kinds), Way(leave_opt, (to,), None, left, ())],
                    [take_opt, leave_opt], (1 << flag) if flag >= 0 else 0)
        ways: list[Way] = []
        opts: list[Option] = []
        tests: list[Callable[[int], bool]] = []
        among = ch.get("among")
        for name in pickable:
            if among is not None and name not in among:
                continue
            c, q = slot[name], kit_slot.get(name, -1)
            co, cm = layout.off[c], (1 << layout.width[c]) - 1
            qo, qm = (layout.off[q], (1 << layout.width[q]) - 1) if q >= 0 else (0, 0)

            def held(v: int, co: int = co, cm: int = cm, qo: int = qo, qm: int = qm) -> bool:
                return ((v >> co) & cm) > ((v >> qo) & qm)

            tests.append(held)
            opt = Option("decide", f"give up {name}", None, None, on)
            ways.append(Way(opt, (to,), held, ((c, -1),), ()))
            opts.append(opt)
        none = Option("decide", "nothing to give up", None, None, on)
        ways.append(Way(none, (to,), lambda v: not any(t(v) for t in tests)))
        opts.append(none)
        return ways, opts, picks_read

    # A reader who decides (``take`` None: the best and the worst) takes a ``[may ...]`` or gives
    # up a ``[-1 item of choice]`` as a decision: the entry's room holds its changes up to the
    # first such, and its ways are the decision's answers, each on to a room of the same entry
    # (added after every entry's) that holds what follows; the last holds the entry's ways on.
    pending: list[tuple[Room, list[Option], bool]] = []
    decided = take is None
    for r, n in enumerate(numbers):
        e = book.entries[n]
        own = list(enumerate(e.get("changes", [])))
        cut = [i for i, (_, ch) in enumerate(own) if decided and n not in book.endings and (
            (ch.get("pick") and picked_of(ch)) or (ch.get("may") and ch["name"] in slot) or dropping(ch))
               ] if decided else []
        # (a drop follows its gain: the gain is in the part before the decision)
        first_part = own[: cut[0] + dropping(own[cut[0]][1])] if cut else own
        changes, kinds = compiled(n, -1, [ch for _, ch in first_part], [k for k, _ in first_part])
        loss_reads = 0
        for (n_, ci_, k_), f in onces.items():  # a once flag is read where its change applies
            if n_ == n and ci_ < 0 and any(k_ == k for k, _ in first_part):
                loss_reads |= 1 << f
        if any(ch.get("pick") for _, ch in first_part):  # a pick reads what is held
            loss_reads |= picks_read
        if any(ch["name"] in boxes and ch["amount"] > 0 for _, ch in first_part):  # so does a container's limit
            loss_reads |= box_reads
        ways: list[Way] = []
        opts: list[Option] = []
        reads = 0
        returns: tuple[int, ...] = ()
        ending = n in book.endings
        for opt in ([] if ending else book.options[n]):
            if opt.kind == "return":
                returns = tuple(target(b.target) for b in opt.branches if isinstance(b.target, int))
                if len(returns) == len(opt.branches):
                    return_exits[r] = {t: b.exit for t, b in zip(returns, opt.branches, strict=True)
                                       if b.exit is not None}
                    continue
                returns = ()  # a return to a missing entry: kept as an option, without memory
            cond = e["choices"][opt.choice].get("condition") if opt.choice is not None else None
            test: Callable[[int], bool] | None = None
            hp: tuple[Callable[[int, int], bool], tuple[int, ...]] | None = None
            if cond is not None:
                read = normal(cond, scores)
                points = hp_points(read)
                if points:  # open wherever some HP opens it; which HPs do, kept for the bounds
                    hp = (_hp_test(read, slot, unit, layout), points)
                    test = _any_hp(*hp)
                else:
                    test = _test(read, slot, unit, layout)
                for name, _ in _cond_names(read):
                    reads |= 1 << slot[name]
            way_changes: tuple[tuple[int, int], ...] = ()
            way_kinds: tuple[Kind | None, ...] = ()
            if opt.choice is not None and "changes" in e["choices"][opt.choice]:
                way_changes, way_kinds = compiled(n, opt.choice, e["choices"][opt.choice]["changes"])
                if any(ch.get("pick") for ch in e["choices"][opt.choice]["changes"]):
                    reads |= picks_read
                if any(ch["name"] in boxes and ch["amount"] > 0 for ch in e["choices"][opt.choice]["changes"]):
                    reads |= box_reads
                for (n_, ci_, _), f in onces.items():
                    if n_ == n and ci_ == opt.choice:
                        reads |= 1 << f
            ways.append(Way(opt, tuple(target(b.target) for b in opt.branches), test, way_changes, way_kinds))
            if hp is not None:
                hp_ways[id(ways[-1])] = hp
            opts.append(opt)
        if r == back:
            leave = Option("leave", "leave the dungeon", None, None, [])
            ways.append(Way(leave, (sink(ESCAPED),)))
            opts.append(leave)
        if not cut:
            rooms.append(Room(n, changes, ways, ending, returns, reads, loss_reads, kinds))
            options.append(opts)
            continue
        if returns:
            raise ValueError(f"entry {n}: a decision the reader makes ([may ...] or [-1 item of choice]) in an entry "
                             "that returns to the most recent one: dtc odds does not yet follow it for the best and "
                             "worst readers (dtc simulate plays it)")
        # one decision per answer asked (a pick of several: one each), and what follows each
        steps: list[tuple[int, Any, list[tuple[int, Any]]]] = []
        for j, i in enumerate(cut):
            k, ch = own[i]
            after = own[i + 1: cut[j + 1] + dropping(own[cut[j + 1]][1])] if j + 1 < len(cut) else own[i + 1:]
            times = -int(ch["amount"]) if ch.get("pick") else most_of(ch) if dropping(ch) else 1
            steps += [(k, ch, [])] * (times - 1) + [(k, ch, after)]
        here, at, owner = (changes, kinds, loss_reads), r, r < len(book.numbers)
        for k, ch, after in steps:
            to = len(numbers) + len(pending) + (at != r)  # (a room of its own, pending, comes first)
            d_ways, d_opts, d_reads = decision(n, k, ch, to)
            room = Room(n, here[0], d_ways, False, (), d_reads, here[2], here[1])
            if at == r:
                rooms.append(room)
                options.append(d_opts)
            else:
                pending.append((room, d_opts, owner))
            a_changes, a_kinds = compiled(n, -1, [c for _, c in after], [k_ for k_, _ in after])
            a_reads = 0
            for (n_, ci_, k_), f in onces.items():
                if n_ == n and ci_ < 0 and any(k_ == kk for kk, _ in after):
                    a_reads |= 1 << f
            if any(c.get("pick") for _, c in after):
                a_reads |= picks_read
            if any(c["name"] in boxes and c["amount"] > 0 for _, c in after):
                a_reads |= box_reads
            here, at = (a_changes, a_kinds, a_reads), to
        pending.append((Room(n, here[0], ways, ending, returns, reads, here[2], here[1]), opts, owner))
    # The first page's effects may leave the reader in more than one state (a rolled amount, a
    # [may ...] the random reader takes half the time, a loss of the random reader's choice): the
    # chain starts from one, so the start entry's room keeps what comes before the first such, and
    # one way on (the reader's only option) takes the rest, to a room of the same entry that holds
    # its ways on.
    s0 = room_of[book.start]
    first = rooms[s0]
    split_at = next((i for i, kind in enumerate(first.kinds) if kind is not None and not first.ending and (
        (len(kind[2]) > 1 and kind[1] not in PLACED) or kind[1] in ("pick", "fitpick"))), None)
    if split_at is not None:
        if first.return_targets:
            raise ValueError(f"entry {book.start}: the first page returns to the most recent entry and leaves the "
                             "reader in more than one state: dtc odds does not yet follow it (dtc simulate plays it)")
        rest_room = len(numbers) + len(pending)
        on = Option("decide", "on", None, None, [Branch(None, book.start, SURE)])
        pending.append((Room(first.number, (), first.ways, False, (), first.cond_reads, 0, ()), options[s0], True))
        rooms[s0] = Room(first.number, first.changes[:split_at], [Way(on, (rest_room,), None, first.changes[split_at:],
                                                                 first.kinds[split_at:])],
                         False, (), first.loss_reads, first.loss_reads, first.kinds[:split_at])
        options[s0] = [on]
    for room, opts, _ in pending:
        rooms.append(room)
        options.append(opts)
        numbers.append(room.number)
    # return targets: the option's branch order, for the exit each one follows
    held = layout.pack([book.held.get(n, 0) // unit[n] for n in names] + [0] * len(onces)
                       + [kit[n] for n in sorted(kit)])
    ex = explore(rooms, room_of[book.start], layout, budget=budget, edges=True, held=held)
    owns = [r < len(book.numbers) for r in range(len(rooms) - len(pending))] + [o for _, _, o in pending]
    counted = [True] * (len(rooms) - len(pending)) + [False] * len(pending)
    chain = _lay_out(book, ex, numbers, options, rooms, sinks, names + flag_names, return_exits,
                     units + [1] * (len(onces) + len(kit)), cyclic, owns, counted)
    chain.hp_ways = hp_ways
    return chain


def _boxes(book: Book, tops: Mapping[str, int], take: float | None,
           pick: str | None) -> dict[str, tuple[str, int, list[str], bool]]:
    """The possessions of the containers with a limit whose possessions something reads (a
    condition, a loss): each with (its container, the limit, the container's possessions sorted
    by name, whether the reader drops what they choose past it). A :class:`ValueError` names what
    the odds do not follow: the choice of what to drop for a reader who decides (the best and the
    worst), or on the first page."""
    out: dict[str, tuple[str, int, list[str], bool]] = {}
    for box, members in book.containers.items():
        if box not in book.limits or not any(m in tops for m in members):
            continue
        chosen = box in book.drop_by_choice
        if chosen and (pick is None or take is None):  # the best and worst: a decision in the entry's room
            on_way = next((n for n in book.numbers for c in book.entries[n]["choices"] for x in c.get("changes", [])
                           if x["name"] in members and x["amount"] > 0), None)
            if on_way is not None:
                raise ValueError(f"entry {on_way}: the reader chooses what to drop from the {box} on taking a choice: "
                                 "dtc odds follows that choice for the random and the likeliest reader only (dtc "
                                 "simulate plays it)")
            if any(x["name"] in members and x["amount"] > 0 and x.get("may") for n in book.numbers
                   for x in book.entries[n].get("changes", [])):
                raise ValueError(f"the reader may take what goes in the {box} and chooses what to drop from it: dtc "
                                 "odds follows that for the random and the likeliest reader only (dtc simulate plays "
                                 "it)")
        if chosen and book.dropped_at_start == box:
            raise ValueError(f"the reader starts with more than the {box} holds and chooses what to drop: dtc odds "
                             "does not yet follow it (dtc simulate plays it)")
        ordered = sorted(members)
        for m in members:
            out[m] = (box, book.limits[box], ordered, chosen)
    return out


def _pickable(book: Book, pick: str | None) -> tuple[list[str], dict[str, int]]:
    """The possessions a ``[-1 item of choice]`` may take, as play offers them (the book's
    possessions other than coins: what a change or ``Start with:`` names), sorted by name, and how
    many of each the adventurer's kit holds (never offered: play offers the book's possessions);
    empty in a book without one. A :class:`ValueError` names what the odds do not follow: a reader
    who decides, a pick the reader may skip."""
    at = next(((n, ch) for n in book.numbers for ch in _changes(book, n) if ch.get("pick")), None)
    if at is None:
        return [], {}
    n, ch = at
    what = f"[-{-int(ch['amount'])} {ch['name']}]"
    on_way = next((m for m in book.numbers for c in book.entries[m]["choices"] for x in c.get("changes", [])
                   if x.get("pick")), None)
    if pick is None and on_way is not None:
        raise ValueError(f"entry {on_way}: the reader chooses which possession to lose on taking a choice: dtc odds "
                         "follows that choice for the random and the likeliest reader only (dtc simulate plays it)")
    if any(c.get("pick") and (c.get("may") or c.get("once")) for m in book.numbers for c in _changes(book, m)):
        raise ValueError(f"entry {n}: a loss the reader chooses that may not happen ({what} with may or once): "
                         "dtc odds does not yet follow it (dtc simulate plays it)")
    from dtc.runtime.inventory import is_coins
    from dtc.systems import kit_holdings_of

    names = {c["name"] for m in book.numbers for c in _changes(book, m) if not c.get("pick")}
    names |= {name for name, count in book.held.items() if count > 0}
    names = {name for name in names if not is_coins(name)}
    picks = [c for m in book.numbers for c in _changes(book, m) if c.get("pick")]
    if all("among" in c for c in picks):  # only ever from a container: only what the containers hold
        names &= {name for c in picks for name in c["among"]}
    kit = {name: k for name, k in kit_holdings_of(book.rules, names).items() if k > 0 and book.held.get(name, 0) >= k}
    return sorted(names), kit


def _changes(book: Book, n: int) -> list[Any]:
    """Every change of entry ``n``: its own, then its choices' (``(D0, S37, -3 coins)``)."""
    e = book.entries[n]
    return [*e.get("changes", []), *(ch for c in e["choices"] for ch in c.get("changes", []))]


def _rolled(ch: Mapping[str, Any]) -> dict[int, float]:
    """A rolled amount (``[+1d10*3 coins]``): each amount it may be, signed, with its chance."""
    count, _, sides = str(ch["dice"]).partition("d")
    totals = {0: Fraction(1)}
    for _ in range(int(count or 1)):
        nxt: dict[int, Fraction] = {}
        for total, p in totals.items():
            for face in range(1, int(sides) + 1):
                nxt[total + face] = nxt.get(total + face, Fraction(0)) + p / int(sides)
        totals = nxt
    sign = 1 if ch["amount"] > 0 else -1
    return {sign * total * int(ch.get("times", 1)): float(p) for total, p in sorted(totals.items())}


def _exact_only(ch: Mapping[str, Any], n: int, start: bool, take: float | None, way: bool = False) -> None:
    """A change the odds cannot follow exactly yet, on a possession a condition reads: a
    :class:`ValueError` naming it (``dtc simulate`` plays it)."""
    if ch.get("may") and take is None and way:
        raise ValueError(f"entry {n}: the reader may take {ch['name']} or leave it on taking a choice, and a "
                         "condition reads it: dtc odds follows that choice for the random and the likeliest reader "
                         "only (dtc simulate plays it)")
    if ch.get("may") and ch.get("all") and take not in (None, 1.0):
        raise ValueError(f"entry {n}: the reader may lose every {ch['name']} or not: dtc odds does not yet follow "
                         "that choice (dtc simulate plays it)")


def _lay_out(book: Book, ex: Exploration, numbers: list[int], options: list[list[Option]], rooms: list[Room],
             sinks: dict[str, int], names: list[str], return_exits: dict[int, dict[int, int]],
             units: list[int], cyclic: set[int], owns: list[bool], counted: list[bool]) -> StateChain:
    """The chain as the solvers take it. ``owns``: per room, whether its ways are the entry's
    own exits (not the entrance's again); ``counted``: whether its states are visits of the entry
    (not a room after a decision the reader made there)."""
    nodes = len(ex.nodes)
    sink_names = list(sinks)
    frontier = nodes > ex.expanded or ex.overflow
    states: list[int | str] = list(range(nodes))
    extra = [*sink_names, *([UNEXPLORED] if frontier else [])]
    index: dict[int | str, int] = {}
    for name in extra:
        index[name] = len(states)
        states.append(name)
    keys = {k: i for i, k in enumerate(book.checks)}
    opt_state, opt_check, br_opt, br_target, br_kind = array("q"), array("q"), array("q"), array("q"), array("b")
    br_share = array("d")
    br_exit_code, opt_choice_code = array("q"), array("q")
    exits: dict[tuple[int, int], int] = {}
    choices: dict[tuple[int, int], int] = {}
    state_room = array("q", (ex.room_of(i) for i in range(nodes)))
    state_room.extend([-1] * len(extra))
    assert ex.edges is not None
    for q, ways in enumerate(ex.edges):
        if q in ex.overflow:
            ways = []
        r = ex.room_of(q)
        room = rooms[r]
        for wi, targets, parts in ways:
            o = len(opt_state)
            opt_state.append(q)
            if wi == len(room.ways):  # "return to your most recent entry"
                opt_check.append(-1)
                opt_choice_code.append(-1)
                back_exits = return_exits.get(r, {})
                for k, j in enumerate(targets):
                    br_opt.append(o)
                    br_target.append(j)
                    br_kind.append(SURE)
                    br_share.append(1.0 / len(targets) if parts is None else parts[k][1])
                    x = back_exits.get(ex.room_of(j))
                    br_exit_code.append(-1 if x is None or not owns[r]
                                        else exits.setdefault((numbers[r], x), len(exits)))
                continue
            opt = options[r][wi]
            opt_check.append(keys[opt.check] if opt.check is not None else -1)
            number = numbers[r]
            opt_choice_code.append(choices.setdefault((number, opt.choice), len(choices))
                                   if opt.check is not None and opt.choice is not None else -1)
            branches: list[Any] = list(opt.branches) or [None]
            # (an outcome a rolled amount splits is one branch per amount, each with its chance)
            split = [(branches[k], w) for k, w in parts] if parts is not None else [(b, 1.0) for b in branches]
            for (b, w), j in zip(split, targets, strict=True):
                br_opt.append(o)
                br_target.append(j if j >= 0 else index[sink_names[-1 - j]])
                br_kind.append(b.kind if b is not None else SURE)
                br_share.append((b.share if b is not None else 1.0) * w)
                br_exit_code.append(exits.setdefault((number, b.exit), len(exits))
                                    if b is not None and b.exit is not None and owns[r] else -1)
    absorbing = [True] * len(states)
    for s in opt_state:
        absorbing[s] = False
    first = [o for o in range(len(opt_state)) if o == 0 or opt_state[o] != opt_state[o - 1]]
    endings = {q for q in range(nodes) if rooms[ex.room_of(q)].ending}
    shape = PlainShape(replace(book, endings=endings), states, _Index(index, nodes), 0, absorbing, opt_state,
                       opt_check, first, [opt_state[o] for o in first], br_opt, br_target, br_kind, br_share, [])
    return StateChain(shape, ex, numbers, options, state_room, br_exit_code, list(exits), opt_choice_code,
                      list(choices), names, ex.complete, units, cyclic, counted)


class _Index(dict[int | str, int]):
    """State -> its index: an explored node is its own index; only the outcomes are stored."""

    def __init__(self, named: dict[int | str, int], nodes: int) -> None:
        super().__init__(named)
        self.nodes = nodes

    def __getitem__(self, key: int | str) -> int:
        if isinstance(key, int) and 0 <= key < self.nodes:
            return key
        return super().__getitem__(key)

    def get(self, key: int | str, default: Any = None) -> Any:
        if isinstance(key, int) and 0 <= key < self.nodes:
            return key
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, int) and 0 <= key < self.nodes:
            return True
        return super().__contains__(key)


@dataclass(slots=True)
class EntryView:
    """A solved state chain added up per entry."""

    outcomes: dict[str, float]
    loops: dict[str, list[int]]
    visits: dict[int, float]
    reach: dict[int, float | None]
    edges: dict[tuple[int, int], float]
    unexplored: float


def outcome_name(chain: StateChain, name: str) -> str:
    """The entry-level name of an outcome of the state chain (``ending:17`` for any state at 17)."""
    kind, _, rest = name.partition(":")
    if kind in ("ending", "dead_end") and rest.isdigit():
        q = int(rest)
        ex = chain.exploration
        if q >= ex.expanded or q in ex.overflow:
            return UNEXPLORED
        r = ex.room_of(q)
        number = chain.numbers[r]
        if kind == "dead_end" and (chain.exploration.rooms[r].ways or chain.exploration.rooms[r].return_targets):
            return f"locked:{number}"
        return f"{kind}:{number}"
    return name


def entry_view(chain: StateChain, outcomes: Mapping[str, float], loops: Mapping[str, list[int]],
               visits: Any, reach: Any, branch: Any) -> EntryView:
    """Per entry: outcomes (by entry-level name), loops, expected visits, reach (exact where an
    entry can be visited in one state only per run, else None), and exit chances."""
    cyclic = chain.cyclic
    ex = chain.exploration
    out: dict[str, float] = {}
    for name, p in outcomes.items():
        key = outcome_name(chain, name)
        if key.startswith("loop:"):
            continue
        out[key] = out.get(key, 0.0) + p
    loop_out: dict[str, list[int]] = {}
    for name, members in loops.items():
        entries = sorted({chain.numbers[ex.room_of(m)] for m in members if isinstance(m, int) and m < len(ex.nodes)})
        key = f"loop:{entries[0]}" if entries else name
        loop_out[key] = sorted(set(loop_out.get(key, [])) | set(entries))
        out[key] = out.get(key, 0.0) + outcomes.get(name, 0.0)
    vis: dict[int, float] = {}
    rch: dict[int, float] = {}
    count: dict[int, int] = {}
    counted = chain.counted
    for q in range(len(ex.nodes)):
        r = ex.room_of(q)
        if not counted[r]:
            continue
        n = chain.numbers[r]
        v = float(visits[q])
        vis[n] = vis.get(n, 0.0) + v
        rch[n] = rch.get(n, 0.0) + float(reach[q])
        count[n] = count.get(n, 0) + 1
    reach_out: dict[int, float | None] = {}
    for n in chain.numbers:
        if n not in vis:
            vis[n] = 0.0
            reach_out[n] = 0.0
            continue
        if n not in cyclic:  # visited at most once a run: its expected visits are its reach
            reach_out[n] = min(1.0, vis[n])
        elif count[n] == 1 and not math.isnan(rch[n]):
            reach_out[n] = min(1.0, rch[n])
        else:  # a loop through states of its own: the expected visits bound it (shown as <=)
            reach_out[n] = None
    edges: dict[tuple[int, int], float] = {}
    weight: dict[int, float] = {}  # per entry: its visits, over all its states
    shape = chain.shape
    for b, code in enumerate(chain.br_exit_code):
        if code < 0:
            continue
        at = shape.opt_state[shape.br_opt[b]]
        x = float(visits[at])
        if not math.isfinite(x):
            x = 1.0
        where = chain.exits[code]
        edges[where] = edges.get(where, 0.0) + x * float(branch[b])
    for q in range(len(ex.nodes)):
        r = ex.room_of(q)
        if not counted[r]:
            continue
        n = chain.numbers[r]
        x = float(visits[q])
        weight[n] = weight.get(n, 0.0) + (x if math.isfinite(x) else 1.0)
    for where in list(edges):
        w = weight.get(where[0], 0.0)
        edges[where] = edges[where] / w if w > 0 else 0.0
    return EntryView(out, loop_out, vis, reach_out, edges, out.pop(UNEXPLORED, 0.0))


def cyclic_entries(book: Book) -> set[int]:
    """Entries on a cycle of the book's graph (every gate open): the only ones a run can visit
    in more than one state."""
    from dtc.odds.small import _components

    numbers = book.numbers
    at = {n: i for i, n in enumerate(numbers)}
    succ: list[list[int]] = [[] for _ in numbers]
    for i, n in enumerate(numbers):
        if n in book.endings:
            continue
        for opt in book.options[n]:
            for b in opt.branches:
                if isinstance(b.target, int) and b.target in at:
                    succ[i].append(at[b.target])
    out: set[int] = set()
    for comp in _components(len(numbers), succ):
        if len(comp) > 1 or comp[0] in succ[comp[0]]:
            out.update(numbers[i] for i in comp)
    # the entrance is visited again whenever the reader comes back to it
    if book.start is not None and any(b.target == book.start for opts in book.options.values() for o in opts
                                      for b in o.branches):
        out.add(book.start)
    return out


def state_note(chain: StateChain) -> str:
    """One line on the state space: how many states, and whether it was explored whole."""
    read = [n for n in chain.names if not n.startswith(("once:", "kit:"))]  # (a find's flag, the kit's share)
    held = f"possessions read by a condition: {', '.join(read)}" if read else "no possession read"
    if chain.complete:
        return f"the chain runs over {chain.states:,} (entry, possessions) states, explored whole ({held})"
    ex = chain.exploration
    why = (f"it passed the budget of {BUDGET:,} states" if ex.expanded < len(ex.nodes) - len(ex.overflow) else
           f"a count grew past {CEILING} times the largest amount a condition and a loss of it name together (a "
           "loop that gains without end)")
    return (f"the exploration of (entry, possessions) states stopped where {why}; {chain.states:,} states were "
            f"found, and each outcome is given as bounds ({held})")
