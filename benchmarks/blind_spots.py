"""Where the networks are blind: per position type (blitz, back game,
prime, crashed, contact bear-in, other contact, race;
``backgammon.position_types``), the RMS distance of a network's 0-ply
chances and equity to (a) its own untruncated variance-reduced rollouts
and (b) gnubg's 2-ply (issue 41).

    python benchmarks/blind_spots.py [--nets FILE] [--games 36] [--workers 1] [--markdown]
    python benchmarks/blind_spots.py --build --matches DIR [--per-type 100] [--seed 7]

The positions (``benchmarks/data/blind_spots.npz``) are, per type, up to
``--per-type`` positions of the shipped networks' 0-ply self-play from the
opening (a play in ten at random; seed ``--seed``; none of those in the
training set ``training/blind_spots.positions.npz``) and as many from
public match files between people (Backgammon Studio exports, read with
``read_mat``; the file, game and move of each are kept).  ``--build``
gathers them and stores gnubg's 0-ply and 2-ply chances beside them
(``gnubg-nn``; gnubg is an oracle here, never a label).

Each run rolls every position out with the networks measured (``--games``
games, to the end or to the bear-off tables, each roll's luck subtracted,
0-ply play), caching the rollouts per network
(``benchmarks/data/blind_spots.rollouts.npz``, keyed by the SHA-256 of
the weights).  The columns: ``win``, ``gammon`` (both gammon chances) and
``equity`` RMS to the rollouts and to gnubg 2-ply; ``noise`` the RMS
standard error of the rollouts' equity (what part of the distance to them
is the rollouts' own); ``ro-g2`` the rollouts' equity to gnubg 2-ply and
``g0-g2`` gnubg's 0-ply to its 2-ply, for scale.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import numpy as np

from backgammon import _net, network
from backgammon.position_types import NETWORK_TYPES, TYPES, position_types

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "blind_spots.npz"
ROLLOUTS = HERE / "data" / "blind_spots.rollouts.npz"
TRAINING = HERE.parent / "training" / "blind_spots.positions.npz"
SOURCES = ("self-play", "matches")
ROLLOUT_SEED = 707


def equity(p: np.ndarray) -> np.ndarray:
    p = np.asarray(p, dtype=np.float64)
    return 2 * p[..., 0] - 1 + p[..., 1] - p[..., 3] + p[..., 2] - p[..., 4]


def rms(x) -> float:
    x = np.asarray(x)
    return float(np.sqrt(np.mean(np.square(x)))) if x.size else float("nan")


# -- gathering the positions ------------------------------------------------------------------

def match_positions(folder: Path):
    """(boards, origins) of every position before a play in the match
    files under ``folder`` that ``read_mat`` reads (files it refuses are
    skipped), the side on roll in row 1."""
    import backgammon as bg
    from backgammon.game import Game, Phase
    boards, origins = [], []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        try:
            record = bg.read_mat(path.read_bytes())
        except Exception:
            continue
        for g, rec in enumerate(record.games):
            game = Game(rules=record.rules)
            try:
                for k, event in enumerate(rec.events):
                    if event.kind == "play" and game.phase is Phase.PLAY:
                        boards.append(game.position.array.copy())
                        origins.append(f"{path.relative_to(folder)}:game {g + 1}:event {k + 1}")
                    game.apply(event)
            except Exception:
                continue
    return np.array(boards, np.uint8).reshape(-1, 2, 25), origins


def _pick(kinds, n, rng) -> np.ndarray:
    out = []
    for name in NETWORK_TYPES:
        pool = np.flatnonzero(kinds == TYPES.index(name))
        out.append(np.sort(rng.choice(pool, min(n, len(pool)), replace=False)))
    return np.concatenate(out)


def _keys(boards) -> set:
    return {b.tobytes() for b in np.ascontiguousarray(boards, np.uint8)}


def build(matches: Path, per_type: int, seed: int, games: int) -> None:
    import gnubg_nn
    rng = np.random.default_rng(seed)
    nets = network.default()
    held = _keys(np.load(TRAINING)["boards"]) if TRAINING.exists() else set()
    sp = _net.sample_positions(nets, games, rng, 0.1)
    sp = sp[np.array([b.tobytes() not in held for b in sp], bool)]
    _, first = np.unique(sp.reshape(len(sp), -1), axis=0, return_index=True)
    sp = sp[np.sort(first)]
    sp_kinds = position_types(sp)
    sp_pick = _pick(sp_kinds, per_type, rng)
    mb, origins = match_positions(matches)
    keep = np.array([b.tobytes() not in held for b in mb], bool)
    mb, origins = mb[keep], [o for o, k in zip(origins, keep) if k]
    _, first = np.unique(mb.reshape(len(mb), -1), axis=0, return_index=True)
    first = np.sort(first)
    mb, origins = mb[first], [origins[i] for i in first]
    m_kinds = position_types(mb)
    m_pick = _pick(m_kinds, per_type, rng)
    boards = np.concatenate([sp[sp_pick], mb[m_pick]])
    kinds = np.concatenate([sp_kinds[sp_pick], m_kinds[m_pick]])
    source = np.concatenate([np.zeros(len(sp_pick), np.int8), np.ones(len(m_pick), np.int8)])
    origin = np.array([f"self-play seed {seed}"] * len(sp_pick) + [origins[i] for i in m_pick])
    print(f"{len(sp):,} self-play and {len(mb):,} match positions; {len(boards):,} chosen; gnubg...",
          file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    g0 = np.array([gnubg_nn.probabilities(b.tolist(), 0) for b in boards], np.float32)
    g2 = np.array([gnubg_nn.probabilities(b.tolist(), 2) for b in boards], np.float32)
    print(f"gnubg 0- and 2-ply in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    DATA.parent.mkdir(exist_ok=True)
    np.savez_compressed(DATA, boards=boards, types=kinds, source=source, origin=origin, gnubg0=g0, gnubg2=g2,
                        type_names=np.array(TYPES), seed=seed, games=games)


# -- rollouts ----------------------------------------------------------------------------------

def rollouts(nets, boards: np.ndarray, games: int, seed: int = ROLLOUT_SEED, progress: bool = True):
    """Each board's mean variance-reduced result of ``games`` untruncated
    games of 0-ply play by ``nets`` (n, 5) and the standard error of its
    equity (n,)."""
    from backgammon import _choice, _rollout, bearoff
    tables = bearoff.kernel_tables()
    net = int(_choice.Policy.POLICY_NET)
    mean = np.empty((len(boards), 5))
    se = np.empty(len(boards))
    t0 = time.perf_counter()
    for i, board in enumerate(boards):
        key = int(np.random.SeedSequence(seed, spawn_key=(i,)).generate_state(1, np.uint64)[0])
        results, luck = _rollout.play_games(np.ascontiguousarray(board).reshape(-1), 0, games, key, net, net,
                                            True, -1, True, True, nets=nets, **tables)
        v = results - luck
        mean[i] = np.clip(v.mean(axis=0), 0.0, 1.0)
        se[i] = equity(v).std(ddof=1) / np.sqrt(games)
        if progress and (i + 1) % 100 == 0:
            print(f"  {i + 1}/{len(boards)} rolled out, {time.perf_counter() - t0:.0f} s", file=sys.stderr,
                  flush=True)
    return mean, se


def digest(nets) -> str:
    """A hash of the networks' weights (the pruning network included)."""
    h = hashlib.sha256()
    for k, v in sorted(nets.arrays.items()):
        h.update(k.encode())
        h.update(np.ascontiguousarray(v).tobytes())
    return h.hexdigest()


