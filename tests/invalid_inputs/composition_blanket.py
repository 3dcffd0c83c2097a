"""Invalid inputs of the blanket-envelope composition (shuffle_spec.reference.composition.blanket_rounds)."""

from invalid_inputs import Case
from shuffle_spec.reference.composition import blanket_rounds as blanket
from shuffle_spec.reference.composition.blanket_rounds import BlanketRound

MATRIX = [[0.5, 0.5], [0.25, 0.75]]

CASES = [
    Case(blanket.composed_epsilon, ([BlanketRound("gaussian", 1.0, 100, 2)],), {"delta": 1e-6}, fragment="mechanism"),
    Case(blanket.composed_epsilon, ([BlanketRound("laplace", 9.0, 100, 2)],), {"delta": 1e-6}, fragment="eps0"),
    Case(blanket.composed_epsilon, ([BlanketRound("laplace", 1e-4, 100, 2)],), {"delta": 1e-6}, fragment="eps0"),
    Case(blanket.composed_epsilon, ([BlanketRound("laplace", 1.0, 10**7, 2)],), {"delta": 1e-6}, fragment="n"),
    Case(blanket.composed_epsilon, ([BlanketRound("laplace", 1.0, 100, 0)],), {"delta": 1e-6}, fragment="rounds"),
    Case(blanket.composed_epsilon, ([BlanketRound("laplace", 1.0, 100, 2)],), {"delta": 1.0}, fragment="delta"),
    Case(blanket.composed_epsilon, ([BlanketRound("oue", 1.0, 100, 2)],), {"delta": 1e-6}, fragment="d"),
    Case(blanket.composed_epsilon, ([BlanketRound("laplace", 1.0, 100, 2, d=10)],), {"delta": 1e-6}, fragment="d"),
    Case(blanket.composed_epsilon, ([BlanketRound("olh", 20.0, 100, 2, d=10)],), {"delta": 1e-6}, fragment="eps0"),
    Case(blanket.composed_epsilon, ([BlanketRound("piecewise", 1.0, 100, 2, d=10)],), {"delta": 1e-6}, fragment="d"),
    Case(blanket.composed_epsilon, ([BlanketRound("piecewise", 31.0, 100, 2)],), {"delta": 1e-6}, fragment="eps0"),
    Case(blanket.composed_epsilon, ([BlanketRound("piecewise", 1.0, 10**9, 2)],), {"delta": 1e-6}, fragment="n"),
    Case(blanket.composed_epsilon, ([BlanketRound("matrix", None, 100, 2)],), {"delta": 1e-6}, fragment="matrix"),
    Case(blanket.composed_epsilon, ([BlanketRound("matrix", 0.1, 100, 2, matrix=MATRIX)],), {"delta": 1e-6}, fragment="eps0"),
    Case(blanket.composed_epsilon, ([BlanketRound("laplace", 1.0, 100, 2, matrix=MATRIX)],), {"delta": 1e-6}, fragment="matrix"),
    Case(blanket.composed_epsilon, ([BlanketRound("krr", 1.0, 100, 2)],), {"delta": 1e-6}, fragment="k"),
    Case(blanket.composed_epsilon, ([],), {"delta": 1e-6}, fragment="rounds"),
    Case(blanket.composed_delta, ([BlanketRound("laplace", 1.0, 100, 2)],), {"eps": -1.0}, fragment="eps"),
    Case(blanket.round_envelope, (BlanketRound("laplace", 1.0, 100),), {"floor": 0.5}, fragment="floor"),
    Case(blanket.round_dominating_pair, (BlanketRound("laplace", 0.0, 100),), fragment="eps0"),
    Case(blanket.compose_laplace, (), {"eps0": 1.0, "n": 0, "delta": 1e-6, "rounds": 2}, fragment="n"),
    Case(blanket.compose_finite, (), {"matrix": [[1.0, 0.0], [0.0, 1.0]], "n": 100, "delta": 1e-6, "rounds": 2}, fragment="matrix"),
    Case(blanket.compose_randomizer, (), {"randomizer": "krr", "eps0": 1.0, "n": 100, "delta": 1e-6, "rounds": 2}, fragment="randomizer"),
    Case(blanket.envelope_seconds, (BlanketRound("laplace", 1.0, 100),), fragment="mechanism"),
    Case(blanket.envelope_seconds, (BlanketRound("oue", 1.0, 100, d=10),), {"floor": 0.5}, fragment="floor"),
]
