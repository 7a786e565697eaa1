# backgammon's public Cython API: bear-off database indices, as GNU
# Backgammon numbers one side's home board (docs/cython-api.md).
#
#   bearoff_positions(checkers) -> positions of at most that many checkers (-1 outside 0..15)
#   bearoff_index(counts) -> index of six counts (points 1..6), -1 over 15 checkers
#   bearoff_counts(index, counts) -> 0, writing the six counts; -1 out of range
from backgammon._capi cimport BG_BEAROFF_POINTS, bearoff_positions, bearoff_index, bearoff_counts
