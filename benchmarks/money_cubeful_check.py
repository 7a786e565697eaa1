"""Does our money cubeful rollout agree with gnubg's own when both play
gnubg's 0-ply network?  Issue 40, item 3 (Jacoby with the cube centred).

For each XGID (money: its cube, owner and rules flag: 1 Jacoby, 2
beavers, 3 both), the same position rolled out twice with the same
number of games:

- ``ours``: our cubeful rollout loop (``rollouts.loop``, what
  ``backgammon.rollout(pos, state=state)`` runs) with gnubg-nn's 0-ply
  evaluator as both players (``EvaluatorPlayer`` over
  ``gnubg_nn.probabilities``): our cube decisions, scoring and variance
  reduction, gnubg's network; the side on roll does not double before its
  first roll, as in gnubg's ``rollout`` (``rollout_cube``'s no-double
  line);
- ``gnubg``: GNU Backgammon's own cubeful rollout (``gnubg -t``, checker
  play and cube at 0-ply, no truncation), Jacoby and beavers set from the
  XGID's flag (gnubg's ``set xgid`` alone leaves its session's beavers
  as they were).

with variance reduction on (``--vr on``), off, or both; with
``--children`` also the position after each first roll's play (the play
our rollouts make), on both sides: a root that parts from the mean of its
children on one side only is that side's root (printed only).  Each result is
appended to ``--out`` (JSON lines) and skipped when rerun: the script
resumes.  It prints each pair's difference in combined standard errors.
gnubg is an oracle here, never a teacher; its dice are its own, so the
two agree within their standard errors, not game for game.

    nice -n 10 python benchmarks/money_cubeful_check.py \\
        'XGID=-BBBCABa-----B-A-a-bbaccb-:0:0:1:00:0:0:1:0:10' --games 5184 --seed 1 \\
        --out benchmarks/results/money_cubeful_check.jsonl
"""
from __future__ import annotations

import argparse
import json
import math
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from backgammon.formats.xgid import parse_xgid
from backgammon.players import EvaluatorPlayer
from backgammon.rollouts.api import as_player0
from backgammon.rollouts.loop import Start
from backgammon.rollouts.plan import CHUNK, plan
from backgammon.rollouts.statistics import merge

import backgammon as bg

sys.path.insert(0, str(Path(__file__).parent))
from human_gaps import gnubg_chances
from players_gap import ERRORS, GNUBG, RESULT


def gnubg_money(xgid: str, games: int, seed: int, vr: bool) -> dict:
    """gnubg's own 0-ply money cubeful rollout of an XGID's position at its
    cube, with the XGID's Jacoby and beavers: wins and the cubeful equity
    (per the position's cube) with its standard error."""
    x = parse_xgid(xgid)
    lines = [f"set xgid {xgid}", f"set jacoby {'on' if x.state.jacoby else 'off'}",
             f"set beavers {3 if x.state.beavers else 0}", "show jacoby", "show beavers",
             f"set rollout trials {games}", "set rollout cubeful on", f"set rollout varredn {'on' if vr else 'off'}",
             f"set rollout seed {seed}", "set rollout chequerplay plies 0", "set rollout cubedecision plies 0",
             "set rollout later enable off", "set rollout truncation enable off", "rollout"]
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "commands"
        script.write_text("\n".join(lines) + "\n")
        out = subprocess.run(["script", "-qc", f"{GNUBG} -t -q < {script}", "/dev/null"], capture_output=True,
                             check=False, text=True, timeout=7200, stdin=subprocess.DEVNULL).stdout
    rules = [line.strip() for line in out.splitlines() if "Jacoby" in line or "beaver" in line.lower()]
    text = out[out.rindex("Rollout done"):].splitlines()
    for k, line in enumerate(text):
        m = RESULT.match(line)
        if m:
            e = ERRORS.match(text[k + 1])
            return {"win": float(m.group(1)), "cubeful": float(m.group(8)),
                    "cubeful_se": float(e.group(2)) if e else None, "gnubg_rules": rules}
    raise RuntimeError(f"no rollout result in gnubg's output: {out[-2000:]}")


