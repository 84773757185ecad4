"""`dtc lint`, `dtc rule` and `dtc rules`."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import click

from dtc import runmode
from dtc.cli.base import Exit, color_wanted, ends_cleanly, fail, finish, guard, load_source, reader_gone, terminal_width
from dtc.cli.progress import Working
from dtc.compiler.api import compile_file, compile_text
from dtc.compiler.source import SourceError
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.configuration import Config, ConfigError, Settings, cli_severities, config_for, find_config
from dtc.lint.engine import UnknownRule, lint_compilation, names_nothing, pick_rules
from dtc.lint.reporters import FORMATS, Style, render, source_lines
from dtc.lint.rules import RULES, Context, find_rule
from dtc.visible import visible


@click.command("lint")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--format", "fmt", type=click.Choice([*FORMATS, "text"]), default=None,
              help="full (the default): each finding with its source line and a caret under the span (colour at "
                   "a terminal); concise: one line per finding; json, sarif, github: for tools and CI (text: old "
                   "name of full). Without it, the configuration's output-format, else full.")
@click.option("--select", multiple=True, metavar="CODES", help="Only these rules (codes, names or prefixes).")
@click.option("--ignore", multiple=True, metavar="CODES", help="Skip these rules (codes, names or prefixes).")
@click.option("--severity", "severities", multiple=True, metavar="RULE=LEVEL",
              help="Report a rule as error, warning or info (an error rule: warning at most).")
@click.option("--config", "config_path", type=click.Path(dir_okay=False, exists=True),
              help="Use this dtc.toml or pyproject.toml instead of searching from each file's folder.")
@click.option("--no-config", is_flag=True, help="Ignore configuration files.")
@click.option("--watch", is_flag=True,
              help="Lint again whenever a file or its configuration is saved (Ctrl-C stops).")
@click.option("--poll-interval", type=click.FloatRange(min=0.01, max=3600.0), default=0.5, hidden=True,
              help="With --watch: seconds between looks at the files (for tests).")
@click.option("--fix", is_flag=True,
              help="Apply the safe fixes findings carry, then report what remains (each file is replaced "
                   "atomically; its old text is kept as FILE~).")
@click.option("--diff", is_flag=True, help="Show the fixes --fix would apply as a unified diff; write nothing.")
@click.option("--unsafe-fixes", is_flag=True, help="With --fix or --diff, apply the unsafe fixes too.")
@guard
@ends_cleanly
def lint_cmd(files: tuple[str, ...], fmt: str | None, select: tuple[str, ...], ignore: tuple[str, ...],
             severities: tuple[str, ...], config_path: str | None, no_config: bool, watch: bool,
             poll_interval: float, fix: bool, diff: bool, unsafe_fixes: bool) -> None:
    """Check FILES for broken references, unreachable entries, dead ends, trap loops and
    notation mistakes. Exit 0 without errors, 1 with errors, 2 if a file cannot be read.

    Settings come from the nearest dtc.toml or pyproject.toml [tool.dtc] above each file
    (see docs/configuration.md); --select replaces its select, --ignore and --severity add to it.
    """
    if select and names_nothing(select):
        fail("error: --select names no rule, so nothing would be checked (give codes, names or prefixes such as DT1)")
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

    output: str = fmt or "full"
    if fmt is None and not no_config:  # the first file's configuration (or --config's) may name one
        try:
            output = config_for(files[0], config_path).output_format or output
        except ConfigError as exc:
            fail(str(exc))

    #: The last book's objects, kept until the process ends: freeing them one by one took
    #: 0.07 s of a 10,000-entry lint, all of it after the findings were known (see
    #: :func:`finish`). A book before it is freed before the next is read, so that linting many
    #: books holds one at a time. ``--watch`` lints again and again, and keeps nothing.
    kept: list[Context] = []
    #: The source lines the full format shows, by path (only the lines with findings are kept).
    sources: dict[str, dict[int, str]] = {}
    #: What the summary adds about the books (the state analysis approximated, say).
    notes: list[str] = []

    def lint_one(path: str) -> list[Diagnostic]:
        kept.clear()
        settings = settings_for(path)
        rules = pick_rules(settings.select, settings.ignore)
        comp = load_source(path) if path == "-" else compile_file(path)
        context = Context(comp.doc, comp.resolved)
        if not watch:
            kept.append(context)
        found = lint_compilation(comp, rules, settings=settings, context=context)
        if output in ("full", "text") and found:
            sources[comp.path] = source_lines(comp.text, found)
        notes.extend(f"{path}: {n}" for n in context.notes)
        return found

    def run() -> list[Diagnostic]:
        sources.clear()
        notes.clear()
        found: list[Diagnostic] = []
        with Working("linting") as work:
            for n, path in enumerate(files, start=1):
                work.step(f"linting {path}" + (f" ({n} of {len(files)})" if len(files) > 1 else ""))
                found.extend(lint_one(path))
        return found

    color = color_wanted()
    style = Style(color=color, width=terminal_width())

    def show(found: list[Diagnostic]) -> None:
        try:
            click.echo(render(output, found, len(files), sources, style, notes), nl=False, color=color)
        except BrokenPipeError:  # `dtc lint book.txt | head`: the exit status still tells of errors
            reader_gone(int(Exit.FINDINGS if any(d.severity is Severity.ERROR for d in found) else Exit.CLEAN))

    if fix or diff:
        _fix(files, settings_for, output, show, diff=diff, unsafe=unsafe_fixes, watch=watch)
    if watch:
        if "-" in files:
            fail("error: --watch needs file paths, not '-' (stdin)")
        # a long-running process: every build must stay collectable
        with runmode.running(replace(runmode.current(), freeze=False)):
            _watch(files, run, show, poll_interval, None if no_config else config_path)
    try:
        found = run()
    except (ConfigError, SourceError) as exc:
        fail(str(exc))
    except UnknownRule as exc:  # a configuration's select/ignore are checked when it is read
        fail(f"error: unknown rule '{exc.args[0]}' (see `dtc rule --list`)")
    show(found)
    finish(int(Exit.FINDINGS if any(d.severity is Severity.ERROR for d in found) else Exit.CLEAN))


def _fix(files: tuple[str, ...], settings_for: Callable[[str], Settings], fmt: str,
         show: Callable[[list[Diagnostic]], None], *, diff: bool, unsafe: bool, watch: bool) -> None:
    """``--fix`` / ``--diff``: fix every file, report what remains (or print the diffs), exit."""
    from dtc.cli.lint_fix import fix_files, summary

    if watch:
        fail("error: --fix and --diff do not go with --watch")
    if "-" in files:
        fail("error: --fix and --diff need file paths, not '-' (stdin)")

    def lint(path: str, text: str) -> list[Diagnostic]:
        settings = settings_for(path)
        return lint_compilation(compile_text(text, path), pick_rules(settings.select, settings.ignore),
                                settings=settings)

    try:
        report = fix_files(files, lint, diff=diff, unsafe=unsafe, warn=lambda m: click.echo(m, err=True))
    except (ConfigError, SourceError) as exc:
        fail(str(exc))
        return
    except UnknownRule as exc:
        fail(f"error: unknown rule '{exc.args[0]}' (see `dtc rule --list`)")
        return
    if diff:
        click.echo("".join(report.diffs), nl=False)
        click.echo(summary(report, diff=True, unsafe=unsafe), err=True)
        finish(int(Exit.FINDINGS if report.fixed else Exit.CLEAN))
    show(report.found)
    click.echo(summary(report, diff=False, unsafe=unsafe), err=fmt not in ("full", "concise", "text"))
    finish(int(Exit.FINDINGS if any(d.severity is Severity.ERROR for d in report.found) else Exit.CLEAN))


def _watch(files: tuple[str, ...], run: Callable[[], list[Diagnostic]], show: Callable[[list[Diagnostic]], None],
           interval: float, config_path: str | None) -> None:
    """Poll modification times and sizes; lint again on every change, once the files have stopped
    changing for one interval (a save that empties a file before writing it is linted whole); Ctrl-C
    exits 0."""

    def stamps() -> dict[str, tuple[int, int] | None]:
        paths = set(files)
        for f in files:
            found = Path(config_path) if config_path else find_config(Path(f).parent)
            if found is not None:
                paths.add(str(found))
        out: dict[str, tuple[int, int] | None] = {}
        for p in sorted(paths):
            try:
                st = os.stat(p)
                out[p] = (st.st_mtime_ns, st.st_size)
            except OSError:
                out[p] = None
        return out

    def once() -> None:
        try:
            show(run())
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
                while True:  # until a poll finds nothing new
                    time.sleep(interval)
                    settled = stamps()
                    if settled == now:
                        break
                    now = settled
                seen = now
                click.echo(f"-- {time.strftime('%H:%M:%S')} changed, linting again", err=True)
                once()
    except KeyboardInterrupt:
        raise SystemExit(int(Exit.CLEAN)) from None


@click.command("rule")
@click.argument("key", required=False)
@click.option("--list", "list_all", is_flag=True, help="List every rule.")
@ends_cleanly
def rule_cmd(key: str | None, list_all: bool) -> None:
    """Print the documentation of the rule KEY, a code (DT102) or a name (missing-failure);
    without KEY, or with --list, list every rule."""
    if list_all or key is None:
        for r in RULES.values():
            click.echo(f"{r.code}  {r.name:<20} {r.severity!s:<8} {r.summary}")
        return
    found = find_rule(key)
    if found is None:
        from dtc.systems import UnknownRuleset, get_ruleset

        try:
            if not key.strip():
                raise UnknownRuleset(key)
            get_ruleset(key)
        except UnknownRuleset:
            names = [r.name for r in RULES.values()]  # names only: DT999 is not a typo of DT209
            fail(f"error: no rule '{key}'{_did_you_mean(key, names)} (see `dtc rule --list`)")
        else:
            fail(f"error: '{key}' is a ruleset, not a lint rule; see `dtc rules {key}`")
        return
    click.echo(f"# {found.code} {found.name} ({found.severity})\n\n{found.doc}")


def _did_you_mean(word: str, names: list[str]) -> str:
    import difflib

    lowered = {n.lower(): n for n in names}
    close = difflib.get_close_matches(word.strip().lower(), list(lowered), n=1, cutoff=0.6)
    return f"; did you mean '{lowered[close[0]]}'?" if close else ""


@click.command("rules")
@click.argument("name", required=False)
@ends_cleanly
def rules_cmd(name: str | None) -> None:
    """List the rulesets, or summarise one: abilities and their spellings, what each difficulty
    asks, the chance of a check by score, character, combat, encounters and recovery.

    NAME may join a base and an overlay: `dtc rules "death-and-treasure + dungeon-rules"`.
    """
    from dtc.systems import UnknownRuleset, all_systems, get_ruleset
    from dtc.systems.summary import summarise

    if name is None:
        systems = all_systems()
        for key in sorted(systems):
            kind = "overlay" if systems[key].overlay else "base"
            click.echo(f"{key:<22} {kind:<8} {systems[key].ruleset.title}")
        return
    try:
        rs = get_ruleset(name)
    except UnknownRuleset as exc:
        rule = find_rule(name.strip())
        if rule is not None:
            fail(f"error: '{name}' is a lint rule, not a ruleset; see `dtc rule {rule.code}` "
                 "(`dtc rules` lists the rulesets)")
        fail(visible(f"error: {exc.message}", newlines=False))
        return
    for line in summarise(rs):
        click.echo(line)
