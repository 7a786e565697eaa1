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
    for depth in range(1, args.depth + 1) if args.all else [args.depth]:
        t = time.perf_counter()
        n = perft(pos, depth)
        dt = time.perf_counter() - t
        print(f"perft({depth}) = {n}   ({dt:.3f} s)")
    return 0


def _rollout_options(args) -> dict:
    from .players import NetPlayer, player
    policy = args.policy
    if args.ply is not None:
        # The players name themselves: the networks at another depth are NetPlayer(ply).
        with player(policy, name="--policy") as chosen:
            if not isinstance(chosen, NetPlayer):
                raise ValueError("--ply: the depth of the network's search goes with --policy net")
        policy = NetPlayer(args.ply).spec
    cube_policy = None if args.cube_ply is None else NetPlayer(args.cube_ply).spec
    return dict(games=args.games, policy=policy, cube_policy=cube_policy, seed=args.seed, workers=args.workers,
                truncate=args.truncate, bearoff=args.bearoff, variance_reduction=not args.no_variance_reduction,
                progress=not args.json and sys.stderr.isatty())


def _describe(args, options) -> str:
    parts = [f"{options['games']:,} games", f"policy {options['policy']}"]
    if options["cube_policy"]:
        parts.append(f"cube decisions {options['cube_policy']}")
    parts.append(f"seed {args.seed}")
    parts.append("variance reduction" if options["variance_reduction"] else "no variance reduction")
    if args.truncate is not None:
        parts.append(f"truncated after {args.truncate} plies")
    if args.bearoff:
        parts.append("stopped at the bear-off tables")
    return ", ".join(parts)


def _print_rollout(pos: Position, result, args, options) -> None:
    print(f"Rollout of {pos.to_id()}: {_describe(args, options)}")
    print("Chances of the side on roll (gammons include backgammons):")
    rows = [("win", result.win, result.win_se), ("  win gammon", result.win_gammon, result.win_gammon_se),
            ("  win backgammon", result.win_backgammon, result.win_backgammon_se),
            ("lose", result.lose, result.win_se),
            ("  lose gammon", result.lose_gammon, result.lose_gammon_se),
            ("  lose backgammon", result.lose_backgammon, result.lose_backgammon_se)]
    print(f"{'':20}{'chance':>9}{'std err':>10}")
    for name, value, se in rows:
        print(f"{name:20}{value:9.4f}{se:10.4f}")
    print(f"{'cubeless equity':20}{result.equity:+9.4f}{result.equity_se:10.4f}"
          + (f"   (without variance reduction: {result.raw_equity:+.4f}, std err {result.raw_equity_se:.4f})"
             if result.variance_reduction else ""))
    if result.cubeful:
        what = "cubeful match equity" if result.mwc is not None else "cubeful equity"
        print(f"{what:20}{result.cubeful_equity:+9.4f}{result.cubeful_equity_se:10.4f}")
        if result.mwc is not None:
            print(f"{'match winning chance':20}{result.mwc:9.4f}{result.mwc_se:10.4f}")
    print(f"{result.games_per_second:,.0f} games/s ({result.seconds:.2f} s)")


def _parse_plays(text: str):
    """``topN`` / ``all`` / plays separated by commas."""
    if text == "all":
        return None, 10 ** 6
    if text.startswith("top") and text[3:].isdigit():
        return None, int(text[3:])
    return [p.strip() for p in text.split(",") if p.strip()], 0


