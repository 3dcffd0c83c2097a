"""interface/."""
