"""Tiny local epsilon (eps0 from 1e-300 to 1e-12): every amplification statement, every composition pair and
the commands that show them answer a certified number or refuse in one line naming a parameter or a
hypothesis; never a numpy warning, an internal message or a traceback.

The contract at each point of the grid eps0 x n x delta (eps0 in {1e-300, 1e-40, 1e-12}; 1e-6 and above are
in tests/properties/test_edges.py), with warnings turned into errors:
- an answer is finite and >= 0; an upper bound is >= the event lower bound on the truth of shuffled binary
  randomized response (`event_lower_bound`, the same independent mpmath computation as tests/properties/test_edges.py,
  here at 400 digits so that eps0 = 1e-300 is resolved), a lower bound is <= eps0 (n shuffled eps0-LDP reports
  are eps0-DP: the truth is at most eps0);
- a composition of T rounds answers in [that event bound, T eps0] (one round is a post-processing of T
  rounds; basic composition above), the exact binary-RR pair (a lower bound) <= T eps0;
- a refusal is a failed hypothesis of the statement or a `ParameterError` naming one of its parameters
  (with the range), never a message about internal quantities ("coefficients", "probability", "law").
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import mpmath
import pytest

from shuffle_spec.interface import api
from shuffle_spec.interface.amplification import amplification_statements
from shuffle_spec.proofs_checks.bridge import evaluate
from shuffle_spec.spec.catalog import all_statements
from shuffle_spec.interface.cli.main import main
from shuffle_spec.reference.core.errors import HypothesisViolation, ParameterError
from shuffle_spec.spec.terms import HypothesisError

# Every statement evaluated at (eps0, n, delta): the amplification bounds, the exact values and the lower
# bounds (pairs, compositions at 2 rounds).
STATEMENTS = {s.id: s for s in all_statements() if {"eps0", "n", "delta"} <= set(s.input_names) and s.is_evaluable}
assert {s.id for s in amplification_statements(None)} <= set(STATEMENTS)
EPS0_GRID = (1e-300, 1e-40, 1e-12)
N_GRID = (1, 2, 10**12)
DELTA_GRID = (1e-300, 0.5)
# References whose work grows with n (clone-count windows, exact binary RR, Cor 5.3.1's certificate) take
# seconds per point at n = 1e12 (tests/reference/bounds/test_clones_memory.py covers that size): n <= 2 here.
SLOW = {"FMT21.clones_numeric", "FMT23.stronger_clones", "exact.shuffled_binary_rr", "exact.shuffled_binary_rr.pair", "BBGN19.Cor5.3.1"}


def event_lower_bound(eps0: float, n: int, delta: float) -> float:
    """A lower bound on the exact central eps of n shuffled users of binary randomized response (hence on
    every upper bound for a generic, k-RR or binary-RR randomizer), or -inf: user 1 holds 0 in D and 1 in D',
    everyone else 0; the event "no report is 1" has P_D = (1-h)^n and P_D' = h (1-h)^(n-1), h = 1/(e^eps0+1),
    so (eps, delta)-DP needs eps >= log(((1-h) - delta/(1-h)^(n-1)) / h). Rounded down."""
    with mpmath.workdps(400):
        e0 = mpmath.mpf(eps0)
        h = 1 / (mpmath.exp(e0) + 1)
        rest = mpmath.exp((n - 1) * mpmath.log1p(-h))
        numerator = (1 - h) - delta / rest
        if numerator <= h:
            return -math.inf
        return float(mpmath.log(numerator / h) * (1 - mpmath.mpf(10) ** -30))


def _inputs(statement_id: str, eps0: float, n: int, delta: float) -> dict:
    names = set(STATEMENTS[statement_id].input_names)
    values: dict = {"eps0": eps0, "n": n, "delta": delta}
    if "k" in names:
        values["k"] = 3 if statement_id == "exact.krr_pair_third" else 2
    if "delta0" in names:
        values["delta0"] = 1e-9
    if "rounds" in names:
        values["rounds"] = 2
    return values


def _is_lower_bound(statement_id: str) -> bool:
    direction = STATEMENTS[statement_id].direction
    return str(getattr(direction, "value", direction)) == "lower_bound"


def _check_refusal(statement_id: str, error: object, reason: str, point: str) -> None:
    assert "\n" not in reason and len(reason) < 400, point
    names = set(STATEMENTS[statement_id].input_names)
    if isinstance(error, (HypothesisError, HypothesisViolation)):
        return
    assert isinstance(error, ParameterError), f"{point}: refused with {type(error).__name__}: {reason}"
    assert error.name in names and reason.startswith(f"{error.name} = ") and "expected" in reason, point


# The Bennett and Hoeffding searches and the exact k-RR lattice sum cost 0.04-0.1 s of CPU a point here (0.8-1.9 s a
# grid): the default tier runs half of their grid, the points whose indices (eps0, n, delta) sum to an even number
# (every eps0, every n and every delta is among them), and the second tier the other half (`..._at_more_points`).
# Every other statement runs its whole grid in the default tier.
SPLIT_GRIDS = (
    "BBGN19.bennett_generic",
    "BBGN19.bennett_krr",
    "BBGN19.bennett_laplace",
    "BBGN19.hoeffding_krr",
    "BBGN19.hoeffding_laplace",
    "BBGN19.Thm5.3",
    "BBGN19.Lem5.3.exact_krr",
)


def _points(statement_id: str, heavy: bool = False):
    """The statement's grid; for a statement of SPLIT_GRIDS, the default tier's half (heavy False) or the second
    tier's (heavy True). Nothing for the second tier of a statement whose grid is not split."""
    for i, eps0 in enumerate(EPS0_GRID):
        for j, n in enumerate(N_GRID):
            if statement_id in SLOW and n == 10**12:
                continue
            for m, delta in enumerate(DELTA_GRID):
                second_tier = statement_id in SPLIT_GRIDS and (i + j + m) % 2 == 1
                if second_tier == heavy:
                    yield eps0, n, delta


