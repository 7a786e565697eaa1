"""Our rollouts against published eXtreme Gammon rollouts.

The positions are in ``benchmarks/data/published_rollouts.json``: each with
its address, XGID (rules, score, cube), the published candidates (checker
plays) or cube equities, and XG's 95% intervals (its "±").  For each
position this runs ``rollout_plays`` (checker plays) or ``rollout_cube``
(cube decisions) with the same settings for all, and the 2-ply answer
(``hint`` / ``cube_decision``), and reports:

- agreement on the best play and on the best cube action;
- each equity's difference from the published one, and that difference in
  units of the combined standard error (ours and XG's, XG's taken as its
  "±" / 1.96; positions whose source printed no interval get no z);
- for checker plays the difference from the published best play compared
  with ours (XG's candidates share their dice as ours do, so the combined
  error used, sqrt(ours^2 + XG_a^2 + XG_b^2), overstates it);
- all of it by kind of position (theme) and money/match.

Run (a cube position takes 45 s to 4 minutes on one core at 1,296 games,
the 47 about an hour; workers and games are options)::

    nice -n 10 python benchmarks/published_rollouts.py --games 1296 --seed 1 \\
        --workers 1 --out benchmarks/results/published_rollouts.json

``--only cube`` or ``--only checker`` run one kind; ``--ids a,b`` some
positions; ``--policy net:1`` (``--cube-policy``) other players;
``--report FILE...`` prints the table of saved results; ``--resume``
continues a run whose ``--out`` file holds some positions already (each
position is written as it finishes).

Which player: the network at 0-ply (``--policy net``, the default) rolls
out bear-ins and one-roll shots well below XG's double/take; at one ply
(``--policy net:1``, 3 to 6 times the CPU time) the issue's seven cube
positions come within a median 0.019 of XG's no double and double/take
(0.065 / 0.103 at 0-ply).  The published rollouts are played by
searching players (most say "3-ply moves": XG counts the static
evaluation as one ply, so our ply 2), so figures comparable with them
come from ``--policy net:1`` (the cube decided by the same player)::

    nice -n 10 python benchmarks/published_rollouts.py --only cube --policy net:1 \\
        --games 1296 --seed 1 --workers 1 --resume \\
        --out benchmarks/results/published_rollouts_cube_net1.json

Rules come from the XGID's state
(``MatchState.game_rules``: its Jacoby and beaver bits in money play).
Checker plays at a match score are rolled out as the API does by default
there, cubefully and ranked by match equity (the 2-ply answer too); money
checker plays cubeless unless ``--cubeful-plays``.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

import backgammon as bg
from backgammon.cube import cube_decision
from backgammon.formats.xgid import parse_xgid
from backgammon.hint import hint
from backgammon.rollouts import rollout_cube, rollout_plays

DATA = Path(__file__).parent / "data" / "published_rollouts.json"

#: The seven cube positions issue 40's targets were first stated on: the five
#: with published intervals (one-roll shots, bear-ins with contact, owned
#: cubes) and the first middle-game pair, in file order.
ISSUE_SEVEN = ("bgonline-160613-23-shots", "bgonline-160613-20-shots", "bigmoneybill-cleveland-redouble",
               "usbgf-olm-redouble-bearoff", "rgb-3away-7away", "middle-game-cubes-1-3away",
               "middle-game-cubes-1-money")

#: XG's best-action words mapped to ours (a beaver is a take, RULES 7.5).
SAME_ACTION = {"double, beaver": "double, take", "no double, beaver": "no double"}


def load(path: Path = DATA) -> list[dict]:
    return json.loads(path.read_text())["positions"]


def setting(entry: dict):
    """(Xgid, Rules) of an entry: the rules its state holds (money options
    from the XGID's rules field)."""
    x = parse_xgid(entry["xgid"])
    return x, x.state.game_rules()


def group(entry: dict) -> str:
    """The kind of position the figures are grouped by."""
    theme = entry["theme"]
    match = "match" if entry["rules"]["match_length"] else "money"
    if "one-roll" in theme:
        kind = "one-roll shot"
    elif "bear" in theme:
        kind = "bear-in/bear-off with contact"
    elif "race" in theme:
        kind = "race"
    else:
        kind = "middle game"
    owned = ", owned cube" if entry["rules"]["cube_owner_field"] else ""
    return f"{kind}{owned} ({match})"


def _z(ours: float, se: float, xg: float, ci95):
    if ci95 is None:
        return None
    s = math.hypot(se, ci95 / 1.96)
    return (ours - xg) / s if s > 0 else None


def run_checker(entry: dict, args) -> dict:
    x, rules = setting(entry)
    texts = [c["play"] for c in entry["candidates"]]
    dice = x.state.dice
    plays = [x.position.parse_play(t, dice) for t in texts]
    kw = dict(games=args.games, seed=args.seed, workers=args.workers, variance_reduction=True, policy=args.policy,
              cube_policy=args.cube_policy)
    match = x.state if x.state.match_length else None
    if args.cubeful_plays:
        kw.update(cube=True, state=x.state, rules=rules)
    elif match is not None:
        kw.update(cube=True, state=match)    # at a score: cubeful, by match equity
    else:
        kw.update(cube=False)                # money: cubeless, as XG's published checker rollouts
    ranked = rollout_plays(x.position, dice, plays, **kw)
    by_play = {str(r.play): r for r in ranked}
    ours = [by_play[str(p)] for p in plays]
    ply2 = hint(x.position, dice, 2, state=match)
    order2 = [str(r.play) for r in ply2]
    xg_best = max(range(len(plays)), key=lambda k: entry["candidates"][k]["equity"])
    our_best = max(range(len(plays)), key=lambda k: ours[k].equity)
    # 2-ply: the published candidate 2-ply ranks highest among the published ones.
    ranks = [order2.index(str(p)) if str(p) in order2 else len(order2) for p in plays]
    best2 = min(range(len(plays)), key=lambda k: ranks[k])
    cands = []
    for k, c in enumerate(entry["candidates"]):
        d_xg = c["equity"] - entry["candidates"][xg_best]["equity"]
        d_ours = ours[k].equity - ours[xg_best].equity
        diff_se = None
        if k != xg_best:
            # the difference's standard error from the rollout's per-game values
            diff_se = math.hypot(ours[k].difference_se, ours[xg_best].difference_se)
        xg_err = None
        if c["ci95"] is not None and entry["candidates"][xg_best]["ci95"] is not None:
            xg_err = math.hypot(c["ci95"], entry["candidates"][xg_best]["ci95"]) / 1.96
        z_diff = None
        if k != xg_best and xg_err is not None:
            z_diff = (d_ours - d_xg) / math.hypot(diff_se or 0.0, xg_err)
        cands.append(dict(play=c["play"], xg=c["equity"], xg_ci95=c["ci95"], ours=ours[k].equity,
                          ours_se=ours[k].equity_se, z=_z(ours[k].equity, ours[k].equity_se, c["equity"], c["ci95"]),
                          xg_difference=d_xg, our_difference=d_ours, z_difference=z_diff,
                          ply2_rank=ranks[k] + 1))
    return dict(id=entry["id"], kind="checker", group=group(entry), xgid=entry["xgid"],
                best_xg=entry["candidates"][xg_best]["play"], best_ours=entry["candidates"][our_best]["play"],
                best_2ply=entry["candidates"][best2]["play"], agree=our_best == xg_best, agree_2ply=best2 == xg_best,
                cubeful=ours[0].cubeful, candidates=cands)


def run_cube(entry: dict, args) -> dict:
    x, rules = setting(entry)
    r = rollout_cube(x.position, x.state, games=args.games, seed=args.seed, workers=args.workers, rules=rules,
                     policy=args.policy, cube_policy=args.cube_policy)
    d2 = cube_decision(x.position, x.state, rules, ply=2)
    ours_action = SAME_ACTION.get(r.action, r.action)
    action2 = SAME_ACTION.get(d2.action, d2.action)
    xg = entry["best"]
    return dict(id=entry["id"], kind="cube", group=group(entry), xgid=entry["xgid"], best_xg=xg,
                best_ours=ours_action, best_2ply=action2, agree=ours_action == xg, agree_2ply=action2 == xg,
                no_double=dict(xg=entry["no_double"], xg_ci95=entry["no_double_ci95"], ours=r.no_double,
                               ours_se=r.no_double_se, ply2=d2.no_double,
                               z=_z(r.no_double, r.no_double_se, entry["no_double"], entry["no_double_ci95"])),
                double_take=dict(xg=entry["double_take"], xg_ci95=entry["double_take_ci95"], ours=r.double_take,
                                 ours_se=r.double_take_se, ply2=d2.double_take,
                                 z=_z(r.double_take, r.double_take_se, entry["double_take"],
                                      entry["double_take_ci95"])),
                win=dict(xg=(entry.get("chances_no_double") or [None])[0], ours=r.no_double_rollout.win),
                cubeless=dict(xg=entry.get("cubeless_no_double"), ours=r.no_double_rollout.equity),
                # The cube's value to the side on roll: cubeful minus cubeless no-double equity (money).
                cube_value=dict(xg=None if entry.get("cubeless_no_double") is None or x.state.match_length
                                else entry["no_double"] - entry["cubeless_no_double"],
                                ours=None if x.state.match_length else r.no_double - r.no_double_rollout.equity))


def summary(results: list[dict]) -> dict:
    """Agreement counts and equity figures, overall and by group."""
    def figures(rows):
        cube = [r for r in rows if r["kind"] == "cube"]
        chk = [r for r in rows if r["kind"] == "checker"]
        out: dict = {}
        if cube:
            nd = [abs(r["no_double"]["ours"] - r["no_double"]["xg"]) for r in cube]
            dt = [abs(r["double_take"]["ours"] - r["double_take"]["xg"]) for r in cube]
            sdt = [r["double_take"]["ours"] - r["double_take"]["xg"] for r in cube]
            zs = [abs(r[k]["z"]) for r in cube for k in ("no_double", "double_take") if r[k]["z"] is not None]
            out["cube"] = dict(positions=len(cube), best=sum(r["agree"] for r in cube),
                               best_2ply=sum(r["agree_2ply"] for r in cube),
                               median_abs_no_double=statistics.median(nd), median_abs_double_take=statistics.median(dt),
                               mean_double_take_diff=statistics.fmean(sdt),
                               median_abs_z=statistics.median(zs) if zs else None,
                               within_2se=(sum(z <= 2 for z in zs), len(zs)))
            cv = [r["cube_value"]["ours"] - r["cube_value"]["xg"] for r in cube if r["cube_value"]["xg"] is not None]
            if cv:
                out["cube"]["median_cube_value_diff"] = statistics.median(cv)
        if chk:
            dz = [abs(c["z_difference"]) for r in chk for c in r["candidates"] if c["z_difference"] is not None]
            dd = [abs(c["our_difference"] - c["xg_difference"]) for r in chk for c in r["candidates"]
                  if c["xg_difference"] != 0]
            out["checker"] = dict(positions=len(chk), best=sum(r["agree"] for r in chk),
                                  best_2ply=sum(r["agree_2ply"] for r in chk),
                                  median_abs_difference_error=statistics.median(dd) if dd else None,
                                  median_abs_z_difference=statistics.median(dz) if dz else None,
                                  within_2se=(sum(z <= 2 for z in dz), len(dz)))
        return out

    groups = sorted({r["group"] for r in results})
    out = {"all": figures(results), "by_group": {g: figures([r for r in results if r["group"] == g]) for g in groups}}
    seven = [r for r in results if r["id"] in ISSUE_SEVEN]
    if seven:
        out["issue_seven"] = figures(seven)
    return out


def report(s: dict) -> str:
    lines = ["| positions | kind | best (rollout) | best (2-ply) | median abs ND / DT diff, or abs diff-of-differences | median abs z | within 2 SE |",
             "|---|---|---|---|---|---|---|"]
    seven = [("issue's seven", s["issue_seven"])] if "issue_seven" in s else []
    for name, f in [("all", s["all"])] + seven + sorted(s["by_group"].items()):
        for kind in ("cube", "checker"):
            if kind not in f:
                continue
            g = f[kind]
            if kind == "cube":
                eq = f"{g['median_abs_no_double']:.3f} / {g['median_abs_double_take']:.3f}"
                z = g["median_abs_z"]
            else:
                eq = "-" if g["median_abs_difference_error"] is None else f"{g['median_abs_difference_error']:.3f}"
                z = g["median_abs_z_difference"]
            zs = "-" if z is None else f"{z:.2f}"
            w = g["within_2se"]
            lines.append(f"| {name} | {kind} | {g['best']}/{g['positions']} | {g['best_2ply']}/{g['positions']} | "
                         f"{eq} | {zs} | {w[0]}/{w[1]} |")
    return "\n".join(lines)


#: The options that decide a rollout's figures (not which positions, nor where they go).
RUN_SETTINGS = ("games", "seed", "policy", "cube_policy", "cubeful_plays")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1296)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--only", choices=("cube", "checker"))
    ap.add_argument("--policy", default="net", help="the rollouts' checker players (a player spec: net, net:1, ...)")
    ap.add_argument("--cube-policy", help="the rollouts' cube deciders (default: the checker players)")
    ap.add_argument("--ids", help="comma-separated ids")
    ap.add_argument("--cubeful-plays", action="store_true", help="roll checker plays out with the cube")
    ap.add_argument("--out", type=Path, help="write per-position results and the summary as JSON")
    ap.add_argument("--report", type=Path, nargs="+", help="print the table of saved results (--out files), run nothing")
    ap.add_argument("--resume", action="store_true",
                    help="keep the results already in --out and run only the positions it lacks")
    args = ap.parse_args(argv)
    if args.report:
        # Runs split over several files (and several processes) may overlap: each position once.
        saved = list({r["id"]: r for f in reversed(args.report) for r in json.loads(f.read_text())["results"]}.values())
        print(report(summary(saved)))
        return 0
    entries = load()
    if args.only:
        entries = [e for e in entries if e["kind"] == args.only]
    if args.ids:
        by_id = {e["id"]: e for e in entries}
        entries = [by_id[i] for i in args.ids.split(",") if i in by_id]      # in the order given
    results = []
    if args.resume:
        if not args.out:
            ap.error("--resume needs --out")
        if args.out.exists():
            saved = json.loads(args.out.read_text())
            # A file's results must all come from one setting: resuming with another would mix them.
            kept = saved.get("settings", {})
            differ = [k for k in RUN_SETTINGS if k in kept and kept[k] != vars(args)[k]]
            if differ:
                ap.error(f"--resume: {args.out} was run with other settings "
                         + ", ".join(f"{k}={kept[k]!r} (now {vars(args)[k]!r})" for k in differ))
            results = saved["results"]
            done = {r["id"] for r in results}
            entries = [e for e in entries if e["id"] not in done]
    t0 = time.perf_counter()
    for k, e in enumerate(entries, 1):
        r = run_cube(e, args) if e["kind"] == "cube" else run_checker(e, args)
        results.append(r)
        if r["kind"] == "cube":
            detail = (f"ND {r['no_double']['ours']:+.3f} (XG {r['no_double']['xg']:+.3f}) "
                      f"DT {r['double_take']['ours']:+.3f} (XG {r['double_take']['xg']:+.3f})")
        else:
            detail = f"ours {r['best_ours']!r}, 2-ply {r['best_2ply']!r}"
        print(f"[{k}/{len(entries)} {time.perf_counter() - t0:6.0f}s] {e['id']}: XG {r['best_xg']!r} "
              f"{'agree' if r['agree'] else 'DIFFER'}; {detail}", file=sys.stderr, flush=True)
        if args.out:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps({"settings": vars(args) | {"out": str(args.out)},
                                            "results": results, "summary": summary(results)}, indent=1))
    s = summary(results)
    print(report(s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
