"""The IETF draft's symmetric-RAPPOR audit (docs/audits/ietf_rappor.md): the page's table is the one rendered
from the committed JSON, the JSON's numbers are recomputed (second tier; the default tier recomputes the first
row's exact sum-release value), and the shuffle-model verdict is confirmed by an independent one-event bound."""

from __future__ import annotations

import importlib.util
import json

import mpmath
import pytest

from support.paths import ROOT
from shuffle_spec.reference.randomizers import unary

_spec = importlib.util.spec_from_file_location("ietf_rappor_script", ROOT / "benchmarks" / "ietf_rappor.py")
assert _spec is not None and _spec.loader is not None
script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(script)
DATA = json.loads((ROOT / "benchmarks" / "IETF_RAPPOR.json").read_text())


def test_the_rows_are_the_drafts_table():
    # draft-wang-ppm-differential-privacy-00, "Utility of Pure Client Randomization for histogram use case".
    assert script.ROWS == ((5.0, 0.317), (6.5, 0.906), (7.0, 1.528)) and script.N == 100_000 and script.DELTA == 1e-9
    assert [(r["EPSILON_0"], r["claimed_epsilon"]) for r in DATA["rows"]] == list(script.ROWS)


def test_page_table_is_rendered_from_the_json():
    page = (ROOT / "docs" / "audits" / "ietf_rappor.md").read_text()
    assert script.BEGIN + "\n" + script.render_table(DATA) + "\n" + script.END in page


def test_brackets_are_ordered_and_verdicts_follow_them():
    for row in DATA["rows"]:
        for what, relation in script.COLUMNS:
            cell = row[what][relation]
            assert 0 < cell["lower"] <= cell["upper"] <= row["replace_one_eps0"]
    assert script.verdict(0.3, 0.4, 1.0) == "false" and script.verdict(1.0, 0.4, 1.0) == "holds" and script.verdict(0.5, 0.4, 1.0) == "undecided"


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


@pytest.mark.slow
@pytest.mark.parametrize("index", [0, 1, 2])
def test_sum_columns_recomputed(index):
    row = DATA["rows"][index]
    fresh = script.sums(row["EPSILON_0"])
    for relation in ("deletion", "replace-one"):
        assert _close(fresh[relation]["lower"], row["sum"][relation]["lower"]) and _close(fresh[relation]["upper"], row["sum"][relation]["upper"])


@pytest.mark.slow
@pytest.mark.parametrize("index", [0, 1, 2])
def test_shuffle_columns_recomputed(index):
    row = DATA["rows"][index]
    fresh = script.shuffled(row["EPSILON_0"])
    for relation in ("deletion", "replace-one"):
        assert _close(fresh[relation]["lower"], row["shuffle"][relation]["lower"]) and _close(fresh[relation]["upper"], row["shuffle"][relation]["upper"])


def test_shuffle_model_claim_refuted_by_one_event():
    # Independent of the lattice sums: client 1's report from the reference R vs from x, the other n-1 clients at
    # z; A = "no report has bit x set and bit z clear". Pr_R[A] - e^eps Pr_x[A] > delta forces eps above
    # log((Pr_R[A] - delta) / Pr_x[A]) (mpmath at 40 digits); that exceeds the claim 0.317, and the certified
    # lower bound in the JSON is at least as large.
    with mpmath.workdps(40):
        q = 1 / (mpmath.exp(5) + 1)
        p = 1 - q
        others = (1 - q * (1 - p)) ** (script.N - 1)
        pr_r, pr_x = (1 - q * (1 - q)) * others, (1 - p * (1 - q)) * others
        event_eps = mpmath.log((pr_r - mpmath.mpf(script.DELTA)) / pr_x)
    assert event_eps > 4 > 0.317
    assert DATA["rows"][0]["shuffle"]["deletion"]["lower"] >= float(event_eps) * 0.98
    assert DATA["rows"][0]["shuffle"]["deletion"]["upper"] == 5.0  # no amplification provable (the note's case)


def test_sum_deletion_is_exact_shuffled_binary_rr():
    # Coordinate x's sum is the number of ones of n binary RR at EPSILON_0: the exact reference's enclosure.
    value = unary.symmetric_rappor_sum_epsilon(eps0=10.0, n=10**5, delta=1e-9)
    assert value.direction == "exact" and value.upper - value.lower < 1e-5 and value.upper < 0.317
    assert value.lower == DATA["rows"][0]["sum"]["deletion"]["lower"] and value.upper == DATA["rows"][0]["sum"]["deletion"]["upper"]
