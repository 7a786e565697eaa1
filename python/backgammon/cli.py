"""The ``backgammon`` command line.

    backgammon rollout --games 10000       roll out the opening (the main job)
    backgammon moves 4HPwATDgc/ABMA 31     the legal plays of a roll
    backgammon perft --depth 2             count the game tree
"""
from __future__ import annotations

import argparse
import json
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


def _rollout(args) -> int:
    from .rollouts import POLICIES, rollout
    pos = Position.from_id(args.position)
    if args.games <= 0:
        raise ValueError(f"--games must be positive, not {args.games}")
    if args.policy not in POLICIES:
        raise ValueError(f"unknown policy {args.policy!r}: choose from {', '.join(POLICIES)}")
    if args.workers is not None and args.workers < 1:
        raise ValueError(f"--workers must be positive, not {args.workers}")
    if args.truncate is not None and args.truncate < 0:
        raise ValueError(f"--truncate must be >= 0, not {args.truncate}")
    result = rollout(pos, games=args.games, policy=args.policy, seed=args.seed, workers=args.workers,
                     truncate=args.truncate, progress=not args.json and sys.stderr.isatty())
    if args.json:
        print(json.dumps({"position": pos.to_id(), "policy": args.policy, "seed": args.seed, **result.to_dict()}))
        return 0
    print(f"Rollout of {pos.to_id()}: {result.games:,} games, policy {args.policy}, seed {args.seed}")
    rows = [("win", result.win, result.win_se), ("win gammon", result.win_gammon, result.win_gammon_se),
            ("win backgammon", result.win_backgammon, result.win_backgammon_se),
            ("lose gammon", result.lose_gammon, result.lose_gammon_se),
            ("lose backgammon", result.lose_backgammon, result.lose_backgammon_se)]
    print(f"{'':18}{'chance':>9}{'std err':>10}")
    for name, value, se in rows:
        print(f"{name:18}{value:9.4f}{se:10.4f}")
    print(f"{'cubeless equity':18}{result.equity:+9.4f}{result.equity_se:10.4f}")
    print(f"{result.games_per_second:,.0f} games/s ({result.seconds:.2f} s)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="backgammon", description="A fast backgammon engine core.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("rollout", help="roll out a position: chances, equity and standard errors")
    p.add_argument("position", nargs="?", default=INITIAL_ID, help="GNU Position ID (default: the opening)")
    p.add_argument("--games", type=int, default=1296, help="games to play (default 1296)")
    p.add_argument("--policy", default="pubeval", help="pubeval (default) or random")
    p.add_argument("--workers", type=int, default=None, help="local processes (default: all cores)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0): same seed, same result")
    p.add_argument("--truncate", type=int, default=None, help="stop at bear-off races from this ply on")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=_rollout)
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
