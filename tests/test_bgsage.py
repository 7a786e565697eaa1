"""bgsage (Open Sage) as a comparison peer (backgammon.peers): its board
converted both ways, its move generator against ours, its players in
duels, rollouts and the command line, its cube decisions.

bgsage is in the test extra: without it these tests fail, they do not skip.
"""
import json
import multiprocessing
import os
import pickle
import subprocess
import sys
import textwrap
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

import bgbot_cpp      # bgsage's C++ core: without the package these tests fail at import
import bgsage
from bgsage import STARTING_BOARD, flip_board

import backgammon as bg
from backgammon import peers, players
from backgammon.batch import legal_positions
from backgammon.matchid import MatchState
from backgammon.rules import Rules
from backgammon.sample import random_positions


@pytest.fixture(scope="module", autouse=True)
def registered():
    # The entry point (pyproject.toml) registers "bgsage"; until the
    # package is installed with it, register the same factory here.
    if "bgsage" not in players.player_names():
        players.register_player("bgsage", peers.bgsage_player)


@pytest.fixture(scope="module")
def raw():
    return players.player("bgsage")


@pytest.fixture(scope="module")
def analyzer():
    return bgsage.BgBotAnalyzer(eval_level="1ply", cubeful=False)


@pytest.fixture(scope="module")
def mixed():
    """(boards, rolls): random-play pairs, then ones with the side on roll
    on the bar, then bear-offs (the side on roll all home)."""
    boards, rolls = random_positions(60_000, seed=3)
    bar = np.flatnonzero(boards[:, 1, 24] > 0)[:700]
    home = np.flatnonzero(boards[:, 1, 6:].sum(axis=1) == 0)[:700]
    pick = np.concatenate([np.arange(0, 60_000, 50), bar, home])        # every 50th: all stages of games
    assert len(bar) == len(home) == 700
    return np.ascontiguousarray(boards[pick]), np.ascontiguousarray(rolls[pick])


def _last_checker_positions():
    """The side on roll has one checker left, on point p (2-6), and the
    opponent a blot on each of its points below p: with a die that bears
    it off and a smaller one that hits first, both dice must be played."""
    out = []
    for p in range(2, 7):
        a = np.zeros((2, 25), dtype=np.uint8)
        a[1, p - 1] = 1
        for q in range(1, p):
            a[0, 24 - q] = 1                    # my point q is the opponent's 25 - q
        a[0, 0] = 15 - (p - 1) - 3              # the rest on the opponent's 1 point, three off
        out.append(a)
    return np.array(out)


# -- the boards -------------------------------------------------------------------------

def test_the_opening_converts_both_ways_to_bgsages_starting_board():
    start = bg.Position.initial().array
    assert peers.to_bgsage(start).tolist() == STARTING_BOARD
    assert (peers.from_bgsage(STARTING_BOARD) == start).all()
    # bgsage's best 3-1 from its own notes: 8/5 6/5, after the play, from the mover's view
    play = next(p for p in bg.Position.initial().legal_plays("31") if str(p) == "8/5 6/5")
    after = peers.to_bgsage(play.position.array, after=True).tolist()
    assert after == [0, -2, 0, 0, 0, 2, 4, 0, 2, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]
    assert (peers.from_bgsage(after, after=True) == play.position.array).all()


def test_conversion_round_trips_on_random_positions():
    boards, rolls = random_positions(5000, seed=21)
    sage = peers.to_bgsage(boards)
    assert sage.shape == (5000, 26)
    assert (peers.from_bgsage(sage) == boards).all()
    assert (np.abs(sage[:, 1:25]).sum(axis=1) + sage[:, 0] + sage[:, 25] == boards.sum(axis=(1, 2))).all()
    for k in range(0, 5000, 10):
        b, s = boards[k], sage[k].tolist()
        # flip_board is the other side's view: our rows swapped
        assert flip_board(s) == peers.to_bgsage(b[::-1]).tolist()
        # the opponent's bar is a positive count at index 0: the pip counts agree
        assert tuple(bgbot_cpp.pip_counts(s)) == bg.Position.from_bytes(b.tobytes()).pip_counts()
    # resulting positions (the next mover's view) both ways
    offsets, children = legal_positions(boards[:1000], rolls[:1000])
    assert (peers.from_bgsage(peers.to_bgsage(children, after=True), after=True) == children).all()
    assert (peers.to_bgsage(children, after=True) == peers.to_bgsage(children[:, ::-1])).all()


def test_bad_bgsage_boards_are_refused():
    with pytest.raises(ValueError, match="26 entries"):
        peers.from_bgsage([0] * 25)
    with pytest.raises(ValueError, match="positive"):
        peers.from_bgsage([-1] + [0] * 25)
    with pytest.raises(ValueError, match=r"\(\.\.\., 2, 25\)"):
        peers.to_bgsage(np.zeros((3, 25)))


