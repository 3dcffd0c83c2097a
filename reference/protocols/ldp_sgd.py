"""LDP-SGD (EFMRSTT20 Algs. 4 and 5, Thm VI.1).

Client (Alg. 4): clip the gradient to norm L (x); z = +-L x/|x| with P(+) = 1/2 + |x|/(2L), so
E[z] = x; draw v uniform on the unit sphere of R^d; send zhat = sgn(<z, v>) v w.p. e^eps0/(1+e^eps0),
else -sgn(<z, v>) v.

Privacy (density ratio): zhat is a unit vector w, reached from v = w or v = -w; whatever z, the
density of zhat at w (w.r.t. the uniform measure) is 2p if <z, w> > 0 and 2(1-p) if < 0, with
p = e^eps0/(1+e^eps0). A mixture over z keeps it in [2(1-p), 2p], so any two inputs' densities are
within a factor p/(1-p) = e^eps0: the client is eps0-LDP. In d = 1 the output set is {-1, +1} and
`client_distribution_1d` gives the exact finite randomizer.

Server constant (Alg. 5): E[sgn(<u, v>) v] = c_d u for a unit u, c_d = Gamma(d/2)/(sqrt(pi)
Gamma((d+1)/2)), hence E[zhat] = ((e-1)/(e+1)) c_d x / L and the unbiased scale is
B = L ((e+1)/(e-1)) / c_d = d x the constant printed in Alg. 5 (which is biased by 1/d).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable, Sequence, TypeAlias

import numpy as np

from ..finite.distributions import Distribution
from ..core.errors import ParameterError, require_integer, require_positive
from ..finite.randomizers import Randomizer
from ..core.results import BoundValue
from ..core.rounding import round_down, round_up

# A vector of floats: a sequence or a 1-d numpy array (np.asarray reads either).
Vector: TypeAlias = Sequence[float] | np.ndarray

__all__ = [
    "sphere_sign_constant",
    "gradient_scale",
    "printed_gradient_scale",
    "clip_gradient",
    "ldp_sgd_client",
    "client_density",
    "client_distribution_1d",
    "client_randomizer_1d",
    "ldp_sgd_server_step",
    "ldp_sgd",
    "ldp_sgd_epsilon",
    "theorem_a3_hypotheses_hold",
    "shamir_zhang_bound",
]


def sphere_sign_constant(d: int) -> float:
    """c_d = E[|v_1|] = Gamma(d/2) / (sqrt(pi) Gamma((d+1)/2)) for v uniform on the unit sphere of R^d
    (EFMRSTT20.Alg5: E[sgn(<u,v>) v] = c_d u). Computed with lgamma for large d."""
    require_integer("d", d, minimum=1)
    return math.exp(math.lgamma(d / 2) - math.lgamma((d + 1) / 2)) / math.sqrt(math.pi)


def gradient_scale(*, eps0: float, L: float, d: int) -> float:
    """The unbiased server scale B = L ((e^eps0+1)/(e^eps0-1)) / c_d of EFMRSTT20.Alg5 (d times the
    printed constant): E[B zhat] = the clipped gradient."""
    require_positive("eps0", eps0)
    require_positive("L", L)
    return L * (math.expm1(eps0) + 2.0) / math.expm1(eps0) / sphere_sign_constant(d)


def printed_gradient_scale(*, eps0: float, L: float, d: int) -> float:
    """L (sqrt(pi)/2) Gamma((d-1)/2 + 1)/Gamma(d/2 + 1) (e+1)/(e-1) exactly as printed in
    EFMRSTT20.Alg5; biased by the factor 1/d (kept to document the seed)."""
    require_positive("eps0", eps0)
    require_positive("L", L)
    require_integer("d", d, minimum=1)
    ratio = math.exp(math.lgamma((d - 1) / 2 + 1) - math.lgamma(d / 2 + 1))
    return L * math.sqrt(math.pi) / 2 * ratio * (math.expm1(eps0) + 2.0) / math.expm1(eps0)


def clip_gradient(gradient: Vector, *, L: float) -> np.ndarray:
    """grad * min(1, L/|grad|_2): step 1 of EFMRSTT20.Alg4."""
    require_positive("L", L)
    g = np.asarray(gradient, dtype=float)
    if g.ndim != 1 or g.size == 0 or not np.isfinite(g).all():
        raise ParameterError("gradient", gradient, "a non-empty finite vector")
    norm = float(np.linalg.norm(g))
    return g if norm <= L else g * (L / norm)


def ldp_sgd_client(gradient: Vector, *, eps0: float, L: float, seed: int | np.random.Generator | None = None) -> np.ndarray:
    """One eps0-LDP report zhat (a unit vector) of EFMRSTT20.Alg4 for this gradient."""
    require_positive("eps0", eps0)
    x = clip_gradient(gradient, L=L)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    d = x.size
    norm = float(np.linalg.norm(x))
    if norm == 0.0:
        # x = 0: z = +-L u for any fixed unit u with probability 1/2 each; E[z] = 0 = x.
        direction = np.zeros(d)
        direction[0] = 1.0
    else:
        direction = x / norm
    z = direction if rng.random() < 0.5 + norm / (2 * L) else -direction
    v = rng.standard_normal(d)
    v /= np.linalg.norm(v)
    sign = 1.0 if float(z @ v) >= 0 else -1.0
    keep = rng.random() < 1.0 / (1.0 + math.exp(-eps0))
    return (sign if keep else -sign) * v


def client_density(w: Sequence[float], gradient: Sequence[float], *, eps0: float, L: float) -> float:
    """Density of EFMRSTT20.Alg4's output at the unit vector w, relative to the uniform measure on the
    sphere: P(z = +u)(2p 1[<u,w> > 0] + 2(1-p) 1[<u,w> < 0]) + P(z = -u)(the same with -u)."""
    require_positive("eps0", eps0)
    x = clip_gradient(gradient, L=L)
    wv = np.asarray(w, dtype=float)
    if wv.shape != x.shape or not math.isclose(float(np.linalg.norm(wv)), 1.0, rel_tol=1e-9):
        raise ParameterError("w", w, f"a unit vector of dimension {x.size}")
    norm = float(np.linalg.norm(x))
    u = x / norm if norm > 0 else np.eye(x.size)[0]
    p = 1.0 / (1.0 + math.exp(-eps0))
    plus = 0.5 + norm / (2 * L)
    s = float(u @ wv)
    density_plus = 2 * p if s > 0 else 2 * (1 - p)
    density_minus = 2 * p if s < 0 else 2 * (1 - p)
    return plus * density_plus + (1 - plus) * density_minus


def client_distribution_1d(x: Fraction | int, *, L: Fraction | int, e_eps0: Fraction | int) -> Distribution:
    """Exact output distribution of EFMRSTT20.Alg4 in d = 1 (sphere {-1, +1}): for v = +-1,
    sgn(z v) v = sgn(z), so zhat = sgn(z) w.p. p = e/(1+e), else -sgn(z); P(z > 0) = 1/2 + x/(2L)
    for the clipped scalar x."""
    for name, value in (("x", x), ("L", L), ("e_eps0", e_eps0)):
        if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
            raise ParameterError(name, value, "an exact rational (int or Fraction)")
    if not L > 0:
        raise ParameterError("L", L, "L > 0")
    if not e_eps0 > 1:
        raise ParameterError("e_eps0", e_eps0, "e^eps0 > 1")
    clipped = max(-Fraction(L), min(Fraction(L), Fraction(x)))
    positive = Fraction(1, 2) + clipped / (2 * Fraction(L))
    p = Fraction(e_eps0) / (1 + Fraction(e_eps0))
    return Distribution({1: positive * p + (1 - positive) * (1 - p), -1: positive * (1 - p) + (1 - positive) * p})


def client_randomizer_1d(inputs: Sequence[Fraction | int], *, L: Fraction | int, e_eps0: Fraction | int) -> Randomizer:
    """EFMRSTT20.Alg4 in d = 1 on a finite set of gradients, as an exact Randomizer."""
    if len(inputs) == 0:
        raise ParameterError("inputs", inputs, "at least one gradient value")
    return Randomizer({x: client_distribution_1d(x, L=L, e_eps0=e_eps0) for x in inputs})


def ldp_sgd_server_step(theta: Vector, reports: Sequence[Vector], *, eps0: float, L: float, lr: float, project: Callable[[np.ndarray], np.ndarray] | None = None) -> np.ndarray:
    """theta - lr g with g = B mean(reports), then the projection onto C (EFMRSTT20.Alg5 step 5-6;
    B the unbiased `gradient_scale`)."""
    require_positive("lr", lr)
    th = np.asarray(theta, dtype=float)
    r = np.asarray(reports, dtype=float)
    if r.ndim != 2 or r.shape[0] == 0 or r.shape[1] != th.size:
        raise ParameterError("reports", reports, f"a non-empty list of vectors of dimension {th.size}")
    g = gradient_scale(eps0=eps0, L=L, d=th.size) * r.mean(axis=0)
    nxt = th - lr * g
    return project(nxt) if project is not None else nxt


def ldp_sgd(gradient_fn: Callable[[np.ndarray, int], np.ndarray], *, n: int, d: int, T: int, eps0: float, L: float, radius: float, seed: int | None = None) -> np.ndarray:
    """EFMRSTT20.Alg5 with clients of Alg. 4 over T epochs on C = the l2 ball of `radius`
    (diameter |C|_2 = 2 radius), step eta_t = c / sqrt(t) with c = |C|_2 / G as in Thm A.4.

    G must bound sqrt(E|g_t|^2) <= sqrt(L^2 + B^2/n) (|E g_t| <= L, and the mean of n reports of norm B
    has variance <= B^2/n). Alg. 5 prints eta = (|C|_2 sqrt(n))/(L sqrt(d)) (e-1)/(e+1), i.e. App. D's
    G = O(L sqrt(d)/sqrt(n) (e+1)/(e-1)), which drops the L^2 of the true gradient: with it the steps are
    ~sqrt(n) too long whenever gradients are not small (the iterate jumps across C). This function uses
    the valid G. `gradient_fn(theta, i)` is client i's gradient at theta."""
    require_integer("n", n, minimum=1)
    require_integer("d", d, minimum=1)
    require_integer("T", T, minimum=1)
    require_positive("radius", radius)
    require_positive("eps0", eps0)
    require_positive("L", L)
    rng = np.random.default_rng(seed)
    theta = np.zeros(int(d))
    second_moment = math.sqrt(L**2 + gradient_scale(eps0=eps0, L=L, d=int(d)) ** 2 / int(n))
    c = 2 * radius / second_moment

    def project(point: np.ndarray) -> np.ndarray:
        norm = float(np.linalg.norm(point))
        return point if norm <= radius else point * (radius / norm)

    for step in range(1, int(T) + 1):
        reports = [ldp_sgd_client(gradient_fn(theta, i), eps0=eps0, L=L, seed=rng) for i in range(int(n))]
        theta = ldp_sgd_server_step(theta, reports, eps0=eps0, L=L, lr=c / math.sqrt(step), project=project)
    return theta


