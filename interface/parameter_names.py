"""The names of a call's parameters, checked against the statement's inputs before any number is looked at.

A forgotten `k`, a stray `k=3` or `delta0=` used to reach the evaluation, which refused the point, and an
inversion read that refusal as "the bound certifies nothing here" and blamed the parameter it searched
(`eps0 = 6.2e-62 is out of range`). Every entry point of the API (`shuffled_epsilon`, `shuffled_delta`, the
`calibrate_*` functions, `ShuffleBound`, `tightest`) checks the names first and raises `ParameterNameError`:

    missing parameter k (FMT23.stronger_clones needs eps0, n, delta, k)
    unexpected parameter delta0 (FMT21.clones_numeric needs eps0, n, delta)

`ParameterNameError` is a `ParameterError` (fields `name`, `value`, `allowed`, `statement_id`) and a
`UsageError` (the command line exits with 2), so code catching either keeps working. Its message names the
Python parameter, never a command-line flag.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..proofs_checks.bridge import UsageError
from ..reference.core.errors import ParameterError

__all__ = ["ParameterNameError", "check_parameter_names"]


class ParameterNameError(ParameterError, UsageError):
    """A parameter the call needs is missing (`value` None) or one it does not take was given (`value` the value
    given): the mistake is the name, not a range."""

    def __init__(self, name: str, value: object, needs: Iterable[str], *, missing: bool, owner: str, statement_id: str | None = None, note: str = ""):
        needs = tuple(needs)
        allowed = (f"{owner} needs {', '.join(needs)}" if needs else f"{owner} takes no parameters") + note
        ParameterError.__init__(self, name, value, allowed, statement_id=statement_id)
        self.missing = missing
        self.needs = needs
        # One line that says what is wrong with the NAME (ParameterError's own line would call it a range failure).
        ValueError.__init__(self, f"{'missing' if missing else 'unexpected'} parameter {name} ({allowed})")


def check_parameter_names(owner: str, needs: Iterable[str], given: Iterable[str], *, values: dict[str, object] | None = None,
                          statement_id: str | None = None, extra_note: str = "") -> None:
    """Raise `ParameterNameError` for the first name of `needs` missing from `given`, else for the first name
    of `given` not in `needs` (in the caller's order). `owner`: what needs them (a statement id, a randomizer);
    `extra_note`: said after the list (e.g. which parameter an inversion searches)."""
    needs = tuple(needs)
    given = tuple(given)
    for name in needs:
        if name not in given:
            raise ParameterNameError(name, None, needs, missing=True, owner=owner, statement_id=statement_id, note=extra_note)
    for name in given:
        if name not in needs:
            raise ParameterNameError(name, (values or {}).get(name), needs, missing=False, owner=owner, statement_id=statement_id, note=extra_note)
