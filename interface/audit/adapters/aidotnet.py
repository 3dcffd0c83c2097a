"""Port of ooples/AiDotNet `ShuffleModelDP<T>.ComputeEffectiveEpsilon(numClients, delta)` (C#).

Source: repository ooples/AiDotNet, commit 1f3bc962caf22f4e707c67867a4786817a0976a9,
file src/FederatedLearning/Privacy/ShuffleModelDP.cs: constructor line 53 (default localEpsilon = 8.0,
refuses localEpsilon <= 0), ComputeEffectiveEpsilon lines 282-312, the claim in the doc comments
(lines 16-25, 266-278): "the tight bound from Balle, Bell, and Gascon (2019)":

    tightBound = (1 - 1/n) ln(1 + (e^eps0 - 1)/n) + eps0/n          ("pure DP case")
    asymptotic = eps0 sqrt(ln(1/delta)/n)                             ("approximate DP case")
    return min(tightBound, asymptotic)                                 ("the tighter of the two")

Neither is a statement of BBGN19. The first has no delta and tends to 0 as n grows at any eps0, which no
(eps, delta) shuffle bound can do; the second is EFMRTT19 Thm 7 / BBGN19 Cor 5.3.1's
O(eps0 sqrt(log(1/delta)/n)) with its constant (12 in EFMRTT19 Thm 7) dropped and its hypotheses
(eps0 <= 1/2, n >= 1000, delta < 1/100 in EFMRTT19) ignored. No neighbouring relation is stated. Audited
against `FMT21.clones_numeric`, the tightest certified bound registered for every eps0-LDP randomizer.

Faithfulness: C# `double` and Math.Exp, Math.Log, Math.Sqrt, Math.Min are IEEE-754 binary64 with the platform libm, as
Python's `math`; the port gives the C# results up to libm's last-ulp differences. `numClients` is a C#
`int`: the port truncates a non-integer n like an explicit cast and refuses what the C# method refuses
(ArgumentOutOfRangeException -> ValueError). dotnet is not installed here; the port is checked against
the formulas of the method's own doc comment evaluated in exact rational arithmetic
(tests/interface/audit/test_adapters.py).
"""

from __future__ import annotations

import math

__all__ = ["LOCAL_EPSILON_DEFAULT", "compute_effective_epsilon"]

LOCAL_EPSILON_DEFAULT = 8.0  # ShuffleModelDP(double localEpsilon = 8.0, ...), line 53


def compute_effective_epsilon(eps0: float, n: float, delta: float) -> float:
    """ShuffleModelDP(localEpsilon=eps0).ComputeEffectiveEpsilon(numClients=n, delta=delta), as the C#
    code computes it (range: what the C# code accepts, eps0 > 0, integer n >= 1, 0 <= delta < 1)."""
    if not eps0 > 0:  # constructor, lines 55-58 (a NaN passes `<= 0` in C#; refused here, it never returns)
        raise ValueError("Epsilon must be positive.")
    num_clients = int(n)  # C# int parameter
    if num_clients < 1:  # lines 284-287
        raise ValueError("Must have at least 1 client.")
    if delta < 0 or delta >= 1 or math.isnan(delta):  # lines 289-292
        raise ValueError("Delta must be in [0, 1).")
    if num_clients <= 1:  # lines 294-297
        return eps0
    nn = float(num_clients)  # line 299
    exp_eps = math.exp(eps0) if eps0 < 709.78 else math.inf  # line 302: Math.Exp overflows to +inf
    tight = (1.0 - 1.0 / nn) * math.log(1.0 + (exp_eps - 1.0) / nn) + eps0 / nn  # line 303
    asymptotic = eps0 * math.sqrt(math.log(1.0 / delta) / nn) if delta > 0 else tight  # lines 306-308
    return min(tight, asymptotic)  # line 311
