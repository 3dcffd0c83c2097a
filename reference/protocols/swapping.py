"""Sequentially chosen local randomizers with and without anonymity (EFMRTT19 Sec. 4, Algs 3-5).

A protocol is a sequence of local randomizers A^(i)(z_{1:i-1}, x), i = 1..n: the i-th one may depend
on the previous outputs z_{1:i-1}. Here it is a callable `randomizers(i, prefix) -> Randomizer`
(1-based i, `prefix` the tuple z_{1:i-1}); `fixed_randomizers(R)` uses one R for every step.

- Alg. 3, A_ldp: z_i = A^(i)(z_{1:i-1}, x_i).
- Alg. 4, A_sl: a uniform permutation pi first, then z_i = A^(i)(z_{1:i-1}, x_pi(i)).
- Alg. 5, A_swap: a uniform index I in [n], the transposition (1 I), then z_i = A^(i)(z_{1:i-1}, x_sigma(i)).
- Cor. 9's algorithm: A_ldp, then the outputs in a uniformly permuted order.

Each has a sampler (runnable on data, with a numpy Generator) and an exact output distribution (over
output sequences z_{1:n}; exact for exact randomizers), plus the exact (eps, delta) at one index.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any, Callable, Hashable, Sequence, cast

import numpy as np

from ..finite.operations import mixture
from ..finite.distributions import Distribution, Probability
from ..finite.divergences import ldp_ratio, min_e_eps_for_delta
from ..core.errors import ParameterError, require_integer
from ..finite.randomizers import Randomizer

__all__ = [
    "AdaptiveRandomizers",
    "fixed_randomizers",
    "local_responses",
    "shuffled_responses",
    "swapped_responses",
    "shuffled_reports",
    "local_responses_distribution",
    "shuffled_responses_distribution",
    "swapped_responses_distribution",
    "shuffled_reports_distribution",
    "protocol_ldp_ratio",
    "index_neighbour_laws",
    "exact_e_eps_at_index",
]

# A sequence of reports or inputs, as a tuple of any hashable values.
Responses = tuple[Any, ...]
AdaptiveRandomizers = Callable[[int, Responses], Randomizer]

# Exact distributions enumerate every output sequence (and every permutation for Algs 4 and Cor 9).
MAX_EXACT_N = 10
MAX_EXACT_PERMUTED_N = 7


def fixed_randomizers(randomizer: Randomizer) -> AdaptiveRandomizers:
    """The protocol that applies the same `randomizer` at every step, whatever the previous outputs."""
    if not isinstance(randomizer, Randomizer):
        raise ParameterError("randomizer", randomizer, "a shuffle_spec.reference.finite.randomizers.Randomizer")
    return lambda i, prefix: randomizer


def _check_dataset(dataset: Sequence[Hashable], limit: int | None = None) -> Responses:
    data = tuple(dataset)
    if not data:
        raise ParameterError("dataset", dataset, "at least one element")
    if limit is not None and len(data) > limit:
        raise ParameterError("len(dataset)", len(data), f"at most {limit} for exact enumeration")
    return data


def _check_randomizers(randomizers: object) -> AdaptiveRandomizers:
    if not callable(randomizers):
        raise ParameterError("randomizers", randomizers, "a callable (i, z_{1:i-1}) -> Randomizer")
    return cast(AdaptiveRandomizers, randomizers)


def _check_rng(rng: object) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise ParameterError("rng", rng, "a numpy.random.Generator")
    return rng


def _sample(dist: Distribution, rng: np.random.Generator) -> Hashable:
    outcomes = list(dist)
    weights = np.array([float(dist[o]) for o in outcomes])
    return outcomes[int(rng.choice(len(outcomes), p=weights / weights.sum()))]


def _run(order: Sequence[Hashable], randomizers: AdaptiveRandomizers, rng: np.random.Generator) -> Responses:
    z: Responses = ()
    for i, x in enumerate(order, start=1):
        z += (_sample(randomizers(i, z)(x), rng),)
    return z


def local_responses(dataset: Sequence[Hashable], randomizers: AdaptiveRandomizers, rng: np.random.Generator) -> Responses:
    """Alg. 3 (A_ldp), one run: z_i = A^(i)(z_{1:i-1}, x_i) (EFMRTT19.Alg3)."""
    return _run(_check_dataset(dataset), _check_randomizers(randomizers), _check_rng(rng))


def shuffled_responses(dataset: Sequence[Hashable], randomizers: AdaptiveRandomizers, rng: np.random.Generator) -> Responses:
    """Alg. 4 (A_sl), one run: permute the data uniformly, then run Alg. 3 (EFMRTT19.Alg4)."""
    data = _check_dataset(dataset)
    rng = _check_rng(rng)
    order = [data[i] for i in rng.permutation(len(data))]
    return _run(order, _check_randomizers(randomizers), rng)


def _swapped(data: Responses, index: int) -> Responses:
    """The dataset with elements 1 and `index` (1-based) exchanged: x_sigma(i), sigma = (1 index)."""
    swapped = list(data)
    swapped[0], swapped[index - 1] = swapped[index - 1], swapped[0]
    return tuple(swapped)


def swapped_responses(dataset: Sequence[Hashable], randomizers: AdaptiveRandomizers, rng: np.random.Generator) -> Responses:
    """Alg. 5 (A_swap), one run: I uniform in [n], swap x_1 and x_I, then run Alg. 3 (EFMRTT19.Alg5)."""
    data = _check_dataset(dataset)
    rng = _check_rng(rng)
    index = int(rng.integers(1, len(data) + 1))
    return _run(_swapped(data, index), _check_randomizers(randomizers), rng)


def shuffled_reports(dataset: Sequence[Hashable], randomizers: AdaptiveRandomizers, rng: np.random.Generator) -> Responses:
    """Cor. 9's algorithm, one run: Alg. 3's outputs in a uniformly random order (EFMRTT19.Cor9)."""
    rng = _check_rng(rng)
    z = local_responses(dataset, randomizers, rng)
    return tuple(z[i] for i in rng.permutation(len(z)))


def local_responses_distribution(dataset: Sequence[Hashable], randomizers: AdaptiveRandomizers) -> Distribution:
    """The exact law of Alg. 3's output z_{1:n} (EFMRTT19.Alg3)."""
    data = _check_dataset(dataset, MAX_EXACT_N)
    randomizers = _check_randomizers(randomizers)
    prefixes: dict[Responses, Probability] = {(): Fraction(1)}
    for i, x in enumerate(data, start=1):
        nxt: dict[Responses, Probability] = {}
        for z, p in prefixes.items():
            for y, py in randomizers(i, z)(x).items():
                nxt[z + (y,)] = nxt.get(z + (y,), 0) + p * py
        prefixes = nxt
    return Distribution(prefixes)


