"""Policy improvement restricted to late contact (issue 40): TD self-play of
the networks from random late-contact starts, with exploration, anchored
to the base networks elsewhere.

    nice -n 19 python training/late_contact_td.py --out training/late_contact_td.npz \\
        [--nets BASE.npz] [--stages 4] [--stage-games 20000] [--seed 1] [--parallel 512] \\
        [--explore 0.2] [--top 4] [--temperature 0.05] [--lam 0.0] [--lr 0.01] \\
        [--anchor-ratio 1.0] [--anchor-games 2000] [--narrow-anchors] [--bearing-anchors] [--prime-anchors] \\
        [--prime-weight 1.0] [--prime-not-learnt] \\
        [--networks crashed] \\
        [--closeout-share 0.5] [--shots-share 0.0] [--ordinary-share 0.0] [--polyak 0.0]

The kept candidate (``training/late_contact_td.candidate.npz``, training/README.md):

    nice -n 19 python training/late_contact_td.py --out H.npz --stages 3 --stage-games 40000 --lam 0.9 --lr 0.02
    # H.stage3.npz is the candidate

Why: in the published bear-off against a checker on the bar and the
one-roll shots our 0-ply play of the side bearing in loses the chances
(``benchmarks/notes/late-contact-play.md``), and fitting our own rollouts
of such positions taught our own level of play (training/README.md).
Here the networks play these positions against themselves and learn from
the games as they go, so each stage's play is the last stage's values'
(policy iteration by temporal differences, as ``backgammon train``'s
first stage, but only from late-contact starts):

* the starts: random boards of ``training/late_contact.py``'s two makers
  (``closeout_start``, a bear-in against a checker on the bar, for
  ``--closeout-share`` of them; ``shots_start`` for ``--shots-share``;
  with ``--ordinary-share``, that share drawn from the crashed-class
  positions of the base networks' 0-ply self-play from the opening,
  ``ordinary_crashed``, so that the loop learns the crashed positions
  ordinary games reach by the same self-play instead of only being
  anchored there; ``random_start``, one side bearing in or crashed
  against 1-3 checkers back, the rest), nothing from outside
  (no position, label or weight of gnubg or any other program), none of
  the blind-spot benchmark's or the published rollouts' positions;
* ``--parallel`` games run side by side, each played to the end (a side
  off, or both sides home: the bear-off tables' exact values); at each
  decision the greedy 0-ply play, or with chance ``--explore`` a play
  drawn by softmax (``--temperature``, in equity) among the ``--top``
  best, so that the plays the networks wrongly pass over get played and
  their positions learnt;
* each position on roll learns the flipped 0-ply chances of its greedy
  play's position (TD(0)), or with ``--lam`` its TD(lambda) return over
  the rest of the game (``_net.td_returns``: stopped at an explored play);
  only positions answered by the ``--networks`` (contact, crashed) are
  learnt, by ``_net.train_supervised`` (stochastic gradient descent at
  ``--lr``), in blocks of about 4,096 positions as the games produce them;
* anchors: each block is mixed with ``--anchor-ratio`` times as many
  anchor positions, drawn from ``--anchor-games`` games of the base
  networks' 0-ply self-play from the opening and
  ``training/blind_spots.positions.npz`` (the rare types' training
  positions), those of the learnt networks' classes not of the
  late-contact kind (``late_contact.late_contact``; with
  ``--narrow-anchors`` not of ``late_contact.decisions``' two kinds;
  with ``--bearing-anchors`` the kind's ``bearing_vs_back`` boards kept,
  with ``--prime-anchors`` its ``prime_held`` boards: a prime holding a
  checker not on the bar; ``--prime-weight`` draws the prime-type
  anchors that many times as often as the others; with
  ``--prime-not-learnt`` the ``prime_held`` positions the games meet are
  not learnt, so that there only the anchors hold the networks),
  whose targets are the base networks' own outputs: elsewhere the
  networks stay put.

After each stage the weights with a fitted pruning network
(``backgammon.train.fit_pruner``, seed 1) are written to ``OUT`` with the
stage in its name (``OUT.stage1.npz``...) and as the checkpoint; run again,
the command goes on after the last stage written (each stage's dice and
starts come from ``SeedSequence(seed, spawn_key=(stage,))``, so the result
is that of one run).  The last stage's file is also written as ``OUT``.
With ``--polyak RATE`` a running average of the learnt networks' weights
(from the base weights, moved ``RATE`` of the way to the live weights
after each block) is kept beside them and written as
``OUT.stageN.avg.npz`` (checkpoint ``OUT.avg.ckpt``); the games are
played by the live weights.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from backgammon import _net, network
from backgammon.batch import legal_positions
from backgammon.position_types import TYPES, _side_tests, position_types
from backgammon.train import fit_pruner

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from fit_blind_spots import raw_chances  # noqa: E402
from late_contact import _held_out, _place, closeout_start, decisions, draw, late_contact, random_start  # noqa: E402

CLASSES = {"race": 2, "contact": 3, "crashed": 4}
BLOCK = 4096
MAX_PLIES = 400


def flip(p: np.ndarray) -> np.ndarray:
    """Chances (n, 5) of the side on roll seen from the other side."""
    return np.stack([1.0 - p[:, 0], p[:, 3], p[:, 4], p[:, 1], p[:, 2]], axis=1).astype(np.float32)


def equity(p: np.ndarray) -> np.ndarray:
    return 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]


def shots_start(rng: np.random.Generator) -> np.ndarray:
    """A random board of the one-roll-shot kind (the side holding the
    anchor, H, on roll 70% of the time): H holds an anchor on the other
    side's 3-, 4- or 5-point, with 0-3 checkers on its midpoint or in its
    outfield and the rest on its 1- to 8-points; the other side (B) bears
    in with 1-3 blots on its 7- to 12-points, the rest home, 0-4 off."""
    h = np.zeros(25, np.int64)
    b = np.zeros(25, np.int64)
    anchor = int(rng.choice([19, 20, 21], p=[0.5, 0.3, 0.2]))
    h[anchor] = 2
    for _ in range(int(rng.integers(0, 4))):
        h[12 if rng.random() < 0.6 else int(rng.integers(8, 12))] += 1
    left = 15 - int(h.sum())
    _place(rng, h, left, np.arange(8), np.array([0.6, 1, 1.5, 1.5, 1.5, 1.5, 1.2, 1.0]), np.ones(25, bool))
    free = np.ones(25, bool)
    for i in range(24):
        if h[i]:
            free[23 - i] = False
    blots = int(rng.integers(1, 4))
    for _ in range(blots):
        ok = [j for j in range(6, 12) if free[j] and b[j] == 0]
        if ok:
            b[int(rng.choice(ok))] = 1
    off = int(rng.integers(0, 5))
    _place(rng, b, 15 - int(b.sum()) - off, np.arange(6), np.array([2, 2.5, 2.5, 2, 2, 1.5]), free)
    board = np.stack([b, h]).astype(np.uint8)
    if rng.random() < 0.3:
        board = board[::-1].copy()
    return board


def ordinary_crashed(base_nets, rng: np.random.Generator, n: int, games: int = 2000) -> np.ndarray:
    """``n`` crashed-class positions (side on roll) met in the base
    networks' 0-ply self-play from the opening, drawn at random (each a
    position an ordinary game reaches; batches of ``games`` games are
    played until there are ``n``)."""
    pool: list[np.ndarray] = []
    have = 0
    while have < n:
        a = _net.sample_positions(base_nets, games, rng, 0.0)
        a = a[_net.position_classes(a) == CLASSES["crashed"]]
        pool.append(a)
        have += len(a)
    a = np.concatenate(pool)
    return np.ascontiguousarray(a[rng.choice(len(a), n, replace=False)])


def starts(rng: np.random.Generator, n: int, closeout_share: float, held: set, shots_share: float = 0.0,
           ordinary_share: float = 0.0, base_nets=None) -> np.ndarray:
    """``n`` starts: ``closeout_share`` of ``closeout_start``, ``shots_share``
    of ``shots_start``, ``ordinary_share`` of :func:`ordinary_crashed`
    (``base_nets``' self-play), the rest ``random_start``; none in ``held``,
    in a random order."""
    k = int(round(n * closeout_share))
    s = int(round(n * shots_share))
    o = int(round(n * ordinary_share))
    if k + s + o > n:
        raise ValueError(f"closeout_share + shots_share + ordinary_share must be at most 1, got {k + s + o} of {n}")
    out = np.concatenate([draw(make, rng, m) for make, m in ((closeout_start, k), (shots_start, s),
                                                            (random_start, n - k - s - o)) if m]
                         + ([ordinary_crashed(base_nets, rng, o)] if o else []))
    keep = np.array([b.tobytes() not in held for b in out])
    return np.ascontiguousarray(out[keep][rng.permutation(int(keep.sum()))])


def bearing_vs_back(boards: np.ndarray) -> np.ndarray:
    """Which crashed-class boards have the side on roll (row 1) bearing in
    against a few checkers back: none of its own back (its points 19-24 and
    the bar empty), at least 9 home or off, and the other side with 1-3
    checkers on its points 19-24 or the bar and at most 6 on its points
    7-18.  Candidate 2's duel losses came from these (training/README.md).

    >>> import backgammon as bg
    >>> bool(bearing_vs_back(bg.Position.initial().array[None])[0])
    False
    """
    b = np.ascontiguousarray(boards, dtype=np.uint8)
    w = b.astype(np.int64)
    them, me = w[:, 0], w[:, 1]
    back = them[:, 18:25].sum(1)
    home = me[:, :6].sum(1) + (15 - me.sum(1))
    return ((back >= 1) & (back <= 3) & (them[:, 6:18].sum(1) <= 6) & (home >= 9) & (me[:, 18:25].sum(1) == 0)
            & (_net.position_classes(b) == CLASSES["crashed"]))


def prime_held(boards: np.ndarray) -> np.ndarray:
    """Which boards are of the benchmark's prime type
    (``backgammon.position_types``) with no checker of a primed side on
    the bar: a prime holding a checker that has entered (or never left),
    not a closeout of a checker on the bar (the kind of
    ``closeout_start`` and of the olm position, which the loop learns).

    >>> import backgammon as bg
    >>> bool(prime_held(bg.Position.initial().array[None])[0])
    False
    """
    b = np.ascontiguousarray(boards, dtype=np.uint8)
    primed_me = _side_tests(b[:, 0], b[:, 1])[2]        # row 0 primes the side on roll
    primed_them = _side_tests(b[:, 1], b[:, 0])[2]      # the side on roll primes row 0
    barred = (primed_me & (b[:, 1, 24] > 0)) | (primed_them & (b[:, 0, 24] > 0))
    return (position_types(b) == TYPES.index("prime")) & ~barred


def anchors(base_nets, base_arrays: dict, seed: int, classes: list[int], games: int = 2000,
            narrow: bool = False, bearing: bool = False, prime: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Anchor positions and their targets (the base networks' outputs):
    ``games`` games of self-play and the rare types' training positions,
    of the ``classes``, those not of the late-contact kind (``narrow``:
    not of ``late_contact.decisions``' two narrow kinds, either side on
    roll; ``bearing``: the late-contact kind's ``bearing_vs_back`` boards
    kept as anchors too; ``prime``: its :func:`prime_held` boards kept
    too)."""
    rng = np.random.default_rng(seed)
    a = _net.sample_positions(base_nets, games, rng, 0.0)
    parts = [a]
    extra = HERE / "blind_spots.positions.npz"
    if extra.exists():
        with np.load(extra) as d:
            parts.append(d["boards"])
    a = np.ascontiguousarray(np.concatenate(parts))
    kind = (decisions(a) | decisions(np.ascontiguousarray(a[:, ::-1]))) if narrow else late_contact(a)
    if bearing:
        kind &= ~bearing_vs_back(a)
    if prime:
        kind &= ~prime_held(a)
    a = a[np.isin(_net.position_classes(a), classes) & ~kind]
    return np.ascontiguousarray(a), raw_chances(base_arrays, a)


class Learner:
    """Collects (board, target) pairs and learns them in blocks, each mixed
    with anchors."""

    def __init__(self, nets, classes, anchor_boards, anchor_targets, ratio, lr, rng, average=None, polyak=0.0,
                 anchor_p=None, skip=None):
        self.nets, self.classes, self.lr, self.rng, self.ratio = nets, classes, lr, rng, ratio
        # skip: a mask function (boards -> bool) of the positions the games meet that are not learnt
        self.skip = skip
        # anchor_p: each anchor's chance to be drawn (None: uniform, the draw of the runs before it)
        self.anchor_p = anchor_p
        # Polyak averaging: ``average`` maps each learnt array's name to (the
        # live array, its running average); after each block the average moves
        # ``polyak`` of the way to the live weights (the averages are written out)
        self.average, self.polyak = average, polyak
        self.ab, self.at = anchor_boards, anchor_targets
        self.boards: list[np.ndarray] = []
        self.targets: list[np.ndarray] = []
        self.n = 0
        self.learnt = 0
        self.err = []

    def add(self, boards: np.ndarray, targets: np.ndarray) -> None:
        keep = np.isin(_net.position_classes(np.ascontiguousarray(boards)), self.classes)
        if self.skip is not None:
            keep &= ~self.skip(boards)
        if keep.any():
            self.boards.append(boards[keep])
            self.targets.append(targets[keep])
            self.n += int(keep.sum())
        if self.n >= BLOCK:
            self.flush()

    def flush(self) -> None:
        if not self.n:
            return
        b = np.concatenate(self.boards)
        t = np.concatenate(self.targets)
        k = int(round(self.ratio * len(b)))
        if k and len(self.ab):
            if self.anchor_p is None:
                pick = self.rng.integers(0, len(self.ab), k)
            else:
                pick = self.rng.choice(len(self.ab), k, p=self.anchor_p)
            b = np.concatenate([b, self.ab[pick]])
            t = np.concatenate([t, self.at[pick]])
        b = np.ascontiguousarray(b, np.uint8)
        t = np.ascontiguousarray(np.clip(t, 0.0, 1.0), np.float32)
        self.err.append(_net.train_supervised(self.nets, b, t, self.rng.permutation(len(b)), self.lr, self.lr))
        if self.average is not None and self.polyak > 0:
            for live, avg in self.average.values():
                avg += np.float32(self.polyak) * (live - avg)
        self.learnt += self.n
        self.boards, self.targets, self.n = [], [], 0


def play_stage(nets, learner: Learner, rng: np.random.Generator, games: int, parallel: int, explore: float,
               top: int, temperature: float, lam: float, closeout_share: float, held: set,
               shots_share: float = 0.0, ordinary_share: float = 0.0, base_nets=None) -> dict:
    """``games`` games from fresh starts (:func:`starts`), ``parallel`` at a
    time, learning as they go."""
    pool = starts(rng, games, closeout_share, held, shots_share, ordinary_share, base_nets)
    games = len(pool)
    nxt = min(parallel, games)
    boards = pool[:nxt].copy()
    trace = [[] for _ in range(len(boards))]     # per slot: (board, target, cut) of the game under way
    plies = np.zeros(len(boards), np.int64)
    live = np.ones(len(boards), bool)
    finished = explored = decisions = 0
    while live.any():
        idx = np.flatnonzero(live)
        rolls = rng.integers(1, 7, size=(len(idx), 2)).astype(np.uint8)
        offsets, children = legal_positions(np.ascontiguousarray(boards[idx]), rolls, validate=False, threads=1)
        values = _net.evaluate(nets, np.ascontiguousarray(children), 0)
        mover = -equity(values)
        cls = _net.position_classes(np.ascontiguousarray(children))
        done_boards, done_targets = [], []
        for j, g in enumerate(idx):
            lo, hi = int(offsets[j]), int(offsets[j + 1])
            seg = mover[lo:hi]
            best = lo + int(np.argmax(seg))
            played = best
            if hi - lo > 1 and rng.random() < explore:
                order = np.argsort(-seg, kind="stable")[:top]
                w = np.exp((seg[order] - seg[order[0]]) / temperature)
                played = lo + int(order[rng.choice(len(order), p=w / w.sum())])
                explored += played != best
            decisions += hi - lo > 1
            target = flip(values[best:best + 1])[0]
            trace[g].append((boards[g].copy(), target, played != best))
            plies[g] += 1
            c = cls[played]
            if c <= 1 or plies[g] >= MAX_PLIES:
                tb = np.stack([x[0] for x in trace[g]])
                tt = np.stack([x[1] for x in trace[g]]).astype(np.float32)
                cut = np.array([x[2] for x in trace[g]], np.uint8)
                cut[-1] = 1
                if lam > 0:
                    tt = _net.td_returns(np.ascontiguousarray(tt), cut, lam)
                done_boards.append(tb)
                done_targets.append(tt)
                finished += 1
                trace[g] = []
                plies[g] = 0
                if nxt < games:
                    boards[g] = pool[nxt]
                    nxt += 1
                else:
                    live[g] = False
            else:
                boards[g] = children[played]
                if lam == 0:                     # TD(0): learnt at once
                    done_boards.append(trace[g][-1][0][None])
                    done_targets.append(trace[g][-1][1][None])
                    trace[g] = []
        if done_boards:
            learner.add(np.concatenate(done_boards), np.concatenate(done_targets))
    learner.flush()
    return dict(games=finished, decisions=decisions, explored=explored)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--nets", help="base weight file (default: the shipped networks)")
    ap.add_argument("--stages", type=int, default=4)
    ap.add_argument("--stage-games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--parallel", type=int, default=512)
    ap.add_argument("--explore", type=float, default=0.2)
    ap.add_argument("--top", type=int, default=4)
    ap.add_argument("--temperature", type=float, default=0.05)
    ap.add_argument("--lam", type=float, default=0.0)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--anchor-ratio", type=float, default=1.0)
    ap.add_argument("--networks", default="crashed")
    ap.add_argument("--anchor-games", type=int, default=2000)
    ap.add_argument("--narrow-anchors", action="store_true",
                    help="exclude from the anchors only late_contact.decisions' two kinds, not the whole "
                         "late-contact kind")
    ap.add_argument("--bearing-anchors", action="store_true",
                    help="keep in the anchors the boards whose side on roll bears in against 1-3 checkers back "
                         "(bearing_vs_back), which the late-contact kind would leave out (run OB)")
    ap.add_argument("--prime-anchors", action="store_true",
                    help="keep in the anchors the prime-type boards whose primed side has no checker on the bar "
                         "(prime_held), which the late-contact kind would leave out")
    ap.add_argument("--prime-not-learnt", action="store_true",
                    help="leave the prime_held positions the games meet out of the learnt blocks (their TD "
                         "returns still count for the positions before them); with --prime-anchors they are "
                         "only anchored")
    ap.add_argument("--prime-weight", type=float, default=1.0,
                    help="draw the anchors of the prime type (backgammon.position_types) this many times as "
                         "often as the others (1: every anchor alike)")
    ap.add_argument("--closeout-share", type=float, default=0.5)
    ap.add_argument("--shots-share", type=float, default=0.0,
                    help="the share of starts of shots_start (the one-roll-shot kind)")
    ap.add_argument("--ordinary-share", type=float, default=0.0,
                    help="the share of starts taken from the crashed-class positions of the base networks' "
                         "0-ply self-play from the opening (ordinary_crashed)")
    ap.add_argument("--polyak", type=float, default=0.0,
                    help="also keep a running average of the learnt networks' weights, moved this share of "
                         "the way to the live weights after each block; written as OUT.stageN.avg.npz")
    args = ap.parse_args(argv)
    if not 0.0 <= args.polyak <= 1.0:
        raise ValueError(f"--polyak must be in [0, 1], got {args.polyak}")
    classes = [CLASSES[n] for n in args.networks.split(",")]
    base_nets = network.load(args.nets) if args.nets else network.default()
    base = {k: v.copy() for k, v in base_nets.arrays.items() if not k.startswith("prune_")}
    ckpt = args.out.with_name(args.out.name + ".ckpt")
    stage = 0
    history = []
    if ckpt.exists():
        arrays, meta = network.read(ckpt)
        arrays = {k: v.copy() for k, v in arrays.items() if not k.startswith("prune_")}
        stage, history = int(meta["stage"]), list(meta["history"])
        print(f"resuming after stage {stage}", file=sys.stderr, flush=True)
    else:
        arrays = {k: v.copy() for k, v in base.items()}
    nets = network.networks(arrays)
    learnt = [k for k in arrays if k.split("_")[0] in args.networks.split(",")]
    avg_ckpt = args.out.with_name(args.out.name + ".avg.ckpt")
    average = None
    if args.polyak > 0:
        start = network.read(avg_ckpt)[0] if stage and avg_ckpt.exists() else base
        average = {k: (arrays[k], np.array(start[k], np.float32, copy=True)) for k in learnt}
    a_boards, a_targets = anchors(base_nets, base, args.seed, classes, args.anchor_games, args.narrow_anchors,
                                  args.bearing_anchors, args.prime_anchors)
    if args.prime_weight <= 0:
        raise ValueError(f"--prime-weight must be positive, got {args.prime_weight}")
    anchor_p = None
    if args.prime_weight != 1.0:
        w = np.where(position_types(a_boards) == TYPES.index("prime"), args.prime_weight, 1.0)
        anchor_p = w / w.sum()
    held = _held_out()
    print(f"{len(a_boards):,} anchors", file=sys.stderr, flush=True)
    command = "python training/late_contact_td.py " + " ".join(argv if argv is not None else sys.argv[1:])
    while stage < args.stages:
        t0 = time.process_time()
        ss = np.random.SeedSequence(args.seed, spawn_key=(stage,))
        rng = np.random.default_rng(ss)
        learner = Learner(nets, classes, a_boards, a_targets, args.anchor_ratio, args.lr, rng, average, args.polyak,
                          anchor_p, prime_held if args.prime_not_learnt else None)
        info = play_stage(nets, learner, rng, args.stage_games, args.parallel, args.explore, args.top,
                          args.temperature, args.lam, args.closeout_share, held, args.shots_share,
                          args.ordinary_share, base_nets)
        stage += 1
        info.update(stage=stage, learnt=learner.learnt, blocks=len(learner.err), mse=round(float(np.mean(learner.err)), 6) if learner.err else None,
                    cpu=round(time.process_time() - t0, 1))
        history.append(info)
        print(json.dumps(info), file=sys.stderr, flush=True)
        meta = {"format": 2, "command": command, "stage": stage, "history": history,
                "base": args.nets or "shipped", "seed": args.seed,
                "method": "TD self-play from random late-contact starts with softmax exploration among the top "
                          "plays, anchored to the base networks' outputs elsewhere (training/late_contact_td.py)"}
        if average is not None:                  # the average's checkpoint first: ckpt says which stage is done
            averaged = dict(arrays, **{k: avg for k, (_, avg) in average.items()})
            network.save(avg_ckpt, averaged, meta)
        network.save(ckpt, arrays, meta)
        if average is not None:
            network.save(args.out.with_name(f"{args.out.stem}.stage{stage}.avg.npz"), fit_pruner(averaged, 1, threads=1),
                         dict(meta, polyak=args.polyak))
        full = fit_pruner(arrays, 1, threads=1)
        network.save(args.out.with_name(f"{args.out.stem}.stage{stage}.npz"), full, meta)
        if stage == args.stages:
            network.save(args.out, full, meta)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
