import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import corpus  # noqa: E402


@pytest.fixture(scope="session")
def pairs():
    return corpus.pairs()
