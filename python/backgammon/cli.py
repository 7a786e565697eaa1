"""The ``backgammon`` command line.

    backgammon rollout --games 10000       roll out the opening (the main job)
    backgammon moves 4HPwATDgc/ABMA 31     the legal plays of a roll
    backgammon perft --depth 2             count the game tree

Every command that takes a position takes any position code
(:func:`backgammon.formats.codes.read_position`).  A failure is one line
on standard error, ``backgammon COMMAND: error: ...``, with exit status 2
for a command line at fault (an option, a code, a roll) and 1 for a
failure while working (a file that cannot be read or written, an engine
that fails); paths are checked before any work starts, output files are
written whole or not at all, and a closed pipe ends the program quietly,
as Unix tools do.
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import signal
import sys
import tempfile
import time

from .errors import BackgammonError, FormatError, InvalidIdError, InvalidPositionError  # noqa: F401  (documented error types)
from .formats.codes import read_position
from .perft import perft
from .position import Position

INITIAL_ID = "4HPwATDgc/ABMA"

#: The exit status of a command line at fault (as argparse's) and of a failure while working.
USAGE, FAILURE = 2, 1


class CommandError(BackgammonError):
    """A failure to report in one line, with its exit status."""

    def __init__(self, message: str, status: int = FAILURE):
        super().__init__(message)
        self.status = status


def _usage(message: str) -> CommandError:
    return CommandError(message, USAGE)


def _code(args):
    """The position and the match state of the command's position code,
    with ``--match`` (a Match ID for a bare Position ID) applied."""
    from .matchid import MatchState
    pos, state = read_position(args.position)
    match = getattr(args, "match", None)
    if match:
        if state is not None:
            raise _usage(f"--match: {args.position!r} carries its own match state; give --match with a bare "
                         f"Position ID")
        state = MatchState.from_match_id(match)
    return pos, state


def _roll(args, state):
    """The roll to play: the ROLL argument, else the dice the code holds."""
    if args.roll is not None:
        return args.roll
    if state is not None and state.dice != (0, 0):
        return state.dice
    return None


def _check_input(path: str) -> None:
    """Refuse, before any work, an input file that cannot be read."""
    if not os.path.exists(path):
        raise CommandError(f"cannot read {path}: no such file")
    if os.path.isdir(path):
        raise CommandError(f"cannot read {path}: it is a directory")
    if not os.access(path, os.R_OK):
        raise CommandError(f"cannot read {path}: permission denied")


def _check_output(path: str, option: str = "") -> None:
    """Refuse, before any work, an output file that cannot be written."""
    where = f"{option}: " if option else ""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise CommandError(f"{where}cannot write {path}: it is a directory")
    if not os.path.isdir(folder):
        raise CommandError(f"{where}cannot write {path}: no directory {os.path.dirname(path) or folder}")
    if not os.access(folder, os.W_OK | os.X_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise CommandError(f"{where}cannot write {path}: permission denied")


def _write_atomically(path: str, text: str | bytes) -> None:
    """Write ``text`` (or bytes) to ``path`` whole or not at all: a
    temporary file in the same directory, renamed over ``path`` once
    complete."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    try:
        if isinstance(text, bytes):
            with os.fdopen(fd, "wb") as bout:
                bout.write(text)
        else:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
                out.write(text)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _moves(args) -> int:
    pos, state = _code(args)
    roll = _roll(args, state)
    if roll is None:
        raise _usage(f"give the roll, e.g. 'backgammon moves {args.position} 31' ({args.position!r} holds no dice)")
    plays = pos.legal_plays(roll)
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
    pos, _ = read_position(args.position)
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
                progress=_progress(args))


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


