"""`shuffle-spec derive --python`: the exported function is a certified bound that the project's own
`audit bound` passes.

The export holds the interval runtime `interface/derive/enclosure.py` verbatim and the statement's
hypotheses and closed form written for it. Checked here: it imports only the standard library and
mpmath; it rounds outward (an upper bound is >= the exact value, computed independently with mpmath at
300 bits from the paper's formula); it refuses points outside the hypotheses and degenerate inputs
with ValueError; it computes where the earlier float export divided by zero (BBGN19 Cor 5.3.1 at
eps0 = 1e-300, whose regime condition has 1 / (4 e^v - 4) with v ~ 1e-301); and `audit bound` passes
it. The reproducers: FMT21 Thm 2.1 at eps0 = 0.05, n = 1e9, delta = 0.5 was BELOW BOUND (rounding)
without outward rounding; BBGN19 Cor 5.3.1 raised ZeroDivisionError at eps0 = 1e-300.

The default run audits three exports (FMT21 Thm 2.1, EFMRSTT20 Thm III.1 with its four hypotheses,
EFMRTT19 Thm 7 v2 with a Min) on the committed vectors, and checks the two reproducer points against
mpmath directly; the second tier audits BBGN19 Cor 5.3.1's export on the committed vectors too (its
Piecewise hypothesis decided by SymPy in the audit: 3 s of CPU); the full sweep (every exportable statement, the amplification bounds over the whole
`--grid` with its regime edges and degenerate inputs: 39 exports in about 17 minutes on two shared
cores, 13 of them spent by the audit deciding BBGN19.Cor5.3.1's Piecewise hypothesis in SymPy) runs
with HYPOTHESIS_PROFILE=thorough.
"""

from __future__ import annotations

import ast
import inspect
import json
import math
import sys
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_spec.interface.derive import enclosure
from shuffle_spec.interface.audit.bound import audit_bound
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.cli.commands.derive import python_function
from shuffle_spec.interface.derive.python_export import ExportError, enclose, exportable_problem, interval_between, to_code
from shuffle_spec.interface.audit.verdicts import BELOW_BOUND, BELOW_BOUND_ROUNDING, CRASH, UNSOUND
from shuffle_spec.spec.registry import get_statement, list_statements
from support.paths import VECTORS



def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def exported(statement_id: str, tmp_path: Path | None = None):
    """(function, path) of the export of `statement_id`, loaded as a module of its own."""
    statement = get_statement(statement_id)
    source = python_function(statement)
    name = statement_id.replace(".", "_").lower()
    namespace: dict = {"__name__": f"export_{name}"}
    exec(compile(source, f"<export of {statement_id}>", "exec"), namespace)  # noqa: S102 - our own generated code
    path = None
    if tmp_path is not None:
        path = tmp_path / f"{name}.py"
        path.write_text(source)
    return namespace[name], path, source


# --- what an export is ------------------------------------------------------------------------------

def test_an_export_imports_only_the_standard_library_and_mpmath_and_carries_the_runtime_verbatim():
    _, _, source = exported("FMT21.Thm2.1")
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported and imported <= set(sys.stdlib_module_names) | {"mpmath", "__future__"}, imported
    runtime_body = inspect.getsource(enclosure).split('"""', 2)[2].replace("from __future__ import annotations\n", "", 1).strip()
    assert runtime_body in source


def paper_fmt21(eps0, n, delta):
    """FMT21 Thm 2.1 (seed, eq. (1)) from the paper, in mpmath at the current precision."""
    e0, n, delta = mpmath.mpf(eps0), mpmath.mpf(n), mpmath.mpf(delta)
    return mpmath.log(1 + (1 - mpmath.exp(-2 * e0)) * (8 * mpmath.exp(e0) / n + 8 * mpmath.exp(e0 / 2) * mpmath.sqrt(mpmath.log(4 / delta)) / mpmath.sqrt(n)))


def test_fmt21_export_rounds_outward_where_the_float_formula_was_below():
    function, _, _ = exported("FMT21.Thm2.1")
    with mpmath.workprec(300):
        exact = paper_fmt21(0.05, 10**9, 0.5)
        got = function(eps0=0.05, n=10**9, delta=0.5)
        # The smallest float >= the exact value: not below it, and one step down is below it.
        assert mpmath.mpf(got) >= exact and mpmath.mpf(math.nextafter(got, 0)) < exact
        # The plain float evaluation of the same formula is below the exact value there.
        plain = math.log(1 + (1 - math.exp(-0.1)) * (8 * math.exp(0.05) / 1e9 + 8 * math.exp(0.025) * math.sqrt(math.log(8)) / math.sqrt(1e9)))
        assert mpmath.mpf(plain) < exact


