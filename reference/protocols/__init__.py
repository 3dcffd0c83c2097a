"""Runnable protocols of the shuffle model and the local model, one module per protocol."""