def _rollout(args) -> int:
    from .matchid import MatchState
    from .rollouts import RolloutInterrupted, rollout, rollout_cube, rollout_plays
    pos = Position.from_id(args.position)
    options = _rollout_options(args)
    state = MatchState.from_match_id(args.match) if args.match else None
    cube = args.cube or state is not None
    head = {"position": pos.to_id(), "match": state.to_match_id() if state else None, "seed": args.seed,
            **{k: v for k, v in options.items() if k != "progress"}}
    try:
        if args.roll is not None:
            plays, top = _parse_plays(args.plays or "top5")
            ranked = rollout_plays(pos, args.roll, plays, top=top or 5, cube=cube, state=state, **options)
            if args.json:
                print(json.dumps({**head, "roll": args.roll, "cube": cube, "plays": [r.to_dict() for r in ranked]}))
                return 0
            d1, d2 = pos.legal_plays(args.roll).roll
            unit = "cubeful equity" if cube else "cubeless equity"
            print(f"Rollout of the plays of {d1}-{d2} from {pos.to_id()}: {_describe(args, options)}; "
                  f"the same dice for every play")
            print(f"{'':4}{'play':<28}{unit:>16}{'std err':>9}{'difference':>12}{'std err':>9}")
            for k, r in enumerate(ranked, 1):
                print(f"{k:>3}. {str(r.play) or '(no legal move)':<28}{r.equity:+16.4f}{r.equity_se:9.4f}"
                      f"{r.difference:+12.4f}{r.difference_se:9.4f}")
            return 0
        if args.cube:
            d = rollout_cube(pos, state, **options)
            if args.json:
                print(json.dumps({**head, "cube": d.to_dict()}))
                return 0
            unit = "normalised match equity" if state is not None and state.match_length else \
                "equity per unit of the cube"
            print(f"Cube rollout of {pos.to_id()}: {_describe(args, options)}; the same dice for no double "
                  f"and double/take ({unit})")
            for name, value, se in (("No double", d.no_double, d.no_double_se),
                                    ("Double, take", d.double_take, d.double_take_se),
                                    ("Double, pass", d.double_pass, 0.0)):
                print(f"  {name:<14}{value:+.4f}  (std err {se:.4f})")
            print(f"  Proper cube action: {d.action}; the opponent should {d.take}")
            for name, error in d.errors.items():
                if error > 0:
                    print(f"  {name}: loses {error:.4f}")
            return 0
        result = rollout(pos, cube=cube, state=state, **options)
    except RolloutInterrupted as stop:
        print(f"backgammon rollout: interrupted after {stop.games:,} games", file=sys.stderr)
        partial = stop.partial
        if partial is not None and not args.json and not isinstance(partial, list):
            _print_rollout(pos, partial, args, options)
        return 130
    except KeyboardInterrupt:               # before the first game was under way
        print("backgammon rollout: interrupted after 0 games", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps({**head, "perspective": "side on roll", **result.to_dict()}))
        return 0
    _print_rollout(pos, result, args, options)
    return 0


def _hint(args) -> int:
    from .hint import hint
    from .matchid import MatchState
    pos = Position.from_id(args.position)
    if args.roll is None:
        state = MatchState.from_match_id(args.match) if args.match else None
        d = hint(pos, None, args.ply, state=state)
        print(f"Cube decision at {args.ply}-ply for the side on roll of {pos.to_id()}"
              + (f" ({state.match_length}-point match, score {state.score[0]}-{state.score[1]})"
                 if state is not None and state.match_length else " (money)") + ":")
        w, wg, wb, lg, lb = d.probabilities
        print(f"  cubeless chances: {w:.3f} {wg:.3f} {wb:.3f} - {1 - w:.3f} {lg:.3f} {lb:.3f}")
        unit = "normalised match equity" if d.mwc else "equity per unit of the cube"
        rows = [("No double", d.no_double), ("Double, take", d.double_take), ("Double, pass", d.double_pass)]
        best = max(d.no_double, min(d.double_take, d.double_pass))
        for i, (name, value) in enumerate(rows):
            mwc = f"   MWC {d.mwc[i] * 100:6.2f}%" if d.mwc else ""
            print(f"  {i + 1}. {name:<14}{value:+.4f} ({value - best:+.4f}){mwc}")
        print(f"  Proper cube action: {d.action}" + (f" ({d.reason})" if d.reason else "")
              + f"; the opponent should {d.take}" + (f"  [{unit}]" if d.mwc else ""))
        return 0
    ranked = hint(pos, args.roll, args.ply)
    d1, d2 = pos.legal_plays(args.roll).roll
    print(f"Plays of {d1}-{d2} from {pos.to_id()}, best first (cubeless equity of the side on roll):")
    for i, r in enumerate(ranked[:args.top] if args.top else ranked, 1):
        e = r.evaluation
        text = str(r.play) or "(no legal move)"
        diff = f"({r.difference:+.3f})" if i > 1 else ""
        print(f"{i:>4}. {r.ply}-ply  {text:<28} Eq.: {r.equity:+.3f} {diff}")
        print(f"        {e.win:.3f} {e.win_gammon:.3f} {e.win_backgammon:.3f} - "
              f"{e.lose:.3f} {e.lose_gammon:.3f} {e.lose_backgammon:.3f}")
    return 0


