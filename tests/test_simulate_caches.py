"""The simulation's caches and shortcuts change nothing: each is compared with the slow path it
stands for, over many seeds and varied adventurers."""

from __future__ import annotations

from dtc.runtime.dice import Dice
from dtc.systems.death_and_treasure.creation import GEAR, LARGE_SACK, RandomChooser, make_character, random_character


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