def _print_rollout(result) -> None:
    print("Chances of the side on roll (gammons include backgammons):")
    rows = [("win", result.win, result.win_se), ("  win gammon", result.win_gammon, result.win_gammon_se),
            ("  win backgammon", result.win_backgammon, result.win_backgammon_se),
            ("lose", result.lose, result.win_se),
            ("  lose gammon", result.lose_gammon, result.lose_gammon_se),
            ("  lose backgammon", result.lose_backgammon, result.lose_backgammon_se),
            ("cubeless equity", result.equity, result.equity_se)]
    if result.variance_reduction:
        rows.append(("  without variance reduction", result.raw_equity, result.raw_equity_se))
    if result.cubeful:
        what = "cubeful match equity" if result.mwc is not None else "cubeful equity"
        rows.append((what, result.cubeful_equity, result.cubeful_equity_se))
        if result.mwc is not None:
            rows.append(("match winning chance", result.mwc, result.mwc_se))
    print(f"{'':28}{'chance':>9}{'std err':>10}")
    for name, value, se in rows:
        sign = "+" if "equity" in name or "variance" in name else ""
        print(f"{name:28}{value:{sign}9.4f}{se:10.4f}")
    print(f"{result.games_per_second:,.0f} games/s ({result.seconds:.2f} s)")


def _parse_plays(text: str):
    """``topN`` / ``all`` / plays separated by commas."""
    if text == "all":
        return None, 10 ** 6
    if text.startswith("top") and text[3:].isdigit():
        return None, int(text[3:])
    return [p.strip() for p in text.split(",") if p.strip()], 0


def _wrap(text: str, width: int = 79) -> str:
    """``text`` in lines of at most ``width`` characters, broken after a
    comma or a semicolon only (so that "policy net" stays whole)."""
    pieces = re.split(r"(?<=[,;]) ", text)
    lines = [pieces[0]]
    for piece in pieces[1:]:
        if len(lines[-1]) + 1 + len(piece) > width:
            lines.append("  " + piece)
        else:
            lines[-1] += " " + piece
    return "\n".join(lines)


def _header(text: str, args) -> None:
    """A report's first lines, printed before the work (not with --json)."""
    if not args.json:
        print(_wrap(text), flush=True)


def _rollout(args) -> int:
    from .rollouts import RolloutInterrupted, rollout, rollout_cube, rollout_plays
    pos, state = _code(args)
    roll = _roll(args, state)
    if args.plays is not None and roll is None:
        raise _usage(f"--plays chooses among the plays of a roll: give the dice after the position, e.g. "
                     f"'backgammon rollout {args.position} 31 --plays {args.plays}'")
    options = _rollout_options(args)
    cube = args.cube or state is not None
    head = {"position": pos.to_id(), "match": state.to_match_id() if state else None, "seed": args.seed,
            **{k: v for k, v in options.items() if k != "progress"}}
    try:
        if roll is not None:
            plays, top = _parse_plays(args.plays or "top5")
            d1, d2 = pos.legal_plays(roll).roll
            unit = "cubeful equity" if cube else "cubeless equity"
            _header(f"Rollout of the plays of {d1}-{d2} from {pos.to_id()}: {_describe(args, options)}; "
                    f"the same dice for every play", args)
            ranked = rollout_plays(pos, roll, plays, top=top or 5, cube=cube, state=state, **options)
            if args.json:
                _print_json({**head, "roll": f"{d1}{d2}", "cube": cube, "plays": [r.to_dict() for r in ranked]})
                return 0
            print(f"{'':4}{'play':<28}{unit:>16}{'std err':>9}{'difference':>12}{'std err':>9}")
            for k, r in enumerate(ranked, 1):
                print(f"{k:>3}. {str(r.play) or '(no legal move)':<28}{r.equity:+16.4f}{r.equity_se:9.4f}"
                      f"{r.difference:+12.4f}{r.difference_se:9.4f}")
            return 0
        if args.cube:
            unit = "normalised match equity" if state is not None and state.match_length else \
                "equity per unit of the cube"
            _header(f"Cube rollout of {pos.to_id()}: {_describe(args, options)}; the same dice for no double "
                    f"and double/take ({unit})", args)
            d = rollout_cube(pos, state, **options)
            if args.json:
                _print_json({**head, "cube": d.to_dict()})
                return 0
            for name, value, se in (("No double", d.no_double, d.no_double_se),
                                    ("Double, take", d.double_take, d.double_take_se),
                                    ("Double, pass", d.double_pass, 0.0)):
                print(f"  {name:<14}{value:+.4f}  (std err {se:.4f})")
            print(f"  Proper cube action: {d.action}; the opponent should {d.take}")
            for name, error in d.errors.items():
                if error > 0:
                    print(f"  {name}: loses {error:.4f}")
            return 0
        _header(f"Rollout of {pos.to_id()}: {_describe(args, options)}", args)
        result = rollout(pos, cube=cube, state=state, **options)
    except RolloutInterrupted as stop:
        print(f"backgammon rollout: interrupted after {stop.games:,} games", file=sys.stderr)
        partial = stop.partial
        if partial is not None and not args.json and not isinstance(partial, list):
            _print_rollout(partial)
        return 130
    except KeyboardInterrupt:               # before the first game was under way
        print("backgammon rollout: interrupted after 0 games", file=sys.stderr)
        return 130
    if args.json:
        _print_json({**head, "perspective": "side on roll", **result.to_dict()})
        return 0
    _print_rollout(result)
    return 0


