"""Structured randomizers people deploy, first-class and certified after shuffling: one module per mechanism
family, and the one registry the front door reads.

The registry. `RANDOMIZERS` maps a name (the CLI's and the API's word) to a `RandomizerEntry`: its title and
citation, its parameters beyond (eps0, n, delta) with their ranges, the certified upper bound and the certified
lower bound (both called with keywords eps0, n, delta and the parameters; each returns a `BoundValue`, the upper
one in direction "upper_bound" with value = its certified upper end, the lower one in direction "lower_bound"
with value = its certified lower end), the statement ids of the two, and the neighbouring relation (replace-one).
Every function checks its inputs and raises a one-line ParameterError naming the parameter and its range.

How the front door plugs a mechanism in (one line each), e.g. in `interface/api.py` and the `bounds` command:

    from ..reference.randomizers import randomizer_bounds
    upper, lower = randomizer_bounds("oue", eps0=1.0, n=10**4, delta=1e-6, d=1000)

or, for one side, `RANDOMIZERS["oue"].upper(eps0=..., n=..., delta=..., d=...)`; `RANDOMIZERS[name].parameters`
lists the extra keywords with their ranges (to build flags and help text); `names()` the accepted names. The gap
of a point is upper.value / lower.value.

Modules: `unary` (symmetric RAPPOR / SUE, OUE), `local_hashing` (BLH, OLH), `hadamard` (Hadamard response),
`subset_selection` (k-subset selection; the registry uses Ye and Barg's k, the module's functions take any k),
`duchi` (Duchi et al.'s one-dimensional mechanism: exactly shuffled binary RR), `piecewise` (Wang et al.'s
piecewise mechanism for a real value: its blanket in closed form), `structured` (the closed-form
blanket engine), `common` (the parameter ranges); the pattern lower bound is
`shuffle_spec.reference.lower_bounds.structured` (the piecewise mechanism's: `...lower_bounds.piecewise`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..core.errors import ParameterError
from ..core.results import BoundValue
from . import duchi, hadamard, local_hashing, piecewise, subset_selection, unary

__all__ = ["Parameter", "RandomizerEntry", "RANDOMIZERS", "names", "randomizer_entry", "randomizer_bounds"]


@dataclass(frozen=True)
class Parameter:
    """A parameter of a mechanism beyond (eps0, n, delta): its keyword and its range, as a user reads it."""

    name: str
    range: str
    meaning: str


@dataclass(frozen=True)
class RandomizerEntry:
    """One mechanism of the registry (module doc)."""

    name: str
    title: str
    citation: str
    parameters: tuple[Parameter, ...]
    upper: Callable[..., BoundValue]
    lower: Callable[..., BoundValue]
    statements: tuple[str, str]
    relation: str = "replace-one"


EPS0_RANGE = "0 < eps0 <= 40 (the replace-one LDP level)"
DOMAIN = Parameter("d", "integer, 2 <= d <= 1e9", "domain size (number of input values)")

RANDOMIZERS: dict[str, RandomizerEntry] = {
    "rappor": RandomizerEntry(
        "rappor",
        "symmetric RAPPOR / symmetric unary encoding (each bit randomized response at eps0/2)",
        "Erlingsson, Pihur, Korolova, CCS 2014; Wang, Blocki, Li, Jha, USENIX Security 2017, Sec. 4.3 (SUE)",
        (DOMAIN,),
        unary.symmetric_rappor_epsilon_upper,
        unary.symmetric_rappor_epsilon_lower,
        (unary.STATEMENTS["upper"], unary.STATEMENTS["lower"]),
    ),
    "oue": RandomizerEntry(
        "oue",
        "optimized unary encoding (p = 1/2, q = 1/(e^eps0 + 1))",
        "Wang, Blocki, Li, Jha, USENIX Security 2017, Sec. 4.3, Eq. (15)",
        (DOMAIN,),
        unary.oue_epsilon_upper,
        unary.oue_epsilon_lower,
        (unary.STATEMENTS["upper"], unary.STATEMENTS["lower"]),
    ),
    "blh": RandomizerEntry(
        "blh",
        "binary local hashing (g = 2 hash values, 2-wise independent hashing)",
        "Wang, Blocki, Li, Jha, USENIX Security 2017, Sec. 4.4 (BLH)",
        (DOMAIN,),
        local_hashing.blh_epsilon_upper,
        local_hashing.blh_epsilon_lower,
        (local_hashing.STATEMENTS["upper"], local_hashing.STATEMENTS["lower"]),
    ),
    "olh": RandomizerEntry(
        "olh",
        "optimized local hashing (g = round(e^eps0) + 1 hash values, 2-wise independent hashing)",
        "Wang, Blocki, Li, Jha, USENIX Security 2017, Sec. 4.4, Eq. (21) (OLH)",
        (DOMAIN,),
        local_hashing.olh_epsilon_upper,
        local_hashing.olh_epsilon_lower,
        (local_hashing.STATEMENTS["upper"], local_hashing.STATEMENTS["lower"]),
    ),
    "hadamard": RandomizerEntry(
        "hadamard",
        "Hadamard response (K = 2^ceil(log2(d+1)) outputs, Sylvester rows)",
        "Acharya, Sun, Zhang, AISTATS 2019, Sec. 3 and 4.1",
        (DOMAIN,),
        hadamard.hadamard_epsilon_upper,
        hadamard.hadamard_epsilon_lower,
        (hadamard.STATEMENTS["upper"], hadamard.STATEMENTS["lower"]),
    ),
    "subset": RandomizerEntry(
        "subset",
        "k-subset selection (k = ceil(d / (e^eps0 + 1)), Ye and Barg's choice)",
        "Ye, Barg, IEEE Trans. Inf. Theory 64(8), 2018; Wang, Wu, Hu, 2016",
        (DOMAIN,),
        subset_selection.subset_epsilon_upper,
        subset_selection.subset_epsilon_lower,
        (subset_selection.STATEMENTS["upper"], subset_selection.STATEMENTS["lower"]),
    ),
    "duchi": RandomizerEntry(
        "duchi",
        "Duchi et al.'s one-dimensional mechanism on [-1, 1] (report +-B): exactly shuffled binary randomized response",
        "Duchi, Jordan, Wainwright, JASA 2018, Sec. 4.2.3; Wang et al., ICDE 2019, Alg. 1",
        (),
        duchi.duchi_epsilon_upper,
        duchi.duchi_epsilon_lower,
        (duchi.STATEMENTS["upper"], duchi.STATEMENTS["lower"]),
    ),
    "piecewise": RandomizerEntry(
        "piecewise",
        "the piecewise mechanism on [-1, 1] (report in [-C, C], C = (e^(eps0/2) + 1)/(e^(eps0/2) - 1))",
        "Wang, Xiao, Yang, Zhao, Hui, Shin, Shin, Yu, ICDE 2019, Sec. III-B, Alg. 2",
        (),
        piecewise.piecewise_epsilon_upper,
        piecewise.piecewise_epsilon_lower,
        (piecewise.STATEMENTS["upper"], piecewise.STATEMENTS["lower"]),
    ),
}


def names() -> tuple[str, ...]:
    """The registered mechanism names, in the registry's order."""
    return tuple(RANDOMIZERS)


def randomizer_entry(name: str) -> RandomizerEntry:
    """The registry entry of `name`; ParameterError listing the names otherwise."""
    if not isinstance(name, str) or name not in RANDOMIZERS:
        raise ParameterError("randomizer", name, "one of " + ", ".join(RANDOMIZERS))
    return RANDOMIZERS[name]


def randomizer_bounds(name: str, *, eps0: float, n: int, delta: float, **parameters: object) -> tuple[BoundValue, BoundValue]:
    """(certified upper bound, certified lower bound) on the central eps of n shuffled reports of the mechanism
    `name` at LDP level eps0 (replace-one), each a BoundValue (module doc). Range: eps0 in [1e-12, 40], n in [1, 1e8],
    delta in [1e-300, 1), the mechanism's parameters in their ranges (`RANDOMIZERS[name].parameters`)."""
    entry = randomizer_entry(name)
    expected = {p.name for p in entry.parameters}
    if set(parameters) != expected:
        raise ParameterError("parameters", sorted(parameters), f"exactly {sorted(expected)} for {name}")
    upper = entry.upper(eps0=eps0, n=n, delta=delta, **parameters)
    lower = entry.lower(eps0=eps0, n=n, delta=delta, **parameters)
    return upper, lower
