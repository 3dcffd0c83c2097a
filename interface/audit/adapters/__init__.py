"""The audited implementations of the field: one record per audited function, its adapter, and where
the numbers of its audit come from.

Two kinds of adapter (`docs/audits/README.md`, "Adapters of the registry"):

- a *port* (`kind="port"`): code in another language (C#, Rust) whose formula is re-stated here in
  Python, line by line, citing repository, commit, file and lines. The port is this project's code and
  runs everywhere: the registry audits it live, and its tests check it against numbers the original
  prints (its own tests or documentation, or a run of the original where the toolchain exists).
- a *third-party Python* adapter (`kind="recorded"`): a two-line function calling the published code,
  which is never copied here. It imports that code from the folder named by the environment variable
  `SHUFFLE_SPEC_AUDIT_<KEY>` (or the `path` argument of `third_party_module`), so the user points it
  at their own clone. Its outputs at the audit's points are recorded once (`python3 -m
  shuffle_spec.interface.audit.registry --record KEY`) into `docs/audits/recorded/<key>.json`
  (numbers, not code) and the registry replays them: CI judges the recorded numbers against today's
  certified values without the third-party code.

Every record names the statement the implementation claims (or, where it claims none that is
registered, the registered statement it must not beat: `FMT21.clones_numeric` for a bound offered for
every eps0-LDP randomizer) and the neighbouring relation of its claim.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["IMPLEMENTATIONS", "Implementation", "ThirdPartyMissing", "implementation", "third_party_module"]


class ThirdPartyMissing(RuntimeError):
    """The third-party code an adapter calls is not where the environment variable says."""


@dataclass(frozen=True)
class Implementation:
    """One audited function of one public implementation (or one published parameter set)."""

    key: str  # stable, lower case: the registry's row id and the recorded file's name
    name: str  # what a user calls it
    repository: str  # owner/name on GitHub, or the publication
    version: str  # commit audited (40 hex digits) or the publication's version
    location: str  # file and lines (or table) the audited formula comes from
    language: str
    kind: str  # "port" (audited live) or "recorded" (third-party Python; outputs replayed)
    statement: str  # the registered statement it is audited against
    claim: str  # what it claims, in its own words or the closest paraphrase
    relation: str  # neighbouring relation of its claim: "replace-one", "add-remove" or "unstated"
    page: str  # the verdict page in docs/audits/
    adapter: str  # MODULE:FUNCTION of the adapter (`shuffle-spec audit bound` target)
    grid_shape: tuple[int, int, int] = (4, 4, 3)
    inputs: tuple[str, ...] = ("eps0", "n", "delta")
    flags: tuple[str, ...] = ()  # the kinds of bug found (regression-vector flags)
    max_n: int | None = None  # points with a larger n are not called (the code's cost; counted as not run)
    claim_direction: str = "upper"  # "lower": a claimed lower bound, judged against the certified upper end
    mechanism: str = "generic"  # for a lower-bound claim: the randomizer of `tightest` ("laplace", "krr")

    def function(self) -> Callable[..., Any]:
        module_name, _, function_name = self.adapter.rpartition(":")
        module = importlib.import_module(module_name)
        return getattr(module, function_name)  # type: ignore[no-any-return]


def third_party_module(key: str, module: str, path: str | os.PathLike[str] | None = None, *, extra_paths: tuple[str, ...] = ()) -> ModuleType:
    """Import the third-party module `module` from the folder `path`, else from the folder named by the
    environment variable SHUFFLE_SPEC_AUDIT_<KEY> (upper case). Raises `ThirdPartyMissing` (naming the
    variable) when neither is set or the module is not there. `extra_paths` go on sys.path first (a
    stand-in module, e.g. the CuPy stand-in of `su`)."""
    variable = f"SHUFFLE_SPEC_AUDIT_{key.upper()}"
    folder = path if path is not None else os.environ.get(variable)
    if not folder:
        raise ThirdPartyMissing(f"{module} is third-party code: clone it and set {variable} to its folder")
    for entry in (*extra_paths, str(Path(folder))):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    try:
        return importlib.import_module(module)
    except ImportError as failure:
        raise ThirdPartyMissing(f"cannot import {module} from {folder} ({variable}): {failure}") from None


def implementation(key: str) -> Implementation:
    for record in IMPLEMENTATIONS:
        if record.key == key:
            return record
    raise KeyError(f"no audited implementation {key!r} (known: {', '.join(r.key for r in IMPLEMENTATIONS)})")


_P = "shuffle_spec.interface.audit.adapters"

IMPLEMENTATIONS: tuple[Implementation, ...] = (
    Implementation(
        key="balle_hoeffding",
        name="BBGN19 code: Hoeffding, generic randomizer",
        repository="BorjaBalle/amplification-by-shuffling",
        version="1778a0dd16405cb10d780d5f1878ed0b1fb76f2e",
        location="shuffleddp/amplification_bounds.py, class Hoeffding (get_eps)",
        language="Python",
        kind="recorded",
        statement="BBGN19.Thm5.3",
        claim="Theorem 5.3's Hoeffding bound for every eps0-LDP randomizer",
        relation="replace-one",
        page="balle.md",
        adapter=f"{_P}.python_codes:balle_hoeffding",
    ),
    Implementation(
        key="apple_closed_form",
        name="FMT21 code: closedformanalysis",
        repository="apple/ml-shuffling-amplification",
        version="993d285a546114bf8c70c33d053dca322a755707",
        location="computeamplification.py, closedformanalysis",
        language="Python",
        kind="recorded",
        statement="FMT21.Thm2.1.apple",
        claim="FMT21 Theorem 2.1's closed form for every eps0-LDP randomizer",
        relation="replace-one",
        page="apple.md",
        adapter=f"{_P}.python_codes:apple_closed_form",
        flags=("FloatCancellation",),
    ),
    Implementation(
        key="wang_general",
        name="Wang et al.: amplificationUB, 'general mechanisms' row",
        repository="wangsw/PrivacyAmplification",
        version="34ca048932dc1f211d1d1a3b1e642088c4b8390a",
        location="unifiedamplification.py, amplificationUB; README table row 'general mechanisms'",
        language="Python",
        kind="recorded",
        statement="FMT21.clones_numeric",
        claim="a tight upper bound for every eps0-LDP randomizer (p = q = e^eps0, beta = (e^eps0-1)/(e^eps0+1))",
        relation="replace-one",
        page="wang.md",
        adapter=f"{_P}.python_codes:wang_general",
        max_n=100_000,
        flags=("HypothesisIgnored", "FloatCancellation"),
    ),
    Implementation(
        key="wang_krr",
        name="Wang et al.: amplificationUB, 'general RR on d options' row",
        repository="wangsw/PrivacyAmplification",
        version="34ca048932dc1f211d1d1a3b1e642088c4b8390a",
        location="unifiedamplification.py, amplificationUB; README table row 'general RR on d options'",
        language="Python",
        kind="recorded",
        statement="BBGN19.Lem5.3.exact_krr",
        claim="a tight upper bound for k-ary randomized response (p = q = e^eps0, beta = (e^eps0-1)/(e^eps0+k-1))",
        relation="replace-one",
        page="wang.md",
        adapter=f"{_P}.python_codes:wang_krr",
        inputs=("eps0", "n", "delta", "k"),
        flags=("WrongDirection",),
    ),
    Implementation(
        key="wang_laplace_lower",
        name="Wang et al.: amplificationLB, Laplace row",
        repository="wangsw/PrivacyAmplification",
        version="34ca048932dc1f211d1d1a3b1e642088c4b8390a",
        location="unifiedamplification.py, amplificationLB; README table row 'Laplace mechanism for [0,1]'",
        language="Python",
        kind="recorded",
        statement="tightest:laplace",
        claim_direction="lower",
        mechanism="laplace",
        claim="a lower bound on the shuffled epsilon of the Laplace mechanism on [0, 1] (p = q = e^eps0, beta = 1 - e^(-eps0/2))",
        relation="replace-one",
        page="wang_laplace.md",
        adapter=f"{_P}.python_codes:wang_laplace_lower",
        flags=("WrongDirection",),
    ),
    Implementation(
        key="su_fft_krr",
        name="Su, Cheng, Wang: FFTbound, k-RR",
        repository="Optimal-amplification-bound/Decomposition-Based-Optimal-Bounds-for-Shuffle-DP",
        version="d3b769dca7f9b225abd2f20500361c899baef108",
        location="amplification_bounds.py, FFTbound (fft_compute, get_eps); mechanisms.py, RRMechanism",
        language="Python (CuPy; run on CPU with a stand-in: NumPy for the arrays, scipy.fft for cupy.fft)",
        kind="recorded",
        statement="BBGN19.Lem5.3.exact_krr",
        claim="an upper bound on the shuffled epsilon of k-ary randomized response (float64 FFT, negative entries clipped and renormalised)",
        relation="replace-one",
        page="su.md",
        adapter=f"{_P}.python_codes:su_fft_krr",
        inputs=("eps0", "n", "delta", "k"),
        flags=("MassDropped",),
    ),
    Implementation(
        key="koskela_fa",
        name="Koskela, Heikkila, Honkela: PLD of the clone pair",
        repository="DPBayes/numerical-shuffler-experiments",
        version="75068f330d06f6abb3f2554944880237d6a63784",
        location="clones_comparison_fig1/delta_shuffler_fa.py, get_omega and the delta sum after it",
        language="Python",
        kind="recorded",
        statement="FMT21.clones_numeric",
        claim="delta(eps) of the clone pair by its privacy loss distribution (mass placed at right end points: 'upper bound for delta'), with clone probability 2/(e^eps0 + 1) (FMT23's stronger clones)",
        relation="replace-one",
        page="koskela.md",
        adapter=f"{_P}.python_codes:koskela_fa",
        grid_shape=(3, 3, 2),
        max_n=10_000,
        flags=("MassDropped", "HypothesisIgnored"),
    ),
    Implementation(
        key="girgis_rdp",
        name="Girgis et al.'s RDP bound (as coded by Koskela et al.)",
        repository="DPBayes/numerical-shuffler-experiments",
        version="75068f330d06f6abb3f2554944880237d6a63784",
        location="clones_girgis_comparison_fig3/girgis_upper.py, eval_RDP_upper and eps_given_delta",
        language="Python",
        kind="recorded",
        statement="FMT21.clones_numeric",
        claim="Girgis et al. (CCS 2021) RDP upper bound of the (subsampled) shuffle model, converted to (eps, delta)",
        relation="replace-one",
        page="girgis.md",
        adapter=f"{_P}.python_codes:girgis_rdp",
        flags=("NegativeEpsilon",),
    ),
    Implementation(
        key="aidotnet",
        name="AiDotNet ShuffleModelDP.ComputeEffectiveEpsilon",
        repository="ooples/AiDotNet",
        version="1f3bc962caf22f4e707c67867a4786817a0976a9",
        location="src/FederatedLearning/Privacy/ShuffleModelDP.cs, lines 282-312",
        language="C#",
        kind="port",
        statement="FMT21.clones_numeric",
        claim="'the tight bound from Balle, Bell, Gascon (2019)' for every eps0-LDP randomizer",
        relation="unstated",
        page="aidotnet.md",
        adapter=f"{_P}.aidotnet:compute_effective_epsilon",
        flags=("TermsDropped", "HypothesisIgnored"),
    ),
    Implementation(
        key="smartnoise_theoretical",
        name="SmartNoise core: shuffle_amplification, Bound::Theoretical",
        repository="opendp/smartnoise-core",
        version="5cea85df1fe369cc08574df85eeebbe6c02469e5",
        location="runtime-rust/src/utilities/shuffling.rs, shuffle_amplification and compose_epsilon_theoretical",
        language="Rust",
        kind="port",
        statement="FMT21.Thm2.1.focs",
        claim="FMT21 full version Theorem 3.1 ('theorem 3.1'), 'computes in add/remove symmetric distance'",
        relation="add-remove (claimed)",
        page="smartnoise.md",
        adapter=f"{_P}.smartnoise:theoretical",
        flags=("FloatCancellation",),
    ),
    Implementation(
        key="smartnoise_empirical",
        name="SmartNoise core: shuffle_amplification, Bound::Empirical",
        repository="opendp/smartnoise-core",
        version="5cea85df1fe369cc08574df85eeebbe6c02469e5",
        location="runtime-rust/src/utilities/shuffling.rs, compose_epsilon_empirical, m1, integrate_hockey_stick",
        language="Rust",
        kind="port",
        statement="FMT21.clones_numeric",
        claim="FMT21 Appendix E's numerical clone bound (Algorithms 4 and 5, skip S = 5)",
        relation="add-remove (claimed)",
        page="smartnoise.md",
        adapter=f"{_P}.smartnoise:empirical",
        grid_shape=(3, 3, 2),
        max_n=20_000,
        flags=("WrongDirection",),
    ),
    Implementation(
        key="optirs",
        name="OptiRS: compute_shuffling_amplification",
        repository="cool-japan/optirs",
        version="f1d9fe4e58a52923dc7ff1599aea51f7c1c05865",
        location="optirs-core/src/privacy/differential_privacy/amplification_analyzer.rs, compute_shuffling_amplification",
        language="Rust",
        kind="port",
        statement="FMT21.clones_numeric",
        claim="a shuffling 'amplification factor' 1 + 0.1 sqrt(n) (read as eps = eps0 / factor)",
        relation="unstated",
        page="optirs.md",
        adapter=f"{_P}.optirs:central_epsilon",
        flags=("TermsDropped", "HypothesisIgnored"),
    ),
    Implementation(
        key="rust_shuffle_dp",
        name="Rust crate: ShuffleDp::amplify",
        repository="unnamed Rust privacy-accounting crate (public-code index file 60250489613)",
        version="not found",
        location="module shuffle_dp, fmt_coefficient (lines 58-72) and amplify (lines 83-99)",
        language="Rust",
        kind="port",
        statement="FMT21.clones_numeric",
        claim="FMT21 Theorem 1 as log(1 + (e^eps0 - 1) 8 sqrt(e^eps0 ln(4/delta)/n)), clamped to [0, eps0], for every eps0-LDP mechanism",
        relation="unstated",
        page="rust_shuffle_dp.md",
        adapter=f"{_P}.rust_shuffle_dp:amplify",
        flags=("TermsDropped", "HypothesisIgnored"),
    ),
    Implementation(
        key="r_shfflm",
        name="R function Shfflm: estimate",
        repository="unnamed R package (public-code index file 58812797752)",
        version="not found",
        location="function Shfflm, lines 43-67 (general bound: lines 51-53)",
        language="R",
        kind="port",
        statement="EFMRTT19.Thm7.v2",
        claim="EFMRTT19 Theorem 7's general bound e1 sqrt(2 n log(1/delta)) + n e1 (e^e1 - 1), e1 = 2 e^(2 eps0) (e^eps0 - 1)/n, for any n > 1",
        relation="unstated",
        page="r_shfflm.md",
        adapter=f"{_P}.r_shfflm:estimate",
        flags=("FloatCancellation",),
    ),
)
