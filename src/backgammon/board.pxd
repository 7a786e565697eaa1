# backgammon's public Cython API: the position array (docs/cython-api.md).
#
# A position is 50 bytes, uint8[2][25]: row 1 the side on roll, row 0 its
# opponent; index i is that side's point i + 1, index 24 its bar; checkers
# borne off are 15 minus the row's sum.  No function here needs the GIL.
#
#   board_check(board) -> 0, or the BoardProblem code of what is wrong
#   board_start(board)          writes the starting position
#   board_winner(board, &kind)  -> -1 while the game goes on, else the row
#                                  that is off (kind 1 single, 2 gammon, 3 backgammon)
#   chances_equity(p)           cubeless equity of five float chances (inline)
#   bg_api_version()            the loaded package's BG_API_VERSION
from backgammon._capi cimport (BG_POINTS, BG_BAR, BG_SLOTS, BG_CHECKERS, BG_BOARD_BYTES, BG_OUTPUTS,
                               BG_API_VERSION, bg_api_version, board_check, board_start, board_winner,
                               chances_equity)
