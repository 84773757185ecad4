"""`dtc odds` output: rich text tables for a person, JSON for tools.

Author text reaches the tables only as :class:`rich.text.Text` (never as markup), so a label like
``[bold]`` prints as written.
"""

from __future__ import annotations

import io
import math
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from dtc.odds.analyze import Odds
from dtc.odds.checks import Mix, other_ways
from dtc.outcomes import chain_kind, chain_words, the_end
from dtc.visible import visible

ODDS_FORMAT = "dtc-odds"
ODDS_VERSION = 1


def _text(text: str, style: str = "") -> Text:
    """Text for the terminal: our words and the author's, control characters made visible."""
    return Text(visible(text), style=style)


def pct(p: float | Fraction | None) -> str:
    """A probability as a percentage that never rounds a possibility away (``<0.1%``, ``>99.9%``)."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "?"
    v = float(p) * 100
    if v <= 0:
        return "0%"
    if v >= 100 - 1e-9:
        return "100%"
    if v < 0.05:
        return "<0.1%"
    if v > 99.95:
        return ">99.9%"
    return f"{v:.1f}%"


def outcome_words(key: str, loops: dict[str, list[int]] | None = None) -> str:
    """Words for a chain outcome key, from the one definition (:mod:`dtc.outcomes`)."""
    return chain_words(key, loops)


def mix_words(m: Mix) -> str:
    if m.parts == ("impossible",):
        return "impossible without gear"
    if not m.parts:
        return "-"
    risk = f" ({pct(m.encounter)} encounter)" if m.encounter else ""
    return f"{m.name} {pct(m.success)}{risk}"


def summary(odds: Odds) -> dict[str, float]:
    """Outcome probabilities by kind: escaped, ended, stuck (dead end, loop or missing target)."""
    out = {"escaped": 0.0, "ended": 0.0, "stuck": 0.0}
    for key, p in odds.outcomes.items():
        out[chain_kind(key)] += p
    return out


def summary_line(odds: Odds) -> str:
    """``Outcomes: escaped 22.7%, THE END 77.3%, stuck 0%``: THE END only for a book with endings."""
    s = summary(odds)
    kinds = {chain_kind(k) for k in odds.outcomes} | {"stuck"}
    words = {"escaped": "escaped", "ended": the_end(), "stuck": "stuck"}
    shown = [f"{words[k]} {pct(s[k])}" for k in ("escaped", "ended", "stuck") if k in kinds]
    return "Outcomes: " + (", ".join(shown) if shown else "none")


def reached(odds: Odds, n: int) -> str:
    """The chance of reaching entry ``n``; where it was not computed, the bound the expected visits give."""
    r = odds.reach.get(n)
    if r is not None:
        return pct(r)
    v = odds.visits.get(n, 0.0)
    return f"<={pct(min(1.0, v))}" if not math.isinf(v) else "?"


def _visits(v: float) -> str:
    return "forever" if math.isinf(v) else f"{v:.3f}".rstrip("0").rstrip(".") if v else "0"


def _table(console: Console, title: str, *columns: str) -> Table:
    if title:
        console.print(_text(title, style="bold"))
    table = Table(header_style="bold", box=None, pad_edge=False, padding=(0, 2, 0, 0))
    for i, name in enumerate(columns):
        table.add_column(name, justify="right" if i == 0 or name in ("Pass", "Chance", "Reached", "Visits")
                         else "left", overflow="fold")
    return table


def play_line(odds: Odds) -> str | None:
    """``Victory: random reader 38.9%, best play 61.2%, worst play 12.0%``; in a book with a gate
    on HP, the bounds: ``Victory: random reader between 12.0% and 31.5% (a gate on HP is not
    followed through a run: 25.0% counting it open), best play between ...``."""
    play = odds.play
    if play is None or (play.best is None and not play.hp_bounds and not (play.hp_note and play.random is not None)):
        return None
    parts = []
    bounds = play.hp_bounds

    def between(name: str) -> str:
        low, high = bounds[name]
        return f"between {pct(low)} and {pct(high)}"

    if "random" in bounds:
        counted = f"{'at least ' if odds.unexplored > 0 else ''}{pct(play.random)} counting it open"
        parts.append(f"random reader {between('random')} (a gate on HP is not followed through a run: {counted})")
    elif play.random is not None and play.hp_note:  # (a gate on HP, its bounds not computed)
        parts.append(f"random reader {pct(play.random)} counting every gate on HP open (not a bound)")
    elif play.random is not None:
        parts.append(f"random reader {pct(play.random)}")
    if odds.policy not in ("random", "best", "worst") and play.chosen is not None:
        parts.append(f"{odds.policy} reader {pct(play.chosen)}" + (" counting every gate on HP open" if bounds else ""))
    for name in ("best", "worst"):
        if name in bounds:
            parts.append(f"{name} play {between(name)}")
        elif getattr(play, name) is not None:
            parts.append(f"{name} play {pct(getattr(play, name))}")
    return f"{play.goal[:1].upper()}{play.goal[1:]}: " + ", ".join(parts)


def _signed(v: float | None, now: float) -> str:
    if v is None:
        return "-"
    d = round((v - now) * 100, 1) + 0.0  # (rounding's -0.0 reads as 0.0: no sign on nothing)
    return f"{pct(v)} ({'+' if d >= 0 else '-'}{abs(d):.1f})"


def _per_point(derivative: float) -> str:
    """The change in the goal per point of pass chance, signed; rounding's -0.00 reads +0.00."""
    return f"{round(derivative, 2) + 0.0:+.2f}%"