def ours(xgid: str, games: int, seed: int, vr: bool) -> dict:
    """Our cubeful rollout of the XGID's position at its state, gnubg-nn's
    0-ply network playing both sides, the side on roll not doubling before
    its first roll: gnubg's ``rollout`` of a position (rollout.c gives the
    top position no cube decision), ``rollout_cube``'s no-double line.
    (``bg.rollout`` lets the side on roll double first: at a double it
    would be the double/take line, not comparable.)"""
    pos, state = bg.read_xgid(xgid)
    state = as_player0(state)
    rules = state.game_rules()
    p = plan(games, EvaluatorPlayer(gnubg_chances), None, seed, True, None, False, vr, 1, None, False, CHUNK,
             True, rules)
    parts, seconds = p.roll([Start(pos.to_bytes(), True, state, no_double_first=True)])
    r = p.summary(merge(parts, 0), seconds, state)
    return {"win": r.win, "cubeful": r.cubeful_equity, "cubeful_se": r.cubeful_equity_se,
            "rules": {"jacoby": rules.jacoby, "beavers": rules.beavers}}


def children(xgid: str, games: int, seed: int, vr: bool) -> None:
    """The position's value as the mean over the first roll of its
    children: for each of the 21 rolls the play gnubg-nn's player chooses
    in our rollouts (``choose_indices_at(..., cubeful=True)``), the
    position after it rolled out by both sides.  A root that parts from
    the mean of its children on one side only is that side's root."""
    pos, state = bg.read_xgid(xgid)
    s0 = as_player0(state)
    me = EvaluatorPlayer(gnubg_chances)
    totals = [0.0, 0.0]
    for a in range(1, 7):
        for b in range(1, a + 1):
            plays = pos.legal_plays((a, b))
            i = int(me.choose_indices_at(pos.array[None], np.array([(a, b)], dtype=np.uint8), s0, s0.game_rules(),
                                         cubeful=True)[0])
            child = bg.write_xgid(plays[i].position, state.replace(on_roll=1 - state.on_roll, turn=1 - state.turn))
            got = [ours(child, games, seed, vr), gnubg_money(child, games, seed, vr)]
            weight = (1 if a == b else 2) / 36
            for k, r in enumerate(got):
                totals[k] -= weight * r["cubeful"]          # the child's side on roll is the other side
            print(f"{a}{b} {plays[i]!s:22s} {child} ours {-got[0]['cubeful']:+.4f} ({got[0]['cubeful_se']:.4f}) "
                  f"gnubg {-got[1]['cubeful']:+.4f} ({got[1]['cubeful_se']})", flush=True)
    print(f"the mean of the children: ours {totals[0]:+.4f}, gnubg {totals[1]:+.4f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("xgids", nargs="+")
    ap.add_argument("--games", type=int, default=1296)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--vr", choices=["on", "off", "both"], default="on")
    ap.add_argument("--sides", default="ours,gnubg")
    ap.add_argument("--children", action="store_true",
                    help="also roll out the position after each first roll's play, on both sides (printed only)")
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "money_cubeful_check.jsonl")
    args = ap.parse_args(argv)
    if shutil.which("script") is None:
        ap.error("needs util-linux's script (gnubg prints a rollout only to a terminal)")
    done = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            r = json.loads(line)
            done[(r["xgid"], r["side"], r["vr"], r["games"], r["seed"])] = r
    for xgid in args.xgids:
        for vr in ([True, False] if args.vr == "both" else [args.vr == "on"]):
            got = {}
            for side in args.sides.split(","):
                key = (xgid, side, vr, args.games, args.seed)
                if key not in done:
                    t = time.process_time()
                    r = (ours if side == "ours" else gnubg_money)(xgid, args.games, args.seed, vr)
                    r.update(xgid=xgid, side=side, vr=vr, games=args.games, seed=args.seed,
                             cpu=round(time.process_time() - t, 1))
                    with args.out.open("a") as f:
                        f.write(json.dumps(r) + "\n")
                    done[key] = r
                got[side] = done[key]
                r = got[side]
                print(f"{xgid} vr={'on' if vr else 'off'} {side:6s} win {r['win']:.3f} "
                      f"cubeful {r['cubeful']:+.4f} ({r['cubeful_se']})", flush=True)
            if {"ours", "gnubg"} <= got.keys() and got["ours"]["cubeful_se"] and got["gnubg"]["cubeful_se"]:
                a, b = got["ours"], got["gnubg"]
                z = (a["cubeful"] - b["cubeful"]) / math.hypot(a["cubeful_se"], b["cubeful_se"])
                print(f"    ours - gnubg {a['cubeful'] - b['cubeful']:+.4f}  z {z:+.2f}", flush=True)
            if args.children:
                children(xgid, args.games, args.seed, vr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
