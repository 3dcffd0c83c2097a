"""`shuffle-spec limits`: the range table as users see it, every row of `shuffle_spec.reference.core.limits`."""

from __future__ import annotations

import json

from shuffle_spec.reference.core import limits
from support.cli import call


def test_limits_lists_every_statement_range_and_every_other_limit():
    code, out, err, _ = call(["limits", "--json"])
    assert code == 0 and err == ""
    table = json.loads(out)
    assert [row["statement"] for row in table["statements"]] == sorted(limits.RANGES)
    for row in table["statements"]:
        known = limits.RANGES[row["statement"]]
        assert (row["eps0_max"], row["n_max"], row["delta_min"], row["why"]) == (known.eps0_max, known.n_max, known.delta_min, known.why)
    assert [(o["where"], o["parameter"], o["allowed"]) for o in table["other_limits"]] == [(r.where, r.parameter, r.allowed) for r in limits.PARAMETER_LIMITS]
    code, text, _, _ = call(["limits"])
    assert code == 0 and f"{limits.CLONES_MP_N_MAX:.0e}" in text and f"2 <= k <= {limits.K_RAPPOR_K_MAX}" in text
