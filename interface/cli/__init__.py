"""interface/cli/."""
