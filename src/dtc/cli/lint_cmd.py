"""`dtc lint`, `dtc rule` and `dtc rules`."""

from __future__ import annotations

import click

from dtc.cli.base import Exit, fail, guard, load_source
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint import UnknownRule, lint_compilation, pick_rules
from dtc.reporters import RENDERERS
from dtc.rules import RULES, find_rule


@click.command("lint")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--format", "fmt", type=click.Choice(sorted(RENDERERS)), default="text", show_default=True,
              help="Output format.")
@click.option("--select", multiple=True, metavar="CODES", help="Only these rules (codes, names or prefixes).")
@click.option("--ignore", multiple=True, metavar="CODES", help="Skip these rules (codes, names or prefixes).")
@guard
def lint_cmd(files: tuple[str, ...], fmt: str, select: tuple[str, ...], ignore: tuple[str, ...]) -> None:
    """Check FILES for broken references, unreachable entries, dead ends, trap loops and
    notation mistakes. Exit 0 without errors, 1 with errors, 2 if a file cannot be read."""
    try:
        rules = pick_rules(select, ignore)
    except UnknownRule as exc:
        fail(f"error: unknown rule '{exc.args[0]}' (see `dtc rule --list`)")
    found: list[Diagnostic] = []
    for path in files:
        found.extend(lint_compilation(load_source(path), rules))
    click.echo(RENDERERS[fmt](found, len(files)), nl=False)
    raise SystemExit(int(Exit.FINDINGS if any(d.severity is Severity.ERROR for d in found) else Exit.CLEAN))


@click.command("rule")
@click.argument("key", required=False)
@click.option("--list", "list_all", is_flag=True, help="List every rule.")
def rule_cmd(key: str | None, list_all: bool) -> None:
    """Print the documentation of a rule, by code (DT102) or name (missing-failure)."""
    if list_all or key is None:
        for r in RULES.values():
            click.echo(f"{r.code}  {r.name:<20} {r.severity!s:<8} {r.summary}")
        return
    found = find_rule(key)
    if found is None:
        fail(f"error: no rule '{key}' (see `dtc rule --list`)")
        return
    click.echo(f"# {found.code} {found.name} ({found.severity})\n\n{found.doc}")


@click.command("rules")
@click.argument("name", required=False)
def rules_cmd(name: str | None) -> None:
    """List the rulesets, or summarise one (abilities and difficulties)."""
    from dtc.rulesets import REGISTRY, UnknownRuleset, get_ruleset, known_names

    if name is None:
        for key in known_names():
            click.echo(f"{key:<22} {REGISTRY[key].title}")
        return
    try:
        rs = get_ruleset(name)
    except UnknownRuleset as exc:
        fail(f"error: unknown ruleset '{exc.name}' (known: {', '.join(known_names())})")
        return
    click.echo(f"{rs.title} ({rs.name})")
    click.echo(f"abilities:    {' '.join(rs.ability_names)}")
    click.echo(f"difficulties: {' '.join(f'D{d}' for d in rs.difficulties)}")
    if rs.source:
        click.echo(f"source:       {rs.source}")
