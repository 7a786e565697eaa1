"""The commands that play: ``duel``, ``train`` (self-play), ``serve``
(the browser game) and ``ubgi`` (the engine protocol)."""
from __future__ import annotations

import sys

from .common import CommandError, check_output, header, print_json, show_progress, write_atomically

__all__ = ["run_duel", "run_train", "run_serve", "run_ubgi", "DaskExecutor"]


def run_duel(args) -> int:
    from ..duel import DuelInterrupted, duel
    if args.save:
        check_output(args.save, "--save")
    header(f"{args.a} against {args.b}: {args.games:,} cubeless money games with duplicate dice, seed {args.seed}",
           args)
    try:
        r = duel(args.a, args.b, games=args.games, seed=args.seed, workers=args.workers,
                 progress=show_progress(args), record=args.save is not None)
    except DuelInterrupted as stop:
        print("backgammon duel: interrupted" + (f" after {stop.partial.games:,} games" if stop.partial else ""),
              file=sys.stderr)
        return 130
    if args.save:
        from ..formats.mat import write_mat
        write_atomically(args.save, write_mat(r))
    if args.json:
        print_json(r.to_dict())
        return 0
    print(f"  {r.a}: {r.ppg:+.3f} points per game (standard error {r.ppg_se:.3f})")
    print(f"  wins {r.a_wins:.1%} / {r.b_wins:.1%}; gammons {r.a_gammons:.1%} / {r.b_gammons:.1%}; "
          f"backgammons {r.a_backgammons:.1%} / {r.b_backgammons:.1%}")
    print(f"  {r.games / r.seconds:,.0f} games/s ({r.seconds:.1f} s)"
          + (f"; games saved to {args.save}" if args.save else ""))
    return 0


def run_serve(args) -> int:
    import importlib.util
    missing = [m for m in ("fastapi", "pydantic", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:       # one line, the same exit status as every failure, with the command that mends it
        raise CommandError(f"the web server needs the web extra ({', '.join(missing)} missing): "
                           f"pip install 'backgammon[web]', or pip install '.[web]' in a clone of the project")
    try:
        from ..web import main as serve
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


def run_ubgi(args) -> int:
    from ..players import player
    from ..ubgi import serve
    player(args.player, name="--player").close()     # a bad spec fails before the protocol starts
    serve(sys.stdin, sys.stdout, args.player)
    return 0


def run_train(args) -> int:
    from ..train import train
    check_output(args.out, "--out")
    if args.checkpoint:
        check_output(args.checkpoint, "--checkpoint")
    print(f"Training {args.games:,} self-play games in total (seed {args.seed})"
          + (f", then {args.refine_rounds} refinement rounds" if args.refine_rounds else "")
          + (f", then {args.rounds} rollout-supervised rounds" if args.rounds else "")
          + f"; weights to {args.out}, resumable from {args.checkpoint or args.out + '.ckpt'}", flush=True)
    with DaskExecutor(args.dask) as executor:
        result = train(args.games, seed=args.seed, out=args.out, checkpoint=args.checkpoint,
                       resume=not args.restart, alpha=args.alpha, half_life=args.half_life,
                       contact_hidden=args.contact_hidden, race_hidden=args.race_hidden,
                       crashed_hidden=args.crashed_hidden, layout=args.layout, explore=args.explore,
                       explore_within=args.explore_within, td_lambda=args.td_lambda,
                       refine_rounds=args.refine_rounds,
                       refine_games=args.refine_games, rounds=args.rounds, positions=args.positions,
                       label_games=args.label_games, label_truncate=args.label_truncate,
                       prune_games=args.prune_games, workers=args.workers,
                       executor=executor, threads=args.threads, progress=show_progress(args))
    rounds = f", {result.rounds} rounds ({result.labels:,} labels)" if result.rounds else ""
    print(f"trained {result.games:,} games in total{rounds}; {result.seconds:,.0f} s in this run; "
          f"weights in {result.out}")
    return 0


class DaskExecutor:
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