# -- the move generators ----------------------------------------------------------------

def _compare_moves(boards, rolls):
    """Each pair's kind: bgsage's resulting positions equal ours ("same"),
    both the unchanged position when no move is legal ("no move"), or
    bgsage's also letting the last checker off with one die where both
    must be played, every extra ending the game as one of ours does
    ("last checker"); anything else is listed as a problem."""
    offsets, children = legal_positions(boards, rolls, mover_view=True)
    ours_all = peers.to_bgsage(children).tolist()
    sage = peers.to_bgsage(boards).tolist()
    kinds, problems = Counter(), []
    for i, (s, (d1, d2)) in enumerate(zip(sage, rolls.tolist())):
        theirs = {tuple(x) for x in bgbot_cpp.possible_moves(s, d1, d2)}
        ours = {tuple(x) for x in ours_all[offsets[i]:offsets[i + 1]]}
        if theirs == ours:
            kinds["no move" if ours == {tuple(s)} else "same"] += 1
            continue
        extra = theirs - ours
        our_scores = {bgbot_cpp.check_game_over(list(x)) for x in ours}
        if ours < theirs and all(bgbot_cpp.check_game_over(list(x)) in our_scores - {0} for x in extra):
            kinds["last checker"] += 1
        else:
            problems.append((s, d1, d2, sorted(theirs ^ ours)))
    return kinds, problems


def test_bgsages_moves_are_our_legal_positions(mixed):
    boards, rolls = mixed
    special = _last_checker_positions()
    every_roll = bg.ROLL_ARRAY.astype(np.uint8)
    boards = np.concatenate([boards, np.repeat(special, len(every_roll), axis=0)])
    rolls = np.concatenate([rolls, np.tile(every_roll, (len(special), 1))])
    kinds, problems = _compare_moves(boards, rolls)
    assert not problems, problems[:5]
    assert sum(kinds.values()) == len(boards) >= 2000
    # Both documented differences met and told apart: a dance (both give
    # the unchanged position; gnubg-nn gives none) and the last checker.
    assert kinds["no move"] > 50 and kinds["same"] > 2000
    assert kinds["last checker"] >= 30, kinds
    print(f"\n{len(boards)} pairs: {dict(kinds)}")


def test_the_last_checker_difference():
    # One checker on my 2 point, an opponent blot on my 1 point, 6-1: the
    # rules make me hit with the 1 and bear off with the 6 (2/1*/off);
    # bgsage also lists 2/off with the 6 alone.  Both end the game the same way.
    a = np.zeros((2, 25), dtype=np.uint8)
    a[1, 1] = 1
    a[0, 23] = 1
    a[0, 0:5] = [3, 3, 3, 3, 2]
    pos = bg.Position.from_bytes(a.tobytes())
    assert [str(p) for p in pos.legal_plays("61")] == ["2/1*/off"]
    theirs = bgbot_cpp.possible_moves(peers.to_bgsage(a).tolist(), 6, 1)
    assert len(theirs) == 2
    ours = peers.to_bgsage(pos.legal_plays("61")[0].position.array, after=True).tolist()
    assert ours in theirs
    assert [bgbot_cpp.check_game_over(b) for b in theirs] == [3, 3]     # a backgammon either way
    assert str(players.player("bgsage").choose(pos, "61")) == "2/1*/off"


# -- the players ------------------------------------------------------------------------

def test_specs_and_levels():
    assert players.player("bgsage").spec == "bgsage"
    assert players.player("bgsage:1ply").spec == "bgsage"
    assert peers.LEVELS[:4] == ("1ply", "2ply", "3ply", "4ply")
    # every level bgsage's analyzer names is a spec
    for level in peers.LEVELS[1:]:
        p = players.player(f"bgsage:{level}")
        assert isinstance(p, peers.BgsagePlayer) and (p.spec, p.level) == (f"bgsage:{level}", level)
    with pytest.raises(ValueError, match="Unknown eval_level"):
        bgsage.BgBotAnalyzer(eval_level="5ply")


@pytest.mark.parametrize("spec", ["bgsage:9ply", "bgsage:x", "bgsage:", "bgsage:2PLY"])
def test_bad_specs_name_the_spec(spec):
    with pytest.raises(ValueError, match=f"'{spec}'"):
        players.player(spec)
    with pytest.raises(ValueError, match="level must be one of"):
        peers.BgsagePlayer("9ply")


def test_a_missing_bgsage_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "bgsage", None)        # import bgsage now raises ImportError
    with pytest.raises(ValueError, match="pip install bgsage"):
        players.player("bgsage")


