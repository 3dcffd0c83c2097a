"""`python -m shuffle_spec`: the `shuffle-spec` command-line tool."""

import sys

from .interface.cli.main import main

sys.exit(main())
