"""Running `shuffle-spec` in-process for the tests, and the contract every call must meet."""

from __future__ import annotations

import contextlib
import io
import json
import time

import pytest
from hypothesis import event
from hypothesis.errors import InvalidArgument

from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.limits import TimeLimitExceeded, time_limit

PER_CALL_SECONDS = 60


# Relative slack when comparing an upper bound with an exact value (both rounded outward already).
REL_SLACK = 1e-9


def call(argv: list[str]) -> tuple[int, str, str, float]:
    """main(argv) in-process under the per-call time limit: (exit code, stdout, stderr, seconds)."""
    out, err = io.StringIO(), io.StringIO()
    start = time.monotonic()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            with time_limit(PER_CALL_SECONDS):
                code = main(argv)
        except SystemExit as stop:  # argparse's own usage errors
            code = stop.code if isinstance(stop.code, int) else 2
        except TimeLimitExceeded:
            pytest.fail(f"over {PER_CALL_SECONDS} s: {argv!r}")
    with contextlib.suppress(InvalidArgument):  # outside a Hypothesis test there are no statistics
        event(f"exit {code}")  # --hypothesis-show-statistics: how many calls answered, how many were refused
    return code, out.getvalue(), err.getvalue(), time.monotonic() - start


def check_outcome(argv: list[str], code: int, out: str, err: str, seconds: float) -> object:
    """The contract of every call; returns the parsed JSON when the command printed JSON."""
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    assert seconds < PER_CALL_SECONDS and not ("took too long" in err and seconds >= PER_CALL_SECONDS - 1), (argv, err)
    if code == 2:
        lines = [line for line in err.splitlines() if line.strip() and not line.startswith("usage:") and not line.startswith(" ")]
        assert len(lines) == 1 and "error: " in lines[0], (argv, err)
        assert out == "", (argv, out)
        return None
    assert code in (0, 1), (argv, code, err)
    if "--json" in argv:
        return json.loads(out)
    return None
