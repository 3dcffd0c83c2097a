"""One module per `shuffle-spec` subcommand (discovered by `proofs_checks.cli`)."""
