"""Match records and ``.mat`` files: the names of ``backgammon.formats.record``
and ``backgammon.formats.mat`` under their older module name.

>>> from backgammon.mat import read_mat, MatchRecord
>>> MatchRecord().length
0
"""
from .formats.mat import MatFileError, read_mat, save_duel, write_mat
from .formats.record import MONEY_RULES, MatchFileError, MatchRecord, RecordedGame

__all__ = ["MatchRecord", "RecordedGame", "MatchFileError", "MatFileError", "read_mat", "write_mat",
           "save_duel", "MONEY_RULES"]
