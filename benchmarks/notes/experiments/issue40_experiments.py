"""The issue-40 diagnosis experiments (benchmarks/notes/issue40-diagnosis.md): python issue40_experiments.py jacoby|vr|bearoff|cubeply|policy [games]; results in results.jsonl."""
import importlib.util, json, sys, time
import numpy as np
import backgammon as bg
from backgammon.formats.xgid import parse_xgid
from backgammon import rollouts as cur

# the F1 prototype: rollouts.py with f1_turned_flag.diff applied, at PROTO
PROTO = "/tmp/a40/proto/rollouts_fixed.py"
spec = importlib.util.spec_from_file_location("backgammon.rollouts_fixed", PROTO)
fixed = importlib.util.module_from_spec(spec); sys.modules[spec.name] = fixed; spec.loader.exec_module(fixed)

def log(**kw):
    print(json.dumps(kw), flush=True)

def cube(mod, xgid, rules, games, **kw):
    x = parse_xgid(xgid)
    t = time.time()
    r = mod.rollout_cube(x.position, x.state, games=games, seed=1, workers=1, rules=rules, **kw)
    return dict(action=r.action, nd=r.no_double, dt=r.double_take, nd_se=r.no_double_se, dt_se=r.double_take_se,
                diff_se=r.difference_se, nd_cubeless=r.no_double_rollout.equity, nd_win=r.no_double_rollout.win,
                dt_win=r.double_take_rollout.win, secs=time.time() - t)

which = sys.argv[1]
G = int(sys.argv[2]) if len(sys.argv) > 2 else 1296
JB = bg.Rules(jacoby=True, beavers=1)
if which == "jacoby":
    for name, xgid in [("23-shots", "XGID=---BBBBBA----B--a-a-Bbcce-:0:0:1:00:0:0:3:0:10"),
                       ("20-shots", "XGID=---BBBBBA----B---a-aBbcce-:0:0:1:00:0:0:3:0:10")]:
        log(exp="jacoby", pos=name, variant="current, Jacoby+beavers", **cube(cur, xgid, JB, G))
        log(exp="jacoby", pos=name, variant="fixed turned flag, Jacoby+beavers", **cube(fixed, xgid, JB, G))
        log(exp="jacoby", pos=name, variant="current, no Jacoby", **cube(cur, xgid, bg.Rules(beavers=1), G))
elif which == "vr":
    xgid = "XGID=---BBBBBA----B--a-a-Bbcce-:0:0:1:00:0:0:3:0:10"
    for vr in (True, False):
        log(exp="vr", pos="23-shots", variance_reduction=vr, **cube(fixed, xgid, JB, G, variance_reduction=vr))
elif which == "bearoff":
    xgid = "XGID=---ABBA------------bbaa---:1:1:1:00:4:3:0:9:10"
    for b in (False, True):
        log(exp="bearoff", pos="cleveland race", bearoff=b, **cube(cur, xgid, bg.Rules(), G, bearoff=b))
    xgid = "XGID=---ABBA------------bbaa---:1:1:1:00:0:0:0:0:10"
    for b in (False, True):
        log(exp="bearoff", pos="cleveland race, money", bearoff=b, **cube(cur, xgid, bg.Rules(), G, bearoff=b))
elif which == "cubeply":
    xgid = "XGID=---BBBBBA----B--a-a-Bbcce-:0:0:1:00:0:0:3:0:10"
    log(exp="cubeply", pos="23-shots", cube_policy="net:1", **cube(fixed, xgid, JB, G, cube_policy="net:1"))
elif which == "policy":
    x = parse_xgid("XGID=aCBBBBA-----A---A-----cfA-:1:1:1:00:2:1:0:11:10")
    for pol in ("net", "gnubg", "net:1"):
        t = time.time()
        r = cur.rollout(x.position, games=G, seed=1, workers=1, policy=pol)
        log(exp="policy", pos="usbgf closed board", policy=pol, win=r.win, lose_gammon=r.lose_gammon,
            equity=r.equity, se=r.equity_se, secs=time.time() - t)
    from backgammon.evaluation import evaluate
    for ply in (0, 1, 2):
        log(exp="policy", pos="usbgf closed board", evaluate_ply=ply, chances=[float(v) for v in evaluate(x.position, ply).probabilities])
