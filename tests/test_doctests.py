"""The examples in the docstrings and in the README are true."""
import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import backgammon

MODULES = sorted(m.name for m in pkgutil.walk_packages(backgammon.__path__, "backgammon.")
                 if not m.name.split(".")[-1].startswith("_") or m.name.endswith("_validate"))
README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    try:
        module = importlib.import_module(name)
    except ImportError as e:          # an optional extra that is not installed
        if e.name in ("torch", "stable_baselines3", "sb3_contrib"):
            pytest.skip(f"{name} needs {e.name}, which the test extra leaves out (.ci/run installs it where it can)")
        pytest.fail(f"{name} does not import: {e}")
    result = doctest.testmod(module)
    assert result.failed == 0


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError as e:
        if e.name in ("torch", "stable_baselines3", "sb3_contrib"):
            return False
        raise
    return True


def test_most_modules_have_examples():
    with_examples = [n for n in MODULES if _importable(n) and doctest.testmod(importlib.import_module(n)).attempted]
    assert len(with_examples) >= 0.6 * len(MODULES)


def test_readme_python_blocks_run_as_written():
    # Every ```python block of the README, in order, in one namespace.
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 5
    namespace: dict = {}
    for i, block in enumerate(blocks):
        try:
            exec(compile(block, f"README.md python block {i + 1}", "exec"), namespace)
        except Exception as e:      # noqa: BLE001 -- say which block failed
            pytest.fail(f"README python block {i + 1} fails: {type(e).__name__}: {e}\n{block}")
