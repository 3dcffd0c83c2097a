"""Static types through the face, as a user sees them: the wheel of this checkout installed into a fresh venv
(`--system-site-packages`: mypy and the dependencies come from there), then mypy on a small user file outside
the checkout. `reveal_type` of public calls must be the real types (not Any), and a misspelt keyword or a wrong
annotation must be an error: the face imports every public name under TYPE_CHECKING and ships `py.typed`.
A wheel build and a mypy run cost tens of seconds: second tier."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from support.paths import ROOT

pytestmark = pytest.mark.slow

USER_FILE = '''\
import shuffle_spec

eps = shuffle_spec.shuffled_epsilon("FMT21.clones_numeric", eps0=1.0, n=1000, delta=1e-6)
reveal_type(eps)
reveal_type(shuffle_spec.certify("generic", eps0=1.0, n=1000, delta=1e-6, rounds=10))
reveal_type(shuffle_spec.ShuffleBound("compose.clones", eps0=1.0, n=1000, rounds=10).get_delta(0.5))
reveal_type(shuffle_spec.composed_delta("compose.clones", rounds=10, eps0=1.0, n=1000, eps=0.5))
reveal_type(shuffle_spec.tightest(randomizer="generic", eps0=1.0, n=1000, delta=1e-6))
shuffle_spec.shuffled_epsilon("FMT21.clones_numeric", epsilon0=1.0, n=1000, delta=1e-6)
x: str = shuffle_spec.shuffled_epsilon("FMT21.clones_numeric", eps0=1.0, n=1000, delta=1e-6)
shuffle_spec.certify("krr", eps0=1.0, n=1000, delta=1e-6, round=10)
reveal_type(shuffle_spec.audit_randomizer([["3/4", "1/4"], ["1/4", "3/4"]]))
reveal_type(shuffle_spec.tightest_randomizer([["3/4", "1/4"], ["1/4", "3/4"]], n=100, delta=1e-6))
'''


def _run(args: list[str], cwd: Path, check: bool = True) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "MYPYPATH")}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    if check:
        assert result.returncode == 0, f"{' '.join(args)} failed:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
    return result


def test_mypy_on_a_wheel_install_sees_the_real_types(tmp_path):
    pytest.importorskip("mypy")
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__", ".hypothesis", ".pytest_cache", ".mypy_cache"))
    wheels = tmp_path / "wheels"
    # With setuptools >= 77 at hand no index is needed (the SPDX `license` string); otherwise pip fetches the
    # declared build requirement, as tests/project/test_packaging.py does.
    import setuptools

    isolation = ["--no-build-isolation"] if tuple(int(x) for x in setuptools.__version__.split(".")[:2]) >= (77, 0) else []
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "-q", "-w", str(wheels), str(source)], cwd=tmp_path)
    (wheel,) = wheels.glob("shuffle_spec-*.whl")
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], cwd=tmp_path)
    python = venv / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)], cwd=tmp_path)
    # mypy and the package's dependencies come from the environment running this test: a venv made from a venv sees
    # the BASE interpreter's packages only (--system-site-packages), which need not have them. A plain path line in a
    # .pth file puts this environment's site-packages after the new venv's own (its .pth files, among them an
    # editable install's import hook, are not processed), so the wheel's copy is the one found.
    inner = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=tmp_path).stdout.strip()
    (Path(inner) / "outer_environment.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    user = tmp_path / "user"
    user.mkdir()
    (user / "use.py").write_text(USER_FILE)
    result = _run([str(python), "-m", "mypy", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), "--no-error-summary", "use.py"], cwd=user, check=False)
    lines = result.stdout.splitlines()
    revealed = {int(line.split(":")[1]): line.split('Revealed type is "')[1].rstrip('"') for line in lines if "Revealed type is" in line}
    errors = {int(line.split(":")[1]): line for line in lines if ": error:" in line}
    assert set(revealed) == {4, 5, 6, 7, 8, 12, 13} and not any("Any" in shown for shown in revealed.values()), result.stdout
    assert revealed[4] == "shuffle_spec.interface.results.EpsilonBound", result.stdout
    assert revealed[5] == "shuffle_spec.interface.certify.Certification", result.stdout
    assert revealed[6] in ("float", "builtins.float"), result.stdout  # mypy versions spell the builtin differently
    assert "shuffle_spec.interface.results.DeltaInterval" in revealed[7], result.stdout  # a tuple[float, float] subclass
    assert revealed[8] == "shuffle_spec.interface.tightest.Gap", result.stdout
    # Both were typed `Any` before: a user's typo in an audit's field went unnoticed.
    assert revealed[12] == "shuffle_spec.interface.audit.randomizer.RandomizerAudit", result.stdout
    assert revealed[13] == "shuffle_spec.interface.randomizer_gap.RandomizerGap", result.stdout
    assert set(errors) == {9, 10, 11}, result.stdout  # the misspelt keyword, the wrong annotation, the misspelt rounds
    assert "eps0" in errors[9] and "str" in errors[10] and "round" in errors[11]
