"""systems/zilch."""
