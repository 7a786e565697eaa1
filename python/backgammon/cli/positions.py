"""The commands on one position: ``moves``, ``perft`` and ``hint``."""
from __future__ import annotations

import time

from ..formats.codes import read_position
from ..perft import perft
from .common import code_of, print_json, roll_of, usage, wrap

__all__ = ["run_moves", "run_perft", "run_hint"]


def run_moves(args) -> int:
    pos, state = code_of(args)
    roll = roll_of(args, state)
    if roll is None:
        raise usage(f"give the roll, e.g. 'backgammon moves {args.position} 31' ({args.position!r} holds no dice)")
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


def run_perft(args) -> int:
    pos, _ = read_position(args.position)
    for depth in range(1, args.depth + 1) if args.all else [args.depth]:
        t = time.perf_counter()
        n = perft(pos, depth)
        dt = time.perf_counter() - t
        print(f"perft({depth}) = {n}   ({dt:.3f} s)")
    return 0


def run_hint(args) -> int:
    import dataclasses
    from ..hint import hint
    pos, state = code_of(args)
    roll = roll_of(args, state)
    if roll is None:
        d = hint(pos, None, args.ply, state=state)
        if args.json:
            print_json({"position": pos.to_id(), "match": state.to_match_id() if state else None, "ply": args.ply,
                         "cube": dataclasses.asdict(d)})
            return 0
        unit = "normalised match equity" if d.mwc else "equity per unit of the cube"
        print(wrap(f"Cube decision at {args.ply}-ply for the side on roll of {pos.to_id()}"
                    + (f", {state.match_length}-point match, score {state.score[0]}-{state.score[1]}"
                       if state is not None and state.match_length else ", money") + f"; in {unit}:"))
        w, wg, wb, lg, lb = d.probabilities
        print(f"  cubeless chances: {w:.3f} {wg:.3f} {wb:.3f} - {1 - w:.3f} {lg:.3f} {lb:.3f}")
        rows = [("No double", d.no_double), ("Double, take", d.double_take), ("Double, pass", d.double_pass)]
        best = max(d.no_double, min(d.double_take, d.double_pass))
        for i, (name, value) in enumerate(rows):
            mwc = f"   MWC {d.mwc[i] * 100:6.2f}%" if d.mwc else ""
            print(f"  {i + 1}. {name:<14}{value:+.4f} ({value - best:+.4f}){mwc}")
        print(wrap(f"  Proper cube action: {d.action}" + (f" ({d.reason})" if d.reason else "")
                    + f"; the opponent should {d.take}"))
        return 0
    ranked = hint(pos, roll, args.ply, state=state)      # a code with a score: ranked for that score
    d1, d2 = pos.legal_plays(roll).roll
    shown = ranked[:args.top] if args.top else ranked
    if args.json:
        print_json({"position": pos.to_id(), "roll": f"{d1}{d2}", "ply": args.ply, "count": len(ranked),
                     "plays": [{"play": str(r.play), "position": r.play.position.to_id(), "ply": r.ply,
                                "equity": r.equity, "difference": r.difference, "cubeful": r.cubeful,
                                "mwc": r.mwc, "chances": dict(zip(("win", "win_gammon", "win_backgammon", "lose_gammon",
                                                     "lose_backgammon"), r.evaluation.probabilities))}
                               for r in shown]})
        return 0
    unit = "the cubeless equity" if state is None else \
        f"the cubeful normalised match equity at {state.score[0]}-{state.score[1]} of {state.match_length}" \
        if state.match_length else "the cubeful equity"
    print(wrap(f"Plays of {d1}-{d2} from {pos.to_id()}, best first, in {unit} of the side on roll:"))
    for i, r in enumerate(shown, 1):
        e = r.evaluation
        text = str(r.play) or "(no legal move)"
        diff = f"({r.difference:+.3f})" if i > 1 else ""
        print(f"{i:>4}. {r.ply}-ply  {text:<28} Eq.: {r.equity:+.3f} {diff}")
        print(f"        {e.win:.3f} {e.win_gammon:.3f} {e.win_backgammon:.3f} - "
              f"{e.lose:.3f} {e.lose_gammon:.3f} {e.lose_backgammon:.3f}")
    return 0
