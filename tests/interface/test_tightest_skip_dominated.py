"""`tightest(..., skip_dominated=True)` (what `shuffle-spec tightest` uses): the costly candidates that one certified delta
evaluation shows cannot beat the best end in hand are not evaluated (`interface/tightest.py`, module doc). Checked here:
the answer (ids and ends) is the full computation's, bit for bit; every skipped candidate, evaluated in full, is
strictly worse than the answer; the evaluated rows are the full computation's rows; and each test refuses to skip where
the candidate could win (an end above the candidate's own certified eps)."""

import json

import mpmath
import pytest

from shuffle_spec.interface.certify import certify
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.tightest import DOMINATED_CHECKS, _cannot_beat, tightest
from shuffle_spec.reference.bounds.bennett import bennett_generic_epsilon, bennett_krr_epsilon
from shuffle_spec.reference.bounds.blanket_exact_krr import exact_blanket_krr_epsilon
from shuffle_spec.reference.bounds.blanket_krr_lower import blanket_krr_delta_lower
from shuffle_spec.reference.bounds.hoeffding import hoeffding_generic_epsilon, hoeffding_krr_epsilon
from shuffle_spec.reference.bounds.restated import corollary_5_3_1_epsilon
from shuffle_spec.reference.bounds.stronger_clones import stronger_clones
from shuffle_spec.reference.exact.binary_rr import binary_rr_pair_delta, binary_rr_pair_epsilon
from shuffle_spec.reference.lower_bounds.krr import krr_pair_delta, krr_pair_x0_epsilon

# k >= 3 (BBGN19.Lem5.3.exact_krr and exact.krr_pair_third in hand), k = 2 (exact.shuffled_binary_rr in hand), and a
# point where the split third pair is the lower end (large eps0): each skips at least one candidate.
POINTS = [
    {"k": 10, "eps0": 1.0, "n": 2000, "delta": 1e-6},
    {"k": 2, "eps0": 4.0, "n": 2000, "delta": 1e-6},
    {"k": 100, "eps0": 8.0, "n": 1000, "delta": 1e-9},
]


@pytest.mark.parametrize("point", POINTS, ids=lambda p: f"k={p['k']},eps0={p['eps0']:g},n={p['n']}")
def test_skipping_keeps_the_answer_of_the_full_computation(point):
    full = tightest(randomizer="krr", **point)
    fast = tightest(randomizer="krr", skip_dominated=True, **point)
    assert (fast.upper_id, fast.upper_eps, fast.lower_id, fast.lower_eps) == (full.upper_id, full.upper_eps, full.lower_id, full.lower_eps)
    assert [r["id"] for r in fast.rows] == [r["id"] for r in full.rows] and not any(r["skipped"] for r in full.rows)
    skipped = [r for r in fast.rows if r["skipped"]]
    assert skipped, "no candidate was skipped: the test would show nothing"
    full_rows = {(r["id"], r["direction"]): r for r in full.rows}
    for row in fast.rows:
        reference = full_rows[(row["id"], row["direction"])]
        if not row["skipped"]:
            assert row == reference  # an evaluated row is the full computation's
            continue
        assert row["id"] in DOMINATED_CHECKS and row["eps"] is None and row["valid"] is False and row["reason"].startswith("not evaluated")
        # Evaluated in full, the skipped candidate is strictly worse than the answer (or certifies nothing).
        if reference["eps"] is not None and reference["valid"]:
            if row["direction"] == "upper_bound":
                assert reference["eps"] > full.upper_eps
            else:
                assert reference["eps"] < full.lower_eps


POINT = {"eps0": 1.0, "n": 10_000, "delta": 1e-6}


def test_the_clone_test_skips_below_the_stronger_clone_eps_only():
    value = stronger_clones(k=10, **POINT)  # [lower, upper] around the stronger-clone pair's eps
    params = {**POINT, "k": 10}
    # Below the pair's eps its delta exceeds delta: FMT23 (and FMT21, whose delta is larger) cannot beat that end.
    assert _cannot_beat("FMT23.stronger_clones", params, 0.99 * value.lower, {})
    assert _cannot_beat("FMT21.clones_numeric", params, 0.99 * value.lower, {})
    # Above it FMT23 would win: no skip.
    assert _cannot_beat("FMT23.stronger_clones", params, 1.01 * value.upper, {}) == ""