@pytest.mark.parametrize("statement_id", sorted(STATEMENTS))
def test_every_statement_at_tiny_eps0_answers_soundly_or_refuses_cleanly(statement_id):
    _check_answers_or_refusals(statement_id, _points(statement_id))


@pytest.mark.slow
@pytest.mark.parametrize("statement_id", SPLIT_GRIDS)
def test_every_statement_at_tiny_eps0_answers_soundly_or_refuses_cleanly_at_more_points(statement_id):
    points = list(_points(statement_id, heavy=True))
    assert points
    _check_answers_or_refusals(statement_id, points)


def test_the_split_grids_are_statements_of_the_grid():
    """A renamed statement in SPLIT_GRIDS would silently run its whole grid in the default tier and none in the
    second; both halves together are the whole grid."""
    assert set(SPLIT_GRIDS) <= set(STATEMENTS)
    for statement_id in SPLIT_GRIDS:
        halves = [*_points(statement_id), *_points(statement_id, heavy=True)]
        assert len(halves) == len(set(halves)) == len(EPS0_GRID) * len(N_GRID) * len(DELTA_GRID)
        assert {p[0] for p in _points(statement_id)} == set(EPS0_GRID) and {p[2] for p in _points(statement_id)} == set(DELTA_GRID)


# Subnormal eps0 is inside the declared range 0 < eps0 (the smallest positive double 5e-324 included): e^-eps0 rounds
# to 1 and eps0 * 1e-12 to 0 there. The Hoeffding and Bennett bounds refused with "eps = 0.0 is out of range" (their
# search's lower end eps0 * 1e-12 underflowed), FMT21's clone bound with "hypothesis math domain error fails" (the log
# of its guess 0) and FMT23's with "probability = 0.0 is out of range" (its clone probability ~eps0/2 rounded to 0).
# The default tier checks the smallest double at one point (the two costliest statements, which held, in the second
# tier only); the second tier the whole grid.
SUBNORMAL_EPS0 = (5e-324, 1e-310)
COSTLY_AT_SUBNORMAL_EPS0 = ("BBGN19.Lem5.3.exact_krr", "compose.binary_rr")


@pytest.mark.parametrize("statement_id", [pytest.param(s, marks=pytest.mark.slow) if s in COSTLY_AT_SUBNORMAL_EPS0 else s for s in sorted(STATEMENTS)])
def test_every_statement_at_subnormal_eps0_answers_soundly_or_refuses_cleanly(statement_id):
    _check_answers_or_refusals(statement_id, [(5e-324, 2, 0.5)])


@pytest.mark.slow
@pytest.mark.parametrize("statement_id", sorted(STATEMENTS))
def test_every_statement_at_subnormal_eps0_answers_soundly_or_refuses_cleanly_at_more_points(statement_id):
    points = [(eps0, n, delta) for eps0 in SUBNORMAL_EPS0 for n in (1, 2, 1000) for delta in DELTA_GRID]
    _check_answers_or_refusals(statement_id, points)