@settings(max_examples=30)
@given(
    eps0=st.floats(1e-6, 8, allow_nan=False),
    n=st.integers(10, 10**12),
    delta=st.floats(1e-300, 1.0, allow_nan=False),
)
def test_fmt21_export_is_never_below_the_exact_value_and_refuses_outside(eps0, n, delta):
    function, _, _ = exported_cached("FMT21.Thm2.1")
    statement = get_statement("FMT21.Thm2.1")
    inside = not statement.failed_hypotheses({"eps0": eps0, "n": n, "delta": delta})
    if not inside:
        with pytest.raises(ValueError, match="hypothesis"):
            function(eps0=eps0, n=n, delta=delta)
        return
    got = function(eps0=eps0, n=n, delta=delta)
    with mpmath.workprec(300):
        exact = paper_fmt21(eps0, n, delta)
        assert mpmath.mpf(got) >= exact and mpmath.mpf(math.nextafter(got, 0)) < exact, (got, exact)


_CACHE: dict = {}


def exported_cached(statement_id: str):
    if statement_id not in _CACHE:
        _CACHE[statement_id] = exported(statement_id)
    return _CACHE[statement_id]


def test_cor531_export_computes_at_a_tiny_eps0_where_the_float_export_divided_by_zero():
    function, _, _ = exported("BBGN19.Cor5.3.1")
    statement = get_statement("BBGN19.Cor5.3.1")
    point = {"eps0": 1e-300, "n": 10_000, "delta": 1e-6}
    # Inside the hypotheses (the audit calls it there and expects a value): each is lhs - rhs < 0 by a
    # clear margin in mpmath at 4000 bits (SymPy's own decision of the Piecewise one costs ~20 s).
    symbols = [statement.symbol(name) for name in point]
    with mpmath.workprec(4000):
        for hypothesis in statement.hypotheses:
            gap = sp.lambdify(symbols, hypothesis.lts - hypothesis.gts, "mpmath")(*(mpmath.mpf(v) for v in point.values()))
            assert gap < -1e-7, (hypothesis, gap)
    got = function(**point)
    with mpmath.workprec(2000):
        e0 = mpmath.mpf(1e-300)
        exact = 4 * mpmath.exp(e0) * mpmath.sqrt(mpmath.log(1 / mpmath.mpf(1e-6))) * min(1, e0) / mpmath.sqrt(10_000)
        assert mpmath.mpf(got) >= exact and mpmath.mpf(math.nextafter(got, 0)) < exact


@pytest.mark.parametrize(
    "point, needle",
    [
        ({"eps0": 10, "n": 100, "delta": 0.5}, "eps0 <= log(n/(16*log(2/delta)))"),
        ({"eps0": 1.0, "n": 100, "delta": 1.5}, "delta <= 1"),
        ({"eps0": 1.0, "n": 10_000.5, "delta": 1e-6}, "integer"),
        ({"eps0": 0.0, "n": 10_000, "delta": 1e-6}, "eps0 > 0"),
        ({"eps0": -1.0, "n": 10_000, "delta": 1e-6}, "eps0 > 0"),
        ({"eps0": math.nan, "n": 10_000, "delta": 1e-6}, "finite"),
        ({"eps0": math.inf, "n": 10_000, "delta": 1e-6}, "finite"),
        ({"eps0": 1.0, "n": 0, "delta": 1e-6}, "n > 0"),
        ({"eps0": 1.0, "n": 10_000, "delta": 0.0}, "delta > 0"),
    ],
)
def test_fmt21_export_refuses_outside_the_assumptions_and_hypotheses(point, needle):
    function, _, _ = exported_cached("FMT21.Thm2.1")
    with pytest.raises(ValueError, match=None) as raised:
        function(**point)
    assert needle in str(raised.value)


def test_fmt21_export_refuses_a_bool_and_a_string():
    function, _, _ = exported_cached("FMT21.Thm2.1")
    with pytest.raises(TypeError):
        function(eps0=True, n=100, delta=0.5)
    with pytest.raises(TypeError):
        function(eps0="1", n=100, delta=0.5)


