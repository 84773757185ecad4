"""Drawing the book: Graphviz flowcharts (:mod:`dtc.render.graph`) and Mermaid
(:mod:`dtc.render.mermaid`), both from the compiled graph dict alone."""
