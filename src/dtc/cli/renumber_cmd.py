"""`dtc renumber FILE [--shuffle] [--seed S] [--gap G] [--keep N...] [--map FILE] [--dry-run]`."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import click

from dtc import fileio
from dtc.cli.base import Exit, ends_cleanly, fail, guard, seed_option
from dtc.compiler.source import SourceError, decode
from dtc.fileread import ReadError, read_bytes, read_text
from dtc.numbers import ENTRY, bounded
from dtc.renumber.journal import JournalError, Plan, as_written, check_places, commit, journal_path, recover
from dtc.renumber.rewrite import NumberMap, Options, RenumberError, Result, renumber
from dtc.visible import visible


def _keep_numbers(values: tuple[str, ...]) -> tuple[int, ...]:
    """The ``--keep`` numbers; a word that is not an entry number (1 to 9,999,999) is one line, exit 2."""
    numbers: list[int] = []
    for value in values:
        for part in filter(None, (p.strip() for p in value.replace(",", " ").split())):
            shown = visible(part if len(part) <= 20 else part[:17] + "...", newlines=False)
            if not (part.isascii() and part.isdigit()):
                fail(f"error: --keep: '{shown}' is not an entry number")
            number = bounded(part, ENTRY)
            if number > ENTRY:
                fail(f"error: --keep: '{shown}' is not an entry number (the largest is {ENTRY:,})")
            numbers.append(number)
    return tuple(numbers)


def _read(path: Path) -> tuple[str, bytes]:
    """The decoded text and the raw bytes (to keep the file's BOM and line ends)."""
    try:
        raw = read_bytes(path, "source")
    except ReadError as exc:
        raise SourceError(exc.path, exc.message) from None
    return decode(raw, str(path)), raw


@click.command("renumber")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--shuffle", is_flag=True, help="Scatter the numbers so a check's S and F are far apart.")
@seed_option
@click.option("--gap", type=click.IntRange(min=1, max=ENTRY), default=3, show_default=True,
              help="Least distance between the S and F numbers of one check (with --shuffle).")
@click.option("--keep", "keep", multiple=True, metavar="N",
              help="Entry numbers that must not change (repeat, or separate with commas).")
@click.option("--map", "map_path", type=click.Path(dir_okay=False),
              help="Number map to read and update (default: NAME.map.json beside FILE).")
@click.option("--fresh", is_flag=True, help="Ignore the number map: every entry may get a new number.")
@click.option("--dry-run", is_flag=True, help="Print the changes as a unified diff; write nothing.")
@guard
@ends_cleanly
def renumber_cmd(
    file: str,
    shuffle: bool,
    seed: int | None,
    gap: int,
    keep: tuple[str, ...],
    map_path: str | None,
    fresh: bool,
    dry_run: bool,
) -> None:
    """Number the @label entries of FILE and rewrite every reference to follow.

    Without --shuffle, entries take the numbers 1, 2, 3... in file order (labels numbered, gaps
    closed). With --shuffle the numbers are scattered, the start entry first, so that no check's
    success and failure entries are closer than --gap. Numbers recorded in the number map from an
    earlier run stay put, so published numbers survive later edits; --fresh ignores the map.

    The source is replaced atomically and the old one kept as FILE~; the compiled graph before and
    after is checked to be the same graph up to the new numbers, or nothing is written. The
    source, FILE~ and the map change through a journal: a run that was interrupted is finished
    by the next one.
    """
    source = Path(file)
    target_map = Path(map_path) if map_path else source.with_name(source.stem + ".map.json")
    try:
        fileio.refuse_inputs([target_map], [source])
        keep_numbers = _keep_numbers(keep)
        if dry_run:
            if journal_path(source).exists():
                click.echo(f"warning: an interrupted renumber of {visible(file)} is pending; a run without "
                           "--dry-run finishes it first", err=True)
            _dry_run(file, source, target_map, Options(shuffle, seed, gap, keep_numbers), fresh)
            return
        check_places(source, target_map)
        with fileio.rewriting(source):
            finished = recover(source, target_map)
            if finished:
                click.echo(finished, err=True)
            text, raw, result = _renumbered(file, source, target_map, Options(shuffle, seed, gap, keep_numbers),
                                            fresh)
            _warn(result.warnings)
            after = as_written(result.text, raw).encode("utf-8") if result.text != text else raw
            try:
                written = commit(Plan(file, str(target_map), raw, after, result.number_map.to_json()))
            except fileio.OutputError as exc:
                if journal_path(source).exists():  # the source is renumbered: its map is still to write
                    fail(f"{_shown(str(exc))} (the source is renumbered; run dtc renumber again to write its "
                         "number map)")
                raise
    except SourceError as exc:
        fail(_shown(str(exc)))
        return
    except ReadError as exc:
        fail(_shown(f"{exc.path}: error: {exc.message}"))
        return
    except (JournalError, fileio.OutputError) as exc:
        fail(_shown(str(exc)))
        return
    except RenumberError as exc:
        fail(_shown(str(exc)), Exit.FINDINGS)
        return
    summary = _summary(result)
    if written is not None:
        kept = written.backup.name if written.backup else f"{source.name}~"
        click.echo(f"{summary}; wrote {visible(file)} (previous version kept as {visible(kept)})", err=True)
    else:
        click.echo(f"{summary}; {visible(file)} unchanged", err=True)
    click.echo(f"number map: {visible(str(target_map))}", err=True)


def _shown(message: str) -> str:
    """A message for the terminal: each line's control characters made visible (a RenumberError
    may list several problems, one a line, each quoting the book)."""
    return "\n".join(visible(line, newlines=False) for line in message.split("\n"))


def _warn(warnings: list[str]) -> None:
    for warning in warnings:
        click.echo(_shown(f"warning: {warning}"), err=True)


def _summary(result: Result) -> str:
    summary = f"{result.moved} of {len(result.numbers)} entries get new numbers"
    if result.seed is not None:
        summary += f" (seed {result.seed})"
    return summary


def _renumbered(file: str, source: Path, target_map: Path, options: Options, fresh: bool) -> tuple[str, bytes, Result]:
    """The source as read (text and bytes) and its renumbering."""
    text, raw = _read(source)
    if not fresh and (target_map.exists() or target_map.is_symlink()):
        options.previous = NumberMap.from_json(read_text(target_map, "map"), str(target_map))
    return text, raw, renumber(text, file, options)


def _dry_run(file: str, source: Path, target_map: Path, options: Options, fresh: bool) -> None:
    text, _, result = _renumbered(file, source, target_map, options, fresh)
    _warn(result.warnings)
    diff = difflib.unified_diff(
        text.splitlines(keepends=True), result.text.splitlines(keepends=True), f"a/{file}", f"b/{file}"
    )
    if sys.stdout.isatty():  # for a person: the book's control characters made visible
        diff = (visible(line.rstrip("\r\n")) + line[len(line.rstrip("\r\n")):] for line in diff)
    sys.stdout.writelines(diff)
    click.echo(f"{_summary(result)}; dry run, nothing written", err=True)
