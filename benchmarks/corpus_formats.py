"""Rebuild and measure the local corpus of real .mat files (tests/data/README,
docs/guide/files.md), so that it can be made again on any machine.

    python benchmarks/corpus_formats.py extract CORPUS   # the files, SOURCES.tsv
    python benchmarks/corpus_formats.py gnubg CORPUS     # gnubg's reading, gnubg.json
    python benchmarks/corpus_formats.py measure CORPUS   # the table, measure_mat.txt
    python benchmarks/corpus_formats.py xg CORPUS --gammonview DIR   # the real .xg files
    python benchmarks/corpus_formats.py measure-xg CORPUS    # each .xg read, its exports compared

``xg`` gathers the real .xg files (kevung/gbf's data/ and the two
synthetic ones of Insti/xgdatatools from their mirrors; gammonview's
samples/xg and samples/mat from its source distribution, unpacked in DIR:
``pip download gammonview==3.1.0 --no-binary :all: --no-deps``) into
CORPUS/xg with SOURCES.tsv, each .xg beside the text exports of the same
match (tests/test_xg.py::test_real_xg_files reads them).

``extract`` takes the .mat files of the public repositories below from
their git mirrors (the ``fetch`` tool's /work/.mirror/OWNER+NAME, or any
directory given by --mirrors) at the commit they are at, and writes each
under CORPUS/mat/OWNER+NAME/PATH with a row of SOURCES.tsv (repository,
commit, path, program, local_path).  ``gnubg`` runs Debian's gnubg
(``gnubg -t``) on each file, ``import mat`` then ``export match mat``,
one process a file, and keeps what read_mat reads of the export (the
score before each game, the winner, the points) in CORPUS/mat/gnubg.json;
money sessions whose header says Jacoby "Off" are imported with
``set jacoby off``, as the file says.  ``measure`` reads every file with
read_mat (the default: an illegal play is a set board with a warning) and
counts, per program, the files whose every game is gnubg's.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SOURCES = {
    # repository: (the files' paths, as a regular expression; what not to take)
    "lassehjorthmadsen/bglab": (r"^data-raw/[^/]+/raw/.*\.txt$", None),
    "BGChallengeAdmin/TheBackgammonChallenge": (r"HistoricMatches/.*\.(txt|mat)$", None),
    "bgnori/bglib": (r"^bglib/record/snowietxt/.*\.txt$", None),
    "kevung/gbf": (r"^data/.*\.(txt|mat)$", None),
    "lassehjorthmadsen/raccoon": (r"\.(txt|mat)$", r"(^|/)(requirements|CMakeLists)"),
    "halheinrich/BgMatchFormat_Lib": (r"Goldens/.*\.mat$", None),
}
MATCH = re.compile(rb"(\d+ point match|Money session)", re.I)
GNUBG = "/usr/games/gnubg"


def _git(mirror: Path, *args) -> bytes:
    gitdir = mirror / "repo" / ".git" if (mirror / "repo" / ".git").is_dir() else mirror / "repo"
    return subprocess.run(["git", f"--git-dir={gitdir}", *args], check=True, capture_output=True).stdout


def program(repo: str, path: str, data: bytes) -> str:
    site = re.search(rb'\[Site "([^"]*)"', data[:2000])
    head = data[:3000]
    if repo == "halheinrich/BgMatchFormat_Lib":
        return "BgMatchFormat_Lib"
    if site and b"Studio" in site.group(1):
        return "BackgammonStudio"
    if site and b"Galaxy" in site.group(1) or re.search(r"/raw/match\d+\.txt$", path):
        return "BackgammonGalaxy"
    if head.startswith(b"\xef\xbb\xbf") or b"eXtreme Gammon" in head or b"XG" in (site.group(1) if site else b""):
        return "XG"
    if repo == "bgnori/bglib":
        name = path.rsplit("/", 1)[-1]
        if re.fullmatch(r"\d{7}\.txt", name):
            return "DailyGammon"
        if "-nori-" in name:
            return "PlayOK"
        return "GNUBG"
    if repo == "lassehjorthmadsen/raccoon":
        return "Raccoon"
    if re.search(rb"PlayOK|,\d{3,4}\s", head):
        return "PlayOK"
    return "other"


def extract(corpus: Path, mirrors: Path) -> None:
    out = corpus / "mat"
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for repo, (keep, skip) in SOURCES.items():
        mirror = mirrors / repo.replace("/", "+")
        commit = _git(mirror, "rev-parse", "HEAD").decode().strip()
        for path in _git(mirror, "ls-tree", "-r", "--name-only", "-z", "HEAD").decode().split("\0"):
            if not path or not re.search(keep, path) or (skip and re.search(skip, path)):
                continue
            data = _git(mirror, "show", f"HEAD:{path}")
            if not MATCH.search(data[:4000]) or b"Game 1" not in data and b"Game  1" not in data:
                continue
            local = f"{repo.replace('/', '+')}/{path}"
            (out / local).parent.mkdir(parents=True, exist_ok=True)
            (out / local).write_bytes(data)
            rows.append({"repository": repo, "commit": commit, "path": path,
                         "program": program(repo, path, data), "local_path": local})
    with open(out / "SOURCES.tsv", "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, ["repository", "commit", "path", "program", "local_path"], delimiter="\t")
        w.writeheader()
        w.writerows(rows)
    print(f"{len(rows)} files; " + ", ".join(f"{p} {n}" for p, n in Counter(r["program"] for r in rows).most_common()))


def xg(corpus: Path, mirrors: Path, gammonview: Path | None) -> None:
    out = corpus / "xg"
    out.mkdir(parents=True, exist_ok=True)
    rows = []

    def put(repo, commit, path, data, local):
        (out / local).parent.mkdir(parents=True, exist_ok=True)
        (out / local).write_bytes(data)
        return str(out / local)

    for repo, keep in (("kevung/gbf", r"^data/"), ("Insti/xgdatatools", r"\.xg$")):
        mirror = mirrors / repo.replace("/", "+")
        commit = _git(mirror, "rev-parse", "HEAD").decode().strip()
        paths = [p for p in _git(mirror, "ls-tree", "-r", "--name-only", "-z", "HEAD").decode().split("\0")
                 if p and re.search(keep, p)]
        for path in paths:
            if not path.endswith(".xg"):
                continue
            stem = path[:-3]
            local = put(repo, commit, path, _git(mirror, "show", f"HEAD:{path}"), f"{repo.replace('/', '+')}/{path}")
            pairs = [put(repo, commit, p, _git(mirror, "show", f"HEAD:{p}"), f"{repo.replace('/', '+')}/{p}")
                     for p in (stem + ".txt", stem + ".mat") if p in paths]
            rows.append({"repository": repo, "commit": commit, "path": path, "local_path": local,
                         "paired_text_export_local_path": ",".join(pairs)})
    if gammonview:
        for x in sorted((gammonview / "samples" / "xg").glob("*.xg")):
            local = put("gammonview", "3.1.0", x.name, x.read_bytes(), f"gammonview/{x.name}")
            mat = gammonview / "samples" / "mat" / (x.stem + ".mat")
            pair = put("gammonview", "3.1.0", mat.name, mat.read_bytes(), f"gammonview/{mat.name}") if mat.exists() else ""
            rows.append({"repository": "gammonview 3.1.0 (PyPI sdist)", "commit": "3.1.0", "path": f"samples/xg/{x.name}",
                         "local_path": local, "paired_text_export_local_path": pair})
    with open(out / "SOURCES.tsv", "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, ["repository", "commit", "path", "local_path", "paired_text_export_local_path"],
                           delimiter="\t")
        w.writeheader()
        w.writerows(rows)
    print(f"{len(rows)} .xg files in {out}")


def _reading(record) -> dict:
    return {"ok": True, "players": list(record.players), "length": record.length,
            "games": [{"score": list(g.score), "winner": g.winner, "points": g.points if g.winner is not None else None}
                      for g in record.games]}


def _gnubg_one(path: Path, work: Path) -> dict:
    import backgammon as bg
    out = work / (re.sub(r"\W", "_", str(path))[-120:] + ".mat")
    if out.exists():
        out.unlink()
    data = path.read_bytes()
    script = ["set confirm new off"]
    if re.search(rb'\[Jacoby "Off"\]', data[:3000]):
        script.append("set jacoby off")
    script += [f'import mat "{path}"', f'export match mat "{out}"']
    try:
        done = subprocess.run(["nice", "-n", "10", GNUBG, "-t", "-q", "-r"], input="\n".join(script) + "\n",
                              capture_output=True, text=True, cwd=work, timeout=300, env={**os.environ, "LANG": "C"})
        said = done.stdout + done.stderr
    except subprocess.TimeoutExpired:
        return {"ok": False, "reason": "gnubg timed out"}
    if not out.exists():
        lines = [ln for ln in said.splitlines() if ln.strip() and not ln.startswith(" ")]
        return {"ok": False, "reason": f"gnubg exported nothing ({lines[-1][:100] if lines else 'no message'})"}
    try:
        record = bg.read_mat(out.read_bytes(), partial=True)
    except bg.formats.mat.MatFileError as e:
        return {"ok": False, "reason": f"gnubg's export does not read: {e}"}
    finally:
        out.unlink()
    return _reading(record)


def gnubg(corpus: Path, workers: int) -> None:
    here = corpus / "mat"
    rows = list(csv.DictReader(open(here / "SOURCES.tsv", encoding="utf-8"), delimiter="\t"))
    store = here / "gnubg.json"
    done = json.loads(store.read_text()) if store.exists() else {}
    todo = [r["local_path"] for r in rows if r["local_path"] not in done]
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(workers) as pool:
        for k, (local, reading) in enumerate(zip(todo, pool.map(lambda p: _gnubg_one(here / p, Path(tmp)), todo))):
            done[local] = reading
            if k % 100 == 99:                      # a checkpoint: the run continues where it stopped
                store.write_text(json.dumps(done))
                print(f"{len(done)}/{len(rows)}", flush=True)
    store.write_text(json.dumps(done))
    print(f"{len(done)} readings in {store}")


def ours(path: Path):
    """read_mat's reading, the default (set boards) as a user gets it; a
    file cut inside a game is read with partial=True."""
    from backgammon.formats.mat import MatFileError, read_mat
    data = path.read_bytes()
    try:
        return read_mat(data)
    except MatFileError as e:
        if "truncated" not in str(e):
            raise
        return read_mat(data, partial=True)


def measure(corpus: Path, verbose: bool) -> None:
    from backgammon.formats.mat import MatFileError
    here = corpus / "mat"
    rows = list(csv.DictReader(open(here / "SOURCES.tsv", encoding="utf-8"), delimiter="\t"))
    readings = json.loads((here / "gnubg.json").read_text())
    table = defaultdict(Counter)
    notes = []
    for row in rows:
        local, prog = row["local_path"], row["program"]
        theirs = readings.get(local)
        if theirs is None:
            continue
        try:
            record = ours(here / local)
        except MatFileError as e:
            table[prog]["files"] += 1
            table[prog]["refused"] += 1
            notes.append(f"refused  {prog}  {local}: {e}")
            continue
        setboards = sum(e.kind == "setboard" for g in record.games for e in g.events)
        table[prog]["setboard"] += bool(setboards)
        if not theirs["ok"]:
            table[prog]["gnubg_refuses"] += 1
            notes.append(f"gnubg    {prog}  {local}: {theirs['reason']}")
            continue
        table[prog]["files"] += 1
        mine = _reading(record)["games"]
        if mine == theirs["games"]:
            table[prog]["agree"] += 1
            if setboards:
                notes.append(f"setboard-agree  {prog}  {local}: {setboards} set board(s)")
        else:
            table[prog]["differ"] += 1
            k = next((i for i, (a, b) in enumerate(zip(mine, theirs["games"])) if a != b), min(len(mine), len(theirs["games"])))
            notes.append(f"differ   {prog}  {local}: {len(mine)} games here, {len(theirs['games'])} gnubg; game {k + 1}: "
                         f"{mine[k] if k < len(mine) else None} here, {theirs['games'][k] if k < len(theirs['games']) else None} gnubg"
                         + (f"; {setboards} set board(s)" if setboards else ""))
    total = Counter()
    print(f"{'program':20} {'files':>6} {'agree':>6} {'share':>7} {'refused':>8} {'differ':>7} {'set board':>9} gnubg refuses")
    for prog, c in sorted(table.items(), key=lambda kv: -kv[1]["files"]):
        total.update(c)
        print(f"{prog:20} {c['files']:6} {c['agree']:6} {c['agree'] / max(c['files'], 1):7.1%} {c['refused']:8} "
              f"{c['differ']:7} {c['setboard']:9} {c['gnubg_refuses']}")
    print(f"{'all':20} {total['files']:6} {total['agree']:6} {total['agree'] / max(total['files'], 1):7.1%} "
          f"{total['refused']:8} {total['differ']:7} {total['setboard']:9} {total['gnubg_refuses']}")
    if verbose:
        print("\n".join(sorted(notes)))


def measure_xg(corpus: Path) -> None:
    """Each .xg read by read_xg (set boards by default), its warnings, and
    its text exports read by read_mat compared game by game (a roll as a
    pair of dice, a set board by the board given)."""
    from backgammon.formats.mat import MatFileError, read_mat
    from backgammon.formats.xg import XgFileError, read_xg

    def games(record):
        return [(g.score, g.winner, g.points,
                 [(e.kind, e.player, tuple(sorted(e.value))) if e.kind == "roll" else
                  (e.kind, e.player, e.value.position) if e.kind == "setboard" else e for e in g.events])
                for g in record.games]

    rows = list(csv.DictReader(open(corpus / "xg" / "SOURCES.tsv", encoding="utf-8"), delimiter="\t"))
    for row in rows:
        name = os.path.basename(row["local_path"])
        try:
            record = read_xg(Path(row["local_path"]).read_bytes())
        except XgFileError as e:
            print(f"refused {name}: {e}")
            continue
        boards = sum(e.kind == "setboard" for g in record.games for e in g.events)
        print(f"read {name}: {len(record.games)} games, {record.score}, {boards} set boards, "
              f"{len(record.warnings)} warnings")
        for w in record.warnings:
            print(f"    {w}")
        for pair in filter(None, row["paired_text_export_local_path"].split(",")):
            try:
                text = read_mat(Path(pair).read_bytes())
            except MatFileError as e:
                print(f"  export {os.path.basename(pair)} refused: {e}")
                continue
            print(f"  export {os.path.basename(pair)}: {'same' if games(text) == games(record) else 'DIFFERS'}")


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("step", choices=["extract", "gnubg", "measure", "xg", "measure-xg"])
    p.add_argument("corpus", type=Path, help="the corpus folder, e.g. /work/corpus")
    p.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    p.add_argument("--gammonview", type=Path, help="gammonview's unpacked source distribution (for xg)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("-v", "--verbose", action="store_true", help="name every file that does not agree")
    a = p.parse_args(argv)
    if a.step == "extract":
        extract(a.corpus, a.mirrors)
    elif a.step == "gnubg":
        gnubg(a.corpus, a.workers)
    elif a.step == "measure-xg":
        measure_xg(a.corpus)
    elif a.step == "xg":
        xg(a.corpus, a.mirrors, a.gammonview)
    else:
        measure(a.corpus, a.verbose)


if __name__ == "__main__":
    main(sys.argv[1:])
