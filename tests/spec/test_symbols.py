"""`spec.symbols`: each shared symbol's ASCII name is the public parameter name it is bound to (the CLI's
`--param`, JSON, the reference's keyword), and its LaTeX spellings belong to symbols that exist."""

import sympy as sp

from shuffle_spec.spec import symbols

SHARED = {name: value for name, value in vars(symbols).items() if isinstance(value, sp.Symbol)}


def test_each_symbol_is_bound_to_its_own_name():
    assert len(SHARED) >= 20
    assert {name: str(s) for name, s in SHARED.items()} == {name: name for name in SHARED}


def test_the_assumptions_of_the_amplification_parameters():
    assert symbols.eps0.is_positive and symbols.delta.is_positive and symbols.eps.is_nonnegative
    assert symbols.n.is_integer and symbols.n.is_positive
    assert symbols.m.is_integer and symbols.m.is_nonnegative


def test_latex_names_are_of_shared_symbols():
    assert set(symbols.LATEX_NAMES) <= set(SHARED)
    assert symbols.latex_names([symbols.eps0, symbols.n]) == {symbols.eps0: r"\varepsilon_0"}
