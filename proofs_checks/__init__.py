"""shuffle-spec, the layer that sees both sides: symbolic proof checks, spec-vs-reference agreement,
and the `shuffle-spec` command-line tool."""
