"""Shared pieces of the CLI: the group, exit codes, option decorators, error handling."""

from __future__ import annotations

import contextlib
import enum
import functools
import importlib
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any, Generic, NoReturn, TypeVar, cast

import click

from dtc import __version__, runmode
from dtc.compiled.graphjson import CompiledGraph
from dtc.compiler.api import Compilation, compile_file, compile_text
from dtc.compiler.source import SourceError, read_source
from dtc.fileio import STOPS

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


class Exit(enum.IntEnum):
    """Process exit status."""

    CLEAN = 0  # nothing to report
    FINDINGS = 1  # errors found (lint), or a run that could not continue
    USAGE = 2  # a file cannot be read, or the command is misused


def finish(code: int) -> NoReturn:
    """Exit with ``code`` once a command's output is written.

    In the installed command the process ends at once, as mypy's does: freeing a large book's
    objects one by one at interpreter shutdown takes 0.08 s at 10,000 entries and 0.8 s at
    100,000, all of it after the answer is printed. Elsewhere this is a plain ``SystemExit``.
    """
    if runmode.current().quick_exit:  # the installed command's mode (run); tests drive main()
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        os._exit(code)
    raise SystemExit(code)


def reader_gone(code: int = int(Exit.CLEAN)) -> NoReturn:
    """The reader of stdout closed it (``dtc rule --list | head -1``): stop quietly, as other tools do.

    Not an error: the exit status is ``code`` (what the command would have returned), never a
    message. What is still buffered for the closed pipe is dropped by ending the process at once
    (flushing it at shutdown would fail again and print a warning), except under a test runner,
    whose stdout is not the process's.
    """
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
    if runmode.current().quick_exit or sys.stdout is sys.__stdout__:
        os._exit(code)
    raise SystemExit(code)


def fail(message: str, code: Exit = Exit.USAGE) -> None:
    """Print one clear line to stderr and exit (never a traceback)."""
    click.echo(message, err=True)
    sys.exit(int(code))


class Beside(Generic[T]):
    """``work()`` on a second thread while this one writes a file: ``Beside(work).result()``.

    Writing a large output is mostly the system's work (copying it into the page cache, then
    ``fsync``), which holds no lock, so pure-Python work such as linting the book runs meanwhile
    on the other core. Only this (the main) thread ever receives Ctrl-C and termination
    requests, so the write keeps its clean-ups; the thread is a daemon, so an interrupted
    command never waits for it. :meth:`result` waits for the work and returns what it returned,
    or raises what it raised.
    """

    def __init__(self, work: Callable[[], T]) -> None:
        self._work = work
        self._value: T | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="dtc-beside", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._value = self._work()
        except BaseException as exc:  # handed to result(), in the caller's thread
            self._error = exc

    def result(self) -> T:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]  # set: the work returned


def load_source(path: str) -> Compilation:
    """Compile a source path (``-`` reads stdin), exiting 2 with a clear line if it can't be read."""
    try:
        if path == "-":
            return compile_text(read_source("-", stdin=True), "<stdin>")
        return compile_file(path)
    except SourceError as exc:
        fail(str(exc))
        raise  # unreachable


def load_graph(path: str) -> CompiledGraph:
    """A compiled graph: a ``.json`` file checked against its schema, or a source compiled here.

    Exits 2 with one line when the file cannot be read or is not a valid graph.
    """
    from dtc.compiled.schema import SchemaError, load_graph_json

    if path.lower().endswith(".json"):
        try:
            graph = load_graph_json(path)
        except SchemaError as exc:
            fail(f"error: {exc}")
            raise  # unreachable: fail() exits
        return graph
    # The compiler's own output satisfies the schema (the tests hold it to that on every
    # bundled book); checking it again here cost about a second per 10,000 entries.
    return load_source(path).graph()


def color_wanted(stream: Any = None) -> bool:
    """Whether to colour what goes to ``stream`` (default stdout).

    ``NO_COLOR`` (any value but empty) turns colour off and wins; ``FORCE_COLOR`` turns it on even
    in a pipe; otherwise only a terminal gets colour (and not a ``TERM=dumb`` one).
    """
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    stream = sys.stdout if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def terminal_width(stream: Any = None) -> int:
    """The width to fit output to: the terminal's (or ``COLUMNS``), else 100 columns."""
    stream = sys.stdout if stream is None else stream
    try:
        tty = bool(stream.isatty())
    except (AttributeError, ValueError):
        tty = False
    if not tty and not os.environ.get("COLUMNS"):
        return 100
    return max(40, _columns())


