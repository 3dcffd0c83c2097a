"""interface/vectors/."""
