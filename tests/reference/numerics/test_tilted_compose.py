"""reference/numerics/pld.py point 5: the exponentially tilted composition (`compose_tilted`), against the exact
T-fold composition of the shuffled binary randomized-response pair, enumerated with Fractions and evaluated in
mpmath, at delta = 1e-15, 1e-30 and 1e-100 (where the untilted composition's round-off, ~1e-13 of the whole
mass, certifies nothing)."""

from __future__ import annotations

import bisect
import itertools
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.core.rounding import mpf_to_float_down, mpf_to_float_up
from shuffle_spec.reference.numerics.pld import GridPLD, PairPLD, coarsen, compose, compose_tilted, saddle_tilt

# Grid step of the test (a power of 2): pessimistic rounding moves each round's loss up by < STEP.
STEP = 2.0**-10


def _convolve(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _binomial(m: int, p: Fraction) -> list[Fraction]:
    from math import comb

    return [comb(m, j) * p**j * (1 - p) ** (m - j) for j in range(m + 1)]


def _shuffled_binary_rr_pair(n: int, e0: int) -> tuple[list[Fraction], list[Fraction]]:
    """The count of ones among n shuffled binary-RR reports (flip probability b = 1 / (1 + e^eps0), e^eps0 = e0
    rational): P with user 1's input 0, Q with input 1, the other n - 1 inputs all 1 (so high losses have tiny
    mass: the count 0 needs every other report flipped, probability b^(n-1))."""
    b = Fraction(1, 1 + e0)
    others = _binomial(n - 1, 1 - b)
    return _convolve(others, [1 - b, b]), _convolve(others, [b, 1 - b])


class _Exact:
    """The exact T-fold composition of (P, Q): every composite (s_1..s_T) with loss sum log(P/Q)(s_i), mass
    prod P(s_i) and prod Q(s_i) (Fractions, then mpmath at 60 digits), sorted by loss; delta(eps) =
    sum_{S > eps} (prod P - e^eps prod Q) from suffix sums."""

    def __init__(self, p: list[Fraction], q: list[Fraction], rounds: int):
        with mpmath.workdps(60):
            loss = [mpmath.log(mpmath.mpf(x.numerator) / x.denominator) - mpmath.log(mpmath.mpf(y.numerator) / y.denominator) for x, y in zip(p, q, strict=True)]
            items = []
            for combo in itertools.product(range(len(p)), repeat=rounds):
                pm, qm = Fraction(1), Fraction(1)
                for s in combo:
                    pm, qm = pm * p[s], qm * q[s]
                items.append((sum(loss[s] for s in combo), mpmath.mpf(pm.numerator) / pm.denominator, mpmath.mpf(qm.numerator) / qm.denominator))
            items.sort(key=lambda t: t[0])
            self.loss = [t[0] for t in items]
            self.p_suffix = list(itertools.accumulate((t[1] for t in reversed(items)), initial=mpmath.mpf(0)))[::-1]
            self.q_suffix = list(itertools.accumulate((t[2] for t in reversed(items)), initial=mpmath.mpf(0)))[::-1]
        self.single_loss = loss

    def delta(self, eps: mpmath.mpf) -> mpmath.mpf:
        with mpmath.workdps(60):
            first = bisect.bisect_right(self.loss, eps)  # the first composite with loss > eps
            return self.p_suffix[first] - mpmath.exp(eps) * self.q_suffix[first]

    def eps_at(self, delta: float) -> float:
        """The float eps with exact delta(eps) nearest `delta` (bisection; it only chooses the test point)."""
        lo, hi = 0.0, float(self.loss[-1])
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if self.delta(mpmath.mpf(mid)) > delta else (lo, mid)
        return hi


def _pair_pld(p: list[Fraction], q: list[Fraction], losses: list[mpmath.mpf]) -> PairPLD:
    """The pair's PLD with float brackets of every loss and mass (outward rounded from 60 digits)."""
    with mpmath.workdps(60):
        lo = np.array([mpf_to_float_down(x) for x in losses])
        hi = np.array([mpf_to_float_up(x) for x in losses])
        m_lo = np.array([mpf_to_float_down(mpmath.mpf(x.numerator) / x.denominator) for x in p])
        m_hi = np.array([mpf_to_float_up(mpmath.mpf(x.numerator) / x.denominator) for x in p])
    return PairPLD(lo, hi, m_lo, m_hi, 0.0, 0.0, float(max(hi)), "shuffled binary RR, others all 1")


# (n, e^eps0, T): the count-0 mass is about e0^-(n-1) per round, so delta reaches below 1e-100 at T rounds.
CASES = [(14, 1000, 3), (30, 100, 2)]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"n{c[0]}-e0{c[1]}-T{c[2]}")
def instance(request: pytest.FixtureRequest) -> tuple[_Exact, PairPLD, int]:
    n, e0, rounds = request.param
    p, q = _shuffled_binary_rr_pair(n, e0)
    exact = _Exact(p, q, rounds)
    return exact, _pair_pld(p, q, exact.single_loss), rounds


