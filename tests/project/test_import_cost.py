"""What the cheap entry points cost: importing the package, the API and the catalog-backed CLI commands loads no
SymPy (it takes seconds and is needed only to evaluate or derive from a statement's formula).

Each check runs in a fresh child process, since this session has long imported SymPy through other tests.
"""

import subprocess
import sys
import textwrap

import pytest

# (what is done, the Python code that does it); each is followed by a check that SymPy is still not loaded.
ENTRY_POINTS = [
    ("import shuffle_spec", "import shuffle_spec"),
    ("import the API", "import shuffle_spec.interface.api"),
    ("import the randomizer audit", "import shuffle_spec.interface.audit.randomizer"),
    ("import the randomizer gap", "import shuffle_spec.interface.randomizer_gap"),
    (
        "run `shuffle-spec list --json`",
        """
        import contextlib, io
        from shuffle_spec.interface.cli.main import main
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["list", "--json"]) == 0
        """,
    ),
    (
        "run `shuffle-spec eval` of a catalogued statement",
        """
        import contextlib, io
        from shuffle_spec.interface.cli.main import main
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["eval", "FMT21.Thm2.1", "-p", "eps0=1", "-p", "n=1000", "-p", "delta=1e-6", "--json"]) == 0
        """,
    ),
]


@pytest.mark.parametrize("what, code", ENTRY_POINTS, ids=[what for what, _ in ENTRY_POINTS])
def test_no_sympy_is_loaded(what, code):
    program = textwrap.dedent(code) + "\nimport sys\nprint('sympy' in sys.modules)\n"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "False", f"{what} loads SymPy"


def test_the_check_sees_sympy_when_it_is_loaded():
    # The check itself can fail: a child that does load SymPy (through a statement's formula) prints True.
    program = "import shuffle_spec.spec.statement\nimport sys\nprint('sympy' in sys.modules)\n"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
