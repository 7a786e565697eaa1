"""Our statistics of matches against gnubg's own analysis of the same
matches: .mat files (real matches, e.g. Backgammon Galaxy exports) analysed
by gnubg's command-line program and by us at the same plies, and gnubg's
``show statistics match`` compared figure by figure with
``backgammon.statistics``.

    nice -n 10 python benchmarks/statistics_agreement.py MATS... --ply 0 --out results.json

A .mat with gnubg's analysis beside it (NAME.sgf and NAME.stats.txt, as
``human_blunders.py --prepare`` leaves them) at the same plies and gnubg's
own marks is read as it is; else gnubg analyses it first.  With the SGF,
our analysis is of the match as gnubg read it, and gnubg's very bad
decisions (its blunders) are compared action by action: the share we mark
an error or worse (our marks at gnubg's too).

For each match and player: the checker, cube and overall error rates
(mEMG), the luck rate, the three rating names, the marks, the doubles,
takes and passes, the actual and luck-adjusted results; then the
agreement: the same rating names, the rates' correlation, the same player
order (the player with the lower overall error rate) where gnubg's PRs
(its overall rate / 2) differ by more than 1.  Marks are gnubg 1.07's own
(0.03, 0.06, 0.12) on both sides.

``--evaluator gnubg-nn`` runs our analysis, unchanged, on gnubg-nn's 0-ply
network in place of ours (``human_gaps.gnubg_chances``; gnubg-nn is an
oracle here, never a dependency): what is left between the two analyses
then is the method's, not the networks'.  ``--out`` is written as each
match finishes; ``--resume`` keeps the matches already in it (run with the
same ply and evaluator) and analyses only the others.

    nice -n 10 python benchmarks/statistics_agreement.py MATS... --ply 2 --evaluator gnubg-nn \
        --out RESULT.json --resume
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import backgammon as bg
from backgammon.analysis import analyse
from backgammon.errors import FormatError
from backgammon.evaluator import as_evaluator
from backgammon.statistics import GNUBG_MARKS, statistics

sys.path.insert(0, str(Path(__file__).parent))
from gnubg_analysed import analyse_with_gnubg  # noqa: E402
from human_blunders import _ours, _theirs  # noqa: E402
from human_gaps import gnubg_chances  # noqa: E402

#: The evaluators our analysis can run on: the shipped networks, or gnubg-nn's 0-ply network
#: (the side on roll in row 1, as ours: ``human_gaps.gnubg_chances``).
EVALUATORS = {"ours": None, "gnubg-nn": gnubg_chances}

NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")


def gnubg_rows(text: str) -> dict:
    """{label: (numbers, words)} of gnubg's statistics table."""
    lines = text.splitlines()
    start = max(k for k, line in enumerate(lines) if line.startswith("Player "))
    out = {}
    for line in lines[start + 1:]:
        m = re.match(r"(\S.*?)\s{2,}(\S.*)$", line)
        if m:
            rest = m.group(2)
            out.setdefault(m.group(1).strip(), ([float(x) for x in NUMBER.findall(rest)],
                                                 NUMBER.sub("", rest).replace("(", " ").replace(")", " ")
                                                 .replace("%", " ").split()))
    return out


def _names(words: list[str]) -> list[str]:
    """Two rating names from the words of a rating row."""
    text = " ".join(words)
    found = re.findall(r"Awful!|Beginner|Casual player|Intermediate|Advanced|Expert|World class|Supernatural|n/a",
                       text)
    return found


