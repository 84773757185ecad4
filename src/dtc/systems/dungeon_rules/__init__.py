"""systems/dungeon_rules."""
