"""The front door's edges: `calibrate --randomizer generic` (as `tightest --randomizer generic`), and a structured
randomizer outside its own bound's range (d above it) answered by a generic bound with the reason saying so."""

from __future__ import annotations

import json

import pytest

from shuffle_spec import certify
from shuffle_spec.interface.api import shuffled_epsilon
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.tightest import candidate_upper_bounds
from shuffle_spec.reference.randomizers.common import MAX_D

ARGS = ["--eps", "0.3", "--n", "1000", "--delta", "1e-6", "--time-budget", "60", "--json"]


def _calibrate(capsys, randomizer, *extra):
    code = main(["calibrate", "--randomizer", randomizer, *extra, *ARGS])
    out, err = capsys.readouterr()
    return code, out, err


def test_calibrate_generic_inverts_the_generic_bounds_and_its_answer_is_certified(capsys):
    code, out, err = _calibrate(capsys, "generic")
    assert code == 0, err
    answer = json.loads(out)
    generic = {s.id for s in candidate_upper_bounds("generic")}
    assert answer["id"] in generic and {c["id"] for c in answer["candidates"]} <= generic
    assert answer["value"] == max(c["value"] for c in answer["candidates"])  # the largest certified eps0
    # Re-evaluated at the answer, the chosen bound certifies the target eps.
    assert shuffled_epsilon(answer["id"], eps0=answer["value"], n=1000, delta=1e-6) <= 0.3


@pytest.mark.slow
def test_calibrate_generic_is_never_above_krr(capsys):
    # k-RR is one eps0-LDP randomizer: every generic bound applies to it, so its best eps0 is at least the generic one.
    _, generic, _ = _calibrate(capsys, "generic")
    code, krr, err = _calibrate(capsys, "krr", "--k", "4")
    assert code == 0, err
    assert json.loads(krr)["value"] >= json.loads(generic)["value"]


@pytest.mark.parametrize("randomizer", ["generic", "laplace"])
def test_calibrate_refuses_k_where_there_is_no_domain(capsys, randomizer):
    code, out, err = _calibrate(capsys, randomizer, "--k", "3")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "--k" in err and randomizer in err


@pytest.mark.parametrize("name", ["oue", pytest.param("olh", marks=pytest.mark.slow)])
def test_structured_randomizer_above_its_domain_range_falls_back_and_says_so(name):
    inside = certify(name, d=1000, eps0=1.0, n=300, delta=1e-6)
    outside = certify(name, d=2 * MAX_D, eps0=1.0, n=300, delta=1e-6)
    own = inside.statement_id
    assert own.startswith("BBGN19.Lem5.3.exact_")
    # Outside: the mechanism's own bound refuses, a generic one answers (sound for every eps0-LDP randomizer) ...
    assert outside.statement_id != own and outside.statement_id in {s.id for s in candidate_upper_bounds("generic")}
    assert outside.value >= inside.value  # the generic bound is the looser one here
    # ... and the reason says which bound did not apply, why (the range of d), and that a generic one answered.
    assert own in outside.reason and "does not apply" in outside.reason and "generic" in outside.reason and "d =" in outside.reason
    assert "does not apply" not in inside.reason
