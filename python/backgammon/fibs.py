"""FIBS board lines: ``backgammon.formats.fibs`` under its older module name."""
from .formats.fibs import (DEFAULT_PLAYER, UNLIMITED, FibsBoard, InvalidFibsBoardError, read_fibs_board,
                           write_fibs_board)

__all__ = ["FibsBoard", "InvalidFibsBoardError", "read_fibs_board", "write_fibs_board", "UNLIMITED", "DEFAULT_PLAYER"]
