"""`dtc lint`, `dtc rule` and `dtc rules`."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import click

from dtc import api
from dtc.api import compile_file
from dtc.cli.base import Exit, fail, finish, guard, load_source
from dtc.config import Config, ConfigError, Settings, cli_severities, config_for, find_config
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint import UnknownRule, lint_compilation, pick_rules
from dtc.reporters import RENDERERS
from dtc.rules import RULES, Context, find_rule
from dtc.source import SourceError


@click.command("lint")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--format", "fmt", type=click.Choice(sorted(RENDERERS)), default="text", show_default=True,
              help="Output format.")
@click.option("--select", multiple=True, metavar="CODES", help="Only these rules (codes, names or prefixes).")
@click.option("--ignore", multiple=True, metavar="CODES", help="Skip these rules (codes, names or prefixes).")
@click.option("--severity", "severities", multiple=True, metavar="RULE=LEVEL",
              help="Report a rule as error, warning or info (an error rule: warning at most).")
@click.option("--config", "config_path", type=click.Path(dir_okay=False, exists=True),
              help="Use this dtc.toml or pyproject.toml instead of searching from each file's folder.")
@click.option("--no-config", is_flag=True, help="Ignore configuration files.")
@click.option("--watch", is_flag=True,
              help="Lint again whenever a file or its configuration is saved (Ctrl-C stops).")
@click.option("--poll-interval", type=float, default=0.5, hidden=True)
@guard
def lint_cmd(files: tuple[str, ...], fmt: str, select: tuple[str, ...], ignore: tuple[str, ...],
             severities: tuple[str, ...], config_path: str | None, no_config: bool, watch: bool,
             poll_interval: float) -> None:
    """Check FILES for broken references, unreachable entries, dead ends, trap loops and
    notation mistakes. Exit 0 without errors, 1 with errors, 2 if a file cannot be read.

    Settings come from the nearest dtc.toml or pyproject.toml [tool.dtc] above each file
    (see docs/configuration.md); --select replaces its select, --ignore and --severity add to it.
    """
    try:
        cli_severity = cli_severities(severities)
        pick_rules(select, ignore)
    except ConfigError as exc:
        fail(str(exc))
    except UnknownRule as exc:
        fail(f"error: unknown rule '{exc.args[0]}' (see `dtc rule --list`)")

    def settings_for(path: str) -> Settings:
        config = Config(None) if no_config else config_for(path, config_path)
        return config.settings_for(path).with_cli(select, ignore, cli_severity)

    #: The last book's objects, kept until the process ends: freeing them one by one took
    #: 0.07 s of a 10,000-entry lint, all of it after the findings were known (see
    #: :func:`finish`). A book before it is freed before the next is read, so that linting many
    #: books holds one at a time. ``--watch`` lints again and again, and keeps nothing.
    kept: list[Context] = []

    def lint_one(path: str) -> list[Diagnostic]:
        kept.clear()
        settings = settings_for(path)
        rules = pick_rules(settings.select, settings.ignore)
        comp = load_source(path) if path == "-" else compile_file(path)
        context = Context(comp.doc, comp.resolved)
        if not watch:
            kept.append(context)
        found = lint_compilation(comp, rules, settings=settings, context=context)
        notes.extend(f"{path}: {n}" for n in context.notes)
        return found

    notes: list[str] = []

    def run() -> list[Diagnostic]:
        notes.clear()
        found: list[Diagnostic] = []
        for path in files:
            found.extend(lint_one(path))
        return found

    if watch:
        if "-" in files:
            fail("error: --watch needs file paths, not '-' (stdin)")
        api.freeze_after_build = False  # a long-running process: every build must stay collectable
        _watch(files, run, fmt, poll_interval, None if no_config else config_path, notes)
    try:
        found = run()
    except (ConfigError, SourceError) as exc:
        fail(str(exc))
    except UnknownRule as exc:  # a configuration's select/ignore are checked when it is read
        fail(f"error: unknown rule '{exc.args[0]}' (see `dtc rule --list`)")
    click.echo(RENDERERS[fmt](found, len(files), notes), nl=False)
    finish(int(Exit.FINDINGS if any(d.severity is Severity.ERROR for d in found) else Exit.CLEAN))


def _watch(files: tuple[str, ...], run: Callable[[], list[Diagnostic]], fmt: str, interval: float,
           config_path: str | None, notes: list[str]) -> None:
    """Poll modification times; lint again on every change; Ctrl-C exits 0."""

    def stamps() -> dict[str, float | None]:
        paths = set(files)
        for f in files:
            found = Path(config_path) if config_path else find_config(Path(f).parent)
            if found is not None:
                paths.add(str(found))
        out: dict[str, float | None] = {}
        for p in sorted(paths):
            try:
                out[p] = os.stat(p).st_mtime_ns
            except OSError:
                out[p] = None
        return out

    def once() -> None:
        try:
            click.echo(RENDERERS[fmt](run(), len(files), notes), nl=False)
        except (ConfigError, SourceError) as exc:
            click.echo(str(exc), err=True)
        click.echo(f"-- watching {len(files)} file{'s' if len(files) != 1 else ''}; Ctrl-C to stop", err=True)

    try:
        seen = stamps()
        once()
        while True:
            time.sleep(interval)
            now = stamps()
            if now != seen:
                seen = now
                click.echo(f"-- {time.strftime('%H:%M:%S')} changed, linting again", err=True)
                once()
    except KeyboardInterrupt:
        raise SystemExit(int(Exit.CLEAN)) from None


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
    """List the rulesets, or summarise one: abilities and their spellings, what each difficulty
    asks, the chance of a check by score, character, combat, encounters and recovery.

    NAME may join a base and an overlay: `dtc rules "death-and-treasure + dungeon-rules"`.
    """
    from dtc.rulesets import REGISTRY, UnknownRuleset, get_ruleset, known_names
    from dtc.rulesets.summary import summarise

    if name is None:
        for key in known_names():
            kind = "overlay" if REGISTRY[key].overlay else "base"
            click.echo(f"{key:<22} {kind:<8} {REGISTRY[key].title}")
        return
    try:
        rs = get_ruleset(name)
    except UnknownRuleset as exc:
        fail(f"error: {exc.message}")
        return
    for line in summarise(rs):
        click.echo(line)
