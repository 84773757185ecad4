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
from dtc.renumber.journal import JournalError, Plan, as_written, commit, journal_path, recover
from dtc.renumber.rewrite import NumberMap, Options, RenumberError, renumber
from dtc.visible import visible


def _keep_numbers(values: tuple[str, ...]) -> tuple[int, ...]:
    numbers: list[int] = []
    for value in values:
        for part in filter(None, (p.strip() for p in value.replace(",", " ").split())):
            if not part.isdigit():
                raise click.BadParameter(f"'{part}' is not an entry number", param_hint="--keep")
            numbers.append(int(part))
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
@click.option("--gap", type=click.IntRange(min=1), default=3, show_default=True,
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
        if not dry_run:
            fileio.check_replaceable(file)
            fileio.check_replaceable(target_map)
            finished = recover(source)
            if finished:
                click.echo(finished, err=True)
        elif journal_path(source).exists():
            click.echo(f"warning: an interrupted renumber of {source} is pending; a run without --dry-run "
                       "finishes it first", err=True)
        text, raw = _read(source)
        previous = None
        if not fresh and (target_map.exists() or target_map.is_symlink()):
            previous = NumberMap.from_json(read_text(target_map, "map"), str(target_map))
        options = Options(shuffle, seed, gap, _keep_numbers(keep), previous)
        result = renumber(text, file, options)
    except SourceError as exc:
        fail(str(exc))
        return
    except ReadError as exc:
        fail(f"{exc.path}: error: {exc.message}")
        return
    except JournalError as exc:
        fail(str(exc))
        return
    except RenumberError as exc:
        fail(str(exc), Exit.FINDINGS)
        return
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    summary = f"{result.moved} of {len(result.numbers)} entries get new numbers"
    if result.seed is not None:
        summary += f" (seed {result.seed})"
    if dry_run:
        diff = difflib.unified_diff(
            text.splitlines(keepends=True), result.text.splitlines(keepends=True), f"a/{file}", f"b/{file}"
        )
        if sys.stdout.isatty():  # for a person: the book's control characters made visible
            diff = (visible(line.rstrip("\r\n")) + line[len(line.rstrip("\r\n")):] for line in diff)
        sys.stdout.writelines(diff)
        click.echo(f"{summary}; dry run, nothing written", err=True)
        return
    after = as_written(result.text, raw).encode("utf-8") if result.text != text else raw
    written = commit(Plan(file, str(target_map), raw, after, result.number_map.to_json()))
    if written is not None:
        kept = written.backup.name if written.backup else f"{source.name}~"
        click.echo(f"{summary}; wrote {source} (previous version kept as {kept})", err=True)
    else:
        click.echo(f"{summary}; {source} unchanged", err=True)
    click.echo(f"number map: {target_map}", err=True)