def cached_rollouts(nets, boards, games: int):
    digest_ = digest(nets)
    key = f"{digest_[:16]}_{games}"
    store = dict(np.load(ROLLOUTS)) if ROLLOUTS.exists() else {}
    if f"{key}_mean" in store and len(store[f"{key}_mean"]) == len(boards) and \
            np.array_equal(store.get(f"{key}_boards"), boards):
        return store[f"{key}_mean"], store[f"{key}_se"]
    mean, se = rollouts(nets, boards, games)
    store.update({f"{key}_mean": mean, f"{key}_se": se, f"{key}_boards": boards})
    np.savez_compressed(ROLLOUTS, **store)
    return mean, se


# -- the table ---------------------------------------------------------------------------------

def table(ours, ro, se, g0, g2, kinds, source=None):
    """Rows per type (and all): n, then RMS of win, gammons and equity to
    the rollouts, the noise, the same three to gnubg 2-ply, ro-g2 and g0-g2."""
    rows = []
    e_ours, e_ro, e_g0, e_g2 = equity(ours), equity(ro), equity(g0), equity(g2)
    for name in [*NETWORK_TYPES, "all"]:
        m = np.ones(len(kinds), bool) if name == "all" else kinds == TYPES.index(name)
        if source is not None:
            m &= source
        if not m.any():
            continue
        gam = lambda a, b: rms(np.concatenate([a[m, 1] - b[m, 1], a[m, 3] - b[m, 3]]))
        rows.append((name, int(m.sum()),
                     rms(ours[m, 0] - ro[m, 0]), gam(ours, ro), rms(e_ours[m] - e_ro[m]), rms(se[m]),
                     rms(ours[m, 0] - g2[m, 0]), gam(ours, g2), rms(e_ours[m] - e_g2[m]),
                     rms(e_ro[m] - e_g2[m]), rms(e_g0[m] - e_g2[m])))
    return rows


