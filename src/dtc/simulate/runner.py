"""One playthrough with the full `dtc play` runtime, and a block of them as a worker plays it.

Every run gets its own seed, derived from the master seed and the run's index alone
(:func:`run_seed`), and plays exactly as ``dtc play FILE --seed S --auto POLICY`` would: the same
:class:`~dtc.runtime.dice.Dice`, a fresh adventurer from the rules (or a copy of the given one),
the same policy and :class:`~dtc.runtime.engine.Engine`. So any run can be replayed on its own,
and the totals do not depend on scheduling. The runs are played in batches of consecutive runs
(:func:`dtc.simulate.parallel.chunks`, which depend on the number of runs alone); only
``least-used``, which remembers what the runs of its batch have seen, depends on that split, so
results are identical for a given seed and number of runs, whatever the number of workers.
"""

from __future__ import annotations

import hashlib
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dtc.compiled.graphjson import CompiledGraph
from dtc.runtime.character import Character
from dtc.runtime.core import MENU, Player, Question, RunEnded
from dtc.runtime.dice import Dice
from dtc.runtime.engine import DEFAULT_MAX_TURNS, Engine
from dtc.runtime.policies import POLICIES, RandomPolicy
from dtc.runtime.ruleset import Rules
from dtc.simulate.stats import Run, Tally

#: The policies `dtc simulate --policy` accepts: the runtime's auto players and least-used.
POLICY_NAMES = ("random", "cautious", "bold", "likeliest", "least-used")
#: Decisions allowed per turn of the limit before a run counts as stuck (a loop that spends no time).
DECISIONS_PER_TURN = 50