def test_the_blanket_test_skips_below_its_eps_only():
    value = exact_blanket_krr_epsilon(k=2, **POINT)  # its upper end is within 3e-4 (relative) of its exact eps
    params = {**POINT, "k": 2}
    assert _cannot_beat("BBGN19.Lem5.3.exact_krr", params, 0.99 * value.upper, {})
    # 10% below it the lower bound from one blanket size decides alone (~15% below the exact delta at n = 1e4; 1% at 1e8).
    assert blanket_krr_delta_lower(k=2, eps0=POINT["eps0"], n=POINT["n"], eps=0.9 * value.upper, delta_hint=POINT["delta"]) > POINT["delta"]
    assert _cannot_beat("BBGN19.Lem5.3.exact_krr", params, 1.01 * value.upper, {}) == ""


def test_the_x0_pair_test_skips_above_its_eps_only():
    low = krr_pair_x0_epsilon(k=10, **POINT).value  # within 3e-4 (relative) below the pair's exact eps
    high = exact_blanket_krr_epsilon(k=10, **POINT).upper  # above every neighbouring pair's eps (BBGN19 Lemma 5.3)
    params = {**POINT, "k": 10}
    # Above the pair's eps its delta is at most delta: it cannot beat that lower end.
    assert _cannot_beat("exact.krr_pair_x0", params, 1.01 * high, {})
    # Below it the pair would give a larger lower end: no skip.
    assert _cannot_beat("exact.krr_pair_x0", params, 0.99 * low, {}) == ""


@pytest.mark.parametrize(("statement_id", "function"), [
    ("BBGN19.Thm5.3", hoeffding_generic_epsilon), ("BBGN19.bennett_generic", bennett_generic_epsilon),
    ("BBGN19.hoeffding_krr", hoeffding_krr_epsilon), ("BBGN19.bennett_krr", bennett_krr_epsilon),
    ("BBGN19.Cor5.3.1", corollary_5_3_1_epsilon),
])
def test_the_closed_form_tests_skip_below_their_eps_only(statement_id, function):
    params = {**POINT, "k": 10}
    kwargs = {**POINT, "k": 10} if statement_id.endswith("_krr") else POINT
    value = function(**kwargs).value  # the inversion's point (within 1e-9 relative of the smallest eps certified)
    assert 0 < value < POINT["eps0"]
    assert _cannot_beat(statement_id, params, 0.99 * value, {})
    assert _cannot_beat(statement_id, params, value, {}) == ""  # its delta at its own value is at most delta


def test_no_test_without_an_end_in_hand_or_at_eps0():
    params = {**POINT, "k": 10}
    for statement_id in DOMINATED_CHECKS:
        assert _cannot_beat(statement_id, params, None, {}) == ""
        assert _cannot_beat(statement_id, params, POINT["eps0"], {}) == ""


def test_the_command_skips_and_all_bounds_evaluates_every_candidate(capsys):
    argv = ["tightest", "--k", "10", "--eps0", "1", "--n", "2000", "--delta", "1e-6", "--json"]
    assert main(argv) == 0
    fast = json.loads(capsys.readouterr().out)
    assert main([*argv, "--all-bounds"]) == 0
    full = json.loads(capsys.readouterr().out)
    assert (fast["upper"], fast["lower"], fast["ratio"]) == (full["upper"], full["lower"], full["ratio"])
    assert any(r["skipped"] for r in fast["bounds"]) and not any(r["skipped"] for r in full["bounds"])
    assert main(argv[:-1]) == 0
    text = capsys.readouterr().out
    assert "not evaluated: FMT23's stronger-clone delta" in text and "not valid: not evaluated" not in text


LARGE_POINTS = [
    {"k": 10, "eps0": 1.0, "n": 10**8, "delta": 1e-6},
    {"k": 2, "eps0": 4.0, "n": 10**6, "delta": 1e-6},
    {"k": 100, "eps0": 4.0, "n": 10**8, "delta": 1e-9},
]


@pytest.mark.slow  # seconds per point: the full computation at n = 1e6 and 1e8
@pytest.mark.parametrize("point", LARGE_POINTS, ids=lambda p: f"k={p['k']},eps0={p['eps0']:g},n={p['n']:.0e}")
def test_skipping_keeps_the_answer_at_large_n(point):
    full = tightest(randomizer="krr", **point)
    fast = tightest(randomizer="krr", skip_dominated=True, **point)
    assert (fast.upper_id, fast.upper_eps, fast.lower_id, fast.lower_eps) == (full.upper_id, full.upper_eps, full.lower_id, full.lower_eps)
    full_rows = {(r["id"], r["direction"]): r for r in full.rows}
    skipped = [r for r in fast.rows if r["skipped"]]
    assert skipped
    for row in skipped:
        reference = full_rows[(row["id"], row["direction"])]
        if reference["eps"] is not None and reference["valid"]:
            assert reference["eps"] > full.upper_eps if row["direction"] == "upper_bound" else reference["eps"] < full.lower_eps


