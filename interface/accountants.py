"""Exports of shuffled rounds to the privacy accountants people run (optional extra `accountants`:
`pip install shuffle-spec[accountants]`, which brings dp-accounting >= 0.4).

- `shuffled_round_pld`: a pessimistic dp_accounting `PrivacyLossDistribution` of one shuffled round of binary RR
  or k-RR (or of T rounds, composed by dp_accounting's own `self_compose`), so that the shuffled rounds compose
  with Gaussian, subsampled or other steps inside dp_accounting. Its loss distribution is the P'-side of the
  certified dominating pair of `reference.composition.mechanism_rounds.dominating_pair` (connect the dots from
  a certified upper envelope of the round's worst-case privacy profile): H_alpha(M(D) || M(D')) <= H_alpha(P' || Q')
  for every alpha > 0 and every ordered pair of neighbouring datasets, so every delta(eps) dp_accounting derives
  from it is an upper bound for the round (up to dp_accounting's own numerics: its FFT composition and tail
  truncation are not certified; the certified composed value is compose.binary_rr / compose.krr).
  Re-discretised to another `value_discretization_interval` (to compose with PLDs built at dp_accounting's
  default 1e-4), every loss is rounded UP to the new grid (pessimistic: delta(eps) = E[(1 - e^{eps - L})_+] is
  non-decreasing in L).
- `shuffled_round_rdp`: upper bounds of the Renyi divergence of one shuffled round at the requested orders
  (> 1), usable by any RDP accountant (add them over rounds; convert with the accountant's own conversion,
  e.g. dp_accounting.rdp.rdp_privacy_accountant.compute_epsilon). By Blackwell's theorem (a pair whose
  hockey-stick curve is below another's at every alpha is a post-processing of it), every neighbouring pair of
  the round is a post-processing of the dominating pair (P', Q'), so its Renyi divergence (an f-divergence) is
  at most D_order(P' || Q') (data processing), computed from the masses' upper ends at exact grid losses; and
  at most eps0 (each round is eps0-DP).

Neighbouring relation: every export is for REPLACE ONE user's input (n fixed), as every statement of the
project. An accountant that expects another relation (dp_accounting's `NeighboringRelation.ADD_OR_REMOVE_ONE`,
the default of its accountants) is refused with a ParameterError naming it: a replace-one guarantee is not an
add/remove one. Pass `neighboring_relation=NeighboringRelation.REPLACE_ONE` (or "replace_one").

dp_accounting is imported lazily (inside the functions): the core package does not depend on it.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from ..reference.composition.mechanism_rounds import dominating_pair
from ..reference.core.errors import ParameterError, require_integer, require_positive

__all__ = ["NEIGHBOURING_RELATION", "shuffled_round_pld", "shuffled_round_rdp"]

NEIGHBOURING_RELATION = "replace_one"
EXTRA = "the optional extra 'accountants' (pip install 'shuffle-spec[accountants]', which installs dp-accounting>=0.4)"


def _dp_accounting() -> Any:
    try:
        import dp_accounting  # type: ignore[import-untyped, import-not-found, unused-ignore]  # no stubs; an optional extra
    except ImportError as error:  # one clear line naming the extra
        raise ImportError(f"dp_accounting is not installed: exports to accountants need {EXTRA}") from error
    return dp_accounting


def _check_relation(neighboring_relation: object) -> None:
    """Accept only the replace-one relation (dp_accounting's enum member or its name, any case)."""
    name = getattr(neighboring_relation, "name", neighboring_relation)
    if not isinstance(name, str) or name.lower() not in ("replace_one", "replace-one"):
        raise ParameterError(
            "neighboring_relation", neighboring_relation,
            "REPLACE_ONE (replace one user's input, n fixed): the shuffled-round guarantees are for that relation, "
            "not for adding or removing a user",
        )


def shuffled_round_pld(mechanism: str, *, eps0: float, n: int, k: int = 2, rounds: int = 1,
                       neighboring_relation: object = NEIGHBOURING_RELATION,
                       value_discretization_interval: float | None = None) -> Any:
    """A pessimistic dp_accounting PrivacyLossDistribution of one shuffled round of `mechanism` ("binary_rr"
    or "krr" with k categories) with local eps0 and n users, composed `rounds` times by dp_accounting (module
    doc). value_discretization_interval: the grid of the returned PLD (None: the pair's own power-of-2 step;
    losses are rounded up to a coarser grid). Replace-one relation only. Ranges: as compose.binary_rr /
    compose.krr (1e-3 <= eps0 <= 30, n <= 1e7 for binary RR and 1e8 for k-RR, 2 <= k <= 1e6), 1 <= rounds <= 1e6, interval > 0."""
    _check_relation(neighboring_relation)
    require_integer("rounds", rounds, minimum=1)
    if rounds > 10**6:
        raise ParameterError("rounds", rounds, "1 <= rounds <= 1e6")
    _dp_accounting()
    from dp_accounting.pld import pld_pmf, privacy_loss_distribution  # type: ignore[import-untyped, import-not-found, unused-ignore]

    pair = dominating_pair(mechanism, eps0=eps0, n=n, k=k)
    losses = pair.index * pair.step
    if value_discretization_interval is None:
        interval = pair.step
        index = pair.index
    else:
        require_positive("value_discretization_interval", value_discretization_interval)
        interval = float(value_discretization_interval)
        # Rounded UP (pessimistic): the quotient is within half an ulp, so one ulp up is >= the exact quotient.
        index = np.ceil(np.nextafter(losses / interval, np.inf)).astype(np.int64)
    masses: dict[int, float] = {}
    for i, mass in zip(index.tolist(), pair.p_mass.tolist(), strict=True):
        masses[i] = masses.get(i, 0.0) + mass
    pmf = pld_pmf.SparsePLDPmf(masses, interval, float(pair.inf_mass), True)
    pld = privacy_loss_distribution.PrivacyLossDistribution(pmf)
    return pld if rounds == 1 else pld.self_compose(int(rounds))


def shuffled_round_rdp(mechanism: str, *, eps0: float, n: int, orders: Sequence[float], k: int = 2,
                       neighboring_relation: object = NEIGHBOURING_RELATION) -> list[float]:
    """Upper bounds of the Renyi divergence of order `orders[i]` (> 1) between the outputs of one shuffled round
    on any two neighbouring datasets (replace-one, both orders), from the certified dominating pair (module doc).
    Needs no dp_accounting. Over T rounds an RDP accountant adds them (RDP composes additively, adaptively too).
    Ranges: as shuffled_round_pld; 1 < order <= 1e4."""
    _check_relation(neighboring_relation)
    if isinstance(orders, (str, bytes)) or not isinstance(orders, Sequence) or not orders:
        raise ParameterError("orders", orders, "a non-empty list of Renyi orders > 1")
    for order in orders:
        require_positive("order", order)
        if not 1 < float(order) <= 1e4 or not math.isfinite(float(order)):
            raise ParameterError("order", order, "1 < order <= 1e4")
    pair = dominating_pair(mechanism, eps0=eps0, n=n, k=k)
    # Every order is also at most eps0 (an eps0-DP round: D_order <= eps0 for every order).
    return [min(pair.renyi_divergence(float(order)), float(eps0)) for order in orders]