def render_text(odds: Odds, *, limit: int = 40, color: bool | None = None, width: int = 130,
                explain: bool = False) -> str:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=bool(color), no_color=not color, width=width, highlight=False,
                      soft_wrap=False)
    console.print(_text(f"Odds for {odds.title} ({odds.ruleset.title})", style="bold"))
    console.print(_text(f"Reader: {odds.reader}"))
    console.print(_text(f"Policy: {odds.policy}; approach: {odds.approach}; start: entry {odds.start}"))
    console.print()
    rows = odds.choices[:limit] if limit else odds.choices
    gated = any(c.condition for c in odds.choices)
    ways = other_ways(odds.ruleset)  # gear and turns are Death & Treasure's: no such columns elsewhere
    table = _table(console, f"Checks ({len(odds.choices)} choices)", "Entry", "Choice", "Check", "Pass",
                   *(["Surest way, no gear", "With gear"] if ways else []), *(["Only if"] if gated else []))
    for c in rows:
        check = f"{c.ability + ' ' if c.ability else ''}D{c.difficulty}" + (f" {c.dice}" if c.difficulty else "")
        table.add_row(str(c.entry), _text(c.label), check, pct(c.check),
                      *([mix_words(c.best), mix_words(c.best_gear)] if ways else []),
                      *([_text(c.condition or "-")] if gated else []))
    console.print(table)
    if limit and len(odds.choices) > limit:
        console.print(_text(f"... {len(odds.choices) - limit} more (--limit 0 shows all; --format json has all)"))
    console.print()
    bounded = odds.unexplored > 0
    if bounded:  # before any figure: every one of them is a bound
        console.print(_text(f"Bounds: {pct(odds.unexplored)} of readers reach states the exploration did not "
                            "expand; each chance below is at least the figure and at most the figure plus that",
                            style="bold"))
    console.print(_text(summary_line(odds), style="bold"))
    kinds = odds.by_kind()
    if kinds:
        console.print(_text("Endings by kind" + (" (at least)" if bounded else "") + ": " + ", ".join(
            f"{k} {pct(v)}" for k, v in kinds.items() if v > 0 or k != "unstated"), style="bold"))
    line = play_line(odds)
    if line:
        hp = odds.play is not None and bool(odds.play.hp_bounds)  # (its bounds hold what was not expanded)
        console.print(_text(line.replace(":", " (at least):", 1) if bounded and not hp else line, style="bold"))
    if odds.play is not None and odds.play.note:
        console.print(_text(odds.play.note))
    if odds.play is not None and odds.play.hp_note:
        console.print(_text(odds.play.hp_note))
    table = _table(console, "", "Chance", "Outcome")
    shown = list(odds.outcomes.items())
    for key, p in (shown[:limit] if limit else shown):
        if p > 0:
            table.add_row(pct(p) if not bounded else f"{pct(p)}-{pct(min(1.0, p + odds.unexplored))}",
                          outcome_words(key, odds.loops))
    console.print(table)
    if odds.play is not None and odds.play.checks:
        console.print()
        console.print(_text("Which checks decide the book", style="bold"))
        console.print(_text(f"(the chance of {odds.play.goal} with each check alone one difficulty easier or harder; "
                            f"{odds.play.checks_reader})"))
        table = _table(console, "",
                       "Entry", "Choice", "Check", "Now", "Easier", "Harder", "Per +1% pass")
        for d in odds.play.checks[:limit or None]:
            check = f"{d.ability + ' ' if d.ability else ''}D{d.difficulty}"
            table.add_row(str(d.entry), _text(d.label), check, pct(d.goal), _signed(d.easier, d.goal),
                          _signed(d.harder, d.goal), _per_point(d.derivative))
        console.print(table)
    if explain and odds.play is not None and odds.play.explain:
        console.print()
        who = odds.play.explain_reader or "the reader"
        console.print(_text("The best reader's moves at each entry and state it reaches", style="bold"))
        console.print(_text(f"({who})"))
        table = _table(console, "",
                       "Entry", "Holding", "Takes")
        for n, held, label in odds.play.explain[:limit or None]:
            table.add_row(str(n), _text(held.removeprefix("holding ") or "-"), _text(label))
        console.print(table)
    stalls = odds.stalls
    if stalls:
        console.print()
        table = _table(console, "Where readers get stuck", "Chance", "Where")
        for key, p in stalls[:limit or None]:
            table.add_row(pct(p), outcome_words(key, odds.loops))
        console.print(table)
    if odds.hazards:
        console.print()
        table = _table(console, "Danger: fights and damage (dtc simulate plays out who dies)", "Reached", "Entry",
                       "What")
        for h in odds.hazards[:limit or None]:
            table.add_row(reached(odds, h.entry), str(h.entry), _text(h.what))
        console.print(table)
    console.print()
    def rank(n: int) -> tuple[float, float, int]:
        r = odds.reach[n]
        return (-(r if r is not None else min(1.0, odds.visits[n])), -odds.visits[n], n)

    ranked = sorted(odds.visits, key=rank)
    table = _table(console, "Entries (reached: the chance of at least one visit; visits: the expected number)",
                   "Entry", "Reached", "Visits")
    for n in ranked[:limit or None]:
        table.add_row(str(n), reached(odds, n), _visits(odds.visits[n]))
    console.print(table)
    never = [n for n in odds.visits if odds.visits[n] == 0]
    if never:
        console.print(_text(f"Never reached under this policy: {', '.join(map(str, never[:30]))}"
                           + (f" and {len(never) - 30} more" if len(never) > 30 else "")))
    console.print()
    console.print(_text("Assumptions", style="bold"))
    for line in odds.assumptions:
        console.print(_text(f"- {line}"))
    for line in _grouped_notes(odds.notes):
        console.print(_text(f"- {line}"))
    return "\n".join(line.rstrip() for line in buf.getvalue().split("\n"))


