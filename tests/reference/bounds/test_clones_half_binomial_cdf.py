"""The float binomial CDF `_half_binomial_cdf` of `reference/bounds/clones.py` (the clone estimate's
F_c(t - 1) = Pr[Bin(c, 1/2) <= t - 1], which only places the certified search) against scipy's regularised
incomplete beta I_{1/2}(c - s, s + 1), which it replaces up to CDF_SUM_MAX so that a k-RR `tightest` call at
n <= 2e5 does not import SciPy. Its docstring: within about 1e-11 of the smaller of F and 1 - F."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
from scipy.special import betainc
from shuffle_spec.reference.bounds.clones import CDF_SUM_MAX, _half_binomial_cdf


def test_the_summed_cdf_matches_the_incomplete_beta():
    rng = np.random.default_rng(20261126)
    for c in (1, 2, 3, 10, 57, 1000, 12345, 10**5, CDF_SUM_MAX, 3 * CDF_SUM_MAX):
        sd = np.sqrt(c) / 2
        s = np.round(c / 2 + sd * rng.normal(size=40) * 3)
        s = np.concatenate([s, [-1, 0, 1, c // 2 - 1, c // 2, c // 2 + 1, c - 1, c]])
        s = np.clip(s, -1, c + 1)
        ours = _half_binomial_cdf(s, np.full(s.shape, float(c)))
        inside = (s >= 0) & (s < c)
        theirs = np.where(s < 0, 0.0, np.where(s >= c, 1.0, betainc(np.maximum(c - s, 1.0), s + 1.0, 0.5)))
        scale = np.where(inside, np.maximum(np.minimum(theirs, 1.0 - theirs), 1e-300), 1.0)
        assert np.all(np.abs(ours - theirs) <= 1e-11 * scale + 1e-300), c
    assert _half_binomial_cdf(np.array([[0.0, 1.0]]), np.array([[1.0, 1.0]])).tolist() == [[0.5, 1.0]]  # shape kept


def test_a_krr_tightest_call_at_small_n_does_not_import_scipy():
    code = textwrap.dedent(
        """
        import json, sys
        from shuffle_spec.interface.tightest import tightest
        result = tightest(eps0=1.0, n=10**4, delta=1e-6, randomizer="krr", k=10)
        print(json.dumps({"scipy": sorted(m for m in sys.modules if m.split(".")[0] == "scipy")}))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1])["scipy"] == []
