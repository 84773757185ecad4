"""The notation a published gamebook needs (docs/format.md, "Writing a published gamebook"),
through every engine: the grammar, the compiled graph, lint, play, simulate, odds, the graph's
labels, the print edition's read-out, the language server and renumber.

``tests/fixtures/published/every-form.txt`` writes each form once; ``odds-forms.txt`` the forms
``dtc odds`` works out exactly (its odds are held to ``dtc simulate``'s shares).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.compiler.api import compile_text
from dtc.compiler.notation import Change, Failed, Has, Not, parse_effects, parse_notation
from dtc.lint.engine import lint_compilation
from dtc.runtime.character import Character
from dtc.runtime.core import MENU, TAKE
from dtc.runtime.equipment import Item
from dtc.runtime.policies import RandomPolicy
from helpers.runtime import KeyPlayer, compiled, engine, kinds

HERE = Path(__file__).parent / "fixtures" / "published"
EVERY = HERE / "every-form.txt"
ODDS = HERE / "odds-forms.txt"


def graph_of(path: Path) -> dict[str, Any]:
    return compiled(path.read_text(encoding="utf-8"), str(path))


def bare(hp: int = 8, **scores: int) -> Character:
    """An adventurer with a lit lantern and nothing else (no kit rope, no coins)."""
    abilities = {a: scores.get(a, 10) for a in ("STR", "DEX", "CON", "WIS", "INT", "CHA")}
    return Character("Bare", abilities, hp, hp,
                     [Item("Lantern", "gear", standard=True), Item("Lantern Oil", "gear", 3, standard=True)])


def run(args: list[str]) -> Any:
    return CliRunner().invoke(main, args)


# --- the grammar -----------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("[-rope?]", Change("rope", -1, 1, 7, if_held=True)),
    ("[-all coins]", Change("coins", -1, 1, 11, all=True)),
    ("[+once stone key]", Change("stone key", 1, 1, 16, once=True)),
    ("[+stone key once]", Change("stone key", 1, 1, 16, once=True)),
    ("[+once 4 marks]", Change("marks", 4, 1, 14, once=True)),
    ("[+1d10*3 coins]", Change("coins", 1, 1, 14, dice="1d10", times=3)),
    ("[-1d6 coins?]", Change("coins", -1, 1, 12, if_held=True, dice="1d6")),
    ("[may +rope]", Change("rope", 1, 5, 10, may=True)),
])
def test_each_effect_form_reads_as_the_grammar_says(text: str, expected: Change) -> None:
    assert parse_effects(text) == [expected]


@pytest.mark.parametrize("text", ["[-rope?]", "[-all coins]", "[+once stone key]", "[+1d10*3 coins]",
                                  "[-1d6 coins?]", "[may +rope]", "[+2d6 x 5 gold crowns]"])
def test_an_effect_put_in_words_reads_back_the_same(text: str) -> None:
    (change,) = parse_effects(text)  # type: ignore[misc]
    (again,) = parse_effects(f"[{change.words()}]")  # type: ignore[misc]
    assert (again.name, again.amount, again.all, again.if_held, again.once, again.dice, again.times, again.may) == (
        change.name, change.amount, change.all, change.if_held, change.once, change.dice, change.times, change.may)


@pytest.mark.parametrize("text", ["[+all coins]", "[+rope?]", "[-all]"])
def test_an_effect_that_means_nothing_is_refused(text: str) -> None:
    assert isinstance(parse_effects(text), Failed)


def test_a_choice_takes_effects_and_a_price() -> None:
    ferry = parse_notation("(D0, S37, -3 coins)")
    assert not isinstance(ferry, Failed)
    assert [(c.name, c.amount) for c in ferry.changes] == [("coins", -3)]
    shop = parse_notation("(D0, S12, buy 4 gold crowns, +sword, if not sword)")
    assert not isinstance(shop, Failed)
    assert [(c.name, c.amount) for c in shop.changes] == [("gold crowns", -4), ("sword", 1)]
    assert shop.condition is not None and shop.condition.args == (  # type: ignore[union-attr]
        Has("gold crowns", 4), Not(Has("sword")))


@pytest.mark.parametrize(("text", "has"), [
    ("(D0, S9, if END >= 10)", Has("end", 10, ">=")),
    ("(D0, S9, if HP < 5)", Has("hp", 5, "<")),
    ("(D0, S9, if gold crowns >= 3)", Has("gold crowns", 3, ">=")),
    ("(D0, S9, if gold crowns ≤ 3)", Has("gold crowns", 3, "<=")),
])
def test_a_condition_compares(text: str, has: Has) -> None:
    parsed = parse_notation(text)
    assert not isinstance(parsed, Failed) and parsed.condition == has


# --- the compiled graph ----------------------------------------------------------------------


def test_the_graph_holds_every_form_and_satisfies_its_schema(tmp_path: Path) -> None:
    out = tmp_path / "every.json"
    result = run(["compile", "-o", str(out), str(EVERY)])
    assert result.exit_code == 0, result.output
    from dtc.compiled.schema import load_graph_json

    graph = load_graph_json(str(out))  # checked against schemas/adventure.schema.json
    assert graph["format_version"] == 3
    assert graph["start_with"] == [{"name": "brass compass", "amount": 1}, {"name": "silver marks", "amount": 6}]
    assert graph["limits"] == {"silver marks": 20, "satchel": 2}
    assert graph["containers"] == {"satchel": ["rag", "rope", "glass shard"]} and graph["drop_by_choice"] == ["satchel"]
    entries = {e["number"]: e for e in graph["entries"]}
    assert entries[1]["changes"] == [{"name": "rag", "amount": 1, "may": True}]
    assert entries[2]["choices"][0]["changes"] == [{"name": "silver marks", "amount": -4},
                                                   {"name": "rope", "amount": 1}]
    assert entries[2]["choices"][1]["condition"] == {"has": "silver marks", "count": 4, "op": "<"}
    assert entries[4]["changes"] == [{"name": "rope", "amount": -1, "if_held": True},
                                     {"name": "silver marks", "amount": -1, "all": True},
                                     *({"name": m, "amount": -1, "all": True, "container": "satchel"}
                                       for m in ("rag", "rope", "glass shard")),
                                     {"name": "pearl", "amount": 1, "once": True}]
    assert entries[3]["choices"][1]["changes"] == [{"name": "item of choice from satchel", "amount": -1, "pick": True,
                                                    "container": "satchel", "among": ["rag", "rope", "glass shard"]}]
    assert entries[5]["changes"][0] == {"name": "silver marks", "amount": 1, "dice": "1d4", "times": 2}
    assert entries[5]["choices"][1]["condition"] == {"score": "STR", "count": 12, "op": ">="}
    assert "str" not in graph["possessions"]


def test_a_book_without_the_forms_stays_version_2() -> None:
    graph = compiled("Title: T\n\nAdventure Entries\n\n1 A door (D0, S2, if key). [+key] (D0, S2)\n\n2 Out. THE END\n")
    assert graph["format_version"] == 2


# --- lint --------------------------------------------------------------------------------------


def lint_codes(source: str, path: str = "book.txt") -> list[str]:
    return [d.code for d in lint_compilation(compile_text(source, path))]


def test_the_book_of_every_form_lints_without_a_false_finding() -> None:
    codes = lint_codes(EVERY.read_text(encoding="utf-8"))
    # the dunes give marks on every lap (a true suggestion); the rag and the shard, which nothing
    # reads, take room in the satchel (no DT305)
    assert sorted(codes) == ["DT308"]


BASE = "Title: T\nRules: death-and-treasure\n{front}\nAdventure Entries\n\n"


def book(*entries: str, front: str = "") -> str:
    return BASE.format(front=front) + "\n\n".join(entries) + "\n"


def test_a_gate_on_what_a_choice_buys_opens() -> None:
    src = book("1 A stall. **Buy** (D0, S2, buy 3 marks, +lamp); **Walk** (D0, S2).",
               "2 A dark stair. **Down** (D0, S3, if lamp); **Back** (D0, S1).", "3 The cellar. THE END",
               front="Start with: 5 marks")
    assert "DT211" not in lint_codes(src)


def test_a_gate_past_everything_a_loss_leaves_never_opens() -> None:
    src = book("1 A toll. [-all marks] **Gate** (D0, S2, if marks >= 1); **Back** (D0, S2).", "2 Out. THE END",
               front="Start with: 5 marks")
    assert "DT211" in lint_codes(src)


def test_a_loss_if_held_is_never_an_unpaid_loss() -> None:
    src = book("1 The river. [-rope?] **On** (D0, S2).", "2 Out. THE END")
    assert "DT214" not in lint_codes(src)


def test_a_score_gate_is_judged_neither_way() -> None:
    src = book("1 A wall. **Climb** (D0, S2, if STR >= 13); **Around** (D0, S2, if HP < 3); **Wait** (D0, S2).",
               "2 Over. THE END")
    codes = lint_codes(src)
    assert not {"DT119", "DT211", "DT306", "DT213"} & set(codes)


def test_a_random_find_may_open_a_gate() -> None:
    src = book("1 Sand. [+1d6*5 marks] **Pay** (D0, S2, if marks >= 30); **Dig** (D0, S1); **Leave** (D0, S3).",
               "2 Paid. THE END", "3 Out. THE END")
    assert "DT211" not in lint_codes(src)


def test_a_gate_past_the_limit_is_reported() -> None:
    src = book("1 A purse. [+40 marks] **Guild** (D0, S2, if 60 marks); **On** (D0, S2).", "2 Out. THE END",
               front="Limits: marks 50")
    assert "DT216" in lint_codes(src)


# --- play ----------------------------------------------------------------------------------------


def test_play_follows_every_form() -> None:
    graph = graph_of(EVERY)
    player = KeyPlayer(["take",  # the rag, on the first reading
                        "choice:2", "choice:0",  # the dunes, back
                        "leave", "choice:2", "choice:0",  # the dunes again (the shard only once)
                        "leave", "choice:0", "choice:0",  # the market: buy rope
                        "leave", "choice:1", "choice:0",  # the ford: pay and cross
                        "choice:1"],  # the lighthouse
                       kinds={MENU, TAKE})
    game, events = engine(graph, player, pc=bare(STR=10), seed=3)
    outcome = game.run()
    assert outcome.ending_kind == "victory", [e for e in events if e["event"] in ("end", "refused")]
    held = kinds(events, "possession")
    assert [(e["name"], e["amount"]) for e in held[:2]] == [("brass compass", 1), ("silver marks", 6)]
    gained = [e["name"] for e in held if e["amount"] > 0]
    assert gained.count("rag") == 1 and gained.count("glass shard") == 1
    # the rope bought fills the satchel past 2: the reader drops one (the first by name)
    assert any(e["name"] == "glass shard" and e.get("dropped") == "satchel" for e in held)
    rolls = [e for e in kinds(events, "roll") if "silver marks" in e["why"]]
    assert len(rolls) == 2 and all(r["total"] == 2 * r["rolls"][0] for r in rolls)
    marks = [e for e in held if e["name"] == "silver marks"]
    assert all(0 <= e["held"] <= 20 for e in marks)
    bought = next(i for i, e in enumerate(held) if e["name"] == "rope")
    assert (held[bought - 1]["name"], held[bought - 1]["amount"]) == ("silver marks", -4)
    assert any(e["name"] == "rope" and e["amount"] == -1 and "short" not in e for e in held)  # lost at the bank
    assert any(e["name"] == "silver marks" and e["held"] == 0 and e["amount"] < 0 for e in held)  # all of it
    assert [e["name"] for e in held].count("pearl") == 1


def test_a_gain_past_the_limit_is_lost() -> None:
    graph = compiled(book("1 A chest. [+30 marks] THE END", front="Start with: 15 marks\nLimits: marks 20"))
    game, events = engine(graph, KeyPlayer(), pc=bare())
    game.run()
    found = kinds(events, "possession")
    assert (found[-1]["amount"], found[-1]["held"], found[-1]["over_limit"]) == (5, 20, 25)


def test_a_score_gate_reads_the_adventurer() -> None:
    graph = compiled(book("1 A wall. **Climb** (D0, S2, if STR >= 13); **Walk** (D0, S3).",
                          "2 Over the wall. THE END", "3 Around. THE END"))
    for strength, ending in ((14, 2), (9, 3)):
        player = KeyPlayer(["choice:0", "choice:1"], kinds={MENU})
        game, events = engine(graph, player, pc=bare(STR=strength))
        outcome = game.run()
        assert outcome.entry == ending
        assert bool(kinds(events, "refused")) == (strength < 13)


def test_with_gives_what_a_reader_carries_in() -> None:
    result = run(["play", "--auto", "cautious", "--seed", "1", "--no-save", "--with", "rope", "--with",
                  "3 silver marks", "-v", str(EVERY)])
    assert result.exit_code == 0, result.output
    assert "Gained: 1 rope" in result.output and "Gained: 3 silver marks" in result.output


def test_a_run_with_what_the_reader_carries_in_replays(tmp_path: Path) -> None:
    from dtc.compiled.schema import validate

    path = tmp_path / "door.txt"
    path.write_text(book("1 A door. **Unlock** (D0, S2, if iron key); **Walk** (D0, S3).", "2 In. THE END (victory)",
                         "3 Away. THE END"), encoding="utf-8")
    log = tmp_path / "run.jsonl"
    result = run(["play", "--auto", "random", "--seed", "4", "--no-save", "--with", "iron key", "--with",
                  "2 silver marks", "--log", str(log), str(path)])
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    start = next(e for e in events if e["event"] == "start")
    assert start["carried"] == [{"name": "iron key", "amount": 1}, {"name": "silver marks", "amount": 2}]
    validate(start, "run-log")
    replayed = run(["play", str(path), "--replay", str(log)])
    assert replayed.exit_code == 0, replayed.output
    # the same log without what the reader carried in is another run: the key is not held
    del start["carried"]
    bare_log = tmp_path / "bare.jsonl"
    bare_log.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    assert run(["play", str(path), "--replay", str(bare_log)]).exit_code == 1
    start["carried"] = [{"name": "", "amount": 1}]
    bare_log.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    bad = run(["play", str(path), "--replay", str(bare_log)])
    assert bad.exit_code == 2 and "carried" in bad.output and bad.output.count("\n") == 1


def test_with_that_does_not_read_is_one_line() -> None:
    result = run(["play", "--auto", "cautious", "--no-save", "--with", "", str(EVERY)])
    assert result.exit_code == 2 and "--with" in result.output and "Traceback" not in result.output


# --- simulate and odds ---------------------------------------------------------------------------------


def test_simulate_plays_every_form_without_a_problem() -> None:
    result = run(["simulate", "-n", "200", "--seed", "4", "--workers", "1", "--format", "json", str(EVERY)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["problems"] == []
    assert {e["entry"] for e in report["endings"]} == {6, 7}


def test_odds_bound_what_a_gate_on_hp_leaves_open(tmp_path: Path) -> None:
    path = tmp_path / "hp.txt"
    path.write_text(book("1 A rope bridge. **Cross** (D0, S2, if HP >= 4); **Wait** (D0, S3).",
                         "2 Across. THE END (victory)", "3 Dusk. THE END"), encoding="utf-8")
    result = run(["odds", str(path)])
    assert result.exit_code == 0, result.output
    assert "Victory: random reader between 0% and 50.0% (a gate on HP is not followed" in result.output


def test_odds_follow_a_score_gate_over_every_fresh_adventurer() -> None:
    result = run(["odds", "--format", "json", str(EVERY)])
    assert result.exit_code == 0, result.output
    odds = {o["key"]: o["probability"] for o in json.loads(result.output)["outcomes"]}
    strong = {o["key"]: o["probability"] for o in json.loads(run(["odds", "--format", "json", "--abilities",
              "STR=14,DEX=10,CON=10,WIS=10,INT=10,CHA=10", str(EVERY)]).output)["outcomes"]}
    # the sinkhole (if STR >= 12) is open to 81 of 216 fresh adventurers (3d6), closed to the rest
    assert odds["ending:7"] == pytest.approx(strong["ending:7"] * 81 / 216)


def test_score_gates_weigh_each_group_of_adventurers_exactly(tmp_path: Path) -> None:
    from fractions import Fraction
    from itertools import product

    from dtc.odds import compute_odds

    src = book("1 A cliff. **Climb** (STR D2, S2, F3, if STR >= 11); **Shove the boulder** (STR D1, S4, F3, "
               "if STR < 9 or STR >= 15); **Walk round** (D0, S3).",
               "2 The top. THE END (victory)", "3 The long way. **On** (D0, S1); **Rest** (D0, S4, if CON >= 13).",
               "4 A cave. THE END")
    graph = compiled(src)
    dist: dict[int, Fraction] = {}
    for dice in product(range(1, 7), repeat=3):
        dist[sum(dice)] = dist.get(sum(dice), Fraction(0)) + Fraction(1, 216)
    for policy in ("random", "best"):
        mixed = compute_odds(graph, policy=policy).outcomes
        expected: dict[str, float] = {}
        for (s, p), (c, q) in product(dist.items(), dist.items()):
            one = compute_odds(graph, abilities={"STR": s, "DEX": 10, "CON": c, "WIS": 10, "INT": 10, "CHA": 10},
                               policy=policy, decisive=False).outcomes
            for k, v in one.items():
                expected[k] = expected.get(k, 0.0) + float(p * q) * v
        assert mixed == pytest.approx({k: v for k, v in expected.items() if k in mixed}, abs=1e-9)


def test_odds_follow_a_may_as_the_random_reader_takes_it(tmp_path: Path) -> None:
    path = tmp_path / "hook.txt"
    path.write_text(book("1 A hall. **On** (D0, S2).",
                         "2 A key on a hook. [may +iron key] **Door** (D0, S3, if iron key); **Stair** (D0, S4).",
                         "3 Through. THE END (victory)", "4 Down. THE END"), encoding="utf-8")
    result = run(["odds", "--format", "json", str(path)])
    assert result.exit_code == 0, result.output
    odds = {o["key"]: o["probability"] for o in json.loads(result.output)["outcomes"]}
    assert odds["ending:3"] == pytest.approx(1 / 4)  # taken half the time, then the door or the stair
    play = json.loads(result.output)["play"]
    assert (play["best"], play["worst"]) == pytest.approx((1.0, 0.0))  # the best reader takes it, the worst not


@pytest.mark.parametrize(("policy", "victory"), [("best", 1.0), ("worst", 0.0), ("likeliest", 0.0)])
def test_the_best_and_worst_readers_decide_a_may(tmp_path: Path, policy: str, victory: float) -> None:
    path = tmp_path / "idol.txt"
    path.write_text(book("1 A road. **On** (D0, S5).", "5 A shrine. [may +stone idol] **On** (D0, S2).",
                         "2 The guardian. **Pass** (D0, S3, if not stone idol); **Flee** (D0, S4).",
                         "3 Through. THE END (victory)", "4 Away. THE END"), encoding="utf-8")
    result = run(["odds", "--format", "json", "--policy", policy, str(path)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    odds = {o["key"]: o["probability"] for o in report["outcomes"]}
    assert odds.get("ending:3", 0.0) == pytest.approx(victory)  # (the likeliest reader always takes it)
    assert report["play"]["random"] == pytest.approx(1 / 4)  # left half the time, then Pass or Flee
    assert {e["number"]: e["expected_visits"] for e in report["entries"]}[5] == pytest.approx(1.0)  # not twice


def test_odds_follow_a_score_gate_for_one_adventurer() -> None:
    def endings(strength: int) -> set[str]:
        scores = f"STR={strength},DEX=10,CON=10,WIS=10,INT=10,CHA=10"
        result = run(["odds", "--format", "json", "--abilities", scores, str(EVERY)])
        assert result.exit_code == 0, result.output
        return {o["key"] for o in json.loads(result.output)["outcomes"] if o["probability"] > 0}

    assert "ending:7" in endings(14) and "ending:7" not in endings(9)  # the sinkhole: if STR >= 12


def test_odds_of_the_forms_it_follows_are_exact_and_agree_with_simulate() -> None:
    result = run(["odds", "--format", "json", str(ODDS)])
    assert result.exit_code == 0, result.output
    odds = {o["key"]: o["probability"] for o in json.loads(result.output)["outcomes"]}
    assert odds["ending:5"] == pytest.approx(2 / 15) and odds["escaped"] == pytest.approx(1 / 5)
    sim = run(["simulate", "-n", "3000", "--seed", "8", "--workers", "1", "--format", "json", str(ODDS)])
    shares = {e["entry"]: e["runs"] / 3000 for e in json.loads(sim.output)["endings"]}
    assert shares[5] == pytest.approx(2 / 15, abs=0.03)


def test_odds_work_out_a_rolled_amount_exactly(tmp_path: Path) -> None:
    path = tmp_path / "sand.txt"
    path.write_text(book("1 Start. **Go** (D0, S2).", "2 Sand. [+1d4*2 marks] **Pay** (D0, S3, if marks >= 6); "
                         "**Walk** (D0, S4).", "3 Paid. THE END", "4 Away. THE END"), encoding="utf-8")
    result = run(["odds", "--format", "json", str(path)])
    assert result.exit_code == 0, result.output
    odds = {o["key"]: o["probability"] for o in json.loads(result.output)["outcomes"]}
    assert odds["ending:3"] == pytest.approx(1 / 4)  # 6 or 8 of 2, 4, 6, 8; then Pay or Walk


def test_odds_with_a_reader_who_carries_more(tmp_path: Path) -> None:
    path = tmp_path / "door.txt"
    path.write_text(book("1 A door. **Unlock** (D0, S2, if iron key); **Walk** (D0, S3).", "2 In. THE END (victory)",
                         "3 Away. THE END"), encoding="utf-8")

    def victory(*more: str) -> float:
        result = run(["odds", "--format", "json", *more, str(path)])
        assert result.exit_code == 0, result.output
        return sum(o["probability"] for o in json.loads(result.output)["outcomes"] if o["key"] == "ending:2")

    assert victory() == 0 and victory("--with", "iron key") == pytest.approx(1 / 2)


def test_odds_keep_a_count_to_its_limit(tmp_path: Path) -> None:
    path = tmp_path / "purse.txt"
    path.write_text(book("1 A purse. [+once 8 marks] **Pay** (D0, S2, if marks > 5); **Walk** (D0, S3).",
                         "2 Paid. THE END", "3 Away. THE END", front="Limits: marks 5"), encoding="utf-8")
    result = run(["odds", "--format", "json", str(path)])
    assert result.exit_code == 0, result.output
    assert {o["key"] for o in json.loads(result.output)["outcomes"] if o["probability"] > 0} == {"ending:3"}
    assert "DT216" in lint_codes(path.read_text(encoding="utf-8"))  # (> 5 asks for 6, past the limit)


# --- the graph, the print edition, the language server, renumber -----------------------------------------


def test_the_graph_labels_a_choice_with_its_effects() -> None:
    result = run(["graph", "--format", "mermaid", "-o", "-", str(EVERY)])
    assert result.exit_code == 0, result.output
    assert "-2 silver marks, +ferry token" in result.output
    assert "if 4 silver marks then -4 silver marks, +rope" in result.output


def test_the_print_edition_reads_the_forms_out(tmp_path: Path) -> None:
    result = run(["build", "--no-pdf", "-o", str(tmp_path), str(EVERY)])
    assert result.exit_code in (0, 1), result.output
    text = (tmp_path / "every-form.md").read_text(encoding="utf-8")
    assert "[-all silver marks]" not in text and "(D0, S4, -2 silver marks" not in text
    assert "silver marks" in text and "STR" in text


def test_the_language_server_completes_and_explains_the_forms() -> None:
    from dtc.lsp.completion import complete
    from dtc.lsp.hover import hover
    from dtc.lsp.workspace import Documents

    text = EVERY.read_text(encoding="utf-8") + "\n8 A stall. **Trade** (D0, S1, -2 silver ma"
    snap = Documents().update("file:///every.txt", text, 1)
    last = text.count("\n") + 1
    labels = [i.label for i in complete(snap, last, len(text.rsplit("\n", 1)[1]) + 1).items]
    assert "silver marks" in labels and "str" not in labels
    line = next(n for n, ln in enumerate(text.split("\n"), 1) if "Pay and cross" in ln)
    column = text.split("\n")[line - 1].index("S4") + 1
    found = hover(snap, line, column)
    assert found is not None and "Taking it: -2 silver marks, +ferry token" in str(found.contents)


def test_renumber_keeps_every_form(tmp_path: Path) -> None:
    copy = tmp_path / "book.txt"
    shutil.copy(EVERY, copy)
    before = graph_of(copy)
    result = run(["renumber", "--shuffle", "--seed", "2", str(copy)])
    assert result.exit_code == 0, result.output
    after = graph_of(copy)
    assert sorted(json.dumps(e.get("changes", []), sort_keys=True) for e in after["entries"]) == sorted(
        json.dumps(e.get("changes", []), sort_keys=True) for e in before["entries"])
    assert sorted(json.dumps([c.get("changes") for c in e["choices"]], sort_keys=True) for e in after["entries"]) == (
        sorted(json.dumps([c.get("changes") for c in e["choices"]], sort_keys=True) for e in before["entries"]))


# --- losing what the reader chooses ----------------------------------------------------------------------

PICK = book("1 A cave. [+brass lamp, +iron key] **On** (D0, S2).",
            "2 A troll's toll: erase one item of your choice. [-1 item of choice] **Door** (D0, S3, if iron key); "
            "**Stair** (D0, S4, if brass lamp); **Back** (D0, S5).",
            "3 Through. THE END (victory)", "4 Down. THE END", "5 Out. THE END")


def test_the_reader_chooses_what_to_lose() -> None:
    graph = compiled(PICK)
    assert graph["entries"][1]["changes"] == [{"name": "item of choice", "amount": -1, "pick": True}]
    assert graph["possessions"] == ["brass lamp", "iron key"]
    assert lint_codes(PICK) == []  # both gates may open: the reader chooses
    player = KeyPlayer(["choice:0", "lose:0", "choice:0"], kinds={MENU, "lose"})  # the lamp (sorted first)
    game, events = engine(graph, player, pc=bare())
    outcome = game.run()
    assert (outcome.entry, kinds(events, "possession")[-1]["name"]) == (3, "brass lamp")  # kept the key


def test_odds_follow_a_loss_the_reader_chooses(tmp_path: Path) -> None:
    path = tmp_path / "pick.txt"
    path.write_text(PICK, encoding="utf-8")

    def odds(*more: str) -> dict[str, float]:
        result = run(["odds", "--format", "json", *more, str(path)])
        assert result.exit_code == 0, result.output
        return {o["key"]: o["probability"] for o in json.loads(result.output)["outcomes"] if o["probability"] > 0}

    # the random reader loses the lamp or the key, each half the time; then a way on or back
    assert odds() == pytest.approx({"ending:3": 1 / 4, "ending:4": 1 / 4, "ending:5": 1 / 2})
    # the likeliest reader gives up the first held by name (the brass lamp), as play's does
    assert odds("--policy", "likeliest") == pytest.approx({"ending:3": 1 / 2, "ending:5": 1 / 2})
    assert odds("--policy", "best") == pytest.approx({"ending:3": 1.0})  # gives up the lamp, takes the door
    assert odds("--policy", "worst") == pytest.approx({"ending:5": 1.0})


def test_a_decision_in_an_entry_that_returns_is_one_line_for_the_best_reader(tmp_path: Path) -> None:
    path = tmp_path / "back.txt"
    path.write_text(book("1 A hall. **Door** (D0, S2, if iron key); **Cellar** (D0, S3).", "2 Out. THE END",
                         "3 A key on a nail. [may +iron key] Return to your most recent entry."), encoding="utf-8")
    result = run(["odds", "--policy", "best", str(path)])
    assert result.exit_code == 2 and "returns to the most recent one" in result.output
    assert result.output.count("\n") == 1


def test_a_loss_the_reader_chooses_may_fall_on_what_no_condition_reads(tmp_path: Path) -> None:
    path = tmp_path / "rag.txt"
    path.write_text(book("1 A cave. [+2 iron key, +rag] **On** (D0, S2).",
                         "2 A toll. [-1 item of choice] **Door** (D0, S3, if 2 iron key); **Back** (D0, S4).",
                         "3 Through. THE END (victory)", "4 Out. THE END"), encoding="utf-8")
    result = run(["odds", "--format", "json", str(path)])
    assert result.exit_code == 0, result.output
    odds = {o["key"]: o["probability"] for o in json.loads(result.output)["outcomes"]}
    assert odds["ending:3"] == pytest.approx(1 / 4)  # the rag lost half the time: both keys kept
    sim = run(["simulate", "-n", "3000", "--seed", "8", "--workers", "1", "--format", "json", str(path)])
    shares = {e["entry"]: e["runs"] / 3000 for e in json.loads(sim.output)["endings"]}
    assert shares[3] == pytest.approx(1 / 4, abs=0.03)


@pytest.mark.parametrize("first", ["[may +iron key]", "[+1d4*2 marks]", "[+rag, +iron key] [-1 item of choice]"])
def test_odds_start_from_a_first_page_that_leaves_more_than_one_state(tmp_path: Path, first: str) -> None:
    gate = "if marks >= 6" if "marks" in first else "if iron key"
    path = tmp_path / "first.txt"
    path.write_text(book(f"1 The first page. {first} **Door** (D0, S2, {gate}); **Walk** (D0, S3).",
                         "2 In. THE END (victory)", "3 Away. THE END"), encoding="utf-8")
    result = run(["odds", "--format", "json", str(path)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    # the key taken, 6 or 8 marks rolled, the rag given up: half the time each; then Door or Walk
    assert {o["key"]: o["probability"] for o in report["outcomes"]}["ending:2"] == pytest.approx(1 / 4)
    assert {e["number"]: e["expected_visits"] for e in report["entries"]}[1] == pytest.approx(1.0)


@pytest.mark.parametrize(("first", "climb", "expected"), [
    ("[+iron key]", "if rope", {"ending:4": 1.0}),  # the kit's rope is never offered: the key goes
    ("[-rope] [+rope, +iron key]", "if rope", {"ending:3": 0.5, "ending:4": 0.5}),  # the kit's rope lost first
    ("[+rope, +iron key]", "if 2 rope", {"ending:3": 0.5, "ending:4": 0.5}),  # the book's rope or the key
])
def test_a_loss_the_reader_chooses_never_takes_the_kit(tmp_path: Path, first: str, climb: str,
                                                        expected: dict[str, float]) -> None:
    path = tmp_path / "kit.txt"
    path.write_text(book(f"1 A cave. {first} **On** (D0, S2).",
                         f"2 A toll. [-1 item of choice] **Door** (D0, S3, if iron key); **Climb** (D0, S4, {climb}).",
                         "3 Through. THE END (victory)", "4 Up. THE END"), encoding="utf-8")
    result = run(["odds", "--format", "json", str(path)])
    assert result.exit_code == 0, result.output
    odds = {o["key"]: o["probability"] for o in json.loads(result.output)["outcomes"] if o["probability"] > 0}
    assert odds == pytest.approx(expected)
    sim = run(["simulate", "-n", "2000", "--seed", "5", "--workers", "1", "--format", "json", str(path)])
    shares = {f"ending:{e['entry']}": e["runs"] / 2000 for e in json.loads(sim.output)["endings"]}
    assert shares == pytest.approx(expected, abs=0.04)
    explained = run(["odds", "--explain", "--policy", "best", str(path)])  # what is held, in words
    assert explained.exit_code == 0 and "rope" in explained.output and "kit:" not in explained.output


# --- a fight's outcomes as exits ---------------------------------------------------------------------------

FIGHT = book("1 A bandit blocks the bridge.\nMarsh Bandit HP 3 | Morale 7 | Knife d4 | win S@over, lose S2, flee S3",
             "@over You cross the bridge. THE END (victory)", "2 You wake in a ditch, robbed. THE END",
             "3 You run home. THE END")


def test_a_fight_block_names_its_exits() -> None:
    graph = compiled(FIGHT)
    (block,) = graph["creatures"]
    assert block["exits"] == {"win": 4, "lose": 2, "flee": 3} and graph["format_version"] == 3
    assert sorted(x["target"] for x in graph["entries"][0]["exits"]) == [2, 3, 4]
    assert lint_codes(FIGHT) == []  # the exits are notation: no prose-reference, no dead end


def test_play_follows_a_fights_exits() -> None:
    graph = compiled(FIGHT)
    reached = set()
    for seed in range(40):
        game, _ = engine(graph, KeyPlayer(fallback=RandomPolicy()), pc=bare(hp=1 + seed % 3), seed=seed)
        outcome = game.run()
        reached.add(outcome.entry)
        assert outcome.kind != "died"  # a lost fight leads to 3
    assert reached == {2, 3, 4}


def test_renumber_keeps_a_fights_exits(tmp_path: Path) -> None:
    copy = tmp_path / "fight.txt"
    copy.write_text(FIGHT, encoding="utf-8")
    result = run(["renumber", str(copy)])
    assert result.exit_code == 0, result.output
    assert "win S2, lose S3, flee S4" in copy.read_text(encoding="utf-8")  # file order: 1, @over, 2, 3
    assert compiled(copy.read_text(encoding="utf-8"))["creatures"][0]["exits"] == {"win": 2, "lose": 3, "flee": 4}


def test_a_repeatable_finds_loop_is_a_real_loop_past_the_search_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    import dtc.lint.rules.dt308_repeatable_find as rule
    from dtc.compiler.api import compile_file

    monkeypatch.setattr(rule, "LOOP_BUDGET", 0)  # the loop through the component's root
    found = [d for d in lint_compilation(compile_file(str(Path(__file__).parent.parent / "adventures"
                                                          / "the-tidewater-vault.txt"))) if d.code == "DT308"]
    assert found
    for d in found:
        assert d.witness is not None and d.witness[-1].entry == d.entry
        entries = [s.entry for s in d.witness]
        assert d.entry in entries[:-1]  # reached, then reached again