HEAD = ("type", "n", "win", "gammon", "equity", "noise", "win", "gammon", "equity", "ro-g2", "g0-g2")


def show(rows, markdown: bool, rollouts: bool = True, digits: int = 3) -> str:
    """The rows as text or markdown; without ``rollouts`` only the columns
    against gnubg (win, gammons, equity to 2-ply and gnubg 0-ply to 2-ply)."""
    cols = list(range(2, 11)) if rollouts else [6, 7, 8, 10]
    if markdown:
        names = ["win", "gammons", "equity", "noise", "win", "gammons", "equity", "rollouts to g2", "gnubg 0 to g2"]
        out = ["| type | n | " + " | ".join(names[c - 2] for c in cols) + " |",
               "|---|---:|" + "---:|" * len(cols)]
        out += ["| " + " | ".join([r[0], f"{r[1]:,}", *(f"{r[c]:.{digits}f}" for c in cols)]) + " |" for r in rows]
        return "\n".join(out)
    w = digits + 5
    if rollouts:
        out = [" " * 20 + "to our rollouts".center(4 * w) + "  |  to gnubg 2-ply",
               f"{HEAD[0]:14s}{HEAD[1]:>6s}" + "".join(f"{h:>{w}s}" for h in HEAD[2:6]) + "  |" +
               "".join(f"{h:>{w}s}" for h in HEAD[6:])]
        out += [f"{r[0]:14s}{r[1]:6d}" + "".join(f"{v:{w}.{digits}f}" for v in r[2:6]) + "  |" +
                "".join(f"{v:{w}.{digits}f}" for v in r[6:]) for r in rows]
        return "\n".join(out)
    out = [" " * 20 + "to gnubg 2-ply",
           f"{HEAD[0]:14s}{HEAD[1]:>6s}" + "".join(f"{HEAD[c]:>{w}s}" for c in cols)]
    out += [f"{r[0]:14s}{r[1]:6d}" + "".join(f"{r[c]:{w}.{digits}f}" for c in cols) for r in rows]
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nets", help="a weight file (default: the shipped networks)")
    ap.add_argument("--games", type=int, default=36, help="rollout games a position")
    ap.add_argument("--no-rollouts", action="store_true", help="only the distance to gnubg")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--digits", type=int, default=3, choices=range(1, 9), metavar="1-8",
                    help="decimal places in the table")
    ap.add_argument("--build", action="store_true", help="gather the positions and gnubg's values")
    ap.add_argument("--matches", type=Path, help="a folder of .mat files (with --build)")
    ap.add_argument("--per-type", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--selfplay-games", type=int, default=3000)
    args = ap.parse_args(argv)
    if args.build:
        if args.matches is None:
            ap.error("--build needs --matches DIR")
        build(args.matches, args.per_type, args.seed, args.selfplay_games)
    d = np.load(DATA)
    boards, kinds, source = d["boards"], d["types"], d["source"]
    nets = network.load(args.nets) if args.nets else network.default()
    ours = _net.evaluate(nets, boards, 0).astype(np.float64)
    if args.no_rollouts:
        ro, se = np.full_like(ours, np.nan), np.full(len(boards), np.nan)
    else:
        ro, se = cached_rollouts(nets, boards, args.games)
    for label, m in (("all positions", None), *((f"from {s}", source == i) for i, s in enumerate(SOURCES))):
        what = "no rollouts" if args.no_rollouts else f"rollouts of {args.games} games a position"
        print(f"\n{label} ({args.nets or 'shipped networks'}; {what})")
        print(show(table(ours, ro, se, d["gnubg0"], d["gnubg2"], kinds, m), args.markdown,
                   not args.no_rollouts, args.digits))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
