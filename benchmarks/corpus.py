"""The benchmark corpus: 2,000 contact and 1,000 race positions met in seeded
random games, each with all 21 rolls (63,000 position-roll pairs)."""
import numpy as np

import backgammon as bg
from backgammon.sample import random_positions


def positions(contact: int = 2000, race: int = 1000, seed: int = 2026) -> np.ndarray:
    """(contact + race, 2, 25) uint8 boards, contact ones first."""
    boards, _ = random_positions(40 * (contact + race), seed=seed)
    is_race = np.array([bg.Position.from_bytes(b.tobytes()).is_race() for b in boards])
    rng = np.random.default_rng(seed)
    pick_contact = rng.choice(np.flatnonzero(~is_race), contact, replace=False)
    pick_race = rng.choice(np.flatnonzero(is_race), race, replace=False)
    return np.ascontiguousarray(np.concatenate([boards[pick_contact], boards[pick_race]]))


def pairs(contact: int = 2000, race: int = 1000, seed: int = 2026):
    """Every corpus position with every one of the 21 rolls: (boards, rolls)."""
    boards = positions(contact, race, seed)
    n = len(boards)
    all_boards = np.repeat(boards, 21, axis=0)
    all_rolls = np.tile(bg.ROLL_ARRAY.astype(np.uint8), (n, 1))
    return all_boards, all_rolls
