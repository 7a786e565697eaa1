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


# gnubg 1.07 converts PartyGammon and BGRoom files to .mat and then loses
# the conversion: it reads its BGRoom .mat back before closing (so before
# flushing) it, and frees the PartyGammon converter's last game twice before
# it is flushed (tests/data/README).  With every file it writes unbuffered
# (this LD_PRELOAD library), the BGRoom import works as its code means it
# to, and the PartyGammon conversion is complete on disk when gnubg
# crashes, so gnubg's own .mat reader can read it.
_UNBUFFERED_C = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
static FILE *opened(FILE *f, const char *m) {
    if (f && (m[0] == 'w' || m[0] == 'a')) setvbuf(f, NULL, _IONBF, 0);
    return f;
}
FILE *fopen(const char *p, const char *m) {
    static FILE *(*real)(const char *, const char *);
    if (!real) real = (FILE *(*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
    return opened(real(p, m), m);
}
FILE *fopen64(const char *p, const char *m) {
    static FILE *(*real)(const char *, const char *);
    if (!real) real = (FILE *(*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen64");
    return opened(real(p, m), m);
}
"""
CONVERTED = ("party", "bgroom")


def unbuffered_stdio(workdir: Path) -> str:
    """The LD_PRELOAD library above, built in ``workdir``."""
    lib = Path(workdir) / "unbuffered_stdio.so"
    if not lib.exists():
        src = Path(workdir) / "unbuffered_stdio.c"
        src.write_text(_UNBUFFERED_C)
        cc = shutil.which("cc") or shutil.which("gcc")
        assert cc, "a C compiler is needed to read PartyGammon and BGRoom files with gnubg"
        subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", str(lib), str(src), "-ldl"], check=True,
                       capture_output=True)
    return str(lib)


def _run(script: list, workdir: Path, preload: str | None = None):
    env = {**os.environ, "LANG": "C"}
    if preload:
        env["LD_PRELOAD"] = preload
    return subprocess.run(["nice", "-n", "10", GNUBG, "-t", "-q", "-r"], input="\n".join(script) + "\n",
                          capture_output=True, text=True, cwd=workdir, timeout=600, env=env)


def gnubg_readings(files: list, command: str, workdir: Path) -> dict:
    """``{path: MatchRecord or the reason gnubg gave none}`` for each file
    imported with ``import <command>`` and exported as ``.mat``.  For
    ``party`` and ``bgroom``, gnubg's own conversion of the file, as above:
    its reading but for the crash and the unflushed file."""
    workdir = Path(workdir)
    preload = unbuffered_stdio(workdir) if command in CONVERTED else None
    result = {}
    for k, path in enumerate(files):                    # one process a file: some imports crash gnubg
        out = workdir / f"gnubg_out_{k}.mat"
        if out.exists():
            out.unlink()
        converted = Path(f"{path}.mat")                 # where gnubg writes its conversion
        if command in CONVERTED and converted.exists():
            converted.unlink()
        script = ["set confirm new off", f'import {command} "{path}"', f'export match mat "{out}"']
        done = _run(script, workdir, preload)
        if command == "party" and not out.exists() and converted.exists():
            # crashed after converting: gnubg's next step, its .mat reader on the conversion
            mat = workdir / f"gnubg_party_{k}.mat"
            converted.replace(mat)
            done = _run(["set confirm new off", f'import mat "{mat}"', f'export match mat "{out}"'], workdir)
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