def _analysed_by_gnubg(mat: Path, ply: int) -> tuple[str, bytes | None]:
    """The text of NAME.stats.txt of gnubg's analysis of ``mat`` at ``ply``
    with its own marks, and its SGF's bytes (None without one): the files
    beside it when they were made so, else made in a folder removed after."""
    beside = mat.with_suffix(".stats.txt")
    if beside.exists() and mat.with_suffix(".sgf").exists():
        text = beside.read_text()
        marks = [f"`{name}' threshold set to {m:.3f}." for name, m in zip(("doubtful", "bad", "verybad"), GNUBG_MARKS)]
        if all(m in text for m in marks) and f"chequerplay will use {ply} ply" in text:
            return text, mat.with_suffix(".sgf").read_bytes()
    with tempfile.TemporaryDirectory() as work:
        local = Path(work) / "m.mat"
        shutil.copy(mat, local)
        analyse_with_gnubg(local, ply, GNUBG_MARKS)
        sgf = local.with_suffix(".sgf")
        return local.with_suffix(".stats.txt").read_text(), sgf.read_bytes() if sgf.exists() else None


def _blunders(record, analysis) -> tuple[int, int]:
    """gnubg's very bad decisions in an analysed SGF, and of them those our
    analysis marks an error or worse (matched action by action)."""
    ours, theirs = _ours(analysis), _theirs(record)
    keys = [k for k, skill in theirs.items() if skill == "blunder" and k in ours]
    return len(keys), sum(ours[k] in ("error", "blunder") for k in keys)


def compare(mat: Path, ply: int, evaluator=None) -> dict:
    stats_text, sgf = _analysed_by_gnubg(mat, ply)
    g = gnubg_rows(stats_text)
    record = bg.read_sgf(sgf, partial=True) if sgf is not None else \
        bg.read_mat(mat.read_text(errors="replace"))
    cpu = time.process_time()
    analysis = analyse(record, ply=ply, cube_ply=ply, workers=1, thresholds=GNUBG_MARKS, evaluator=evaluator)
    cpu = time.process_time() - cpu
    s = statistics(analysis)
    blunders = _blunders(record, analysis) if sgf is not None else (0, 0)
    rows = []
    for k, p in enumerate(s.players):
        def col(label, per=2):
            v = g.get(label, ([], []))[0]
            return v[k * per] if len(v) >= per * 2 else None
        rows.append(dict(
            player=p.name,
            ours=dict(checker=1000 * (p.checker_rate or 0), cube=1000 * (p.cube_rate or 0),
                      overall=1000 * (p.error_rate or 0), luck=1000 * (p.luck_rate or 0),
                      ratings=[p.checker_rating if p.unforced_moves else "n/a",
                               p.cube_rating if p.close_cube else "n/a",
                               p.overall_rating if p.decisions else "n/a"],
                      marks=[p.checker_marks[m] for m in ("doubtful", "bad", "very bad")],
                      doubles=p.doubles, takes=p.takes, passes=p.passes, unforced=p.unforced_moves,
                      close=p.close_cube, luck_adjusted=p.luck_adjusted_result),
            gnubg=dict(checker=-col("Error rate mEMG (MWC)") if col("Error rate mEMG (MWC)") is not None else None,
                       luck=col("Luck rate mEMG (MWC)"),
                       ratings=[_names(g.get(r, ([], []))[1])[k] if len(_names(g.get(r, ([], []))[1])) == 2 else None
                                for r in ("Chequerplay rating", "Cube decision rating", "Overall rating")],
                       marks=[g[f"Moves marked {m}"][0][k] for m in ("doubtful", "bad", "very bad")],
                       doubles=g["Doubles"][0][k], takes=g["Takes"][0][k], passes=g["Passes"][0][k],
                       unforced=g["Unforced moves"][0][k], close=g["Close or actual cube decisions"][0][k])))
    # the error-rate rows repeat (chequer, cube, overall): read them in order
    rates = [ln for ln in stats_text.splitlines() if ln.startswith("Error rate mEMG")]
    for kind, line in zip(("checker", "cube", "overall"), rates):
        nums = [float(x) for x in NUMBER.findall(line.split("  ", 1)[1])]
        for k in (0, 1):
            rows[k]["gnubg"][kind] = -nums[2 * k]
    return {"match": mat.name, "length": record.length, "players": rows, "gnubg_blunders": blunders[0],
            "gnubg_blunders_we_mark_error": blunders[1], "seconds": analysis.seconds,
            "cpu_seconds": round(cpu, 2)}


