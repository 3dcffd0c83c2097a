"""The command-line contract: list / show / eval / check, JSON fields, exit codes.

Commands run in-process through `shuffle_spec.interface.cli.main.main` (fast), and once through the installed
console script to prove the entry point works.
"""

import dataclasses
import json
import subprocess
import sys
import time
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from support.paths import ROOT, child_environment
import sympy as sp

from shuffle_spec.interface import api
from shuffle_spec.proofs_checks.bridge import BadParameter, UsageError, evaluate, parse_number
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.cli.commands import derive as derive_command
from shuffle_spec.interface.cli.commands import plot as plot_command
from shuffle_spec.interface.limits import EPS0_MAX, MAX_GRID_COUNT, MAX_POINTS, TimeLimitExceeded, time_limit
from shuffle_spec.reference.core.errors import ParameterError
from shuffle_spec.spec.registry import get_statement, list_statements


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_json_has_every_statement_with_the_contract_fields(capsys):
    code, out, _ = run_cli(capsys, "list", "--json")
    rows = json.loads(out)
    assert code == 0
    assert [r["id"] for r in rows] == [s.id for s in list_statements()]
    for row in rows:
        assert {"id", "kind", "title", "source", "direction"} <= set(row)


def test_show_prints_hypotheses_and_conclusion(capsys):
    code, out, _ = run_cli(capsys, "show", "EFMRTT19.Lem3.triangle", "--latex")
    assert code == 0 and r"\delta_1 + \delta_2 e^{\varepsilon_1}" in out


def test_show_json(capsys):
    code, out, _ = run_cli(capsys, "show", "BBGN19.Thm5.2", "--json")
    data = json.loads(out)
    assert code == 0 and data["id"] == "BBGN19.Thm5.2" and data["conclusion"]


def test_unknown_id_is_a_usage_error(capsys):
    code, out, err = run_cli(capsys, "show", "BBGN19.Thm99")
    assert code == 2 and out == "" and "BBGN19.Thm99" in err


def test_eval_of_a_definition_is_a_usage_error(capsys):
    code, _, err = run_cli(capsys, "eval", "BBGN19.Thm5.2", "--param", "eps=1")
    assert code == 2 and "not evaluable" in err


def test_malformed_param_is_a_usage_error(capsys):
    code, _, err = run_cli(capsys, "eval", "BBGN19.Thm5.2", "--param", "eps")
    assert code == 2 and "NAME=VALUE" in err


def test_check_passes_and_reports_counts(capsys):
    # One paper's checks: the CLI path is what is tested here; every check runs in test_proofs_checks.
    code, out, _ = run_cli(capsys, "check", "--json", "--id", "EFMRTT19.Lem3")
    data = json.loads(out)
    assert code == 0 and data["failed"] == 0 and data["passed"] == len(data["results"]) > 0


def test_bare_command_prints_the_report(capsys):
    code, out, _ = run_cli(capsys)
    assert code == 0 and "statements" in out


