"""Whose is a cube rollout's gap from XG's published one: the players'
(our networks) or the method's (our rollout and cube code)?  Issue 40.

For each cube position of ``benchmarks/data/published_rollouts.json``
named, three rollouts of the same position, the same games and seed:

- ``ours``: ``rollout_cube`` with our players (``--policy``, default the
  network at 0-ply);
- ``gnubg players``: the same ``rollout_cube`` code with gnubg-nn's 0-ply
  evaluator as both sides' players (``EvaluatorPlayer`` over
  ``gnubg_nn.probabilities``): its checker plays, and its chances in our
  cube decisions;
- ``gnubg -t``: GNU Backgammon's own cubeful rollout (checker play and
  cube at 0-ply, or the plies of ``--gnubg-plies``; variance reduction,
  no truncation; the position set by
  ``set xgid``, the doubled cube by ``set cube``), read from its output
  (it prints a rollout only to a terminal, so it runs under ``script``).

and prints each one's wins, no double and double/take against XG's, with
z in combined standard errors (XG's "±" / 1.96).  If the gnubg-played
rollouts in our code come near XG's and ours do not, the gap is our
networks'; if our code with gnubg's players and gnubg's own rollout agree
with each other, the method is gnubg's.  gnubg is an oracle here, never a
teacher.

    nice -n 10 python benchmarks/players_gap.py usbgf-olm-redouble-bearoff \\
        bgonline-160613-20-shots --games 1296 --seed 1

(gnubg's rollout has its own dice, so it agrees with ours within the
standard errors, not game for game.)
"""
from __future__ import annotations

import argparse
import json
import math
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from backgammon.formats.xgid import parse_xgid
from backgammon.players import EvaluatorPlayer
from backgammon.rollouts import rollout_cube
from backgammon.rollouts.api import as_player0
from backgammon.scoring import MatchValues

sys.path.insert(0, str(Path(__file__).parent))
from human_gaps import gnubg_chances  # noqa: E402
from published_rollouts import load  # noqa: E402

GNUBG = "/usr/games/gnubg"
#: gnubg's rollout result: "0.689 0.000 0.000 - 0.311 0.061 0.003 CL  58.34% CF  62.07%" and its errors.
RESULT = re.compile(r"^\s*([\d.]+) ([\d.]+) ([\d.]+) - ([\d.]+) ([\d.]+) ([\d.]+) CL\s+([-+\d.]+)%? CF\s+([-+\d.]+)%?\s*$")
ERRORS = re.compile(r"^\s*\[([\d.]+) [\d.]+ [\d.]+ - [\d.]+ [\d.]+ [\d.]+ CL\s+[\d.]+%? CF\s+([\d.]+)%?\s*\]")


def gnubg_rollout(xgid: str, doubled: bool, games: int, seed: int, jacoby: bool, plies: int = 0) -> dict:
    """gnubg's own 0-ply cubeful rollout of the position (no double), or
    with the cube doubled and owned by the opponent (double/take): wins,
    the cubeful result (MWC in a match, else equity per the rollout's
    cube) and its standard error."""
    x = parse_xgid(xgid)
    lines = [f"set xgid {xgid}", f"set jacoby {'on' if jacoby else 'off'}"]
    if doubled:
        lines += [f"set cube value {2 * x.state.cube_value}", "set cube owner gnubg"]
    if x.state.match_length:
        lines.append("set output mwc on")
    lines += [f"set rollout trials {games}", "set rollout cubeful on", "set rollout varredn on",
              f"set rollout seed {seed}", f"set rollout chequerplay plies {plies}", f"set rollout cubedecision plies {plies}",
              "set rollout later enable off", "set rollout truncation enable off", "rollout"]
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "commands"
        script.write_text("\n".join(lines) + "\n")
        out = subprocess.run(["script", "-qc", f"{GNUBG} -t -q < {script}", "/dev/null"], capture_output=True,
                             text=True, timeout=1800, stdin=subprocess.DEVNULL).stdout
    text = out[out.rindex("Rollout done"):].splitlines()
    for k, line in enumerate(text):
        m = RESULT.match(line)
        if m:
            e = ERRORS.match(text[k + 1])
            scale = 100.0 if x.state.match_length else 1.0
            return dict(win=float(m.group(1)), cubeful=float(m.group(8)) / scale,
                        cubeful_se=float(e.group(2)) / scale if e else None)
    raise RuntimeError(f"no rollout result in gnubg's output: {out[-2000:]}")


