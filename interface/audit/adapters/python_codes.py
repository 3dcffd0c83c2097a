"""Adapters for the third-party Python implementations of the registry (`adapters.IMPLEMENTATIONS`).

None of that code is in this repository. Each adapter imports it from the clone the user names with
SHUFFLE_SPEC_AUDIT_<KEY> (`third_party_module`), then makes the one call the implementation's own
documentation or scripts make, nothing else: no input check, no rounding, no clamping, so every verdict
is about the third-party code. Where that code is a script (its formulas sit next to module-level
experiments that run on import and write files), `_functions_of_script` executes only the script's
imports and function definitions (`ast`), never its experiments.

| adapter | SHUFFLE_SPEC_AUDIT_... | point it at |
|---|---|---|
| balle_hoeffding | BALLE_HOEFFDING | `<clone of BorjaBalle/amplification-by-shuffling>/shuffleddp` |
| apple_closed_form | APPLE_CLOSED_FORM | clone of apple/ml-shuffling-amplification |
| wang_general, wang_krr, wang_laplace_lower | WANG_GENERAL, WANG_KRR, WANG_LAPLACE_LOWER | clone of wangsw/PrivacyAmplification |
| su_fft_krr | SU_FFT_KRR | clone of Optimal-amplification-bound/Decomposition-Based-Optimal-Bounds-for-Shuffle-DP |
| koskela_fa, girgis_rdp | KOSKELA_FA, GIRGIS_RDP | clone of DPBayes/numerical-shuffler-experiments |
"""

from __future__ import annotations

import ast
import math
import os
from pathlib import Path
from typing import Any

from . import ThirdPartyMissing, third_party_module

__all__ = ["apple_closed_form", "balle_hoeffding", "girgis_rdp", "koskela_fa", "su_fft_krr", "wang_general", "wang_krr", "wang_laplace_lower"]

WANG_STEPS = 20  # bisection steps T (the README suggests 8 for speed; more steps only tighten)
CUPY_STANDIN = str(Path(__file__).with_name("cupy_standin"))


def balle_hoeffding(eps0: float, n: int, delta: float) -> float:
    """Hoeffding(LDPMechanism(eps0)).get_eps(eps0, n, delta): BBGN19 Theorem 5.3 as their code computes it."""
    bounds = third_party_module("balle_hoeffding", "amplification_bounds")
    mechanisms = third_party_module("balle_hoeffding", "mechanisms")
    return float(bounds.Hoeffding(mechanisms.LDPMechanism(eps0=eps0)).get_eps(eps0, n, delta))


def apple_closed_form(eps0: float, n: int, delta: float) -> float:
    """computeamplification.closedformanalysis(n, eps0, delta) (n first in their signature)."""
    module = third_party_module("apple_closed_form", "computeamplification")
    return float(module.closedformanalysis(n, eps0, delta))


def wang_general(eps0: float, n: int, delta: float) -> float:
    """amplificationUB with the README's "general mechanisms" row: p = q = e^eps0, beta = (e^eps0-1)/(e^eps0+1)."""
    module = third_party_module("wang_general", "unifiedamplification")
    p = math.exp(eps0)
    return float(module.amplificationUB(p, (p - 1) / (p + 1), p, p, n, delta, WANG_STEPS))


def wang_krr(eps0: float, n: int, delta: float, k: int) -> float:
    """amplificationUB with the README's "general RR on d options" row: p = q = e^eps0, beta = (e^eps0-1)/(e^eps0+k-1)."""
    module = third_party_module("wang_krr", "unifiedamplification")
    p = math.exp(eps0)
    return float(module.amplificationUB(p, (p - 1) / (p + k - 1), p, p, n, delta, WANG_STEPS))


def wang_laplace_lower(eps0: float, n: int, delta: float) -> float:
    """amplificationLB with the README's "Laplace mechanism for [0,1]" row: p = q = e^eps0, beta = 1 - e^(-eps0/2)."""
    module = third_party_module("wang_laplace_lower", "unifiedamplification")
    p = math.exp(eps0)
    return float(module.amplificationLB(p, 1 - math.exp(-eps0 / 2), p, p, n, delta, WANG_STEPS))


