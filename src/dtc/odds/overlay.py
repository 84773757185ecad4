"""`dtc graph --odds`: exit percentages and entries shaded by the chance a reader reaches them.

The Graphviz renderer calls :func:`node_odds` and :func:`edge_odds` with the attributes it has
built and the overlay from :meth:`dtc.odds.Odds.graph_overlay`; only numbers dtc computed are
added (no author text); the ``<`` and ``>`` of ``<1%`` and ``>99%`` are written as references.
"""

from __future__ import annotations

from typing import Any

from dtc.compiled.graphjson import CompiledGraph

#: The shade of an entry every reader reaches; an entry no reader reaches stays white.
FULL = (0x42, 0xA5, 0xF5)
LEGEND = "fill: chance of reaching the entry (white 0% to blue 100%); exit labels: chance of taking it from there"


def shade(p: float) -> str:
    """White to blue; the square root makes rare entries visible."""
    t = max(0.0, min(1.0, p)) ** 0.5
    r, g, b = (round(255 + (c - 255) * t) for c in FULL)
    return f"#{r:02x}{g:02x}{b:02x}"


def percent(p: float) -> str:
    if p <= 0:
        return "0%"
    if p >= 1 - 1e-12:
        return "100%"
    return "<1%" if p < 0.005 else ">99%" if p > 0.995 else f"{p:.0%}"


def overlay_graph(graph: CompiledGraph) -> dict[str, Any]:
    """The overlay for a compiled graph: random policy (uniform choices), a freshly rolled adventurer.

    Raises :class:`ValueError` (with a one-line message) when the odds cannot be computed.
    """
    from dtc.odds.analyze import compute_odds
    from dtc.systems import UnknownRuleset

    try:
        return compute_odds(graph).graph_overlay()
    except UnknownRuleset as exc:
        raise ValueError(f"unknown ruleset '{exc.name}'") from None


def node_odds(attrs: dict[str, str], number: int, odds: dict[str, Any] | None) -> None:
    """Shade the node of entry ``number`` and add its chance to the tooltip."""
    if odds is None:
        return
    p = odds["entries"].get(number)
    if p is None:
        return
    attrs["fillcolor"] = shade(p)
    words = percent(p).replace("<", "&lt;").replace(">", "&gt;")
    attrs["tooltip"] = attrs.get("tooltip", "") + f"&#10;reached by {words} of readers"


def edge_odds(attrs: dict[str, str], source: int, index: int, odds: dict[str, Any] | None) -> None:
    """Label the exit ``index`` of entry ``source`` with the chance of taking it from there."""
    if odds is None:
        return
    p = odds["edges"].get((source, index))
    if p is None:
        return
    words = percent(p).replace("<", "&lt;").replace(">", "&gt;")  # "<1%" inside an HTML-like label
    label = attrs.get("label")
    if label and label.startswith("<") and label.endswith(">"):
        attrs["label"] = f"{label[:-1]}<BR/><B>{words}</B>>"
    else:
        attrs["label"] = f"<<B>{words}</B>>"
    attrs["tooltip"] = attrs.get("tooltip", "") + f" ({words})"
