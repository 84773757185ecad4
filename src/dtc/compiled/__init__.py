"""compiled."""
