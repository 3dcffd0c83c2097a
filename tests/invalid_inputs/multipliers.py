"""Invalid inputs of the shared multiplier check (`shuffle_spec.reference.core.errors.require_multiplier`, which the
e_eps checks of divergences, removal_ldp, blanket, subsampling and report_fragmenting now call)."""

from fractions import Fraction

from shuffle_spec.reference.finite import divergences, removal_ldp, subsampling
from shuffle_spec.reference.core import errors

from invalid_inputs import Case

CASES = [
    Case(errors.require_multiplier, ("e_eps", 0.5), fragment="e_eps = 0.5"),
    Case(errors.require_multiplier, ("e_eps", Fraction(1, 2)), fragment="e_eps"),
    Case(errors.require_multiplier, ("e_eps", True), fragment="e_eps"),
    Case(errors.require_multiplier, ("e_eps", "2"), fragment="e_eps"),
    Case(errors.require_multiplier, ("e_eps", float("nan")), fragment="e_eps"),
    Case(errors.require_multiplier, ("e_eps", float("inf")), {"finite": True}, fragment="finite multiplier"),
    Case(subsampling.subsampled_e_eps, (0.9, 0.5), fragment="e_eps"),
    Case(divergences.hockey_stick_divergence, (None, None, 0.5), fragment="e_eps"),
    Case(removal_ldp.is_removal_ldp, (None, None, float("inf")), fragment="finite multiplier"),
]
