"""One module per `shuffle-spec` subcommand (discovered by `shuffle_spec.interface.cli.main`)."""