def test_exact_integers_and_fractions_are_taken_as_they_are():
    function, _, _ = exported_cached("FMT21.Thm2.1")
    # n beyond 2^53 is not rounded to a double first; delta = 1/3 is not 0.333...
    with mpmath.workprec(300):
        got = function(eps0=Fraction(1, 2), n=10**17 + 1, delta=Fraction(1, 3))
        exact = paper_fmt21(mpmath.mpf(1) / 2, 10**17 + 1, mpmath.mpf(1) / 3)
        assert mpmath.mpf(got) >= exact and mpmath.mpf(math.nextafter(got, 0)) < exact


def test_a_point_on_a_hypothesis_boundary_that_intervals_cannot_decide_is_refused():
    # log(x^2) < 2 log(x) at x = 2: both sides are log 4, so no interval ever separates them (an exact
    # tie, as on a regime boundary): refused after 8192 bits, never answered as if proven.
    with pytest.raises(ValueError, match="cannot decide hypothesis"):
        enclosure.certified_value(
            "test", {"x": Fraction(2)}, [("log(x^2) < 2 log(x)", lambda x: enclosure.iv_lt(enclosure.iv_log(x * x), 2 * enclosure.iv_log(x)))], lambda x: x, "upper_bound"
        )


def test_the_runtime_refuses_arguments_outside_a_functions_domain():
    # An undefined sub-expression is never given a value: log(0) is not -inf, 1/0 not the whole line.
    ctx = enclosure.context()
    ctx.prec = 64
    for call in (
        lambda: enclosure.iv_log(0),
        lambda: enclosure.iv_log(enclosure.iv_q(-1)),
        lambda: enclosure.iv_sqrt(enclosure.iv_q(-1, 10**30)),
        lambda: enclosure.iv_div(1, 0),
        lambda: enclosure.iv_div(1, enclosure.iv_q(1) - enclosure.iv_q(1, 3) * 3),  # an interval around 0
        lambda: enclosure.iv_pow(enclosure.iv_q(-2), enclosure.iv_q(1, 3)),
        lambda: enclosure.iv_piecewise((lambda: False, lambda: 1)),
    ):
        with pytest.raises(enclosure.Undecided):
            call()
    # Through the driver: a hypothesis log(y) <= 1 at y = 0 (undefined, so false for the spec) is refused.
    with pytest.raises(ValueError, match="cannot decide hypothesis log"):
        enclosure.certified_value("test", {"y": Fraction(0)}, [("log(y) <= 1", lambda y: enclosure.iv_le(enclosure.iv_log(y), 1))], lambda y: y, "upper_bound")


def test_the_python_export_is_refused_with_solve_series_or_expr(capsys):
    for extra in (["--solve", "n"], ["--series", "n=oo"], ["--expr", "eps0"]):
        code, out, err = run_cli(capsys, "derive", "FMT21.Thm2.1", "--python", *extra)
        assert code == 2 and out == "" and "--python exports the statement's own closed form" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("statement_id, needle", [("BBGN19.Lem5.1.gaussian", "erfc"), ("EFMRSTT20.Alg5", "gamma"), ("EFMRTT19.Thm6.explicit", "equation")])
def test_statements_without_a_certified_interval_evaluation_are_refused(capsys, statement_id, needle):
    assert needle in exportable_problem(get_statement(statement_id))
    code, out, err = run_cli(capsys, "derive", statement_id, "--python")
    assert code == 2 and out == "" and needle in err and len(err.strip().splitlines()) == 1


def test_a_substituted_export_keeps_the_other_parameters_and_checks_the_substituted_hypotheses(capsys):
    code, out, _ = run_cli(capsys, "derive", "FMT21.Thm2.1", "--subs", "delta=1/1000000", "--python")
    assert code == 0 and "def fmt21_thm2_1(*, eps0: float, n: int) -> float:" in out
    namespace: dict = {}
    exec(out, namespace)  # noqa: S102 - our own generated code
    function = namespace["fmt21_thm2_1"]
    with mpmath.workprec(300):
        exact = paper_fmt21(1, 10_000, mpmath.mpf(1) / 10**6)
        got = function(eps0=1, n=10_000)
        assert mpmath.mpf(got) >= exact and mpmath.mpf(math.nextafter(got, 0)) < exact
    with pytest.raises(ValueError, match="eps0 <= log"):
        function(eps0=5, n=10_000)


