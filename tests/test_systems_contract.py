"""One contract over every registered game system, built in or added by a plugin.

For each system: a small book in its notation lints clean; the runtime plays it to an outcome;
the exact odds of its check agree with the runtime's own rolls (sampled with fixed seeds); its
adventurers are made, fit its rules and survive a save; the web edition builds. The test-only
plugin ``tests/plugins/dtc_knave_test`` is installed (its distribution metadata and entry point
written beside it on ``sys.path``, as pip would) so the plugin path is held by the same contract,
and once more through the ``dtc`` command in a subprocess.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dtc.compiled.schema import validate
from dtc.compiler.api import compile_text
from dtc.diagnostics import Severity
from dtc.editions import build, render_web
from dtc.lint.engine import lint_compilation
from dtc.odds.analyze import compute_odds
from dtc.runtime.character import Character
from dtc.runtime.core import RunEnded
from dtc.runtime.dice import Dice
from dtc.runtime.engine import Engine
from dtc.runtime.policies import CautiousPolicy, RandomPolicy
from dtc.systems import BUILTIN_SYSTEMS, ENTRY_POINT_GROUP, find_system, get_ruleset, play_rules, plugin_systems
from helpers import ROOT
from helpers.runtime import compiled

PLUGINS = ROOT / "tests" / "plugins"
PLUGIN = "knave-test"
SYSTEMS = [*BUILTIN_SYSTEMS, PLUGIN]


def install_plugin(where: Path) -> Path:
    """Write the plugin's distribution metadata into ``where`` (what ``pip install`` leaves)."""
    info = where / "dtc_knave_test-0.1.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: dtc-knave-test\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{PLUGIN} = dtc_knave_test:SYSTEM\n",
                                           encoding="utf-8")
    (info / "RECORD").write_text("", encoding="utf-8")
    return where


@pytest.fixture(scope="module", autouse=True)
def plugin_installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    site = install_plugin(tmp_path_factory.mktemp("site"))
    sys.path[:0] = [str(site), str(PLUGINS)]
    plugin_systems.cache_clear()
    yield site
    sys.path.remove(str(site))
    sys.path.remove(str(PLUGINS))
    plugin_systems.cache_clear()
    sys.modules.pop("dtc_knave_test", None)


def spec_of(name: str) -> str:
    system = find_system(name)
    assert system is not None, f"{name} is not registered"
    return f"death-and-treasure + {name}" if system.overlay else name


def own_ability(name: str) -> tuple[str, int]:
    """An ability the system itself checks, and its smallest difficulty that rolls."""
    system = find_system(name)
    assert system is not None
    ruleset = system.ruleset
    return ruleset.ability_names[0], min(d for d in ruleset.difficulties if d > 0)


def contract_book(name: str) -> str:
    ability, difficulty = own_ability(name)
    return (f"Title: Contract of {name}\nRules: {spec_of(name)}\nStart: 1\n\nAdventure Entries\n\n"
            f"1 A wall of wet stone. Climb it ({ability} D{difficulty}, S2, F3).\n\n"
            "2 Over the top and out into the light. THE END\n\n"
            "3 You fall back and limp home. THE END\n")


def new_game(name: str, seed: int, player: Any) -> Engine:
    graph = compiled(contract_book(name))
    rules = play_rules(graph["rules"])
    dice = Dice(seed)
    return Engine(graph, rules.new_character(dice), player, dice=dice, rules=rules)


@pytest.mark.parametrize("name", SYSTEMS)
def test_the_book_lints_clean(name: str) -> None:
    found = lint_compilation(compile_text(contract_book(name), "contract.txt"))
    assert [d for d in found if d.severity > Severity.INFO] == []


@pytest.mark.parametrize("name", SYSTEMS)
def test_the_runtime_plays_it_to_an_outcome(name: str) -> None:
    kinds = set()
    for seed in range(12):
        game = new_game(name, seed, CautiousPolicy() if seed % 2 else RandomPolicy())
        outcome = game.run()
        assert outcome.kind in {"escaped", "ended", "died", "lost", "stopped"}, outcome
        kinds.add(outcome.entry)
    assert kinds, "no run ended anywhere"


@pytest.mark.parametrize("name", SYSTEMS)
def test_exact_odds_agree_with_the_runtime_rolls(name: str) -> None:
    ability, difficulty = own_ability(name)
    game = new_game(name, 11, CautiousPolicy())
    pc = game.pc
    graph = game.graph
    scores = {**pc.stats, **pc.abilities}
    odds = compute_odds(graph, abilities=scores, approach="check", encumbered=pc.encumbered)
    exact = odds.outcomes["ending:2"]
    assert math.isclose(exact, float(game.rules.check_chance(pc, ability, difficulty)), abs_tol=1e-12)
    trials = 4000
    wins = 0
    for _ in range(trials):
        try:
            wins += game.rules.check(game, ability, difficulty, "contract")
        except RunEnded:  # pragma: no cover - a check never ends a run
            raise
    sigma = math.sqrt(max(exact * (1 - exact), 1e-9) / trials)
    assert abs(wins / trials - exact) <= 4.5 * sigma + 1e-9, (wins / trials, exact)


