"""Adapters for BorjaBalle/amplification-by-shuffling (BBGN19's code), for `shuffle-spec audit bound`.

The project does not ship that code: clone it yourself and put its folder on PYTHONPATH, e.g.

    git clone https://github.com/BorjaBalle/amplification-by-shuffling /tmp/balle
    PYTHONPATH=/tmp/balle/shuffleddp shuffle-spec audit bound docs/audits/adapters/balle_adapters.py:hoeffding_generic --id BBGN19.Thm5.3 --grid

(`shuffleddp/` has a misnamed `__init.py__`, so its two modules are imported as top-level modules.)
Each adapter is the documented pattern for a `Class(...).method` API: a plain function
f(eps0, n, delta[, k]) -> eps that builds the object and calls the method, nothing else.
"""

from amplification_bounds import BennettExact, Erlingsson, Hoeffding
from mechanisms import LaplaceMechanism, LDPMechanism, RRMechanism


def hoeffding_generic(eps0, n, delta):
    return Hoeffding(LDPMechanism(eps0=eps0)).get_eps(eps0, n, delta)


def bennett_generic(eps0, n, delta):
    return BennettExact(LDPMechanism(eps0=eps0)).get_eps(eps0, n, delta)


def hoeffding_krr(eps0, n, delta, k):
    return Hoeffding(RRMechanism(eps0=eps0, k=k)).get_eps(eps0, n, delta)


def bennett_krr(eps0, n, delta, k):
    return BennettExact(RRMechanism(eps0=eps0, k=k)).get_eps(eps0, n, delta)


def hoeffding_laplace(eps0, n, delta):
    return Hoeffding(LaplaceMechanism(eps0=eps0)).get_eps(eps0, n, delta)


def bennett_laplace(eps0, n, delta):
    return BennettExact(LaplaceMechanism(eps0=eps0)).get_eps(eps0, n, delta)


def erlingsson(eps0, n, delta):
    return Erlingsson().get_eps(eps0, n, delta)