def test_console_script_entry_point():
    """The entry point of the environment under test, not whichever `shuffle-spec` is first on PATH.

    The console script declared in pyproject.toml resolves, in this interpreter, to the `main` under
    test; calling it the way the generated wrapper does (`sys.exit(main())`, in a subprocess of this
    interpreter) lists the statements. Where this environment has the distribution installed, its
    metadata declares the same target and this environment's own script (in its scripts directory,
    not the first one on PATH) runs.
    """
    import importlib
    import importlib.metadata
    import sysconfig
    import tomllib
    from pathlib import Path

    root = ROOT
    target = tomllib.loads((root / "pyproject.toml").read_text())["project"]["scripts"]["shuffle-spec"]
    assert target == "shuffle_spec.interface.cli.main:main"
    module_name, function_name = target.split(":")
    assert getattr(importlib.import_module(module_name), function_name) is main
    env = child_environment()
    wrapper = f"import sys; from {module_name} import {function_name}; sys.argv[0] = 'shuffle-spec'; sys.exit({function_name}())"
    done = subprocess.run([sys.executable, "-c", wrapper, "list", "--json"], capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 0 and any(row["id"] == "EFMRTT19.Def1" for row in json.loads(done.stdout))
    installed = [e for e in importlib.metadata.entry_points(group="console_scripts") if e.name == "shuffle-spec"]
    assert all(e.value == target for e in installed), installed
    own_script = Path(sysconfig.get_path("scripts")) / "shuffle-spec"
    if installed and own_script.is_file():  # this environment's script, wherever PATH points
        done = subprocess.run([str(own_script), "list", "--json"], capture_output=True, text=True, check=False)
        assert done.returncode == 0 and json.loads(done.stdout)


def test_module_entry_point():
    done = subprocess.run([sys.executable, "-m", "shuffle_spec", "list"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "EFMRTT19.Def1" in done.stdout


# --- Hostile input and extreme parameters at the CLI / API surface -----------------------------------------


# FMT21 Thm 2.1 has a closed form: fast at every point, so these tests cost little.
CLOSED = "FMT21.Thm2.1"
POINT = ["--param", "n=100000", "--param", "delta=1e-6"]


def one_line_error(code, out, err, *needles):
    """Exit 2, nothing on stdout, one line on stderr (argparse adds a usage line) containing the needles."""
    lines = [line for line in err.splitlines() if line and not line.startswith("usage:") and not line.startswith(" ")]
    assert code == 2 and out == "" and len(lines) == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize(
    "text, integer, expected",
    [
        ("0.5", False, 0.5), ("1e-6", False, 1e-6), (" 2 ", False, 2.0), ("1/3", False, Fraction(1, 3)),
        ("1e6", True, 10**6), ("12345678901234567891", True, 12345678901234567891), ("-2", False, -2.0),
        (np.int64(10_000), True, 10_000), (np.float64(0.5), False, 0.5), (Fraction(1, 2), False, Fraction(1, 2)),
        (Decimal("0.25"), False, Fraction(1, 4)), (Decimal("1E+4"), True, 10_000), (7, True, 7), (np.float32(2.0), True, 2),
    ],
)
def test_parse_number_accepts_numbers_exactly(text, integer, expected):
    value = parse_number("x", text, integer=integer)
    assert value == expected and (not integer or type(value) is int)


@pytest.mark.parametrize(
    "value, integer, needle",
    [
        ("1_0", False, "1_0"), ("0x10", False, "0x10"), ("nan", False, "finite"), ("-inf", False, "finite"), ("1e999", False, "finite"),
        ("1.5", True, "integer"), ("1/0", False, "q != 0"), ("", False, "number"), ("1" * 200, False, "characters"),
        (None, False, "None"), (True, False, "True"), (False, True, "False"), (float("nan"), False, "finite"),
        (np.float64("inf"), False, "finite"), (Decimal("NaN"), False, "finite"), ([1], False, "list"), ("1,2", False, "1,2"),
        (Fraction(3, 2), True, "integer"), (np.float64(1.5), True, "integer"), (Decimal("1E+999999999"), False, "finite"),
    ],
)
def test_parse_number_refuses_what_is_not_one_number(value, integer, needle):
    with pytest.raises(BadParameter) as raised:
        parse_number("eps0", value, integer=integer)
    message = str(raised.value)
    assert isinstance(raised.value, ParameterError) and isinstance(raised.value, UsageError)
    assert message.startswith("eps0 = ") and needle in message and "\n" not in message


def test_no_silent_rounding_or_reading_of_numbers(capsys):
    # n = 1.5 was computed at n = 2 by bounds; eps0=1_0 was read as 10; a repeated --param took one of them.
    one_line_error(*run_cli(capsys, "bounds", "--eps0", "1", "--n", "1.5", "--delta", "1e-6"), "n = '1.5'", "integer")
    one_line_error(*run_cli(capsys, "compare", "--eps0", "1", "--n", "1.5", "--delta", "1e-6"), "n = '1.5'")
    one_line_error(*run_cli(capsys, "eval", CLOSED, "--param", "eps0=1_0", *POINT), "eps0 = '1_0'")
    one_line_error(*run_cli(capsys, "eval", CLOSED, "--param", "eps0=1", "--param", "eps0=2", *POINT), "eps0", "twice")
    one_line_error(*run_cli(capsys, "calibrate", CLOSED, "--eps", "1_0", "--n", "100000", "--delta", "1e-6"), "eps = '1_0'")
    one_line_error(*run_cli(capsys, "bounds", "--eps0", "1_0", "--n", "1e4", "--delta", "1e-6"), "eps0 = '1_0'")


def test_derive_never_executes_arguments(capsys, tmp_path):
    marker = tmp_path / "PWNED"
    payloads = [
        f"__import__('os').system('touch {marker}')",
        f"__import__('pathlib').Path('{marker}').touch()",
        f"eps0.__class__.__init__.__globals__['os'].system('touch {marker}')",
        f"exec(\"open('{marker}', 'w')\")",
        f"(lambda: open('{marker}', 'w'))()",
        "[c for c in ().__class__.__base__.__subclasses__()]",
        f"open('{marker}', 'w')",
        "eps0[0]",
        "'abc'",
        "eps0 if n else delta",
    ]
    for payload in payloads:
        for argv in (["--expr", payload], ["--subs", f"eps0={payload}"], ["--series", f"n={payload}"]):
            code, out, err = run_cli(capsys, "derive", CLOSED, *argv)
            one_line_error(code, out, err, argv[0])
            assert not marker.exists(), argv
    with pytest.raises(UsageError):
        derive_command.derive(get_statement(CLOSED), expression=f"__import__('os').system('touch {marker}')")
    assert not marker.exists()


def test_derive_refuses_huge_powers_at_once(capsys):
    for expression in ("9**9**9**9", "9^9^9^9", "(10**999)**1000", "eps0**(10**9)", "1" * 60, "(" * 60 + "1" + ")" * 60, "eps0+" * 200 + "1"):
        with time_limit(30):  # a regression must fail the test, not hang it
            start = time.monotonic()
            code, out, err = run_cli(capsys, "derive", CLOSED, "--expr", expression)
        one_line_error(code, out, err, "--expr")
        assert time.monotonic() - start < 10


def test_derive_restricted_reader_still_reads_the_documented_forms():
    statement = get_statement(CLOSED)
    eps0 = statement.symbol("eps0")
    assert derive_command.derive(statement, subs={"eps0": "0.1"}).expression.free_symbols.isdisjoint({eps0})
    assert derive_command.parse_expression(statement, "2^3 + log(E) + 0.1") == sp.Rational(91, 10)
    assert derive_command.derive(statement, series="n=oo").leading_term is not None


def test_time_limit_is_a_library_helper_that_nests():
    assert derive_command.DerivationTimeout is TimeLimitExceeded and derive_command.time_limit is time_limit
    with pytest.raises(TimeLimitExceeded):
        with time_limit(0.2):
            while True:
                pass
    # An inner limit that ends in time leaves the outer one armed.
    with pytest.raises(TimeLimitExceeded):
        with time_limit(0.5):
            with time_limit(5):
                pass
            while True:
                pass
    with pytest.raises(ValueError, match="seconds"):
        with time_limit(0):
            pass


def test_a_time_limit_does_not_interrupt_an_import(tmp_path, monkeypatch):
    """An expiry inside an import left a half-initialised module: `tightest --time-budget 0.02` then failed with
    "internal error: ImportError: cannot load module more than once per process" (NumPy's) instead of the budget's
    line. The expiry waits for the import to finish, then ends the block."""
    import sys
    import time

    (tmp_path / "slow_to_import_module.py").write_text("import time\ntime.sleep(0.3)\nDONE = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    start = time.monotonic()
    with pytest.raises(TimeLimitExceeded):
        with time_limit(0.05):
            import slow_to_import_module  # noqa: F401 - the limit expires during this import
            time.sleep(5)
    assert sys.modules["slow_to_import_module"].DONE  # imported whole, not interrupted
    assert time.monotonic() - start < 3
    del sys.modules["slow_to_import_module"]


def test_no_except_exception_on_the_way_swallows_a_time_limit():
    """The limit's expiry must reach the end of its block whatever the code it interrupts catches: `tightest
    --time-budget 0.05` (or 0.2) ran its 90 s computation to the end because the alarm fired inside a
    `contextlib.suppress(Exception)` (the lower side's imports before the fork), which swallowed it, and the timer
    does not fire twice."""
    import contextlib
    import time

    start = time.monotonic()
    with pytest.raises(TimeLimitExceeded):
        with time_limit(0.2):
            with contextlib.suppress(Exception):
                time.sleep(1)  # the alarm fires here
            try:
                time.sleep(5)
            except Exception:  # noqa: BLE001 - a generic handler on the way must not end the limit either
                pass
    assert time.monotonic() - start < 3


def test_sweeps_are_capped_before_any_work(capsys, monkeypatch):
    from shuffle_spec.interface.cli.commands import bounds

    monkeypatch.setattr(bounds, "rows_at", lambda *a, **k: pytest.fail("computed before refusing"))
    one_line_error(*run_cli(capsys, "bounds", "--eps0", "1", "--n", "1e4:1e8:1000000", "--delta", "1e-6"), "COUNT", str(MAX_GRID_COUNT))
    many = ",".join(str(0.001 * i) for i in range(1, MAX_GRID_COUNT + 2))
    one_line_error(*run_cli(capsys, "bounds", "--eps0", many, "--n", "1e4", "--delta", "1e-6"), str(MAX_GRID_COUNT))
    one_line_error(*run_cli(capsys, "bounds", "--eps0", "0.1:1:20", "--n", "1e3:1e6:10", "--delta", "1e-9:1e-3:10"), "2000 points", str(MAX_POINTS))


@pytest.mark.parametrize("command", ["bounds", "compare"])
@pytest.mark.parametrize("eps0", ["1e308", "1e16", "1e20", str(EPS0_MAX * 2)])
def test_huge_eps0_is_refused_in_one_line(capsys, command, eps0):
    line = one_line_error(*run_cli(capsys, command, "--eps0", eps0, "--n", "1e4", "--delta", "1e-6"), "eps0", "supported range")
    assert f"{EPS0_MAX:g}" in line


def test_a_failing_reference_is_a_row_reason_not_a_traceback():
    base = get_statement("EFMRTT19.Thm7")
    for function, needle in (("overflowing_reference", "OverflowError"), ("non_finite_reference", "not a finite number")):
        statement = dataclasses.replace(base, reference=f"support.statements:{function}")
        for eps0 in (0.1, 0.4):
            result = evaluate(statement, {"eps0": eps0, "n": 10**6, "delta": 1e-6})
            assert not result.valid and result.value is None and needle in result.reason


def test_plot_checks_the_output_path_before_computing(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(plot_command, "series", lambda *a, **k: pytest.fail("computed before checking -o"))
    (tmp_path / "folder.png").mkdir()
    for target, needle in (("/nonexistent/dir/x.png", "does not exist"), (str(tmp_path / "folder.png"), "directory"), (str(tmp_path / "x.txt"), ".png")):
        one_line_error(*run_cli(capsys, "plot", "--eps0", "1", "--delta", "1e-6", "-o", target), "-o", needle)


API_FUNCTIONS = {
    "shuffled_epsilon": lambda **kw: api.shuffled_epsilon(CLOSED, **kw),
    "calibrate_epsilon0": lambda **kw: api.calibrate_epsilon0(CLOSED, **kw).value,
    "calibrate_n": lambda **kw: api.calibrate_n(CLOSED, **kw).value,
    "shuffled_delta": lambda **kw: api.shuffled_delta(CLOSED, **kw).value,
}
API_POINTS = {
    "shuffled_epsilon": {"eps0": 0.5, "n": 100_000, "delta": 1e-6},
    "calibrate_epsilon0": {"eps": 0.1, "n": 100_000, "delta": 1e-6},
    "calibrate_n": {"eps": 0.25, "eps0": 0.5, "delta": 1e-6},
    "shuffled_delta": {"eps": 0.1, "eps0": 0.5, "n": 100_000},
}


def _as(kind, value):
    """`value` as a number of another kind: numpy integer / float, Fraction, Decimal."""
    if kind == "numpy":
        return np.int64(value) if isinstance(value, int) else np.float64(value)
    if kind == "fraction":
        return Fraction(value)
    return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)


@pytest.mark.parametrize("function", sorted(API_FUNCTIONS))
def test_api_takes_numpy_fraction_and_decimal_numbers(function):
    call, point = API_FUNCTIONS[function], API_POINTS[function]
    expected = call(**point)
    for kind in ("numpy", "fraction", "decimal"):
        assert call(**{name: _as(kind, value) for name, value in point.items()}) == expected, kind


@pytest.mark.parametrize("function", sorted(API_FUNCTIONS))
def test_api_refuses_none_and_bool_naming_the_parameter(function):
    call, point = API_FUNCTIONS[function], API_POINTS[function]
    for name in point:
        for bad in (None, True, "1_0", float("nan")):
            with pytest.raises(ParameterError) as raised:
                call(**{**point, name: bad})
            assert str(raised.value).startswith(f"{name} = "), str(raised.value)


def test_api_audit_randomizer_and_list_statements_take_numbers():
    matrix = [["3/4", "1/4"], ["1/4", "3/4"]]
    def numbers(audit):  # timings differ from call to call; the numbers must not
        data = audit.to_json()
        return data["n"], data["delta"], [(b["id"], b["eps"]) for b in data["bounds"]], data["exact"]

    plain = numbers(api.audit_randomizer(matrix, n=6, delta=1e-3))
    assert numbers(api.audit_randomizer(matrix, n=np.int64(6), delta=Decimal("0.001"))) == plain
    with pytest.raises(ParameterError, match="^n = True"):
        api.audit_randomizer(matrix, n=True, delta=1e-3)
    assert [s.id for s in api.list_statements(paper="FMT21")] and api.list_statements(paper="NOPE") == []


def test_messages_name_the_right_parameter(capsys):
    line = one_line_error(*run_cli(capsys, "calibrate", CLOSED, "--target", "n", "--eps", "0.1", "--eps0", "0", "--delta", "1e-6"), "eps0 = ")
    assert not line.split("error: ")[1].startswith("eps =")
    one_line_error(*run_cli(capsys, "calibrate", CLOSED, "--eps", "0.1", "--n", "100000", "--delta", "0"), "delta = ")
    for command in (["compare", "--eps0", "1", "--n", "1e4"], ["bounds", "--eps0", "1", "--n", "1e4"]):
        one_line_error(*run_cli(capsys, *command, "--delta", "-1e-6"), "delta = ", "range")
    one_line_error(*run_cli(capsys, "calibrate", CLOSED, "--eps", "0.1", "--n", "100000", "--delta", "-1e-6"), "delta = ", "range")
    one_line_error(*run_cli(capsys, "eval", CLOSED, "--param", "eps0=nan", *POINT), "eps0 = 'nan'", "finite")
    one_line_error(*run_cli(capsys, "bounds", "--eps0", "nan", "--n", "1e4", "--delta", "1e-6"), "eps0 = 'nan'", "finite")
    line = one_line_error(*run_cli(capsys, "list", "--paper", "NOPE"), "NOPE")
    assert all(paper in line for paper in ("BBGN19", "EFMRTT19", "FMT21"))


def test_root_finder_message_is_never_shown_as_a_hypothesis():
    from shuffle_spec.reference.bounds.clones import clones_numeric

    try:  # below the CLI's range, straight into the reference: no sign change for the root finder there
        result = clones_numeric(eps0=1.0, n=10_000, delta=1e-305)
    except ValueError as failure:
        assert "f(a) and f(b)" not in str(failure)
    else:
        assert 0 <= result.lower <= result.upper <= 1.0  # never above eps0 (no amplification at worst)


@pytest.mark.parametrize("command", ["bounds", "compare", "calibrate", "plot", "eval"])
def test_help_states_the_supported_ranges(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "supported ranges" in text and f"eps0 <= {EPS0_MAX:g}" in text and "delta" in text


def test_caret_is_a_power_with_the_precedence_of_two_stars():
    statement = get_statement(CLOSED)
    eps0 = statement.symbol("eps0")
    assert derive_command.parse_expression(statement, "2*eps0^2") == 2 * eps0**2
    assert derive_command.parse_expression(statement, "2^3^2") == 2**9


def test_values_starting_with_a_minus_reach_the_command(capsys):
    code, out, err = run_cli(capsys, "derive", CLOSED, "--expr", "-eps0", "--latex")
    assert code in (0, 1) and out.strip() == r"- \varepsilon_0" and err == ""
    one_line_error(*run_cli(capsys, "eval", CLOSED, "--param", "eps0=1", "-p", "-1", *POINT), "NAME=VALUE")


def test_memory_is_bounded_when_run_as_a_program():
    # In a subprocess: the limit the command-line tool sets turns an allocation beyond it into a
    # MemoryError (which the CLI reports in one line) rather than exhausting the machine.
    script = (
        "from shuffle_spec.interface.limits import MEMORY_LIMIT_BYTES, limit_memory\n"
        "limit_memory()\n"
        "import resource, numpy as np\n"
        "assert resource.getrlimit(resource.RLIMIT_AS)[0] <= MEMORY_LIMIT_BYTES\n"
        "try:\n"
        "    np.ones(MEMORY_LIMIT_BYTES // 8 + 1)\n"
        "except MemoryError:\n"
        "    print('refused')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "refused", done.stderr
