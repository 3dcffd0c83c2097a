"""The installed package: one top-level name, `shuffle_spec`, and a working command from a fresh venv.

Builds the wheel of this checkout, installs it (no dependencies: they come from the system site
packages) into a fresh `python3 -m venv --system-site-packages`, and checks what the install created
and that `python -m shuffle_spec` and the venv's own `shuffle-spec` entry point work from a directory
outside the checkout. Costs some seconds of pip: marked `slow` (still part of the default run).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from support.paths import ROOT
pytestmark = pytest.mark.slow


def _run(args: list[str], cwd: Path, **kw) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, **kw)
    assert result.returncode == 0, f"{' '.join(args)} failed:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
    return result


def _can_build_without_isolation() -> bool:
    """The installed setuptools can build this project by itself: it reads the SPDX `license` string (>= 77,
    as pyproject.toml's build requirement says) and writes a wheel without the `wheel` package (>= 70.1)."""
    import setuptools

    major, minor = (int(x) for x in setuptools.__version__.split(".")[:2])
    return (major, minor) >= (77, 0)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    work = tmp_path_factory.mktemp("packaging")
    wheels = work / "wheels"
    # Build from a copy: setuptools writes build/ and *.egg-info next to the sources it builds.
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__", ".hypothesis", ".pytest_cache"))
    # With the build tools at hand no index is needed; otherwise pip fetches the declared build
    # requirements (setuptools) from the configured index.
    isolation = ["--no-build-isolation"] if _can_build_without_isolation() else []
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "-q", "-w", str(wheels), str(source)], cwd=work)
    (wheel,) = wheels.glob("shuffle_spec-*.whl")
    venv = work / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], cwd=work)
    python = venv / "bin" / "python"
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=work).stdout.strip())
    before = {p.name for p in site.iterdir()}
    _run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)], cwd=work)
    after = {p.name for p in site.iterdir()}
    return {"work": work, "wheel": wheel, "venv": venv, "python": python, "created": after - before}


def test_the_install_creates_only_shuffle_spec(installed):
    created = {name for name in installed["created"] if name != "__pycache__"}
    assert {name for name in created if not name.endswith(".dist-info")} == {"shuffle_spec"}, created
    with zipfile.ZipFile(installed["wheel"]) as wheel:
        names = wheel.namelist()
        top_level = next(n for n in names if n.endswith(".dist-info/top_level.txt"))
        assert wheel.read(top_level).decode().split() == ["shuffle_spec"]
        assert {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")} == {"shuffle_spec"}
        # The code folders are inside the package, the data files travel with them, and nothing else does
        # (the repository root is the package: tests/, tools/, benchmarks/, docs/ and examples/ are not in it).
        for needed in ("shuffle_spec/__init__.py", "shuffle_spec/py.typed", "shuffle_spec/spec/registry.py", "shuffle_spec/reference/core/errors.py",
                       "shuffle_spec/interface/cli/main.py", "shuffle_spec/spec/catalog.json", "shuffle_spec/interface/vectors/schema.json",
                       "shuffle_spec/interface/vectors/data/index.json", "shuffle_spec/interface/vectors/data/SCHEMA.md"):
            assert needed in names
        # The committed test vectors travel as the data of shuffle_spec.interface.vectors.data: every one of them.
        committed = {p.name for p in (ROOT / "tests" / "vectors").iterdir() if p.suffix == ".json" or p.name == "SCHEMA.md"}
        assert {n.rsplit("/", 1)[1] for n in names if n.startswith("shuffle_spec/interface/vectors/data/")} == committed
        inside = {n.split("/")[1] for n in names if n.startswith("shuffle_spec/") and n.count("/") >= 1}
        assert inside == {"__init__.py", "__main__.py", "py.typed", "spec", "reference", "proofs_checks", "interface"}, inside


def test_every_code_folder_is_a_listed_package():
    """pyproject.toml lists the packages by hand (the root is the package: a search would also take tests/):
    every folder of the code with an __init__.py is listed, and nothing else."""
    import tomllib

    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(settings["packages"])
    # Data-only packages have no __init__.py; each is mapped to its folder, which holds no code.
    data_only = {name for name, folder in settings["package-dir"].items() if name != "shuffle_spec"}
    assert data_only == {"shuffle_spec.interface.vectors.data"} and not list((ROOT / "tests" / "vectors").glob("*.py"))
    listed -= data_only
    found = {"shuffle_spec"} | {
        "shuffle_spec." + ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("spec", "reference", "proofs_checks", "interface")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert listed == found


def test_the_installed_package_runs_from_outside_the_checkout(installed):
    python, work = str(installed["python"]), installed["work"]
    where = _run([python, "-c", "import shuffle_spec, shuffle_spec.spec.registry as r; print(shuffle_spec.__file__); print(r.catalog() is not None)"], cwd=work).stdout.split()
    assert where[0].startswith(str(installed["venv"])) and where[1] == "True"  # its own copy, catalog current
    listed = json.loads(_run([python, "-m", "shuffle_spec", "list", "--json"], cwd=work).stdout)
    assert any(s["id"] == "FMT21.Thm2.1" for s in listed)
    script = installed["venv"] / "bin" / "shuffle-spec"
    answer = json.loads(_run([str(script), "eval", "FMT21.Thm2.1", "-p", "eps0=1", "-p", "n=10000", "-p", "delta=1e-6", "--json"], cwd=work).stdout)
    assert answer["valid"] is True and answer["value"] > 0
    # The installed vectors are the package's own copy, and complete.
    folder = Path(_run([str(script), "vectors", "path"], cwd=work).stdout.strip())
    assert folder.is_relative_to(installed["venv"]) and (folder / "index.json").read_bytes() == (ROOT / "tests" / "vectors" / "index.json").read_bytes()
