"""Containers (docs/format.md, "Writing a published gamebook"): ``Containers: backpack: rope, meal``
names what each container holds; ``Limits: backpack 2`` counts every possession in it (what a gain
brings past it is lost, or with ``(choose)`` the reader drops what they choose); ``[-all backpack]``
loses everything in it; ``[-1 item of choice from backpack]`` chooses among what it holds. Through
the grammar, the compiled graph, lint and play (the odds: tests/test_containers_odds.py)."""

from __future__ import annotations

from typing import Any

import pytest

from dtc.compiler.api import compile_text
from dtc.compiler.frontmatter import chosen, containers, limits
from dtc.lint.engine import lint_compilation
from dtc.runtime.character import Character
from dtc.runtime.core import DROP, LOSE, MENU
from dtc.runtime.equipment import Item
from helpers.runtime import KeyPlayer, compiled, engine, kinds

FRONT = "Title: The Mule\nRules: death-and-treasure\n{front}\n\nAdventure Entries\n\n"


def book(*entries: str, front: str) -> str:
    return FRONT.format(front=front) + "\n\n".join(entries) + "\n"


def bare() -> Character:
    """An adventurer with a lantern and nothing else (no kit rope)."""
    abilities = dict.fromkeys(("STR", "DEX", "CON", "WIS", "INT", "CHA"), 10)
    return Character("Bare", abilities, 8, 8, [Item("Lantern", "gear", standard=True),
                                                Item("Lantern Oil", "gear", 3, standard=True)])


def lint_of(src: str) -> list[Any]:
    return list(lint_compilation(compile_text(src, "mule.txt")))


def codes(src: str) -> list[str]:
    return [d.code for d in lint_of(src)]


# --- the grammar and the compiled graph --------------------------------------------------------


def test_the_front_matter_lines_read() -> None:
    assert containers("backpack: rope, meal, tin lamp; weapons: sword") == (
        ("backpack", ("rope", "meal", "tin lamp"), None), ("weapons", ("sword",), None))
    assert limits("coins 50, backpack 8 (choose), weapons 2") == (
        ("coins", 50, None), ("backpack", 8, None), ("weapons", 2, None))
    assert chosen("coins 50, Backpack 8 ( CHOOSE ), weapons 2") == frozenset({"backpack"})


@pytest.mark.parametrize(("value", "message"), [
    ("backpack rope", "expected ':'"),
    ("backpack: rope; weapons: rope", "rope is already in the container backpack"),
    ("backpack: rope; backpack: meal", "the container backpack is named twice"),
    ("", "an empty line"),
])
def test_a_containers_line_that_does_not_read_is_one_error(value: str, message: str) -> None:
    (found,) = [c for c in containers(value) if c[2] is not None]
    assert message in found[2][0]


SRC = book(
    "1 A stable. [+rope, +meal] **Armoury** (D0, S2).",
    "2 A sword and an axe. [+sword, +axe] **On** (D0, S3, -1 item of choice from backpack).",
    "3 A flood. [-all backpack] THE END",
    front="Containers: backpack: rope, meal, lamp; weapons: sword, axe\nLimits: backpack 2 (choose), weapons 1")


def test_the_graph_holds_the_containers_and_their_forms() -> None:
    graph = compiled(SRC)
    assert graph["format_version"] == 3
    assert graph["containers"] == {"backpack": ["rope", "meal", "lamp"], "weapons": ["sword", "axe"]}
    assert graph["limits"] == {"backpack": 2, "weapons": 1}
    assert graph["drop_by_choice"] == ["backpack"]
    (pick,) = graph["entries"][1]["choices"][0]["changes"]
    assert pick == {"name": "item of choice from backpack", "amount": -1, "pick": True, "container": "backpack",
                    "among": ["rope", "meal", "lamp"]}
    assert graph["entries"][2]["changes"] == [
        {"name": m, "amount": -1, "all": True, "container": "backpack"} for m in ("rope", "meal", "lamp")]


# --- lint ---------------------------------------------------------------------------------------


