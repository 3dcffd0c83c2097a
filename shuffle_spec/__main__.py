"""`python -m shuffle_spec`: the `shuffle-spec` command-line tool."""

import sys

from shuffle_spec.proofs_checks.cli import main

sys.exit(main())
