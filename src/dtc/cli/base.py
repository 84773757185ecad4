"""Shared pieces of the CLI: the group, exit codes, option decorators, error handling."""

from __future__ import annotations

import enum
import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from dtc import __version__
from dtc.api import Compilation, compile_file, compile_text
from dtc.source import SourceError, decode

F = TypeVar("F", bound=Callable[..., Any])


class Exit(enum.IntEnum):
    """Process exit status."""

    CLEAN = 0  # nothing to report
    FINDINGS = 1  # errors found (lint), or a run that could not continue
    USAGE = 2  # a file cannot be read, or the command is misused


def fail(message: str, code: Exit = Exit.USAGE) -> None:
    """Print one clear line to stderr and exit (never a traceback)."""
    click.echo(message, err=True)
    sys.exit(int(code))


def load_source(path: str) -> Compilation:
    """Compile a source path (``-`` reads stdin), exiting 2 with a clear line if it can't be read."""
    try:
        if path == "-":
            return compile_text(decode(sys.stdin.buffer.read(), "<stdin>"), "<stdin>")
        return compile_file(path)
    except SourceError as exc:
        fail(str(exc))
        raise  # unreachable


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

    return wrapper  # type: ignore[return-value]


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="dtc")
def main() -> None:
    """dtc — lint, graph and play choose-your-own-adventure dungeons.

    Exit status: 0 clean, 1 findings (errors), 2 unreadable file or misuse.
    """
