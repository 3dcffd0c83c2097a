"""The mechanism-first front door `certify` (`interface/certify.py`) and `shuffle-spec tightest --rounds`: one typed
answer whose upper end is the smallest certified upper bound among the statements that hold for the randomizer,
whose lower end is a certified lower bound labelled as such, and whose reason says when the two are far apart.

Independent sides: the reference functions themselves (exact binary RR's certified worst case, the composition
statements through `composed_epsilon`), and each candidate statement's own mechanism read from the catalog."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import shuffle_spec
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.parameter_names import ParameterNameError
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.reference.exact.binary_rr import shuffled_binary_rr
from shuffle_spec.spec.catalog import resolve

# Points where every candidate costs well under a second (exact binary RR at n = 1000: ~0.2 s).
ONE = {"eps0": 1.0, "n": 1000, "delta": 1e-6}
ROUNDS = {"eps0": 1.0, "n": 200, "delta": 1e-6, "rounds": 5}


def test_generic_takes_generic_upper_bounds_and_binary_rr_as_a_labelled_lower_bound():
    result = shuffle_spec.certify("generic", **ONE)
    truth = shuffled_binary_rr(**ONE)  # binary RR's certified worst case [lower, upper]
    uppers = [row for row in result.rows if row.side == "upper"]
    assert uppers and all((resolve(row.statement_id).mechanism or "generic") == "generic" for row in uppers)
    assert result.value == min(row.eps for row in uppers if row.valid)
    # Soundness: a bound for every eps0-LDP randomizer is at least binary RR's worst case; binary RR's upper end is
    # NOT an upper bound for the generic class, so it must not be the answer.
    assert result.value >= truth.upper and result.statement_id != "exact.shuffled_binary_rr"
    assert (result.lower_id, result.lower) == ("exact.shuffled_binary_rr", truth.lower)
    assert "binary randomized response" in result.lower_about and result.direction == "interval"
    assert result.interval == (truth.lower, result.value) and result.ratio == pytest.approx(result.value / truth.lower)
    assert result.neighbouring == "replace-one"
    # The two ends are 44% apart here: the reason says the interval is wide, and which statements give the ends.
    width = (result.value - truth.lower) / result.value
    assert width > 0.01 and "wide" in result.reason and result.statement_id in result.reason
    assert [row.side for row in result.rows] == sorted((row.side for row in result.rows), key=lambda side: side != "upper")  # upper bounds first


def test_binary_rr_and_two_rr_agree_and_a_narrow_interval_is_not_called_wide():
    binary = shuffle_spec.certify("binary_rr", **ONE)
    two = shuffle_spec.certify(shuffle_spec.KRR(k=2), **ONE)
    truth = shuffled_binary_rr(**ONE)
    assert binary.value == two.value == truth.upper and binary.lower == truth.lower
    assert binary.lower_about == "" and "wide" not in binary.reason  # relative width ~1e-6
    from shuffle_spec.interface.mechanisms import describe

    assert describe(shuffle_spec.KRR(k=3), {}) == describe("krr", {"k": 3}) == ("krr", {"k": 3})  # the same question


def test_rounds_use_the_composition_statements():
    generic = shuffle_spec.certify("generic", **ROUNDS)
    clones = shuffle_spec.composed_epsilon("compose.clones", **ROUNDS)
    exact = shuffle_spec.composed_epsilon("compose.exact_binary_rr", **ROUNDS)
    assert (generic.statement_id, generic.value) == ("compose.clones", clones.interval[1])
    # compose.exact_binary_rr is a LOWER bound: its lower end, never the headline.
    assert (generic.lower_id, generic.lower) == ("compose.exact_binary_rr", exact.interval[0]) and generic.lower <= generic.value
    krr = shuffle_spec.certify("krr", k=3, **ROUNDS)
    stronger = shuffle_spec.composed_epsilon("compose.stronger_clones", **ROUNDS)
    specific = shuffle_spec.composed_epsilon("compose.krr", k=3, **ROUNDS)  # the mechanism's own composition (n <= 1e5)
    assert krr.value == min(specific.interval[1], stronger.interval[1], clones.interval[1]) and krr.direction == "interval"
    # The lower end of compose.krr's interval (composed explicit dataset pairs) is the k-RR lower bound.
    assert (krr.lower_id, krr.lower) == ("compose.krr", specific.interval[0]) and 0 < krr.lower <= krr.value


def test_a_matrix_is_composed_at_its_ldp_epsilon_rounded_up():
    matrix = np.array([[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]])  # 3-RR at eps0 = log 2
    result = shuffle_spec.certify(matrix, n=20, delta=1e-6, rounds=3)
    eps0 = result.params["eps0"]
    assert math.log(2) <= eps0 <= math.log(2) * (1 + 1e-15)
    # It IS 3-RR (exactly equal entries): composed as k-RR, at most the generic clone pair's value.
    assert result.value == shuffle_spec.certify("krr", k=3, eps0=eps0, n=20, delta=1e-6, rounds=3).value
    assert result.value <= shuffle_spec.composed_epsilon("compose.clones", eps0=eps0, n=20, delta=1e-6, rounds=3).value
    assert shuffle_spec.audit_randomizer(matrix).ldp_epsilon == eps0  # a numpy array is accepted (read as its rows)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: shuffle_spec.certify("krr", **ONE), "k"),
        (lambda: shuffle_spec.certify("laplace", k=3, **ONE), "k"),
        (lambda: shuffle_spec.certify("generic", n=20, delta=1e-6), "eps0"),
        (lambda: shuffle_spec.certify(shuffle_spec.KRR(k=3), k=4, **ONE), "k"),
        (lambda: shuffle_spec.certify([[0.75, 0.25], [0.25, 0.75]], k=2, n=20, delta=1e-6), "k"),
    ],
    ids=["krr without k", "laplace with k", "no eps0", "k twice", "matrix with k"],
)
def test_certify_names_a_wrong_parameter(call, name):
    with pytest.raises(ParameterNameError) as failure:
        call()
    assert failure.value.name == name and "--" not in str(failure.value)


def test_certify_refuses_values_out_of_range():
    with pytest.raises(ParameterError) as bad:
        shuffle_spec.certify("gaussian", **ONE)
    assert bad.value.name == "randomizer"
    with pytest.raises(ParameterError) as rounds:
        shuffle_spec.certify("generic", eps0=1.0, n=1000, delta=1e-6, rounds=0)
    assert rounds.value.name == "rounds"
    for name, value in (("delta", 2.0), ("delta", 0.0), ("n", 0), ("eps0", -1.0), ("eps0", float("nan"))):
        with pytest.raises(ParameterError) as bad_value:  # named before any statement is evaluated
            shuffle_spec.certify("generic", **{**ONE, name: value})
        assert bad_value.value.name == name
    with pytest.raises(ParameterError) as eps0:  # the composition's range: eps0 <= 30; no upper bound: refused
        shuffle_spec.certify("generic", eps0=40.0, n=1000, delta=1e-6, rounds=2)
    assert "eps0" in str(eps0.value)


def test_the_tightest_command_leads_with_the_upper_bound(capsys):
    code = main(["tightest", "--randomizer", "generic", "--eps0", "1", "--n", "200", "--delta", "1e-6", "--rounds", "5"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0 and out[1].startswith("certified upper bound: eps <= ") and "compose.clones" in out[1]
    assert out[2].startswith("lower bound (not a guarantee): eps >= ") and "compose.exact_binary_rr" in out[2]
    code = main(["tightest", "--randomizer", "generic", "--eps0", "1", "--n", "200", "--delta", "1e-6", "--rounds", "5", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["upper"]["id"] == "compose.clones" and data["lower"]["is"] == "a lower bound" and data["direction"] == "interval"
    code = main(["tightest", "--randomizer", "krr", "--k", "3", "--eps0", "1", "--n", "1000", "--delta", "1e-6"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0 and lines[1].startswith("certified upper bound:")
    directions = [line.split()[1] for line in lines if line.startswith(("exact.", "BBGN19.", "FMT", "EFMR"))]
    assert directions == sorted(directions, key=lambda d: d != "upper_bound") and "lower_bound" in directions  # upper bounds first


@pytest.mark.slow
def test_a_matrix_for_one_round_is_its_randomizer_gap():
    matrix = [["3/4", "1/4"], ["1/4", "3/4"]]  # binary RR at eps0 = log 3
    result = shuffle_spec.certify(shuffle_spec.FiniteMatrix(matrix), n=1000, delta=1e-6)
    gap = shuffle_spec.tightest_randomizer(matrix, n=1000, delta=1e-6)
    assert (result.value, result.statement_id, result.lower, result.lower_id) == (gap.upper_eps, gap.upper_id, gap.lower_eps, gap.lower_id)
    assert result.lower <= result.value


def test_the_mechanism_composition_is_skipped_above_its_front_door_size_and_says_so():
    """Above MECHANISM_ROUNDS_N_MAX the profile envelope of compose.krr costs minutes: the front door answers with
    the generic pairs (still certified) and its row says why compose.krr was not tried."""
    from shuffle_spec.interface.certify import MECHANISM_ROUNDS_N_MAX

    result = shuffle_spec.certify("krr", k=3, eps0=1.0, n=MECHANISM_ROUNDS_N_MAX + 1, delta=1e-6, rounds=2)
    row = next(r for r in result.rows if r.statement_id == "compose.krr")
    assert not row.valid and "not tried" in row.reason and result.statement_id in ("compose.stronger_clones", "compose.clones")