def test_lint_reports_a_gate_that_needs_more_than_a_container_holds() -> None:
    src = book("1 A rack. [+sword, +axe] **Both** (D0, S2, if sword and axe); **On** (D0, S2).", "2 THE END",
               front="Containers: weapons: sword, axe\nLimits: weapons 1")
    found = [d for d in lint_of(src) if d.code == "DT216"]
    assert len(found) == 1 and "the weapons holds at most 1" in found[0].message


def test_lint_is_silent_where_the_container_has_room() -> None:
    src = book("1 A rack. [+sword, +axe] **Both** (D0, S2, if sword and axe); **On** (D0, S2, if not sword).",
               "2 THE END", front="Containers: weapons: sword, axe\nLimits: weapons 2")
    assert "DT216" not in codes(src)


def test_a_reader_who_drops_what_they_choose_is_no_gate_that_never_opens() -> None:
    # The meal is dropped for the lamp by a reader who chooses so: 'if not meal' opens for them.
    src = book("1 A stable. [+meal] **Loft** (D0, S2).", "2 A lamp. [+lamp] **Out** (D0, S3, if not meal); "
               "**Stay** (D0, S3).", "3 THE END",
               front="Containers: backpack: meal, lamp\nLimits: backpack 1 (choose)")
    assert not {"DT211", "DT212", "DT306"} & set(codes(src))


def test_a_gain_past_a_container_limit_is_no_gate_that_never_opens() -> None:
    src = book("1 A rack. [+axe] **Smithy** (D0, S2).", "2 A sword. [+sword] **Out** (D0, S3, if not sword); "
               "**Stay** (D0, S3, if sword).", "3 THE END",
               front="Containers: weapons: sword, axe\nLimits: weapons 1")
    found = set(codes(src))
    assert "DT211" not in found  # 'if not sword' opens: the sword does not fit
    assert "DT306" not in found


def test_an_unknown_container_and_a_choose_on_a_name_are_reported() -> None:
    src = book("1 A thief. [+rope] [-1 item of choice from sack] THE END",
               front="Containers: backpack: rope\nLimits: rope 1 (choose)")
    found = codes(src)
    assert "DT126" in found and "DT125" in found


def test_all_of_a_container_counts_as_a_loss_of_each() -> None:
    src = book("1 A stable. [+rope, +meal] **On** (D0, S2).", "2 A flood. [-all backpack] **Out** (D0, S3, if rope); "
               "**Swim** (D0, S3).", "3 THE END", front="Containers: backpack: rope, meal")
    found = codes(src)
    assert "DT211" in found  # no rope after the flood
    assert "DT305" not in found  # the meal is lost


# --- play ---------------------------------------------------------------------------------------


def test_a_gain_past_a_container_limit_is_lost() -> None:
    graph = compiled(book("1 A rack. [+sword, +axe] THE END", front="Containers: weapons: sword, axe\n"
                          "Limits: weapons 1"))
    game, events = engine(graph, KeyPlayer(), pc=bare())
    game.run()
    found = kinds(events, "possession")
    assert [(e["name"], e["amount"], e.get("over_limit")) for e in found] == [("sword", 1, None), ("axe", 0, 1)]
    assert game.state.possessions == {"sword": 1}


def test_the_reader_drops_what_they_choose_past_a_chosen_limit() -> None:
    graph = compiled(book("1 A stable. [+rope, +meal, +lamp] THE END",
                          front="Containers: backpack: rope, meal, lamp\nLimits: backpack 2 (choose)"))
    player = KeyPlayer(["drop:1"], kinds={DROP})
    game, events = engine(graph, player, pc=bare())
    game.run()
    (asked,) = [q for q in player.asked if q.kind == DROP]
    assert [o.label for o in asked.options] == ["lamp", "meal", "rope"]
    assert "backpack holds at most 2" in asked.prompt
    assert game.state.possessions == {"rope": 1, "lamp": 1}
    assert kinds(events, "possession")[-1] == {**kinds(events, "possession")[-1], "name": "meal", "amount": -1,
                                               "dropped": "backpack"}


