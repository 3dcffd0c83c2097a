"""Numeric amplification bounds, one module per concept (Hoeffding, Bennett, clones, closed forms, ...).

Calling convention (the public contract that `shuffle-spec eval`, `bounds`, `compare`, `calibrate`
and the test vectors rely on): a bound on the central epsilon of n shuffled eps0-LDP reports is a
function `f(*, eps0: float, n: int, delta: float, **mechanism_params) -> float | BoundValue`,
keyword-only, returning an upper bound on eps that is an upper bound also in floating point. Outside
its hypotheses it raises `shuffle_spec.reference.core.errors.HypothesisViolation` (a ValueError); bad parameters raise
`shuffle_spec.reference.core.errors.ParameterError`. Where a numeric bound proves no amplification it returns eps0
(every eps0-LDP protocol is eps0-DP after shuffling) with a `BoundValue.note` saying so.
"""
