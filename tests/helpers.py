"""Shared test helpers: positions built from readable point lists, a
script (a benchmark or a training tool) loaded as a module."""
import importlib.util
import sys
from pathlib import Path

import numpy as np

from backgammon import Position


def make(me=None, opp=None, me_bar=0, opp_bar=0) -> Position:
    """A position from ``{point: count}`` dicts, each side counting its own
    points (RULES 1.1); ``me`` is on roll.  Checkers not placed are off."""
    board = np.zeros((2, 25), dtype=np.int64)
    for point, n in (me or {}).items():
        board[1, point - 1] = n
    for point, n in (opp or {}).items():
        board[0, point - 1] = n
    board[1, 24] = me_bar
    board[0, 24] = opp_bar
    return Position.from_array(board)


def load_script(path: Path):
    """The script at ``path`` (not a package module: benchmarks/, training/)
    loaded as the module ``STEM_under_test``."""
    spec = importlib.util.spec_from_file_location(path.stem + "_under_test", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def rows(plays):
    """The mover's rows after each play, as a set of point->count dicts."""
    out = set()
    for p in plays:
        mine = p.position.array[0]  # the mover is row 0 once the view is swapped
        out.add(tuple((i + 1, int(c)) for i, c in enumerate(mine) if c))
    return out


# -- driving the real GNU Backgammon engine (the gnubg package) ----------------------

def gnubg_dice():
    """The dice of gnubg's last roll, from its match record (a roll that
    cannot be played is passed at once, so the Match ID no longer shows it)."""
    from gnubg import _gnubg
    for record in reversed(_gnubg.match(0, 0, 0, 0)["games"][-1]["game"]):
        if "dice" in record:
            return tuple(record["dice"])
    raise AssertionError("gnubg has no roll on record")


def gnubg_move(play) -> str:
    """gnubg's ``move`` command for a play: each checker step on its own."""
    def point(p):
        return "bar" if p == 25 else "off" if p == 0 else str(p)
    return "move " + " ".join(f"{point(f)}/{point(t)}" for f, t in play.moves)