def _print_json(data) -> None:
    print(json.dumps(data))


def _hint(args) -> int:
    import dataclasses
    from .hint import hint
    pos, state = _code(args)
    roll = _roll(args, state)
    if roll is None:
        d = hint(pos, None, args.ply, state=state)
        if args.json:
            _print_json({"position": pos.to_id(), "match": state.to_match_id() if state else None, "ply": args.ply,
                         "cube": dataclasses.asdict(d)})
            return 0
        unit = "normalised match equity" if d.mwc else "equity per unit of the cube"
        print(_wrap(f"Cube decision at {args.ply}-ply for the side on roll of {pos.to_id()}"
                    + (f", {state.match_length}-point match, score {state.score[0]}-{state.score[1]}"
                       if state is not None and state.match_length else ", money") + f"; in {unit}:"))
        w, wg, wb, lg, lb = d.probabilities
        print(f"  cubeless chances: {w:.3f} {wg:.3f} {wb:.3f} - {1 - w:.3f} {lg:.3f} {lb:.3f}")
        rows = [("No double", d.no_double), ("Double, take", d.double_take), ("Double, pass", d.double_pass)]
        best = max(d.no_double, min(d.double_take, d.double_pass))
        for i, (name, value) in enumerate(rows):
            mwc = f"   MWC {d.mwc[i] * 100:6.2f}%" if d.mwc else ""
            print(f"  {i + 1}. {name:<14}{value:+.4f} ({value - best:+.4f}){mwc}")
        print(_wrap(f"  Proper cube action: {d.action}" + (f" ({d.reason})" if d.reason else "")
                    + f"; the opponent should {d.take}"))
        return 0
    ranked = hint(pos, roll, args.ply, state=state)      # a code with a score: ranked for that score
    d1, d2 = pos.legal_plays(roll).roll
    shown = ranked[:args.top] if args.top else ranked
    if args.json:
        _print_json({"position": pos.to_id(), "roll": f"{d1}{d2}", "ply": args.ply, "count": len(ranked),
                     "plays": [{"play": str(r.play), "position": r.play.position.to_id(), "ply": r.ply,
                                "equity": r.equity, "difference": r.difference, "cubeful": r.cubeful,
                                "mwc": r.mwc, "chances": dict(zip(("win", "win_gammon", "win_backgammon", "lose_gammon",
                                                     "lose_backgammon"), r.evaluation.probabilities))}
                               for r in shown]})
        return 0
    unit = "the cubeless equity" if state is None else \
        f"the cubeful normalised match equity at {state.score[0]}-{state.score[1]} of {state.match_length}" \
        if state.match_length else "the cubeful equity"
    print(_wrap(f"Plays of {d1}-{d2} from {pos.to_id()}, best first, in {unit} of the side on roll:"))
    for i, r in enumerate(shown, 1):
        e = r.evaluation
        text = str(r.play) or "(no legal move)"
        diff = f"({r.difference:+.3f})" if i > 1 else ""
        print(f"{i:>4}. {r.ply}-ply  {text:<28} Eq.: {r.equity:+.3f} {diff}")
        print(f"        {e.win:.3f} {e.win_gammon:.3f} {e.win_backgammon:.3f} - "
              f"{e.lose:.3f} {e.lose_gammon:.3f} {e.lose_backgammon:.3f}")
    return 0