@pytest.mark.parametrize("target", [1e-15, 1e-30, 1e-100])
def test_tilted_ends_bracket_the_exact_composed_delta(instance: tuple[_Exact, PairPLD, int], target: float) -> None:
    exact, raw, rounds = instance
    eps = exact.eps_at(target)
    truth = exact.delta(mpmath.mpf(eps))
    assert 0.5 * target < truth < 2 * target  # the test point is where the exact delta is about the target
    upper_grid = raw.discretise(STEP, True, 1e-300, precise_tail=True)
    lower_grid = raw.discretise(STEP, False, 1e-300, precise_tail=True)
    lam = saddle_tilt([upper_grid], [rounds], eps)
    upper = compose_tilted([upper_grid], [rounds], lam)
    lower = compose_tilted([lower_grid], [rounds], lam)
    assert upper is not None and lower is not None
    up, low = upper.delta(eps), lower.delta(eps)
    assert low <= truth <= up
    # Not vacuous: rounding each loss by < STEP moves the composed loss by < T STEP (a coupling), so the pessimistic
    # end is at most the exact delta at eps - T STEP and the optimistic one at least that at eps + T STEP (up to
    # the engine's own relative error, far below 1e-6 of delta: module doc point 5).
    assert up <= exact.delta(mpmath.mpf(eps - rounds * STEP)) * (1 + 1e-6)
    assert low >= exact.delta(mpmath.mpf(eps + rounds * STEP)) * (1 - 1e-6)
    # The untilted composition of the same grid certifies nothing this small (its round-off is ~1e-13 absolute).
    assert compose([upper_grid], [rounds], tail=1e-30).delta(eps) > 1e3 * target


def test_tilted_curve_is_certified_away_from_its_saddle(instance: tuple[_Exact, PairPLD, int]) -> None:
    # One tilt gives a certified curve at every eps (point 5: the identity is exact for every lam), only less tight
    # away from the saddle: checked at eps where the exact delta is 1e-8 .. 1e-60 with the tilt of 1e-30.
    exact, raw, rounds = instance
    grid_up = raw.discretise(STEP, True, 1e-300, precise_tail=True)
    grid_low = raw.discretise(STEP, False, 1e-300, precise_tail=True)
    lam = saddle_tilt([grid_up], [rounds], exact.eps_at(1e-30))
    upper, lower = compose_tilted([grid_up], [rounds], lam), compose_tilted([grid_low], [rounds], lam)
    assert upper is not None and lower is not None
    for target in (1e-8, 1e-20, 1e-45, 1e-60):
        eps = exact.eps_at(target)
        truth = exact.delta(mpmath.mpf(eps))
        assert lower.delta(eps) <= truth <= upper.delta(eps)


def test_tilt_zero_is_the_untilted_composition_up_to_its_error() -> None:
    # lam = 0: the tilted measures are the grids normalised by their mass, so the curve is the untilted one (both
    # within their certified errors): a check of the scale factor prod M_r(0)^T_r.
    p, q = _shuffled_binary_rr_pair(8, 3)
    exact = _Exact(p, q, 2)
    grid = _pair_pld(p, q, exact.single_loss).discretise(STEP, True, 1e-300, precise_tail=True)
    tilted, plain = compose_tilted([grid], [2], 0.0), compose([grid], [2], tail=1e-30)
    assert tilted is not None
    for eps in (0.1, 0.5, 1.0, 1.5):
        assert tilted.delta(eps) == pytest.approx(plain.delta(eps), rel=1e-9, abs=1e-12)
        assert tilted.delta(eps) >= float(exact.delta(mpmath.mpf(eps)))


@pytest.mark.parametrize("lam", [-1.0, float("nan"), float("inf"), 2e6])
def test_compose_tilted_refuses_a_bad_tilt(lam: float) -> None:
    p, q = _shuffled_binary_rr_pair(4, 3)
    grid = _pair_pld(p, q, _Exact(p, q, 1).single_loss).discretise(STEP, True, 1e-300)
    with pytest.raises(ParameterError, match="lam"):
        compose_tilted([grid], [2], lam)


