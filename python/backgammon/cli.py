"""The ``backgammon`` command line.

    backgammon moves 4HPwATDgc/ABMA 31     the legal plays of a roll
    backgammon perft --depth 2             count the game tree
"""
from __future__ import annotations

import argparse
import sys
import time

from .errors import InvalidPositionError  # noqa: F401  (documented error types)
from .perft import perft
from .position import Position

INITIAL_ID = "4HPwATDgc/ABMA"


def _moves(args) -> int:
    pos = Position.from_id(args.position)
    plays = pos.legal_plays(args.roll)
    if not args.quiet:
        print(pos)
        print()
    d1, d2 = plays.roll
    if not len(plays):
        print(f"The game is over: no plays for {d1}-{d2}.")
        return 0
    print(f"{len(plays)} distinct legal plays for {d1}-{d2}:")
    width = len(str(len(plays)))
    for i, play in enumerate(plays, 1):
        print(f"{i:>{width}}. {str(play) or '(no legal move: the turn passes)':<28} -> {play.position.to_id()}")
    return 0


def _perft(args) -> int:
    pos = Position.from_id(args.position)
    if args.depth < 0:
        raise ValueError("--depth must be >= 0")
    for depth in range(1, args.depth + 1) if args.all else [args.depth]:
        t = time.perf_counter()
        n = perft(pos, depth)
        dt = time.perf_counter() - t
        print(f"perft({depth}) = {n}   ({dt:.3f} s)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="backgammon", description="A fast backgammon engine core.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("moves", help="list the legal plays of a roll from a position")
    p.add_argument("position", help="GNU Position ID (the opening is 4HPwATDgc/ABMA)")
    p.add_argument("roll", help="the dice, e.g. 31 or 3-1")
    p.add_argument("-q", "--quiet", action="store_true", help="do not draw the board")
    p.set_defaults(run=_moves)
    p = sub.add_parser("perft", help="count the leaves of the game tree (all 21 rolls, all plays)")
    p.add_argument("position", nargs="?", default=INITIAL_ID, help="GNU Position ID (default: the opening)")
    p.add_argument("--depth", type=int, default=2, help="plies to expand (default 2)")
    p.add_argument("--all", action="store_true", help="print every depth from 1 up")
    p.set_defaults(run=_perft)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except ValueError as e:
        print(f"backgammon {args.command}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