def _duel(args) -> int:
    from .duel import DuelInterrupted, duel
    try:
        r = duel(args.a, args.b, games=args.games, seed=args.seed, workers=args.workers,
                 progress=not args.json and sys.stderr.isatty(), record=args.save is not None)
    except DuelInterrupted as stop:
        print("backgammon duel: interrupted" + (f" after {stop.partial.games:,} games" if stop.partial else ""),
              file=sys.stderr)
        return 130
    if args.save:
        from .formats.mat import save_duel
        save_duel(args.save, r)
    if args.json:
        print(json.dumps(r.to_dict()))
        return 0
    print(f"{r.a} against {r.b}: {r.games:,} cubeless money games with duplicate dice, seed {args.seed}")
    print(f"  {r.a}: {r.ppg:+.3f} points per game (standard error {r.ppg_se:.3f})")
    print(f"  wins {r.a_wins:.1%} / {r.b_wins:.1%}; gammons {r.a_gammons:.1%} / {r.b_gammons:.1%}; "
          f"backgammons {r.a_backgammons:.1%} / {r.b_backgammons:.1%}")
    print(f"  {r.games / r.seconds:,.0f} games/s ({r.seconds:.1f} s)"
          + (f"; games saved to {args.save}" if args.save else ""))
    return 0


def _serve(args) -> int:
    try:
        from .web import main as serve
    except ImportError as e:
        raise ValueError(f"the web server needs the web extra: pip install 'backgammon[web]' ({e})") from None
    return serve(args.host, args.port, args.open)


def _ubgi(args) -> int:
    from .players import player
    from .ubgi import serve
    player(args.player, name="--player").close()     # a bad spec fails before the protocol starts
    serve(sys.stdin, sys.stdout, args.player)
    return 0


def _read_match_file(path: str, source_format=None):
    """A match file's record, its format from its name (or given)."""
    from .formats import for_path, get, match_formats
    fmt = get(source_format) if source_format else for_path(path)
    if fmt is None or fmt.kind != "match":
        names = ", ".join(f.name for f in match_formats())
        raise ValueError(f"cannot tell the format of {path} from its name; give --from ({names})")
    with open(path, "rb") as f:
        data = f.read()
    try:
        return fmt.read(data, partial=True)
    except fmt.error as e:
        raise ValueError(f"{path}: {e}") from None


def _analyse(args) -> int:
    from .analysis import analyse
    from .rollouts import RolloutSettings
    record = _read_match_file(args.file, args.source_format)
    rollout = RolloutSettings(games=args.rollout_games, seed=args.seed, workers=args.workers,
                              truncate=args.rollout_truncate) if args.rollout else None
    progress = not args.json and (sys.stderr.isatty() or args.progress)
    result = analyse(record, ply=args.ply, cube_ply=args.cube_ply, rollout=rollout, workers=args.workers,
                     progress=progress)
    if args.sgf:
        from .formats.sgf import write_sgf
        with open(args.sgf, "w", encoding="utf-8") as f:
            f.write(write_sgf(record, analysis=result))
    if args.json:
        print(result.to_json())
    else:
        print(result.report(threshold=args.threshold, diagrams=not args.no_diagrams), end="")
    return 0


def _convert(args) -> int:
    import inspect
    import os
    from .formats import for_path, get, match_formats
    source = get(args.source_format) if args.source_format else for_path(args.input)
    target = get(args.to) if args.to else for_path(args.output)
    names = ", ".join(f.name for f in match_formats())
    if source is None:
        raise ValueError(f"cannot tell the format of {args.input} from its name; give --from ({names})")
    if target is None or target.write is None:
        writable = ", ".join(f.name for f in match_formats() if f.write is not None)
        raise ValueError(f"cannot write {args.output}: give a name ending in .mat or .sgf, or --to ({writable})")
    if source.kind != "match" or target.kind != "match":
        raise ValueError(f"convert reads and writes match files ({names})")
    with open(args.input, "rb") as f:
        data = f.read()
    options = {"partial": args.partial}
    if args.strict:
        if "strict" not in inspect.signature(source.read).parameters:
            raise ValueError(f"--strict: the {source.name} reader has no warnings to make errors of")
        options["strict"] = True
    try:
        record = source.read(data, **options)      # every match reader takes the file's bytes
    except source.error as e:
        raise ValueError(f"{args.input}: {e}") from None
    for w in getattr(record, "warnings", ()):
        print(f"{args.input}: warning: {w}", file=sys.stderr)
    text = target.write(record)
    tmp = args.output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(tmp, args.output)
    games = len(record.games)
    print(f"{args.input} -> {args.output}: {games} game{'s' if games != 1 else ''}"
          f"{', ' + str(len(record.warnings)) + ' warnings' if getattr(record, 'warnings', ()) else ''}")
    return 0


