"""The rule registry: every lint rule by code. Codes are never reused.

A rule is one module in this package; its docstring is its documentation (`dtc rule CODE`).
Retired codes stay listed in :data:`RETIRED` so they are never given to a new rule.
"""

from __future__ import annotations

import importlib

from dtc.lint.rules.base import Context, Rule

#: Every rule module, in code order: the registry. A new rule is one file plus one line here.
_MODULE_NAMES = (
    "dt101_malformed_choice",
    "dt102_missing_failure",
    "dt103_failure_on_d0",
    "dt104_difficulty_range",
    "dt105_unknown_ability",
    "dt106_duplicate_entry",
    "dt107_dangling_reference",
    "dt108_missing_start",
    "dt109_unknown_ruleset",
    "dt110_no_entries",
    "dt111_unknown_key",
    "dt112_malformed_stat_block",
    "dt113_unknown_zone",
    "dt114_hazard_without_check",
    "dt115_unknown_hazard",
    "dt116_malformed_hazard",
    "dt117_hazard_check",
    "dt118_lowercase_entry_start",
    "dt121_number_out_of_range",
    "dt122_roll_ranges",
    "dt123_unknown_ending_kind",
    "dt124_unrecognised_fight",
    "dt125_malformed_holdings",
    "dt126_unknown_container",
    "dt119_unknown_possession",
    "dt120_malformed_effect",
    "dt201_unreachable_entry",
    "dt202_dead_end",
    "dt203_no_way_out",
    "dt204_same_outcome",
    "dt205_self_loop",
    "dt206_unused_creature",
    "dt207_unknown_creature",
    "dt208_dungeon_notation_ignored",
    "dt209_zone_overlap",
    "dt210_unused_hazard",
    "dt211_gate_never_opens",
    "dt212_gated_off_entry",
    "dt213_soft_lock",
    "dt214_unpaid_loss",
    "dt215_no_victory",
    "dt216_gate_past_limit",
    "dt301_numbering_gap",
    "dt302_prose_reference",
    "dt303_dynamic_return",
    "dt304_adjacent_outcomes",
    "dt305_unused_possession",
    "dt306_gate_always_open",
    "dt307_unlabelled_choice",
    "dt308_repeatable_find",
    "dt401_malformed_suppression",
    "dt402_unused_suppression",
)

#: Codes that once named a rule and must never name another.
RETIRED: frozenset[str] = frozenset()

RULES: dict[str, Rule] = {}
for _name in _MODULE_NAMES:
    _rule: Rule = importlib.import_module(f"dtc.lint.rules.{_name}").check
    assert _rule.code not in RULES and _rule.code not in RETIRED, _rule.code
    RULES[_rule.code] = _rule
BY_NAME: dict[str, Rule] = {r.name: r for r in RULES.values()}


def find_rule(key: str) -> Rule | None:
    """A rule by code (``DT102``, any case) or name (``missing-failure``)."""
    return RULES.get(key.upper()) or BY_NAME.get(key.lower())


__all__ = ["BY_NAME", "RETIRED", "RULES", "Context", "Rule", "find_rule"]
