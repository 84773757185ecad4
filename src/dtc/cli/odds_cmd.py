"""`dtc odds FILE [--character C | --abilities STR=10,...] [--policy P] [--format text|json]`."""

from __future__ import annotations

import json
import sys

import click

from dtc.cli.base import (
    Exit,
    carrying,
    color_wanted,
    ends_cleanly,
    fail,
    guard,
    limit_option,
    load_graph,
    output_option,
    policy_option,
    report_format_option,
    ruling_option,
    with_option,
)
from dtc.cli.progress import Working
from dtc.compiled.graphjson import CompiledGraph
from dtc.fileio import preflight, write_text
from dtc.systems import Ruleset, UnknownRuleset, get_ruleset


def ruleset_of(graph: CompiledGraph, file: str) -> Ruleset:
    try:
        return get_ruleset(graph.get("rules"))
    except UnknownRuleset as exc:
        fail(f"error: {file}: {exc.message}")
        raise  # unreachable


def parse_abilities(text: str, ruleset: Ruleset) -> dict[str, int]:
    """``STR=10,DEX=12`` -> {"STR": 10, "DEX": 12}, names made canonical; exits 2 with a clear line."""
    scores: dict[str, int] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, sep, value = part.partition("=")
        canonical = ruleset.canonical_ability(name)
        if not sep or canonical is None:
            fail(f"error: --abilities: '{part}' is not NAME=SCORE with one of {', '.join(ruleset.ability_names)}")
            raise AssertionError  # unreachable
        try:
            score = int(value.strip())
        except ValueError:
            fail(f"error: --abilities: '{value.strip()}' is not a whole number (in '{part}')")
            raise AssertionError from None  # unreachable
        low, high = ruleset.score_range
        if not low <= score <= high:
            fail(f"error: --abilities: {canonical} {score} is not a {ruleset.title} score ({low} to {high})")
        scores[canonical] = score
    if not scores:
        fail("error: --abilities: give scores such as STR=10,DEX=12")
    return scores


def character_feature(path: str) -> str | None:
    """The feature a character file notes that changes its checks (Maze Rats: ``path: NAME``)."""
    from dtc.runtime.character import load_character

    pc = load_character(path)  # already read once by character_abilities, which reports its errors
    return next((n.split(":", 1)[1].strip() for n in pc.notes if n.startswith("path:")), None)


def character_abilities(path: str, ruleset: Ruleset, graph: CompiledGraph) -> dict[str, int]:
    """The scores of a character file for the book's checks; exits 2 if it is another system's."""
    from dtc.cli.play_cmd import refuse_other_system
    from dtc.runtime.character import CharacterError, load_character
    from dtc.systems import UnknownRuleset, play_rules

    try:
        pc = load_character(path)
    except CharacterError as exc:
        fail(f"error: {exc}")
        raise  # unreachable
    try:
        rules = play_rules(graph.get("rules"))
    except UnknownRuleset:
        rules = None
    if rules is not None:
        refuse_other_system(pc, rules, path)
    scores: dict[str, int] = {}
    # The overlay's scores (Dungeon Rules: LUCK, WORLDSWAY; AGI is a Death & Treasure DEX) come after.
    extra = dict(pc.stats)
    if pc.dt and "DEX" in pc.abilities:
        extra.setdefault("AGI", pc.abilities["DEX"])
    for name, value in [*pc.abilities.items(), *extra.items()]:
        canonical = ruleset.canonical_ability(name)
        if canonical is not None and canonical not in scores:
            scores[canonical] = int(value)
    return scores


def chosen_rulings(graph: CompiledGraph, rulings: dict[str, str]) -> dict[str, str]:
    """The rulings the book and ``--ruling`` pick (the command line's winning); exits 2 on a bad one."""
    from dtc.systems import split_rulings

    if rulings:
        from dtc.cli.play_cmd import with_rulings

        with_rulings(graph, rulings)  # checks them against the book's systems
    try:
        book = split_rulings(graph.get("rules"))[1]
    except UnknownRuleset:
        book = {}
    return {**book, **rulings}


