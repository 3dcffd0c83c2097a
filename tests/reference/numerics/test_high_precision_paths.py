"""The high-precision paths `<function>_mp(*, dps, ...)` of the eight root-finding statements: the
enclosures the test vectors are written from.

For each path, at registered examples and at an edge of the supported range (large eps0, n = 1e18,
delta = 1e-300 where the root is still interior):
- 40 and 80 digits give the same 20-digit strings (what `shuffle_spec.interface.vectors.files` requires) and a narrow
  bracket;
- the float reference's answer lies in the acceptance window the vectors build around the enclosure
  (upper bounds: [low (1 - 1e-12), high (1 + rtol)]; lower bounds, the inverse statements: [low (1 - rtol),
  high (1 + 1e-12)]);
- independently, the statement's own SymPy relation (its conclusion, from `spec/`), evaluated at 60
  digits, changes truth value across the bracket: the enclosure is a root of the spec's equation, not
  only of the reference's code;
- a planted mutation (the path called with a target 1% off) gives an enclosure the float answer misses;
- the path refuses (ValueError) the statement's registered invalid examples, as the float reference does.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from shuffle_spec.interface.vectors.files import DIGITS, canonical_decimal
from shuffle_spec.reference.bounds import bennett, hoeffding, shuffled_rr_cheu
from shuffle_spec.reference.composition import bun_steinke as composition_bun_steinke
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.spec.registry import get_statement
from shuffle_spec.spec.statement import Direction

EDGE = {"n": 10**18, "delta": 1e-300}
# statement id -> (float reference, its `_mp` path, the input playing the target, extra points). The
# edge points were chosen where the float reference's answer is below eps0 (an interior root).
PATHS = {
    "BBGN19.Thm5.3": (hoeffding.hoeffding_generic_epsilon, hoeffding.hoeffding_generic_epsilon_mp, "delta", [{"eps0": 8.0, **EDGE}]),
    "BBGN19.hoeffding_krr": (hoeffding.hoeffding_krr_epsilon, hoeffding.hoeffding_krr_epsilon_mp, "delta", [{"eps0": 15.0, "n": 10**12, "delta": 1e-100, "k": 1000}]),
    "BBGN19.hoeffding_laplace": (hoeffding.hoeffding_laplace_epsilon, hoeffding.hoeffding_laplace_epsilon_mp, "delta", [{"eps0": 20.0, **EDGE}]),
    "BBGN19.bennett_generic": (bennett.bennett_generic_epsilon, bennett.bennett_generic_epsilon_mp, "delta", [{"eps0": 12.0, **EDGE}]),
    "BBGN19.bennett_krr": (bennett.bennett_krr_epsilon, bennett.bennett_krr_epsilon_mp, "delta", [{"eps0": 15.0, "n": 10**12, "delta": 1e-100, "k": 1000}]),
    "BBGN19.bennett_laplace": (bennett.bennett_laplace_epsilon, bennett.bennett_laplace_epsilon_mp, "delta", [{"eps0": 20.0, **EDGE}]),
    "EFMRSTT20.LemII.6.inverse": (shuffled_rr_cheu.shuffled_rr_largest_eps0, shuffled_rr_cheu.shuffled_rr_largest_eps0_mp, "eps", [{"eps": 0.01, **EDGE}]),
    "EFMRSTT20.ThmII.7.inverse": (
        composition_bun_steinke.advanced_composition_largest_eps,
        composition_bun_steinke.advanced_composition_largest_eps_mp,
        "eps_total",
        [{"eps_total": 1e-3, "k": 10**9, "delta_prime": 1e-300}],
    ),
}
# Far below the 20 digits written, far above the bracket's width (10^-30 relative at 40 digits).
NARROW = Fraction(1, 10**25)


def _points(statement_id):
    *_, extra = PATHS[statement_id]
    return [*get_statement(statement_id).examples[:2], *extra]


def _float_answer(statement_id, point):
    float_reference, *_ = PATHS[statement_id]
    answer = float_reference(**point)
    return Fraction(getattr(answer, "value", answer))  # a BoundValue's certified end in its direction, else the float itself


def _window(statement, low, high):
    """The vectors' acceptance window around an enclosure (before its rounding to 20 digits)."""
    slack, rtol = Fraction(1, 10**12), Fraction(statement.rtol)
    if statement.direction is Direction.UPPER_BOUND:
        return low * (1 - slack), high * (1 + rtol)
    return low * (1 - rtol), high * (1 + slack)


def _fraction(x) -> Fraction:
    """The exact value of an mpmath number (its binary mantissa and exponent; not `mpf(x)`, which would
    round it to the current precision)."""
    mantissa, exponent = x.man_exp
    return Fraction(mantissa) * Fraction(2) ** exponent


def _enclosure(path, dps, point):
    low, high = path(dps=dps, **point)
    return _fraction(low), _fraction(high)