# `certify` (the front door) ranks one round of k-RR, binary RR, Laplace and the generic randomizer with the skip too
# (the k = 2 skips themselves: POINTS above and the x0 test below).
CERTIFY_POINTS = [
    ("krr", {"k": 10, "eps0": 1.0, "n": 2000, "delta": 1e-6}),
    ("binary_rr", {"eps0": 1.0, "n": 1000, "delta": 1e-9}),  # k = 2: exact.shuffled_binary_rr in hand
]


@pytest.mark.parametrize(("randomizer", "point"), CERTIFY_POINTS, ids=lambda p: p if isinstance(p, str) else f"k={p.get('k')},eps0={p['eps0']:g}")
def test_certify_skips_and_keeps_the_ends_of_the_full_computation(randomizer, point):
    result = certify(randomizer, **point)
    full = tightest(randomizer=randomizer, **point)  # every candidate evaluated
    assert (result.statement_id, result.value, result.lower_id, result.lower) == (full.upper_id, full.upper_eps, full.lower_id, full.lower_eps)
    full_rows = {(r["id"], r["direction"]): r for r in full.rows}
    skipped = [row for row in result.rows if row.skipped]
    assert skipped, "no candidate was skipped: the test would show nothing"
    for row in result.rows:
        reference = full_rows[(row.statement_id, f"{row.side}_bound")]
        if row.skipped:
            assert row.eps is None and row.valid is False and row.reason.startswith("not evaluated") and row.statement_id in DOMINATED_CHECKS
            assert row.to_json()["skipped"] is True
        else:
            assert (row.eps, row.valid) == (reference["eps"], bool(reference["valid"] and reference["eps"] is not None))
            assert row.to_json()["skipped"] is False


def _x0_pair_delta_by_enumeration(eps0: float, n: int, eps: float) -> mpmath.mpf:
    """max(D(P||Q), D(Q||P)) at e^eps, P = Bern(p) + Bin(n-1, p), Q = Bern(q) + Bin(n-1, p), p = e^eps0/(e^eps0 + 1):
    the count of x0 among n shuffled binary-RR reports when user 1 holds x0 (P) or x1 (Q) and the n - 1 others all hold
    x0, summed over every count at 60 digits (the float eps0 and eps taken exactly)."""
    with mpmath.workdps(60):
        e0, e = mpmath.exp(mpmath.mpf(eps0)), mpmath.exp(mpmath.mpf(eps))
        p = e0 / (e0 + 1)
        q = 1 - p
        others = [mpmath.binomial(n - 1, j) * p**j * q ** (n - 1 - j) for j in range(n)]
        P = [(p * others[s - 1] if s >= 1 else 0) + (q * others[s] if s <= n - 1 else 0) for s in range(n + 1)]
        Q = [(q * others[s - 1] if s >= 1 else 0) + (p * others[s] if s <= n - 1 else 0) for s in range(n + 1)]
        return max(sum(max(a - e * b, 0) for a, b in zip(P, Q, strict=True)), sum(max(b - e * a, 0) for a, b in zip(P, Q, strict=True)))


@pytest.mark.parametrize(("eps0", "n", "eps"), [(1.0, 30, 0.4), (4.0, 60, 1.5), (0.5, 200, 0.1)])
def test_the_x0_pair_at_k2_is_the_binary_rr_pair_with_the_others_at_one_bit(eps0, n, eps):
    # The k = 2 test of exact.krr_pair_x0 certifies the pair's delta with binary RR's pair (k = 0 ones among the
    # others, both directions); every one of these certified brackets contains the enumerated value.
    exact = _x0_pair_delta_by_enumeration(eps0, n, eps)
    for value in (binary_rr_pair_delta(eps0=eps0, n=n, k=0, eps=eps, delta_hint=1e-6), binary_rr_pair_delta(eps0=eps0, n=n, k=0, eps=eps),
                  krr_pair_delta(eps0=eps0, n=n, k=2, eps=eps, pair="x0")):
        assert value.lower <= exact <= value.upper
        assert value.upper - value.lower <= 1e-9 * exact


