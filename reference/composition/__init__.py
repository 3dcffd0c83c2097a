"""reference/composition/."""
