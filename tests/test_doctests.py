"""The examples in the docstrings are true."""
import doctest
import importlib

import pytest

MODULES = ["backgammon", "backgammon.position", "backgammon.play", "backgammon.dice",
           "backgammon.batch", "backgammon.perft", "backgammon.sample", "backgammon.bearoff",
           "backgammon.game", "backgammon.match", "backgammon.chouette", "backgammon.rules",
           "backgammon.rollouts", "backgammon.matchid", "backgammon.met"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
    assert result.attempted > 0
