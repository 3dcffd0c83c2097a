"""The README is current: its statements table matches the registry, its two set-up commands are
the ones `.ci/run` runs."""

from pathlib import Path

from shuffle_spec.proofs_checks.readme_table import replace_table

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()

INSTALL_AND_RUN = "python3 -m pip install -e . && shuffle-spec"
INSTALL_AND_TEST = "python3 -m pip install -e '.[test]' && python3 -m pytest"


def test_statements_table_is_current():
    assert replace_table(README) == README, "run `python -m proofs_checks.readme_table --write`"


def test_readme_gives_the_two_setup_commands():
    assert f"\n{INSTALL_AND_RUN}\n" in README
    assert f"\n{INSTALL_AND_TEST}\n" in README


def test_ci_runs_the_readme_test_command():
    assert INSTALL_AND_TEST in (ROOT / ".ci" / "run").read_text()
