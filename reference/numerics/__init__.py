"""reference/numerics/."""
