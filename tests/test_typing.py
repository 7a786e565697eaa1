"""The package type-checks: ``mypy python/backgammon`` (configured in
pyproject.toml) passes, with the ``.pyi`` stubs of the Cython extension
modules and the ``py.typed`` marker shipped next to the code."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "backgammon"
EXTENSIONS = ["_board", "_movegen", "_bearoff", "_rollout", "_pool", "_net", "_native", "_capi"]


def test_stubs_shipped():
    assert (PACKAGE / "py.typed").is_file()
    for name in EXTENSIONS:
        assert (PACKAGE / f"{name}.pyi").is_file(), f"no stub for backgammon.{name}"


def test_mypy_passes(tmp_path_factory):
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (pip install -e .[test])")
    # The cache lives in a temporary folder, outside the sources (pytest's
    # own cache may be switched off with -p no:cacheprovider).
    cache = tmp_path_factory.mktemp("mypy")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache), "python/backgammon"],
                          cwd=ROOT, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_users_script_passes_mypy_strict(tmp_path_factory):
    # The kernel-backed functions are typed for their users: a script
    # that calls them (tests/data/typed_user_script.py) passes
    # ``mypy --strict``, and a wrong annotation in it is caught.
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (pip install -e .[test])")
    import backgammon
    script = ROOT / "tests" / "data" / "typed_user_script.py"
    work = tmp_path_factory.mktemp("user")
    good = work / "user.py"
    good.write_text(script.read_text())
    bad = work / "bad.py"
    bad.write_text(script.read_text().replace("equity: float = one.equity", "equity: str = one.equity"))
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    # An editable install: mypy reads the sources (it runs no import hook);
    # an installed wheel is found in site-packages with its py.typed.
    parent = Path(backgammon.__file__).resolve().parent.parent
    if parent == ROOT / "python":
        env["MYPYPATH"] = str(parent)
    cache = tmp_path_factory.mktemp("mypy-user")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), str(good)],
                          cwd=work, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), str(bad)],
                          cwd=work, capture_output=True, text=True, env=env)
    assert done.returncode == 1 and 'variable has type "str"' in done.stdout, done.stdout