def test_the_x0_pair_test_at_k2_skips_above_the_pairs_eps_only():
    point = {"eps0": 4.0, "n": 10_000, "delta": 1e-9}
    pair = binary_rr_pair_epsilon(k=0, **point)  # [lower, upper] around the all-x0 pair's exact eps (1e-7 relative)
    params = {**point, "k": 2}
    assert _cannot_beat("exact.krr_pair_x0", params, 1.001 * pair.upper, {})
    assert _cannot_beat("exact.krr_pair_x0", params, 0.999 * pair.lower, {}) == ""
    # There the worst pair is not the all-x0 one: the command skips the x0 search, and the answer is the full one's.
    fast = tightest(randomizer="krr", k=2, skip_dominated=True, **point)
    full = tightest(randomizer="krr", k=2, **point)
    assert (fast.upper_id, fast.upper_eps, fast.lower_id, fast.lower_eps) == (full.upper_id, full.upper_eps, full.lower_id, full.lower_eps)
    (skipped,) = [row for row in fast.rows if row["id"] == "exact.krr_pair_x0"]
    (evaluated,) = [row for row in full.rows if row["id"] == "exact.krr_pair_x0"]
    assert skipped["skipped"] and evaluated["valid"] and evaluated["eps"] < full.lower_eps


def test_the_blanket_test_at_k2_takes_the_n_grid_where_it_is_cheaper(monkeypatch):
    """eps0 = 4, n = 1e6 (k = 2): Lemma 5.3's own rule takes the split sum (ten times the N grid's time there); the test
    certifies with the N grid. The end U = 0.02401399 is exact.shuffled_binary_rr's upper end at delta = 1e-6
    (benchmarks/TIGHTEST_SPEED.md); Lemma 5.3's eps there is above it by more than 1%."""
    from shuffle_spec.reference.bounds import blanket_exact_krr as blanket_exact

    def no_split(*args, **kwargs):
        raise AssertionError("the split sum was evaluated")

    monkeypatch.setattr(blanket_exact, "_blanket_delta_split", no_split)
    params = {"eps0": 4.0, "n": 10**6, "delta": 1e-6, "k": 2}
    assert _cannot_beat("BBGN19.Lem5.3.exact_krr", params, 0.02401399, {}).startswith("not evaluated")


def test_the_x0_pair_test_at_k3_and_above_decides_by_the_chernoff_bound_where_it_suffices(monkeypatch):
    """k = 10, eps0 = 4, n = 1e4: the pair's delta at the blanket bound's eps is far below delta; its Chernoff bound
    (closed form) shows it without the lattice sums (made to fail here); below the pair's eps no skip (the lattice sums
    then decide: the Chernoff bound is above delta there)."""
    from shuffle_spec.reference.lower_bounds import krr as pair_module

    point = {"eps0": 4.0, "n": 10_000, "delta": 1e-6}
    high = exact_blanket_krr_epsilon(k=10, **point).upper
    low = krr_pair_x0_epsilon(k=10, **point).value
    params = {**point, "k": 10}
    with monkeypatch.context() as patch:
        patch.setattr(pair_module, "krr_pair_delta", lambda **kwargs: (_ for _ in ()).throw(AssertionError("lattice sums called")))
        assert _cannot_beat("exact.krr_pair_x0", params, high, {}).startswith("not evaluated")
    assert _cannot_beat("exact.krr_pair_x0", params, 0.99 * low, {}) == ""


def test_the_clone_test_decides_with_the_coarse_window_first_and_as_the_fine_window_does(monkeypatch):
    """The clone test evaluates the stronger-clone pair with a window dropping COARSE_CLONE_TAIL per side first (a lower
    end still certified), and with the window of 1e-4 delta only where that does not show FMT23's delta above delta;
    its decisions are those of the fine window alone at ends far below, just below and above the pair's eps."""
    from shuffle_spec.interface import tightest as front
    from shuffle_spec.reference.bounds import clones

    value = stronger_clones(k=10, **POINT)
    params = {**POINT, "k": 10}
    fine_tail = max(clones.window_tail(POINT["delta"]), 1e-4 * POINT["delta"])
    tails: list[float] = []
    real = clones.clone_pair_delta

    def recording(**kwargs):
        tails.append(kwargs["tail"])
        return real(**kwargs)

    monkeypatch.setattr(clones, "clone_pair_delta", recording)
    for end in (0.5 * value.lower, 0.99 * value.lower, 1.01 * value.upper):
        tails.clear()
        fine = real(eps0=POINT["eps0"], n=POINT["n"], eps=end, kind="fmt23", tail=fine_tail).lower > POINT["delta"]
        assert bool(_cannot_beat("FMT23.stronger_clones", params, end, {})) == fine
        assert tails[0] == front.COARSE_CLONE_TAIL
        if end == 0.5 * value.lower:
            assert tails == [front.COARSE_CLONE_TAIL]  # far below the pair's eps the coarse window decides alone
        if end > value.upper:
            assert tails == [front.COARSE_CLONE_TAIL, fine_tail]  # above it both windows are asked, neither skips