@pytest.mark.parametrize("name", SYSTEMS)
def test_adventurers_are_made_fit_their_rules_and_survive_a_save(name: str) -> None:
    rules = play_rules(spec_of(name))
    for seed in range(5):
        pc = rules.new_character(Dice(seed))
        assert rules.fits(pc)
        data = pc.to_dict()
        validate(data, "character")
        again = Character.from_dict(data)
        assert again.to_dict() == data
        assert set(get_ruleset(spec_of(name)).ability_names) & set({**pc.abilities, **pc.stats})


@pytest.mark.parametrize("name", SYSTEMS)
def test_the_web_edition_builds(name: str, tmp_path: Path) -> None:
    graph = compiled(contract_book(name))
    result = build(graph, tmp_path, "book", pdf=False)
    page = next(p for p in result.written if p.name.endswith(".html") and "print" not in p.name)
    html = page.read_text(encoding="utf-8")
    assert f"Contract of {name}" in html
    assert "Climb it" in html
    # every system describes how the page plays it: its own check dice, a roller, its sheet
    system = find_system(name)
    assert system is not None and system.web_rules() is not None
    ability, difficulty = own_ability(name)
    web = system.web_rules()
    assert web is not None
    if system.overlay:  # the overlay rolls its own abilities only; the base keeps the others
        base = find_system(spec_of(name).split(" + ")[0])
        assert base is not None
        ability = next(a for a in system.ruleset.ability_names if a not in base.ruleset.ability_names)
        assert web.checks[difficulty].words(ability) in render_web(compiled(contract_book(name).replace(
            f"Climb it ({own_ability(name)[0]}", f"Climb it ({ability}")))
    else:
        assert web.checks[difficulty].words(ability) in html
    assert 'class="roll"' in html
    assert f'id="sheet-ab-{ability}"' in html


@pytest.mark.parametrize("name", SYSTEMS)
def test_the_print_edition_and_ebook_say_how_to_roll(name: str) -> None:
    """Every system describes itself for a reader with dice (``System.reference``): the print
    edition and the ebook say how its own check is rolled, explain each kind of roll and give its
    sheet lines; the description is plain data (JSON as it is)."""
    import html
    import io
    import json
    import zipfile

    from dtc.editions.epub import render_epub
    from dtc.editions.print import render_print_html
    from dtc.editions.reader import book_rules
    from dtc.systems.reference import describe, roll_words

    system = find_system(name)
    assert system is not None and system.reference_card() is not None
    rules = describe(spec_of(name))
    assert json.loads(json.dumps(rules)) == rules
    ability, difficulty = own_ability(name)
    if system.overlay:  # an overlay's own ability, rolled its own way
        base = find_system(spec_of(name).split(" + ")[0])
        assert base is not None
        ability = next(a for a in system.ruleset.ability_names if a not in base.ruleset.ability_names)
    words = roll_words(rules, ability, difficulty)
    assert words is not None and words == roll_words(describe(name if not system.overlay else spec_of(name)),
                                                     ability, difficulty)
    book = contract_book(name).replace(f"Climb it ({own_ability(name)[0]}", f"Climb it ({ability}")
    graph = compiled(book)
    archive = zipfile.ZipFile(io.BytesIO(render_epub(graph)))
    for page in (render_print_html(graph), archive.read("OEBPS/s1.xhtml").decode() + archive.read(
            "OEBPS/rules.xhtml").decode() + archive.read("OEBPS/sheet.xhtml").decode()):
        assert words in page
        for section in book_rules(graph, rules)["sections"]:  # wandering creatures: a book with a table only
            assert all(html.escape(line) in page for line in section["lines"])
        for line in rules["sheet"]:
            assert html.escape(line["label"]) in page


def test_the_plugin_reaches_every_command(plugin_installed: Path, tmp_path: Path) -> None:
    """An installed plugin adds ``Rules: knave-test`` to lint, rules, play, odds and simulate."""
    book = tmp_path / "book.txt"
    book.write_text(contract_book(PLUGIN), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(plugin_installed), str(PLUGINS),
                                                         os.environ.get("PYTHONPATH", "")])}
    dtc = [sys.executable, "-m", "dtc"]

    def run(*args: str) -> str:
        done = subprocess.run([*dtc, *args], capture_output=True, text=True, env=env, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    assert PLUGIN in run("rules")
    run("lint", str(book))
    assert "THE END at entry" in run("play", str(book), "--auto", "cautious", "--seed", "3")
    odds = run("odds", str(book))
    assert "Knave (test plugin)" in odds and "d20 + bonus ≥ 15" in odds
    assert "Simulated 50 playthroughs" in run("simulate", str(book), "-n", "50", "--seed", "1")
