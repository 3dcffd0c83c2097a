"""exact.shuffled_binary_rr's removal route runs the refinement at the requested tolerance first
(`_removal_sweeps`): where it covers every count within FINE_FIRST_SHARE of the work budget, no coarse sweep runs;
else it pauses, the coarse sweep runs, and it resumes where it paused. Checked against the coarse-then-refine
sequence built here from the sweeps themselves (`_sweep` twice, as the route ran before): the same certified floats,
worst count and tolerance, and exactly the coarse sweep's evaluations fewer (or, paused and resumed, the same
evaluations: no block is tried twice)."""

import pytest

import shuffle_spec.reference.exact.binary_rr as ebr
from shuffle_spec.reference.exact.binary_rr import worst_case

# Removal-route points (n below the flat regime, eps amplified below eps0) where the coarse sweep costs evaluations.
POINTS = [(1.0, 1_000, 1e-6), (0.5, 3_000, 1e-9), (4.0, 3_000, 1e-9)]


def _coarse_then_refine(eps0, n, delta):
    """(lower, upper, worst count, tolerance, evaluations, the coarse sweep's evaluations) of the coarse sweep followed
    by the refinement from k = 0, after the same start and transport attempt as `worst_case`."""
    rel_tol = ebr.DEFAULT_REL_TOL
    pair_tol = min(ebr.PAIR_REL_TOL, rel_tol / 10)
    pairs = ebr._Pairs(eps0, delta, n, limited=True)
    solved = ebr._classic_start(pairs, n, pair_tol)
    assert ebr._transport_attempt(pairs, n, solved, rel_tol, pair_tol) is None
    before = pairs.evaluations
    coarse = ebr._sweep(pairs, n, solved, ebr.COARSE_TOLERANCE, pair_tol, ebr.WORK_BUDGET, ebr.MAX_TOLERANCE)
    coarse_evaluations = pairs.evaluations - before
    fine = ebr._sweep(pairs, n, solved, rel_tol, pair_tol, ebr.WORK_BUDGET, coarse[1] / 2)
    eps_u, tolerance = min([coarse, fine])
    upper = min(max(eps_u, max(r.upper for r in solved.values())), eps0)
    worst = max(solved, key=lambda k: solved[k].lower)
    return solved[worst].lower, upper, worst, tolerance, pairs.evaluations, coarse_evaluations


def _summary(result):
    return result.lower.hex(), result.upper.hex(), result.worst_k, result.tolerance


@pytest.mark.parametrize("eps0, n, delta", POINTS)
def test_refinement_first_gives_the_coarse_then_refine_floats_without_the_coarse_sweep(eps0, n, delta):
    lower, upper, worst, tolerance, evaluations, coarse_evaluations = _coarse_then_refine(eps0, n, delta)
    got = worst_case(eps0=eps0, n=n, delta=delta)
    assert got.route == "removal"
    assert _summary(got) == (lower.hex(), upper.hex(), worst, tolerance)
    assert coarse_evaluations > 0
    assert got.evaluations == evaluations - coarse_evaluations


def test_paused_refinement_resumes_after_the_coarse_sweep(monkeypatch):
    # With no share the refinement pauses after its first block: the coarse sweep runs, then the refinement goes on
    # from its second block (restarting from k = 0 would try the first block twice: one evaluation more).
    eps0, n, delta = POINTS[0]
    lower, upper, worst, tolerance, evaluations, _ = _coarse_then_refine(eps0, n, delta)
    monkeypatch.setattr(ebr, "FINE_FIRST_SHARE", 0.0)
    got = worst_case(eps0=eps0, n=n, delta=delta)
    assert _summary(got) == (lower.hex(), upper.hex(), worst, tolerance)
    assert got.evaluations == evaluations