def _grouped_notes(notes: list[str]) -> list[str]:
    conditional = [n for n in notes if "conditional exit" in n]
    rest = [n for n in notes if "conditional exit" not in n]
    if len(conditional) > 3:
        entries = [n.split(":")[0].removeprefix("entry ") for n in conditional]
        rest.insert(0, f"conditional exits left out at {len(entries)} entries ({', '.join(entries[:10])}, ...)")
    else:
        rest[:0] = conditional
    return rest


def _number(v: float) -> float | None:
    return None if math.isinf(v) or math.isnan(v) else v


def to_json(odds: Odds) -> dict[str, Any]:
    """Everything, for tools: see docs/odds.md for the fields."""
    index: dict[tuple[str | None, int, Fraction], int] = {}
    checks: list[dict[str, Any]] = []
    for c in odds.choices:
        if (c.ability, c.difficulty, c.check) not in index:  # a Maze Rats Path can change the chance
            index[(c.ability, c.difficulty, c.check)] = len(checks)
            checks.append({"ability": c.ability, "difficulty": c.difficulty, "dice": c.dice, "pass": float(c.check),
                           "pass_exact": str(c.check), "chance": float(c.chance),
                           "mixes": [m.to_dict() for m in c.mixes], "best": c.best.to_dict(),
                           "best_with_gear": c.best_gear.to_dict()})
    return {
        "format": ODDS_FORMAT,
        "format_version": ODDS_VERSION,
        "title": odds.title,
        "ruleset": odds.ruleset.name,
        "reader": {"method": odds.method, "description": odds.reader},
        "policy": odds.policy,
        "approach": odds.approach,
        "start": odds.start,
        "summary": summary(odds),
        **({"ending_kinds": odds.by_kind()} if odds.ending_kinds else {}),
        "outcomes": [{"outcome": k.split(":")[0], "where": k.partition(":")[2] or None, "key": k,
                      "probability": p, **({"entries": odds.loops[k]} if k in odds.loops else {})}
                     for k, p in odds.outcomes.items()],
        "checks": checks,
        "choices": [{"entry": c.entry, "choice": c.choice, "label": c.label, "text": c.text,
                     "check": index[(c.ability, c.difficulty, c.check)], "pass": float(c.check),
                     "chance": float(c.chance)}
                    for c in odds.choices],
        "entries": [{"number": n, "reach": odds.reach[n], "expected_visits": _number(odds.visits[n]),
                     "forever": math.isinf(odds.visits[n])} for n in odds.visits],
        "exits": [{"entry": n, "exit": i, "probability": p} for (n, i), p in odds.edges.items()],
        "hazards": [{"entry": h.entry, "reach": h.reach, "what": h.what} for h in odds.hazards],
        "assumptions": odds.assumptions,
        "notes": odds.notes,
        "states": odds.states,
        "unexplored": odds.unexplored,
        **({"play": _play_json(odds)} if odds.play is not None else {}),
    }


def _play_json(odds: Odds) -> dict[str, Any]:
    play = odds.play
    assert play is not None
    return {
        "goal": play.goal, "random": play.random, "chosen": play.chosen, "best": play.best, "worst": play.worst,
        "note": play.note,
        "hp_bounds": {name: {"low": low, "high": high} for name, (low, high) in play.hp_bounds.items()},
        "hp_note": play.hp_note,
        "decisive": [{"entry": d.entry, "choice": d.choice, "label": d.label, "ability": d.ability,
                      "difficulty": d.difficulty, "goal": d.goal, "easier": d.easier, "harder": d.harder,
                      "derivative": d.derivative} for d in play.checks],
        "decisive_reader": play.checks_reader,
        "explain": [{"entry": n, "holding": held, "takes": label} for n, held, label in play.explain],
        "explain_reader": play.explain_reader,
    }
