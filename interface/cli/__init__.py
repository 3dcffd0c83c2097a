"""The `shuffle-spec` command line: the entry point, one module per subcommand in `commands/`, output and report helpers."""
