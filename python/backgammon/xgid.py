"""XGIDs: ``backgammon.formats.xgid`` under its older module name."""
from .formats.xgid import (BOTTOM_PLAYER, DEFAULT_MAX_CUBE, TOP_PLAYER, InvalidXgidError, Xgid, parse_xgid,
                           read_xgid, write_xgid)

__all__ = ["Xgid", "InvalidXgidError", "read_xgid", "parse_xgid", "write_xgid",
           "BOTTOM_PLAYER", "TOP_PLAYER", "DEFAULT_MAX_CUBE"]
