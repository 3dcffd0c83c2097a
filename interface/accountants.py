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

- `ShuffledRoundDpEvent`, `ShuffledPLDAccountant`, `ShuffledRdpAccountant`: a dp_accounting event for one
  shuffled round (its fields as the exports above take them: mechanism, eps0, n, k) and the two accountants of
  dp_accounting extended by it. Every dp_accounting accountant implements `_maybe_compose(event, count,
  do_compose)` (`PrivacyAccountant`, abstract), and `PLDAccountant` / `RdpAccountant` recurse through
  `ComposedDpEvent` and `SelfComposedDpEvent` by `self._maybe_compose`; a subclass that handles one more event
  type and hands every other to `super()` therefore composes the shuffled round inside any nested event, beside
  dp_accounting's own Gaussian, subsampled and randomized-response events. `count` rounds are composed at
  once: the PLD accountant composes `shuffled_round_pld(..., rounds=count)` at its own
  value_discretization_interval (losses rounded up: pessimistic); the RDP accountant adds count times
  `shuffled_round_rdp` at its orders (orders outside (1, 1e4] get eps0: every round is eps0-DP and Renyi
  divergences of an eps0-DP pair are at most eps0 at every order). An accountant built for another relation
  than REPLACE_ONE gets dp_accounting's own `CompositionErrorDetails` naming that relation (its `compose`
  raises `UnsupportedEventError`, its `supports` returns False), as dp_accounting does for its
  `RandomizedResponseDpEvent`; REPLACE_SPECIAL is refused too (a round has no "special" input to replace a
  user's report with). Out-of-range parameters raise the one-line ParameterError in the checking pass,
  before the accountant's ledger or state changes (the envelope built there is cached for the composing
  pass). The classes subclass dp_accounting's, so they are built on first access (module `__getattr__`).

dp_accounting is imported lazily (inside the functions and on first access to the classes): the core package
does not depend on it.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Sequence

import numpy as np

from ..reference.composition.mechanism_rounds import dominating_pair
from ..reference.core.errors import ParameterError, require_integer, require_positive
from .entry_points import entry_point

# The classes of ACCOUNTANT_CLASSES are public too but not in __all__: `import *` would build them, and so
# need dp_accounting.
__all__ = ["NEIGHBOURING_RELATION", "shuffled_round_pld", "shuffled_round_rdp"]

NEIGHBOURING_RELATION = "replace_one"
# The most rounds shuffled_round_pld self-composes (and a PLD accountant composes of one event at once).
MAX_PLD_ROUNDS = 10**6
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


@entry_point
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
    if rounds > MAX_PLD_ROUNDS:
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


@entry_point
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


# The classes built on first access, by name (module `__getattr__`): they subclass dp_accounting's.
ACCOUNTANT_CLASSES = ("ShuffledRoundDpEvent", "ShuffledPLDAccountant", "ShuffledRdpAccountant")
# Renyi orders for which shuffled_round_rdp is evaluated; other orders get eps0 (module doc).
RDP_ORDER_RANGE = (1.0, 1e4)


def __getattr__(name: str) -> Any:
    if name in ACCOUNTANT_CLASSES:
        _dp_accounting()  # the one-line error naming the extra, also once the classes are built
        return _accountant_classes()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _relation_refusal(accountant: Any, event: Any) -> Any:
    """dp_accounting's CompositionErrorDetails for an accountant whose relation is not REPLACE_ONE, else None."""
    dp = _dp_accounting()
    if accountant.neighboring_relation is dp.NeighboringRelation.REPLACE_ONE:
        return None
    return dp.PrivacyAccountant.CompositionErrorDetails(
        invalid_event=event,
        error_message=(
            "neighboring_relation must be `REPLACE_ONE` for `ShuffledRoundDpEvent` (the shuffled-round guarantees "
            f"are for replacing one user's input, n fixed). Found {accountant.neighboring_relation}."
        ),
    )


def _mechanism_name(value: object) -> object:
    """The mechanism's name; the text dp_accounting's `DpEvent.from_named_tuple` makes of a str field (it
    rebuilds every Sequence element by element: str(list(name))) is turned back into the name."""
    if isinstance(value, str) and value.startswith("["):
        import ast

        try:
            chars = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            return value
        if isinstance(chars, list) and all(isinstance(c, str) and len(c) == 1 for c in chars):
            return "".join(chars)
    return value


def _check_event(event: Any, count: int, *, max_rounds: int | None) -> None:
    """The accountants' checking pass: the round's parameters (their ranges: building the dominating pair, which
    is cached for the composing pass) and the number of rounds composed at once (the PLD accountant's
    self-composition: at most MAX_PLD_ROUNDS, as shuffled_round_pld; the RDP accountant adds, any count)."""
    dominating_pair(event.mechanism, eps0=event.eps0, n=event.n, k=event.k)
    if max_rounds is not None and count > max_rounds:
        raise ParameterError("rounds", count, f"at most {max_rounds:.0e} rounds of one ShuffledRoundDpEvent in a PLD accountant (count x nested SelfComposedDpEvent counts)")