def _train(args) -> int:
    from .train import train
    with _executor(args.dask) as executor:
        result = train(args.games, seed=args.seed, out=args.out, checkpoint=args.checkpoint,
                       resume=not args.restart, alpha=args.alpha, half_life=args.half_life,
                       contact_hidden=args.contact_hidden, race_hidden=args.race_hidden,
                       crashed_hidden=args.crashed_hidden, layout=args.layout, explore=args.explore,
                       explore_within=args.explore_within, td_lambda=args.td_lambda,
                       refine_rounds=args.refine_rounds,
                       refine_games=args.refine_games, rounds=args.rounds, positions=args.positions,
                       label_games=args.label_games, label_truncate=args.label_truncate,
                       prune_games=args.prune_games, workers=args.workers,
                       executor=executor, threads=args.threads, progress=sys.stderr.isatty() or args.progress)
    rounds = f", {result.rounds} rounds ({result.labels:,} labels)" if result.rounds else ""
    print(f"trained {result.games:,} games in total{rounds}; {result.seconds:,.0f} s in this run; "
          f"weights in {result.out}")
    return 0


class _executor:
    """A Dask client's executor for ``--dask ADDRESS`` (None without it),
    closed on exit."""

    def __init__(self, address):
        self.address, self.client = address, None

    def __enter__(self):
        if self.address is None:
            return None
        try:
            from dask.distributed import Client
        except ImportError:
            raise SystemExit("--dask needs Dask: pip install 'backgammon[dist]'") from None
        self.client = Client(self.address)
        return self.client.get_executor()

    def __exit__(self, *exc):
        if self.client is not None:
            self.client.close()


