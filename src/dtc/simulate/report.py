"""`dtc simulate` output: rich text tables for a person, JSON for tools.

Author text (death causes, reasons) reaches the tables only as :class:`rich.text.Text`, never as
markup.
"""

from __future__ import annotations

import io
import shlex
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from dtc.outcomes import KINDS
from dtc.simulate.stats import OUTCOMES, Problem, Tally
from dtc.visible import visible

SIMULATE_FORMAT = "dtc-simulation"
SIMULATE_VERSION = 1
CONFIDENCE = 0.95
#: Each outcome's words, from the one definition (docs/outcomes.md).
WORDS = {key: KINDS[key].label for key in OUTCOMES}


@dataclass(slots=True)
class Meta:
    """What was simulated, for the report's head and for replay commands."""

    file: str
    title: str
    policy: str
    seed: int
    workers: int
    runs: int
    seconds: float
    max_turns: int
    reader: str  # "a fresh adventurer each run" or "NAME (file)"
    character: str | None  # the --character path, for replay commands
    entries: list[int]
    rulings: dict[str, str] = field(default_factory=dict)  # --ruling readings, for the head and replays


def _text(text: str, style: str = "") -> Text:
    """Text for the terminal: our words and the author's, control characters made visible."""
    return Text(visible(text), style=style)


def pct(p: float) -> str:
    v = p * 100
    if v <= 0:
        return "0%"
    if v >= 100:
        return "100%"
    return "<0.1%" if v < 0.05 else ">99.9%" if v > 99.95 else f"{v:.1f}%"


def replay(meta: Meta, problem: Problem) -> str:
    """A command that replays the problem's first example run on its own."""
    index, seed = problem.examples[0]
    extra = f" --character {shlex.quote(meta.character)}" if meta.character else ""
    if meta.policy == "least-used":  # depends on the runs before it in its batch: rerun the simulation
        return (f"dtc simulate {shlex.quote(meta.file)} -n {meta.runs} --seed {meta.seed} --policy least-used{extra} "
                f"--max-turns {meta.max_turns}{_ruling_args(meta)}  # run {index}")
    return (f"dtc play {shlex.quote(meta.file)} --seed {seed} --auto {meta.policy}{extra} "
            f"--max-turns {meta.max_turns} --no-save{_ruling_args(meta)}")


def _ruling_args(meta: Meta) -> str:
    return "".join(f" --ruling {shlex.quote(f'{k}={v}')}" for k, v in meta.rulings.items())


def _table(console: Console, title: str, *columns: str) -> Table:
    if title:
        console.print(_text(title, style="bold"))
    table = Table(header_style="bold", box=None, pad_edge=False, padding=(0, 2, 0, 0))
    for name in columns:
        table.add_column(name, justify="left" if name in ("Outcome", "Most common cause", "Problem", "Replay")
                         else "right", overflow="fold")
    return table


