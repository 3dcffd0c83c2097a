"""Invalid inputs of the Laplace exact blanket bound and the Laplace pair lower bound."""

from invalid_inputs import Case
from shuffle_spec.reference.lower_bounds import laplace as pair
from shuffle_spec.reference.bounds import blanket_exact_laplace as blanket

CASES = [
    Case(blanket.check_laplace_inputs, (0.0, 10, 1e-6), fragment="eps0"),
    Case(blanket.check_laplace_inputs, (1.0, 10**7, 1e-6), fragment="n"),
    Case(blanket.check_laplace_inputs, (1.0, 10, 1e-301), fragment="delta"),
    Case(blanket.laplace_l_law, (), {"eps0": 21.0, "eps": 0.1}, fragment="eps0"),
    Case(blanket.laplace_l_law, (), {"eps0": 1.0, "eps": -0.1}, fragment="eps"),
    Case(blanket.exact_blanket_laplace_delta, (), {"eps0": 1.0, "n": 0, "eps": 0.1}, fragment="n"),
    Case(blanket.exact_blanket_laplace_delta, (), {"eps0": 1.0, "n": 10, "eps": float("nan")}, fragment="eps"),
    Case(blanket.exact_blanket_laplace_epsilon, (), {"eps0": 25.0, "n": 10, "delta": 1e-6}, fragment="eps0"),
    Case(blanket.exact_blanket_laplace_epsilon, (), {"eps0": 1.0, "n": 2.5, "delta": 1e-6}, fragment="n"),
    Case(blanket.exact_blanket_laplace_epsilon, (), {"eps0": 1.0, "n": 10, "delta": 1.0}, fragment="delta"),
    Case(blanket.exact_blanket_laplace_epsilon, (), {"eps0": 1.0, "n": 10, "delta": 1e-6, "tight": "lower"}, fragment="tight"),
    Case(blanket.exact_blanket_laplace_epsilon, (), {"eps0": 1e-8, "n": 10, "delta": 1e-6, "tight": "both"}, fragment="eps0"),
    Case(blanket.exact_blanket_laplace_epsilon_mp, (), {"dps": 40, "eps0": 1.0, "n": 10, "delta": 0.0}, fragment="delta"),
    Case(pair.laplace_pair_delta, (), {"eps0": -1.0, "n": 10, "eps": 0.1}, fragment="eps0"),
    Case(pair.laplace_pair_delta, (), {"eps0": 1.0, "n": 10, "eps": -1.0}, fragment="eps"),
    Case(pair.laplace_pair_x0_epsilon, (), {"eps0": 1.0, "n": 10**7, "delta": 1e-6}, fragment="n"),
    Case(pair.laplace_pair_x0_interval, (), {"eps0": 1.0, "n": 10, "delta": 2.0}, fragment="delta"),
    Case(pair.laplace_pair_x0_epsilon_mp, (), {"dps": 40, "eps0": 30.0, "n": 1, "delta": 0.1}, fragment="eps0"),
    Case(pair.binned_binary_rr_eps0, (), {"eps0": 0.0}, fragment="eps0"),
    Case(blanket.single_report_epsilon, (1.0, 0.0), fragment="delta"),
    Case(blanket.single_report_epsilon, (9.0, 0.1), fragment="eps0"),
]