def test_the_saddle_tilt_stays_within_the_tilts_compose_tilted_takes():
    # A loss of one grid step (2^-20) with mass 1e-300: the saddle at eps = the top loss - step / 2 is at
    # lam = ln(1e300) / 2^-20 ~ 7e8, beyond the bracket's end, which doubled from 1 to 2^20 = 1048576 > 1e6: the
    # tilt chosen there was refused by compose_tilted (a ParameterError naming an internal tilt). Any tilt is a
    # valid choice (saddle_tilt only aims), so it must be one compose_tilted takes.
    grid = GridPLD(2.0**-20, 0, np.array([1.0, 1e-300]), 0.0, True, 1.0)
    lam = saddle_tilt([grid], [1], 1.0)
    assert 0 < lam <= 1e6
    compose_tilted([grid], [1], lam)


def test_a_tilted_window_too_wide_is_composed_on_a_coarser_grid(instance: tuple[_Exact, PairPLD, int]) -> None:
    # Where the tilted window does not fit max_fft points, `coarser` doublings of the step are tried (`coarsen`):
    # many rounds of the clone pair at n = 1e6 fill MAX_FFT untilted, and the tilt was then skipped altogether. Here the
    # same on a small instance with max_fft = 4096 (the window at STEP needs 8192): the curve at 2 STEP brackets the
    # exact composed delta, and is not vacuous (within the coupling's T x 2 STEP of it, point 1 at the coarser step).
    exact, raw, rounds = instance
    eps = exact.eps_at(1e-30)
    truth = exact.delta(mpmath.mpf(eps))
    upper_grid = raw.discretise(STEP, True, 1e-300, precise_tail=True)
    lower_grid = raw.discretise(STEP, False, 1e-300, precise_tail=True)
    lam = saddle_tilt([upper_grid], [rounds], eps)
    assert compose_tilted([upper_grid], [rounds], lam, max_fft=4096) is None
    upper = compose_tilted([upper_grid], [rounds], lam, max_fft=4096, coarser=3)
    lower = compose_tilted([lower_grid], [rounds], lam, max_fft=4096, coarser=3)
    assert upper is not None and lower is not None
    step = upper.composed.step
    assert step == 2 * STEP == lower.composed.step
    up, low = upper.delta(eps), lower.delta(eps)
    assert low <= truth <= up
    assert up <= exact.delta(mpmath.mpf(eps - rounds * step)) * (1 + 1e-6)
    assert low >= exact.delta(mpmath.mpf(eps + rounds * step)) * (1 - 1e-6)
    # Without room for any window, None as before.
    assert compose_tilted([upper_grid], [rounds], lam, max_fft=16, coarser=2) is None


def test_coarsen_rounds_each_loss_to_the_coarser_grid_on_its_side() -> None:
    # Losses (offset + i) step with offset -3: pessimistic to ceil((offset + i) / 2) 2 step, optimistic to floor; the
    # masses of a new point are the sums (rounded up, resp. down), nothing lost, the +inf atom kept.
    masses = np.array([0.1, 0.2, 0.3, 0.15, 0.25])  # indices -3 .. 1
    up = coarsen(GridPLD(STEP, -3, masses, 1e-9, True, 1.0))
    low = coarsen(GridPLD(STEP, -3, masses, 0.0, False, 1.0))
    assert up.step == low.step == 2 * STEP
    # ceil: -3 -> -1, -2 -> -1, -1 -> 0, 0 -> 0, 1 -> 1; floor: -3 -> -2, -2 -> -1, -1 -> -1, 0 -> 0, 1 -> 0.
    assert up.offset == -1 and low.offset == -2
    assert list(up.masses) == pytest.approx([0.3, 0.45, 0.25], rel=1e-15)
    assert list(low.masses) == pytest.approx([0.1, 0.5, 0.4], rel=1e-15)
    assert all(x >= y for x, y in zip(up.masses, [0.1 + 0.2, 0.3 + 0.15, 0.25], strict=True))
    assert all(x <= y for x, y in zip(low.masses, [0.1, 0.2 + 0.3, 0.15 + 0.25], strict=True))
    assert up.inf_mass == 1e-9 and up.pessimistic and not low.pessimistic


@pytest.mark.parametrize("coarser", [-1, 17, 1.5, "2", True])
def test_compose_tilted_refuses_a_bad_coarser(coarser: object) -> None:
    p, q = _shuffled_binary_rr_pair(4, 3)
    grid = _pair_pld(p, q, _Exact(p, q, 1).single_loss).discretise(STEP, True, 1e-300)
    with pytest.raises(ParameterError, match="coarser"):
        compose_tilted([grid], [2], 1.0, coarser=coarser)  # type: ignore[arg-type]
