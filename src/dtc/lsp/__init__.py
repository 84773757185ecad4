"""The dtc language server (``dtc lsp``): diagnostics, navigation, hover, completion, fixes."""

from __future__ import annotations

from dtc.lsp.server import build, serve

__all__ = ["build", "serve"]
