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
EXTENSIONS = ["_board", "_movegen", "_bearoff", "_rollout", "_pool", "_net"]


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
