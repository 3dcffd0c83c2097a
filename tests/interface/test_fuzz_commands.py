"""Fuzzing the command-line surface and the Python API: every answer is a number, a one-line refusal or a row reason, never a traceback.

Hypothesis draws arguments for every command: numbers of every kind and size (huge, tiny, negative,
NaN/inf, hex, `1_0`, fractions, junk text), statement ids, expressions, paths. Every call must end
within `PER_CALL_SECONDS` with either a valid answer (exit 0 or 1, data on stdout; JSON parses) or a
one-line error on stderr with exit 2: never a traceback, never an "internal error", never a
non-finite or negative epsilon, never an upper bound below a registered lower bound or exact value at
the same point. The CLI runs in-process (`cli.main`) for speed; a few cases run in a subprocess.

Valid points are drawn at moderate sizes (n <= 1e6) so that the suite stays fast; the reference's own
edge cases at the ends of the supported range are tested by the reference's tests.
"""

from __future__ import annotations

import math
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shuffle_spec.interface import api
from shuffle_spec.interface.limits import time_limit
from shuffle_spec.reference.core.errors import ParameterError
from support.cli import PER_CALL_SECONDS, REL_SLACK, call, check_outcome


SPECIAL_NUMBERS = [
    "nan", "NaN", "inf", "-inf", "+inf", "infinity", "1e309", "-1e309", "1e-400", "4.9e-324", "1e308", "1.7976931348623157e308",
    "0", "-0", "-0.0", "1_0", "0x10", "0b1", "1e", "e5", ".", "-", "--", "", " ", "1/0", "0/0", "-1/2", "1/3", "3/2", "1,2",
    "1:2", "1e4:1e8:1000000", "1:2:3:4", "5:1", "0:1", "1e-6", "-1e-6", "1e6", "1.5", "2**10", "1 2", "١٢", "½", "\x00", "9" * 120,
]

junk_numbers = st.one_of(
    st.sampled_from(SPECIAL_NUMBERS),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-(10**40), 10**40).map(str),
    st.tuples(st.integers(-(10**6), 10**6), st.integers(-3, 10**6)).map(lambda t: f"{t[0]}/{t[1]}"),
    st.text(max_size=12),
)


