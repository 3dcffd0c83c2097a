"""The version of shuffle-spec (re-exported as `shuffle_spec.__version__`; `shuffle-spec --version`)."""

__version__ = "0.1.0"
