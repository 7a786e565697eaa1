# backgammon's public Cython API: legal plays (docs/cython-api.md).
#
#   movegen_new() -> bg_movegen*     NULL when out of memory; one thread at a time
#   movegen_free(g)
#   movegen_plays(g, board, d1, d2, children, moves, mover_view) -> count
#       children: room for BG_MAX_PLAYS x 50 bytes (or NULL: count only);
#       moves: BG_MAX_PLAYS x 12 int8 (or NULL); results from the next
#       mover's view unless mover_view; the order of batch.legal_positions
#   movegen_dice_used(g) -> dice the last call's plays use
# None of them needs the GIL; board must be valid (board_check == 0).
from backgammon._capi cimport (bg_movegen, BG_MAX_PLAYS, BG_BOARD_BYTES, BG_MOVE_BYTES, movegen_new,
                               movegen_free, movegen_plays, movegen_dice_used)
