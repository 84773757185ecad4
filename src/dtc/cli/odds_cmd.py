"""`dtc odds FILE [--character C | --abilities STR=10,...] [--policy P] [--format text|json]`."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from dtc.cli.base import Exit, fail, guard, load_graph, output_option
from dtc.fileio import preflight, write_text
from dtc.rulesets import Ruleset, UnknownRuleset, get_ruleset, known_names
from dtc.schema import SchemaError, load_json


def ruleset_of(graph: dict[str, Any], file: str) -> Ruleset:
    try:
        return get_ruleset(graph.get("rules"))
    except UnknownRuleset as exc:
        fail(f"error: {file}: unknown ruleset '{exc.name}' (dtc knows {', '.join(known_names())})")
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
            scores[canonical] = int(value.strip())
        except ValueError:
            fail(f"error: --abilities: '{value.strip()}' is not a whole number (in '{part}')")
    if not scores:
        fail("error: --abilities: give scores such as STR=10,DEX=12")
    return scores


def character_abilities(path: str, ruleset: Ruleset) -> dict[str, int]:
    try:
        data = load_json(path, "character")
    except SchemaError as exc:
        fail(f"error: {exc}")
        raise  # unreachable
    scores: dict[str, int] = {}
    for name, value in data["abilities"].items():
        canonical = ruleset.canonical_ability(name)
        if canonical is not None:
            scores[canonical] = int(value)
    return scores


def emit(text: str, output: str | None, inputs: tuple[str | None, ...] = ()) -> None:
    """Print ``text``, or write it to ``output`` (never over one of the command's ``inputs``)."""
    if output is None or output == "-":
        click.echo(text, nl=not text.endswith("\n"))
    else:
        write_text(output, text if text.endswith("\n") else text + "\n", inputs=inputs)
        click.echo(f"wrote {output}", err=True)


@click.command("odds")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--character", "character", type=click.Path(dir_okay=False, exists=True),
              help="A character JSON file (dtc character new): use its ability scores.")
@click.option("--abilities", metavar="STR=10,DEX=12,...",
              help="Ability scores to use (with --character: override some of its scores).")
@click.option("--policy", type=click.Choice(["uniform", "cautious"]), default="uniform", show_default=True,
              help="How the reader picks among an entry's options: uniformly, or the likeliest to succeed.")
@click.option("--approach", type=click.Choice(["check", "best", "gear"]), default="check", show_default=True,
              help="How a difficulty is met in the path odds: roll the check; the surest way without gear; "
                   "or with appropriate gear at hand.")
@click.option("--encumbered", is_flag=True, help="Roll every check twice and keep the worse.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--limit", type=click.IntRange(min=0), default=40, show_default=True,
              help="Rows per table in text output (0: all).")
@output_option("Write the report to this file (default: stdout).")
@guard
def odds_cmd(file: str, character: str | None, abilities: str | None, policy: str, approach: str, encumbered: bool,
             fmt: str, limit: int, output: str | None) -> None:
    """The exact odds of every check and path of FILE (a source or a compiled .json).

    For each choice: the chance its check passes (for one adventurer, or over every freshly
    rolled one), the surest way to meet its difficulty and that way's encounter risk. For the
    book, solved as an absorbing Markov chain with sparse linear algebra: the chance of each
    ending, of escaping by the entrance, of getting stuck, and of reaching each entry, with the
    expected visits. See docs/odds.md.
    """
    from dtc.odds import compute_odds
    from dtc.odds.report import render_text, to_json

    preflight(output, [file, character])
    graph = load_graph(file)
    ruleset = ruleset_of(graph, file)
    scores: dict[str, int] | None = None
    if character is not None:
        scores = character_abilities(character, ruleset)
    if abilities is not None:
        scores = {**(scores or {}), **parse_abilities(abilities, ruleset)}
    try:
        odds = compute_odds(graph, abilities=scores, policy=policy, approach=approach, encumbered=encumbered)
    except ValueError as exc:
        fail(f"error: {file}: {exc}")
        raise  # unreachable
    if fmt == "json":
        emit(json.dumps(to_json(odds), indent=2, ensure_ascii=False), output, (file, character))
    else:
        color = output is None and sys.stdout.isatty()
        emit(render_text(odds, limit=limit, color=color), output, (file, character))
    raise SystemExit(int(Exit.CLEAN))