def _duel(args) -> int:
    from .duel import DuelInterrupted, duel
    if args.save:
        _check_output(args.save, "--save")
    _header(f"{args.a} against {args.b}: {args.games:,} cubeless money games with duplicate dice, seed {args.seed}",
            args)
    try:
        r = duel(args.a, args.b, games=args.games, seed=args.seed, workers=args.workers,
                 progress=_progress(args), record=args.save is not None)
    except DuelInterrupted as stop:
        print("backgammon duel: interrupted" + (f" after {stop.partial.games:,} games" if stop.partial else ""),
              file=sys.stderr)
        return 130
    if args.save:
        from .formats.mat import write_mat
        _write_atomically(args.save, write_mat(r))
    if args.json:
        _print_json(r.to_dict())
        return 0
    print(f"  {r.a}: {r.ppg:+.3f} points per game (standard error {r.ppg_se:.3f})")
    print(f"  wins {r.a_wins:.1%} / {r.b_wins:.1%}; gammons {r.a_gammons:.1%} / {r.b_gammons:.1%}; "
          f"backgammons {r.a_backgammons:.1%} / {r.b_backgammons:.1%}")
    print(f"  {r.games / r.seconds:,.0f} games/s ({r.seconds:.1f} s)"
          + (f"; games saved to {args.save}" if args.save else ""))
    return 0


def _progress(args) -> bool:
    """Show a progress bar: on a terminal, or when asked, never with --json."""
    return not getattr(args, "json", False) and (sys.stderr.isatty() or getattr(args, "progress", False))


def _serve(args) -> int:
    try:
        from .web import main as serve
    except ImportError as e:
        raise CommandError(f"the web server needs the web extra: pip install 'backgammon[web]' ({e})") from None
    _check_port(args.host, args.port)
    return serve(args.host, args.port, args.open)


