"""The lattice sums' own log Gamma (`lattice_sums.laws.log_gamma`) against mpmath, and the k-RR lattice bounds
computed without SciPy (a property of the import graph: a child process evaluates them and looks at its own
`sys.modules`).

The error model of the lattice sums (package doc) charges log Gamma 1e-13 of its magnitude; the table of log(m!)
and Stirling's series are checked here to 1e-14 relative, on the integers where the sums use them (every value
up to 600, then about 400 up to 1e15) and on a few non-integers (math.lgamma)."""

import json
import subprocess
import sys
import textwrap

import mpmath
import numpy as np
import pytest

from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.numerics.lattice_sums.laws import LOG_FACTORIAL_TABLE, log_gamma


def test_log_gamma_is_within_1e_14_relative_of_mpmath():
    xs = np.concatenate((
        np.arange(1, 600, dtype=float),
        np.unique(np.floor(np.logspace(2.4, 15, 400))),
        [1.5, 2.5, 10.25, LOG_FACTORIAL_TABLE - 0.5, LOG_FACTORIAL_TABLE - 0.001, LOG_FACTORIAL_TABLE + 0.5],
    ))
    got = log_gamma(xs)
    with mpmath.workdps(40):
        for x, value in zip(xs, got, strict=True):
            exact = mpmath.loggamma(mpmath.mpf(float(x)))
            assert abs(mpmath.mpf(float(value)) - exact) <= mpmath.mpf("1e-14") * abs(exact), (x, value, exact)
    assert log_gamma(1.0) == 0.0 and log_gamma(2.0) == 0.0  # log 0! = log 1! = 0 exactly
    assert log_gamma(np.array([[3.0, 4.0]])).shape == (1, 2)  # the shape of the argument


def test_the_series_only_path_is_the_mixed_paths_values_bit_for_bit():
    """Arguments all above the table take a path without masks; each value is the one the masked path (a table value
    in the same call) gives, and the range checks still name the first bad value."""
    big = np.unique(np.floor(np.logspace(2.5, 12, 300)))
    assert big.min() >= LOG_FACTORIAL_TABLE
    alone, mixed = log_gamma(big), log_gamma(np.concatenate(([3.0], big)))[1:]
    assert np.array_equal(alone, mixed)
    assert log_gamma(np.array([[300.0, 400.0]])).shape == (1, 2) and log_gamma(1e8).shape == ()
    for bad, shown in (([300.0, np.inf], "inf"), ([np.nan, 300.0], "nan"), ([300.0, 0.5], "0.5")):
        with pytest.raises(ParameterError, match=f"x = {shown}"):
            log_gamma(np.array(bad))


def test_the_krr_lattice_bounds_compute_without_scipy():
    code = textwrap.dedent(
        """
        import json, sys
        from shuffle_spec.reference.bounds.blanket_exact_krr import exact_blanket_krr_delta
        from shuffle_spec.reference.lower_bounds.krr import krr_pair_delta
        # The upper bound's split sum and the pairs' rows (the batched engine of expectations.py).
        values = [exact_blanket_krr_delta(eps0=1.0, n=1000, k=10, eps=0.2, delta_hint=1e-6).upper]
        values += [krr_pair_delta(eps0=1.0, n=1000, k=10, eps=0.2, pair=pair).lower for pair in ("third", "x0")]
        print(json.dumps({"values": values, "scipy": sorted(m for m in sys.modules if m.split(".")[0] == "scipy")}))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert all(0 < v < 1 for v in report["values"]), report["values"]  # they did compute
    assert report["scipy"] == []
