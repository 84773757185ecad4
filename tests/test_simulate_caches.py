"""The simulation's caches and shortcuts change nothing: each is compared with the slow path it
stands for, over many seeds and varied adventurers."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from dtc.compiler.api import compile_file
from dtc.runtime import menu, policies
from dtc.runtime.core import COMBAT, MENU, PLAN, TAKE, TARGET, Question
from dtc.runtime.dice import Dice
from dtc.runtime.engine import Engine
from dtc.runtime.policies import BoldPolicy, CautiousPolicy, Policy, RandomPolicy, _ways_or_wait
from dtc.simulate.runner import Job, play_block
from dtc.systems.death_and_treasure.creation import GEAR, LARGE_SACK, RandomChooser, make_character, random_character
from helpers import BUNDLED


def test_a_random_adventurer_is_made_as_the_step_by_step_creation_makes_it() -> None:
    """The shop's tables give the very adventurer :func:`make_character` with a random chooser makes,
    and leave the dice where it leaves them."""
    for seed in range(1200):
        fast_dice, slow_dice = Dice(seed), Dice(seed)
        fast = random_character(fast_dice)
        slow = make_character(slow_dice, RandomChooser(slow_dice))
        if slow.find(LARGE_SACK) is None:
            slow.add(next(o for o in GEAR if o.item.name == LARGE_SACK).take())
        assert fast.to_dict() == slow.to_dict(), seed
        assert [i.weight for i in fast.items] == [i.weight for i in slow.items]
        assert fast_dice.get_state() == slow_dice.get_state(), seed


class _Checking(RandomPolicy):
    """Random moves; at every entry menu, the menu is built again with no cached options and must
    be the very menu the cache gave."""

    checked = 0
    plans = 0
    blind = None  # every question is built and asked (the plans' too)

    def decide(self, question: Question, game: Engine) -> int:
        caches = game.rules.__dict__
        if question.kind == MENU:
            kept = {k: caches.pop(k) for k in ("_entry_menus", "_check_odds") if k in caches}
            fresh = menu.build(game)
            caches.update(kept)
            assert fresh == question, (game.state.entry, fresh, question)
            # The menu's quick test of resting is the rules' full one.
            assert game.rules.can_rest_now(game) == (game.rules.rest_blocked(game) is None)
            # The moves listed without making the options are those the random policy finds in them.
            moves = menu.moves(game)
            opts = question.options
            assert [opts[n].key for n in _ways_or_wait(opts)] == (moves or ["wait"]), (game.state.entry, moves)
            _Checking.checked += 1
        if question.kind == PLAN:
            label = question.prompt[1:question.prompt.rindex("' (D")]
            d, ability = question.info["difficulty"], question.info["ability"]
            words, p = menu._check_odds(game, ability, d, label)
            assert question.options == menu._plan_options.__wrapped__(tuple(game.rules.plans(d)), words, p)
            _Checking.plans += 1
        return super().decide(question, game)


@pytest.mark.parametrize("path", [p for p in BUNDLED if "glass-orchard" not in p.name], ids=lambda p: p.stem)
def test_cached_menus_equal_menus_built_afresh(path: Path) -> None:
    """Over many adventurers (scores, encumbrance, visits, possessions), every cached menu option is
    the option worked out from scratch."""
    graph = compile_file(path).graph()
    _Checking.checked = _Checking.plans = 0
    tally = play_block(Job(graph, "random", seed=11, max_turns=200), range(40), make_player=_Checking)
    assert tally.runs == 40 and not tally.outcomes.get("error")
    assert _Checking.checked > 100


def test_the_remembered_load_counts_and_defense_are_those_after_every_change() -> None:
    """Adding, using and dumping items, a new list or a grown one, and a changed STR: the load and
    encumbrance read are always those worked out afresh."""
    import random
    from fractions import Fraction

    from dtc.runtime.character import Character
    from dtc.runtime.equipment import ARMOUR, WEAPONS, Item, standard_gear

    rng = random.Random(5)
    offers = [*WEAPONS, *ARMOUR, *GEAR]
    for _ in range(60):
        pc = Character("A", {"STR": rng.randint(3, 18)}, 5, 5, standard_gear())
        for _ in range(40):
            step = rng.randrange(6)
            if step == 0:
                pc.add(offers[rng.randrange(len(offers))].take())
            elif step == 1 and pc.items:
                pc.use(pc.items[rng.randrange(len(pc.items))].name, rng.randint(1, 2))
            elif step == 2 and pc.can_dump_kit():
                pc.dump_kit()
            elif step == 3:
                pc.items.append(Item("Stone", "item", weight=Fraction(rng.randint(1, 9), rng.randint(1, 4))))
            elif step == 4:
                pc.abilities["STR"] = rng.randint(3, 18)
            else:
                pc.items = list(pc.items)
            assert pc.load == pc._load()
            assert pc.encumbered == (pc._load() > pc.abilities["STR"])
            pc.abilities["DEX"] = rng.randint(3, 18) if step == 4 else pc.abilities.get("DEX", 10)
            assert pc.defense == pc._defense() == pc._defense_reference()
            for name in ("Rations", "lantern oil", "Stone", "Sword", "Plate", "nothing"):
                assert pc.count(name) == sum(i.quantity for i in pc.items if i.name.lower() == name.lower())


def test_remembered_attack_odds_are_the_odds_worked_out() -> None:
    """Death & Treasure's attack options and Maze Rats' attack odds, kept per the numbers they show,
    are what the rules work out for every score, modifier, armour and weapon class."""
    from fractions import Fraction

    import dtc.systems.maze_rats.ruleset as mr
    from dtc.probability import worse_of_two
    from dtc.runtime.dice import percent
    from dtc.systems.death_and_treasure import combat as dt
    from dtc.systems.maze_rats import combat as rats

    for score in range(0, 24):
        for mod in (-1, 0, 1):
            for encumbered in (False, True):
                option = dt._attack_option(2, "Sword", "d8", "hand-to-hand", "STR", score, mod, encumbered)
                p = Fraction(max(0, min(20, score - mod)), 20)
                p = worse_of_two(p) if encumbered else p
                assert option.chance == p and option.key == "attack:2"
                assert f"STR {score}: {percent(p)}, d8" in option.detail
    for ab in range(-1, 4):
        for armour in range(4, 12):
            for cls in ("light", "heavy", "ranged", "unarmed"):
                p, words = rats._attack_odds(ab, armour, cls)
                dist = mr.attack_distribution(ab, armour, heavy=cls == "heavy", unarmed=cls == "unarmed")
                assert p == 1 - dist.get(0, Fraction(0))
                mean = sum((d * q for d, q in dist.items()), Fraction(0))
                assert words.format(7).endswith(f"your armour 7, {round(mean / p) if p else 0} damage a hit on average")
                assert rats.expected_damage(ab, armour, mr.PLAIN, heavy=cls == "heavy") == sum(
                    (d * q for d, q in mr.attack_distribution(ab, armour, mr.PLAIN, heavy=cls == "heavy").items()),
                    Fraction(0))


def test_an_offer_hands_out_a_copy_equal_to_its_item() -> None:
    from dataclasses import replace

    from dtc.runtime.equipment import ARMOUR, WEAPONS

    for offer in (*WEAPONS, *ARMOUR, *GEAR):
        copy = offer.take()
        assert copy == replace(offer.item) and copy is not offer.item


def test_one_die_rolls_what_randint_rolls() -> None:
    import random

    for seed in range(30):
        dice, rng = Dice(seed), random.Random(seed)
        for expr, sides, modifier in (("d6", 6, 0), ("d20", 20, 0), ("1d4-1", 4, -1), ("d8+2", 8, 2)):
            roll = dice.roll(expr)
            face = rng.randint(1, sides)
            assert (roll.dice, roll.modifier, roll.total) == ((face,), modifier, face + modifier)
            assert roll.expr == str(Dice(0).roll(expr).expr)


def test_dice_drawing_bits_draw_what_randint_and_randrange_draw() -> None:
    """A die, a total and a pick drawn from the generator's bits (the fast path) are the numbers
    randint and randrange draw, in the same order, for every size up to 100 and some larger."""
    import random

    from dtc.runtime import dice as dice_module

    assert dice_module._SAME_DRAWS
    for seed in range(40):
        dice, rng = Dice(seed), random.Random(seed)
        assert dice._bits is not None
        for n in (*range(1, 101), 1000, 4096, 2**31):
            assert dice.die(n) == rng.randint(1, n)
            assert dice.pick(n) == rng.randrange(n)
        for expr, count, sides, modifier in (("3d6", 3, 6, 0), ("2d6+1", 2, 6, 1), ("d20", 1, 20, 0),
                                             ("4d4-2", 4, 4, -2)):
            assert dice.total(expr) == sum(rng.randint(1, sides) for _ in range(count)) + modifier
        assert dice.get_state() == Dice.from_state({"seed": seed, "version": rng.getstate()[0],
                                                   "state": list(rng.getstate()[1]), "gauss": None}).get_state()


class _Entries:
    """A sink that keeps the entry and end events (it reads those kinds alone, so every shortcut
    taken when nobody reads an event stays on)."""

    kinds = frozenset({"entry", "end"})

    def __init__(self, out: list[dict[str, object]]) -> None:
        self.out = out

    def __call__(self, event: dict[str, object]) -> None:
        self.out.append(dict(event))


class _Everything(_Entries):
    """The same events, from a sink that reads every kind: every event is built, no shortcut taken."""

    kinds = None  # type: ignore[assignment]

    def __call__(self, event: dict[str, object]) -> None:
        if event["event"] in ("entry", "end"):
            self.out.append(dict(event))


def _played_beside(sink: object, graph: Any, policy: str, seed: int, runs: int,
                   monkeypatch: pytest.MonkeyPatch) -> str:
    """The tally digest of ``runs`` seeded runs, each engine given ``sink`` beside the runner's own."""
    from dtc.simulate import runner
    from helpers.simulate import tally_digest

    class Watched(runner.Engine):  # type: ignore[misc]
        def __init__(self, *args: object, sinks: list[object] = (), **kwargs: object) -> None:  # type: ignore[assignment]
            super().__init__(*args, sinks=[*sinks, sink], **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(runner, "Engine", Watched)
        return str(tally_digest(play_block(Job(graph, policy, seed=seed, max_turns=200), range(runs))))


@pytest.mark.parametrize("path", [p for p in BUNDLED if "glass-orchard" not in p.name], ids=lambda p: p.stem)
@pytest.mark.parametrize("policy", ["random", "cautious", "bold", "least-used"])
def test_runs_nobody_watches_play_as_runs_everyone_watches(path: Path, policy: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The shortcuts taken when no sink reads an event (totals drawn without building rolls,
    questions answered from their number of options) draw the same dice and count the same
    events: every entry and end event, numbered, and every tally, are those of runs whose
    every event is built and read."""
    graph = compile_file(path).graph()
    seen: dict[str, list[dict[str, object]]] = {}
    digests = {}
    for name, sink in (("fast", _Entries), ("slow", _Everything)):
        out: list[dict[str, object]] = []
        seen[name] = out
        digests[name] = _played_beside(sink(out), graph, policy, 5, 40, monkeypatch)
    assert len(seen["fast"]) > 80
    assert seen["fast"] == seen["slow"]
    assert digests["fast"] == digests["slow"]


class _Ends(_Entries):
    """The end events alone: the runner's own sink is then the only one reading the entries, and
    is told each by its number (its ``arrived``), no event built."""

    kinds = frozenset({"end"})


class _EndsOfAll(_Everything):
    def __call__(self, event: dict[str, object]) -> None:
        if event["event"] == "end":
            self.out.append(dict(event))


@pytest.mark.parametrize("path", [p for p in BUNDLED if "glass-orchard" not in p.name], ids=lambda p: p.stem)
@pytest.mark.parametrize("policy", ["random", "least-used"])
def test_entries_told_by_number_count_as_entry_events(path: Path, policy: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner counts the entries read through ``arrived`` (no event built) when it is their
    only reader: the tallies (entries seen included, which least-used reads), and every event's
    number, are those of runs where each entry event is built and sent."""
    from dtc.simulate import runner

    graph = compile_file(path).graph()
    ends: dict[str, list[dict[str, object]]] = {}
    digests = {}
    sent: list[object] = []
    call = runner._Visits.__call__

    def counted(self: object, event: dict[str, object]) -> None:
        sent.append(event["number"])
        call(self, event)  # type: ignore[arg-type]

    monkeypatch.setattr(runner._Visits, "__call__", counted)
    for name, sink in (("told", _Ends), ("sent", _EndsOfAll)):
        out: list[dict[str, object]] = []
        ends[name] = out
        sent.clear()
        digests[name] = _played_beside(sink(out), graph, policy, 9, 30, monkeypatch)
        assert (len(sent) > 30) is (name == "sent")  # else told by number, no event built
    assert len(ends["told"]) == 30
    assert ends["told"] == ends["sent"]
    assert digests["told"] == digests["sent"]


def test_a_hazard_found_once_per_entry_and_name_is_the_hazard_looked_up_afresh() -> None:
    """Dungeon Rules' hazard definitions, kept per entry and name, are those a search of the
    book's hazards finds, in every bundled book, and again after the list grows."""
    from types import SimpleNamespace

    from dtc.systems.dungeon_rules.hazards import definition

    def afresh(graph: dict[str, object], entry: dict[str, object], name: str) -> object:
        found = [h for h in graph.get("hazards", []) if h["name"].lower() == name.lower()]  # type: ignore[attr-defined]
        own = [h for h in found if h["entry"] == entry["number"]]
        return own[0] if own else found[0] if found else None

    checked = 0
    for path in BUNDLED:
        graph = compile_file(path).graph()
        game = SimpleNamespace(graph=graph)
        names = {h["name"] for h in graph.get("hazards", [])} | {"Nothing Here", "sour gas pocket"}
        for _ in range(2):
            for entry in graph["entries"]:
                for name in [*entry.get("hazards", []), *names]:
                    assert definition(game, entry, name) is afresh(graph, entry, name)  # type: ignore[arg-type]
                    checked += 1
            if graph.get("hazards"):
                graph["hazards"].append({**graph["hazards"][0], "entry": graph["entries"][0]["number"]})
    assert checked > 100


def test_a_blocks_intelligence_read_once_is_the_intelligence_read_afresh() -> None:
    """Death & Treasure's INT of a stat block, kept per block, is what its stats say, in every
    bundled book, for either spelling and none, and after a block gains the stat."""
    from dtc.systems.death_and_treasure.play import _intelligence

    def afresh(stats: dict[str, int]) -> int | None:
        lowered = {k.lower(): v for k, v in stats.items()}
        return lowered.get("int", lowered.get("intelligence"))

    blocks = [dict(b["stats"]) for path in BUNDLED for b in compile_file(path).graph()["creatures"]]
    blocks += [{"INT": 2}, {"Intelligence": 9}, {"int": 4, "Intelligence": 12}, {}, {"STR": 3}]
    for stats in blocks:
        for _ in range(2):
            assert _intelligence(stats) == afresh(stats)
        stats["Intelligence"] = 7
        assert _intelligence(stats) == afresh(stats)


def _combat_as_first_written(q: Question) -> int:
    """The cautious and bold players' attack, worked out as first written (every option's dice
    parsed, every expectation computed, at every question)."""
    from fractions import Fraction

    from dtc.runtime.dice import parse_dice

    def expected(n: int) -> Fraction:
        o = q.options[n]
        if o.chance is None or o.key == "escape":
            return Fraction(-1)
        dice = o.detail.rsplit(", ", 1)[-1].split()[0] if o.key != "oil" else "d6"
        return o.chance * parse_dice(dice).mean - (Fraction(1, 10) if o.key == "oil" else 0)

    return max(range(len(q.options)), key=lambda n: (expected(n), -n))


def _checking_policy(base: type[Policy]) -> type[Policy]:
    class Checking(base):  # type: ignore[valid-type,misc]
        """At every question, the treasure seen in a plain loop is :attr:`Character.has_treasure`;
        at every menu, the one-pass answer and reason are :meth:`Policy.menu_slow`'s and the
        remembered distances home are those worked out afresh; at every
        attack, the remembered pick is the one worked out afresh; every weight read once is the
        weight read afresh."""

        menus = 0
        attacks = 0
        takes = 0

        def decide(self, question: Question, game: Engine) -> int:
            assert policies._carries_treasure(game.pc.items) == game.pc.has_treasure
            if question.kind == MENU:
                fast = self.menu(question, game)
                fast_why = self.why
                assert (self.menu_slow(question, game), self.why) == (fast, fast_why), game.state.entry
                assert policies.home_distances(game, game.state.start) == policies.distances_to(game, game.state.start)
                Checking.menus += 1
            elif question.kind == COMBAT:
                n = self.combat(question, game)
                if self.why == "the most damage to expect":
                    assert n == _combat_as_first_written(question)
                    Checking.attacks += 1
            elif question.kind == TAKE:
                raw = question.info.get("weight", "0")
                assert policies._weight(raw) == Fraction(str(raw))
                Checking.takes += 1
            return super().decide(question, game)

    return Checking


@pytest.mark.parametrize("policy", [CautiousPolicy, BoldPolicy], ids=lambda p: p.name)
@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_the_cautious_and_bold_players_quick_answers_are_their_slow_answers(path: Path, policy: type[Policy]) -> None:
    """Over many runs, the menus answered in one pass, the attacks remembered per combat menu and
    the weights read once answer as the option-by-option, worked-out-afresh code does."""
    graph = compile_file(path).graph()
    checking = _checking_policy(policy)
    runs = 6 if "glass-orchard" in path.name else 40
    tally = play_block(Job(graph, policy.name, seed=5, max_turns=200), range(runs), make_player=checking)
    assert tally.runs == runs and not tally.outcomes.get("error"), tally.outcomes
    assert checking.menus > 50  # type: ignore[attr-defined]


def test_a_weight_read_once_is_the_weight_read_afresh() -> None:
    """Numbers and texts of every kind, equal values of other types, and a value that is not one."""
    values: list[object] = ["0", "1", "1.5", "3/2", "0.1", 0, 1, 1.0, 1.5, 0.1, -0.0, Fraction(3, 2), "2"]
    for _ in range(2):
        for v in values:
            assert policies._weight(v) == Fraction(str(v)), v
            assert type(policies._weight(v)) is Fraction
    for bad in ("heavy", True, "heavy"):  # a value that is no weight fails each time, as it would
        with pytest.raises(ValueError):
            policies._weight(bad)
    with pytest.raises(ValueError):  # an unhashable value is worked out (and fails as it would), not kept
        policies._weight(["1"])


class _Asked(RandomPolicy):
    """The random policy with every question built and asked (no answer from a count alone)."""

    blind = None


def _played_both_ways(job: Job, runs: int, asked: type[Policy]) -> list[str]:
    """Play runs ``0..runs-1`` of ``job`` with ``asked`` (its player with every question built and
    asked) and as simulate plays them; each must be the same run. The kinds of the questions
    answered from their number of options alone, in order."""
    from dtc.runtime.engine import Engine as _Engine
    from dtc.simulate.runner import play_one
    from dtc.systems import play_rules

    rules = play_rules(job.graph.get("rules"))
    answered: list[str] = []
    pick = _Engine.pick

    def counting(self: _Engine, kind: str, count: int) -> int | None:
        n = pick(self, kind, count)
        if n is not None:
            answered.append(kind)
        return n

    for index in range(runs):
        slow = play_one(job, rules, index, make_player=asked)
        _Engine.pick = counting  # type: ignore[method-assign]
        try:
            fast = play_one(job, rules, index)
        finally:
            _Engine.pick = pick  # type: ignore[method-assign]
        assert fast == slow, (job.policy, index)
    return answered


def test_zilch_answers_from_a_count_are_the_answers_to_the_questions() -> None:
    """The random policy answers Zilch's stance, move and target questions from their number of
    options alone (the options' words are not made): each run is the run in which every question
    is built and asked, seed for seed."""
    path = next(p for p in BUNDLED if "glass-orchard" in p.name)
    graph = compile_file(path).graph()
    answered = _played_both_ways(Job(graph, "random", seed=5, max_turns=300), 25, _Asked)
    assert {"stance", COMBAT, TARGET} <= set(answered)


class _AskedCautious(CautiousPolicy):
    blind = None


class _AskedBold(BoldPolicy):
    blind = None


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_careful_and_bold_answers_from_a_count_are_the_answers_to_the_questions(path: Path) -> None:
    """The cautious and bold players answer a question of a kind they read nothing of (a Zilch
    stance, a Dungeon Rules pace, hazard or rest) from its number of options alone: each run is the
    run in which every question is built and asked, seed for seed."""
    graph = compile_file(path).graph()
    answered = [*_played_both_ways(Job(graph, "cautious", seed=7, max_turns=300), 12, _AskedCautious),
                *_played_both_ways(Job(graph, "bold", seed=7, max_turns=300), 12, _AskedBold)]
    if "glass-orchard" in path.name:
        assert "stance" in answered
    if "chime-pits" in path.name:
        assert "pace" in answered


def test_a_policy_that_answers_otherwise_is_asked() -> None:
    """Only a policy that answers as :class:`Policy` does answers from a count, and only the kinds
    whose options it reads nothing of."""
    class Mine(CautiousPolicy):
        def pick(self, question: Question, game: Engine) -> int:
            return len(question.options) - 1

    assert Mine().blind("stance", 4, None) is None  # type: ignore[arg-type]
    assert CautiousPolicy().blind(MENU, 4, None) is None  # type: ignore[arg-type]
    assert BoldPolicy().blind("stance", 4, None) == 0  # type: ignore[arg-type]


def test_the_kinds_the_policy_reads_are_the_kinds_its_pick_names() -> None:
    """:meth:`Policy.blind` answers every kind but :data:`policies._KINDS_READ` with the first
    option: those must be exactly the kinds :meth:`Policy.pick` has a rule for (a rule added
    there for a new kind must be added to them too)."""
    import ast
    import inspect
    import textwrap

    from dtc.runtime import core

    tree = ast.parse(textwrap.dedent(inspect.getsource(Policy.pick)))
    named = {getattr(core, n.id) for n in ast.walk(tree)
             if isinstance(n, ast.Name) and n.id.isupper() and isinstance(getattr(core, n.id, None), str)}
    assert named == set(policies._KINDS_READ)
