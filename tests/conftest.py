from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers import require_sample_dungeon
from helpers.browser import browser  # noqa: F401  (the fixture every Chromium test uses)


@pytest.fixture
def sample_text() -> str:
    return require_sample_dungeon()


@pytest.fixture
def sample_path(tmp_path: Path, sample_text: str) -> Path:
    path = tmp_path / "sample-dungeon.txt"
    path.write_text(sample_text, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def plain_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """Output as in a pipe, whatever the environment the tests run in asks for (colour, width)."""
    for name in ("NO_COLOR", "FORCE_COLOR", "COLUMNS"):
        monkeypatch.delenv(name, raising=False)


#: Test modules whose tests take seconds each, or whose whole run takes tens of seconds (seeded
#: simulations of every book, exhaustive odds, hostile inputs in subprocesses, property tests, the
#: language server over stdio): marked ``slow``. A single slow test elsewhere carries
#: ``@pytest.mark.slow`` itself.
SLOW_MODULES = frozenset({
    "test_accessibility", "test_benchmarks_generator", "test_characters", "test_condition_fastpath",
    "test_docs_examples", "test_effects_reference", "test_graph", "test_hostile_numbers", "test_import_hostile",
    "test_odds_chain", "test_odds_linsolve", "test_renumber_property",
    "test_dominoes_odds", "test_dungeon_rules_fidelity", "test_fidelity_rats_and_treasure", "test_fuzz",
    "test_hostile_round3", "test_incremental", "test_lsp", "test_lsp_outline", "test_lsp_wire",
    "test_odds_maze_rats_book", "test_odds_memory", "test_outcomes_agree", "test_parallel", "test_play_words",
    "test_progress", "test_properties", "test_reliability_io", "test_replay", "test_run_log_schema",
    "test_runtime_terminal", "test_seed_rulings_fidelity", "test_simulate_caches", "test_simulate_failure_logs",
    "test_simulate_pinned", "test_simulate_workers", "test_startup_imports", "test_systems_contract",
    "test_systems_fidelity", "test_vscode", "test_zilch_counted_odds", "test_zilch_fidelity",
})


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With ``-m "not slow ..."`` a module of :data:`SLOW_MODULES` is not even imported (collecting
    it costs seconds of the quick run)."""
    if collection_path.stem in SLOW_MODULES and "not slow" in str(config.getoption("markexpr") or ""):
        return True
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that drives Chromium (through the ``browser`` fixture) ``browser``, and every
    test of :data:`SLOW_MODULES` ``slow``: ``scripts/test --quick`` runs ``-m "not slow and not
    browser"``, a developer's run of under a minute; ``scripts/test`` runs everything."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
        module = getattr(item, "module", None)
        if module is not None and module.__name__.rpartition(".")[2] in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
