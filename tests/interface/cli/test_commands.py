"""The tool's commands: bounds (sweeps, CSV, JSON), calibrate, derive and plot.

Expected numbers come from the test statements' closed forms (see `tests/support/statements.py`):
V1: eps = 12 eps0 sqrt(log(1/delta)/n); GAMMA: 2 * integral_{-oo}^{1/2} eps0/2 e^{-eps0 (1 - y)} dy,
whose closed form is e^{-eps0/2} (BBGN19 Lemma 5.1, Laplace).
"""

import builtins
import csv
import io
import json
import math

import pytest
import sympy as sp

from support import statements as fx
from shuffle_spec.interface.cli.main import main
from shuffle_spec.interface.cli.commands.bounds import parse_grid
from shuffle_spec.interface.cli.commands.derive import derive, python_function
from shuffle_spec.interface.cli.commands.plot import MISSING_MATPLOTLIB
from shuffle_spec.proofs_checks.bridge import UsageError


@pytest.fixture(autouse=True)
def registry(monkeypatch):
    fx.install(monkeypatch)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def v1(eps0, n, delta):
    return 12 * eps0 * math.sqrt(math.log(1 / delta) / n)


def test_parse_grid():
    assert parse_grid("1e4:1e8:5", "n", integer=True) == [10**4, 10**5, 10**6, 10**7, 10**8]
    assert parse_grid("0.5,1,2", "eps0") == [0.5, 1.0, 2.0]
    assert parse_grid("3", "eps0") == [3.0]
    grid = parse_grid("1e-9:1e-3", "delta")
    assert len(grid) == 9 and grid[0] == 1e-9 and grid[-1] == 1e-3
    for bad in ("a,b", "1:2:3:4", "5:1", "0:1"):
        with pytest.raises(UsageError):
            parse_grid(bad, "n")


def test_bounds_json_reports_values_and_failed_hypotheses(capsys):
    code, out, _ = run(capsys, "bounds", "--eps0", "0.25,0.6", "--n", "10000", "--delta", "1e-6", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["points"]) == 2
    first = {b["id"]: b for b in data["points"][0]["bounds"]}
    assert first[fx.V1.id]["eps"] == pytest.approx(v1(0.25, 10_000, 1e-6), rel=1e-14) and first[fx.V1.id]["valid"]
    assert first[fx.TRIVIAL.id]["eps"] == 0.25
    second = {b["id"]: b for b in data["points"][1]["bounds"]}
    assert not second[fx.V1.id]["valid"] and "eps0 < 1/2" in second[fx.V1.id]["reason"]


