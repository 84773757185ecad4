"""The runtime's shortcuts change nothing: the dice draw what ``random.Random`` would, a steady
adventurer's load is the load, and a sink that names its kinds gets exactly those events."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from dtc.compiler.api import compile_text
from dtc.runtime.character import Character
from dtc.runtime.dice import Dice, parse_dice
from dtc.runtime.engine import Engine
from dtc.runtime.equipment import Item
from dtc.runtime.policies import RandomPolicy
from dtc.systems import play_rules


def test_dice_draw_what_randint_and_randrange_draw() -> None:
    for seed in range(40):
        dice, rng = Dice(seed), random.Random(seed)
        for k in range(200):
            step = k % 5
            if step == 0:
                assert dice.die(2 + k % 11) == rng.randint(1, 2 + k % 11)
            elif step == 1:
                assert dice.pick(1 + k % 9) == rng.randrange(1 + k % 9)
            elif step == 2:
                assert dice.between(-3, 3 + k % 4) == rng.randint(-3, 3 + k % 4)
            elif step == 3:
                roll = dice.roll("2d8+1")
                dice_rolled = tuple(rng.randint(1, 8) for _ in range(2))
                assert (roll.expr, roll.dice, roll.total) == ("2d8+1", dice_rolled, sum(dice_rolled) + 1)
            else:
                assert dice.random() == rng.random()


def test_dice_refuse_empty_ranges_as_random_does() -> None:
    dice = Dice(1)
    for call in (lambda: dice.pick(0), lambda: dice.die(0), lambda: dice.between(3, 2)):
        try:
            call()
        except ValueError:
            continue
        raise AssertionError("an empty range was drawn from")
    assert dice.roll(parse_dice("4")).total == 4


def test_a_steady_adventurer_reads_the_load_once_and_forgets_it_after() -> None:
    pc = Character("A", {"STR": 10}, 5, 5, [Item("Sack", "gear", weight=Fraction(1, 2))])
    with pc.steady():
        assert pc.load == Fraction(1, 2)
        with pc.steady():  # nested: still steady
            assert pc.load == Fraction(1, 2)
        assert pc.load == Fraction(1, 2)
    pc.items.append(Item("Plate", "armour", weight=Fraction(3)))
    assert pc.load == Fraction(7, 2)


def test_a_sink_naming_its_kinds_gets_only_those_and_the_others_get_all() -> None:
    graph = compile_text("T\n\nAdventure Entries\n\n1 A hall. On (D0, S2).\n\n2 A vault. THE END\n", "t.txt").graph()
    everything: list[dict[str, Any]] = []
    entries: list[dict[str, Any]] = []

    class Entries:
        kinds = frozenset({"entry"})

        def __call__(self, event: dict[str, Any]) -> None:
            entries.append(event)

    rules = play_rules(None)
    dice = Dice(3)
    engine = Engine(graph, rules.new_character(dice), RandomPolicy(), dice=dice, rules=rules,
                    sinks=[Entries(), everything.append])
    engine.run()
    assert [e["seq"] for e in everything] == list(range(len(everything)))
    assert entries == [e for e in everything if e["event"] == "entry"] and entries
