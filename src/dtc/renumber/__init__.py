"""renumber."""