def test_all_of_a_container_and_a_choice_from_it() -> None:
    graph = compiled(SRC)
    player = KeyPlayer(["lose:1"], kinds={LOSE})
    game, events = engine(graph, player, pc=bare())
    game.run()
    (lose,) = [q for q in player.asked if q.kind == LOSE]
    assert [o.label for o in lose.options] == ["meal", "rope"]  # the sword is held, but in no backpack
    assert [(e["name"], e["amount"]) for e in kinds(events, "possession")][-2:] == [("rope", -1), ("meal", -1)]
    assert game.state.possessions == {"sword": 1}  # the flood took the backpack, not the weapons


def test_simulate_follows_its_reader_at_a_chosen_limit() -> None:
    from dtc.runtime.policies import RandomPolicy

    graph = compiled(book("1 A stable. [+rope, +meal, +lamp] THE END",
                          front="Containers: backpack: rope, meal, lamp\nLimits: backpack 2 (choose)"))
    kept = set()
    for seed in range(12):
        game, _ = engine(graph, RandomPolicy(), pc=bare(), seed=seed)
        game.run()
        assert sum(game.state.possessions.values()) == 2
        kept.add(tuple(sorted(game.state.possessions)))
    assert len(kept) > 1
    assert MENU  # (the menu is never asked: the first page is an ending)


# --- odds ---------------------------------------------------------------------------------------

MULE = book(
    "1 A stable. [+meal, +lamp] **Armoury** (D0, S2), **Yard** (D0, S3).",
    "2 A rack: a sword and an axe. [+axe, +sword] **On** (D0, S3).",
    "3 A ledge. [+rope] A thief snatches at your pack. [-1 item of choice from backpack] **Climb** (D0, S4, if "
    "rope), **Fight** (D0, S4, if sword), **Give up** (D0, S5).",
    "4 You escape. THE END (victory)",
    "5 Lost. THE END (death)",
    front="Containers: backpack: rope, meal, lamp; weapons: sword, axe\nLimits: backpack 2 (choose), weapons 1")


def odds_of(tmp_path: Any, src: str, *more: str) -> Any:
    import json

    from click.testing import CliRunner

    from dtc.cli import main

    path = tmp_path / "mule.txt"
    path.write_text(src, encoding="utf-8")
    result = CliRunner().invoke(main, ["odds", "--format", "json", *more, str(path)])
    return result, (json.loads(result.output) if result.exit_code == 0 else None)


def mule_victory() -> float:
    """The random reader's chance, worked out by hand as play plays it: the Death & Treasure kit's
    rope is in the backpack; each drop is one of what the backpack holds (kit's or not), each as
    likely; the thief takes one of the book's possessions in it, each as likely; the sword never
    fits beside the axe; at the ledge the reader takes Climb (with a rope) or Give up, each as likely."""
    from fractions import Fraction

    def drops(book: dict[str, int], kit: int) -> list[tuple[Fraction, dict[str, int], int]]:
        held = {m: book.get(m, 0) + (kit if m == "rope" else 0) for m in ("lamp", "meal", "rope")}
        if sum(held.values()) <= 2:
            return [(Fraction(1), book, kit)]
        opts = sorted(m for m, n in held.items() if n > 0)
        out = []
        for m in opts:
            b, k = dict(book), kit
            if b.get(m, 0) > 0:
                b[m] -= 1
            else:
                k -= 1
            out += [(p / len(opts), b2, k2) for p, b2, k2 in drops(b, k)]
        return out

    win = Fraction(0)
    for p1, b1, k1 in drops({"meal": 1, "lamp": 1}, 1):
        for p2, b2, k2 in drops({**b1, "rope": b1.get("rope", 0) + 1}, k1):
            opts = sorted(m for m, n in b2.items() if n > 0)
            for m in opts:
                rope = b2.get("rope", 0) - (m == "rope") + k2
                win += p1 * p2 / len(opts) * (Fraction(1, 2) if rope else 0)
    return float(win)


def test_odds_follow_a_container_exactly_for_the_random_reader(tmp_path: Any) -> None:
    result, found = odds_of(tmp_path, MULE)
    assert result.exit_code == 0, result.output
    victory = sum(o["probability"] for o in found["outcomes"] if o["key"] == "ending:4")
    assert victory == pytest.approx(mule_victory()) and victory == pytest.approx(7 / 18)