def theorem_a3_hypotheses_hold(*, eps0: float, n: int) -> bool:
    """Whether eps0 <= log(n)/4, the range of EFMRSTT20.ThmA.3 and ThmVI.1 (both asymptotic O(.)
    statements without constants: no number is returned)."""
    require_positive("eps0", eps0)
    require_integer("n", n, minimum=1)
    return eps0 <= math.log(n) / 4


def shamir_zhang_bound(*, diam: float, c: float, G: float, T: int) -> BoundValue:
    """(|C|_2^2 / c + c G^2)(2 + log T)/sqrt(T): the bound on E[F(theta_T)] - min_C F of projected SGD
    with steps c/sqrt(t), unbiased gradients of second moment G^2, T > 1 (EFMRSTT20.ThmA.4, Shamir-Zhang
    Thm 2), for diam, c, G > 0 and T >= 2. Not a privacy bound. An upper bound: the double evaluation (six
    correctly rounded operations, libm's log within one ulp) widened by 8 ulps each way, `value` the upper end."""
    require_positive("diam", diam)
    require_positive("c", c)
    require_positive("G", G)
    require_integer("T", T, minimum=2)
    value = (diam**2 / c + c * G**2) * (2 + math.log(T)) / math.sqrt(T)
    return BoundValue(round_down(value, 8), round_up(value, 8), direction="upper_bound")


def ldp_sgd_epsilon(*, eps0: float, n: int, delta: float, T: int) -> BoundValue:
    """EFMRSTT20.ThmVI.1's privacy re-accounted with a number: the central eps after T epochs of
    shuffled LDP-SGD (each epoch: one eps0-LDP report per user, shuffled; the client of Alg. 4 is eps0-LDP
    whatever its gradient, so adaptive epochs are covered) by the FMT21 clone pair composed T times
    (compose.clones, certified interval; shuffle_spec.reference.composition.shuffled_rounds). Thm VI.1 itself uses Thm A.3 + advanced
    composition and has no constants. Supported: 0 < eps0 <= 30, 1 <= n <= 1e9, 0 < delta < 1, 1 <= T <= 1e6."""
    from ..composition.shuffled_rounds import compose_clones

    return compose_clones(eps0=eps0, n=n, delta=delta, rounds=T)
