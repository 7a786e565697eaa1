"""Fixtures; the helpers live in helpers.py."""
import os
import sys

import pytest

from backgammon import Position

sys.path.insert(0, os.path.dirname(__file__))
from helpers import make, rows  # noqa: E402,F401  (older tests import them from here)


@pytest.fixture
def initial():
    return Position.initial()
