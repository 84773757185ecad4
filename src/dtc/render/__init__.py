"""Drawing the book from the compiled graph dict alone: Graphviz flowcharts
(:mod:`dtc.render.graph`) and Mermaid (:mod:`dtc.render.mermaid`), both drawing what
:mod:`dtc.render.model` works out (statuses, exit kinds, creatures, missing targets)."""

from dtc.render.graph import GraphvizMissing, RenderError, build_dot, render_svg
from dtc.render.mermaid import to_mermaid

__all__ = ["GraphvizMissing", "RenderError", "build_dot", "render_svg", "to_mermaid"]
