"""The certified gap's tooling: `tightest` (API and command), the gap lines of `bounds` / `compare`, `calibrate --randomizer`,
and monotonicity of the new lattice-sum bounds on a small grid."""

import itertools
import json

import pytest

from shuffle_spec.interface.api import tightest
from shuffle_spec.proofs_checks.bridge import UsageError
from shuffle_spec.interface.cli.main import main
from shuffle_spec.reference.bounds.blanket_exact_krr import exact_blanket_krr_epsilon
from shuffle_spec.reference.lower_bounds.krr import krr_pair_third_epsilon, krr_pair_x0_epsilon

POINT = {"eps0": 2.0, "n": 200, "delta": 1e-4}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_tightest_pairs_the_smallest_upper_with_the_largest_lower_end():
    gap = tightest(randomizer="krr", k=4, **POINT)
    uppers = [r["eps"] for r in gap.rows if r["direction"] == "upper_bound" and r["eps"] is not None]
    lowers = [r["eps"] for r in gap.rows if r["direction"] == "lower_bound" and r["eps"] is not None]
    assert gap.upper_eps == min(uppers) and gap.lower_eps == max(lowers)
    assert gap.lower_id in ("exact.krr_pair_third", "exact.krr_pair_x0")
    # Soundness across the registry at this point: no registered upper bound below a certified lower bound.
    assert min(uppers) >= max(lowers)
    assert gap.ratio == pytest.approx(gap.upper_eps / gap.lower_eps)
    # The lower end is what is used: it is at most the pair's reported value (the interval's upper end).
    third = krr_pair_third_epsilon(k=4, **POINT)
    assert gap.lower_eps >= third.lower and gap.lower_eps <= max(third.upper, krr_pair_x0_epsilon(k=4, **POINT).upper)


def test_tightest_for_binary_rr_uses_the_exact_value():
    gap = tightest(randomizer="binary_rr", **POINT)
    assert gap.lower_id in ("exact.shuffled_binary_rr", "exact.krr_pair_x0")
    assert gap.upper_eps >= gap.lower_eps


def test_tightest_refuses_bad_randomizer_and_k():
    with pytest.raises(UsageError, match="randomizer"):
        tightest(randomizer="gaussian", **POINT)  # laplace is supported (its Laplace rows)
    with pytest.raises(UsageError, match="k"):
        tightest(randomizer="krr", k=1, **POINT)


def test_tightest_command_json_and_text(capsys):
    code, out, _ = run(capsys, "tightest", "--k", "3", "--eps0", "2", "--n", "200", "--delta", "1e-4", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["upper"]["eps"] >= data["lower"]["eps"] > 0 and data["ratio"] >= 1
    code, out, _ = run(capsys, "tightest", "--k", "3", "--eps0", "2", "--n", "200", "--delta", "1e-4")
    assert code == 0 and "gap: tightest certified upper" in out
    code, _, err = run(capsys, "tightest", "--k", "1", "--eps0", "2", "--n", "200", "--delta", "1e-4")
    assert code == 2 and "k = 1" in err and "k >= 2" in err


def test_bounds_prints_the_gap_for_krr(capsys):
    code, out, _ = run(capsys, "bounds", "--randomizer", "krr", "--k", "3", "--eps0", "2", "--n", "200", "--delta", "1e-4")
    assert code == 0 and "gap: tightest certified upper" in out and "ratio" in out


def test_calibrate_needs_an_id_or_a_randomizer(capsys):
    code, _, err = run(capsys, "calibrate", "--eps", "0.5", "--n", "200", "--delta", "1e-4")
    assert code == 2 and "--randomizer" in err


@pytest.mark.parametrize("function", [exact_blanket_krr_epsilon, krr_pair_third_epsilon, krr_pair_x0_epsilon])
def test_monotone_in_n_eps0_and_delta_on_a_small_grid(function):
    """eps non-increasing in n and delta, non-decreasing in eps0, up to the certified intervals."""
    eps0s, ns, deltas = (0.5, 2.0), (30, 300), (1e-6, 1e-3)
    values = {p: function(eps0=p[0], n=p[1], delta=p[2], k=3) for p in itertools.product(eps0s, ns, deltas)}
    for (e, n, d), v in values.items():
        if e == eps0s[0]:
            assert v.lower <= values[(eps0s[1], n, d)].upper
        if n == ns[0]:
            assert values[(e, ns[1], d)].lower <= v.upper
        if d == deltas[0]:
            assert values[(e, n, deltas[1])].lower <= v.upper
