"""Test helpers: gnubg's own reading of a file, through its ``import``
command, then ``export match mat`` read back with read_mat; and the
comparison of two readings game by game (the score before each game, the
winner, the points, and the plays), the way tests/data/README's tables are
measured.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import backgammon as bg

GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"


def have_gnubg() -> bool:
    return Path(GNUBG).exists()


def gnubg_readings(files: list, command: str, workdir: Path) -> dict:
    """``{path: MatchRecord or the reason gnubg gave none}`` for each file
    imported with ``import <command>`` and exported as ``.mat``."""
    workdir = Path(workdir)
    result = {}
    for k, path in enumerate(files):                    # one process a file: some imports crash gnubg
        out = workdir / f"gnubg_out_{k}.mat"
        if out.exists():
            out.unlink()
        script = ["set confirm new off", f'import {command} "{path}"', f'export match mat "{out}"']
        done = subprocess.run(["nice", "-n", "10", GNUBG, "-t", "-q", "-r"], input="\n".join(script) + "\n",
                              capture_output=True, text=True, cwd=workdir, timeout=600,
                              env={**os.environ, "LANG": "C"})
        if not out.exists():
            said = [ln for ln in (done.stdout + done.stderr).splitlines() if ln.strip() and not ln.startswith(" ")]
            result[path] = f"gnubg exported nothing ({said[-1][:100] if said else 'no message'})"
            continue
        try:
            result[path] = bg.read_mat(out.read_bytes(), partial=True)
        except bg.formats.mat.MatFileError as e:
            result[path] = f"gnubg's export does not read: {e}"
    return result


def _games(record, swap: bool):
    out = []
    for g in record.games:
        score = tuple(g.score)[::-1] if swap else tuple(g.score)
        winner = None if g.winner is None else (1 - g.winner if swap else g.winner)
        plays = []
        for e in g.events:
            if e.kind == "play":
                plays.append((1 - e.player if swap else e.player, str(e.value)))
        out.append((score, winner, g.points if g.winner is not None else 0, plays))
    return out


def compare(ours, theirs, *, money_scores: bool = True) -> list:
    """The differences between two readings of one file, as text (empty:
    the same games, scores, winners, points and plays).  Sides are matched
    by name (gnubg swaps the players of some formats)."""
    swap = tuple(theirs.players) == tuple(ours.players)[::-1] and ours.players[0] != ours.players[1]
    a, b = _games(ours, False), _games(theirs, swap)
    diffs = []
    if len(a) != len(b):
        diffs.append(f"{len(a)} games read here, {len(b)} by the other")
    for k, (x, y) in enumerate(zip(a, b), 1):
        if x[0] != y[0] and (money_scores or ours.length):
            diffs.append(f"game {k}: score {x[0]} here, {y[0]} there")
        if x[1:3] != y[1:3]:
            diffs.append(f"game {k}: winner/points {x[1:3]} here, {y[1:3]} there")
        if x[3] != y[3]:
            n = next((i for i, (p, q) in enumerate(zip(x[3], y[3])) if p != q), min(len(x[3]), len(y[3])))
            diffs.append(f"game {k}: plays differ from play {n + 1} "
                         f"({x[3][n] if n < len(x[3]) else None} here, {y[3][n] if n < len(y[3]) else None} there)")
    return diffs