def numbers(valid: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Mostly junk and edge values (cheap refusals), sometimes a valid value (a real computation)."""
    return st.one_of(valid, junk_numbers, junk_numbers)


valid_eps0 = st.floats(0.05, 6.0).map(repr)
valid_n = st.integers(1, 10**6).map(str)
valid_delta = st.floats(1e-12, 0.5).map(repr)
# Statements with closed forms (fast at every point) and a few others, plus ids that do not exist.
IDS = ["FMT21.Thm2.1", "EFMRTT19.Thm7", "BBGN19.Thm5.3", "BBGN19.Cor5.3.1", "EFMRTT19.Lem3.triangle", "BBGN19.Thm5.2", "NOPE", "", "FMT21", "../x"]
PARAM_NAMES = ["eps0", "n", "delta", "k", "eps", "x", "", "eps0 ", "__class__"]


def finite_epsilon(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0


def check_bounds_json(data: dict) -> None:
    for point in data["points"]:
        uppers, lowers = [], []
        for row in point["bounds"]:
            if not row["valid"]:
                assert row["eps"] is None
                continue
            assert finite_epsilon(row["eps"]), row
            (lowers if row["direction"] == "lower_bound" else uppers).append(row)
        exact = [e["eps"] for e in point["exact"] if e["valid"]]
        assert all(finite_epsilon(e) for e in exact), point["exact"]
        for row in uppers:  # every row listed applies to the chosen randomizer: none below its exact value
            for value in exact:
                assert row["eps"] >= value * (1 - REL_SLACK), (point["eps0"], point["n"], point["delta"], row["id"], row["eps"], value)
            for lower in lowers:
                if lower["mechanism"] in ("generic", row["mechanism"]) and row["mechanism"] == lower["mechanism"]:
                    assert row["eps"] >= lower["eps"] * (1 - REL_SLACK), (row, lower)


def check_compare_json(data: dict) -> None:
    exact = data["exact"]
    if exact is not None:
        assert finite_epsilon(exact["eps"])
    for row in data["bounds"]:
        if row["valid"]:
            assert finite_epsilon(row["eps"]), row
            if exact is not None:
                assert row["eps"] >= exact["eps"] * (1 - REL_SLACK), (data["params"], row, exact)
        else:
            assert row["eps"] is None or finite_epsilon(row["eps"])


fuzz = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
# Fewer draws in the default tier for the commands whose single call costs a SymPy substitution or a calibration
# (~0.1 s): a quarter of the profile's number (10 under `ci`); the second tier runs the profile's number (the same
# check, more points).
FEWER = max(10, settings.default.max_examples // 4)


@fuzz
@given(
    command=st.sampled_from(["bounds", "compare"]),
    eps0=numbers(valid_eps0),
    n=numbers(valid_n),
    delta=numbers(valid_delta),
    randomizer=st.sampled_from([None, None, "binary_rr", "krr", "laplace", "nonsense", ""]),
    k=st.one_of(st.none(), numbers(st.integers(2, 20).map(str))),
)
def test_fuzz_bounds_and_compare(command, eps0, n, delta, randomizer, k):
    argv = [command, "--eps0", eps0, "--n", n, "--delta", delta, "--json"]
    if command == "bounds":
        argv += [] if randomizer is None else ["--randomizer", randomizer]
        argv += [] if k is None else ["--k", k]
    code, out, err, seconds = call(argv)
    data = check_outcome(argv, code, out, err, seconds)
    if data is not None:
        (check_bounds_json if command == "bounds" else check_compare_json)(data)


@settings(fuzz, max_examples=max(5, settings.default.max_examples // 8))
@given(eps0=valid_eps0, n=st.integers(2, 10**6).map(str), delta=valid_delta)
def test_fuzz_valid_points_no_bound_below_the_exact_value(eps0, n, delta):
    # Valid points only (the test above mostly draws refusals): every generic bound that answers is
    # finite, >= 0 and >= the exact eps of shuffled binary randomized response at the same point.
    argv = ["compare", "--eps0", eps0, "--n", n, "--delta", delta, "--json"]
    code, out, err, seconds = call(argv)
    data = check_outcome(argv, code, out, err, seconds)
    assert code == 0 and data is not None, (argv, err)
    check_compare_json(data)


@fuzz
@given(
    statement_id=st.sampled_from(IDS),
    params=st.lists(st.tuples(st.sampled_from(PARAM_NAMES), st.one_of(numbers(valid_eps0), numbers(valid_n))), max_size=5),
    raw=st.lists(st.text(max_size=10), max_size=2),
)
def test_fuzz_eval(statement_id, params, raw):
    argv = ["eval", statement_id, "--json"]
    for name, value in params:
        argv += ["--param", f"{name}={value}"]
    for item in raw:
        argv += ["-p", item]
    code, out, err, seconds = call(argv)
    data = check_outcome(argv, code, out, err, seconds)
    if data is not None and data["valid"]:
        assert isinstance(data["value"], (int, float)) and math.isfinite(data["value"]), data


CALIBRATIONS = dict(
    target=st.sampled_from(["eps0", "n", "delta"]),
    eps=numbers(st.floats(0.05, 1.0).map(repr)),
    eps0=numbers(valid_eps0),
    n=numbers(st.integers(1000, 10**6).map(str)),
    delta=numbers(valid_delta),
)


@settings(fuzz, max_examples=FEWER)
@given(**CALIBRATIONS)
def test_fuzz_calibrate(target, eps, eps0, n, delta):
    _check_calibrate(target, eps, eps0, n, delta)


@pytest.mark.slow
@fuzz
@given(**CALIBRATIONS)
def test_fuzz_calibrate_at_more_points(target, eps, eps0, n, delta):
    _check_calibrate(target, eps, eps0, n, delta)


def _check_calibrate(target, eps, eps0, n, delta) -> None:
    argv = ["calibrate", "FMT21.Thm2.1", "--target", target, "--eps", eps, "--json"]
    argv += [] if target == "eps0" else ["--eps0", eps0]
    argv += [] if target == "n" else ["--n", n]
    argv += [] if target == "delta" else ["--delta", delta]
    code, out, err, seconds = call(argv)
    data = check_outcome(argv, code, out, err, seconds)
    if data is not None:  # the answer is certified: the bound there is within the target
        assert data["bound_at_value"] <= float(eps) and math.isfinite(data["value"]), data


EXPRESSION_ALPHABET = "eps0ndltak()+-*/^.,_ 0123456789e[]'\"=:;!@#$%&|<>~`{}\\xyzESQRTIOLGMP"
expressions = st.one_of(
    st.text(alphabet=EXPRESSION_ALPHABET, max_size=25),
    st.sampled_from([
        "__import__('os').system('echo PWNED')", "eps0.__class__", "9**9**9**9", "10**10**10", "exp(exp(exp(1000)))",
        "Integral(exp(-y), (y, 0, oo))", "Sum(1/k**2, (k, 1, oo))", "log(0)", "1/0", "0**-1", "oo - oo", "(" * 30 + ")" * 30,
        "eps0**1001", "Max()", "exp(1, 2)", "Integral(y, y)", "Integral(y, (1, 2, 3))", "sqrt(-1)", "a" * 600, "x" * 50,
    ]),
    st.recursive(
        st.sampled_from(["eps0", "n", "delta", "y", "1", "2", "1/2", "0.1", "oo", "pi", "E"]),
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "**", "^"]), inner).map(lambda t: f"({t[0]}{t[1]}{t[2]})"),
            st.tuples(st.sampled_from(["exp", "log", "sqrt", "Abs", "sin", "open", "eval", "getattr"]), inner).map(lambda t: f"{t[0]}({t[1]})"),
        ),
        max_leaves=6,
    ),
)


@fuzz
@given(option=st.sampled_from(["--expr", "--subs", "--series"]), text=expressions, statement_id=st.sampled_from(["FMT21.Thm2.1", "EFMRTT19.Thm7", "NOPE"]))
def test_fuzz_derive(option, text, statement_id):
    argument = text if option == "--expr" else (f"eps0={text}" if option == "--subs" else f"n={text}")
    argv = ["derive", statement_id, option, argument, "--json"]
    code, out, err, seconds = call(argv)
    check_outcome(argv, code, out, err, seconds)
    assert "PWNED" not in out + err


DERIVE_IDS = ["FMT21.Thm2.1", "EFMRTT19.Thm7", "EFMRSTT20.ThmIII.1", "FMT21.Thm2.1.apple"]


DERIVE_SUBSTITUTIONS = dict(
    statement_id=st.sampled_from(DERIVE_IDS),
    values=st.fixed_dictionaries({}, optional={"eps0": numbers(valid_eps0), "n": numbers(valid_n), "delta": numbers(valid_delta)}),
    form=st.sampled_from(["--json", "--latex", "--python"]),
)


@settings(fuzz, max_examples=FEWER)
@given(**DERIVE_SUBSTITUTIONS)
def test_fuzz_derive_substitutions(statement_id, values, form):
    """derive --subs: a one-line refusal, or (full point, --json) an exact value that eval certifies too."""
    _check_derive_substitutions(statement_id, values, form)


@pytest.mark.slow
@fuzz
@given(**DERIVE_SUBSTITUTIONS)
def test_fuzz_derive_substitutions_at_more_points(statement_id, values, form):
    _check_derive_substitutions(statement_id, values, form)


def _check_derive_substitutions(statement_id, values, form) -> None:
    argv = ["derive", statement_id, *(item for name, value in values.items() for item in ("--subs", f"{name}={value}")), form]
    code, out, err, seconds = call(argv)
    data = check_outcome(argv, code, out, err, seconds)
    if code != 0 or form != "--json" or set(values) != {"eps0", "n", "delta"}:
        return
    assert isinstance(data, dict) and data["failures"] == []
    shown = sp.sympify(data["expression"])
    assert not shown.free_symbols, data
    evaluation = call(["eval", statement_id, *(item for name, value in values.items() for item in ("--param", f"{name}={value}")), "--json"])
    answer = check_outcome(["eval", "--json"], *evaluation)
    if isinstance(answer, dict) and answer.get("valid"):
        assert math.isclose(float(sp.N(shown, 30)), answer["value"], rel_tol=1e-9), (argv, shown, answer)


@fuzz
@given(
    argv=st.one_of(
        st.tuples(st.just("list"), st.just("--paper"), st.text(max_size=10)).map(list),
        st.tuples(st.just("show"), st.one_of(st.sampled_from(IDS), st.text(max_size=15))).map(list),
        st.tuples(st.just("plot"), st.just("--csv"), st.just("--eps0"), numbers(valid_eps0), st.just("--delta"), numbers(valid_delta),
                  st.just("--n"), st.one_of(st.just("1e3:1e4:2"), junk_numbers)).map(list),
        st.tuples(st.just("plot"), st.just("--eps0"), st.just("1"), st.just("--delta"), st.just("1e-6"), st.just("-o"),
                  st.sampled_from(["/nonexistent/x.png", "/", "x.exe", "", "/dev/null"])).map(list),
        st.lists(st.sampled_from(["bounds", "--eps0", "--n", "--delta", "-1", "--json", "--csv", "eval", "--param", "=", "-p", "x"]), max_size=8),
    )
)
def test_fuzz_other_commands(argv):
    code, out, err, seconds = call(argv)
    check_outcome(argv, code, out, err, seconds)


MALFORMED_FILES = {
    "binary.json": b"\x89PNG\r\n\x1a\n\x00\xff\xfe",
    "not_json.json": b"[[0.5, 0.5], [0.5, 0.5]",
    "nested.json": b"[" * 100_000 + b"]" * 100_000,
    "empty.json": b"",
    "strings.json": b'[["a", "b"], ["c", "d"]]',
    "negative.json": b"[[1.5, -0.5], [0.5, 0.5]]",
    "nan.json": b"[[NaN, 1], [0.5, 0.5]]",
    "huge.json": b"[[1e400, 0], [0.5, 0.5]]",
    "object.json": b'{"matrix": 5}',
}


@pytest.mark.parametrize("name", sorted(MALFORMED_FILES))
def test_malformed_randomizer_files_are_one_line_errors(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(MALFORMED_FILES[name])
    argv = ["audit", "randomizer", str(path), "--n", "10", "--delta", "1e-3"]
    code, out, err, seconds = call(argv)
    check_outcome(argv, code, out, err, seconds)
    assert code == 2


@pytest.mark.parametrize(
    "argv",
    [
        ["derive", "FMT21.Thm2.1", "--subs", "eps0=__import__('os').system('touch MARKER')"],
        ["compare", "--eps0", "1e308", "--n", "1e4", "--delta", "-1e-6"],
    ],
)
def test_a_few_cases_in_a_subprocess(argv, tmp_path):
    marker = tmp_path / "PWNED"
    argv = [item.replace("MARKER", str(marker)) for item in argv]
    done = subprocess.run([sys.executable, "-m", "shuffle_spec", *argv], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2 and done.stdout == "" and not marker.exists()
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


API_CALLS = {
    "shuffled_epsilon": (lambda **kw: api.shuffled_epsilon("FMT21.Thm2.1", **kw), ("eps0", "n", "delta")),
    "calibrate_epsilon0": (lambda **kw: api.calibrate_epsilon0("FMT21.Thm2.1", **kw), ("eps", "n", "delta")),
    "calibrate_n": (lambda **kw: api.calibrate_n("FMT21.Thm2.1", **kw), ("eps", "eps0", "delta")),
    "shuffled_delta": (lambda **kw: api.shuffled_delta("FMT21.Thm2.1", **kw), ("eps", "eps0", "n")),
}
api_values = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=True, allow_infinity=True), st.integers(-(10**30), 10**30),
    st.fractions(max_denominator=10**6), st.decimals(allow_nan=True, allow_infinity=True, places=None),
    st.integers(1, 10**6).map(np.int64), st.floats(0.05, 5).map(np.float64), st.text(max_size=6), st.just([1.0]),
    st.floats(0.05, 1.0), st.integers(1000, 10**6), st.floats(1e-9, 1e-3),
    st.sampled_from([10**400, -(10**400), Fraction(1, 10**400), Decimal("1E+999999999"), Decimal("-1E-999999999")]),
)


@fuzz
@given(function=st.sampled_from(sorted(API_CALLS)), values=st.lists(api_values, min_size=3, max_size=3))
def test_fuzz_api(function, values):
    run, names = API_CALLS[function]
    try:
        with time_limit(PER_CALL_SECONDS):
            result = run(**dict(zip(names, values, strict=True)))
    except ParameterError as failure:  # names the parameter: "<name> = <value> is out of range: ..."
        assert str(failure).split(" = ")[0] in (*names, "parameters"), str(failure)
        return
    except ValueError as failure:  # a hypothesis that fails: says which
        assert "hypothesis" in str(failure) or "out of range" in str(failure), str(failure)
        return
    value = result if isinstance(result, float) else result.value
    assert isinstance(value, (int, float)) and math.isfinite(value) and value >= 0
