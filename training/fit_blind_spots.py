"""Fit the networks to the position types' rollout labels (issue 41).

    python training/fit_blind_spots.py --out CANDIDATE.npz [--labels training/blind_spots.labels.npz]
        [--epochs 12] [--lr 3e-4] [--anchor-games 3000] [--anchor-weight 1] [--seed 1] [--types blitz,...]
        [--type-weights equal|sqrt|natural] [--extra-labels FILE --extra-weight W] [--networks race,contact,crashed]
        [--over-labels training/blind_spots.labels2.npz training/blind_spots.labels_ply1.npz]
        (``--labels`` takes several files, fitted together)

From the shipped weights (or ``--nets``), every network (contact, crashed,
race) is fitted by mini-batch Adam (PyTorch, one thread; the step falling
along a cosine) to the cross-entropy of its five outputs against

* the labels of ``training/blind_spots.py`` (untruncated variance-reduced
  rollouts by the shipped networks), each position weighted so that every
  position type has the same total weight, however few its labels, and
* anchors: the positions of ``--anchor-games`` games of the base networks'
  0-ply self-play and, for ``--sibling-anchors`` of them, every play of a
  random roll (the siblings a decision ranks), each with the base
  networks' own outputs, in all ``--anchor-weight`` times the
  labels' weight, so that the networks stay where no label says
  otherwise.

The inputs are the kernel's (``_net.encode_boards``, layout 2) and the
weights keep their file format; the pruning network is fitted again to the
result (``backgammon.train.fit_pruner``).  Nothing here is learnt from
gnubg or from any outside position, label or weight.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from backgammon import _net, network
from backgammon.position_types import NETWORK_TYPES, TYPES, position_types
from backgammon.train import PRUNE_GAMES, fit_pruner

HERE = Path(__file__).resolve().parent
NAMES = {2: "race", 3: "contact", 4: "crashed"}


def _sha256(path) -> str | None:
    """The sha256 of a weight file (``None`` for the shipped one, which its command names)."""
    import hashlib
    return None if path is None else hashlib.sha256(Path(path).read_bytes()).hexdigest()


def raw_chances(arrays: dict, boards: np.ndarray) -> np.ndarray:
    """The networks' own outputs for ``boards`` (n, 5), before the
    evaluator makes them consistent and zeroes impossible gammons: what an
    anchor must keep for its network to stay put."""
    x, cls = _net.encode_boards(boards, 2)
    out = np.zeros((len(boards), 5), np.float32)
    for c, name in NAMES.items():
        m = cls == c
        if c == 4 and "crashed_w1" not in arrays:
            name = "contact"
        if not m.any():
            continue
        w1 = arrays[f"{name}_w1"]
        h = 1 / (1 + np.exp(-(x[m, :w1.shape[0]] @ w1 + arrays[f"{name}_b1"])))
        out[m] = 1 / (1 + np.exp(-(h @ arrays[f"{name}_w2"].T + arrays[f"{name}_b2"])))
    return out


def over_labels(boards: np.ndarray, targets: np.ndarray, path: Path, limit: int | None = None
                ) -> tuple[np.ndarray, int]:
    """``targets`` with the label of every board that ``path`` (a labels
    file; only its first ``limit`` labels if given) also labels taken from
    there: a later round's labels, by a better player, in place of the
    first round's; and how many."""
    with np.load(path) as d:
        theirs = {b.tobytes(): t for b, t in zip(d["boards"][:limit], d["targets"][:limit].astype(np.float32))}
    out = targets.copy()
    n = 0
    for k, b in enumerate(boards):
        t = theirs.get(b.tobytes())
        if t is not None:
            out[k] = t
            n += 1
    return out, n


def type_weights(kinds: np.ndarray, power: float) -> np.ndarray:
    """Per-position weights, with mean 1, under which each type's total is
    proportional to its count to the ``power``: 0 gives every type the
    same total (rare types count as much as common ones), 1 every position
    the same weight, 0.5 between the two."""
    if not len(kinds):
        return np.zeros(0)
    counts = np.bincount(kinds, minlength=len(TYPES)).astype(float)
    share = np.where(counts > 0, counts ** power, 0.0)
    return len(kinds) * share[kinds] / (share.sum() * counts[kinds])


