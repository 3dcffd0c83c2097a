"""One number parser for every command: the numeric flags of `audit` and `compose` read numbers as `eval`
and `bounds` do (`bridge.parse_number`: `1e3` and `1/2` accepted; `1_0`, hex, `nan` refused in one line)."""

from __future__ import annotations


import pytest
from support.cli import call, check_outcome

from support.paths import EXAMPLES

RR3 = str(EXAMPLES / "rr3.json")
BOUND = "def f(eps0, n, delta):\n    return eps0\n"


@pytest.mark.parametrize(
    "flag, value",
    [("--n", "1_0"), ("--n", "0x10"), ("--n", "1.5"), ("--delta", "1_0e-3"), ("--delta", "nan"), ("--delta", "0x1p-10")],
)
def test_audit_randomizer_numbers_are_parsed_strictly(flag, value):
    argv = ["audit", "randomizer", RR3, "--n", "5", "--delta", "1e-3"]
    argv[argv.index(flag) + 1] = value
    code, out, err, seconds = call(argv)
    check_outcome(argv, code, out, err, seconds)
    assert code == 2 and out == "" and flag.lstrip("-") in err and value in err, (code, err)


def test_audit_randomizer_accepts_the_number_forms_of_the_other_commands():
    code, out, err, _ = call(["audit", "randomizer", RR3, "--n", "1e1", "--delta", "1/1000", "--json"])
    assert code in (0, 1) and '"n": 10' in out, err


@pytest.mark.parametrize(
    "flag, value",
    [("--rtol", "1_0e-3"), ("--time-limit", "0x10"), ("--total-time-limit", "inf"), ("--memory-limit", "1_024")],
)
def test_audit_bound_numbers_are_parsed_strictly(tmp_path, flag, value):
    target = tmp_path / "bound.py"
    target.write_text(BOUND)
    argv = ["audit", "bound", f"{target}:f", "--id", "FMT21.Thm2.1", flag, value]
    code, out, err, seconds = call(argv)
    check_outcome(argv, code, out, err, seconds)
    assert code == 2 and out == "" and value in err, (code, err)


def test_plot_refuses_an_output_that_is_not_a_regular_file(tmp_path):
    """`plot -o FIFO` would block on the write (and a link to /dev/null swallow it): refused before any work."""
    import os

    fifo = tmp_path / "out.png"
    os.mkfifo(fifo)
    argv = ["plot", "--eps0", "1", "--delta", "1e-6", "-o", str(fifo)]
    code, out, err, seconds = call(argv)
    check_outcome(argv, code, out, err, seconds)
    assert code == 2 and "not a regular file" in err, err
