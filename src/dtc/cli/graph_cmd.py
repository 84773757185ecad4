"""`dtc graph` (placeholder until the graph command lands)."""

from __future__ import annotations

import click


@click.command("graph")
@click.argument("file")
def graph_cmd(file: str) -> None:
    """Draw the adventure as a flowchart."""
    raise click.UsageError("dtc graph is not available yet")
