"""Port of a Rust crate's `ShuffleDp::amplify` (FMT21 "Hiding among the clones", Theorem 1 as the crate
states it).

Source: a privacy-accounting crate found through this project's search of public code (module
`shuffle_dp`, re-exported as `ShuffleConfig, ShuffleDp, ShuffleResult` beside `pld`, `prv_fft`,
`rdp_subsampling`, `tcdp`, `zcdp`); the file is stored in the public-code index as file 60250489613
(15,324 characters). The index does not name the repository or commit, and no search found them (the
queries are listed in docs/audits/README.md): the port cites the file's own lines.
`fmt_coefficient`, lines 58-72, and `amplify`, lines 83-99:

    let a = 8.0 * (epsilon_local.exp() * (4.0 / delta).ln() / n as f64).sqrt();      // line 70
    let factor = (epsilon_local.exp() - 1.0) * a;                                      // line 95
    let eps_central = (1.0 + factor).ln();                                             // line 96
    let eps_central = eps_central.min(epsilon_local).max(0.0);                         // line 99

with `epsilon_local == 0` returning 0 (lines 87-92) and refusals (`validate_inputs`): epsilon_local < 0,
delta outside (0, 1), n_users < 2. The module doc states the bound as
eps_central <= log(1 + (e^eps0 - 1) A), A = 8 sqrt(e^eps0 ln(4/delta)/n), for every eps0-LDP mechanism.

Compared with FMT21 Theorem 2.1 (eps = log(1 + (e^eps0 - 1)/(e^eps0 + 1) (8 sqrt(e^eps0 log(4/delta)/n)
+ 8 e^eps0/n)) for eps0 <= log(n/(16 log(2/delta)))), the crate drops the term 8 e^eps0/n and the
hypothesis (flags `TermsDropped`, `HypothesisIgnored`), but also the factor 1/(e^eps0 + 1) <= 1/2, which
more than makes up for the dropped term inside the hypothesis (8 e^eps0/n <= A whenever
e^eps0 <= n/(16 log(2/delta))); outside it, A > 2 and the logarithm exceeds eps0, so the clamp returns eps0.
The registry checks this reading numerically, on its grid, against the certified truth.

Rust f64 arithmetic overflows to +inf (`f64::exp`), and `f64::min`/`max` return the other operand when one
is NaN: the helpers below do the same. n is a usize (truncated; a negative n cannot reach the Rust code and
is refused). Checked against a run of the Rust functions (`rustc -O`) in tests/interface/audit/test_adapters.py.
"""

from __future__ import annotations

import math

__all__ = ["amplify", "fmt_coefficient"]


def _exp(x: float) -> float:
    """f64::exp: +inf on overflow."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _min(a: float, b: float) -> float:
    """f64::min: the other operand when one is NaN."""
    return b if math.isnan(a) else a if math.isnan(b) else min(a, b)


def _max(a: float, b: float) -> float:
    """f64::max: the other operand when one is NaN."""
    return b if math.isnan(a) else a if math.isnan(b) else max(a, b)


def fmt_coefficient(eps0: float, n: int, delta: float) -> float:
    """`ShuffleDp::fmt_coefficient` (lines 58-72): A = 8 sqrt(e^eps0 ln(4/delta) / n)."""
    if eps0 < 0.0:
        raise ValueError(f"epsilon_local must be >= 0, got {eps0}")
    if not (0.0 < delta < 1.0):
        raise ValueError(f"InvalidDelta({delta})")
    if n == 0:
        raise ValueError("n must be >= 1")
    return 8.0 * math.sqrt(_exp(eps0) * math.log(4.0 / delta) / float(n))


def amplify(eps0: float, n: float, delta: float) -> float:
    """`ShuffleDp::amplify(eps0, &ShuffleConfig { n_users: n, delta })?.epsilon_central` (lines 83-99)."""
    if n < 0 or math.isnan(n):
        raise ValueError("n_users is a usize")
    n_users = int(n)
    if eps0 < 0.0:
        raise ValueError(f"epsilon_local must be >= 0, got {eps0}")
    if not (0.0 < delta < 1.0):
        raise ValueError(f"InvalidDelta({delta})")
    if n_users < 2:
        raise ValueError(f"n_users must be >= 2, got {n_users}")
    if eps0 == 0.0:
        return 0.0
    a = fmt_coefficient(eps0, n_users, delta)
    factor = (_exp(eps0) - 1.0) * a
    eps_central = math.log(1.0 + factor)  # (1.0 + factor).ln(), not ln_1p: the same rounding as the crate
    return _max(_min(eps_central, eps0), 0.0)
