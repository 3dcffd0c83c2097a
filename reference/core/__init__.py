"""reference/core/."""