def _round_rdp(event: Any, orders: Sequence[float]) -> np.ndarray:
    """One round's Renyi-DP upper bounds at the accountant's orders: shuffled_round_rdp inside RDP_ORDER_RANGE,
    eps0 elsewhere (module doc)."""
    low, high = RDP_ORDER_RANGE
    inside = [float(order) for order in orders if low < float(order) <= high]
    curve = dict(zip(inside, shuffled_round_rdp(event.mechanism, eps0=event.eps0, n=event.n, k=event.k, orders=inside), strict=True)) if inside else {}
    return np.array([curve.get(float(order), float(event.eps0)) for order in orders], dtype=np.float64)


@functools.cache
def _accountant_classes() -> dict[str, type]:
    """Build the event and the two accountants (module doc) once dp_accounting is importable."""
    dp = _dp_accounting()
    import attr
    from dp_accounting.pld import pld_privacy_accountant  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from dp_accounting.rdp import rdp_privacy_accountant  # type: ignore[import-untyped, import-not-found, unused-ignore]

    @attr.s(frozen=True, slots=True, auto_attribs=True)
    class ShuffledRoundDpEvent(dp.DpEvent):  # type: ignore[misc, name-defined, unused-ignore]
        """One round of the shuffle model: each of n users sends one report of `mechanism` ("binary_rr", or
        "krr" with k categories) at local eps0 through a shuffler (replace-one relation). Ranges: as
        shuffled_round_pld (1e-3 <= eps0 <= 30, n <= 1e7 for binary RR and 1e8 for k-RR, 2 <= k <= 1e6)."""

        mechanism: str = attr.ib(converter=_mechanism_name)
        eps0: float
        n: int
        k: int = 2

        def to_named_tuple(self) -> Any:
            # dp_accounting rebuilds every Sequence field element by element, which turns a str into the text of
            # a list of its characters: the mechanism's name is put back as it is (and `_mechanism_name` undoes
            # the same rebuilding in dp_accounting's from_named_tuple).
            return super().to_named_tuple()._replace(mechanism=self.mechanism)

    class ShuffledRoundComposing:
        """What both accountants do with a ShuffledRoundDpEvent (module doc): every other event goes to
        dp_accounting's own `_maybe_compose` (next in the method order); a relation other than REPLACE_ONE gets
        dp_accounting's refusal; the checking pass (do_compose False) runs the range check (ParameterError)
        before the ledger changes; the composing pass adds `count` rounds (`_compose_rounds`, the one part the
        two accountants do differently: a PLD composed by dp_accounting, or RDP curves added)."""

        MAX_ROUNDS: int | None = None  # the largest `count` the checking pass accepts (None: any)

        def _maybe_compose(self, event: Any, count: int, do_compose: bool) -> Any:
            if not isinstance(event, ShuffledRoundDpEvent):
                return super()._maybe_compose(event, count, do_compose)  # type: ignore[misc]  # dp_accounting's, by the method order
            refusal = _relation_refusal(self, event)
            if refusal is not None:
                return refusal
            if not do_compose:  # the range check (ParameterError) before the ledger changes; the pair is cached
                _check_event(event, count, max_rounds=self.MAX_ROUNDS)
                return None
            self._compose_rounds(event, count)
            return None

        def _compose_rounds(self, event: Any, count: int) -> None:
            raise NotImplementedError

    class ShuffledPLDAccountant(ShuffledRoundComposing, pld_privacy_accountant.PLDAccountant):  # type: ignore[misc, name-defined, unused-ignore]
        """dp_accounting's PLDAccountant that also composes ShuffledRoundDpEvent (module doc): `count` rounds
        as `shuffled_round_pld(..., rounds=count)` at the accountant's value_discretization_interval.
        neighboring_relation must be REPLACE_ONE for a shuffled round (dp_accounting's default is
        ADD_OR_REMOVE_ONE: pass it)."""

        MAX_ROUNDS = MAX_PLD_ROUNDS

        def _compose_rounds(self, event: Any, count: int) -> None:
            pld = shuffled_round_pld(event.mechanism, eps0=event.eps0, n=event.n, k=event.k, rounds=count,
                                     value_discretization_interval=self._value_discretization_interval)
            self._pld = self._pld.compose(pld)  # type: ignore[has-type, unused-ignore]  # dp_accounting has no stubs

    class ShuffledRdpAccountant(ShuffledRoundComposing, rdp_privacy_accountant.RdpAccountant):  # type: ignore[misc, name-defined, unused-ignore]
        """dp_accounting's RdpAccountant that also composes ShuffledRoundDpEvent (module doc): count times
        `shuffled_round_rdp` at the accountant's orders (eps0 at orders outside (1, 1e4]).
        neighboring_relation must be REPLACE_ONE for a shuffled round."""

        def _compose_rounds(self, event: Any, count: int) -> None:
            self._rdp += count * _round_rdp(event, self._orders)

    classes: dict[str, type] = {}
    for cls in (ShuffledRoundDpEvent, ShuffledPLDAccountant, ShuffledRdpAccountant):
        cls.__qualname__ = cls.__name__  # importable by name (dp_accounting's from_named_tuple, pickle)
        classes[cls.__name__] = cls
    return classes
