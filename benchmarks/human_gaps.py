"""Where our analysis of a match between people parts from gnubg's (issue
40): per player, our checker-play error total against gnubg's, and each
play or cube decision whose error differs by GAP or more, with its cause:

- **network**: the two networks' chances differ.  For a play, gnubg's own
  chances of its candidates, valued by our cube model, give gnubg's error
  (within 0.03): the way we value plays would give gnubg's answer from
  gnubg's chances.  For a cube decision, our cube search at the same ply
  with gnubg-nn's 0-ply evaluator in place of our networks gives gnubg's
  error (within half the row's gap, in MWC): our method on gnubg's
  network answers as gnubg.
- **method**: they do not; how the error is computed differs.

    nice -n 10 python benchmarks/human_gaps.py DIR/match10031435.sgf ... [--ply 2] [--gap 0.06] \
        [--evaluator gnubg-nn]

Each SGF is gnubg's analysis of a .mat (``gnubg_analysed.py`` leaves them,
e.g. benchmarks/data/human_gnubg2); ours is made at ``--ply`` with gnubg
1.07's marks, on the shipped networks or (``--evaluator gnubg-nn``) on
gnubg-nn's 0-ply network, so that what is left apart is the method's or
the two gnubgs' networks'.  gnubg is an oracle here, never a teacher.
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

import backgammon as bg
from backgammon.analysis import analyse
from backgammon.cube import cube_decision
from backgammon.evaluator import as_evaluator, flip
from backgammon.janowski import values_after_play
from backgammon.matchid import MatchState
from backgammon.scoring import default_met
from backgammon.statistics import GNUBG_MARKS


def _model_error(p, node, met) -> float:
    """gnubg's error of a play recomputed by our cube model from gnubg's chances."""
    pos, state = bg.Position.from_id(p.position_id), MatchState.from_match_id(p.match_id)
    legal = pos.legal_plays(p.roll)
    values = []
    for name, _, chances, ply in node.candidates:
        k = legal.find(pos.play(name, p.roll).to_bytes())
        v, _ = values_after_play(np.ascontiguousarray(legal.positions[k:k + 1]), flip(np.array([chances])), state,
                                 state.game_rules(None), state.on_roll, met)
        values.append((float(v[0]), ply))
    deepest = max(ply for _, ply in values)
    best = max(v for v, ply in values if ply == deepest)
    return max(0.0, best - values[node.played][0])


def gnubg_chances(boards) -> np.ndarray:
    """gnubg-nn's 0-ply chances of the side on roll (row 1, as ours)."""
    import gnubg_nn
    return np.array([gnubg_nn.probabilities(b.tolist(), 0) for b in boards], dtype=np.float32)


def _cube_error_on_gnubgs_network(c, ply: int) -> float | None:
    """The MWC error of a cube action by our cube search at ``ply`` with
    gnubg-nn's evaluator: what our method makes of gnubg's network."""
    pos, state = bg.Position.from_id(c.position_id), MatchState.from_match_id(c.match_id)
    doubler = state.replace(double_offered=False, turn=state.on_roll)
    d = cube_decision(pos, doubler, doubler.game_rules(None), ply=ply, evaluator=gnubg_chances)
    if d.mwc is None:
        return None
    nd, dt, dp = (float(v) for v in d.mwc)
    if c.kind == "double":
        return max(nd, min(dt, dp)) - (min(dt, dp) if c.action == "double" else nd)
    return -min(dt, dp) + (dt if c.action == "take" else dp)


def gaps(sgf: Path, ply: int, gap: float, evaluator=None):
    """(per player {name: [ours, gnubg, plays]}, rows of the decisions
    ``gap`` or more apart); ours on ``evaluator`` (default the shipped
    networks)."""
    met = default_met()
    record = bg.read_sgf(sgf.read_bytes(), partial=True)
    ours = analyse(record, ply=ply, cube_ply=ply, workers=1, thresholds=GNUBG_MARKS, evaluator=evaluator)
    plays = {(n.game, n.action): n for n in record.analysis if n.kind == "play" and n.candidates
             and n.played is not None}
    cubes = {(n.game, n.action): n for n in record.analysis if n.cube}
    players = {name: [0.0, 0.0, 0] for name in record.players}
    rows = []
    for g in ours.games:
        for p in g.plays:
            n = plays.get((g.number, p.action))
            if n is None:
                continue
            theirs = n.candidates[0][1] - n.candidates[n.played][1]
            who = record.players[p.player]
            players[who][0] += p.error
            players[who][1] += theirs
            players[who][2] += 1
            if abs(p.error - theirs) >= gap:
                cause = "network" if abs(_model_error(p, n, met) - theirs) < 0.03 else "method"
                rows.append((sgf.stem, who, "play", g.number, p.action, p.error, theirs, cause,
                             f"{p.played} | ours {p.best} | gnubg {n.candidates[0][0]}", p.match_id, p.position_id))
        for c in g.cubes:
            if c.mwc is None or not c.chances:
                continue
            at = c.action_index + (c.kind == "double" and c.action == "no double")
            n = cubes.get((g.number, at)) or cubes.get((g.number, at - 1))
            if n is None:
                continue
            nd, dt, dp = n.cube["no_double"], n.cube["double_take"], c.mwc[2]
            if c.kind == "double":
                best, made = max(nd, min(dt, dp)), (min(dt, dp) if c.action == "double" else nd)
            else:
                best, made = -min(dt, dp), -(dt if c.action == "take" else dp)
            theirs = best - made
            if abs((c.error_mwc or 0.0) - theirs) >= gap / 10:          # MWC: about a tenth of EMG at 5 points
                apart = max(abs(a - b) for a, b in zip(c.chances, n.cube["chances"]))
                model = _cube_error_on_gnubgs_network(c, ply)
                network = model is not None and abs(model - theirs) < gap / 20
                rows.append((sgf.stem, record.players[c.player], f"{c.kind}:{c.action}", g.number, c.action_index,
                             c.error_mwc or 0.0, theirs, "network" if network else "method",
                             f"MWC; chances {apart:.3f} apart; ours on gnubg's network {model:.3f}"
                             if model is not None else f"MWC; chances {apart:.3f} apart", c.match_id, c.position_id))
    return players, rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sgfs", nargs="+", type=Path)
    ap.add_argument("--ply", type=int, default=2)
    ap.add_argument("--gap", type=float, default=0.06)
    ap.add_argument("--evaluator", choices=("ours", "gnubg-nn"), default="ours",
                    help="our analysis's evaluator: the shipped networks, or gnubg-nn's 0-ply network")
    args = ap.parse_args(argv)
    evaluator = as_evaluator(gnubg_chances) if args.evaluator == "gnubg-nn" else None
    counts = {"network": 0, "method": 0}
    for sgf in args.sgfs:
        players, rows = gaps(sgf, args.ply, args.gap, evaluator)
        for name, (o, t, k) in players.items():
            print(f"{sgf.stem:<16} {name:<16} checker error total ours {o:6.3f} gnubg {t:6.3f} over {k} plays",
                  flush=True)
        for r in rows:
            counts[r[7]] += 1
            print(f"  {r[1]:<14} {r[2]:<18} game {r[3]} action {r[4]:<3} ours {r[5]:.3f} gnubg {r[6]:.3f} "
                  f"{r[7]:<8} {r[8]}  {r[9]} {r[10]}", flush=True)
    print(f"decisions apart by the gap or more: {counts['network']} the networks', {counts['method']} the method's")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