def run_seed(master: int, index: int) -> int:
    """The seed of run ``index``: a hash of the master seed and the index (31 bits, like `dtc play`)."""
    digest = hashlib.blake2b(f"dtc-simulate:{master}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % (2**31)


class LeastUsed(RandomPolicy):
    """At an entry, take the way whose target this worker's runs have visited least (ties: at random).

    Other questions are answered like the random policy. Leaving counts as going to the start.
    """

    name = "least-used"

    def __init__(self, seen: Counter[int | str]) -> None:
        super().__init__()
        self.seen = seen

    def decide(self, question: Question, game: Engine) -> int:
        if question.kind != MENU:
            return super().decide(question, game)
        ways: list[tuple[int, int | str]] = []
        for n, o in enumerate(question.options):
            if o.key == "leave":
                ways.append((n, game.state.start))
            elif "command" not in o.tags and "broken" not in o.tags and "closed" not in o.tags:
                # (a choice whose condition is false is refused: taking it would ask again, forever)
                ways.append((n, o.target if o.target is not None else o.key))
        if not ways:
            return question.index("wait") or 0
        least = min(self.seen[t] for _, t in ways)
        ties = [(n, t) for n, t in ways if self.seen[t] == least]
        n, target = ties[game.dice.pick(len(ties))] if len(ties) > 1 else ties[0]
        if isinstance(target, str):
            self.seen[target] += 1  # a way with no entry to arrive at: count the choosing
        return n


class _Budget:
    """Wraps a player: stops a run that keeps deciding without the clock moving."""

    def __init__(self, inner: Player, limit: int) -> None:
        self.inner = inner
        self.limit = limit
        self.used = 0
        self._blind = getattr(inner, "blind", None)
        self._blind_menu = getattr(inner, "blind_menu", None)
        #: The engine asks these only where they are not None: a player that reads its menus'
        #: options (cautious, bold) then never has the ways on worked out for nothing first.
        self.blind: Callable[[str, int, Engine], int | None] | None = (
            self._counted_blind if self._blind is not None else None)
        self.blind_menu: Callable[[int, Engine], int | None] | None = (
            self._counted_blind_menu if self._blind_menu is not None else None)

    def decide(self, question: Question, game: Engine) -> int:
        self.used += 1
        if self.used > self.limit:
            raise RunEnded("stopped", f"stuck: {self.limit} decisions without the run ending")
        return self.inner.decide(question, game)

    def _counted_blind(self, kind: str, count: int, game: Engine) -> int | None:
        """The inner player's answer from the number of options alone (None: it needs the
        question), counted like :meth:`decide` counts."""
        inner = self._blind
        if inner is None:
            return None
        self.used += 1
        if self.used > self.limit:
            raise RunEnded("stopped", f"stuck: {self.limit} decisions without the run ending")
        n: int | None = inner(kind, count, game)
        if n is None:
            self.used -= 1  # it will be asked, and counted, as a question
        return n

    def _counted_blind_menu(self, count: int, game: Engine) -> int | None:
        """The inner player's answer to a menu as the index of one of its ``count`` ways on (then
        resting and leaving: :func:`dtc.runtime.menu.moves`), counted like :meth:`decide`."""
        inner = self._blind_menu
        if inner is None:
            return None
        self.used += 1
        if self.used > self.limit:
            raise RunEnded("stopped", f"stuck: {self.limit} decisions without the run ending")
        n: int | None = inner(count, game)
        if n is None:
            self.used -= 1  # it will be asked, and counted, as a question
        return n

    def text(self, prompt: str, game: Engine) -> str:
        return self.inner.text(prompt, game)


class _Visits:
    """The run's one sink: counts the entries read (and, for least-used, this worker's too)."""

    kinds = frozenset({"entry"})  # the engine sends nothing else (dtc.runtime.core.Sink)

    def __init__(self, visits: Counter[int], seen: Counter[int | str] | None) -> None:
        self.visits = visits
        self.seen = seen

    def __call__(self, event: dict[str, Any]) -> None:
        self.arrived(event["number"])

    def arrived(self, number: int) -> None:
        """An entry read (what the engine calls instead, building no event: core.Sink)."""
        self.visits[number] += 1
        if self.seen is not None:
            self.seen[number] += 1


@dataclass(frozen=True, slots=True)
class Job:
    """Everything a worker needs (picklable)."""

    graph: CompiledGraph
    policy: str
    seed: int
    max_turns: int = DEFAULT_MAX_TURNS
    character: dict[str, Any] | None = None  # a character's JSON: every run plays a copy of it


#: The folder of dtc's own code (``.../dtc``): a frame is dtc's when its file lies inside it, wherever
#: the checkout or the installation sits and whatever the folders around it are called.
PACKAGE_DIR = Path(__file__).resolve().parent.parent


def _where(exc: BaseException) -> str:
    """The innermost frame of dtc's own code, as ``runtime/combat.py:123`` (relative to the package)."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if not frame.filename.endswith(".py"):
            continue  # <string>, <frozen ...>
        try:
            inside = Path(frame.filename).resolve().relative_to(PACKAGE_DIR)
        except (ValueError, OSError):
            continue
        return f"{inside.as_posix()}:{frame.lineno}"
    return ""


def play_one(job: Job, rules: Rules, index: int, *, seen: Counter[int | str] | None = None,
             make_player: Callable[[], Player] | None = None,
             log: Callable[[dict[str, Any]], None] | None = None) -> Run:
    """Play run ``index`` of ``job`` to its end; a Python error becomes an ``error`` outcome.

    ``log``: hand it the run log's events (:mod:`dtc.runtime.replay`: every die face, the
    adventurer's sheet), as ``dtc play --log`` writes them. The run is the same with it or without:
    the dice draw the same numbers and the player decides the same (:mod:`dtc.simulate.failures`)."""
    seed = run_seed(job.seed, index)
    dice = Dice(seed)
    visits: Counter[int] = Counter()
    sinks: list[Any] = [_Visits(visits, seen)]
    if log is not None:
        from dtc.runtime.replay import LogWriter, record

        sinks.append(LogWriter(log, record(dice)))  # from the first die: the adventurer's own rolls too
    engine: Engine | None = None
    try:
        pc = Character.from_dict(job.character) if job.character is not None else rules.new_character(dice)
        if make_player is not None:
            player: Player = make_player()
        elif job.policy == "least-used":
            player = LeastUsed(seen if seen is not None else Counter())
        else:
            player = POLICIES[job.policy]()

        budget = _Budget(player, DECISIONS_PER_TURN * max(job.max_turns, 1))
        engine = Engine(job.graph, pc, budget, dice=dice, rules=rules, max_turns=job.max_turns, sinks=sinks,
                        made=log is not None and job.character is None)
        outcome = engine.run()
    except Exception as exc:  # a bug in the runtime (or a graph it cannot handle): report it, go on
        entry = engine.state.entry if engine is not None else None
        return Run(index, seed, "error", entry, engine.state.turn if engine else 0,
                   f"{type(exc).__name__}: {exc}", 0, dict(visits), _where(exc))
    return Run(index, seed, outcome.kind, outcome.entry, outcome.turn, outcome.reason, outcome.treasure, dict(visits),
               ending_kind=outcome.ending_kind)


def play_block(job: Job, indexes: range, progress: Callable[[int], None] | None = None,
               make_player: Callable[[], Player] | None = None, *, rules: Rules | None = None) -> Tally:
    """Play the runs ``indexes`` in order (one batch) and tally them; ``least-used`` remembers
    what the runs of this block visited. ``rules``: the job's rules when the caller has them."""
    if rules is None:
        from dtc.systems import play_rules

        rules = play_rules(job.graph.get("rules"))
    seen: Counter[int | str] = Counter()
    tally = Tally()
    step = max(1, min(200, len(indexes) // 100 or 1))
    done = 0
    for index in indexes:
        tally.add(play_one(job, rules, index, seen=seen, make_player=make_player))
        done += 1
        if progress is not None and done % step == 0:
            progress(step)
    if progress is not None and done % step:
        progress(done % step)
    return tally