def shuffled_responses_distribution(dataset: Sequence[Hashable], randomizers: AdaptiveRandomizers) -> Distribution:
    """The exact law of Alg. 4's output: the uniform mixture over the n! orders (EFMRTT19.Alg4)."""
    data = _check_dataset(dataset, MAX_EXACT_PERMUTED_N)
    orders = list(itertools.permutations(range(len(data))))
    # Orders giving the same permuted dataset give the same law: weight each distinct one.
    counts: dict[Responses, int] = {}
    for order in orders:
        permuted = tuple(data[i] for i in order)
        counts[permuted] = counts.get(permuted, 0) + 1
    return mixture([(Fraction(c, len(orders)), local_responses_distribution(p, randomizers)) for p, c in counts.items()])


def swapped_responses_distribution(dataset: Sequence[Hashable], randomizers: AdaptiveRandomizers) -> Distribution:
    """The exact law of Alg. 5's output: the uniform mixture over I in [n] (EFMRTT19.Alg5)."""
    data = _check_dataset(dataset, MAX_EXACT_N)
    n = len(data)
    return mixture([(Fraction(1, n), local_responses_distribution(_swapped(data, index), randomizers)) for index in range(1, n + 1)])


def shuffled_reports_distribution(dataset: Sequence[Hashable], randomizers: AdaptiveRandomizers) -> Distribution:
    """The exact law of Cor. 9's output: Alg. 3's z in a uniformly random order (EFMRTT19.Cor9)."""
    data = _check_dataset(dataset, MAX_EXACT_PERMUTED_N)
    orders = list(itertools.permutations(range(len(data))))
    base = local_responses_distribution(data, randomizers)
    share = Fraction(1, len(orders))
    out: dict[Responses, Probability] = {}
    for z, p in base.items():
        z = cast(Responses, z)  # the outcomes of local_responses_distribution are tuples
        for order in orders:
            key = tuple(z[i] for i in order)
            out[key] = out.get(key, 0) + p * share
    return Distribution(out)