def _at_least(option: str, low: int):
    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{option} takes a whole number, not {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{option} must be >= {low}, not {value}")
        return value
    return read


def _positive(option: str):
    return _at_least(option, 1)


def build_parser() -> argparse.ArgumentParser:
    from . import __version__
    parser = argparse.ArgumentParser(prog="backgammon", description="A fast backgammon engine core.")
    parser.add_argument("--version", action="version", version=f"backgammon {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("rollout", help="roll out a position, the plays of a roll, or a cube decision")
    p.add_argument("position", nargs="?", default=INITIAL_ID, help="GNU Position ID (default: the opening)")
    p.add_argument("roll", nargs="?", default=None,
                   help="the dice, e.g. 31: roll out the plays of that roll (see --plays)")
    p.add_argument("--games", type=_positive("--games"), default=1296, help="games to play (default 1296)")
    p.add_argument("--policy", default="net", metavar="SPEC",
                   help="who plays both sides, a player spec: net (default: the shipped network, 0-ply), "
                        "net:1, net:2, pubeval, random, gnubg, ubgi:COMMAND or a registered player")
    p.add_argument("--ply", type=_at_least("--ply", 0), choices=[0, 1, 2], default=None,
                   help="the network's search depth for checker play (net:K)")
    p.add_argument("--cube-ply", type=_at_least("--cube-ply", 0), choices=[0, 1, 2], default=None,
                   help="the network's search depth for cube decisions (default: the checker players')")
    p.add_argument("--plays", default=None, metavar="WHICH",
                   help="with ROLL: topN (default top5) of the 0-ply ranking, all, or plays separated by commas")
    p.add_argument("--cube", action="store_true",
                   help="cubeful: without ROLL, roll out no double, double/take and double/pass")
    p.add_argument("--match", default=None, metavar="MATCHID",
                   help="GNU Match ID: the cube, score and match length (a cubeful rollout)")
    p.add_argument("--truncate", type=_at_least("--truncate", 0), default=None, metavar="PLY",
                   help="stop each game after PLY plies and score it with the player's evaluator")
    p.add_argument("--bearoff", action="store_true",
                   help="stop a game once both sides bear off and count the bear-off tables' chances")
    p.add_argument("--no-variance-reduction", action="store_true",
                   help="no variance reduction (it is on by default)")
    p.add_argument("--workers", type=_positive("--workers"), default=None, help="local processes (default: all cores)")
    p.add_argument("--seed", type=_at_least("--seed", 0), default=0, help="seed >= 0 (default 0): same seed, same result")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=_rollout)
    p = sub.add_parser("moves", help="list the legal plays of a roll from a position")
    p.add_argument("position", help="GNU Position ID (the opening is 4HPwATDgc/ABMA)")
    p.add_argument("roll", help="the dice, e.g. 31 or 3-1")
    p.add_argument("-q", "--quiet", action="store_true", help="do not draw the board")
    p.set_defaults(run=_moves)
    p = sub.add_parser("perft", help="count the leaves of the game tree (all 21 rolls, all plays)")
    p.add_argument("position", nargs="?", default=INITIAL_ID, help="GNU Position ID (default: the opening)")
    p.add_argument("--depth", type=_at_least("--depth", 0), default=2, help="plies to expand (default 2)")
    p.add_argument("--all", action="store_true", help="print every depth from 1 up")
    p.set_defaults(run=_perft)
    p = sub.add_parser("hint", help="rank the plays of a roll, or give the cube action without a roll")
    p.add_argument("position", help="GNU Position ID (the side on roll to play)")
    p.add_argument("roll", nargs="?", default=None, help="the dice, e.g. 31; leave out for the cube decision")
    p.add_argument("--ply", type=_at_least("--ply", 0), default=0, choices=[0, 1, 2], help="search depth (0-2)")
    p.add_argument("--match", default=None, metavar="MATCHID", help="GNU Match ID for match play (cube hint)")
    p.add_argument("--top", type=_at_least("--top", 0), default=0, help="show only the best N plays")
    p.set_defaults(run=_hint)
    p = sub.add_parser("duel", help="compare two players over cubeless games with duplicate dice")
    p.add_argument("a", help="player spec: random, pubeval, net, net:1, net:2, gnubg, ubgi:COMMAND or a "
                             "registered player")
    p.add_argument("b", help="the other player's spec")
    p.add_argument("--games", type=_positive("--games"), default=1000, help="games, an even number (default 1000)")
    p.add_argument("--seed", type=_at_least("--seed", 0), default=0, help="seed >= 0 (default 0)")
    p.add_argument("--workers", type=_positive("--workers"), default=None, help="local processes (default: all cores)")
    p.add_argument("--save", default=None, metavar="FILE.mat", help="write the games as a .mat money session")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=_duel)
    p = sub.add_parser("serve", help="the game in the browser and the JSON engine API (needs the web extra)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only)")
    p.add_argument("--port", type=_at_least("--port", 0), default=8000, help="port (default 8000)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.set_defaults(run=_serve)
    p = sub.add_parser("ubgi", help="speak the UBGI engine protocol on standard input and output")
    p.add_argument("--player", default="net:1", help="the player behind the engine (default net:1)")
    p.set_defaults(run=_ubgi)
    p = sub.add_parser("analyse", help="grade every play and cube decision of a match file (.mat, .sgf, .xg)")
    p.add_argument("file", help="the match file")
    p.add_argument("--from", dest="source_format", default=None, help="the file's format: mat, sgf or xg")
    p.add_argument("--ply", type=int, choices=(0, 1, 2), default=2, help="checker play search depth (default 2, as gnubg's)")
    p.add_argument("--cube-ply", type=int, choices=(0, 1, 2), default=None,
                   help="cube decision search depth (default: --ply)")
    p.add_argument("--threshold", type=float, default=0.04,
                   help="list the plays and cube decisions losing at least this much (default 0.04)")
    p.add_argument("--no-diagrams", action="store_true", help="no position diagrams in the report")
    p.add_argument("--json", action="store_true", help="print everything as one JSON object")
    p.add_argument("--sgf", metavar="OUT", default=None, help="also write the match with the analysis as SGF")
    p.add_argument("--rollout", action="store_true",
                   help="check the errors of 0.08 or more by rolling out their candidates")
    p.add_argument("--rollout-games", type=_positive("--rollout-games"), default=324,
                   help="games per candidate of those rollouts (default 324)")
    p.add_argument("--rollout-truncate", type=_at_least("--rollout-truncate", 0), default=None,
                   help="truncate those rollouts after this many plies")
    p.add_argument("--seed", type=_at_least("--seed", 0), default=0, help="seed of the rollouts (default 0)")
    p.add_argument("--workers", type=_positive("--workers"), default=None,
                   help="local processes (default: all cores)")
    p.add_argument("--progress", action="store_true", help="show the progress bar even when not a terminal")
    p.set_defaults(run=_analyse)
    p = sub.add_parser("convert", help="convert a match file (.mat, .sgf, .xg) to .mat or SGF")
    p.add_argument("input", help="the match file to read (its format from its name, or --from)")
    p.add_argument("output", help="the file to write (.mat or .sgf, or --to)")
    p.add_argument("--from", dest="source_format", default=None, help="the input's format: mat, sgf or xg")
    p.add_argument("--to", default=None, help="the output's format: mat or sgf")
    p.add_argument("--strict", action="store_true", help="refuse a file the reader would have to mend")
    p.add_argument("--partial", action="store_true", help="accept a match that stops before its end")
    p.set_defaults(run=_convert)
    p = sub.add_parser("train", help="train the networks by self-play (resumable)")
    p.add_argument("--games", type=_positive("--games"), required=True, help="self-play games in total")
    p.add_argument("--seed", type=_at_least("--seed", 0), default=0, help="seed >= 0 (default 0): same seed, same weights")
    p.add_argument("--out", default="nets.npz", help="weight file to write (default nets.npz)")
    p.add_argument("--checkpoint", default=None, help="checkpoint file (default OUT.ckpt)")
    p.add_argument("--restart", action="store_true", help="ignore an existing checkpoint")
    p.add_argument("--alpha", type=float, default=0.1, help="initial step size (default 0.1)")
    p.add_argument("--half-life", type=int, default=200_000, help="games over which the step size falls")
    p.add_argument("--contact-hidden", type=int, default=128, help="hidden units of the contact network")
    p.add_argument("--race-hidden", type=int, default=64, help="hidden units of the race network")
    p.add_argument("--crashed-hidden", type=int, default=128,
                   help="hidden units of the crashed network (0: none, contact answers)")
    p.add_argument("--layout", type=int, choices=(1, 2), default=2, help="input layout (default 2)")
    p.add_argument("--explore", type=float, default=0.0,
                   help="chance that a self-play decision plays another play near the best (default 0)")
    p.add_argument("--explore-within", type=float, default=0.1,
                   help="equity from the best within which such a play is chosen (default 0.1)")
    p.add_argument("--td-lambda", type=float, default=0.0,
                   help="TD(lambda) returns learnt at the end of each self-play game (default 0: TD(0))")
    p.add_argument("--refine-rounds", type=_at_least("--refine-rounds", 0), default=0,
                   help="rounds of search distillation after the self-play games (default 0)")
    p.add_argument("--refine-games", type=_positive("--refine-games"), default=4000,
                   help="self-play games whose positions each round learns (default 4000)")
    p.add_argument("--rounds", type=_at_least("--rounds", 0), default=0,
                   help="rollout-supervised rounds after the refinement rounds (default 0)")
    p.add_argument("--positions", type=_at_least("--positions", 2), default=20_000,
                   help="positions each round labels (default 20000)")
    p.add_argument("--label-games", type=_positive("--label-games"), default=36,
                   help="games of each label's rollout (default 36)")
    p.add_argument("--label-truncate", type=_at_least("--label-truncate", 0), default=10,
                   help="plies of each label's rollout (default 10)")
    p.add_argument("--prune-games", type=_at_least("--prune-games", 0), default=4000,
                   help="self-play games whose plays the pruning network learns at the end (default 4000; 0: none)")
    p.add_argument("--workers", type=_positive("--workers"), default=None,
                   help="local processes that label (default: all cores)")
    p.add_argument("--dask", metavar="ADDRESS", default=None,
                   help="label on the Dask cluster whose scheduler is at ADDRESS")
    p.add_argument("--threads", type=_positive("--threads"), default=None,
                   help="threads for the 1-ply values of a round (default: all cores)")
    p.add_argument("--progress", action="store_true", help="show the progress bar even when not a terminal")
    p.set_defaults(run=_train)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except ValueError as e:
        print(f"backgammon {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"backgammon {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
