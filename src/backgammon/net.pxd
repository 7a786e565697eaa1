# backgammon's public Cython API: the networks (docs/cython-api.md).
#
#   networks_get(obj) -> const bg_networks*   GIL; obj a Networks (None: the
#       shipped ones), which the caller keeps alive; TypeError otherwise
#   scratch_new() / scratch_free(s)          one bg_scratch per thread
#   networks_evaluate(nets, board, out, s)   five float chances at 0-ply
#   networks_best_child(nets, children, n, best, s) -> index of the best play
#   networks_class(board) -> 0 over, 1 bear-off, 2 race, 3 contact, 4 crashed
from backgammon._capi cimport (bg_networks, bg_scratch, BG_OUTPUTS, networks_get, scratch_new, scratch_free,
                               networks_evaluate, networks_best_child, networks_class, chances_equity)
