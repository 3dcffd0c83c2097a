"""Safe by default in every listing: upper bounds first, the generic certified answer as the headline, and every
lower bound or mechanism-specific number labelled where it is shown (text and JSON)."""

import json

from shuffle_spec.interface.amplification import evaluate_bounds
from shuffle_spec.interface.cli.output import GENERIC_LABEL, holds_for
from shuffle_spec.spec.catalog import resolve
from support.cli import call

POINT = ["--eps0", "1", "--n", "1000", "--delta", "1e-6"]
HEADLINE = "certified upper bound, every eps0-LDP randomizer: "


def _ok(argv: list[str]) -> str:
    code, out, err, _ = call(argv)
    assert code == 0, err
    return out


def _tightest_generic(eps0: float, n: int, delta: float) -> tuple[str, float]:
    """The independent answer: the smallest valid generic upper bound, straight from evaluate_bounds."""
    rows = [r for r in evaluate_bounds(eps0, n, delta) if r.valid and r.eps is not None and r.direction == "upper_bound"]
    best = min(rows, key=lambda r: r.eps)
    return best.id, best.eps


def test_the_main_job_leads_with_the_generic_certified_answer_and_labels_the_binary_rr_truth():
    lines = _ok([]).splitlines()
    numbered = [i for i, line in enumerate(lines) if any(ch.isdigit() for ch in line.split(":")[-1]) and ("." in line)]
    headline = next(i for i, line in enumerate(lines) if line.startswith(HEADLINE))
    best_id, best_eps = _tightest_generic(1.0, 10_000, 1e-6)
    assert lines[headline] == f"{HEADLINE}{best_eps:.6g} ({best_id})"
    # No row of a mechanism-specific statement comes before the headline, and the exact binary-RR row says so.
    exact_row = next(i for i, line in enumerate(lines) if line.startswith("exact.shuffled_binary_rr"))
    assert headline < exact_row and "binary RR only" in lines[exact_row] and " exact " in lines[exact_row]
    assert min(numbered) >= headline - 1  # only the statement counts and the scenario line precede it


def test_bounds_lists_upper_bounds_first_then_exact_values_then_lower_bounds():
    argv = ["bounds", "--randomizer", "krr", "--k", "4", *POINT]
    rank = {"upper_bound": 0, "exact": 1, "lower_bound": 2}
    point = json.loads(_ok(argv + ["--json"]))["points"][0]
    listed = [b["direction"] for b in point["bounds"]]
    assert {"upper_bound", "lower_bound"} <= set(listed)
    assert listed == sorted(listed, key=rank.__getitem__)
    assert all(b["holds_for"] == holds_for(resolve(b["id"]).mechanism) for b in point["bounds"])
    assert point["exact"] and all(e["holds_for"] == "k-RR only" for e in point["exact"])
    ids = {b["id"] for b in point["bounds"]} | {e["id"] for e in point["exact"]}
    rows = [line for line in _ok(argv).splitlines()[2:] if line.split() and line.split()[0] in ids]
    directions = [row.split()[1] for row in rows]
    assert directions == sorted(directions, key=rank.__getitem__), directions
    # Before the change, exact.krr_pair_x0 (a lower bound) was the first row; the first row is an upper bound.
    assert rows[0].split()[1] == "upper_bound"
    for row in rows:
        statement = resolve(row.split()[0])
        assert holds_for(statement.mechanism if row.split()[1] != "exact" else "krr") in row


def test_compare_headline_is_the_generic_answer_and_the_binary_rr_yardstick_is_labelled():
    lines = _ok(["compare", *POINT]).splitlines()
    best_id, best_eps = _tightest_generic(1.0, 1000, 1e-6)
    assert lines[1] == f"{HEADLINE}{best_eps:.6g} ({best_id})"
    starred = next(line for line in lines if line.startswith("* "))
    assert starred.split()[1] == best_id
    exact_line = next(line for line in lines if line.startswith("exact ("))
    assert "binary RR only" in exact_line and lines.index(exact_line) > lines.index(starred)


def test_eval_labels_a_lower_bound_and_a_mechanism_specific_bound_and_leaves_a_generic_upper_bound_bare():
    params = ["-p", "eps0=1", "-p", "n=1000", "-p", "delta=1e-6"]
    lower = _ok(["eval", "exact.krr_pair_x0", *params, "-p", "k=4"]).splitlines()
    assert resolve("exact.krr_pair_x0").direction.value == "lower_bound"
    assert lower[-1].startswith("direction: lower_bound (a lower bound on the truth") and "k-RR only" in lower[-1]
    specific = _ok(["eval", "FMT23.stronger_clones", *params, "-p", "k=4"]).splitlines()
    assert specific[-1] == "direction: upper_bound (an upper bound), holds for: k-RR only"
    generic = _ok(["eval", "FMT21.clones_numeric", *params]).splitlines()
    assert len(generic) == 1 and float(generic[0]) > 0 and holds_for(resolve("FMT21.clones_numeric").mechanism) == GENERIC_LABEL
