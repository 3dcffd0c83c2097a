"""reference/finite/."""
