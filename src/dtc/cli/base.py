"""Shared pieces of the CLI: the group, exit codes, option decorators, error handling."""

from __future__ import annotations

import enum
import functools
import importlib
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import click

from dtc import __version__, api, parallel
from dtc.api import Compilation, compile_file, compile_text
from dtc.source import SourceError, read_source

F = TypeVar("F", bound=Callable[..., Any])


class Exit(enum.IntEnum):
    """Process exit status."""

    CLEAN = 0  # nothing to report
    FINDINGS = 1  # errors found (lint), or a run that could not continue
    USAGE = 2  # a file cannot be read, or the command is misused


#: Set by :func:`run`, the installed ``dtc`` command: the process may then end without tearing
#: down its objects (see :func:`finish`). Tests drive :func:`main` and never set it.
QUICK_EXIT = False


def finish(code: int) -> NoReturn:
    """Exit with ``code`` once a command's output is written.

    In the installed command the process ends at once, as mypy's does: freeing a large book's
    objects one by one at interpreter shutdown takes 0.08 s at 10,000 entries and 0.8 s at
    100,000, all of it after the answer is printed. Elsewhere this is a plain ``SystemExit``.
    """
    if QUICK_EXIT:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        os._exit(code)
    raise SystemExit(code)


def fail(message: str, code: Exit = Exit.USAGE) -> None:
    """Print one clear line to stderr and exit (never a traceback)."""
    click.echo(message, err=True)
    sys.exit(int(code))


def load_source(path: str) -> Compilation:
    """Compile a source path (``-`` reads stdin), exiting 2 with a clear line if it can't be read."""
    try:
        if path == "-":
            return compile_text(read_source("-", stdin=True), "<stdin>")
        return compile_file(path)
    except SourceError as exc:
        fail(str(exc))
        raise  # unreachable


def load_graph(path: str) -> dict[str, Any]:
    """A compiled graph: a ``.json`` file checked against its schema, or a source compiled here.

    Exits 2 with one line when the file cannot be read or is not a valid graph.
    """
    from dtc.schema import SchemaError, load_json, validate

    if path.lower().endswith(".json"):
        try:
            graph: dict[str, Any] = load_json(path, "adventure")
        except SchemaError as exc:
            fail(f"error: {exc}")
            raise  # unreachable: fail() exits
        return graph
    graph = load_source(path).graph()
    validate(graph)
    return graph


def output_option(help_text: str = "Write to this file instead of stdout.") -> Callable[[F], F]:
    return click.option("-o", "--output", "output", type=click.Path(dir_okay=False), help=help_text)


def seed_option(func: F) -> F:
    return click.option("--seed", type=int, default=None, help="Fix every random roll (reproducible runs).")(func)


def guard(func: F) -> F:
    """Turn stray OS errors into one line and exit 2 (KeyboardInterrupt exits 130)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except BrokenPipeError:
            sys.stderr.close()
            sys.exit(int(Exit.FINDINGS))
        except OSError as exc:
            name = getattr(exc, "filename", None)
            fail(f"{name + ': ' if name else ''}error: {exc.strerror or exc}")
        except MemoryError:
            fail("error: out of memory (the input is too large for this machine)")

    return wrapper  # type: ignore[return-value]


class LazyGroup(click.Group):
    """A group whose commands are imported only when run (or listed in help).

    ``dtc lint`` then never pays for importing the play runtime, the language server or the
    Graphviz layer.
    """

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*self.lazy, *sorted(set(super().list_commands(ctx)) - set(self.lazy))]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module, _, attr = self.lazy[cmd_name].partition(":")
            command = getattr(importlib.import_module(module), attr)
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)


COMMANDS = {
    "lint": "dtc.cli.lint_cmd:lint_cmd",
    "rule": "dtc.cli.lint_cmd:rule_cmd",
    "compile": "dtc.cli.compile_cmd:compile_cmd",
    "graph": "dtc.cli.graph_cmd:graph_cmd",
    "play": "dtc.cli.play_cmd:play_cmd",
    "character": "dtc.cli.play_cmd:character_group",
    "odds": "dtc.cli.odds_cmd:odds_cmd",
    "simulate": "dtc.cli.simulate_cmd:simulate_cmd",
    "build": "dtc.cli.build_cmd:build_cmd",
    "renumber": "dtc.cli.renumber_cmd:renumber_cmd",
    "rules": "dtc.cli.lint_cmd:rules_cmd",
    "lsp": "dtc.cli.lsp_cmd:lsp_cmd",
}


@click.group(
    cls=LazyGroup,
    lazy=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="dtc")
def main() -> None:
    """dtc — lint, graph and play choose-your-own-adventure dungeons.

    Exit status: 0 clean, 1 findings (errors), 2 unreadable file or misuse.
    """


def run() -> None:
    """The ``dtc`` console command: :func:`main`, allowed to end the process quickly."""
    global QUICK_EXIT
    QUICK_EXIT = True
    api.freeze_after_build = True
    parallel.enabled = True
    main()