def test_the_raw_player_plays_bgsages_1ply_choice(raw, analyzer):
    boards, rolls = random_positions(20_000, seed=8)
    race = np.array([bg.Position.from_bytes(b.tobytes()).is_race() for b in boards])
    pick = np.concatenate([np.flatnonzero(~race)[:300], np.flatnonzero(race)[:300]])
    boards, rolls = boards[pick], rolls[pick]
    chosen = raw.choose_indices(boards, rolls)
    offsets, children = legal_positions(boards, rolls)
    assert ((0 <= chosen) & (chosen < np.diff(offsets))).all()
    for i, (b, (d1, d2)) in enumerate(zip(peers.to_bgsage(boards).tolist(), rolls.tolist())):
        moves = analyzer.checker_play(b, d1, d2).moves
        if len(moves) > 1:
            assert peers.to_bgsage(children[offsets[i] + chosen[i]], after=True).tolist() == list(moves[0].board)


def test_players_play_legal_plays(raw):
    boards, rolls = random_positions(600, seed=4)
    chosen = raw.choose_indices(boards, rolls)
    offsets, _ = legal_positions(boards, rolls)
    assert ((0 <= chosen) & (chosen < np.maximum(np.diff(offsets), 1))).all()
    deep = players.player("bgsage:2ply")
    analyzer = bgsage.BgBotAnalyzer(eval_level="2ply", cubeful=False)
    for k in range(0, 600, 30):
        pos = bg.Position.from_bytes(boards[k].tobytes())
        roll = tuple(int(d) for d in rolls[k])
        for p in (raw, deep):
            play = p.choose(pos, roll)
            assert play in list(pos.legal_plays(roll))
        moves = analyzer.checker_play(peers.to_bgsage(boards[k]).tolist(), *roll).moves
        if len(moves) > 1:
            assert peers.to_bgsage(play.position.array, after=True).tolist() == list(moves[0].board)


def test_a_choice_that_is_no_legal_play_is_an_error(monkeypatch):
    p = peers.BgsagePlayer()
    pos = bg.Position.initial()
    monkeypatch.setattr(p, "best_board", lambda board, d1, d2: list(board))    # "no move" from the opening
    with pytest.raises(RuntimeError, match="not the result of a legal play"):
        p.choose(pos, "31")


def test_a_one_die_ending_plays_the_legal_play_that_ends_the_game_alike(monkeypatch):
    # One checker on my 4 point, opponent blots on my 3 and 1 points, 3-1:
    # two legal plays, both hitting and bearing off (4/1*/off, 4/3*/off).
    # A choice of the same ending that hits nothing maps to one of them.
    a = np.zeros((2, 25), dtype=np.uint8)
    a[1, 3] = 1
    a[0, 21] = a[0, 23] = 1
    a[0, 0] = 13
    pos = bg.Position.from_bytes(a.tobytes())
    plays = pos.legal_plays("31")
    assert len(plays) == 2 and all(p.position.is_game_over() for p in plays)
    p = peers.BgsagePlayer()
    no_hit = peers.to_bgsage(a).tolist()
    no_hit[4] = 0
    monkeypatch.setattr(p, "best_board", lambda board, d1, d2: no_hit)
    play = p.choose(pos, "31")
    assert play in list(plays) and p.endings == 1
    assert play.position.result().points == 3


def test_a_player_pickles_afresh(raw):
    copy = pickle.loads(pickle.dumps(players.player("bgsage:2ply")))
    assert copy.spec == "bgsage:2ply" and copy.threads == 1
    assert str(pickle.loads(pickle.dumps(raw)).choose(bg.Position.initial(), "31")) == "8/5 6/5"


def test_searches_use_one_thread():
    if not os.path.isdir("/proc/self/task"):
        pytest.skip("threads are counted in /proc")
    start = bg.Position.initial()
    deep = peers.BgsagePlayer("3ply")
    before = len(os.listdir("/proc/self/task"))
    assert str(deep.choose(start, "31")) == "8/5 6/5"
    assert len(os.listdir("/proc/self/task")) == before
    # bgsage left to itself starts its pool of threads (one per core, at least 2)
    script = ("import os, backgammon as bg\nfrom backgammon.peers import BgsagePlayer\n"
              "p = BgsagePlayer('3ply', threads=None)\nn = len(os.listdir('/proc/self/task'))\n"
              "p.choose(bg.Position.initial(), '31')\nprint(len(os.listdir('/proc/self/task')) - n)")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and int(r.stdout) >= 1, r.stderr[-2000:]