def test_printed_code_and_in_process_enclosure_agree_with_mpmath():
    # The two translations of a SymPy expression (the printer for exports, the walker for derive's
    # substitution checks) both enclose the value that mpmath computes at 300 bits.
    statement = get_statement("FMT21.Thm2.1.apple")
    symbols = {str(s): s for s in statement.symbols}
    namespace = {name: getattr(enclosure, name) for name in dir(enclosure)}
    code = eval(f"lambda eps0, n, delta: {to_code(statement.value)}", namespace)  # noqa: S307 - our own generated code
    point = {"eps0": Fraction(3, 4), "n": 12345, "delta": Fraction(1, 10**7)}
    ctx = enclosure.context()
    ctx.prec = 128
    printed = code(**{k: enclosure.iv_point(v) for k, v in point.items()})
    walked = enclose(statement.value, {symbols[k]: interval_between(v, v) for k, v in point.items()})
    with mpmath.workprec(300):
        reference = sp.N(statement.value.subs({symbols[k]: sp.Rational(v) for k, v in point.items()}), 80)
        exact = mpmath.mpf(str(reference))
        for interval in (printed, walked):
            lo, hi = (mpmath.mpf(enclosure._fraction(end).numerator) / enclosure._fraction(end).denominator for end in interval._mpi_)
            assert lo <= exact <= hi and hi - lo < exact * mpmath.mpf(2) ** -100


def test_an_unsupported_function_is_an_export_error():
    with pytest.raises(ExportError, match="erfc"):
        to_code(sp.erfc(sp.Symbol("x", positive=True)))


# --- the audit ---------------------------------------------------------------------------------------

def _audit(statement_id: str, tmp_path: Path, *, grid: bool):
    statement = get_statement(statement_id)
    _, path, _ = exported(statement_id, tmp_path)
    name = statement_id.replace(".", "_").lower()
    report = audit_bound(f"{path}:{name}", statement_id, grid=grid, quiet=True)
    problems = [f"{f.verdict} {f.source} {f.inputs}: {f.reason}" for f in report.findings if f.severity != "pass"]
    assert report.result == "pass" and not problems, (report.summary(), problems[:10])
    assert report.inside_checked >= 1
    assert not any(f.verdict in (UNSOUND, BELOW_BOUND, BELOW_BOUND_ROUNDING, CRASH) for f in report.findings)
    return report, statement


REPRESENTATIVE = ("FMT21.Thm2.1", "BBGN19.Cor5.3.1", "EFMRSTT20.ThmIII.1", "EFMRTT19.Thm7.v2")
# The same audit of a costlier export, in the second tier (the default tier evaluates Cor 5.3.1's export at its
# reproducer point against mpmath above).
SECOND_TIER_EXPORTS = ("BBGN19.Cor5.3.1",)


@pytest.mark.parametrize("statement_id", [pytest.param(s, marks=pytest.mark.slow) if s in SECOND_TIER_EXPORTS else s for s in REPRESENTATIVE])
def test_representative_exports_pass_the_audit_on_the_committed_vectors(tmp_path, capsys, statement_id):
    """`shuffle-spec audit bound FILE.py:FUNCTION --id ID --vectors tests/vectors` on the exported file
    (the child-process sandbox, as a user runs it): every call passes, no warning. The reproducer
    points of the grid are checked against mpmath above; the whole grid in the thorough sweep below."""
    _, path, _ = exported(statement_id, tmp_path)
    name = statement_id.replace(".", "_").lower()
    code, out, _ = run_cli(capsys, "audit", "bound", f"{path}:{name}", "--id", statement_id, "--vectors", str(VECTORS), "--json")
    data = json.loads(out)
    problems = [f"{f['verdict']} {f['inputs']}: {f['reason']}" for f in data["findings"] if f["severity"] != "pass"]
    assert code == 0 and data["result"] == "pass" and not problems, (data["summary"], problems)
    assert data["counts"].get("PASS", 0) >= 3 and data["counts"].get("REJECTS", 0) >= 3


def exportable_ids() -> list[str]:
    return [s.id for s in list_statements() if s.value is not None and s.is_evaluable and not exportable_problem(s)]


@pytest.mark.deep  # every export audited over the whole grid: ~17 minutes (by hand, HYPOTHESIS_PROFILE=thorough)
@pytest.mark.parametrize("statement_id", exportable_ids())
def test_every_export_passes_the_audit_over_the_grid(tmp_path, statement_id):
    statement = get_statement(statement_id)
    _audit(statement_id, tmp_path, grid=statement.is_amplification_bound)
