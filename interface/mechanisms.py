"""The randomizers the mechanism-first front door (`certify`, `tightest`, `shuffle-spec tightest`) knows: one
registry entry each, saying which statements certify what for it.

A randomizer is described by its name and its own parameters (k-RR: `k`), as a string with keywords
(`certify("krr", k=10, ...)`) or as a typed description (`KRR(k=10)`, `Generic()`, `BinaryRR()`, `Laplace()`,
`FiniteMatrix(matrix)`); a numpy array or nested lists is read as a finite matrix.

For one round, the candidates are the registered amplification statements whose `mechanism` is the entry's
name, plus the generic ones (which hold for every eps0-LDP randomizer): `interface/tightest.py` ranks them.
For T > 1 rounds, `compose_upper` lists the composition statements that certify T rounds of the randomizer
(upper bounds) and `compose_lower` those that bound the worst case from below (spec/derived/compose.py).

Adding a randomizer (RAPPOR, OUE, local hashing, Hadamard, subset selection, piecewise, ...): register its
single-round statements in spec/ with `mechanism="<name>"` (they are picked up by name), then add ONE entry here:

    register(Mechanism("oue", "optimized unary encoding", parameters=("k",), compose_upper=("compose.clones",)))

`parameters` are the names its statements take beyond eps0, n and delta (each with a range in
PARAMETER_RANGES); `compose_upper` is compose.clones unless a stronger pair is proven for it (FMT23's stronger
clones cover the k-RR class only). An optional typed description is a two-line dataclass below.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence, Union

from ..proofs_checks.bridge import BadParameter, parse_number
from .parameter_names import check_parameter_names

__all__ = [
    "BinaryRR",
    "FiniteMatrix",
    "Generic",
    "KRR",
    "Laplace",
    "MECHANISMS",
    "Mechanism",
    "PARAMETER_RANGES",
    "STRUCTURED",
    "RandomizerDescription",
    "describe",
    "register",
]


@dataclass(frozen=True)
class Mechanism:
    """One randomizer the front door knows (module doc)."""

    name: str  # the `mechanism` of its statements ("generic": every eps0-LDP randomizer)
    title: str
    parameters: tuple[str, ...] = ()  # its own parameters beyond eps0, n, delta (k-RR: ("k",))
    fixed: Mapping[str, int] = field(default_factory=dict)  # parameters its statements take at a fixed value (binary RR: k = 2)
    compose_upper: tuple[str, ...] = ("compose.clones",)  # composition statements certifying T rounds of it
    compose_lower: tuple[str, ...] = ()  # composition statements bounding T rounds of it (or of its worst case) from below


MECHANISMS: dict[str, Mechanism] = {}

# The range of each randomizer parameter: (smallest integer, the range in words).
PARAMETER_RANGES: dict[str, tuple[int, str]] = {"k": (2, "an integer k >= 2 (the domain size)"),
                                                 "d": (2, "an integer d >= 2 (the domain size)")}


def register(mechanism: Mechanism) -> Mechanism:
    """Add a randomizer to the front door (module doc); refuses a second entry of the same name."""
    if mechanism.name in MECHANISMS:
        raise BadParameter("mechanism", mechanism.name, f"a name not registered yet ({', '.join(MECHANISMS)})")
    missing = [name for name in mechanism.parameters if name not in PARAMETER_RANGES]
    if missing:
        raise BadParameter("parameters", missing, f"parameters with a range in PARAMETER_RANGES ({', '.join(PARAMETER_RANGES)})")
    MECHANISMS[mechanism.name] = mechanism
    return mechanism


# compose.exact_binary_rr is the exact epsilon of T rounds of binary RR on fixed neighbouring datasets: a LOWER
# bound on binary RR's worst case, and so on the worst case over every eps0-LDP randomizer (binary RR is one).
register(Mechanism("generic", "any eps0-LDP randomizer", compose_lower=("compose.exact_binary_rr",)))
register(Mechanism("binary_rr", "binary randomized response", fixed={"k": 2}, compose_upper=("compose.binary_rr", "compose.stronger_clones", "compose.clones"),
                   compose_lower=("compose.exact_binary_rr",)))
register(Mechanism("krr", "k-ary randomized response", parameters=("k",), compose_upper=("compose.krr", "compose.stronger_clones", "compose.clones")))
register(Mechanism("laplace", "the Laplace mechanism on [0, 1]", compose_upper=("compose.laplace", "compose.clones")))

# The structured randomizers of reference/randomizers/ (symmetric RAPPOR, OUE, local hashing, Hadamard response,
# subset selection, Duchi et al.'s and the piecewise mechanism): their certified single-round bounds come from that package's own
# registry (`STRUCTURED`, read by `interface/certify.py`), beside the generic statements, which hold for them too;
# T rounds are certified by compose.randomizer (BBGN19 Lemma 5.3's envelope) and
# compose.clones (every eps0-LDP randomizer). Each takes the domain size d but the two mechanisms for a real value
# in [-1, 1] (duchi, piecewise).
STRUCTURED = ("rappor", "oue", "blh", "olh", "hadamard", "subset", "duchi", "piecewise")
_STRUCTURED_TITLES = {"rappor": "symmetric RAPPOR", "oue": "optimized unary encoding", "blh": "binary local hashing",
                      "olh": "optimized local hashing", "hadamard": "Hadamard response", "subset": "k-subset selection",
                      "duchi": "Duchi et al.'s one-dimensional mechanism", "piecewise": "the piecewise mechanism (Wang et al., ICDE 2019)"}
for _name in STRUCTURED:
    register(Mechanism(_name, _STRUCTURED_TITLES[_name], parameters=() if _name in ("duchi", "piecewise") else ("d",),
                       compose_upper=("compose.randomizer", "compose.clones")))


# Typed descriptions: what a type checker sees (`certify(KRR(k=10), ...)`).
@dataclass(frozen=True)
class Generic:
    """Any eps0-LDP randomizer: the bounds that hold for all of them."""

    name = "generic"


@dataclass(frozen=True)
class BinaryRR:
    """Binary randomized response (k-RR with k = 2)."""

    name = "binary_rr"


@dataclass(frozen=True)
class KRR:
    """k-ary randomized response with domain size k >= 2."""

    k: int
    name = "krr"


@dataclass(frozen=True)
class Laplace:
    """The Laplace mechanism on [0, 1] (scale 1 / eps0)."""

    name = "laplace"


@dataclass(frozen=True)
class FiniteMatrix:
    """A finite randomizer: a row-stochastic matrix (rows inputs, columns outputs), as `audit_randomizer` reads
    it (decimals, "p/q" strings, a numpy array, or the JSON object of `shuffle-spec audit randomizer`)."""

    matrix: Any
    name = "matrix"


RandomizerDescription = Union[str, Generic, BinaryRR, KRR, Laplace, FiniteMatrix, Sequence[Sequence[object]], Mapping[str, Any]]


def describe(randomizer: object, params: Mapping[str, object]) -> tuple[str, dict[str, Any]]:
    """(registry name or "matrix", its parameters) of a randomizer description with the call's extra keywords:
    names checked against the entry's parameters (`ParameterNameError`), values against PARAMETER_RANGES."""
    given = dict(params)
    if isinstance(randomizer, FiniteMatrix) or _is_matrix(randomizer):
        check_parameter_names("randomizer 'matrix'", (), tuple(given), values=given, extra_note=" (its eps0 is the matrix's own LDP epsilon)")
        return "matrix", {"matrix": randomizer.matrix if isinstance(randomizer, FiniteMatrix) else randomizer}
    if isinstance(randomizer, (Generic, BinaryRR, KRR, Laplace)):
        if isinstance(randomizer, KRR):
            if "k" in given:
                check_parameter_names("KRR(k=...)", (), ("k",), values=given, extra_note=" (k is given in KRR(k=...))")
            given["k"] = randomizer.k
        randomizer = randomizer.name
    if not isinstance(randomizer, str) or randomizer not in MECHANISMS:
        shown = randomizer if isinstance(randomizer, str) else type(randomizer).__name__
        raise BadParameter("randomizer", shown, f"one of {', '.join(repr(name) for name in MECHANISMS)}, a typed description (KRR(k=...), ...) or a matrix")
    entry = MECHANISMS[randomizer]
    if entry.fixed and all(given.get(name) == value for name, value in entry.fixed.items() if name in given):
        given = {name: value for name, value in given.items() if name not in entry.fixed}  # binary RR with k = 2: accepted
    ranges = "; ".join(PARAMETER_RANGES[name][1] for name in entry.parameters)
    check_parameter_names(f"randomizer {randomizer!r}", entry.parameters, tuple(given), values=given, extra_note=f" ({ranges})" if ranges else "")
    out: dict[str, Any] = {}
    for name, value in given.items():
        smallest, words = PARAMETER_RANGES[name]
        whole = _whole(name, value)
        if whole is None or whole < smallest:
            raise BadParameter(name, value, words)
        out[name] = whole
    return randomizer, {**out, **entry.fixed}


def _whole(name: str, value: object) -> int | None:
    """`value` as an int when it is a whole number, read as every API function reads eps0, n and delta
    (`parse_number`: an int, a numpy integer, a float such as 1e3, a Fraction, or a number written as text, "3" or
    "1e3"), else None."""
    try:
        return parse_number(name, value, integer=True)
    except ValueError:
        return None


def _is_matrix(value: object) -> bool:
    if hasattr(value, "tolist") and hasattr(value, "shape"):  # a numpy array
        return True
    if isinstance(value, Mapping):
        return "matrix" in value
    return isinstance(value, (list, tuple)) and bool(value) and all(isinstance(row, (list, tuple)) or hasattr(row, "tolist") for row in value)
