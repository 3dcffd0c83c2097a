"""Progress on stderr for long work (tqdm bars), forced by --progress or SHUFFLE_SPEC_PROGRESS=1 when stderr is not
a terminal: stderr shows the bar, stdout is the same as without it. And a missing optional dependency is said
before any work."""

import sys

import pytest

from shuffle_spec.interface.cli.commands import plot
from shuffle_spec.interface.cli.progress_bar import ENVIRONMENT_VARIABLE, bars_wanted
from support.cli import call

# A closed form inverted by bisection: milliseconds, but the same code path as the seconds-long inversions.
CALIBRATE = ["calibrate", "FMT21.Thm2.1", "--eps", "0.5", "--n", "1000", "--delta", "1e-6"]


def test_bars_are_off_by_default_off_a_terminal_and_forced_by_the_flag_or_the_environment(monkeypatch):
    monkeypatch.delenv(ENVIRONMENT_VARIABLE, raising=False)
    assert not bars_wanted()  # the tests' stderr is not a terminal
    assert bars_wanted(forced=True)
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, "1")
    assert bars_wanted()
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, "0")
    assert not bars_wanted() and bars_wanted(forced=True)


@pytest.mark.parametrize("how", ["flag before the command", "flag after it", "environment"])
def test_a_forced_bar_shows_on_stderr_and_leaves_stdout_unchanged(how, monkeypatch):
    monkeypatch.delenv(ENVIRONMENT_VARIABLE, raising=False)
    code, plain_out, plain_err, _ = call(CALIBRATE)
    assert code == 0 and plain_err == ""
    if how == "environment":
        monkeypatch.setenv(ENVIRONMENT_VARIABLE, "1")
        argv = CALIBRATE
    else:
        argv = ["--progress", *CALIBRATE] if how == "flag before the command" else [*CALIBRATE, "--progress"]
    code, out, err, _ = call(argv)
    assert code == 0 and out == plain_out
    assert "solving for eps0" in err and "step" in err  # the bisection's tqdm bar


def test_plot_without_matplotlib_says_so_before_any_work(monkeypatch, tmp_path):
    monkeypatch.setattr(plot.importlib.util, "find_spec", lambda name: None if name == "matplotlib" else pytest.fail(name))
    monkeypatch.setattr(plot, "series", lambda *a, **k: pytest.fail("computed before saying matplotlib is missing"))
    monkeypatch.setattr(plot, "parse_grid", lambda *a, **k: pytest.fail("read the grid before saying matplotlib is missing"))
    registry = sys.modules["shuffle_spec.spec.registry"].registry
    built_before = registry.cache_info().currsize
    code, out, err, _ = call(["plot", "--eps0", "1", "--delta", "1e-6", "-o", str(tmp_path / "out.png")])
    assert code == 2 and out == "" and err.strip() == f"shuffle-spec plot: error: {plot.MISSING_MATPLOTLIB}"
    # The checks before it read the statement catalogue: the SymPy registry (seconds to build) was not built.
    assert registry.cache_info().currsize == built_before
