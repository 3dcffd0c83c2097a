"""The structured upper bounds' search aimed by the saddlepoint estimate (`reference.randomizers.structured`,
statement BBGN19.Lem5.3.exact_randomizer): the estimate is close to the certified lattice sum it stands in for, and
the aimed search returns a point where the certified delta is <= delta, within the search tolerance of the
unaimed search's."""

from __future__ import annotations

import numpy as np
import pytest

import shuffle_spec.reference.randomizers.structured as structured
from shuffle_spec.reference.bounds.blanket_exact_randomizer import count_expectation, saddle_blanket_root, saddle_expectations
from shuffle_spec.reference.randomizers import piecewise, subset_selection


def test_saddle_estimate_is_close_to_the_certified_lattice_sum():
    # The piecewise mechanism's three groups at eps0 = 1: the saddlepoint estimate of E[(L_1 + ... + L_N)_+] within
    # 1% of the certified interval (measured: 0.1-0.5%), from 1e-11 to 2 (the range the blanket sum weighs).
    pair = piecewise.piecewise_mechanism(1.0).replace_pairs()[0]
    for big_n in (100, 1000, 6000):
        for eps in (0.03, 0.08):
            lo, hi = count_expectation(big_n, pair.groups, eps, tail=1e-30)
            estimate = float(saddle_expectations(np.array([big_n]), pair.groups, eps)[0])
            assert 0.99 * lo <= estimate <= 1.01 * hi


def test_saddle_root_is_none_where_the_estimate_does_not_cross():
    pair = piecewise.piecewise_mechanism(1.0).replace_pairs()[0]
    # n = 2: no amplification below eps0 at delta = 1e-6 (the certified search returns eps0 there too).
    assert saddle_blanket_root(2, pair.gamma, [pair.groups], delta=1e-6, eps0=1.0) is None
    root = saddle_blanket_root(10**4, pair.gamma, [pair.groups], delta=1e-6, eps0=1.0)
    assert root is not None and 0 < root < 1.0


def test_aimed_search_returns_a_certified_point():
    # Piecewise at eps0 = 4, n = 100: the aim is used, and the certified delta at the returned point is <= delta.
    mechanism = piecewise.piecewise_mechanism(4.0)
    pairs, eps0_up = mechanism.replace_pairs(), 4.0 * (1 + 1e-12)
    assert structured._guess(pairs, n=100, delta=1e-6, eps0=eps0_up) is not None
    aimed = structured.structured_blanket_epsilon(pairs, n=100, delta=1e-6, eps0=eps0_up)
    assert 0 < aimed.upper < 4.0
    assert structured.structured_blanket_delta(pairs, n=100, eps=aimed.upper, delta_hint=1e-6).upper <= 1e-6


@pytest.mark.slow
@pytest.mark.parametrize(
    "pairs, eps0, n",
    [
        (piecewise.piecewise_mechanism(2.0).replace_pairs(), 2.0, 1000),
        (subset_selection.subset_selection(4.0, 100, subset_selection.optimal_subset_size(4.0, 100)).replace_pairs(), 4.0, 300),
    ],
    ids=["piecewise", "subset"],
)
def test_aimed_search_is_certified_and_within_tolerance_of_the_unaimed(monkeypatch, pairs, eps0, n):
    eps0_up = eps0 * (1 + 1e-12)
    aimed = structured.structured_blanket_epsilon(pairs, n=n, delta=1e-6, eps0=eps0_up)
    assert structured._guess(pairs, n=n, delta=1e-6, eps0=eps0_up) is not None  # the aim is used here
    # The certified delta at the returned point is <= delta (what the search promises, re-evaluated).
    assert structured.structured_blanket_delta(pairs, n=n, eps=aimed.upper, delta_hint=1e-6).upper <= 1e-6
    monkeypatch.setattr(structured, "_guess", lambda *args, **kwargs: None)
    unaimed = structured.structured_blanket_epsilon(pairs, n=n, delta=1e-6, eps0=eps0_up)
    assert abs(aimed.upper / unaimed.upper - 1) <= 2 * structured.EPS_REL_TOL