def fit(base: dict, boards: np.ndarray, targets: np.ndarray, weights: np.ndarray, *, epochs: int, lr: float,
        seed: int, batch: int = 256, optimizer: str = "adam", labelled: np.ndarray | None = None,
        progress: bool = True, networks=tuple(NAMES.values())) -> dict:
    """``base`` arrays with each network fitted to (boards, targets) under
    the per-position ``weights`` (a new dict).  ``optimizer`` "adam" or
    "sgd" (with momentum 0.9: its steps follow the gradient's size, so
    anchors that already fit stay put, where Adam's steps are of one size
    whatever the gradient); a network none of whose boards is
    ``labelled`` is left as it is, and so is one not in ``networks``."""
    import torch
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    x_all, cls = _net.encode_boards(boards, 2)
    out = {k: v.copy() for k, v in base.items()}
    for c, name in NAMES.items():
        m = cls == c
        if name not in networks or not m.any() or f"{name}_w1" not in base or (labelled is not None and not labelled[m].any()):
            continue
        n_in = base[f"{name}_w1"].shape[0]
        x = torch.from_numpy(np.ascontiguousarray(x_all[m, :n_in]))
        y = torch.from_numpy(np.ascontiguousarray(targets[m], np.float32)).clamp(1e-6, 1 - 1e-6)
        w = torch.from_numpy((weights[m] / weights[m].mean()).astype(np.float32))
        w1 = torch.nn.Parameter(torch.from_numpy(base[f"{name}_w1"].copy()))
        b1 = torch.nn.Parameter(torch.from_numpy(base[f"{name}_b1"].copy()))
        w2 = torch.nn.Parameter(torch.from_numpy(base[f"{name}_w2"].copy()))
        b2 = torch.nn.Parameter(torch.from_numpy(base[f"{name}_b2"].copy()))
        params = [w1, b1, w2, b2]
        opt = torch.optim.Adam(params, lr=lr) if optimizer == "adam" else \
            torch.optim.SGD(params, lr=lr, momentum=0.9)
        steps = epochs * ((len(x) + batch - 1) // batch)
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
        gen = torch.Generator().manual_seed(seed + c)
        t0 = time.perf_counter()
        for epoch in range(epochs):
            perm = torch.randperm(len(x), generator=gen)
            total = 0.0
            for k in range(0, len(x), batch):
                i = perm[k:k + batch]
                z = torch.sigmoid(x[i] @ w1 + b1) @ w2.T + b2
                loss = (torch.nn.functional.binary_cross_entropy_with_logits(z, y[i], reduction="none").sum(1)
                        * w[i]).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
                sched.step()
                total += float(loss.detach()) * len(i)
            if progress:
                print(f"  {name}: epoch {epoch + 1}/{epochs}, loss {total / len(x):.5f} "
                      f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
        for p, key in zip(params, ("w1", "b1", "w2", "b2")):
            out[f"{name}_{key}"] = p.detach().numpy().astype(np.float32).copy()
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--nets", help="base weight file (default: the shipped networks)")
    ap.add_argument("--labels", type=Path, nargs="+", default=[HERE / "blind_spots.labels.npz"],
                    help="labels files (boards, targets), fitted together in the order given")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--optimizer", choices=("adam", "sgd"), default="adam")
    ap.add_argument("--anchor-games", type=int, default=3000)
    ap.add_argument("--anchor-weight", type=float, default=1.0)
    ap.add_argument("--sibling-anchors", type=int, default=0,
                    help="anchor positions whose every play of a random roll is anchored too")
    ap.add_argument("--types", default=",".join(NETWORK_TYPES), help="the types whose labels are learnt")
    ap.add_argument("--limit", type=int, help="only the first LIMIT labels (0: none, the anchors alone: "
                                              "how far the fit itself moves the networks)")
    ap.add_argument("--type-weights", choices=("equal", "sqrt", "natural"), default="equal",
                    help="each type's total weight: the same for all (equal), as the square root of its count "
                         "(sqrt) or as its count (natural)")
    ap.add_argument("--over-labels", nargs="*", default=[],
                    help="labels files (FILE or FILE:N, its first N labels) whose labels replace those of "
                         "--labels for the boards they share, in order (the second round's, then the 1-ply "
                         "rollouts')")
    ap.add_argument("--extra-labels", type=Path,
                    help="more labels (boards, targets) fitted beside them, e.g. training/nets.npz.labels.npz "
                         "(the run's 120,000 truncated rollout labels of common self-play positions)")
    ap.add_argument("--extra-weight", type=float, default=1.0,
                    help="the extra labels' total weight, times the type labels'")
    ap.add_argument("--networks", default="race,contact,crashed",
                    help="the networks fitted; the others keep the base weights")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    base_nets = network.load(args.nets) if args.nets else network.default()
    base = {k: v for k, v in base_nets.arrays.items() if not k.startswith("prune_")}
    parts = []
    for path in args.labels:
        with np.load(path) as d:
            parts.append((d["boards"], d["targets"].astype(np.float32)))
    boards = np.concatenate([b for b, _ in parts])[:args.limit]
    targets = np.concatenate([t for _, t in parts])[:args.limit]
    for spec in args.over_labels:
        path, _, first = spec.partition(":")          # FILE or FILE:N, the first N labels of a run that goes on
        targets, n = over_labels(boards, targets, Path(path), int(first) if first else None)
        print(f"{n:,} labels from {spec}", file=sys.stderr, flush=True)
    # Where a gammon or backgammon cannot happen the evaluator says 0 whatever
    # the network's output: the label does not move that output.
    impossible = (_net.evaluate(base_nets, boards, 0) == 0) & (targets == 0)
    targets = np.where(impossible, raw_chances(base, boards), targets)
    kinds = position_types(boards)
    wanted = np.isin(kinds, [TYPES.index(t) for t in args.types.split(",")])
    boards, targets, kinds = boards[wanted], targets[wanted], kinds[wanted]
    # Every type the same total weight.
    counts = np.bincount(kinds, minlength=len(TYPES)).astype(float)
    present = counts > 0
    weights = type_weights(kinds, {"equal": 0.0, "sqrt": 0.5, "natural": 1.0}[args.type_weights])
    if args.extra_labels:
        with np.load(args.extra_labels) as d:
            e_boards, e_targets = d["boards"], d["targets"].astype(np.float32)
        e_impossible = (_net.evaluate(base_nets, e_boards, 0) == 0) & (e_targets == 0)
        e_targets = np.where(e_impossible, raw_chances(base, e_boards), e_targets)
        e_weights = np.full(len(e_boards), args.extra_weight * max(len(kinds), 1) / len(e_boards))
        boards = np.concatenate([boards, e_boards])
        targets = np.concatenate([targets, e_targets])
        weights = np.concatenate([weights, e_weights])
        print(f"{len(e_boards):,} extra labels ({args.extra_labels.name}), weight {args.extra_weight}",
              file=sys.stderr, flush=True)
    rng = np.random.default_rng(args.seed)
    anchors = _net.sample_positions(base_nets, args.anchor_games, rng, 0.0)
    anchors = np.ascontiguousarray(anchors[_net.position_classes(anchors) >= 2])
    if args.sibling_anchors:
        # The plays a decision compares, not only the one self-play chose:
        # their ranking is what the networks' play depends on.
        from backgammon.batch import legal_positions
        pick = np.sort(rng.choice(len(anchors), min(args.sibling_anchors, len(anchors)), replace=False))
        rolls = rng.integers(1, 7, size=(len(pick), 2)).astype(np.uint8)
        _, children = legal_positions(anchors[pick], rolls, threads=1)
        children = children[_net.position_classes(children) >= 2]
        anchors = np.ascontiguousarray(np.concatenate([anchors, children]))
    anchor_targets = raw_chances(base, anchors)
    a_weights = np.full(len(anchors), args.anchor_weight * max(len(kinds), 1) / max(len(anchors), 1))
    print(f"{len(kinds):,} labels ({', '.join(f'{TYPES[t]} {int(counts[t])}' for t in np.flatnonzero(present))}), "
          f"{len(anchors):,} anchors", file=sys.stderr, flush=True)
    all_boards = np.concatenate([boards, anchors])
    all_targets = np.concatenate([targets, anchor_targets])
    all_weights = np.concatenate([weights, a_weights])
    labelled = np.arange(len(all_boards)) < len(boards) if len(boards) else None
    arrays = fit(base, all_boards, all_targets, all_weights, epochs=args.epochs, lr=args.lr, seed=args.seed,
                 optimizer=args.optimizer, labelled=labelled, networks=tuple(args.networks.split(",")))
    arrays = fit_pruner(arrays, args.seed, threads=1)
    base_meta = network.meta(args.nets) if args.nets else network.meta()
    meta = {"format": 2, "command": "python training/fit_blind_spots.py " + " ".join(argv or sys.argv[1:]),
            "labels": int(len(kinds)), "anchors": int(len(anchors)), "seconds": round(time.perf_counter() - t0, 1),
            "seed": args.seed, "prune_games": PRUNE_GAMES,
            # where the fit started: a file's name says little once the shipped file changes
            "base": {"file": args.nets or "shipped", "sha256": _sha256(args.nets), "command": base_meta.get("command")},
            "method": "the shipped networks fitted by Adam to untruncated rollout labels of every position type "
                      "(equal weight per type) and to their own 0-ply values on self-play anchors"}
    network.save(args.out, arrays, meta)
    print(f"{args.out} written ({meta['seconds']} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
