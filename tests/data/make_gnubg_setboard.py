"""Make tests/data/dialects/gnubg_setboard.mat: gnubg's own export of a
match whose first game holds an illegal play (player 0's 3-1 played
13/9 8/7, five pips, RULES 3.1), kept as a set board.

Our write_mat writes the match (the set board as gnubg's ``Illegal play
(...)``); gnubg 1.07 imports it (``import mat``: MOVE_SETDICE then
MOVE_SETBOARD) and exports it again (``export match snowietxt``), which
writes the set board as ``Illegal play (...)`` itself.  The committed
file is gnubg's export.  Run: python tests/data/make_gnubg_setboard.py
"""
import os
import random
import subprocess
import tempfile

import backgammon as bg

HERE = os.path.dirname(os.path.abspath(__file__))


def match() -> bg.Match:
    m = bg.Match(3, seed=7)
    g = m.new_game()
    g.roll((3, 1)); g.play("8/5 6/5"); g.roll((4, 2)); g.play("8/4 6/4")
    g.roll((3, 1)); g.play_as_written("13/9 8/7")
    rng = random.Random(1)
    while not m.is_over():
        if g.is_over():
            g = m.new_game()
        if g.phase in (bg.Phase.OPENING, bg.Phase.TURN):
            g.roll()
        else:
            plays = g.legal_plays()
            g.play(plays[rng.randrange(len(plays))])
    return m


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "ours.mat"), "w") as f:
            f.write(bg.write_mat(match(), players=("Ann", "Bob")))
        subprocess.run(["/usr/games/gnubg", "-t", "-q", "-r"], cwd=tmp, text=True, check=True,
                       input="import mat ours.mat\nexport match snowietxt gnubg.txt\n", capture_output=True,
                       env={**os.environ, "LANG": "C"})
        with open(os.path.join(tmp, "gnubg.txt")) as f, \
                open(os.path.join(HERE, "dialects", "gnubg_setboard.mat"), "w") as out:
            out.write(f.read())
