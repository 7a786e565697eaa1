"""``backgammon rollout``: a position, the plays of a roll or a cube
decision rolled out, its header printed before the games."""
from __future__ import annotations

import sys

from .common import code_of, header, print_json, roll_of, show_progress, usage

__all__ = ["run_rollout"]


def _players(args) -> tuple[str, str | None]:
    """The specs of who plays the checkers and the cube, as the registry's
    players give them (``Player.spec``): the player of ``--policy``, or
    the networks at ``--ply`` when it asks another depth of them; the
    networks at ``--cube-ply`` for the cube (None: the checker players).
    Specs, not the players, go to the rollout: its worker processes make
    their own players from them, and the JSON report names them."""
    from ..players import NetPlayer, player
    with player(args.policy, name="--policy") as chosen:
        spec = chosen.spec
        if args.ply is not None:
            if not isinstance(chosen, NetPlayer):
                raise usage(f"--ply: the depth of the network's search goes with --policy net, not {spec}")
            if chosen.ply != args.ply:
                with NetPlayer(args.ply) as deeper:
                    spec = deeper.spec
    cube_spec = None
    if args.cube_ply is not None:
        with NetPlayer(args.cube_ply) as cube:
            cube_spec = cube.spec
    return spec, cube_spec


def _rollout_options(args) -> dict:
    policy, cube_policy = _players(args)
    return dict(games=args.games, policy=policy, cube_policy=cube_policy, seed=args.seed, workers=args.workers,
                truncate=args.truncate, bearoff=args.bearoff, variance_reduction=not args.no_variance_reduction,
                progress=show_progress(args))


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


def run_rollout(args) -> int:
    try:
        return _rollout_command(args)
    except KeyboardInterrupt:          # before the first game was under way (loading, making the players)
        print("backgammon rollout: interrupted after 0 games", file=sys.stderr)
        return 130


def _rollout_command(args) -> int:
    from ..rollouts import RolloutInterrupted, rollout, rollout_cube, rollout_plays
    pos, state = code_of(args)
    roll = roll_of(args, state)
    if args.plays is not None and roll is None:
        raise usage(f"--plays chooses among the plays of a roll: give the dice after the position, e.g. "
                     f"'backgammon rollout {args.position} 31 --plays {args.plays}'")
    options = _rollout_options(args)
    if args.cubeless and args.cube:
        raise usage("--cube and --cubeless ask for opposite rollouts: give one of them")
    # At a state (a code's or --match's) a rollout is cubeful unless asked --cubeless (issue 40).
    cube = (args.cube or state is not None) and not args.cubeless
    head = {"position": pos.to_id(), "match": state.to_match_id() if state else None, "seed": args.seed,
            **{k: v for k, v in options.items() if k != "progress"}}
    try:
        if roll is not None:
            plays, top = _parse_plays(args.plays or "top5")
            d1, d2 = pos.legal_plays(roll).roll
            match = state is not None and state.match_length > 0
            # The column names the rollout that ran; in a match its values are normalised match equity.
            unit = f"{'cubeful' if cube else 'cubeless'} {'(match)' if match else 'equity'}"
            header(f"Rollout of the plays of {d1}-{d2} from {pos.to_id()}: {_describe(args, options)}; "
                   f"the same dice for every play" + ("; in normalised match equity" if match else ""), args)
            ranked = rollout_plays(pos, roll, plays, top=top or 5, cube=cube, state=state, **options)
            if args.json:
                print_json({**head, "roll": f"{d1}{d2}", "cube": cube, "plays": [r.to_dict() for r in ranked]})
                return 0
            print(f"{'':4}{'play':<28}{unit:>16}{'std err':>9}{'difference':>12}{'std err':>9}")
            for k, r in enumerate(ranked, 1):
                print(f"{k:>3}. {str(r.play) or '(no legal move)':<28}{r.equity:+16.4f}{r.equity_se:9.4f}"
                      f"{r.difference:+12.4f}{r.difference_se:9.4f}")
            return 0
        if args.cube:
            unit = "normalised match equity" if state is not None and state.match_length else \
                "equity per unit of the cube"
            header(f"Cube rollout of {pos.to_id()}: {_describe(args, options)}; the same dice for no double "
                   f"and double/take ({unit})", args)
            d = rollout_cube(pos, state, **options)
            if args.json:
                print_json({**head, "cube": d.to_dict()})
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
        header(f"Rollout of {pos.to_id()}: {_describe(args, options)}", args)
        result = rollout(pos, cube=cube, state=state, **options)
    except RolloutInterrupted as stop:
        print(f"backgammon rollout: interrupted after {stop.games:,} games", file=sys.stderr)
        partial = stop.partial
        if partial is not None and not args.json and not isinstance(partial, list):
            _print_rollout(partial)
        return 130
    if args.json:
        print_json({**head, "perspective": "side on roll", **result.to_dict()})
        return 0
    _print_rollout(result)
    return 0
