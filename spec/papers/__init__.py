"""spec/papers/."""
