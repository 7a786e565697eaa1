"""GNU Backgammon and our Match/Game driven in lockstep.

Whole matches (1, 3, 5 and 7 points) and money sessions are played twice
at once: by gnubg's own game engine through its command interface, and by
``backgammon.Match``/``Game``.  Every action -- the opening, each roll,
random legal plays, doubles, takes, drops, beavers, raccoons, resignations
accepted and rejected, new games -- is made in both, and after each the
Match ID and the Position ID of the two must be equal, finished games
included (RULES 2, 6, 7, 8; docs/formats.md "GNU Match ID").

gnubg (the PyPI package) is a test dependency: these tests fail, not
skip, when it is missing.  gnubg prints boards and messages on stdout;
pytest captures them.  ``gnubg.hint()`` can hang and is never called.

What gnubg does that these tests pin down (1.1.0a16):

- Before the game ends: the score before the game, the game's own
  Crawford flag; ``turn`` is the side that must answer a double or a
  resignation; dice rolled before a resignation stay in the ID.
- A beaver (gnubg's ``redouble``) pending shows as a double offered on
  twice the cube that was doubled, owned by the beaverer, with the doubler
  on turn; a raccoon pending as a double offered on four times that cube,
  still owned by the beaverer, with the beaverer on turn.  A refused beaver
  or raccoon is a drop at that cube value (RULES 7.5).
- Once the game is over (game state 2, 3 or 4): the score after it
  (RULES 8.5); the Crawford flag of the next game -- set in the finished
  game's ID when a side has just reached N - 1, cleared in the finished
  Crawford game's ID (RULES 8.2); after a drop or an accepted resignation
  ``turn`` stays with the side that answered and ``on roll`` with the side
  that doubled or resigned, the resignation level and any rolled dice
  stay; after a bear-off the loser is on roll and on turn, with the
  position from the loser's side.

One gnubg habit the random driver keeps away from: gnubg refuses a
resignation no higher than one just rejected until the next move record,
so none is offered right after a rejection.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import gnubg  # fail, not skip, without the oracle
from gnubg import _gnubg

import backgammon as bg

from helpers import gnubg_dice, gnubg_move
from backgammon.game import Ending, Phase
from backgammon.matchid import GameState, MatchState
from backgammon.rules import Rules

#: gnubg's cube limit (MAX_CUBE = 2 ** 12), for money sessions.
GNUBG_CUBE_LIMIT = 4096


@pytest.fixture(scope="module")
def engine():
    """gnubg with both players human and nothing automatic.  Afterwards
    gnubg is left with no game, as it starts (``gnubg.posinfo()`` and
    ``gnubg.cubeinfo()`` read the current game), and its defaults."""
    for command in ("set player 0 human", "set player 1 human", "set automatic roll off",
                    "set automatic game off", "set automatic move off", "set automatic bearoff off",
                    "set automatic doubles 0", "set automatic crawford on", "set confirm new off",
                    "set output rawboard on", "set rng mersenne"):
        _gnubg.command(command)
    yield _gnubg
    for command in ("set matchid MAAAAAAAAAAA", "set jacoby on", "set beavers 3", "set automatic game on",
                    "set automatic roll on", "set output rawboard off", "set player 0 gnubg"):
        _gnubg.command(command)
    assert gnubg.posinfo() == {"dice": (0, 0), "turn": 0, "resigned": 0, "doubled": 0, "gamestate": 0}


class Lockstep:
    """One gnubg match or session and our ``Match``, action by action."""

    def __init__(self, engine, length: int, seed: int, rules: Rules | None = None,
                 jacoby: bool = False, beavers: int = 0, double_rate: float = 0.06):
        self.engine = engine
        self.rng = np.random.default_rng(seed)
        self.double_rate = double_rate
        self.jacoby = jacoby
        self.match = bg.Match(length, rules=rules, seed=seed)
        self.seen: Counter = Counter()
        self.finished: list[MatchState] = []
        engine.command(f"set seed {seed}")
        engine.command(f"set jacoby {'on' if jacoby else 'off'}")
        engine.command(f"set beavers {beavers}")
        engine.command(f"new match {length}" if length else "new session")
        self.game = None

    def check(self, label: str) -> None:
        g = self.game
        theirs = (self.engine.matchid(), self.engine.positionid())
        ours = (g.match_id(), g.position.to_id())
        assert ours == theirs, (f"after {label!r} in game {len(self.match.games)} ({g.phase.value}): "
                                f"ours {ours} = {MatchState.from_match_id(ours[0])}, "
                                f"gnubg {theirs} = {MatchState.from_match_id(theirs[0])}")
        self.seen[label] += 1

    def both(self, command: str, ours, label: str) -> str:
        """``command`` in gnubg, ``ours()`` here, then compare; returns ``label``."""
        self.engine.command(command)
        ours()
        self.check(label)
        return label

    def start_game(self) -> None:
        if self.match.games:
            self.engine.command("new game")
        self.game = self.match.new_game()
        # gnubg rolls the opening itself: give our game the same dice for
        # the same winner (RULES 2.2).
        state = MatchState.from_match_id(self.engine.matchid())
        high, low = state.dice
        assert state.game_state == GameState.PLAYING and high != low
        self.game.roll((high, low) if state.on_roll == 0 else (low, high))
        self.check("opening")

    def resign_level(self) -> int:
        return int(self.rng.choice([1, 2, 3], p=[0.6, 0.25, 0.15]))

    def step(self, after_reject: bool) -> str:
        """One random legal action in both engines; returns its label."""
        g, r = self.game, self.rng.random()
        if g.phase is Phase.TURN:
            if g.can_double() and r < self.double_rate:
                return self.both("double", g.double, "double")
            if r > 0.985 and not after_reject:
                level = self.resign_level()
                return self.both(f"resign {level}", lambda: g.resign(level), "resign")
            self.engine.command("roll")
            g.roll(gnubg_dice())
            self.check("roll")
            return "roll"
        if g.phase is Phase.PLAY:
            if r > 0.995 and not after_reject:
                level = self.resign_level()
                return self.both(f"resign {level}", lambda: g.resign(level), "resign after rolling")
            plays = g.legal_plays()
            play = plays[int(self.rng.integers(len(plays)))]
            return self.both(gnubg_move(play), lambda: g.play(play), "move")
        if g.phase is Phase.DOUBLED:
            can_beaver = g.money and g._redoubles < g.rules.beavers and g.cube_value * 4 <= g.rules.cube_limit
            if r < 0.25:
                return self.both("drop", g.drop, "drop")
            if can_beaver and r < 0.6:
                return self.both("redouble", g.beaver, "beaver")     # gnubg's beaver
            return self.both("take", g.take, "take")
        if g.phase is Phase.BEAVERED:
            if g.turn == g._doubler:
                # The doubler answers a beaver: take, pass or raccoon (RULES 7.5).
                can_raccoon = g._redoubles < g.rules.beavers and g.cube_value * 2 <= g.rules.cube_limit
                if can_raccoon and r < 0.3:
                    return self.both("redouble", g.raccoon, "raccoon")
                if r < 0.6:
                    return self.both("drop", g.drop, "drop beaver")
                return self.both("take", g.take, "take beaver")
            # The beaverer answers a raccoon: beaver again, take or pass.
            if g._redoubles < g.rules.beavers and g.cube_value * 2 <= g.rules.cube_limit and r < 0.3:
                return self.both("redouble", g.beaver, "beaver again")
            if r < 0.65:
                return self.both("take", g.take, "take raccoon")
            return self.both("drop", g.drop, "drop raccoon")
        if g.phase is Phase.RESIGNED:
            if r < 0.5:
                return self.both("accept", g.accept_resignation, "accept")
            return self.both("reject", g.reject_resignation, "reject")
        raise AssertionError(f"no action for {g.phase}")

    def play_game(self) -> None:
        self.start_game()
        last = None
        while not self.game.is_over():
            last = self.step(after_reject=last == "reject")
            assert len(self.game.history) < 3000
        state = MatchState.from_match_id(self.game.match_id())
        self.finished.append(state)
        assert state.score == self.match.score           # RULES 8.5

    def play(self, games: int | None = None) -> None:
        """The whole match (or ``games`` games of a session)."""
        while not self.match.is_over() and (games is None or len(self.match.games) < games):
            self.play_game()


@pytest.mark.parametrize("length, seed", [(1, 1), (3, 2), (5, 3), (7, 4)])
def test_matches_in_lockstep_with_gnubg(engine, length, seed):
    # RULES 8.1-8.3, 8.5: every state of a whole match equals gnubg's.
    run = Lockstep(engine, length, seed)
    run.play()
    assert run.match.is_over()
    final = run.finished[-1]
    assert max(final.score) >= length and final.crawford is False
    assert sum(run.seen.values()) >= 40


def test_money_sessions_in_lockstep_with_gnubg(engine):
    # RULES 7.2, 7.3, 7.5, 8.5: beavers taken and refused, raccoons taken,
    # refused or beavered again (the beaverer owns the cube after a raccoon),
    # one double per turn, the session score; with the Jacoby rule a gammon
    # played out on a centred cube counts single, a resignation its level.
    plain = Lockstep(engine, 0, 11, rules=Rules(beavers=3, cube_limit=GNUBG_CUBE_LIMIT), beavers=3,
                     double_rate=0.12)
    plain.play(games=12)
    jacoby = Lockstep(engine, 0, 15, rules=Rules(jacoby=True, beavers=1, cube_limit=GNUBG_CUBE_LIMIT),
                      jacoby=True, beavers=1, double_rate=0.01)
    jacoby.play(games=14)
    for run in (plain, jacoby):
        assert not run.match.is_over() and run.match.winner is None
        assert all(s.match_length == 0 and not s.crawford for s in run.finished)
        assert run.finished[-1].score == run.match.score
    seen = plain.seen + jacoby.seen
    labels = ("beaver", "take beaver", "drop beaver", "raccoon", "take raccoon", "drop raccoon", "beaver again",
              "resign")
    assert all(seen[a] for a in labels), seen
    assert all(s.jacoby for s in jacoby.finished) and not any(s.jacoby for s in plain.finished)
    games = plain.match.games + jacoby.match.games
    endings = {g.outcome.ending for g in games}
    assert endings >= {Ending.DROP, Ending.RESIGNATION} and endings & {Ending.SINGLE, Ending.GAMMON, Ending.BACKGAMMON}
    assert any(g.outcome.ending is Ending.GAMMON and g.cube_owner is None and g.outcome.points == 1
               for g in jacoby.match.games)
    assert sum(seen.values()) >= 1000


def test_lockstep_covers_every_ending_and_the_crawford_game(engine):
    # Twenty seeded 5- and 7-point matches: the finished states include
    # bear-offs (single, gammon, backgammon), drops and accepted
    # resignations of each level; a finished game's ID shows the Crawford
    # flag of the game to come (RULES 8.2), the Crawford game is played
    # without the cube and its finished ID clears the flag again.
    runs = []
    for length, seed in [(5, s) for s in range(20, 32)] + [(7, s) for s in range(20, 28)]:
        runs.append(Lockstep(engine, length, seed))
        runs[-1].play()
    games = [(g, state) for run in runs for g, state in zip(run.match.games, run.finished)]
    endings = Counter(g.outcome.ending for g, _ in games)
    assert all(endings[e] for e in Ending), endings
    states = [state for _, state in games]
    assert {s.game_state for s in states} == {GameState.OVER, GameState.RESIGNED, GameState.DROPPED}
    assert {s.resignation for s in states if s.game_state == GameState.RESIGNED} == {1, 2, 3}
    assert {s.resignation for s in states if s.game_state != GameState.RESIGNED} == {0}
    reached = [s for s in states if s.crawford]
    assert reached and all(sorted(s.score)[1] == s.match_length - 1 for s in reached)
    crawford_games = [(g, s) for g, s in games if g.crawford]
    assert crawford_games and not any(s.crawford for _, s in crawford_games)
    assert any(run.match.is_post_crawford and not run.match.games[-1].crawford for run in runs)
    seen = sum((run.seen for run in runs), Counter())
    assert all(seen[a] for a in ("reject", "accept", "drop", "take", "double", "resign", "move", "roll")), seen
    assert sum(seen.values()) >= 1500