def test_odds_agree_with_simulate_on_a_container(tmp_path: Any) -> None:
    from dtc.runtime.dice import Dice
    from dtc.runtime.policies import RandomPolicy
    from dtc.systems import play_rules

    graph = compiled(MULE)
    rules = play_rules(graph["rules"])
    wins = 0
    runs = 1500
    for seed in range(runs):
        game, _ = engine(graph, RandomPolicy(), pc=rules.new_character(Dice(seed)), seed=seed)
        wins += game.run().entry == 4
    assert abs(wins / runs - 7 / 18) < 0.05


@pytest.mark.parametrize(("policy", "victory"), [("best", 1.0), ("worst", 0.0)])
def test_the_best_and_worst_readers_decide_what_to_drop(tmp_path: Any, policy: str, victory: float) -> None:
    # the best reader keeps the rope through both drops and gives the thief the book's rope
    # (the kit's stays): it climbs out every time
    result, found = odds_of(tmp_path, MULE, "--policy", policy)
    assert result.exit_code == 0, result.output
    assert sum(o["probability"] for o in found["outcomes"] if o["key"] == "ending:4") == pytest.approx(victory)
    assert (found["play"]["best"], found["play"]["worst"]) == pytest.approx((1.0, 0.0))
    assert found["play"]["random"] == pytest.approx(7 / 18)


def test_odds_refuse_a_drop_on_a_choice_for_the_best_reader(tmp_path: Any) -> None:
    src = MULE.replace("[+meal, +lamp] **Armoury** (D0, S2)", "**Armoury** (D0, S2, +meal, +lamp)")
    result, _ = odds_of(tmp_path, src, "--policy", "best")
    assert result.exit_code == 2
    assert "chooses what to drop from the backpack on taking a choice" in result.output
    assert "Traceback" not in result.output and result.output.count("\n") == 1


def test_the_best_reader_decides_two_things_on_one_page(tmp_path: Any) -> None:
    # two decisions in one entry: each on to the next, none looping back on itself
    src = book("1 A shelf. [may +cup] [may +bowl] **Feast** (D0, S2, if cup and bowl); **Leave** (D0, S3).",
               "2 Fed. THE END (victory)", "3 Hungry. THE END (death)", front="")
    result, found = odds_of(tmp_path, src, "--policy", "best")
    assert result.exit_code == 0, result.output
    assert {o["key"]: o["probability"] for o in found["outcomes"]}["ending:2"] == pytest.approx(1.0)


def test_odds_keep_what_does_not_fit_lost(tmp_path: Any) -> None:
    src = book("1 A rack. [+axe] **Smithy** (D0, S2).", "2 A sword. [+sword] **Out** (D0, S3, if sword); "
               "**Stay** (D0, S4).", "3 Armed. THE END (victory)", "4 Unarmed. THE END (death)",
               front="Containers: weapons: sword, axe\nLimits: weapons 1")
    result, found = odds_of(tmp_path, src)
    assert result.exit_code == 0, result.output
    assert {o["key"] for o in found["outcomes"] if o["probability"] > 0} == {"ending:4"}


# --- graph labels, the print edition ------------------------------------------------------------

READ = book(
    "1 A stable. [+meal, +lamp] **Armoury** (D0, S2), **Yard** (D0, S3, -all backpack).",
    "2 A rack. [+axe] **On** (D0, S3, -1 item of choice from backpack).",
    "3 A flood. [-all backpack] THE END",
    front="Containers: backpack: rope, meal, lamp; weapons: sword, axe\nLimits: backpack 2 (choose), weapons 1")


def test_the_graph_labels_a_container_as_written(tmp_path: Any) -> None:
    from click.testing import CliRunner

    from dtc.cli import main

    path = tmp_path / "mule.txt"
    path.write_text(READ, encoding="utf-8")
    result = CliRunner().invoke(main, ["graph", "--format", "mermaid", "-o", "-", str(path)])
    assert result.exit_code == 0, result.output
    assert "-all backpack · Yard" in result.output and "-1 item of choice from backpack · On" in result.output
    assert "-all rope" not in result.output


