"""spec/derived/."""