def gnubg_cube(entry: dict, games: int, seed: int, plies: int = 0) -> dict:
    """gnubg's no double and double/take, in XG's units (match: normalised
    equity at the current cube; money: per the current cube)."""
    x = parse_xgid(entry["xgid"])
    jacoby = bool(entry["rules"]["jacoby"]) and not x.state.match_length
    nd = gnubg_rollout(entry["xgid"], False, games, seed, jacoby, plies)
    dt = gnubg_rollout(entry["xgid"], True, games, seed, jacoby, plies)
    v = x.state.cube_value
    if x.state.match_length:
        values = MatchValues.of_state(as_player0(x.state), side=0)
        lo, scale = values.normaliser(v)
        norm = lambda mwc: 2 * (mwc - lo) / scale - 1          # noqa: E731
        nd_e, dt_e = norm(nd["cubeful"]), norm(dt["cubeful"])
        nd_se = None if nd["cubeful_se"] is None else 2 * nd["cubeful_se"] / scale
        dt_se = None if dt["cubeful_se"] is None else 2 * dt["cubeful_se"] / scale
    else:
        # gnubg gives a money rollout's cubeful equity per the rollout's own
        # cube: the doubled one's is per 2v, XG's per v.
        nd_e, dt_e = nd["cubeful"], 2 * dt["cubeful"]
        nd_se, dt_se = nd["cubeful_se"], None if dt["cubeful_se"] is None else 2 * dt["cubeful_se"]
    return dict(win=nd["win"], no_double=nd_e, no_double_se=nd_se, double_take=dt_e, double_take_se=dt_se)


def ours(entry: dict, policy, games: int, seed: int) -> dict:
    x = parse_xgid(entry["xgid"])
    r = rollout_cube(x.position, x.state, games=games, seed=seed, workers=1, rules=x.state.game_rules(),
                     policy=policy)
    return dict(win=r.no_double_rollout.win, no_double=r.no_double, no_double_se=r.no_double_se,
                double_take=r.double_take, double_take_se=r.double_take_se)


def z(value, se, xg, ci95):
    if ci95 is None or se is None:
        return None
    return (value - xg) / math.hypot(se, ci95 / 1.96)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ids", nargs="+")
    ap.add_argument("--games", type=int, default=1296)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", default="net", help="our players (a player spec)")
    ap.add_argument("--gnubg-plies", type=int, nargs="+", default=[0],
                    help="gnubg's own rollouts at these plies (checker play and cube)")
    ap.add_argument("--skip-ours", action="store_true", help="only gnubg's own rollouts")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    if shutil.which("script") is None:
        ap.error("needs util-linux's script (gnubg prints a rollout only to a terminal)")
    entries = {e["id"]: e for e in load()}
    rows = []
    for pid in args.ids:
        e = entries[pid]
        runs = {}
        if not args.skip_ours:
            runs["ours (" + args.policy + ")"] = ours(e, args.policy, args.games, args.seed)
            runs["gnubg players, our code"] = ours(e, EvaluatorPlayer(gnubg_chances), args.games, args.seed)
        for plies in args.gnubg_plies:
            runs[f"gnubg -t rollout, {plies}-ply"] = gnubg_cube(e, args.games, args.seed, plies)
        xg_win = (e.get("chances_no_double") or [None])[0]
        print(f"{pid} ({e['xgid']}), {args.games} games, seed {args.seed}")
        print(f"  {'XG':<26} wins {xg_win:.3f}  ND {e['no_double']:+.3f} +-{e['no_double_ci95']}  "
              f"DT {e['double_take']:+.3f} +-{e['double_take_ci95']}")
        for name, r in runs.items():
            r["z_no_double"] = z(r["no_double"], r["no_double_se"], e["no_double"], e["no_double_ci95"])
            r["z_double_take"] = z(r["double_take"], r["double_take_se"], e["double_take"], e["double_take_ci95"])
            zs = "  ".join("" if r[k] is None else f"z {r[k]:+.1f}" for k in ("z_no_double", "z_double_take"))
            print(f"  {name:<26} wins {r['win']:.3f}  ND {r['no_double']:+.3f} (se {r['no_double_se'] or 0:.3f})  "
                  f"DT {r['double_take']:+.3f} (se {r['double_take_se'] or 0:.3f})  {zs}", flush=True)
        rows.append(dict(id=pid, xgid=e["xgid"], xg=dict(win=xg_win, no_double=e["no_double"],
                                                          double_take=e["double_take"]), runs=runs))
        if args.out:
            args.out.write_text(json.dumps(dict(settings=vars(args) | {"out": str(args.out)}, results=rows),
                                           indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