def _check_port(host: str, port: int) -> None:
    """Bind the address once before the server starts, so that a busy port
    is reported before the page's address is announced."""
    import socket
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise CommandError(f"cannot listen on {host}:{port}: {e.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)     # as the server sets it
        try:
            s.bind(address)
        except OSError as e:
            raise CommandError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None


def _ubgi(args) -> int:
    from .players import player
    from .ubgi import serve
    player(args.player, name="--player").close()     # a bad spec fails before the protocol starts
    serve(sys.stdin, sys.stdout, args.player)
    return 0


def _partial_advice(message: str) -> str:
    # The readers speak to Python callers; here the same advice is an option.
    return message.replace("partial=True", "--partial")


def _match_format(path: str, source_format=None, data: bytes | None = None):
    """The format of a match file: given, else told by its content (once
    read), else by its name."""
    from .formats import Format, detect, for_path, get, match_formats
    fmt: Format | None
    if source_format:
        fmt = get(source_format)
    elif data is not None:
        fmt = detect(data, path)        # by content, else by name
    else:
        fmt = for_path(path)
    if fmt is None or fmt.kind != "match":
        names = ", ".join(f.name for f in match_formats())
        raise _usage(f"cannot tell the format of {path} from its content or name; give --from ({names})")
    return fmt


def _check_match_input(path: str, source_format=None) -> None:
    """Refuse, before any work, a match file that cannot be read; a missing
    one whose name tells no format either is a usage error saying so."""
    if not source_format and not os.path.exists(path):
        _match_format(path)
    _check_input(path)


def _read_match_file(path: str, source_format=None, **options):
    """A match file's record, its format given, or told by its content or name."""
    with open(path, "rb") as f:
        data = f.read()
    fmt = _match_format(path, source_format, data)
    try:
        return fmt.read(data, **options)
    except fmt.error as e:
        raise CommandError(f"{path}: {_partial_advice(str(e))}") from None


def _analyse(args) -> int:
    from .analysis import analyse
    from .rollouts import RolloutSettings
    _check_match_input(args.file, args.source_format)
    if args.sgf:
        _check_output(args.sgf, "--sgf")
    record = _read_match_file(args.file, args.source_format, partial=True)
    rollout = RolloutSettings(games=args.rollout_games, seed=args.seed, workers=args.workers,
                              truncate=args.rollout_truncate) if args.rollout else None
    progress = _progress(args)
    if progress:
        games = len(record.games)
        print(f"Analysing {args.file}: {games} game{'s' if games != 1 else ''}, checker play at {args.ply}-ply, "
              f"cube decisions at {args.ply if args.cube_ply is None else args.cube_ply}-ply"
              + (f", errors of 0.08 or more rolled out ({args.rollout_games} games a candidate)"
                 if args.rollout else ""), file=sys.stderr, flush=True)
    result = analyse(record, ply=args.ply, cube_ply=args.cube_ply, rollout=rollout, workers=args.workers,
                     progress=progress)
    if args.sgf:
        from .formats.sgf import write_sgf
        _write_atomically(args.sgf, write_sgf(record, analysis=result))
    if args.json:
        print(result.to_json())
    else:
        print(result.report(threshold=args.threshold, diagrams=not args.no_diagrams), end="")
    return 0


def _convert(args) -> int:
    import inspect
    from .formats import for_path, get, match_formats
    _check_match_input(args.input, args.source_format)
    target = get(args.to) if args.to else for_path(args.output)
    names = ", ".join(f.name for f in match_formats())
    with open(args.input, "rb") as f:
        source = _match_format(args.input, args.source_format, f.read())
    if target is None or target.write is None:
        writable = ", ".join(f.name for f in match_formats() if f.write is not None)
        raise _usage(f"cannot write {args.output}: give a name ending in .mat or .sgf, or --to ({writable})")
    if source.kind != "match" or target.kind != "match":
        raise _usage(f"convert reads and writes match files ({names})")
    options = {"partial": args.partial}
    if args.strict:
        if "strict" not in inspect.signature(source.read).parameters:
            raise _usage(f"--strict: the {source.name} reader has no warnings to make errors of")
        options["strict"] = True
    _check_input(args.input)
    _check_output(args.output)
    record = _read_match_file(args.input, source.name, **options)
    for w in getattr(record, "warnings", ()):
        print(f"{args.input}: warning: {w}", file=sys.stderr)
    _write_atomically(args.output, target.write(record))     # OGXM is bytes
    games = len(record.games)
    print(f"{args.input} -> {args.output}: {games} game{'s' if games != 1 else ''}"
          f"{', ' + str(len(record.warnings)) + ' warnings' if getattr(record, 'warnings', ()) else ''}")
    return 0


def _train(args) -> int:
    from .train import train
    _check_output(args.out, "--out")
    if args.checkpoint:
        _check_output(args.checkpoint, "--checkpoint")
    print(f"Training {args.games:,} self-play games in total (seed {args.seed})"
          + (f", then {args.refine_rounds} refinement rounds" if args.refine_rounds else "")
          + (f", then {args.rounds} rollout-supervised rounds" if args.rounds else "")
          + f"; weights to {args.out}, resumable from {args.checkpoint or args.out + '.ckpt'}", flush=True)
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
                       executor=executor, threads=args.threads, progress=_progress(args))
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
            raise CommandError("--dask needs Dask: pip install 'backgammon[dist]'") from None
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


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Help as written: the examples keep their lines."""

    def __init__(self, prog, **kwargs):
        kwargs.setdefault("max_help_position", 30)
        super().__init__(prog, **kwargs)


class _Parser(argparse.ArgumentParser):
    """A subcommand's parser: its errors show its own usage, and an
    option it does not know is answered with the nearest it does."""

    def error(self, message: str):
        unknown = message.partition("unrecognized arguments: ")[2].split()
        if unknown:
            known = [o for a in self._actions for o in a.option_strings]
            near = [m for u in unknown if u.startswith("-") for m in difflib.get_close_matches(u.split("=")[0],
                                                                                             known, n=1)]
            if near:
                message += f" (did you mean {' or '.join(dict.fromkeys(near))}?)"
        self.print_usage(sys.stderr)
        self.exit(USAGE, f"{self.prog}: error: {message}\n")


POSITION_HELP = ("a position code: GNU Position ID, Position ID:Match ID, XGID with or without 'XGID=', or "
                 "FIBS board line (a bare XGID may start with '-'; '--' before a code works too)")

#: Each command's default search depth, and why they differ (docs/guide/cli.md has the same table).
DEFAULT_DEPTHS = {
    "rollout": ("--policy net", "0-ply: the fastest player, so more games in the time; the averaging over "
                                "many games, not the search, gives the accuracy"),
    "hint": ("--ply 0", "0-ply: an answer at once; --ply 1 and --ply 2 are stronger and slower"),
    "analyse": ("--ply 2", "2-ply: grading a whole match deserves the strongest search, as gnubg's analysis does"),
    "ubgi": ("--player net:1", "1-ply: an opponent that plays whole games, a play in a blink and stronger than 0-ply"),
}

EXAMPLES = {
    "rollout": """examples:
  backgammon rollout                                   the opening, 1,296 games, the shipped network
  backgammon rollout 4HPwATDgc/ABMA 31 --plays top3    the best three plays of an opening 3-1
  backgammon rollout XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10 --cube --truncate 10
  backgammon rollout 4HPwATDgc/ABMA --match cAkAAAAAAAAA --games 12960 --json""",
    "moves": """examples:
  backgammon moves 4HPwATDgc/ABMA 66                   the board and the 11 plays of 6-6
  backgammon moves 4HPwATDgc/ABMA:cIkFAAAAAAAE         the dice from the Match ID (3-1)
  backgammon moves -- -b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10""",
    "perft": """examples:
  backgammon perft --depth 3 --all                     447, 202782, 116154993 leaves""",
    "hint": """examples:
  backgammon hint 4HPwATDgc/ABMA 62 --ply 1            the plays of 6-2 ranked at 1-ply
  backgammon hint 4HPwATDgc/ABMA 62 --top 3 --json     the best three as JSON
  backgammon hint XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:4:0:7:10   the cube decision at 2-4 to 7""",
    "duel": """examples:
  backgammon duel net pubeval --games 2000 --seed 1
  backgammon duel net:1 gnubg --games 20000 --save games.mat""",
    "serve": """examples:
  backgammon serve --open                              play in the browser at http://127.0.0.1:8000/""",
    "ubgi": """examples:
  printf 'ubgi\\nposition gnubgid 4HPwATDgc/ABMA\\ndice 3 1\\ngo\\nquit\\n' | backgammon ubgi""",
    "analyse": """examples:
  backgammon analyse match.mat                         the report, errors of 0.04 or more
  backgammon analyse match.xg --ply 1 --sgf analysed.sgf --json""",
    "convert": """examples:
  backgammon convert match.xg match.mat
  backgammon convert session.txt session.sgf --from mat --partial""",
    "train": """examples:
  backgammon train --games 2000000 --seed 1 --refine-rounds 8 --out nets.npz   the shipped networks""",
}


