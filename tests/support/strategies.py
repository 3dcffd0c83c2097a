"""Hypothesis strategies: exact distributions, stochastic matrices, eps0-LDP randomizers by
construction, neighbouring datasets. Sizes stay small enough for exact computation."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from shuffle_spec.reference.finite.distributions import Distribution
from shuffle_spec.reference.finite.randomizers import Randomizer

__all__ = [
    "e_eps_values",
    "exact_distributions",
    "distribution_pairs",
    "stochastic_matrices",
    "randomizers",
    "ldp_randomizers",
    "neighbouring_pair",
    "small_probabilities",
]

# e^eps as a small rational >= 1, so divergences at it are exact Fractions.
e_eps_values = st.fractions(min_value=1, max_value=8, max_denominator=12)
small_probabilities = st.fractions(min_value=0, max_value=1, max_denominator=50)


def _normalise(weights: list[int]) -> list[Fraction]:
    total = sum(weights)
    return [Fraction(w, total) for w in weights]


def exact_distributions(size: int | None = None, *, min_size: int = 1, max_size: int = 5, full_support: bool = False):
    """Exact distributions on {0, ..., size-1}."""
    sizes = st.just(size) if size is not None else st.integers(min_size, max_size)
    low = 1 if full_support else 0
    return sizes.flatmap(
        lambda m: st.lists(st.integers(low, 20), min_size=m, max_size=m)
        .filter(lambda ws: sum(ws) > 0)
        .map(lambda ws: Distribution(dict(enumerate(_normalise(ws)))))
    )


def distribution_pairs(*, max_size: int = 5, full_support: bool = False):
    """Two exact distributions on the same outcome set."""
    return st.integers(1, max_size).flatmap(
        lambda m: st.tuples(exact_distributions(m, full_support=full_support), exact_distributions(m, full_support=full_support))
    )


def stochastic_matrices(*, max_inputs: int = 3, max_outputs: int = 4, full_support: bool = True):
    """Exact row-stochastic matrices (rows inputs, columns outputs)."""
    low = 1 if full_support else 0
    return st.tuples(st.integers(2, max_inputs), st.integers(2, max_outputs)).flatmap(
        lambda shape: st.lists(
            st.lists(st.integers(low, 12), min_size=shape[1], max_size=shape[1]).filter(lambda ws: sum(ws) > 0),
            min_size=shape[0],
            max_size=shape[0],
        ).map(lambda rows: [_normalise(r) for r in rows])
    )


def randomizers(**kwargs):
    return stochastic_matrices(**kwargs).map(Randomizer.from_matrix)


@st.composite
def ldp_randomizers(draw, *, max_inputs: int = 3, max_outputs: int = 4, e_eps0: Fraction | None = None):
    """A randomizer that is e_eps0-LDP by construction (ratio at most e_eps0), with its e_eps0.

    Column j gets weights in [a_j, a_j e_eps0]. All rows are divided by one common total T, so the
    ratios within a column are kept; an extra "slack" output brings each row to T, and T is taken
    large enough that the slack weights are also within a factor e_eps0 of each other.
    """
    e = draw(st.fractions(min_value=Fraction(11, 10), max_value=8, max_denominator=10)) if e_eps0 is None else e_eps0
    k = draw(st.integers(2, max_inputs))
    m = draw(st.integers(1, max_outputs - 1))
    columns = []
    for _ in range(m):
        base = Fraction(draw(st.integers(1, 10)))
        columns.append([base * (1 + (e - 1) * Fraction(draw(st.integers(0, 10)), 10)) for _ in range(k)])
    totals = [sum(col[x] for col in columns) for x in range(k)]
    # A slack output brings every row to the same total T; slack_x = T - totals[x] must stay within
    # a factor e of the other rows' slack, so T is taken large enough: T >= (e max - min)/(e - 1).
    top, bottom = max(totals), min(totals)
    target = max(top + 1, (e * top - bottom) / (e - 1))
    slack = [target - t for t in totals]
    rows = [[col[x] / target for col in columns] + [slack[x] / target] for x in range(k)]
    return Randomizer.from_matrix(rows), e


@st.composite
def neighbouring_pair(draw, inputs, n: int):
    """Two datasets of size n over `inputs` differing in the last element."""
    rest = draw(st.lists(st.sampled_from(list(inputs)), min_size=n - 1, max_size=n - 1))
    x, x2 = draw(st.lists(st.sampled_from(list(inputs)), min_size=2, max_size=2, unique=True))
    return tuple(rest) + (x,), tuple(rest) + (x2,)
