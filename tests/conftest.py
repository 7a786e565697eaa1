"""Fixtures; the helpers live in helpers.py."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from backgammon import Position

sys.path.insert(0, os.path.dirname(__file__))
from helpers import make, rows  # noqa: E402,F401  (older tests import them from here)


@pytest.fixture
def initial():
    return Position.initial()


@pytest.fixture(scope="session")
def native_example(tmp_path_factory):
    """examples/native_evaluator (the ``tesauro_net`` package) built with
    scikit-build-core against the installed package, into a folder of its
    own, once a session: the folder (put it on ``sys.path`` or a child's
    PYTHONPATH)."""
    for module in ("scikit_build_core", "Cython"):
        pytest.importorskip(module)
    if shutil.which("cmake") is None:
        pytest.skip("cmake is not installed (pip install '.[test]' brings it)")
    target = tmp_path_factory.mktemp("example")
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    example = Path(__file__).resolve().parent.parent / "examples" / "native_evaluator"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps",
                           "--target", str(target), str(example)], capture_output=True, text=True, timeout=900,
                          env=env, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return target