def _columns() -> int:
    """``COLUMNS``, else the terminal's width, else 100 (what ``shutil.get_terminal_size`` does,
    without importing shutil and its compression modules on every command's start-up)."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 100  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):  # no stdout, or not a terminal
        return 100


def output_option(help_text: str = "Write to this file instead of stdout.") -> Callable[[F], F]:
    return click.option("-o", "--output", "output", type=click.Path(dir_okay=False), help=help_text)


#: Rows per table in the text reports of ``dtc odds`` and ``dtc simulate`` (``--limit``).
DEFAULT_LIMIT = 20

#: Who makes the reader's decisions, by one name everywhere: ``play --auto``, ``simulate --policy``
#: and ``odds --policy`` (each offers those it can compute). Old spellings still accepted.
POLICY_HELP = {
    "random": "picks uniformly among the ways on and rolls each check",
    "cautious": "takes the surest ways, explores what it has not seen, rests when hurt, heads home with treasure",
    "bold": "prefers checks to spending turns, fights, leaves rich or badly hurt",
    "likeliest": "takes the ways likeliest to succeed, remembering nothing (the reader dtc odds follows)",
    "least-used": "takes the way this worker's runs have visited least",
    "best": "the reader who plays for victory perfectly (the odds' optimum)",
    "worst": "the reader who plays against victory perfectly (the odds' minimum)",
}
POLICY_ALIASES = {"uniform": "random"}  # dtc odds called random "uniform"


#: The bounds of every numeric option (a number past one is a one-line usage error, exit 2, never a
#: computation with it): seeds, row limits, counts of runs and turn limits.
SEEDS = click.IntRange(min=-(2**63), max=2**63 - 1)
MAX_COUNT = 1_000_000_000
#: The largest turn limit (``--max-turns``); the same as :data:`dtc.runtime.save.MAX_TURNS`.
MAX_TURNS = 1_000_000_000


def limit_option(func: F) -> F:
    return click.option("--limit", type=click.IntRange(min=0, max=MAX_COUNT), default=DEFAULT_LIMIT, show_default=True,
                        help="Rows per table in the text report (0: all; --format json always has all).")(func)


def report_format_option(func: F) -> F:
    return click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                        help="text: tables for people (colour at a terminal); json: everything, for tools.")(func)


def policy_option(*names: str, option: str = "--policy", default: str | None = "random",
                  lead: str = "Who makes the reader's decisions", old_names: bool = False) -> Callable[[F], F]:
    """A ``--policy``-like option over ``names`` (see :data:`POLICY_HELP`); ``old_names``: accept
    this command's older spellings (:data:`POLICY_ALIASES`) too."""
    aliases = [a for a, target in POLICY_ALIASES.items() if target in names] if old_names else []
    described = "; ".join(f"{n}: {POLICY_HELP[n]}" for n in names)
    also = f" ({', '.join(f'{a}: old name of {POLICY_ALIASES[a]}' for a in aliases)})" if aliases else ""

    def canonical(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        return POLICY_ALIASES.get(value, value) if value is not None else None

    return click.option(option, "policy" if option == "--policy" else option.lstrip("-"),
                        type=click.Choice([*names, *aliases]), default=default, show_default=default is not None,
                        callback=canonical, help=f"{lead}: {described}{also}.")


RULING_HELP = ("Read a rule the other way for this run, as a book's Rules: line picks it with [name: reading] "
               "(the command line wins over the book); repeatable. Death & Treasure: morale=below|above, "
               "cha-reaction=as-written|helps, same-room=turn|free, swallow-cut=blow|total; Dungeon Rules: "
               "long-rest=full|base (docs/rulesets/, \"dtc's rulings\").")


def ruling_option(func: F) -> F:
    """``--ruling NAME=READING`` (or ``NAME:READING``), repeatable: the rulings as a dict."""

    def parse(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> dict[str, str]:
        chosen: dict[str, str] = {}
        for value in values:
            sep = "=" if "=" in value else ":"
            name, found, reading = value.partition(sep)
            name, reading = _ruling_word(name), _ruling_word(reading)
            if not found or not name or not reading:
                raise click.BadParameter(f"'{value}' is not NAME=READING (such as morale=above)")
            chosen[name] = reading
        return chosen

    return click.option("--ruling", "rulings", multiple=True, metavar="NAME=READING", callback=parse,
                        help=RULING_HELP)(func)


def _ruling_word(text: str) -> str:
    return text.strip().lower().replace(" ", "-").replace("_", "-").strip("-")


def with_option(func: F) -> F:
    """``--with NAME`` (repeatable): a reader who carries NAME in, as the book's ``Start with:``
    line would give it (``--with rope``, ``--with "20 gold crowns"``): the parts as (name, count)."""

    def parse(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> list[tuple[str, int]]:
        from dtc.compiler.frontmatter import start_with

        carried: list[tuple[str, int]] = []
        for value in values:
            for name, count, error in start_with(value):
                if error is not None:
                    raise click.BadParameter(f"'{value}': {error[0]} (write a name, or a count and a name)")
                carried.append((name, count))
        return carried

    return click.option("--with", "carried", multiple=True, metavar="NAME", callback=parse,
                        help="Start carrying NAME (or COUNT NAME), as a Start with: line gives it; "
                             "repeatable.")(func)


def carrying(graph: CompiledGraph, carried: list[tuple[str, int]]) -> CompiledGraph:
    """The graph with ``carried`` (``--with``) after its ``Start with:`` items; unchanged when none."""
    if not carried:
        return graph
    start = [*graph.get("start_with", ()), *({"name": n, "amount": k} for n, k in carried)]
    new = dict(graph)
    new["start_with"] = start
    new["format_version"] = max(int(graph["format_version"]), 3)
    return cast(CompiledGraph, new)


def seed_option(func: F) -> F:
    return click.option("--seed", type=SEEDS, default=None, help="Fix every random roll (reproducible runs).")(func)


def guard(func: F) -> F:
    """Turn stray OS errors into one line and exit 2 (KeyboardInterrupt exits 130)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except BrokenPipeError:
            reader_gone()
        except OSError as exc:
            name = getattr(exc, "filename", None)
            fail(f"{f'{name}: ' if name else ''}error: {exc.strerror or exc}")
        except MemoryError:
            fail("error: out of memory (the input is too large for this machine)")

    return wrapper  # type: ignore[return-value]


def ends_cleanly(func: F) -> F:
    """Let a termination request (SIGTERM, and SIGHUP where it is not ignored) end the command as
    Ctrl-C does, through its clean-ups: a Graphviz process still laying a chart out is killed and
    no half-written file is left, where the default action would end dtc at once and leave them.
    The exit status is 128 + the signal's number, as a shell reports it. Every command but
    ``dtc lsp`` takes it (``tests/test_cli_vocabulary.py`` holds this)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is not threading.main_thread():  # only the main thread may
            return func(*args, **kwargs)

        def end(signum: int, _frame: object) -> None:
            STOPS.stop(128 + signum)  # at once, unless a temporary is being made (then just after)

        take_back_ctrl_c()

        kept: dict[int, Any] = {}
        for name in ("SIGTERM", "SIGHUP"):
            sig = getattr(signal, name, None)
            if sig is not None and signal.getsignal(sig) is not signal.SIG_IGN:  # nohup's choice stands
                kept[sig] = signal.signal(sig, end)
        try:
            return func(*args, **kwargs)
        finally:
            for sig, handler in kept.items():
                signal.signal(sig, handler)

    wrapper.takes_stops = True  # type: ignore[attr-defined]  # (what tests/test_cli_vocabulary.py looks for)
    return wrapper  # type: ignore[return-value]


def take_back_ctrl_c() -> None:
    """From here on Ctrl-C raises KeyboardInterrupt, so the command's clean-ups run (and
    :meth:`LazyGroup.invoke` ends it with status 130 and one line): until a command starts,
    the ``dtc`` command ends at once on Ctrl-C (:func:`dtc.cli.stop_early`), since nothing is
    being written yet and the imports that take the first tenth of a second would otherwise end
    in a traceback."""
    from dtc.cli import stopped_early

    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is stopped_early:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _one_line(exc: click.UsageError) -> NoReturn:
    """A usage error in one line, exit 2: ``error: MESSAGE (see 'dtc CMD --help')`` (click's own
    takes four: the usage, a hint, a blank line and the message)."""
    ctx = exc.ctx
    hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
    click.echo(f"error: {' '.join(exc.format_message().split())}{hint}", err=True)
    sys.exit(exc.exit_code if exc.exit_code else int(Exit.USAGE))


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

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as exc:  # `dtc nosuch`, `dtc --bad`
            _one_line(exc)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:  # click itself would say nothing and exit 1
            reader_gone()
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as exc:  # a command's arguments: a bad value, a missing one
            _one_line(exc)
        except KeyboardInterrupt:  # click would say "Aborted!" and exit 1
            with contextlib.suppress(OSError, ValueError):
                sys.stdout.flush()
            click.echo("\nstopped: interrupted", err=True)
            sys.exit(130)


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
    "import": "dtc.cli.import_cmd:import_cmd",
    "export": "dtc.cli.import_cmd:export_cmd",
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
    with runmode.running(runmode.ONE_SHOT):
        main()