def su_fft_krr(eps0: float, n: int, delta: float, k: int) -> float:
    """FFTbound(RRMechanism(eps0, k)).get_eps(eps0, n, delta), their k-RR upper bound (the CuPy stand-in
    `cupy_standin/`: NumPy for the arrays and every other name, `scipy.fft.fft` / `scipy.fft.ifft` for `cupy.fft`)."""
    bounds = third_party_module("su_fft_krr", "amplification_bounds", extra_paths=(CUPY_STANDIN,))
    mechanisms = third_party_module("su_fft_krr", "mechanisms", extra_paths=(CUPY_STANDIN,))
    return float(bounds.FFTbound(mechanisms.RRMechanism(eps0, k)).get_eps(eps0, n, delta))


def _functions_of_script(key: str, relative: str) -> dict[str, Any]:
    """The imports and function definitions of a script in the clone named by SHUFFLE_SPEC_AUDIT_<KEY>,
    executed without the script's module-level experiments."""
    folder = os.environ.get(f"SHUFFLE_SPEC_AUDIT_{key.upper()}")
    if not folder:
        raise ThirdPartyMissing(f"{relative} is third-party code: clone it and set SHUFFLE_SPEC_AUDIT_{key.upper()} to its folder")
    path = Path(folder) / relative
    tree = ast.parse(path.read_text(), filename=str(path))
    kept: list[ast.stmt] = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef))]
    kept = [node for node in kept if not (isinstance(node, (ast.Import, ast.ImportFrom)) and "matplotlib" in ast.unparse(node))]
    namespace: dict[str, Any] = {"__name__": f"_audited_{path.stem}"}
    exec(compile(ast.Module(body=kept, type_ignores=[]), str(path), "exec"), namespace)  # noqa: S102 - the audited code, in the audit's child process
    return namespace


def girgis_rdp(eps0: float, n: int, delta: float) -> float:
    """Girgis et al.'s RDP bound as girgis_upper.py evaluates it, for one round of all n users: gamma = 1,
    k = n users, T = 1, the script's orders lambda = 2..1000 (`np.linspace(2, 1000, 999)`, cast to int in
    `eval_RDP_upper`), converted by its `eps_given_delta`."""
    f = _functions_of_script("girgis_rdp", "clones_girgis_comparison_fig3/girgis_upper.py")
    lambdas = [2.0 + i for i in range(999)]
    rdps = [f["eval_RDP_upper"](1.0, eps0, int(n), int(lam)) for lam in lambdas]
    return float(f["eps_given_delta"](rdps, lambdas, delta))


KOSKELA_NX, KOSKELA_L = 10**7, 20  # the script's grid: nx = 1e7 points on [-L, L], L = 20
KOSKELA_BISECTION = 40


def koskela_fa(eps0: float, n: int, delta: float) -> float:
    """delta_shuffler_fa.py's delta(eps) for one round (k = 1: its PLD `get_omega`, then the same sum
    `sum((1 - exp(eps - x)) omega(x))` over x >= eps as the script's first table), inverted by bisection on
    eps in [0, eps0]: the upper end of the final bracket, where their delta(eps) <= delta (so the adapter
    never returns less than their own curve gives)."""
    import numpy as np

    f = _functions_of_script("koskela_fa", "clones_comparison_fig1/delta_shuffler_fa.py")
    omega, grid_x, _ = f["get_omega"](int(n), 1, eps0, KOSKELA_NX, KOSKELA_L)
    dx = 2 * KOSKELA_L / KOSKELA_NX

    def their_delta(eps: float) -> float:
        j_start = int(np.ceil((KOSKELA_L + eps) / dx))
        return float(np.sum((1 - np.exp(eps - grid_x[j_start:])) * omega[j_start:]))

    low, high = 0.0, eps0
    if their_delta(high) > delta:
        return eps0
    for _ in range(KOSKELA_BISECTION):
        middle = (low + high) / 2
        if their_delta(middle) <= delta:
            high = middle
        else:
            low = middle
    return high