def emit(text: str, output: str | None, color: bool = False, inputs: tuple[str | None, ...] = ()) -> None:
    """Print ``text``, or write it to ``output`` (never over one of the command's ``inputs``)."""
    if output is None or output == "-":
        click.echo(text, nl=not text.endswith("\n"), color=color)
    else:
        write_text(output, text if text.endswith("\n") else text + "\n", inputs=inputs)
        click.echo(f"wrote {output}", err=True)


@click.command("odds")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--character", "character", type=click.Path(dir_okay=False, exists=True),
              help="A character JSON file (dtc character new): use its ability scores.")
@click.option("--abilities", metavar="STR=10,DEX=12,...",
              help="Ability scores to use (with --character: override some of its scores).")
@policy_option("random", "likeliest", "best", "worst", lead="How the reader picks among an entry's options",
               old_names=True)
@click.option("--explain", is_flag=True, help="Show the best reader's move at each entry and state it reaches.")
@click.option("--approach", type=click.Choice(["check", "best", "gear"]), default="check", show_default=True,
              help="How a difficulty is met in the path odds: roll the check; the surest way without gear; "
                   "or with appropriate gear at hand.")
@click.option("--encumbered", is_flag=True, help="Roll every check twice and keep the worse.")
@ruling_option
@with_option
@report_format_option
@limit_option
@output_option("Write the report to this file (default: stdout).")
@guard
@ends_cleanly
def odds_cmd(file: str, character: str | None, abilities: str | None, policy: str, explain: bool, approach: str,
             encumbered: bool, rulings: dict[str, str], carried: list[tuple[str, int]], fmt: str, limit: int,
             output: str | None) -> None:
    """The exact odds of every check and path of FILE (a source or a compiled .json).

    For each choice: the chance its check passes (for one adventurer, or over every freshly
    rolled one), the surest way to meet its difficulty and that way's encounter risk. For the
    book, solved as an absorbing Markov chain with sparse linear algebra: the chance of each
    ending, of escaping by the entrance, of getting stuck, and of reaching each entry, with the
    expected visits. See docs/odds.md.
    """
    from dtc.odds import one_blas_thread

    one_blas_thread()
    from dtc.odds import compute_odds
    from dtc.odds.report import render_text, to_json

    preflight(output, [file, character])
    with Working(f"reading {file}"):
        graph = carrying(load_graph(file), carried)
    ruleset = ruleset_of(graph, file)
    chosen = chosen_rulings(graph, rulings)
    scores: dict[str, int] | None = None
    feature: str | None = None
    if character is not None:
        scores = character_abilities(character, ruleset, graph)
        feature = character_feature(character)
    if abilities is not None:
        scores = {**(scores or {}), **parse_abilities(abilities, ruleset)}
    if scores is not None:
        missing = [a for a in ruleset.ability_names if a not in scores]
        if missing:
            click.echo(f"note: no score given for {', '.join(missing)}; "
                       f"{'it counts' if len(missing) == 1 else 'each counts'} as {ruleset.typical_score}, "
                       f"a typical {ruleset.title} score", err=True)
    from dtc.odds.analyze import drop_words

    drop_words(graph)  # nearly a third of a large graph's memory, read by nothing below
    try:
        with Working(f"solving the odds of {len(graph['entries']):,} entries"):
            odds = compute_odds(graph, abilities=scores, policy=policy, approach=approach, encumbered=encumbered,
                                explain=explain, feature=feature)
    except ValueError as exc:
        fail(f"error: {file}: {exc}")
        raise  # unreachable
    del graph  # the report needs only the odds: the parsed book (most of the memory) goes before it is written
    if chosen:
        odds.assumptions.append("rulings " + ", ".join(f"{k}: {v}" for k, v in chosen.items())
                                + " (they change fights, reactions and encounters, which these odds do not model)")
    if fmt == "json":
        # Indented for a person at a terminal; compact for a file or a pipe (a program reads it,
        # and Python's encoder is three times slower with indentation).
        pretty = output is None and sys.stdout.isatty()
        emit(json.dumps(to_json(odds), ensure_ascii=False, **({"indent": 2} if pretty else {"separators": (",", ":")})),
             output, inputs=(file, character))
    else:
        color = output in (None, "-") and color_wanted()
        emit(render_text(odds, limit=limit, color=color, explain=explain), output, color, (file, character))
    raise SystemExit(int(Exit.CLEAN))