CASES = [(statement_id, i) for statement_id in PATHS for i in range(3)]


@pytest.mark.parametrize(("statement_id", "index"), CASES, ids=[f"{s}-{i}" for s, i in CASES])
def test_enclosure_agrees_at_two_precisions_and_contains_the_float_answer(statement_id, index):
    statement = get_statement(statement_id)
    _, path, target, _ = PATHS[statement_id]
    point = _points(statement_id)[index]
    low, high = _enclosure(path, 40, point)
    low80, high80 = _enclosure(path, 80, point)
    assert 0 < low <= high and high - low <= NARROW * high
    assert low80 <= high80 and high80 - low80 <= NARROW * high80
    for rounding, a, b in (("nearest", low, low80), ("down", low, low80), ("up", high, high80), ("nearest", high, high80)):
        assert canonical_decimal(a, DIGITS, rounding) == canonical_decimal(b, DIGITS, rounding)
    answer = _float_answer(statement_id, point)
    window = _window(statement, low, high)
    assert window[0] <= answer <= window[1], (float(answer), float(low), float(high))
    # Planted mutation: the path called with a target 1% off gives an enclosure the float answer misses.
    wrong = {**point, target: point[target] * 1.01}
    wrong_window = _window(statement, *_enclosure(path, 40, wrong))
    assert not wrong_window[0] <= answer <= wrong_window[1]


def _relation_holds(statement, point, value) -> bool:
    """The statement's defining relation (its first conclusion, SymPy, from spec/) at output = value:
    the SymPy expression compiled to mpmath and evaluated at 80 digits (SymPy's own evalf of these
    expressions takes minutes where the two sides agree to 30 digits)."""
    relation = statement.conclusion[0]
    symbols = [*statement.inputs, statement.output]
    difference = sp.lambdify(symbols, relation.lhs - relation.rhs, "mpmath")
    with mpmath.workdps(80):
        arguments = [mpmath.mpf(point[str(symbol)]) for symbol in statement.inputs]
        exact_value = mpmath.mpf(value.numerator) / value.denominator
        return bool(difference(*arguments, exact_value) <= 0)


@pytest.mark.parametrize("statement_id", list(PATHS))
def test_enclosure_brackets_the_root_of_the_spec_relation(statement_id):
    """Independent of the reference's code: the SymPy relation holds at the feasible end of the bracket
    and fails at the other (for eps = smallest feasible eps: holds at high; for the inverse statements'
    largest feasible eps0 / eps: holds at low)."""
    statement = get_statement(statement_id)
    _, path, _, _ = PATHS[statement_id]
    point = statement.examples[0]
    low, high = _enclosure(path, 40, point)
    feasible, infeasible = (high, low) if statement.direction is Direction.UPPER_BOUND else (low, high)
    assert _relation_holds(statement, point, feasible)
    assert not _relation_holds(statement, point, infeasible)


@pytest.mark.parametrize("statement_id", list(PATHS))
def test_the_path_refuses_what_the_float_reference_refuses(statement_id):
    statement = get_statement(statement_id)
    float_reference, path, _, _ = PATHS[statement_id]
    assert statement.invalid_examples
    for example in statement.invalid_examples:
        with pytest.raises(ValueError):
            float_reference(**example)
        with pytest.raises(ValueError):
            path(dps=40, **example)
    with pytest.raises(ParameterError, match="dps"):
        path(dps=10, **statement.examples[0])


def test_no_amplification_gives_eps0_itself():
    """BBGN19's 'eps0 when none': the generic Hoeffding bound certifies nothing below eps0 = 20 at these
    parameters (the float reference returns eps0), and the enclosure is the exact eps0."""
    point = {"eps0": 20.0, **EDGE}
    assert hoeffding.hoeffding_generic_epsilon(**point).upper == 20.0
    assert hoeffding.hoeffding_generic_epsilon_mp(dps=40, **point) == (20, 20)


def test_range_end_is_enclosed_when_the_target_is_never_reached():
    """Lemma II.6 inverted at a target above Eq. (1) over the whole range: the answer is the range's end
    log(2n/(14 log(4/delta)) - 1), enclosed (here checked against its 60-digit value)."""
    point = {"eps": 100.0, "n": 10**6, "delta": 1e-6}
    low, high = shuffled_rr_cheu.shuffled_rr_largest_eps0_mp(dps=40, **point)
    with mpmath.workdps(60):
        end = mpmath.log(2 * mpmath.mpf(10**6) / (14 * mpmath.log(4 / mpmath.mpf(1e-6))) - 1)
        assert low <= end <= high and high - low <= end * mpmath.mpf(10) ** -35
    answer = Fraction(shuffled_rr_cheu.shuffled_rr_largest_eps0(**point).value)
    assert _fraction(low) * (1 - Fraction(1, 10**9)) <= answer <= _fraction(high)
