"""BBGN19.Lem5.3.exact_randomizer's FFT path (`fft_count_expectation_upper`, subset selection's four groups) with its
N-independent parts kept across the blanket sizes of one eps (`_fft_terms`: coefficient brackets and float sd;
`_fft_grid`: the randomized-rounding grid law, which depends on N only through the power-of-2 step h): the same float
as the computation written out from scratch (below, the code before the parts were kept), cold and warm."""

import math

import numpy as np

from shuffle_spec.reference.bounds import blanket_exact_randomizer as bx
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.numerics.lattice_sums import U1
from shuffle_spec.reference.numerics.pld import GridPLD, compose
from shuffle_spec.reference.randomizers.subset_selection import subset_selection

GROUPS = subset_selection(2.0, 60, 8).replace_pairs()[0].groups  # four groups


def _from_scratch(big_n, groups, eps, tail=1e-30):
    brackets = bx._coefficient_brackets(groups, float(eps))
    l_hi = np.array([hi for _, hi, _ in brackets])
    p_hi = bx._probability_upper(groups)
    if float(np.max(l_hi)) <= 0:
        return 0.0
    p_float = p_hi / np.sum(p_hi)
    mean = float(np.sum(p_float * l_hi))
    sd = math.sqrt(max(float(np.sum(p_float * (l_hi - mean) ** 2)), 1e-300))
    spread = float(np.max(l_hi) - np.min(l_hi))
    span = min(big_n * spread, 30.0 * math.sqrt(big_n) * sd + 2 * spread)
    h = 2.0 ** math.floor(math.log2(max(min(bx.H_OVER_SD * sd, span / 1024), span / bx.FFT_TARGET, spread / (bx.MAX_FFT // 4), 1e-300)))
    for _ in range(8):
        base = np.floor(l_hi / h)
        frac = np.clip((l_hi - base * h) / h, 0.0, 1.0)
        q = np.minimum(frac * (1 + 4 * U1) + 1e-300, 1.0)
        lo = int(np.min(base))
        size = int(np.max(base)) - lo + 2
        masses = np.zeros(size)
        np.add.at(masses, (base - lo).astype(np.int64), p_hi * (1.0 - q) * (1 + 4 * U1))
        np.add.at(masses, (base - lo).astype(np.int64) + 1, p_hi * q * (1 + 4 * U1))
        masses *= 1 + (len(p_hi) + 2) * U1
        grid = GridPLD(h, lo, masses, 0.0, True, 0.0)
        try:
            composed = compose([grid], [big_n], tail=tail, max_fft=bx.MAX_FFT)
            break
        except ParameterError:
            h *= 2.0
    values = composed.values
    s = (composed.start + np.arange(len(values), dtype=float)) * h
    lam = np.geomspace(1e-3, 1e3, 48) / max(math.sqrt(big_n) * sd + h, 1e-300)
    log_m = big_n * grid.log_mgf(lam)
    cutoff = max(0.0, float(np.min((log_m + 92.2) / lam)))
    best = float(np.min(log_m - lam * cutoff + np.log(cutoff + 1.0 / lam)))
    beyond = math.exp(best) * (1 + 1e-12) if best < 700 else math.inf
    top = (composed.start + len(values)) * h
    keep = (s > 0) & (s <= cutoff)
    vs = values[keep] * s[keep]
    total = float(np.sum(vs))
    slack = (len(values) + 4) * 1.001 * U1 * float(np.sum(np.abs(vs))) * 4
    slack += math.sqrt(float(np.sum(s[keep] ** 2))) * 1.0001 * composed.error_2norm
    above = beyond
    if cutoff >= top:
        above += composed.tail_above * max(big_n * (lo + size - 1) * h, 0.0)
    below = composed.tail_below * max(composed.start * h, 0.0)
    return max((total + slack + above + below) * (1 + 8 * U1), 0.0)


def test_kept_grid_gives_the_same_float_cold_and_warm():
    for eps in (0.05, 0.4):
        bx._fft_terms.cache_clear()
        bx._fft_grid.cache_clear()
        sizes = (3, 40, 41, 400, 5000)
        cold = [bx.fft_count_expectation_upper(m, GROUPS, eps) for m in sizes]
        warm = [bx.fft_count_expectation_upper(m, GROUPS, eps) for m in sizes]
        assert cold == warm == [_from_scratch(m, GROUPS, eps) for m in sizes]
        assert bx._fft_grid.cache_info().hits >= len(sizes)  # the warm pass reads the kept grids
        # E[(S)_+] >= E[S]_+ = 0 and <= N max l: the bound is a number in that range.
        assert all(0.0 <= v <= m * 10 for v, m in zip(cold, sizes, strict=True))


def test_nothing_positive_is_zero():
    bx._fft_terms.cache_clear()
    assert bx.fft_count_expectation_upper(50, GROUPS, 2.5) == 0.0 == _from_scratch(50, GROUPS, 2.5)  # e^eps above every alpha/beta
