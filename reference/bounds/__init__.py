"""Numeric amplification bounds, one module per concept (Hoeffding, Bennett, clones, closed forms, ...).

Calling convention (the public contract that `shuffle-spec eval`, `bounds`, `compare`, `calibrate`
and the test vectors rely on): a bound on the central epsilon of n shuffled eps0-LDP reports is a
function `f(*, eps0: float, n: int, delta: float, **mechanism_params) -> BoundValue`, keyword-only,
returning a certified interval with direction "upper_bound" whose value (its upper end) is an upper bound on
eps also in floating point (`shuffle_spec.reference.core.results`). Outside
its hypotheses it raises `shuffle_spec.reference.core.errors.HypothesisViolation` (a ValueError); bad parameters raise
`shuffle_spec.reference.core.errors.ParameterError`. Where a numeric bound proves no amplification it returns eps0
(every eps0-LDP protocol is eps0-DP after shuffling) with a `BoundValue.note` saying so.
"""
