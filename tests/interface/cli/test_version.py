"""`shuffle-spec --version` prints the package's version (the one in pyproject.toml) and exits 0."""

import tomllib

import shuffle_spec
from support.cli import call
from support.paths import ROOT


def test_version_flag_prints_the_package_version():
    code, out, err, _ = call(["--version"])
    assert code == 0 and err == ""
    assert out.strip() == f"shuffle-spec {shuffle_spec.__version__}"


def test_the_package_version_is_the_declared_one():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    version = declared.get("version")
    if version is None:  # a dynamic version read from the package itself
        assert "version" in declared.get("dynamic", [])
    else:
        assert shuffle_spec.__version__ == version
