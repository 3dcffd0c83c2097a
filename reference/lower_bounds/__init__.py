"""reference/lower_bounds/."""
