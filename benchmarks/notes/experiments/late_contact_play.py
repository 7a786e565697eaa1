"""Whose play loses the late-contact published positions, and where
(benchmarks/notes/late-contact-play.md).  From the repository's root:

    python benchmarks/notes/experiments/late_contact_play.py mixed IDS [--games 1296] [--combos NN,GG,NG,GN] [--nets FILE]
    python benchmarks/notes/experiments/late_contact_play.py first XGID [--doubled]
    python benchmarks/notes/experiments/late_contact_play.py collect XGID OUT.jsonl [--games 400] [--side 0]
    python benchmarks/notes/experiments/late_contact_play.py value IN.jsonl OUT.jsonl [--limit 40] [--games 324]
    python benchmarks/notes/experiments/late_contact_play.py analyse VALUED.jsonl

``mixed``: ``rollout_cube`` of published positions (ids of
benchmarks/data/published_rollouts.json) with each side's player chosen:
N our 0-ply networks (``--nets``: a candidate's), G gnubg-nn's 0-ply
evaluator as ``EvaluatorPlayer`` (as benchmarks/players_gap.py builds
it); the first letter plays the side on roll at the start (its checkers
and its cube).  ``--cube``: other cube deciders (``NG/GG``: our checker
play for the side on roll, gnubg's cube decisions for both).
``first``: every roll's choice at the start by both players, cubeless
and at the rollout's cube (``--doubled``: the double/take start).
``collect``: games from the position by our 0-ply player (cubeless
money choices, both sides); at each decision of ``--side`` our choice and
gnubg-nn's; the distinct decisions where they differ.
``value``: both plays of the most frequent of those decisions rolled
out (cubeless money, variance-reduced, to the end, 324 games, seed 7),
by gnubg-nn's players (the oracle) and by ours.
``analyse``: how often and by how much our play loses, by kind.

gnubg is an oracle and an opponent here, never a teacher.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "benchmarks"))

from backgammon import Position, network  # noqa: E402
from backgammon.formats.xgid import parse_xgid  # noqa: E402
from backgammon.players import EvaluatorPlayer, NetPlayer  # noqa: E402
from backgammon.rollouts import rollout_cube, rollout_plays  # noqa: E402
from backgammon.rollouts.api import as_player0  # noqa: E402
from human_gaps import gnubg_chances  # noqa: E402
from published_rollouts import load  # noqa: E402


def _ours(nets):
    return NetPlayer(0, networks=network.load(nets), threads=1) if nets else NetPlayer(0, threads=1)


def cmd_mixed(a):
    entries = {e["id"]: e for e in load()}
    mk = lambda c: _ours(a.nets) if c == "N" else EvaluatorPlayer(gnubg_chances)   # noqa: E731
    for pid in a.ids.split(","):
        x = parse_xgid(entries[pid]["xgid"])
        for combo in a.combos.split(","):
            checkers, _, cube = combo.partition("/")
            cube = cube or checkers
            t = time.process_time()
            r = rollout_cube(x.position, x.state, games=a.games, seed=a.seed, workers=1, rules=x.state.game_rules(),
                             policy=(mk(checkers[0]), mk(checkers[1])), cube_policy=(mk(cube[0]), mk(cube[1])))
            nd, dt = r.no_double_rollout, r.double_take_rollout
            print(json.dumps(dict(id=pid, checkers=checkers, cube=cube, nets=a.nets, games=a.games, seed=a.seed,
                                  win=round(nd.win, 4), nd=round(r.no_double, 4), nd_se=round(r.no_double_se, 4),
                                  dt=round(r.double_take, 4), dt_se=round(r.double_take_se, 4),
                                  dt_win=round(dt.win, 4), dt_lose_gammon=round(dt.lose_gammon, 4),
                                  cpu=round(time.process_time() - t))), flush=True)


def cmd_first(a):
    x = parse_xgid(a.xgid)
    st = as_player0(x.state)
    if a.doubled:
        st = st.replace(cube_value=2 * st.cube_value, cube_owner=1)
    rules = x.state.game_rules()
    ours, gn = _ours(a.nets), EvaluatorPlayer(gnubg_chances)
    pos = x.position
    board = pos.array[None]
    cubeful = bool(st.match_length) or a.doubled or st.cube_owner is not None
    for lo in range(1, 7):
        for hi in range(lo, 7):
            roll = np.array([[hi, lo]], np.uint8)
            plays = pos.legal_plays((hi, lo))
            po = plays[int(ours.choose_indices_at(board, roll, st, rules, cubeful=cubeful)[0])]
            pg = plays[int(gn.choose_indices_at(board, roll, st, rules, cubeful=cubeful)[0])]
            co, cg = ours.choose(pos, (hi, lo)), gn.choose(pos, (hi, lo))
            print(f"{hi}{lo}: at the cube ours {str(po):22s} gnubg {str(pg):22s} {'' if po.position == pg.position else 'DIFF'}"
                  f" | cubeless ours {str(co):22s} gnubg {str(cg):22s} {'' if co.position == cg.position else 'DIFF'}")


def cmd_collect(a):
    x = parse_xgid(a.xgid)
    ours, gn = _ours(a.nets), EvaluatorPlayer(gnubg_chances)
    rng = np.random.default_rng(a.seed)
    seen, n_dec, n_diff = {}, 0, 0
    for g in range(a.games):
        pos, mover = x.position, 0
        while not pos.is_game_over():
            d = tuple(int(v) for v in rng.integers(1, 7, 2))
            plays = pos.legal_plays(d)
            if len(plays) > 1:
                po = ours.choose(pos, d)
                if mover == a.side:
                    n_dec += 1
                    pg = gn.choose(pos, d)
                    if po.position != pg.position:
                        n_diff += 1
                        key = (pos.to_id(), tuple(sorted(d, reverse=True)))
                        if key in seen:
                            seen[key]["count"] += 1
                        else:
                            seen[key] = dict(id=key[0], roll=list(key[1]), ours=str(po), gnubg=str(pg), count=1, game=g)
                pos = po.position
            else:
                pos = plays[0].position if len(plays) else pos.swapped()
            mover ^= 1
    with open(a.out, "w") as f:
        for v in seen.values():
            f.write(json.dumps(v) + "\n")
    print(f"{a.games} games, {n_dec} decisions of side {a.side}, {n_diff} differ ({n_diff / max(n_dec, 1):.1%}), "
          f"{len(seen)} distinct", flush=True)


def cmd_value(a):
    rows = sorted((json.loads(line) for line in open(a.src)), key=lambda r: -r["count"])
    done = set()
    if Path(a.out).exists():
        done = {(r["id"], tuple(r["roll"])) for r in map(json.loads, open(a.out))}
    players = (("g", EvaluatorPlayer(gnubg_chances)), ("n", _ours(a.nets)))
    with open(a.out, "a") as f:
        for r in rows[:a.limit]:
            if (r["id"], tuple(r["roll"])) in done:
                continue
            pos = Position.from_id(r["id"])
            for name, pol in players:
                res = rollout_plays(pos, tuple(r["roll"]), [r["ours"], r["gnubg"]], games=a.games, seed=7, workers=1,
                                    policy=pol)
                by = {str(p.play): p for p in res}
                r[f"{name}_ours"] = round(by[r["ours"]].equity, 4)
                r[f"{name}_gnubg"] = round(by[r["gnubg"]].equity, 4)
                r[f"{name}_se"] = round(max(p.difference_se for p in res), 4)
            f.write(json.dumps(r) + "\n")
            f.flush()


def _features(pos, roll, text):
    p = pos.parse_play(text, tuple(roll))
    me = p.position.swapped().array[1]
    return dict(moved_back=any(f >= 19 for f, _ in p.moves), hit=bool(p.hits),
                six_cleared=pos.array[1][5] >= 1 and me[5] == 0, blots=int((me[:24] == 1).sum()),
                off=15 - int(me.sum()))


def cmd_analyse(a):
    rows = [json.loads(line) for line in open(a.src)]
    kinds = collections.Counter()
    lost = collections.Counter()
    tab = []
    for r in rows:
        pos = Position.from_id(r["id"])
        fo, fg = _features(pos, r["roll"], r["ours"]), _features(pos, r["roll"], r["gnubg"])
        keys = []
        if fo["six_cleared"] and not fg["six_cleared"]:
            keys.append("ours clears the 6-point blot, gnubg keeps it")
        if fg["moved_back"] and not fo["moved_back"]:
            keys.append("gnubg moves the back checker(s), ours not")
        if fo["moved_back"] and not fg["moved_back"]:
            keys.append("ours moves the back checker(s), gnubg not")
        if fg["hit"] != fo["hit"]:
            keys.append("gnubg hits, ours not" if fg["hit"] else "ours hits, gnubg not")
        if fo["off"] != fg["off"]:
            keys.append("ours bears off more" if fo["off"] > fg["off"] else "gnubg bears off more")
        keys = keys or ["other"]
        loss_g, loss_n = r["g_gnubg"] - r["g_ours"], r["n_gnubg"] - r["n_ours"]
        for k in keys:
            kinds[k] += r["count"]
            lost[k] += r["count"] * loss_g
        tab.append((r["count"], loss_g, loss_n, r["g_se"], r["n_se"], r, keys))
    total = sum(t[0] for t in tab)
    print(f"{len(tab)} distinct decisions valued, {total} occurrences in the games")
    print(f"gnubg's play better by gnubg-nn's rollouts: {sum(t[0] for t in tab if t[1] > 0)} "
          f"(by more than 2 se: {sum(t[0] for t in tab if t[1] > 2 * t[3])}); "
          f"by our own rollouts: {sum(t[0] for t in tab if t[2] > 0)} (more than 2 se: "
          f"{sum(t[0] for t in tab if t[2] > 2 * t[4])})")
    print(f"mean loss of our play per occurrence: {sum(t[0] * t[1] for t in tab) / total:+.3f} by gnubg-nn's rollouts, "
          f"{sum(t[0] * t[2] for t in tab) / total:+.3f} by ours")
    for k, v in kinds.most_common():
        print(f"  {k:48s} {v:5d} occurrences, mean loss {lost[k] / v:+.3f}")
    for t in sorted(tab, key=lambda t: -t[0] * t[1])[:a.top]:
        r = t[5]
        print(f"  x{t[0]:3d} {r['id']} {r['roll'][0]}{r['roll'][1]}: ours {r['ours']:20s} gnubg {r['gnubg']:20s} "
              f"loss {t[1]:+.3f} (se {t[3]:.3f}), by our rollouts {t[2]:+.3f}; {'; '.join(t[6])}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("mixed")
    p.add_argument("ids")
    p.add_argument("--games", type=int, default=1296)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--combos", default="NN,GG,NG,GN")
    p.add_argument("--nets")
    p = sub.add_parser("first")
    p.add_argument("xgid")
    p.add_argument("--doubled", action="store_true")
    p.add_argument("--nets")
    p = sub.add_parser("collect")
    p.add_argument("xgid")
    p.add_argument("out")
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--side", type=int, default=0)
    p.add_argument("--nets")
    p = sub.add_parser("value")
    p.add_argument("src")
    p.add_argument("out")
    p.add_argument("--limit", type=int, default=40)
    p.add_argument("--games", type=int, default=324)
    p.add_argument("--nets")
    p = sub.add_parser("analyse")
    p.add_argument("src")
    p.add_argument("--top", type=int, default=20)
    a = ap.parse_args(argv)
    {"mixed": cmd_mixed, "first": cmd_first, "collect": cmd_collect, "value": cmd_value, "analyse": cmd_analyse}[a.cmd](a)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
