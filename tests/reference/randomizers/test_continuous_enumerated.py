"""The piecewise mechanism (Wang, Xiao, Yang, Zhao, Hui, Shin, Shin, Yu, ICDE 2019, Sec. III-B, Alg. 2) and Duchi et
al.'s mechanism (Duchi, Jordan, Wainwright, JASA 2018, Sec. 4.2.3), through the front door (`certify`, `compose`),
against the exact central epsilon of explicit neighbouring datasets, computed here from the papers' definitions
alone (nothing of `reference/` is used).

Piecewise: every input's density is constant on each cell cut by the points -C, l(t), r(t), C of the inputs present,
so the cell of each report is a sufficient statistic (inside a cell the report is uniform whatever the input) and
the shuffled output's hockey-stick divergence is a finite sum over the ordered n-tuples of cells, symmetrised over
the n! orders: the EXACT divergence of the continuous mechanism on that pair of datasets, not of a coarsening. The
largest epsilon over a grid of datasets is therefore below the central epsilon (every certified upper end must be
above it); the certified lower end, an exact pair's epsilon after a coarsening (`docs/randomizers.md`: user 1 at two
of -1, 0, 1, the others at the third or at -1 or 1), must be below the exact value of its own uncoarsened datasets,
all of which have their inputs in {-1, 0, 1}.

Duchi: binary output, so a dataset's law is a Poisson-binomial count; by joint convexity the worst case has every
input at -1 or 1 (`docs/randomizers.md`), so the maximum over those datasets is the exact central epsilon and the
certified interval must contain it (others at 0 are included as a check).

Arithmetic is float64: each mass is a product of at most n factors summed over n! orders and at most 9^n cells, so
the epsilons below are good to about 1e-12; the margin 1e-9 is far below the smallest gap seen between a certified
end and the exact value on these grids (9e-6, the piecewise lower end at n = 2, eps0 = 8, delta = 1e-2)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from shuffle_spec import certify
from shuffle_spec.interface.api import composed_epsilon

MARGIN = 1e-9


def _largest_eps(p: np.ndarray, q: np.ndarray, delta: float) -> float:
    """The largest eps >= 0 with sum (p - e^eps q)_+ > delta (0 when there is none), solved exactly on the finite
    privacy-loss distribution: sorted by p/q, the divergence is A_j - e^eps B_j between consecutive ratios."""
    keep = p > 0
    p, q = p[keep], q[keep]
    with np.errstate(divide="ignore"):
        loss = np.where(q > 0, np.log(p) - np.log(np.where(q > 0, q, 1.0)), np.inf)
    order = np.argsort(-loss)
    loss, p, q = loss[order], p[order], q[order]
    above_p, above_q = np.cumsum(p), np.cumsum(q)
    if float(np.sum(np.clip(p - q, 0, None))) <= delta:
        return 0.0
    for j in range(len(loss)):
        if above_p[j] <= delta or above_q[j] == 0:
            continue  # no eps in this segment gives divergence delta (an infinite loss keeps it above delta)
        eps = math.log((above_p[j] - delta) / above_q[j])
        low = loss[j + 1] if j + 1 < len(loss) else -math.inf
        if low - 1e-12 <= eps <= loss[j] + 1e-12:
            return max(eps, 0.0)
    return math.inf


def _pair_eps(p: np.ndarray, q: np.ndarray, delta: float) -> float:
    return max(_largest_eps(p, q, delta), _largest_eps(q, p, delta))


def _shuffled(dataset: tuple[float, ...], masses: dict[float, np.ndarray]) -> np.ndarray:
    """Masses of the ordered tuples of cells of the randomly permuted reports of `dataset`."""
    orders = list(itertools.permutations(dataset))
    total = 0.0
    for inputs in orders:
        product = masses[inputs[0]]
        for t in inputs[1:]:
            product = np.multiply.outer(product, masses[t])
        total = total + product
    return np.ravel(total) / len(orders)


def _piecewise_cells(inputs: list[float], eps0: float) -> dict[float, np.ndarray]:
    """Each input's mass on the cells cut by -C, C and every input's piece [l(t), l(t) + C - 1] (Alg. 2: the piece
    has density p = (e^eps0 - e^(eps0/2)) / (2 e^(eps0/2) + 2), the rest of [-C, C] density p / e^eps0)."""
    h = math.exp(eps0 / 2)
    big_c = (h + 1) / (h - 1)
    on = (math.exp(eps0) - h) / (2 * h + 2)
    off = on / math.exp(eps0)
    pieces = {t: ((big_c + 1) / 2 * t - (big_c - 1) / 2, (big_c + 1) / 2 * t - (big_c - 1) / 2 + big_c - 1) for t in inputs}
    cuts = sorted({-big_c, big_c, *(end for piece in pieces.values() for end in piece)})
    left, right = np.array(cuts[:-1]), np.array(cuts[1:])
    masses = {}
    for t, (lo, hi) in pieces.items():
        inside = np.clip(np.minimum(right, hi) - np.maximum(left, lo), 0, None)
        masses[t] = inside * on + (right - left - inside) * off
    return masses


def _piecewise_pair(x0: float, x1: float, others: tuple[float, ...], eps0: float) -> tuple[np.ndarray, np.ndarray]:
    masses = _piecewise_cells([x0, x1, *others], eps0)
    return _shuffled((x0, *others), masses), _shuffled((x1, *others), masses)


def _piecewise_grid_max(n: int, eps0: float, delta: float, grid: list[float]) -> float:
    return max(_pair_eps(*_piecewise_pair(x0, x1, others, eps0), delta)
               for x0, x1 in itertools.combinations(grid, 2) for others in itertools.combinations_with_replacement(grid, n - 1))


def _duchi_pair(x0: float, x1: float, others: tuple[float, ...], eps0: float) -> tuple[np.ndarray, np.ndarray]:
    """Counts of +B: Pr[+B | t] = 1/2 + t (e^eps0 - 1) / (2 (e^eps0 + 1)), independent reports."""
    def plus(t: float) -> float:
        return 0.5 + t * math.expm1(eps0) / (2 * (math.exp(eps0) + 1))

    count = np.array([1.0])
    for t in others:
        count = np.convolve(count, [1 - plus(t), plus(t)])
    return np.convolve(count, [1 - plus(x0), plus(x0)]), np.convolve(count, [1 - plus(x1), plus(x1)])


def _duchi_exact(n: int, eps0: float, delta: float) -> float:
    values = [-1.0, 0.0, 1.0] if n <= 3 else [-1.0, 1.0]
    return max(_pair_eps(*_duchi_pair(-1.0, 1.0, others, eps0), delta) for others in itertools.combinations_with_replacement(values, n - 1))


def _certified_rows(answer) -> tuple[list[float], list[float]]:
    rows = [row for row in answer.to_json()["bounds"] if row["valid"] and row.get("eps") is not None]
    return [row["eps"] for row in rows if row["side"] == "upper"], [row["eps"] for row in rows if row["side"] == "lower"]


def test_piecewise_cells_are_the_papers_mechanism():
    # Each input's law has mass 1, its piece mass e^(eps0/2) / (e^(eps0/2) + 1) (Alg. 2), and on every cell the ratio
    # of two inputs' masses is 1 or e^{+-eps0}: the mechanism is eps0-LDP and not less.
    for eps0 in (0.5, 8.0):
        masses = _piecewise_cells([-1.0, -0.25, 0.5, 1.0], eps0)
        for mass in masses.values():
            assert mass.sum() == pytest.approx(1.0, rel=1e-14)
        ratio = masses[-1.0] / masses[1.0]
        assert max(abs(math.log(r)) for r in ratio) == pytest.approx(eps0, rel=1e-12)
        h = math.exp(eps0 / 2)
        ends = _piecewise_cells([-1.0, 1.0], eps0)  # three cells: [-C, -1] (the piece of -1), [-1, 1], [1, C]
        assert ends[-1.0][0] == pytest.approx(h / (h + 1), rel=1e-12) and ends[1.0][2] == pytest.approx(h / (h + 1), rel=1e-12)


def test_exact_pair_is_below_eps0_and_reaches_it_as_delta_vanishes():
    # One user (n = 1) at -1 vs 1: disjoint pieces, the pair is eps0-DP exactly.
    p, q = _piecewise_pair(-1.0, 1.0, (), 2.0)
    assert _pair_eps(p, q, 1e-12) == pytest.approx(2.0, abs=1e-9)
    assert _pair_eps(p, q, 0.1) < 2.0


# (n, eps0, delta): the grid's maximum is within 5e-5 of a certified end at each of these points.
PIECEWISE_POINTS = [(2, 8.0, 1e-2), (3, 1.0, 0.1), (3, 4.0, 0.1), (3, 8.0, 0.1), (2, 0.5, 0.1), (3, 2.0, 1e-4)]


@pytest.mark.parametrize(("n", "eps0", "delta"), [pytest.param(*point, marks=pytest.mark.slow) if i else point
                                                  for i, point in enumerate(PIECEWISE_POINTS)], ids=str)
def test_piecewise_certified_ends_against_exact_datasets(n, eps0, delta):
    # The first point stays in the default tier (n = 2: 0.2 s); the rest are the second tier's.
    answer = certify("piecewise", eps0=eps0, n=n, delta=delta)
    uppers, lowers = _certified_rows(answer)
    grid = [-1.0, -0.5, 0.0, 0.5, 1.0] if n == 3 else [float(v) for v in np.linspace(-1, 1, 9)]
    below_truth = _piecewise_grid_max(n, eps0, delta, grid)
    own_datasets = _piecewise_grid_max(n, eps0, delta, [-1.0, 0.0, 1.0])
    assert uppers and lowers
    for upper in uppers:
        assert upper >= below_truth - MARGIN, (upper, below_truth)
    for lower in lowers:
        assert lower <= own_datasets + MARGIN, (lower, own_datasets)


DUCHI_POINTS = [(2, 1.0, 0.1), (3, 0.5, 0.1), (3, 8.0, 1e-4), (10, 2.0, 1e-2), (50, 1.0, 1e-2), (50, 4.0, 1e-4)]


@pytest.mark.parametrize(("n", "eps0", "delta"), [pytest.param(*point, marks=pytest.mark.slow) if i else point
                                                  for i, point in enumerate(DUCHI_POINTS)], ids=str)
def test_duchi_certified_interval_contains_the_exact_value(n, eps0, delta):
    # The first point stays in the default tier; the rest are the second tier's.
    answer = certify("duchi", eps0=eps0, n=n, delta=delta)
    uppers, lowers = _certified_rows(answer)
    exact = _duchi_exact(n, eps0, delta)
    assert uppers and lowers
    assert min(uppers) >= exact - MARGIN and max(lowers) <= exact + MARGIN, (answer.interval, exact)


def _composed_eps(pair: tuple[np.ndarray, np.ndarray], rounds: int, delta: float, forward: int) -> float:
    """The exact epsilon of `forward` rounds of the pair and rounds - forward of its reverse (user 1 at x1 vs x0: a
    pair of neighbouring datasets too), the same datasets every round: a lower bound on the composed central eps."""
    p_all, q_all = np.array([1.0]), np.array([1.0])
    for i in range(rounds):
        p, q = pair if i < forward else pair[::-1]
        p_all, q_all = np.outer(p_all, p).ravel(), np.outer(q_all, q).ravel()
    return _pair_eps(p_all, q_all, delta)


COMPOSE_POINTS = [("piecewise", 2, 1.0, 1e-2, 2, (-1.0, 1.0, (1.0,))), ("piecewise", 2, 4.0, 1e-2, 2, (-1.0, -0.5, (-1.0,))),
                  ("duchi", 3, 0.5, 1e-2, 3, (-1.0, 1.0, (1.0, 1.0))), ("duchi", 3, 1.0, 1e-4, 2, (-1.0, 1.0, (1.0, 1.0)))]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "n", "eps0", "delta", "rounds", "dataset"), COMPOSE_POINTS, ids=str)
def test_composed_upper_end_is_above_exact_composed_datasets(name, n, eps0, delta, rounds, dataset):
    # compose.randomizer's upper end against the exact composition of one dataset pair (the worst on the grids above
    # at these points), every split of the rounds between the pair and its reverse. Here the upper end is within
    # 1e-7 of it (piecewise, n = 2, eps0 = 1, delta = 1e-2, two rounds: 1.93106511 exact, 1.93106521 certified).
    pair = (_piecewise_pair if name == "piecewise" else _duchi_pair)(dataset[0], dataset[1], dataset[2], eps0)
    exact = max(_composed_eps(pair, rounds, delta, forward) for forward in range(rounds + 1))
    upper = composed_epsilon("compose.randomizer", rounds=rounds, eps0=eps0, n=n, delta=delta, randomizer=name).interval[1]
    assert upper >= exact - MARGIN, (upper, exact)
    assert exact > _pair_eps(*pair, delta)  # composing adds loss: a check on the composition above


def _table() -> None:
    """The figures quoted in `docs/randomizers.md`: each point's exact grid maximum beside the certified interval."""
    for n, eps0, delta in PIECEWISE_POINTS:
        grid = [-1.0, -0.5, 0.0, 0.5, 1.0] if n == 3 else [float(v) for v in np.linspace(-1, 1, 9)]
        low, high = certify("piecewise", eps0=eps0, n=n, delta=delta).interval
        print(f"piecewise n={n} eps0={eps0:g} delta={delta:g}: grid max {_piecewise_grid_max(n, eps0, delta, grid):.6f}, "
              f"inputs in {{-1, 0, 1}} {_piecewise_grid_max(n, eps0, delta, [-1.0, 0.0, 1.0]):.6f}, certified [{low:.6f}, {high:.6f}]")
    for n, eps0, delta in DUCHI_POINTS:
        low, high = certify("duchi", eps0=eps0, n=n, delta=delta).interval
        print(f"duchi n={n} eps0={eps0:g} delta={delta:g}: exact {_duchi_exact(n, eps0, delta):.9f}, certified [{low:.9f}, {high:.9f}]")


if __name__ == "__main__":  # python3 tests/reference/randomizers/test_continuous_enumerated.py
    _table()
