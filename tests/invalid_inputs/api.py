"""Invalid inputs of the public API's functions (`interface/api.py`) that rank or certify at one point: each refuses a
bad eps0, n, delta or switch as the command line does (one line naming the parameter and its value), never a gap
with no side valid or a switch read by its truthiness."""

from shuffle_spec.interface import api, certify as certify_module
from shuffle_spec.interface.cli.commands import eval as eval_command

from invalid_inputs import Case

GOOD = {"randomizer": "krr", "eps0": 1.0, "n": 100, "delta": 1e-6, "k": 3}

# (parameter, bad value, the fragment of the message): the rows `shuffle-spec tightest` refuses with exit 2.
_TIGHTEST_ROWS = [
    ("n", -5, "n = -5"),
    ("n", 0, "n = 0"),
    ("n", -5.0, "n = -5"),
    ("eps0", -1.0, "eps0 = -1.0"),
    ("eps0", 0.0, "eps0 = 0.0"),
    ("delta", 0.0, "delta = 0.0"),
    ("delta", -1e-6, "delta = -1e-06"),
    ("delta", 1.0, "delta = 1.0"),
    ("delta", 1.5, "delta = 1.5"),
    ("delta", 1e-301, "delta = 1e-301"),
    ("include_upper", "no", "include_upper = 'no'"),
    ("include_upper", 0, "include_upper = 0"),
]

CASES = [Case(api.tightest, (), {**GOOD, name: value}, fragment=fragment) for name, value, fragment in _TIGHTEST_ROWS]

# composed_epsilon's time budget: seconds in (0, 1e6] or None, as the inversions' (`calibrate_epsilon0`).
CASES += [
    Case(api.composed_epsilon, ("compose.clones",), {"rounds": 2, "eps0": 1.0, "n": 500, "delta": 1e-6, "time_budget": bad}, fragment="time_budget")
    for bad in (0, -1.0, float("nan"), 2e6, "soon", True)
]
# tightest computes krr, binary_rr, laplace and generic: a structured randomizer (which needs its domain size d, or
# its own statements) asked of it returned the generic bounds alone without a word (piecewise, eps0 = 1, n = 3,
# delta = 0.1: 0.770 from FMT21.clones_numeric and no lower bound, where certify gives [0.509, 0.563]). Refused,
# pointing to certify.
CASES += [Case(api.tightest, (), {"randomizer": name, "eps0": 1.0, "n": 3, "delta": 0.1}, fragment="certify")
          for name in ("piecewise", "duchi", "rappor", "oue", "blh", "olh", "hadamard", "subset")]
# tightest's time budget: the same rule.
CASES += [Case(api.tightest, (), {**GOOD, "time_budget": bad}, fragment="time_budget") for bad in (0, -1.0, float("nan"), 2e6, "soon", True)]

# k is read as eps0, n and delta are, by every API function taking it (`parse_number`: a number written as text, "3" or
# "1e1", is that number): what is not an integer k >= 2 is refused in one line naming k, by each of them alike.
_K_POINT = {"eps0": 1.0, "n": 100, "delta": 1e-6}
_K_TAKERS = [
    (api.tightest, (), {"randomizer": "krr", **_K_POINT}),
    (certify_module.certify, ("krr",), _K_POINT),
    (api.shuffled_epsilon, ("BBGN19.bennett_krr",), _K_POINT),
    (api.composed_epsilon, ("compose.krr",), {"rounds": 2, **_K_POINT}),
    (api.composed_delta, ("compose.krr",), {"rounds": 2, "eps0": 1.0, "n": 100, "eps": 0.5}),
]
CASES += [Case(function, args, {**kwargs, "k": bad}, fragment="k = ")
          for function, args, kwargs in _K_TAKERS for bad in ("3.5", "three", True, 1.5, "0x10")]
# k = 1, a number outside the range: a range error naming k, or the statement's own hypothesis k >= 2.
CASES += [Case(function, args, {**kwargs, "k": "1"}, fragment="k >= 2" if function is api.shuffled_epsilon else "k = ")
          for function, args, kwargs in _K_TAKERS]

# `eval --batch`'s time budget (`run_batch(time_budget=...)`): seconds in (0, 1e6] or None, as compose's and calibrate's.
CASES += [Case(eval_command.run_batch, ([],), {"time_budget": bad}, fragment="time_budget") for bad in (0, -1.0, float("nan"), 2e6, "soon", True)]
