"""systems/maze_rats."""
