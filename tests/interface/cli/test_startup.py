"""`shuffle-spec --help` and `shuffle-spec COMMAND --help` import no SymPy, NumPy or SciPy and build no statement
registry: a fresh child process asks for every help page and then looks at its own `sys.modules`. And the k-RR and
Laplace `tightest` calls, which need NumPy and mpmath to compute, import no SymPy, no SciPy and no other command."""

import json
import subprocess
import sys
import textwrap


HEAVY = ("sympy", "numpy", "scipy", "shuffle_spec.spec.statement")
IMPORTS_SYMPY_FOR_HELP: set[str] = set()  # none: derive's front (commands/derive.py) holds its options

CHILD = textwrap.dedent(
    """
    import contextlib, io, json, sys
    from shuffle_spec.interface.cli.main import _command_names, main

    pages = {}
    for name in [None] + [c for c in _command_names() if c not in %r]:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            try:
                main([name, "--help"] if name else ["--help"])
            except SystemExit as stop:
                assert stop.code == 0, (name, stop.code)
        pages[name or ""] = out.getvalue()
    heavy = [m for m in %r if m in sys.modules]
    registry = sys.modules.get("shuffle_spec.spec.registry")
    built = registry is not None and registry.registry.cache_info().currsize > 0
    print(json.dumps({"pages": pages, "heavy": heavy, "registry_built": built}))
    """
) % (IMPORTS_SYMPY_FOR_HELP, HEAVY)


def test_every_help_page_is_printed_without_sympy_numpy_or_the_registry():
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["heavy"] == [] and report["registry_built"] is False, report["heavy"]
    top = report["pages"][""]
    # The top-level page still lists every command with its summary, though no command module was imported.
    for name, page in report["pages"].items():
        if name:
            assert f"usage: shuffle-spec {name}" in page
            assert f"    {name}" in top


# What a one-round k-RR or Laplace `tightest` needs is NumPy and mpmath: never SymPy or SciPy, another command's module,
# the API or the front door (`certify`, for the structured randomizers, matrices and rounds > 1).
NOT_ON_THE_TIGHTEST_PATH = ("sympy", "scipy", "shuffle_spec.spec.statement", "shuffle_spec.interface.cli.commands.compare",
                            "shuffle_spec.interface.api", "shuffle_spec.interface.certify")
TIGHTEST_CHILD = textwrap.dedent(
    """
    import contextlib, io, json, sys
    from shuffle_spec.interface.cli.main import main
    loaded = {}
    for randomizer in sys.argv[1:]:
        point = ["--k", "10"] if randomizer == "krr" else []
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["tightest", "--randomizer", randomizer, *point, "--eps0", "1", "--n", "1e4", "--delta", "1e-6", "--json"]) == 0
        loaded[randomizer] = [m for m in %r if m in sys.modules]
    loaded["numpy"] = "numpy" in sys.modules  # the check sees a module the call does load
    print(json.dumps(loaded))
    """
) % (NOT_ON_THE_TIGHTEST_PATH,)


def test_the_krr_and_laplace_tightest_calls_import_neither_sympy_scipy_nor_another_command():
    # One child process: the k-RR call first (what it alone loads), then the Laplace one.
    done = subprocess.run([sys.executable, "-c", TIGHTEST_CHILD, "krr", "laplace"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"krr": [], "laplace": [], "numpy": True}


def test_the_derive_help_states_the_expression_grammar_of_the_reader():
    """derive.py writes out the function names and the length limit of the expression reader (which imports SymPy)
    for its help: they must be the reader's."""
    from shuffle_spec.interface.cli.commands import derive
    from shuffle_spec.interface.derive.expressions import FUNCTIONS, MAX_CHARS

    assert list(derive.EXPRESSION_FUNCTIONS) == list(FUNCTIONS) and derive.EXPRESSION_MAX_CHARS == MAX_CHARS
    from shuffle_spec.interface.cli.commands import _derive

    assert derive.derive is _derive.derive  # the work's names reach the tests through the front


def test_the_tightest_command_module_imports_only_what_krr_needs():
    # The command's own imports (before any computation): no SymPy, SciPy, tqdm or jsonschema, and not the API /
    # front-door modules (`certify` is imported only for the structured randomizers, matrices and rounds > 1).
    code = textwrap.dedent(
        """
        import json, sys
        import shuffle_spec.interface.cli
        import shuffle_spec.interface.cli.main
        import shuffle_spec.interface.cli.commands.tightest
        names = ("sympy", "scipy", "tqdm", "jsonschema", "shuffle_spec.interface.api", "shuffle_spec.interface.certify")
        print(json.dumps([m for m in names if m in sys.modules]))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