def test_a_forked_process_refuses_a_threaded_search():
    # bgsage's thread pool does not survive fork (the child would hang):
    # in a child forked after a threaded search the player raises instead.
    script = textwrap.dedent('''
        import os, backgammon as bg
        from backgammon.peers import BgsagePlayer
        one = BgsagePlayer("2ply")                  # one thread: searches after a fork too
        one.choose(bg.Position.initial(), "31")
        pid = os.fork()
        if pid == 0:
            os._exit(6 if str(one.choose(bg.Position.initial(), "31")) == "8/5 6/5" else 7)
        _, status1 = os.waitpid(pid, 0)
        p = BgsagePlayer("3ply", threads=2)       # starts bgsage's pool of threads
        p.choose(bg.Position.initial(), "31")
        pid = os.fork()
        if pid == 0:
            try:
                p.choose(bg.Position.initial(), "42")
            except RuntimeError as e:
                os._exit(3 if "fork" in str(e) else 4)
            os._exit(5)
        _, status = os.waitpid(pid, 0)
        print(os.waitstatus_to_exitcode(status), os.waitstatus_to_exitcode(status1))
    ''')
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["3", "6"]


# -- duels, rollouts, the command line ---------------------------------------------------

def test_bgsage_beats_pubeval_in_a_duel():
    here = bg.duel("bgsage", "pubeval", games=200, seed=1, workers=1)
    assert here.a == "bgsage" and here.games == 200
    assert here.ppg > 0.25 and here.ppg > 3 * here.ppg_se and here.a_wins > 0.55, here
    # In a forked worker process (made after the player was made here), the same games.
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        there = bg.duel("bgsage", "pubeval", games=200, seed=1, executor=pool)
    assert (there.ppg, there.a_wins, there.a_gammons) == (here.ppg, here.a_wins, here.a_gammons)


def test_rollouts_take_bgsages_judgement(raw):
    # Cut at once, a rollout scores the opening by the player's judgement:
    # bgsage's chances, and cubefully its cube decision.
    start = bg.Position.initial()
    r = bg.rollout(games=36, policy="bgsage", truncate=0, variance_reduction=False, workers=1, cube=True)
    assert np.allclose([r.win, r.win_gammon, r.win_backgammon, r.lose_gammon, r.lose_backgammon],
                       raw.chances(start.array[None])[0])
    assert r.cubeful_equity == pytest.approx(raw.cube_action(start).no_double)
    played = bg.rollout(games=36, policy="bgsage", seed=2, workers=1, cube=True, truncate=8)
    assert played.games == 36 and np.isfinite(played.cubeful_equity)


def test_cube_decisions_are_bgsages_1ply_ones(raw):
    rawc = bgsage.BgBotAnalyzer(eval_level="1ply")
    boards, _ = random_positions(20_000, seed=9)
    race = np.array([bg.Position.from_bytes(b.tobytes()).is_race() for b in boards])
    pick = np.concatenate([np.flatnonzero(~race)[:8], np.flatnonzero(race)[:8]])
    cases = [(MatchState(), Rules(), dict(jacoby=False)),
             (MatchState(jacoby=True), Rules(jacoby=True), dict(jacoby=True)),   # the state holds the rules
             (MatchState(cube_value=2, cube_owner=0), Rules(), dict(cube_value=2, cube_owner="player")),
             (MatchState(match_length=7, score=(2, 4), on_roll=1), Rules(), dict(away1=3, away2=5))]
    actions = Counter()
    for k, i in enumerate(pick):
        pos = bg.Position.from_bytes(boards[i].tobytes())
        state, rules, kw = cases[k % len(cases)]
        mine = raw.cube_action(pos, state, rules)
        theirs = rawc.cube_action(peers.to_bgsage(boards[i]).tolist(), beaver=False, **kw)
        assert (mine.no_double, mine.double_take, mine.double_pass) == pytest.approx(
            (theirs.equity_nd, theirs.equity_dt, theirs.equity_dp), abs=1e-6)
        assert mine.probabilities[0] == pytest.approx(theirs.probs.win, abs=1e-6)
        assert mine.should_double == theirs.should_double
        assert (mine.take == "pass") == (not theirs.should_take)
        assert (mine.mwc is None) == (state.match_length == 0)
        actions[mine.action] += 1
    # the rules' reasons: the opponent owns the cube
    owned = raw.cube_action(bg.Position.initial(), MatchState(cube_value=2, cube_owner=1))
    assert not owned.can_double and "owns" in owned.reason


def test_the_command_line_duels_bgsage(tmp_path):
    # Through the entry point group, as an installed package declares it.
    info = tmp_path / "bgsage_peer-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: bgsage-peer\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[backgammon.players]\nbgsage = backgammon.peers:bgsage_player\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    run = [sys.executable, "-m", "backgammon", "duel"]
    r = subprocess.run([*run, "bgsage", "pubeval", "--games", "40", "--json"], capture_output=True, text=True,
                       timeout=300, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert out["a"] == "bgsage" and out["b"] == "pubeval" and out["games"] == 40 and out["ppg"] > 0
    bad = subprocess.run([*run, "bgsage:9ply", "pubeval", "--games", "2"], capture_output=True, text=True,
                         timeout=300, env=env)
    assert bad.returncode == 2 and "'bgsage:9ply'" in bad.stderr
