"""The user interface, on top of the three layers: the Python API, the CLI, audits, vectors and closed-form export."""