def test_bounds_csv_sweep_has_one_row_per_point_and_bound(capsys):
    code, out, _ = run(capsys, "bounds", "--eps0", "0.25", "--n", "1e3:1e5:3", "--delta", "1e-6", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(rows) == 3 * 2
    for row in rows:
        if row["id"] == fx.V1.id:
            assert float(row["eps"]) == pytest.approx(v1(0.25, int(row["n"]), 1e-6), rel=1e-14)


def test_bounds_usage_errors(capsys):
    assert run(capsys, "bounds", "--eps0", "1", "--n", "1e4", "--delta", "1e-6", "--randomizer", "nonsense")[0] == 2
    assert run(capsys, "bounds", "--eps0", "1", "--n", "1e4", "--delta", "1e-6", "--randomizer", "krr")[0] == 2


def test_calibrate_cli(capsys):
    code, out, _ = run(capsys, "calibrate", fx.V1.id, "--eps", "0.1", "--n", "10000", "--delta", "1e-6", "--json")
    data = json.loads(out)
    optimum = 0.1 / (12 * math.sqrt(math.log(1e6) / 1e4))
    assert code == 0 and data["target"] == "eps0" and optimum * (1 - 1e-8) <= data["value"] <= optimum
    code, out, _ = run(capsys, "calibrate", fx.V1.id, "--target", "n", "--eps", "0.1", "--eps0", "0.25", "--delta", "1e-6", "--json")
    assert json.loads(out)["value"] == math.ceil(144 * 0.25**2 * math.log(1e6) / 0.01)
    assert run(capsys, "calibrate", fx.V1.id, "--target", "n", "--eps", "0.1")[0] == 2
    assert run(capsys, "calibrate", fx.GAMMA.id, "--eps", "0.1", "--n", "10", "--delta", "0.1")[0] == 2


def test_derive_series_solve_and_exports():
    derivation = derive(fx.V1, series="n=oo")
    eps0, n, delta = (fx.V1.symbol(name) for name in ("eps0", "n", "delta"))
    assert sp.simplify(derivation.leading_term - 12 * eps0 * sp.sqrt(sp.log(1 / delta)) / sp.sqrt(n)) == 0
    solved = derive(fx.V1, solve="n")
    eps = fx.V1.output
    assert len(solved.solutions) == 1 and sp.simplify(solved.solutions[0] - 144 * eps0**2 * sp.log(1 / delta) / eps**2) == 0
    code = python_function(fx.V1, fx.V1.value)
    namespace: dict = {}
    exec(code, namespace)  # noqa: S102 - our own generated code
    function = namespace["efmrtt19_thm97"]
    assert function(eps0=0.25, n=10_000, delta=1e-6) == pytest.approx(v1(0.25, 10_000, 1e-6), rel=1e-15)
    with pytest.raises(ValueError, match="eps0 < 1/2"):
        function(eps0=0.6, n=10_000, delta=1e-6)


def test_derive_substitution_is_exact():
    # delta = e^-9 < 1/100 (V1's hypothesis; e^-4 ~ 0.018 is outside it and refused).
    derivation = derive(fx.V1, subs={"eps0": "0.25", "delta": "exp(-9)"})
    n = fx.V1.symbol("n")
    assert sp.simplify(derivation.expression - 9 / sp.sqrt(n)) == 0  # 12 * 1/4 * sqrt(9 / n)
    with pytest.raises(ValueError, match="delta < 1/100"):
        derive(fx.V1, subs={"eps0": "0.25", "delta": "exp(-4)"})


def test_derive_evaluates_the_laplace_blanket_integral(capsys):
    eps0 = fx.GAMMA.symbol("eps0")
    assert sp.simplify(derive(fx.GAMMA).expression - sp.exp(-eps0 / 2)) == 0
    code, out, _ = run(capsys, "derive", fx.GAMMA.id, "--latex")
    assert code == 0 and out.strip() == r"e^{- \frac{\varepsilon_0}{2}}"


def test_derive_says_plainly_when_sympy_cannot_solve(capsys, monkeypatch):
    # eps0 appears inside and outside the exponential and a sine: no closed-form solution.
    value = fx.eps0 * sp.exp(fx.eps0) + sp.log(fx.eps0) + sp.sin(fx.eps0)
    statement = fx.Statement(
        id="EFMRTT19.Thm98",
        kind=fx.Kind.THEOREM,
        title="transcendental test",
        source=fx.Source("EFMRTT19", "test"),
        symbols=(fx.eps0, fx.eps),
        hypotheses=(),
        conclusion=(sp.Eq(fx.eps, value),),
        direction=fx.Direction.UPPER_BOUND,
        reference="support.statements:trivial_bound",
        inputs=(fx.eps0,),
        output=fx.eps,
        value=value,
    )
    fx.install(monkeypatch, (*fx.ALL, statement))
    code, out, _ = run(capsys, "derive", statement.id, "--solve", "eps0")
    assert code == 1 and "cannot: SymPy" in out


def test_derive_python_cli(capsys):
    code, out, _ = run(capsys, "derive", fx.V1.id, "--python")
    assert code == 0 and out.startswith('"""EFMRTT19.Thm97: ') and "def efmrtt19_thm97(*, eps0: float, n: int, delta: float) -> float:" in out
    namespace: dict = {}
    exec(out, namespace)  # noqa: S102 - our own generated code
    assert namespace["efmrtt19_thm97"](eps0=0.25, n=10_000, delta=1e-6) >= v1(0.25, 10_000, 1e-6) * (1 - 1e-15)


def test_plot_without_matplotlib_says_how_to_install(capsys, monkeypatch, tmp_path):
    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    code, out, err = run(capsys, "plot", "--eps0", "0.25", "--delta", "1e-6", "--n", "1e3:1e5:3", "-o", str(tmp_path / "x.png"))
    assert code == 2 and out == "" and MISSING_MATPLOTLIB in err and "pip install 'shuffle-spec[plot]'" in err
    assert not (tmp_path / "x.png").exists()


def test_plot_csv_data_needs_no_matplotlib(capsys):
    code, out, _ = run(capsys, "plot", "--eps0", "0.25", "--delta", "1e-6", "--n", "1e3:1e5:3", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    v1_rows = [r for r in rows if r["series"] == fx.V1.id]
    assert code == 0 and [int(r["n"]) for r in v1_rows] == [1000, 10_000, 100_000]


def test_plot_renders_a_png(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "eps.png"
    code, out, _ = run(capsys, "plot", "--eps0", "0.25", "--delta", "1e-6", "--n", "1e3:1e6:7", "-o", str(target))
    assert code == 0 and out.strip() == str(target)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and target.stat().st_size > 10_000


def test_derive_expr_is_compared_with_the_closed_form(capsys):
    assert derive(fx.V1, expression="12*eps0*sqrt(log(1/delta))/sqrt(n)").matches_value is True
    code, out, _ = run(capsys, "derive", fx.V1.id, "--expr", "11*eps0*sqrt(log(1/delta)/n)")
    assert code == 1 and "equals the statement's closed form: NO" in out
    # An integration variable (y) that is not a parameter is allowed in --expr.
    code, out, _ = run(capsys, "derive", fx.GAMMA.id, "--expr", "2*Integral(eps0/2*exp(-eps0*(1-y)), (y, -oo, 1/2))", "--json")
    assert code == 0 and json.loads(out)["matches_value"] is True