def _why(command: str) -> str:
    option, reason = DEFAULT_DEPTHS[command]
    return f"default {option}: {reason}"


def build_parser() -> argparse.ArgumentParser:
    from . import __version__
    parser = argparse.ArgumentParser(
        prog="backgammon", description="A fast backgammon engine core.", formatter_class=_Formatter,
        epilog="Run 'backgammon COMMAND --help' for a command's options and examples.\n"
               "Exit status: 0 done, 1 a failure while working, 2 a command line at fault, 130 interrupted.")
    parser.add_argument("--version", action="version", version=f"backgammon {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")

    def command(name: str, help: str, **kwargs):
        epilog = EXAMPLES[name] + (f"\n\n{_why(name)}" if name in DEFAULT_DEPTHS else "")
        p = sub.add_parser(name, help=help, description=help[:1].upper() + help[1:] + ".", epilog=epilog,
                           formatter_class=_Formatter, **kwargs)
        p.set_defaults(parser=p)
        return p

    p = command("rollout", "roll out a position, the plays of a roll, or a cube decision")
    p.add_argument("position", nargs="?", default=INITIAL_ID, help=POSITION_HELP + " (default: the opening)")
    p.add_argument("roll", nargs="?", default=None,
                   help="the dice, e.g. 31: roll out the plays of that roll (see --plays; default: the code's "
                        "dice, if it holds any)")
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
                   help="GNU Match ID: the cube, score and match length (a cubeful rollout); a code with a match "
                        "state (Position ID:Match ID, XGID) gives its own")
    p.add_argument("--truncate", type=_at_least("--truncate", 0), default=None, metavar="PLY",
                   help="stop each game after PLY plies and score it with the player's evaluator")
    p.add_argument("--bearoff", action="store_true",
                   help="stop a game once both sides bear off and count the bear-off tables' chances")
    p.add_argument("--no-variance-reduction", action="store_true",
                   help="no variance reduction (it is on by default)")
    p.add_argument("--workers", type=_positive("--workers"), default=None, help="local processes (default: all cores)")
    p.add_argument("--seed", type=_at_least("--seed", 0), default=0, help="seed >= 0 (default 0): same seed, same result")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--progress", action="store_true", help="show the progress bar even when not a terminal")
    p.set_defaults(run=_rollout)
    p = command("moves", "list the legal plays of a roll from a position")
    p.add_argument("position", help=POSITION_HELP + " (the opening is 4HPwATDgc/ABMA)")
    p.add_argument("roll", nargs="?", default=None,
                   help="the dice, e.g. 31 or 3-1 (default: the code's dice, if it holds any)")
    p.add_argument("-q", "--quiet", action="store_true", help="do not draw the board")
    p.set_defaults(run=_moves)
    p = command("perft", "count the leaves of the game tree (all 21 rolls, all plays)")
    p.add_argument("position", nargs="?", default=INITIAL_ID, help=POSITION_HELP + " (default: the opening)")
    p.add_argument("--depth", type=_at_least("--depth", 0), default=2, help="plies to expand (default 2)")
    p.add_argument("--all", action="store_true", help="print every depth from 1 up")
    p.set_defaults(run=_perft)
    p = command("hint", "rank the plays of a roll, or give the cube action without a roll")
    p.add_argument("position", help=POSITION_HELP + " (the side on roll to play)")
    p.add_argument("roll", nargs="?", default=None,
                   help="the dice, e.g. 31 (default: the code's dice); without dice, the cube decision")
    p.add_argument("--ply", type=_at_least("--ply", 0), default=0, choices=[0, 1, 2],
                   help="search depth, 0 to 2 (default 0: at once; 1 and 2 are stronger and slower)")
    p.add_argument("--match", default=None, metavar="MATCHID",
                   help="GNU Match ID for match play (cube hint); a code with a match state gives its own")
    p.add_argument("--top", type=_at_least("--top", 0), default=0,
                   help="show only the best N plays (default 0: all of them)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=_hint)
    p = command("duel", "compare two players over cubeless games with duplicate dice")
    p.add_argument("a", help="player spec: random, pubeval, net, net:1, net:2, gnubg, ubgi:COMMAND or a "
                             "registered player")
    p.add_argument("b", help="the other player's spec")
    p.add_argument("--games", type=_positive("--games"), default=1000, help="games, an even number (default 1000)")
    p.add_argument("--seed", type=_at_least("--seed", 0), default=0, help="seed >= 0 (default 0)")
    p.add_argument("--workers", type=_positive("--workers"), default=None, help="local processes (default: all cores)")
    p.add_argument("--save", default=None, metavar="FILE.mat",
                   help="write the games as a .mat money session (its directory is checked before the games)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--progress", action="store_true", help="show the progress bar even when not a terminal")
    p.set_defaults(run=_duel)
    p = command("serve", "the game in the browser and the JSON engine API (needs the web extra)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only)")
    p.add_argument("--port", type=_at_least("--port", 0), default=8000, help="port (default 8000)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.set_defaults(run=_serve)
    p = command("ubgi", "speak the UBGI engine protocol on standard input and output")
    p.add_argument("--player", default="net:1", help="the player behind the engine (default net:1)")
    p.set_defaults(run=_ubgi)
    p = command("analyse", "grade every play and cube decision of a match file (.mat, .sgf, .xg)")
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
    p = command("convert", "convert a match file (.mat, .sgf, .xg) to .mat or SGF")
    p.add_argument("input", help="the match file to read (its format from its name, or --from)")
    p.add_argument("output", help="the file to write (.mat or .sgf, or --to); written whole or not at all")
    p.add_argument("--from", dest="source_format", default=None, help="the input's format: mat, sgf or xg")
    p.add_argument("--to", default=None, help="the output's format: mat or sgf")
    p.add_argument("--strict", action="store_true", help="refuse a file the reader would have to mend")
    p.add_argument("--partial", action="store_true", help="accept a match that stops before its end")
    p.set_defaults(run=_convert)
    p = command("train", "train the networks by self-play (resumable)")
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


_XGID_ARGUMENT = re.compile(r"-[-A-Pa-p]{25}:")


def _arguments(argv) -> list[str]:
    """The command line with each bare XGID (whose board usually starts
    with '-', which argparse would take for an option) given its prefix."""
    args = list(sys.argv[1:] if argv is None else argv)
    if "--" in args:
        cut = args.index("--")
        return [*_arguments(args[:cut]), "--", *args[cut + 1:]]
    return ["XGID=" + a if _XGID_ARGUMENT.match(a) else a for a in args]


def _quit_on_closed_pipe() -> int:
    """Standard output's reader has gone (``backgammon moves ... | head -1``):
    stop quietly, as Unix tools do, by the signal that a closed pipe sends."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())       # Python's flush at exit must not fail again
    except (OSError, ValueError):
        pass
    if hasattr(signal, "SIGPIPE"):
        sys.stderr.flush()
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGPIPE)
    return 128 + 13


def main(argv=None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); the exit status.

    Examples
    --------
    >>> main(["perft", "--depth", "1"])           # doctest: +ELLIPSIS
    perft(1) = 447   (... s)
    0
    """
    parser = build_parser()
    try:
        args, unknown = parser.parse_known_args(_arguments(argv))
        if unknown:
            args.parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    except BrokenPipeError:                        # --help | head -1
        return _quit_on_closed_pipe()
    except SystemExit:                             # --help, --version, a usage error: flushed here
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            return _quit_on_closed_pipe()
        raise
    try:
        status = args.run(args)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        return _quit_on_closed_pipe()
    except CommandError as e:
        return _fail(args, str(e), e.status)
    except (InvalidIdError, InvalidPositionError) as e:       # a code or ID given on the command line
        return _fail(args, str(e), USAGE)
    except FormatError as e:                                  # a file's content
        return _fail(args, _partial_advice(str(e)), FAILURE)
    except ValueError as e:                                   # an argument the library refuses
        return _fail(args, str(e), USAGE)
    except OSError as e:                                      # a file or a socket, while working
        where = f"{e.filename}: " if e.filename else ""
        return _fail(args, f"{where}{e.strerror or e}", FAILURE)
    except (RuntimeError, ImportError) as e:                  # an engine that fails, an extra not installed
        return _fail(args, f"{type(e).__name__}: {e}" if not str(e) else str(e), FAILURE)
    except KeyboardInterrupt:
        print(f"backgammon {args.command}: interrupted", file=sys.stderr)
        return 130


def _fail(args, message: str, status: int) -> int:
    message = " ".join(message.split()) or "failed"          # one line, whatever the message held
    try:
        print(f"backgammon {args.command}: error: {message}", file=sys.stderr)
    except BrokenPipeError:
        pass
    return status


if __name__ == "__main__":
    raise SystemExit(main())
