"""reference/exact/."""
