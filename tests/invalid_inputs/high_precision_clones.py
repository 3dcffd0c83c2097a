"""Invalid inputs of the high-precision clone / composition paths (shuffle_spec.reference.bounds.clones_high_precision and the
`_mp` wrappers of reference.bounds.clones, reference.bounds.stronger_clones, shuffle_spec.reference.composition.shuffled_rounds)."""

from invalid_inputs import Case
from shuffle_spec.reference.bounds import clones_high_precision as hp
from shuffle_spec.reference.composition import shuffled_rounds as pld
from shuffle_spec.reference.bounds import clones, stronger_clones

CASES = [
    Case(hp.clone_epsilon_mp, (), {"dps": 40, "eps0": 0.0, "n": 100, "delta": 1e-6, "kind": "fmt21", "seed": 0.1}, fragment="eps0"),
    Case(hp.clone_epsilon_mp, (), {"dps": 40, "eps0": 1.0, "n": 100, "delta": 1.0, "kind": "fmt21", "seed": 0.1}, fragment="delta"),
    Case(hp.clone_epsilon_mp, (), {"dps": 40, "eps0": 1.0, "n": 100, "delta": 1e-6, "kind": "fmt22", "seed": 0.1}, fragment="kind"),
    Case(hp.clone_epsilon_mp, (), {"dps": 3, "eps0": 1.0, "n": 100, "delta": 1e-6, "kind": "fmt21", "seed": 0.1}, fragment="dps"),
    Case(hp.clone_epsilon_mp, (), {"dps": 40, "eps0": 1.0, "n": 10**7, "delta": 1e-6, "kind": "fmt21", "seed": 0.1}, fragment="n = "),
    Case(hp.clone_delta_bounds_mp, (), {"dps": 40, "eps0": 1.0, "n": 0, "eps": 0.1}, fragment="n"),
    Case(hp.clone_delta_bounds_mp, (), {"dps": 40, "eps0": 1.0, "n": 10, "eps": -0.1}, fragment="eps"),
    Case(hp.composed_epsilon_mp, ("clones",), {"dps": 40, "eps0": 1.0, "n": 10, "delta": 1e-6, "rounds": 0, "seed": (0.1, 0.2)}, fragment="rounds"),
    Case(hp.composed_epsilon_mp, ("nope",), {"dps": 40, "eps0": 1.0, "n": 10, "delta": 1e-6, "rounds": 2, "seed": (0.1, 0.2)}, fragment="pair"),
    Case(hp.composed_epsilon_mp, ("clones",), {"dps": 40, "eps0": 1.0, "n": 200, "delta": 1e-6, "rounds": 2, "seed": (0.1, 0.2)}, fragment="n = 200"),
    Case(hp.composed_delta_bounds_mp, ("exact_binary_rr",), {"dps": 40, "eps0": 1.0, "n": 10, "eps": 0.5, "rounds": 2, "direction": 2}, fragment="direction"),
    Case(hp.composed_delta_bounds_mp, ("clones",), {"dps": 40, "eps0": 1.0, "n": 10, "eps": -0.5, "rounds": 2}, fragment="eps"),
    Case(hp.round_pld_mp, ("exact_binary_rr",), {"eps0": 1.0, "n": 10, "k": 10}, fragment="k"),
    Case(hp.round_pld_mp, ("clones",), {"eps0": -1.0, "n": 10}, fragment="eps0"),
    Case(hp.round_pld_mp, ("wrong",), {"eps0": 1.0, "n": 10}, fragment="pair"),
    Case(hp.binary_rr_counts_mp, (0,), fragment="n"),
    Case(clones.clones_numeric_mp, (), {"dps": 40, "eps0": 1.0, "n": 100, "delta": 0.0}, fragment="delta"),
    Case(stronger_clones.stronger_clones_mp, (), {"dps": 40, "eps0": 1.0, "n": 100, "delta": 1e-6, "k": 1}, fragment="k"),
    Case(pld.compose_clones_mp, (), {"dps": 40, "eps0": 1.0, "n": 10, "delta": 1e-6, "rounds": 0}, fragment="rounds"),
    Case(pld.compose_stronger_clones_mp, (), {"dps": 40, "eps0": 31.0, "n": 10, "delta": 1e-6, "rounds": 2}, fragment="eps0"),
    Case(pld.compose_exact_binary_rr_mp, (), {"dps": 40, "eps0": 1.0, "n": 0, "delta": 1e-6, "rounds": 2}, fragment="n"),
]