def _check_answers_or_refusals(statement_id, points):
    lower = _is_lower_bound(statement_id)
    mechanism = STATEMENTS[statement_id].mechanism or "generic"
    binary = mechanism in ("generic", "krr", "binary_rr") and statement_id != "exact.krr_pair_third"
    for eps0, n, delta in points:
        params = _inputs(statement_id, eps0, n, delta)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            result = evaluate(STATEMENTS[statement_id], params)
        point = f"{statement_id} at {params}: {result.value!r} {result.reason!r}"
        if not result.valid:
            _check_refusal(statement_id, result.error, result.reason, point)
            continue
        value = result.value
        assert value is not None and math.isfinite(value) and value >= 0, point
        if lower:
            assert value <= eps0, point
        elif binary:
            assert value >= event_lower_bound(eps0, n, delta), point


PAIRS = ("compose.clones", "compose.stronger_clones", "compose.exact_binary_rr")


@pytest.mark.parametrize("statement_id", PAIRS)
@pytest.mark.parametrize("rounds", [1, 3])
def test_composition_at_tiny_eps0_is_certified_or_refused_cleanly(statement_id, rounds):
    for eps0 in EPS0_GRID:
        for n in N_GRID:
            for delta in DELTA_GRID:
                point = f"{statement_id} rounds={rounds} eps0={eps0} n={n} delta={delta}"
                with warnings.catch_warnings():
                    warnings.simplefilter("error")
                    try:
                        result = api.composed_epsilon(statement_id, rounds=rounds, eps0=eps0, n=n, delta=delta)
                    except ParameterError as refusal:
                        assert refusal.name in ("eps0", "n", "delta", "rounds") and str(refusal).startswith(f"{refusal.name} = "), f"{point}: {refusal}"
                        continue
                low, high = result.interval
                basic = float(rounds * Fraction(eps0))  # T eps0 rounded to nearest (an upper end may round up)
                assert 0 <= low <= high <= math.nextafter(basic, math.inf), f"{point}: {result}"
                if "sum of eps0" in result.reason:  # basic composition returned: never below the exact T eps0
                    assert Fraction(high) >= rounds * Fraction(eps0), f"{point}: {result}"
                if statement_id != "compose.exact_binary_rr":
                    assert result.value == high >= event_lower_bound(eps0, n, delta), f"{point}: {result}"


@pytest.mark.parametrize(
    "argv",
    [
        ["compose", "compose.clones", "--rounds", "1", "--eps0", "1e-40", "--n", "1000", "--delta", "1e-6"],
        ["compose", "compose.stronger_clones", "--rounds", "3", "--eps0", "1e-300", "--n", "10", "--delta", "1e-6"],
        ["bounds", "--eps0", "1e-40", "--n", "2", "--delta", "1e-300", "--randomizer", "binary_rr"],
        ["bounds", "--eps0", "1e-300", "--n", "1e12", "--delta", "0.5", "--randomizer", "krr", "--k", "3"],
        ["bounds", "--eps0", "1e-40", "--n", "2", "--delta", "1e-300", "--randomizer", "laplace"],
        ["tightest", "--eps0", "1e-40", "--n", "2", "--delta", "1e-300", "--randomizer", "binary_rr"],
    ],
)
def test_commands_at_tiny_eps0_print_no_warning_and_no_internal_message(capsys, argv):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0 and err == "", err
    assert "internal" not in out and "Warning" not in out and "nan" not in out.lower().split()


def clone_delta_lower(eps0: float, n: int, eps: float, clone_probability: mpmath.mpf) -> mpmath.mpf:
    """A lower bound on the clone pair's delta(eps) (FMT21 / FMT23; module doc of `reference.bounds.clones`),
    in mpmath at 80 digits (enough: e^eps0 - e^eps is resolved to 50 digits at eps0 >= 1e-29): all n - 1
    others are clones with probability clone_probability^(n-1), and then the divergence B(n-1) = max_t G(t) >=
    G(t) at every cutoff t, G(t) = a1 b(t) - (e^eps - 1) F(t - 1) with b, F the pmf and cdf of Bin(n-1, 1/2),
    a1 = (e^eps0 - e^eps)/(e^eps0 + 1); here the max over the five integers around beta n,
    beta = (e^eps0 - e^eps)/((e^eps + 1)(e^eps0 - 1))."""
    with mpmath.workdps(80):
        e0, e = mpmath.exp(mpmath.mpf(eps0)), mpmath.exp(mpmath.mpf(eps))
        c = n - 1
        a1 = (e0 - e) / (e0 + 1)
        t0 = int(mpmath.floor((e0 - e) / ((e + 1) * (e0 - 1)) * (c + 1)))
        best = mpmath.mpf(0)
        for t in range(max(t0 - 2, 0), t0 + 3):
            b = mpmath.binomial(c, t) / mpmath.mpf(2) ** c
            cdf, term, a = mpmath.mpf(0), b, t
            while a > 0:  # F(t - 1): the terms below t decrease geometrically
                term = term * a / (c - a + 1)
                a -= 1
                cdf += term
                if term < cdf * mpmath.mpf(10) ** -70:
                    break
            best = max(best, a1 * b - (e - 1) * cdf)
        return clone_probability**c * best


