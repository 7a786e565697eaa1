"""gnubg's SGF match files: ``backgammon.formats.sgf`` under its older module name."""
from .formats.sgf import SgfFileError, read_sgf, write_sgf

__all__ = ["SgfFileError", "read_sgf", "write_sgf"]