def protocol_ldp_ratio(randomizers: AdaptiveRandomizers, n: int) -> Probability:
    """max over i in [n] and reachable prefixes z_{1:i-1} of the LDP ratio e^{eps0} of
    A^(i)(z_{1:i-1}, .): the eps0 of hypothesis (H) of EFMRTT19 Thms 7-8 and Cor 9."""
    randomizers = _check_randomizers(randomizers)
    require_integer("n", n, minimum=1)
    if n > MAX_EXACT_N:
        raise ParameterError("n", n, f"at most {MAX_EXACT_N} for exact enumeration")
    worst: Probability = Fraction(1)
    prefixes: set[Responses] = {()}
    for i in range(1, int(n) + 1):
        nxt: set[Responses] = set()
        for z in prefixes:
            step = randomizers(i, z)
            worst = max(worst, ldp_ratio(step))
            nxt.update(z + (y,) for y in step.outputs)
        prefixes = nxt
    return worst


def index_neighbour_laws(
    algorithm: Callable[[Sequence[Hashable], AdaptiveRandomizers], Distribution],
    randomizers: AdaptiveRandomizers,
    inputs: Sequence[Hashable],
    n: int,
    *,
    index: int = 1,
) -> list[tuple[Distribution, Distribution]]:
    """The output laws of `algorithm` (one of the *_distribution functions) on every pair of datasets
    in inputs^n that differ exactly at `index` (EFMRTT19 Def 1, "DP at index i"), each unordered pair once."""
    require_integer("n", n, minimum=1)
    require_integer("index", index, minimum=1)
    if index > n:
        raise ParameterError("index", index, f"1 <= index <= n = {n}")
    values = tuple(dict.fromkeys(inputs))
    if len(values) < 2:
        raise ParameterError("inputs", inputs, "at least two distinct inputs")
    pairs: list[tuple[Distribution, Distribution]] = []
    for rest in itertools.product(values, repeat=int(n) - 1):
        laws = {x: algorithm(rest[: index - 1] + (x,) + rest[index - 1 :], randomizers) for x in values}
        pairs.extend((laws[x], laws[x2]) for x, x2 in itertools.combinations(values, 2))
    return pairs


def exact_e_eps_at_index(
    algorithm: Callable[[Sequence[Hashable], AdaptiveRandomizers], Distribution],
    randomizers: AdaptiveRandomizers,
    inputs: Sequence[Hashable],
    n: int,
    delta: Probability,
    *,
    index: int = 1,
) -> Probability:
    """The exact smallest e^eps for which `algorithm` is (eps, delta)-DP at `index`: the max over
    `index_neighbour_laws` of the pair's min e^eps (exact for exact randomizers and rational delta).
    For EFMRTT19.Thm8 (A_swap at index 1) and Thm 7 / Cor 9 (A_sl, shuffled reports)."""
    if isinstance(delta, bool) or not isinstance(delta, (int, float, Fraction)) or not 0 <= delta <= 1:
        raise ParameterError("delta", delta, "a number in [0, 1]")
    worst: Probability = Fraction(1)
    for p, q in index_neighbour_laws(algorithm, randomizers, inputs, n, index=index):
        worst = max(worst, min_e_eps_for_delta(p, q, delta))
    return worst
