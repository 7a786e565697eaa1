"""Perft: counting the game tree.

Type stub for the Cython extension module built from src/backgammon/_perft.pyx.
"""
MAX_PERFT_DEPTH: int


def perft(board: bytes, depth: int) -> int:
    """Leaves of the tree expanding all 21 rolls into all distinct plays."""