def render_text(meta: Meta, tally: Tally, *, limit: int = 20, color: bool = False, width: int = 130) -> str:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=color, no_color=not color, width=width, highlight=False)
    rate = meta.runs / meta.seconds if meta.seconds > 0 else 0.0
    console.print(_text(f"Simulated {meta.runs:,} playthroughs of {meta.title}", style="bold"))
    console.print(_text(f"Policy {meta.policy}; seed {meta.seed}; {meta.workers} worker(s); {meta.reader}; "
                       f"turn limit {meta.max_turns}; {meta.seconds:.1f} s ({rate:,.0f} runs/s)"
                       + "".join(f"; ruling {k}: {v}" for k, v in meta.rulings.items())))
    console.print()
    table = _table(console, f"Outcomes ({int(CONFIDENCE * 100)}% Wilson intervals)", "Outcome", "Runs", "Share",
                   "Interval", "Mean turns")
    for kind in OUTCOMES:
        k = tally.outcomes.get(kind, 0)
        if not k and kind in ("cannot-continue", "error"):
            continue
        share, low, high = tally.share(kind, CONFIDENCE)
        table.add_row(WORDS[kind], f"{k:,}", pct(share), f"{pct(low)} - {pct(high)}",
                      f"{tally.mean_turns(kind):.1f}" if k else "-")
    console.print(table)
    console.print(_text(f"Mean turns per run: {tally.mean_turns():.1f}"))
    out = tally.treasure_out / tally.runs if tally.runs else 0.0
    carried = tally.treasure_runs / tally.runs if tally.runs else 0.0
    console.print(_text(f"Treasure carried out: {out:,.1f} coins per run on average; {pct(carried)} of runs "
                       f"carried some out; the most was {tally.treasure_best:,}"))
    if set(tally.ending_kinds) - {"unstated"}:
        console.print(Text("Endings by kind: " + ", ".join(
            f"{kind} {pct(tally.ending_kinds[kind] / tally.runs)}" for kind in ("victory", "death", "unstated")
            if tally.ending_kinds.get(kind))))
    if tally.endings:
        console.print()
        table = _table(console, "Endings reached", "Entry", "Runs", "Share")
        for n, k in tally.endings.most_common(limit or None):
            table.add_row(str(n), f"{k:,}", pct(k / tally.runs))
        console.print(table)
    deaths = tally.death_rows()
    if deaths:
        console.print()
        table = _table(console, "Deaths by entry (rate: of the runs that reached it)", "Entry", "Deaths", "Rate",
                       "Most common cause")
        for row in deaths[:limit or None]:
            table.add_row(str(row["entry"]), f"{row['deaths']:,}", pct(row["rate"]),
                          _text(f"{row['cause']} ({row['cause_count']:,})"))
        console.print(table)
    console.print()
    never = tally.never_visited(meta.entries)
    seen = len(meta.entries) - len(never)
    console.print(_text(f"Coverage: {seen} of {len(meta.entries)} entries visited", style="bold"))
    if never:
        shown = ", ".join(map(str, never[:40])) + (f" and {len(never) - 40} more" if len(never) > 40 else "")
        console.print(_text(f"Never visited: {shown}"))
    problems = tally.problem_list()
    console.print()
    if not problems:
        console.print(_text("No runtime errors or stuck runs.", style="bold"))
    else:
        console.print(_text(f"Problems found ({len(problems)}), each with a run that reproduces it", style="bold"))
        for p in problems[:limit or None]:
            where = f" at entry {p.entry}" if p.entry is not None else ""
            console.print(_text(f"- {p.kind}{where}: {p.message} ({p.count:,} run{'s' if p.count != 1 else ''})"))
            console.print(_text(f"    {replay(meta, p)}"))
    return "\n".join(line.rstrip() for line in buf.getvalue().split("\n"))


def to_json(meta: Meta, tally: Tally) -> dict[str, Any]:
    outcomes = {}
    for kind in OUTCOMES:
        share, low, high = tally.share(kind, CONFIDENCE)
        outcomes[kind] = {"runs": tally.outcomes.get(kind, 0), "share": share, "low": low, "high": high,
                          "mean_turns": tally.mean_turns(kind)}
    return {
        "format": SIMULATE_FORMAT,
        "format_version": SIMULATE_VERSION,
        "file": meta.file,
        "title": meta.title,
        "policy": meta.policy,
        "seed": meta.seed,
        "workers": meta.workers,
        "runs": meta.runs,
        "seconds": meta.seconds,
        "runs_per_second": meta.runs / meta.seconds if meta.seconds > 0 else None,
        "max_turns": meta.max_turns,
        "reader": meta.reader,
        **({"rulings": dict(meta.rulings)} if meta.rulings else {}),
        "confidence": CONFIDENCE,
        "outcomes": outcomes,
        "mean_turns": tally.mean_turns(),
        "treasure": {"carried_out_mean": tally.treasure_out / tally.runs if tally.runs else 0.0,
                     "runs_with_treasure": tally.treasure_runs, "best": tally.treasure_best},
        "endings": [{"entry": n, "runs": k} for n, k in sorted(tally.endings.items())],
        **({"ending_kinds": dict(sorted(tally.ending_kinds.items()))}
           if set(tally.ending_kinds) - {"unstated"} else {}),
        "deaths": tally.death_rows(),
        "entries": [{"number": n, "runs": tally.reached.get(n, 0), "visits": tally.visits.get(n, 0)}
                    for n in meta.entries],
        "never_visited": tally.never_visited(meta.entries),
        "problems": [{"kind": p.kind, "message": p.message, "entry": p.entry, "count": p.count,
                      "examples": [{"run": i, "seed": s} for i, s in p.examples], "replay": replay(meta, p)}
                     for p in tally.problem_list()],
    }
