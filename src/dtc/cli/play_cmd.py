"""`dtc play` and `dtc character` (placeholders until the runtime lands)."""

from __future__ import annotations

import click


@click.command("play")
@click.argument("file")
def play_cmd(file: str) -> None:
    """Play the adventure."""
    raise click.UsageError("dtc play is not available yet")


@click.group("character")
def character_group() -> None:
    """Make and inspect adventurers."""
