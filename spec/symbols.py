"""Shared SymPy symbols, one per public parameter name.

The ASCII name of each symbol is the parameter name used everywhere: on the command line
(`--param eps0=1`), in JSON, and as the keyword argument of the paired reference function.
"""

from __future__ import annotations

import sympy as sp

eps0 = sp.Symbol("eps0", positive=True)  # local epsilon (EFMRSTT20's eps_l)
eps = sp.Symbol("eps", nonnegative=True)  # central epsilon
delta = sp.Symbol("delta", positive=True)  # central delta
delta0 = sp.Symbol("delta0", nonnegative=True)  # local delta
n = sp.Symbol("n", integer=True, positive=True)  # number of users
k = sp.Symbol("k", integer=True, positive=True)  # domain size / number of compositions
gamma = sp.Symbol("gamma", positive=True)  # blanket probability / TV similarity
q = sp.Symbol("q", nonnegative=True)  # subsampling probability
eps1 = sp.Symbol("eps1", nonnegative=True)
eps2 = sp.Symbol("eps2", nonnegative=True)
delta1 = sp.Symbol("delta1", nonnegative=True)
delta2 = sp.Symbol("delta2", nonnegative=True)
delta_prime = sp.Symbol("delta_prime", positive=True)
rho = sp.Symbol("rho", nonnegative=True)
sigma = sp.Symbol("sigma", positive=True)  # Gaussian noise scale
lam = sp.Symbol("lam", positive=True)  # EFMRSTT20's lambda
tau = sp.Symbol("tau", integer=True, positive=True)  # fragments sent
t = sp.Symbol("t", integer=True, positive=True)  # fragments an adversary sees / time period
T = sp.Symbol("T", integer=True, positive=True)  # number of periods
m = sp.Symbol("m", integer=True, nonnegative=True)  # a count (users in the blanket, clones, ...)
eps_b = sp.Symbol("eps_b", positive=True)  # backstop epsilon of report fragmenting
eps_f = sp.Symbol("eps_f", positive=True)  # fragment epsilon of report fragmenting
beta = sp.Symbol("beta", positive=True)  # failure probability of a utility bound

LATEX_NAMES: dict[str, str] = {
    "eps0": r"\varepsilon_0",
    "eps": r"\varepsilon",
    "delta": r"\delta",
    "delta0": r"\delta_0",
    "gamma": r"\gamma",
    "eps1": r"\varepsilon_1",
    "eps2": r"\varepsilon_2",
    "delta1": r"\delta_1",
    "delta2": r"\delta_2",
    "delta_prime": r"\delta'",
    "rho": r"\rho",
    "eps_b": r"\varepsilon_{\ell b}",
    "eps_f": r"\varepsilon_{\ell f}",
    "lam": r"\lambda",
    "tau": r"\tau",
    "sigma": r"\sigma",
}


def latex_names(symbols) -> dict[sp.Symbol, str]:
    """Map symbols to their LaTeX spelling for `sympy.latex(..., symbol_names=...)`."""
    return {s: LATEX_NAMES[str(s)] for s in symbols if str(s) in LATEX_NAMES}