@pytest.mark.parametrize("kind", ["FMT21.clones_numeric", "FMT23.stronger_clones"])
@pytest.mark.parametrize("n, eps0", [(10**5, 1e-26), (10**5, 1e-28), (10**3, 1e-29), (10**3, 1e-12)])
def test_clone_bounds_at_tiny_eps0_are_not_below_the_clone_pairs_own_epsilon(kind, n, eps0):
    """At eps0 below ~1e-24 the cutoff floor(beta (c+1)) was bracketed by two candidates far apart (beta's
    100-bit bracket is wide relative to eps0) and the bound took the larger of the two ends only: an upper end
    BELOW the exact epsilon of the pair (at n = 1e5, eps0 = 1e-28, delta = 1e-300 the pair's delta at the
    reported eps was >= 1.8e-229). The reported eps must leave delta(eps) <= delta, so the independent lower
    bound of the pair's delta there must not exceed the target."""
    delta = 1e-300
    result = evaluate(STATEMENTS[kind], _inputs(kind, eps0, n, delta))
    assert result.valid, result.reason
    with mpmath.workdps(80):
        e0 = mpmath.exp(mpmath.mpf(eps0))
        clone_probability = 1 / e0 if kind.startswith("FMT21") else 2 / (e0 + 1)
    assert clone_delta_lower(eps0, n, result.value, clone_probability) <= delta, (kind, n, eps0, result.value)


def _closed_form_statements() -> list[str]:
    from shuffle_spec.spec.registry import get_statement

    return sorted(s for s in STATEMENTS if get_statement(s).value is not None and not _is_lower_bound(s))


# BBGN19.Cor5.3.1's 300-digit closed form costs ~1 s per point: it runs in the second tier (both halves); the default
# tier checks the other closed forms.
SPLIT_TINY_EPS0 = ("BBGN19.Cor5.3.1",)


@pytest.mark.parametrize(
    "statement_id, tiny_eps0s",
    [pytest.param(s, (1e-40,), marks=pytest.mark.slow) if s in SPLIT_TINY_EPS0 else (s, (1e-40, 1e-300)) for s in _closed_form_statements()]
    + [pytest.param(s, (1e-300,), marks=pytest.mark.slow) for s in _closed_form_statements() if s in SPLIT_TINY_EPS0],
    ids=[*_closed_form_statements(), *(f"{s}-1e-300" for s in _closed_form_statements() if s in SPLIT_TINY_EPS0)],
)
def test_closed_forms_at_tiny_eps0_are_at_least_their_exact_value(statement_id, tiny_eps0s):
    """The value shown is an upper bound also in floating point: >= the statement's own closed form (the
    SymPy `value`) evaluated at 300 digits. (FMT21 Thm 2.1 and Prop 2.2 formed 1 - e^{-2 eps0} at 128 bits: 0
    below eps0 ~ 3e-39, and 5e-324 was shown for a bound of 4e-44.)"""
    import sympy as sp

    from shuffle_spec.spec.registry import get_statement

    statement = get_statement(statement_id)
    for eps0 in tiny_eps0s:
        for n, delta in ((10**12, 1e-300), (10**12, 1e-3), (2, 0.5)):
            if statement_id in SLOW and n == 10**12:
                n = 10**6
            params = _inputs(statement_id, eps0, n, delta)
            result = evaluate(STATEMENTS[statement_id], params)
            if not result.valid:
                continue
            subs = {statement.symbol(k): sp.Float(v, 320) if isinstance(v, float) else sp.Integer(v) for k, v in params.items()}
            exact = statement.value.evalf(300, subs=subs)
            assert exact.is_real, (statement_id, params, exact)
            assert result.value >= float(exact) * (1 - 1e-12), (statement_id, params, result.value, sp.N(exact, 12))


@pytest.mark.parametrize("statement_id", ["exact.shuffled_binary_rr", "exact.shuffled_binary_rr.pair"])
def test_a_window_refusal_quotes_the_users_n(statement_id):
    """The binomial window is built for the ones (or zeros) among the others: its size refusal said
    "n = 999999999997" for n = 1e12. It names the parameter given, with its value and the advice."""
    from shuffle_spec.spec.catalog import resolve

    params = {"eps0": 1e-6, "n": 10**12, "delta": 1e-300, **({"k": 2} if statement_id.endswith(".pair") else {})}
    result = evaluate(resolve(statement_id), params)
    assert not result.valid and result.reason.startswith("n = 1000000000000 is out of range: expected"), result.reason
