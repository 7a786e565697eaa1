"""A user's script over the kernel-backed functions (mypy --strict)."""
import numpy as np
import numpy.typing as npt

import backgammon as bg
from backgammon import batch, bearoff, network
from backgammon.pubeval import pubeval, tesauro_inputs
from backgammon.sample import random_positions


def main() -> None:
    pos = bg.Position.initial()
    boards: npt.NDArray[np.uint8] = np.stack([pos.array] * 4)
    rolls = np.array([[3, 1], [6, 6], [5, 2], [4, 4]], dtype=np.uint8)
    offsets, children = batch.legal_positions(boards, rolls, threads=2)
    offsets2, children2, steps = batch.legal_positions(boards, rolls, moves=True)
    checked: npt.NDArray[np.uint8] = batch.validate_boards(boards)
    evs: bg.Evaluations = bg.evaluate(children, dtype=np.float32)
    one: bg.Evaluation = bg.evaluate(pos, ply=1)
    equity: float = one.equity
    best: npt.NDArray[np.int64] = batch.best_per_pair(offsets, evs.equity, lowest=True)
    out = np.empty((len(children), 5), dtype=np.float64)
    written: npt.NDArray[np.float64] = bg.evaluate(children, out=out).probabilities
    table: np.ndarray = bearoff.race_chances(children, outside="nan", dtype=np.float32)
    mask: npt.NDArray[np.bool_] = bearoff.all_home(children)
    race: bearoff.RaceChances = bearoff.race_chances(bg.Position.from_id("AQAAAAAAAAAAAA"))
    leaves: int = bg.perft(pos, 1)
    plays = pos.legal_plays("31")
    first: bg.Play = plays[0]
    nets = network.default()
    chances: npt.NDArray[np.float64] = nets(children)
    scores: npt.NDArray[np.float64] = pubeval(children)
    units: npt.NDArray[np.float32] = tesauro_inputs(children)
    sampled, sampled_rolls = random_positions(10, seed=1)
    dice: npt.NDArray[np.uint8] = bg.roll_batch(10, seed=2)
    counts = bearoff.one_sided().distribution((1, 0, 0, 0, 0, 0))
    print(offsets2.shape, children2.shape, steps.shape, checked.shape, equity, best, written.shape, table.shape,
          mask.sum(), race.win, leaves, str(first), chances.shape, scores.shape, units.shape, sampled.shape,
          sampled_rolls.shape, dice.shape, counts.shape)


if __name__ == "__main__":
    main()