def test_the_print_edition_reads_a_container_out(tmp_path: Any) -> None:
    from click.testing import CliRunner

    from dtc.cli import main

    path = tmp_path / "mule.txt"
    path.write_text(READ, encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "--no-pdf", "-o", str(tmp_path / "out"), str(path)])
    assert result.exit_code in (0, 1), result.output
    text = (tmp_path / "out" / "mule.md").read_text(encoding="utf-8")
    assert "Yard: cross off everything in your backpack, then turn to" in text
    assert "cross off one item of your choice from your backpack" in text
    assert "A flood. Cross off everything in your backpack." in text
    assert "holds rope, meal, lamp; at most 2 in all (past that, cross off one of your choice)" in text
    assert "holds sword, axe; at most 1 in all (what does not fit is lost)" in text


# --- the language server ------------------------------------------------------------------------


def test_the_language_server_completes_a_container_in_a_loss_and_names_what_it_holds() -> None:
    from dtc.lsp.completion import complete
    from dtc.lsp.hover import hover
    from dtc.lsp.workspace import Documents

    text = READ + "\n4 A ditch. [-all bac"
    snap = Documents().update("file:///mule.txt", text, 1)
    last = text.count("\n") + 1
    items = complete(snap, last, len(text.rsplit("\n", 1)[1]) + 1).items
    labels = [i.label for i in items]
    assert "backpack" in labels and "item of choice from backpack" in labels and "meal" in labels
    gain = READ + "\n4 A ditch. [+bac"
    snap_gain = Documents().update("file:///mule2.txt", gain, 1)
    gained = [i.label for i in complete(snap_gain, last, len(gain.rsplit("\n", 1)[1]) + 1).items]
    assert "backpack" not in gained and "meal" in gained  # (a container is never gained)
    line = next(n for n, ln in enumerate(text.split("\n"), 1) if "**Yard**" in ln)
    found = hover(snap, line, text.split("\n")[line - 1].index("S3") + 1)
    assert found is not None and "-all backpack (everything in it: rope, meal, lamp)" in str(found.contents)
    line = next(n for n, ln in enumerate(text.split("\n"), 1) if "**On**" in ln)
    found = hover(snap, line, text.split("\n")[line - 1].index("S3") + 1)
    assert found is not None and "(one of: rope, meal, lamp)" in str(found.contents)


def test_renumber_keeps_the_containers(tmp_path: Any) -> None:
    import json

    from click.testing import CliRunner

    from dtc.cli import main

    path = tmp_path / "mule.txt"
    path.write_text(READ, encoding="utf-8")
    before = compiled(READ)
    result = CliRunner().invoke(main, ["renumber", "--shuffle", "--seed", "3", str(path)])
    assert result.exit_code == 0, result.output
    after = compiled(path.read_text(encoding="utf-8"))
    assert "Containers: backpack: rope, meal, lamp" in path.read_text(encoding="utf-8")
    assert sorted(json.dumps(e.get("changes", []), sort_keys=True) for e in after["entries"]) == sorted(
        json.dumps(e.get("changes", []), sort_keys=True) for e in before["entries"])
    assert (after["containers"], after["limits"], after["drop_by_choice"]) == (
        before["containers"], before["limits"], before["drop_by_choice"])


# --- the exporters ------------------------------------------------------------------------------