def summary(results: list[dict]) -> dict:
    pairs = [(p["ours"], p["gnubg"]) for r in results for p in r["players"]]
    ratings = [(o["ratings"][j], t["ratings"][j]) for o, t in pairs for j in range(3)]
    same = sum(a == b for a, b in ratings)
    overall = np.array([[o["overall"], t["overall"]] for o, t in pairs])
    order, counted = 0, 0
    for r in results:
        a, b = r["players"]
        if abs(a["gnubg"]["overall"] - b["gnubg"]["overall"]) / 2 > 1:      # PR = rate / 2
            counted += 1
            order += (a["ours"]["overall"] < b["ours"]["overall"]) == (a["gnubg"]["overall"] < b["gnubg"]["overall"])
    exact = sum(o[k] == t[k] for o, t in pairs for k in ("doubles", "takes", "passes", "unforced"))
    blunders = [sum(r.get("gnubg_blunders", 0) for r in results), sum(r.get("gnubg_blunders_we_mark_error", 0)
                                                                      for r in results)]
    return {"matches": len(results), "rating_names_same": [same, len(ratings)],
            "gnubg_blunders_we_mark_error": [blunders[1], blunders[0]],
            "seconds": round(sum(r.get("seconds", 0.0) for r in results), 1),
            "cpu_seconds": round(sum(r.get("cpu_seconds", 0.0) for r in results), 1),
            "overall_rate_correlation": float(np.corrcoef(overall.T)[0, 1]) if len(overall) > 2 else None,
            "player_order_same": [order, counted], "counts_same": [exact, 4 * len(pairs)]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mats", nargs="+", type=Path)
    ap.add_argument("--ply", type=int, default=0)
    ap.add_argument("--evaluator", choices=sorted(EVALUATORS), default="ours",
                    help="our analysis's evaluator: the shipped networks, or gnubg-nn's 0-ply network")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--resume", action="store_true",
                    help="keep the matches already in --out and analyse only the others")
    args = ap.parse_args(argv)
    results = []
    if args.resume:
        if not args.out:
            ap.error("--resume needs --out")
        if args.out.exists():
            saved = json.loads(args.out.read_text())
            # One file, one setting: results of another ply or evaluator would be mixed in silently.
            kept = {"ply": saved.get("ply"), "evaluator": saved.get("evaluator", "ours")}
            differ = [k for k, v in kept.items() if v != vars(args)[k]]
            if differ:
                ap.error(f"--resume: {args.out} was run with other settings "
                         + ", ".join(f"{k}={kept[k]!r} (now {vars(args)[k]!r})" for k in differ))
            results = saved["results"]
    done = {r["match"] for r in results}
    evaluator = EVALUATORS[args.evaluator]
    if evaluator is not None:
        evaluator = as_evaluator(evaluator)
    for mat in args.mats:
        if mat.name in done:
            continue
        try:
            r = compare(mat, args.ply, evaluator)
        except (FormatError, subprocess.CalledProcessError) as e:       # a file we or gnubg cannot read
            print(f"{mat.name}: skipped: {e}", flush=True)
            continue
        results.append(r)
        for p in r["players"]:
            o, t = p["ours"], p["gnubg"]
            print(f"{r['match']:<28} {p['player']:<14} overall {o['overall']:6.1f} / {t['overall']:6.1f} mEMG, "
                  f"ratings {o['ratings']} / {t['ratings']}", flush=True)
        if args.out:
            args.out.write_text(json.dumps({"ply": args.ply, "evaluator": args.evaluator, "results": results,
                                            "summary": summary(results)}, indent=1))
    print(json.dumps(summary(results), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
