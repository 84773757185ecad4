"""`dtc lsp`: run the language server on stdin/stdout (for editors; see docs/editors.md)."""

from __future__ import annotations

import logging
from dataclasses import replace

import click

import dtc.cli.base as base
from dtc import runmode


@click.command("lsp")
@click.option("--stdio", is_flag=True, help="Talk over stdin/stdout (the default; accepted for editors that pass it).")
@click.option("--log-file", type=click.Path(dir_okay=False), help="Write the server's log to this file.")
@click.option("-v", "--verbose", count=True, help="Log more (with --log-file): -v info, -vv debug.")
def lsp_cmd(stdio: bool, log_file: str | None, verbose: int) -> None:
    """Run the dtc language server over stdio: diagnostics as you type, go to entry, what leads
    here, hover odds, completion and quick fixes. Editors start it; see docs/editors.md."""
    try:
        from dtc.lsp import serve
    except ImportError as exc:  # pragma: no cover - pygls is a dependency
        raise click.ClickException(f"the language server needs pygls: {exc}") from None
    # A long-running process with threads: builds stay collectable, and no entry is read by a
    # forked child (see dtc.runmode); the command itself may still end quickly (finish).
    mode = runmode.current()
    if log_file:
        level = logging.DEBUG if verbose > 1 else logging.INFO if verbose else logging.WARNING
        logging.basicConfig(filename=log_file, level=level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    code = 0
    try:
        with runmode.running(replace(runmode.LONG_RUNNING, quick_exit=mode.quick_exit)):
            serve()
    except SystemExit as exc:  # the client's `exit`: 0 after `shutdown`, else 1
        code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
    if mode.quick_exit:  # the open books' objects are not torn down one by one (see finish):
        logging.shutdown()  # at 10,000 entries that took as long as opening the book
    base.finish(code)
