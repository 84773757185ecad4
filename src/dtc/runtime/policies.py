"""Players that need no keyboard: automatic policies and a script of choices.

* ``random`` picks uniformly among what it may do (the run's dice, so seeded runs repeat), and
  meets a difficulty by rolling its check, as ``dtc odds``' random reader does (the turn it
  needs spent, the gear it needs taken as appropriate).
* ``cautious`` takes the safest way, explores what it has not seen, rests when hurt, avoids
  fights, and carries treasure back to the entrance as soon as it has any.
* ``bold`` prefers checks to spending turns, fights, and stays until it holds 2,000 coins of
  treasure or is badly hurt.
* ``likeliest`` takes the ways likeliest to succeed and remembers nothing: the reader
  ``dtc odds --policy likeliest`` follows exactly.

Questions only a person can settle go to the Oracle (``cautious`` and ``bold``): is this gear
appropriate? (Probable, 3-in-6, when the gear suits the words of the action, else Possible,
2-in-6); do you share a language?
(Possible). :class:`ScriptPlayer` answers the entry menus from a file, one
line per decision, and leaves the other questions to a policy.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from typing import TYPE_CHECKING

from dtc.runtime.core import (
    ABILITY,
    COMBAT,
    DROP,
    ENCOUNTER,
    ESCAPE,
    GEAR,
    GEAR_OK,
    LANGUAGE,
    LOSE,
    MENU,
    ORACLE,
    PLAN,
    TAKE,
    TARGET,
    WON,
    Option,
    Question,
    RunEnded,
)
from dtc.runtime.dice import parse_dice, percent
from dtc.runtime.menu import check_odds

if TYPE_CHECKING:
    from dtc.runtime.engine import Engine
    from dtc.runtime.equipment import Item

_GEAR_WORDS = {
    "crowbar": ("door", "chest", "crate", "stuck", "open", "lid", "pry", "lock"),
    "rope": ("climb", "chasm", "pit", "descend", "cross", "wall", "down", "up", "river", "well"),
    "grappling hook": ("climb", "wall", "chasm", "cross"),
    "hammer": ("door", "spike", "wall", "break"),
    "spikes": ("door", "climb", "wall", "wedge"),
    "lantern": ("search", "dark", "look", "smell", "find", "shadow"),
    "tinderbox": ("fire", "light", "burn", "candle"),
}
RICH_ENOUGH = 2000


def _navigation(q: Question) -> list[int]:
    return [n for n, o in enumerate(q.options) if "command" not in o.tags and "broken" not in o.tags
            and "closed" not in o.tags]


def distances_to(game: Engine, goal: int) -> dict[int, int]:
    """Moves from each entry to ``goal`` along success and prose exits (breadth-first, reversed)."""
    back: dict[int, list[int]] = {}
    for number, entry in game.entries.items():
        for x in entry["exits"]:
            if isinstance(x["target"], int) and x["kind"] != "failure":
                back.setdefault(x["target"], []).append(number)
    dist = {goal: 0}
    todo = deque([goal])
    while todo:
        n = todo.popleft()
        for p in back.get(n, ()):
            if p not in dist:
                dist[p] = dist[n] + 1
                todo.append(p)
    return dist


def home_distances(game: Engine, goal: int) -> dict[int, int]:
    """:func:`distances_to` ``goal``, worked out once per graph's entries (which the engine indexes
    once per graph and never changes: :func:`dtc.runtime.engine._indexes`) and goal. Read only."""
    entries = game.entries
    for known in _DISTANCES:
        if known[0] is entries and known[1] == goal and known[2] == len(entries):
            return known[3]
    found = distances_to(game, goal)
    _DISTANCES.insert(0, (entries, goal, len(entries), found))
    del _DISTANCES[8:]
    return found


#: :func:`home_distances`' last answers: (the entries, the goal, how many entries, the distances).
_DISTANCES: list[tuple[object, int, int, dict[int, int]]] = []


class Policy:
    """Base: answers every question sensibly; subclasses set the temperament."""

    name = "policy"
    careful = True

    def __init__(self) -> None:
        self._gear_match = False
        self._home: dict[int, int] | None = None
        #: The last question, the answer and why (read lazily by :meth:`explain` for ``-v``).
        self._last: tuple[Question, int] | None = None
        self.why = ""
        cls = type(self)
        #: Whether this policy answers as the ``pick`` its :meth:`blind` stands for (a subclass may
        #: decide otherwise): only then from the number of options alone.
        self._plain = cls.decide is Policy.decide and cls.pick is cls._blind_for

    def text(self, prompt: str, game: Engine) -> str:
        return ""

    def decide(self, question: Question, game: Engine) -> int:
        self.why = ""
        n = self.pick(question, game)
        self._last = (question, n)
        return n

    def blind(self, kind: str, count: int, game: Engine) -> int | None:
        """:meth:`pick` of a question of ``kind`` with ``count`` options from their number alone,
        where it never reads them: the first option of a kind it has no rule for (a stance, a
        pace, a way past a hazard: each system puts its best first, and :meth:`pick` takes it).
        None for the kinds whose options it reads, and for a subclass that answers otherwise
        (one that overrides :meth:`pick` or :meth:`decide`): the question is then built and asked."""
        if kind in _KINDS_READ or not self._plain:
            return None
        self.why = ""
        self._last = None
        return 0

    def explain(self) -> str:
        """Why the last answer was chosen, in words (its odds where known): narrated by ``play -v``."""
        if self._last is None:
            return ""
        question, n = self._last
        if not 0 <= n < len(question.options):
            return self.why
        o = question.options[n]
        parts = [self.why] if self.why else []
        if o.chance is not None and o.chance < 1 and "command" not in o.tags:
            parts.append(f"{percent(o.chance)} to succeed")
        return "; ".join(parts)

    def pick(self, question: Question, game: Engine) -> int:
        kind = question.kind
        opts = question.options
        if kind == MENU:
            return self.menu(question, game)
        if kind == PLAN:
            return self.plan(question)
        if kind == ABILITY:
            self.why = "the best ability for it"
            return max(range(len(opts)), key=lambda n: (opts[n].chance or 0, -n))
        if kind == GEAR:
            return self.gear(question)
        if kind in (GEAR_OK, LANGUAGE):
            if kind == LANGUAGE:
                self._gear_match = False
            self.why = "only a person can say: the Oracle decides"
            return question.index("oracle") or 0
        if kind == ORACLE:
            self.why = "the gear suits the words of the action" if self._gear_match else "nothing says more"
            return 2 if self._gear_match else 1
        if kind == ENCOUNTER:
            return self.encounter(question, game)
        if kind == ESCAPE:
            food = question.index("food")
            return food if food is not None and game.pc.count("Rations") > 2 else 0
        if kind == COMBAT:
            return self.combat(question, game)
        if kind == TARGET:
            self.why = "the enemy with the fewest HP"
            return min(range(len(opts)), key=lambda n: (int(opts[n].detail.split("/")[0]), n))
        if kind == TAKE:
            return self.take(question, game)
        if kind == WON:
            return question.index("won" if not self.careful else "fled") or 0
        return 0

    #: The ``pick`` whose answers :meth:`blind` gives from a count (a class with its own
    #: ``blind`` names its own ``pick``).
    _blind_for = pick

    # --- the entry menu ------------------------------------------------------------------

    def wants_home(self, game: Engine) -> bool:
        pc = game.pc
        if self.careful:
            return _carries_treasure(pc.items)
        return pc.treasure_value >= RICH_ENOUGH or (_carries_treasure(pc.items) and pc.hp * 2 <= pc.max_hp)

    def menu(self, q: Question, game: Engine) -> int:
        """The entry menu's answer, in one pass over its options (:meth:`menu_slow`'s answer and
        reason: the commands' places, the ways on, then each way's :meth:`score`)."""
        pc = game.pc
        opts = q.options
        leave = rest = wait = None
        nav: list[int] = []
        for n, o in enumerate(opts):
            if o.tags.isdisjoint(_NOT_A_WAY):
                nav.append(n)
            key = o.key
            if key in _MENU_COMMANDS:
                if key == "leave":
                    if leave is None:
                        leave = n
                elif key == "rest":
                    if rest is None:
                        rest = n
                elif wait is None:
                    wait = n
        home_bound = self.wants_home(game)
        if leave is not None and home_bound:
            self.why = f"it carries treasure worth {pc.treasure_value:,} coins out"
            return leave
        if rest is not None and pc.hp * (2 if self.careful else 3) <= pc.max_hp:
            self.why = f"it is hurt (HP {pc.hp} of {pc.max_hp})"
            return rest
        if not nav:
            self.why = "there is no way on"
            return wait or 0
        visits = game.state.visits
        if home_bound:
            if self._home is None:
                self._home = home_distances(game, game.state.start)
            home = self._home
            self.why = "the shortest way back to the entrance with its treasure"
            return min(nav, key=lambda n: (home.get(opts[n].target or -1, 10**6), -(opts[n].chance or 0), n))
        if type(self).score is Policy.score:
            careful = self.careful
            best = -1
            best_score: tuple[float, float, float, int] | None = None
            for n in nav:
                o = opts[n]
                target = o.target
                known = _OPTION_FACTS.get(id(o))
                if known is None or known[0] is not o:
                    if len(_OPTION_FACTS) >= _FACTS_KEPT:
                        _OPTION_FACTS.clear()
                    known = _OPTION_FACTS[id(o)] = (o, "conditional" in o.tags, float("dead-end" in o.tags),
                                                    float(o.chance) if o.chance is not None else 0.5)
                seen_n = visits.get(target, 0) if target is not None else 0
                conditional = known[1] and not (target is not None and visits.get(target))
                risky = 1 - known[3] if careful else 0.0
                score = (float(conditional), known[2], seen_n + 2 * risky, n)
                if best_score is None or score < best_score:
                    best, best_score = n, score
        else:
            best = min(nav, key=lambda n: (*self.score(opts[n], game), n))
        target = opts[best].target
        seen = visits.get(target, 0) if target is not None else 0
        been = "never visited" if not seen else f"visited {seen} time{'s' if seen != 1 else ''}"
        self.why = f"{'the surest and least explored' if self.careful else 'the least explored'} way, {been}"
        return best

    def menu_slow(self, q: Question, game: Engine) -> int:
        """:meth:`menu` as first written, option by option (the reference its tests compare with)."""
        pc = game.pc
        leave = q.index("leave")
        if leave is not None and self.wants_home(game):
            self.why = f"it carries treasure worth {pc.treasure_value:,} coins out"
            return leave
        rest = q.index("rest")
        if rest is not None and pc.hp * (2 if self.careful else 3) <= pc.max_hp:
            self.why = f"it is hurt (HP {pc.hp} of {pc.max_hp})"
            return rest
        nav = _navigation(q)
        if not nav:
            self.why = "there is no way on"
            return q.index("wait") or 0
        if self.wants_home(game):
            if self._home is None:
                self._home = distances_to(game, game.state.start)
            home = self._home
            self.why = "the shortest way back to the entrance with its treasure"
            return min(nav, key=lambda n: (home.get(q.options[n].target or -1, 10**6), -(q.options[n].chance or 0), n))
        best = min(nav, key=lambda n: (*self.score(q.options[n], game), n))
        target = q.options[best].target
        seen = game.state.visits.get(target, 0) if target is not None else 0
        been = "never visited" if not seen else f"visited {seen} time{'s' if seen != 1 else ''}"
        self.why = f"{'the surest and least explored' if self.careful else 'the least explored'} way, {been}"
        return best

    def score(self, o: Option, game: Engine) -> tuple[float, ...]:
        visits = game.state.visits.get(o.target, 0) if o.target is not None else 0
        conditional = "conditional" in o.tags and not (o.target is not None and game.state.visits.get(o.target))
        chance = float(o.chance) if o.chance is not None else 0.5
        risky = 1 - chance if self.careful else 0.0
        return (float(conditional), float("dead-end" in o.tags), visits + 2 * risky)

    # --- the other questions -------------------------------------------------------------

    def plan(self, q: Question) -> int:
        opts = q.options
        self.why = "the surest way to meet the difficulty" if self.careful else "a check rather than a turn"
        if self.careful:
            return max(range(len(opts)), key=lambda n: (opts[n].chance or 0, -n))
        return max(range(len(opts)), key=lambda n: ("turn" not in opts[n].key, opts[n].chance or 0, -n))

    def gear(self, q: Question) -> int:
        why = str(q.info.get("why", "")).lower()
        for n, o in enumerate(q.options):
            words = _GEAR_WORDS.get(o.label.lower().split(" (")[0], ())
            if any(w in why for w in words):
                self._gear_match = True
                return n
        self._gear_match = False
        return 0

    def encounter(self, q: Question, game: Engine) -> int:
        key = "carry-on" if self.careful else "fight"
        self.why = "it avoids fights" if self.careful else "it fights"
        return q.index(key) or 0

    def combat(self, q: Question, game: Engine) -> int:
        pc = game.pc
        escape = q.index("escape")
        foes_hp = sum(int(f["hp"]) for f in q.info.get("foes", []))
        hurt = pc.hp * 2 <= pc.max_hp if self.careful else pc.hp <= 2
        if escape is not None and hurt and foes_hp >= pc.hp:
            self.why = f"it is badly hurt (HP {pc.hp}) and the enemies are not"
            return escape
        self.why = "the most damage to expect"
        opts = q.options
        facts = tuple((o.key, o.detail, o.chance) for o in opts)
        found = _BEST_ATTACK.get(facts)
        if found is None:
            if len(_BEST_ATTACK) >= _FACTS_KEPT:
                _BEST_ATTACK.clear()
            found = _BEST_ATTACK[facts] = max(range(len(opts)), key=lambda n: (_expected(opts[n]), -n))
        return found

    def take(self, q: Question, game: Engine) -> int:
        weight = _weight(q.info.get("weight", "0"))
        limit = game.pc.load_limit
        fits = limit is None or game.pc.load + weight <= limit
        return q.index("take" if fits or not self.careful else "leave") or 0


def _carries_treasure(items: list[Item]) -> bool:
    """:attr:`Character.has_treasure <dtc.runtime.character.Character.has_treasure>`, in a plain loop."""
    for i in items:  # noqa: SIM110  (a loop: no generator made at every question)
        if i.kind == "treasure" and i.quantity > 0:
            return True
    return False


def _expected(o: Option) -> Fraction:
    """The damage a combat option is worth to the policy: its chance times the mean of its dice
    (oil: a d6, less a tenth); -1 for escaping or an option without odds."""
    if o.chance is None or o.key == "escape":
        return Fraction(-1)
    dice = o.detail.rsplit(", ", 1)[-1].split()[0] if o.key != "oil" else "d6"
    return o.chance * parse_dice(dice).mean - (Fraction(1, 10) if o.key == "oil" else 0)


#: :meth:`Policy.combat`'s pick per combat menu (each option's key, detail and chance: all that
#: :func:`_expected` reads).
_BEST_ATTACK: dict[tuple[tuple[str, str, Fraction | None], ...], int] = {}


def _weight(value: object) -> Fraction:
    """``Fraction(str(value))``, once per distinct value (a question's ``weight``)."""
    try:
        found = _WEIGHTS.get((type(value), value))
    except TypeError:  # not hashable: work it out
        return Fraction(str(value))
    if found is None:
        if len(_WEIGHTS) >= _FACTS_KEPT:
            _WEIGHTS.clear()
        found = _WEIGHTS[(type(value), value)] = Fraction(str(value))
    return found


_WEIGHTS: dict[tuple[type, object], Fraction] = {}


class CautiousPolicy(Policy):
    name = "cautious"
    careful = True


class BoldPolicy(Policy):
    name = "bold"
    careful = False


class RandomPolicy(Policy):
    """Uniform choices among the moves at an entry (and at the other questions of chance: a fight's,
    an encounter's), meeting each difficulty by its check as ``dtc odds``' random reader does."""

    name = "random"
    careful = False

    def pick(self, question: Question, game: Engine) -> int:
        opts = question.options
        if question.kind == MENU:
            allowed = _ways_or_wait(opts)
            self.why = f"at random, one of {len(allowed)}"
            return allowed[game.dice.pick(len(allowed))]
        if question.kind == PLAN:
            return self.by_the_check(question)
        if question.kind == GEAR:
            return self.gear(question)
        if question.kind == GEAR_OK:
            self.why = "a check's other needs are met, as dtc odds counts them"
            return question.index("yes") or 0
        if question.kind == LANGUAGE:
            self.why = "only a person can say: the Oracle decides"
            return question.index("oracle") or 0
        self.why = f"at random, one of {len(opts)}"
        return game.dice.pick(len(opts))

    def by_the_check(self, q: Question) -> int:
        """A difficulty met as ``dtc odds`` meets it (its default ``--approach check``): the way
        with the check and the fewest other needs, no gear when a turn does (Death & Treasure: D1
        the check alone, D2 a turn and the check, D3 all three); the gear it then needs is taken
        as appropriate. So the random reader's chance of a choice is its check's chance."""
        opts = q.options
        ways = [n for n, o in enumerate(opts) if "check" in o.key.removeprefix("plan:").split("+")]
        self.why = "the check, as dtc odds counts a choice"
        if not ways:
            return 0
        return min(ways, key=lambda n: (opts[n].key.count("+"), "gear" in opts[n].key, n))

    _blind_for = pick

    def blind(self, kind: str, count: int, game: Engine) -> int | None:
        """:meth:`pick` of a question of ``kind`` with ``count`` options, from their number alone
        (the same draw); None for the questions whose options it reads (menus, a difficulty's
        ways, gear, the Oracle's)."""
        if kind in (MENU, PLAN, GEAR, GEAR_OK, LANGUAGE) or not self._plain:
            return None
        self._last = None
        return game.dice.pick(count)

    def blind_menu(self, count: int, game: Engine) -> int | None:
        """:meth:`pick` of a menu whose options it picks among (:func:`_ways_or_wait`'s: the ways on,
        then resting and leaving; else waiting) are ``count``: the same draw, the index among them."""
        if not self._plain:
            return None
        self._last = None
        return game.dice.pick(count)


class LikeliestPolicy(RandomPolicy):
    """The memoryless reader ``dtc odds --policy likeliest`` follows: uniformly among the ways on
    most likely to succeed (a check at its exact chance for this adventurer, rolled as the random
    reader rolls it; a move, a random branch and leaving certain), taking what a ``[may ...]``
    offers and giving up (or dropping) the first of its possessions by name. Unlike ``cautious``
    it never remembers where it has been, rests or heads home, so the odds can follow it."""

    name = "likeliest"

    def pick(self, question: Question, game: Engine) -> int:
        kind = question.kind
        if kind == MENU:
            opts = question.options
            ways = [n for n in _ways_or_wait(opts) if opts[n].key != "rest"] or _ways_or_wait(opts)
            chances = [_success(opts[n], game) for n in ways]
            top = max(chances)
            best = [n for n, c in zip(ways, chances, strict=True) if c == top]
            self.why = f"the likeliest to succeed ({percent(top)}), at random among {len(best)}"
            return best[game.dice.pick(len(best))] if len(best) > 1 else best[0]
        if kind == TAKE:
            self.why = "it takes what it may"
            return question.index("take") or 0
        if kind in (LOSE, DROP):
            self.why = "the first by name"
            return 0
        return super().pick(question, game)

    _blind_for = pick

    def blind(self, kind: str, count: int, game: Engine) -> int | None:
        if kind in (TAKE, LOSE, DROP) and self._plain:
            self._last = None
            return 0  # take (the first of take / leave); the first by name
        return super().blind(kind, count, game)

    def blind_menu(self, count: int, game: Engine) -> int | None:
        return None  # it reads the ways' chances


def _success(o: Option, game: Engine) -> Fraction:
    """How likely a way on is to succeed for the likeliest reader: a choice's check at its exact
    chance (as the menu works it out, Paths and all), anything else certain; a malformed choice never."""
    if not o.key.startswith("choice:"):
        return Fraction(1)
    if "check" not in o.tags:
        return Fraction(1) if o.chance is not None else Fraction(0)
    c = game.entry["choices"][int(o.key.removeprefix("choice:"))]
    d = c["difficulty"]
    return check_odds(game, c["ability"], d, c["label"])[1] if d is not None else Fraction(0)


def _ways_or_wait(opts: tuple[Option, ...]) -> list[int]:
    """The menu options the random policy picks among: :func:`_navigation`'s, then the leave and
    rest commands (in one pass over the options); when there are none, waiting."""
    allowed: list[int] = []
    extra: list[int] = []
    for n, o in enumerate(opts):
        if o.tags.isdisjoint(_NOT_A_WAY):
            allowed.append(n)
        elif o.key in ("leave", "rest"):  # commands: never a way on as well
            extra.append(n)
    if extra:
        allowed += extra
    if not allowed:
        allowed = [next((n for n, o in enumerate(opts) if o.key == "wait"), None) or 0]
    return allowed


#: The question kinds whose options :meth:`Policy.pick` reads (every other kind: the first option);
#: exactly the kinds it has a rule for (``tests/test_simulate_caches.py`` holds the two together).
_KINDS_READ = frozenset({MENU, PLAN, ABILITY, GEAR, GEAR_OK, LANGUAGE, ORACLE, ENCOUNTER, ESCAPE, COMBAT, TARGET,
                         TAKE, WON})
#: Tags of the menu options that are no way on (a command, a broken or a closed choice).
_NOT_A_WAY = frozenset({"command", "broken", "closed"})
#: The menu commands :meth:`Policy.menu` looks for.
_MENU_COMMANDS = frozenset({"leave", "rest", "wait"})
#: Per menu option (by identity; the option is kept with them, so its id is not reused): whether it
#: is tagged conditional, 1.0 if it is a dead end, its chance as a float (0.5 unknown).
_OPTION_FACTS: dict[int, tuple[Option, bool, float, float]] = {}
_FACTS_KEPT = 50_000

POLICIES: dict[str, type[Policy]] = {p.name: p for p in (RandomPolicy, CautiousPolicy, BoldPolicy, LikeliestPolicy)}

#: Words (and letters) a script or a person may use for the menu commands.
COMMAND_WORDS = {"w": "wait", "r": "rest", "o": "oracle", "a": "adjust", "l": "leave", "q": "quit"}


def match_menu(q: Question, answer: str) -> tuple[int | None, str]:
    """The option a typed answer names (number, command word or letter, or label), and any rest text."""
    text = answer.strip()
    head, _, rest = text.partition(" ")
    nav = [n for n, o in enumerate(q.options) if "command" not in o.tags]
    if head.isdigit():
        k = int(head)
        return (nav[k - 1] if 1 <= k <= len(nav) else None), rest
    word = COMMAND_WORDS.get(head.lower(), head.lower())
    found = q.index(word)
    if found is not None:
        return found, rest
    lowered = text.lower()
    for n in nav:
        if q.options[n].label.lower() == lowered:
            return n, ""
    return None, rest


class ScriptPlayer:
    """Entry decisions from a script (one per line; ``#`` comments and blank lines skipped)."""

    def __init__(self, lines: list[str], fallback: Policy | None, *, position: int = 0, name: str = "script") -> None:
        self.lines = lines
        self.position = position
        self.fallback = fallback or CautiousPolicy()
        self.keep_going = fallback is not None
        self.name = name
        self._text = ""
        self._why: str | None = None

    def text(self, prompt: str, game: Engine) -> str:
        text, self._text = self._text, ""
        return text

    def explain(self) -> str:
        """Why the last answer was chosen (``play -v``): the script's line, or the policy's reason."""
        if self._why is not None:
            return self._why
        why = self.fallback.explain()
        return f"as the {self.fallback.name} player: {why}" if why else f"as the {self.fallback.name} player would"

    def decide(self, question: Question, game: Engine) -> int:
        self._why = None
        if question.kind != MENU:
            return self.fallback.decide(question, game)
        while self.position < len(self.lines):
            line = self.lines[self.position].strip()
            self.position += 1
            if not line or line.startswith("#"):
                continue
            found, rest = match_menu(question, line)
            if found is None:
                raise RunEnded("stopped", f"{self.name} line {self.position}: '{line}' is not a choice here")
            self._text = rest
            self._why = f"line {self.position}"
            return found
        if self.keep_going:
            return self.fallback.decide(question, game)
        raise RunEnded("stopped", f"the {self.name} ran out of choices")
