"""systems/death_and_treasure."""