def test_twee_keeps_the_containers_and_reads_them_back(tmp_path: Any) -> None:
    from click.testing import CliRunner

    from dtc.cli import main

    path = tmp_path / "mule.txt"
    path.write_text(READ, encoding="utf-8")
    twee = tmp_path / "mule.twee"
    result = CliRunner().invoke(main, ["export", str(path), "--to", "twee", "-o", str(twee)])
    assert result.exit_code in (0, 1), result.output
    text = twee.read_text(encoding="utf-8")
    assert "/* dtc containers: backpack: rope, meal, lamp; weapons: sword, axe */" in text
    assert "/* dtc limits: backpack 2 (choose), weapons 1 */" in text
    assert "[-1 item of choice from backpack]" not in text  # (on a choice: a link's setter cannot say it)
    back = tmp_path / "back.txt"
    result = CliRunner().invoke(main, ["import", str(twee), "-o", str(back)])
    assert result.exit_code in (0, 1), result.output
    before, after = compiled(READ), compiled(back.read_text(encoding="utf-8"))
    assert (after["containers"], after["limits"], after["drop_by_choice"]) == (
        before["containers"], before["limits"], before["drop_by_choice"])
    # the flood's [-all backpack]: each it holds set to 0 in SugarCube, after a note, read back as written
    assert "/* dtc: -all backpack (3) */<<set $rope to 0>><<set $meal to 0>><<set $lamp to 0>>" in text
    assert [e.get("changes") for e in after["entries"]] == [e.get("changes") for e in before["entries"]]


def test_gamebookformat_says_it_has_no_containers(tmp_path: Any) -> None:
    from dtc.interop.export import to_gamebookformat

    out = to_gamebookformat(compiled(READ))  # type: ignore[arg-type]  # (a dict read back from JSON)
    assert any("no containers" in w for w in out.warnings)


def test_lint_reports_a_gate_past_a_container_beside_the_kits_rope() -> None:
    # the Death & Treasure kit's rope goes in the saddlebag too, but never fills it past 2
    src = book("1 A stable. [+bread, +lamp] **Camp** (D0, S2, if bread and lamp and rope); **On** (D0, S2).",
               "2 THE END", front="Containers: saddlebag: rope, bread, lamp\nLimits: saddlebag 2 (choose)")
    assert "DT216" in codes(src)
    src_wide = src.replace("saddlebag 2", "saddlebag 3")
    assert "DT216" not in codes(src_wide)


def test_play_words_a_gain_that_does_not_fit() -> None:
    from dtc.runtime.terminal import possession_words

    assert possession_words({"name": "sword", "amount": 0, "held": 0, "over_limit": 1}) == (
        "No room: 1 sword left behind; now 0.")
    assert possession_words({"name": "bread", "amount": -1, "held": 0, "dropped": "saddlebag"}) == (
        "Dropped: 1 bread (your saddlebag was full); now 0.")


@pytest.mark.parametrize("choose", ["", " (choose)"])
def test_a_start_past_a_container_limit_is_judged_as_play_fits_it(choose: str) -> None:
    # the lamp does not fit beside the rope and the bread: it is lost, or the reader may drop it
    src = book("1 A stable. **Dark road** (D0, S2, if not lamp); **Lit road** (D0, S2, if lamp).", "2 THE END",
               front=f"Start with: bread, lamp\nContainers: saddlebag: rope, bread, lamp\nLimits: saddlebag 2{choose}")
    graph = compiled(src)
    game, _ = engine(graph, KeyPlayer(["drop:1"], kinds={DROP}))
    game.run()
    assert game.held("lamp") == 0  # (the kit's rope, the bread; the lamp lost, or dropped)
    found = set(codes(src))
    if choose:  # a reader may drop the rope or the bread instead: both roads open for some reader
        assert not {"DT211", "DT212", "DT306"} & found
    else:  # the lamp never fits: true findings
        assert {"DT211", "DT306"} <= found


def test_odds_keep_exactly_only_what_a_choice_from_a_container_may_take() -> None:
    # every-form's only pick is from the satchel: the ferry token, gained on every crossing, is not
    # counted one by one (it would grow without end), so the exploration is complete
    import json
    from pathlib import Path

    from click.testing import CliRunner

    from dtc.cli import main

    every = Path(__file__).parent / "fixtures" / "published" / "every-form.txt"
    result = CliRunner().invoke(main, ["odds", "--format", "json", str(every)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["unexplored"] == 0.0


def test_what_a_choice_from_a_container_may_take_is_no_unused_possession() -> None:
    src = book("1 A stall. [+rope, +flute] A thief. [-1 item of choice from bag] **On** (D0, S2).", "2 THE END",
               front="Containers: bag: rope")
    found = [d for d in lint_of(src) if d.code == "DT305"]
    assert [d.message for d in found] == ["'flute' is given but never tested by a condition nor lost"]
