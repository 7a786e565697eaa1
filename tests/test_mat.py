"""Jellyfish .mat files (backgammon.mat) against GNU Backgammon.

gnubg is the oracle in both directions: matches and money sessions are
played in gnubg and in our ``Match`` in lockstep (random legal plays,
doubles, takes, drops, beavers, raccoons, resignations accepted and
rejected); then the file we write is imported by gnubg (``import mat``)
and must give gnubg's own record of the session, action for action, and
the file gnubg exports (``export match mat``) must read back to our
record.  gnubg also plays a match against itself at 0-ply; its export
reads back to its record.  Actions are compared as gnubg's ``match()``
lists them: each move by its dice (order aside) and the Position IDs
before and after it, cube actions and resignations by side, and each
game's score, winner, points and whether it was resigned.

What gnubg 1.1.0a16 does that these tests keep away from (its bugs, not
the format's): its export puts the dice of a resignation right after the
opening roll in the wrong column, scores a gammon under the Jacoby rule
in full in the ``Wins`` line, and its importer keeps a "beaver" flag
after a beaver that is not taken (so a session with a dropped beaver
loses a roll when gnubg re-imports its own export).  A raccoon taken
leaves the cube with the raccooner here and with the beaverer in gnubg
(see test_gnubg_lockstep.py), so the driver never takes a raccoon.
"""
from __future__ import annotations

import json
import os
import re

import numpy as np
import pytest

import gnubg  # noqa: F401  (fail, not skip, without the oracle)
from gnubg import _gnubg

import backgammon as bg

from helpers import gnubg_dice, gnubg_move
from backgammon.game import Event, Phase
from backgammon.mat import (MONEY_RULES, MatchFileError, MatchRecord, MatFileError, RecordedGame, read_mat,
                            save_duel, write_mat)
from backgammon.matchid import MatchState

DATA = os.path.join(os.path.dirname(__file__), "data")
GNUBG_CUBE_LIMIT = 4096


# -- gnubg ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def engine():
    """gnubg for these tests; afterwards no game and the settings other
    tests assume (as test_gnubg_lockstep.py leaves it)."""
    _gnubg.command("set threads 1")       # gnubg's own players hang with several threads here
    yield _gnubg
    for command in ("set matchid MAAAAAAAAAAA", "set jacoby on", "set beavers 3", "set automatic game on",
                    "set automatic roll on", "set player 1 human", "set player 0 gnubg"):
        _gnubg.command(command)


def drive(length: int, seed: int, rules=None, beavers: int = 0, jacoby: bool = False, games=None,
          double_rate: float = 0.08, resign_rate: float = 0.03):
    """A whole match (or ``games`` games of a session) played in gnubg and
    in our Match at once, with random legal actions; returns our Match.
    gnubg rolls the dice; the Match IDs agree after every game."""
    rng = np.random.default_rng(seed)
    for command in ("set player 0 human", "set player 1 human", "set automatic roll off",
                    "set automatic game off", "set automatic move off", "set automatic bearoff off",
                    "set automatic doubles 0", "set automatic crawford on", "set confirm new off",
                    "set rng mersenne", f"set seed {seed}", f"set jacoby {'on' if jacoby else 'off'}",
                    f"set beavers {beavers}"):
        _gnubg.command(command)
    _gnubg.command(f"new match {length}" if length else "new session")
    match = bg.Match(length, rules=rules)

    def both(command, ours, *args):
        _gnubg.command(command)
        ours(*args)

    def level(g):
        return 1 if jacoby and g.cube_owner is None else int(rng.choice([1, 2, 3]))

    while not match.is_over() and (games is None or len(match.games) < games):
        if match.games:
            _gnubg.command("new game")
        g = match.new_game()
        state = MatchState.from_match_id(_gnubg.matchid())
        high, low = state.dice
        g.roll((high, low) if state.on_roll == 0 else (low, high))     # RULES 2.2
        last = "opening"
        while not g.is_over():
            r = rng.random()
            if g.phase is Phase.TURN:
                if g.can_double() and r < double_rate:
                    both("double", g.double)
                elif r > 1 - resign_rate and last != "reject":
                    lv = level(g)
                    both(f"resign {lv}", g.resign, lv)
                    last = "resign"
                    continue
                else:
                    _gnubg.command("roll")
                    g.roll(gnubg_dice())
                last = "turn"
            elif g.phase is Phase.PLAY:
                plays = g.legal_plays()
                # Not right after the opening (gnubg's export misplaces it), nor with a
                # forced play (the file then reads as that play in gnubg).
                if r > 1 - resign_rate and last not in ("reject", "opening") and len(plays) > 1:
                    lv = level(g)
                    both(f"resign {lv}", g.resign, lv)
                    last = "resign"
                    continue
                play = plays[int(rng.integers(len(plays)))]
                both(gnubg_move(play), g.play, str(play))
                last = "move"
            elif g.phase is Phase.DOUBLED:
                if r < 0.3:
                    both("drop", g.drop)
                elif g.money and g._redoubles < g.rules.beavers and r < 0.6:
                    both("redouble", g.beaver)                 # RULES 7.5
                else:
                    both("take", g.take)
            elif g.phase is Phase.BEAVERED:
                can = g._redoubles < g.rules.beavers
                if g.turn == g._doubler:
                    if can and r < 0.3:
                        both("redouble", g.raccoon)
                    elif r < 0.6:
                        both("drop", g.drop)
                    else:
                        both("take", g.take)
                elif can and r < 0.4:
                    both("redouble", g.beaver)
                else:
                    both("drop", g.drop)
            else:
                assert g.phase is Phase.RESIGNED
                if r < 0.5:
                    both("accept", g.accept_resignation)
                else:
                    both("reject", g.reject_resignation)
                    last = "reject"
        assert g.match_id() == _gnubg.matchid()
    return match


def gnubg_record():
    """gnubg's record of its current match, as compared here."""
    return gnubg_actions(_gnubg.match(0, 1, 0, 0))


def _point(p: int) -> str:
    return "bar" if p == 25 else "off" if p == 0 else str(p)


def gnubg_actions(record: dict) -> list:
    """Per game ``(score, winner, points, resigned, actions)`` from gnubg's
    ``match()``; gnubg's players X and O are our players 0 and 1."""
    side = {"X": 0, "O": 1}
    out = []
    for game in record["games"]:
        info, steps = game["info"], list(game["game"])
        # gnubg keeps the cube decision of a side that then resigns on its turn as a double.
        steps = [a for k, a in enumerate(steps) if not (
            a["action"] == "double" and k + 1 < len(steps) and steps[k + 1]["action"] == "resign"
            and steps[k + 1]["player"] == a["player"])]
        actions = []
        for a in steps:
            player, kind = side[a["player"]], a["action"]
            if kind == "move":
                dice = tuple(a["dice"])
                before = bg.Position.from_id(a["board"])
                text = " ".join(f"{_point(f)}/{_point(t)}" for f, t in a.get("move", ()))
                after = before.parse_play(text, dice).position
                actions.append(("move", player, tuple(sorted(dice)), a["board"], after.to_id()))
            elif kind in ("double", "take", "drop"):
                actions.append((kind, player))
            elif kind == "set":
                actions.append(("dice", player, tuple(sorted(a["dice"]))))
            elif kind == "resign":
                actions.append(("resign", player))
            else:
                raise AssertionError(f"unexpected gnubg action {a}")
        out.append(((info["score-X"], info["score-O"]), side.get(info["winner"]), info["points-won"],
                    bool(info["resigned"]), actions))
    return out


def our_actions(games, jacoby: bool = False) -> list:
    """The same from our games (``Game`` objects or ``RecordedGame``),
    replayed here with ``Game`` alone; rejected resignations leave no
    trace in gnubg's record and none here."""
    out = []
    for game in games:
        events = game.history if hasattr(game, "history") else game.events
        g = bg.Game(rules=bg.Rules(beavers=16, jacoby=jacoby))
        actions, pending, resigner = [], None, None
        for e in events:
            if e.kind in ("opening", "roll"):
                before = g.position.to_id()
                g.roll(e.value)
                if g.phase is Phase.PLAY:
                    pending = (g.on_roll, g.dice, before)
                elif g.history[-1].kind == "play":           # no legal play (RULES 3.4)
                    actions.append(("move", g.history[-1].player, tuple(sorted(e.value)), before,
                                    g.position.to_id()))
            elif e.kind == "play":
                if e.value == "" and g.phase is not Phase.PLAY:
                    continue
                player, dice, before = pending
                g.play(e.value)
                actions.append(("move", player, tuple(sorted(dice)), before, g.position.to_id()))
                pending = None
            elif e.kind in ("double", "beaver", "raccoon"):
                getattr(g, e.kind)()
                actions.append(("double", e.player))
            elif e.kind in ("take", "drop"):
                getattr(g, e.kind)()
                actions.append((e.kind, e.player))
            elif e.kind == "resign":
                g.resign(e.value)
                resigner = e.player
            elif e.kind == "reject":
                g.reject_resignation()
            else:
                assert e.kind == "accept"
                g.accept_resignation()
                if pending is not None:
                    actions.append(("dice", pending[0], tuple(sorted(pending[1]))))
                    pending = None
                actions.append(("resign", resigner))
        if hasattr(game, "history"):
            o = game.outcome
            result = (o.winner, o.points, o.ending.value == "resignation") if o else (None, 0, False)
        else:
            result = (game.winner, game.points, game.resigned)
        out.append((tuple(game.score), *result, actions))
    return out


def kept(events) -> list:
    """Events a match file holds: no tied opening rolls, no rejected
    resignation offers."""
    out = []
    for e in events:
        if e.kind == "opening" and e.value[0] == e.value[1]:
            continue
        if e.kind == "reject":
            assert out[-1].kind == "resign"
            out.pop()
            continue
        out.append(e)
    return out


# -- gnubg writes, we read; we write, gnubg reads ---------------------------------------------

LOCKSTEP = [
    pytest.param(3, 9, {}, id="3-point"),
    pytest.param(7, 3, {}, id="7-point"),
    pytest.param(0, 1, dict(rules=bg.Rules(beavers=3, cube_limit=GNUBG_CUBE_LIMIT), beavers=3, games=12,
                            double_rate=0.15), id="money-beavers"),
]


@pytest.mark.parametrize("length, seed, options", LOCKSTEP)
def test_mat_files_both_ways_with_gnubg(engine, tmp_path, length, seed, options):
    # RULES 2.2, 3, 6.2-6.5, 7.1-7.5, 8.1-8.5: every action of a match or
    # session survives our file into gnubg and gnubg's file into ours.
    match = drive(length, seed, **options)
    theirs = gnubg_record()
    assert our_actions(match.games) == theirs              # the two engines played the same games
    kinds = {e.kind for g in match.games for e in g.history}
    assert {"double", "take", "drop", "resign", "accept", "reject"} <= kinds
    assert any(e.kind == "play" and e.value == "" for g in match.games for e in g.history)   # RULES 3.4
    if length:
        assert any(g.crawford for g in match.games)                                             # RULES 8.2
    else:
        assert {"beaver", "raccoon"} <= kinds

    exported = tmp_path / "gnubg.mat"
    engine.command(f"export match mat {exported}")
    record = read_mat(exported.read_text(), rules=match.rules)
    assert record.length == length and record.players == ("gnubg", _gnubg.match(0, 1, 0, 0)["match-info"]["O"]["name"])
    assert our_actions(record.games) == theirs
    assert [kept(g.history) for g in match.games] == [list(g.events) for g in record.games]

    ours = tmp_path / "ours.mat"
    ours.write_text(write_mat(match, players=record.players))
    engine.command(f"import mat {ours}")
    assert gnubg_record() == theirs
    # A file we write reads back to itself exactly.
    text = ours.read_text()
    assert write_mat(read_mat(text, rules=match.rules)) == text


def test_mat_jacoby_session_into_gnubg(engine, tmp_path):
    # RULES 7.5 Jacoby: a gammon on a centred cube scores 1; a session we
    # write with the Jacoby header reads the same in gnubg (set jacoby on).
    match = drive(0, 4, rules=bg.Rules(jacoby=True, beavers=1, cube_limit=GNUBG_CUBE_LIMIT), beavers=1,
                  jacoby=True, games=10, double_rate=0.05)
    theirs = gnubg_record()
    text = write_mat(match, players=("gnubg", "root"))
    assert '; [Jacoby "On"]' in text.splitlines()[0]
    path = tmp_path / "jacoby.mat"
    path.write_text(text)
    engine.command(f"import mat {path}")
    assert gnubg_record() == theirs
    record = read_mat(text)
    assert record.rules.jacoby and record.length == 0
    assert our_actions(record.games, jacoby=True) == theirs


def test_gnubg_self_play_export_reads_back(gnubg_self_play):
    # A 5-point match gnubg played against itself: the record gnubg keeps
    # and the .mat it exports give the same games (RULES 8.1, 8.2, 8.5).
    record = read_mat(gnubg_self_play["mat"])
    theirs = gnubg_actions(gnubg_self_play["match"])
    assert our_actions(record.games) == theirs
    assert record.length == 5 and record.winner is not None and max(record.score) >= 5
    assert record.header == (("EventDate", record.header[0][1]),)
    match = record.replay()
    assert match.is_over() and match.score == record.score


_SELF_PLAY: dict = {}


@pytest.fixture
def gnubg_self_play(engine, tmp_path_factory):
    """A 5-point match of gnubg against itself at 0-ply: its match() record,
    .mat export and SGF (played once per session: test_sgf.py uses it too)."""
    if not _SELF_PLAY:
        for command in ("set player 0 gnubg", "set player 1 gnubg", "set automatic game on",
                        "set automatic roll on", "set confirm new off", "set seed 7"):
            engine.command(command)
        for side in (0, 1):
            engine.command(f"set player {side} chequerplay evaluation plies 0")
            engine.command(f"set player {side} cubedecision evaluation plies 0")
        engine.command("new match 5")
        folder = tmp_path_factory.mktemp("selfplay")
        engine.command(f"export match mat {folder / 'm.mat'}")
        engine.command(f"save match {folder / 'm.sgf'}")
        _SELF_PLAY.update(match=engine.match(0, 1, 0, 0), mat=(folder / "m.mat").read_text(),
                          sgf=(folder / "m.sgf").read_text())
        engine.command("set player 0 human")
        engine.command("set player 1 human")
    return _SELF_PLAY


def test_stored_gnubg_export_with_resignations():
    # A 9-point match gnubg played and exported (tests/data), with
    # resignations after rolling, a Crawford game and post-Crawford doubles
    # (RULES 6.5, 8.2, 8.3): it reads to gnubg's own record of it.
    with open(os.path.join(DATA, "gnubg_selfplay_9.mat")) as f:
        text = f.read()
    with open(os.path.join(DATA, "gnubg_selfplay_9.json")) as f:
        theirs = gnubg_actions(json.load(f))
    record = read_mat(text)
    assert our_actions(record.games) == theirs
    assert [g.resigned for g in record.games] == [t[3] for t in theirs] and sum(g.resigned for g in record.games) == 5
    match = record.replay()
    assert [g.crawford for g in match.games].count(True) == 1 and match.winner == 0 and match.score == (9, 8)


def test_duel_saved_as_money_session(engine, tmp_path):
    # A duel kept with record=True is written as a .mat money session: each
    # game's winner and points as the duel scored them, and gnubg imports
    # the same moves (RULES 6.2-6.4).
    result = bg.duel("pubeval", "random", games=8, seed=3, workers=1, record=True)
    path = tmp_path / "duel.mat"
    save_duel(path, result)
    text = path.read_text()
    record = read_mat(text)
    assert record.length == 0 and record.players == ("pubeval", "random")
    assert [(g.winner, g.points) for g in record.games] == [(r.winner, r.points) for r in result.records]
    assert [g.events[0].value for g in record.games][:2] == [
        (max(r.rolls[0]), min(r.rolls[0])) if r.first == 0 else (min(r.rolls[0]), max(r.rolls[0]))
        for r in result.records[:2]]
    assert record.games[0].events[1].player == result.records[0].first
    engine.command("set jacoby off")
    engine.command(f"import mat {path}")
    assert gnubg_record() == our_actions(record.games)
    assert write_mat(record) == text
    assert MatchRecord.from_duel(result).games[3].events == record.games[3].events
    with pytest.raises(MatchFileError, match="record=True"):
        save_duel(tmp_path / "none.mat", bg.duel("pubeval", "random", games=2, seed=1, workers=1))
    with pytest.raises(TypeError, match="path"):
        save_duel(3, result)
    with pytest.raises(TypeError, match="duel_result"):
        save_duel(tmp_path / "x.mat", record)


def test_save_duel_writes_whole_or_not_at_all(tmp_path, monkeypatch):
    # A save that fails at the last step (the rename) leaves the old file as
    # it was and no temporary file beside it.
    import backgammon._files
    path = tmp_path / "duel.mat"
    path.write_text("old")
    result = bg.duel("pubeval", "random", games=2, seed=1, workers=1, record=True)

    def fail(src, dst):
        raise OSError("disk full")
    monkeypatch.setattr(backgammon._files.os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        save_duel(path, result)
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["duel.mat"]
    monkeypatch.undo()
    save_duel(path, result)
    assert len(read_mat(path.read_text()).games) == 2


def test_cli_duel_save(tmp_path, capsys):
    # `backgammon duel A B --save FILE.mat` writes the games through save_duel.
    from backgammon.cli import main
    path = tmp_path / "cli.mat"
    assert main(["duel", "pubeval", "random", "--games", "4", "--seed", "2", "--save", str(path)]) == 0
    assert str(path) in capsys.readouterr().out
    record = read_mat(path.read_text())
    assert len(record.games) == 4 and record.length == 0 and record.players == ("pubeval", "random")


def test_docstring_examples():
    import doctest

    import backgammon.formats.mat
    result = doctest.testmod(backgammon.formats.mat)
    assert result.failed == 0 and result.attempted >= 8


# -- round trips of random matches (no gnubg) ----------------------------------------------------

def random_match(length: int, seed: int, rules=None, games=None, double_rate=0.1, resign_rate=0.03,
                 tie_rate=0.0):
    """Our Match played with random legal actions and our own dice: tied
    openings, beavers, raccoons taken and passed, resignations accepted
    and rejected, before and after rolling."""
    rng = np.random.default_rng(seed)
    match = bg.Match(length, rules=rules, seed=seed)
    while not match.is_over() and (games is None or len(match.games) < games):
        g = match.new_game()
        while g.phase is Phase.OPENING:
            if rng.random() < tie_rate:
                d = int(rng.integers(1, 7))
                g.roll((d, d))                                  # RULES 2.2: rolled again
            else:
                a, b = rng.choice(np.arange(1, 7), size=2, replace=False)
                g.roll((int(a), int(b)))
        while not g.is_over():
            r = rng.random()
            if g.phase is Phase.TURN:
                if g.can_double() and r < double_rate:
                    g.double()
                elif r > 1 - resign_rate:
                    g.resign(int(rng.integers(1, 4)))
                else:
                    g.roll()
            elif g.phase is Phase.PLAY:
                plays = g.legal_plays()
                if r > 1 - resign_rate and len(plays) > 1:
                    g.resign(int(rng.integers(1, 4)))
                else:
                    g.play(str(plays[int(rng.integers(len(plays)))]))
            elif g.phase is Phase.DOUBLED:
                if g.money and g.rules.beavers and r < 0.4:
                    g.beaver()
                elif r < 0.7:
                    g.take()
                else:
                    g.drop()
            elif g.phase is Phase.BEAVERED:
                try:
                    if r < 0.3:
                        (g.raccoon if g.turn == g._doubler else g.beaver)()
                        continue
                except bg.RulesError:
                    pass
                (g.take if r < 0.7 else g.drop)()
            else:
                (g.accept_resignation if r < 0.6 else g.reject_resignation)()
    return match


@pytest.mark.parametrize("length, seed, rules", [
    (5, 10, None), (1, 11, None),
    (0, 12, bg.Rules(beavers=2)), (0, 13, bg.Rules(jacoby=True, beavers=1)),
])
def test_random_matches_round_trip(length, seed, rules):
    # Text -> record -> text is exact for files we write, the record's
    # events are the match's (less what the format cannot hold), and the
    # record replays to the same scores (RULES 8.5).
    match = random_match(length, seed, rules=rules, games=6 if length == 0 else None, tie_rate=0.2)
    text = write_mat(match)
    record = read_mat(text, rules=rules)
    assert write_mat(record) == text
    assert [list(g.events) for g in record.games] == [kept(g.history) for g in match.games]
    assert [(g.winner, g.points) for g in record.games] == [(g.outcome.winner, g.outcome.points)
                                                           for g in match.games]
    assert record.replay().score == match.score == record.score
    assert MatchRecord.from_match(match).games[0].events == tuple(match.games[0].history)


def test_beaver_written_as_gnubg_reads_it():
    # RULES 7.5: a beaver taken is written "Beavers => 4" with no "Takes"
    # (the doubler's roll takes it, as gnubg writes and reads it); a beaver
    # that is passed or answered by a raccoon is written "Doubles => 4".
    m = bg.Match(0, rules=bg.Rules(beavers=3))
    g = m.new_game()
    g.roll((3, 1)); g.play("8/5 6/5")
    g.double(); g.beaver(); g.take()                  # player 1 doubles, 0 beavers, 1 takes and rolls
    g.roll((2, 1)); g.play("13/11 6/5")
    g.resign(1); g.accept_resignation()
    g = m.new_game()
    g.roll((1, 3)); g.play("8/5 6/5")
    g.double(); g.beaver(); g.raccoon(); g.drop()     # the beaverer passes the raccoon: loses 4
    text = write_mat(m, players=("A", "B"))
    game1, game2 = text.split(" Game 2")
    assert "Beavers => 4" in game1 and "Takes" not in game1
    assert " Doubles => 4" in game2 and "Raccoons => 8" in game2 and "Wins 4 points" in game2
    record = read_mat(text)
    assert [e.kind for e in record.games[0].events] == [e.kind for e in m.games[0].history]
    assert [e.kind for e in record.games[1].events][-4:] == ["double", "beaver", "raccoon", "drop"]
    assert record.score == m.score == (4, 4)


# -- what real files hold -------------------------------------------------------------------------

def _sample_match():
    """A 3-point match with a dance (RULES 3.4), entering from the bar
    (RULES 4), bearing off (RULES 5), a double taken and one dropped, a
    resignation rejected and one accepted, and a Crawford game (RULES 8.2)."""
    match = random_match(3, 345)
    events = [e for g in match.games for e in g.history]
    plays = [e.value for e in events if e.kind == "play"]
    assert "" in plays and any("bar/" in p for p in plays) and any("/off" in p for p in plays)
    assert {"take", "drop", "reject", "accept"} <= {e.kind for e in events}
    assert any(g.crawford for g in match.games) and match.is_over()
    return match


def test_layout_variants_read_the_same():
    # Other writers: wider columns, standard notation with bar/off, chains
    # and repeats (RULES 10.1), blank lines, tabs, "Cannot Move" for a
    # dance, lower-case keywords, a header and comments.
    match = _sample_match()
    text = write_mat(match, players=("Ann Lee", "Bob"))
    record = read_mat(text)
    wide = []
    for line in text.splitlines():
        m = re.match(r"^(\s*\d+\) )(.{0,27}?)\s{2,}(\S.*)$", line)
        wide.append(f"{m.group(1)}{m.group(2):<34}{m.group(3)}" if m else line)
    variant = "\n".join(['; [Site "Somewhere"]', '; [Match ID "123"]', "; a comment", ""] + wide) + "\n\n"
    variant = variant.replace(" 25/", " bar/").replace("/0 ", "/off ").replace("/0\n", "/off\n")
    variant = re.sub(r"([1-6][1-6]):(?= {2,}|$)", r"\1: Cannot Move", variant, flags=re.M)
    variant = variant.replace("Doubles", "doubles")
    variant = variant.replace("\n Game 2", "\n\n\t\n Game 2")
    again = read_mat(variant)
    assert [g.events for g in again.games] == [g.events for g in record.games]
    assert again.header == (("Site", "Somewhere"), ("Match ID", "123")) and again.comments == ("a comment",)
    assert again.players == ("Ann Lee", "Bob")
    assert "Cannot Move" in variant and " bar/" in variant
    # Standard notation instead of single-die steps.
    standard = _with_standard_notation(match, text)
    assert standard != text
    assert [g.events for g in read_mat(standard).games] == [g.events for g in record.games]


def _with_standard_notation(match, text: str) -> str:
    """``text`` with every move written as the game recorded it (13/5, 6/4(2), bar/20*)."""
    plays = iter(e.value for g in match.games for e in g.history if e.kind == "play" and e.value)
    out = []
    for line in text.splitlines():
        def repl(m):
            return f"{m.group(1)}: {next(plays)}"
        out.append(re.sub(r"([1-6][1-6]): ((?:\S+/\S+ ?)+?)(?=\s{2,}|\s+[1-6][1-6]:|$)", repl, line))
    return "\n".join(out)


def test_wins_and_the_match_and_the_score_lines():
    # RULES 8.1, 8.5: the last game wins the match ("and the match"); each
    # game's score line is the score before it.
    match = _sample_match()
    text = write_mat(match)
    assert text.rstrip().splitlines()[-1].strip().endswith("and the match")
    assert text.count("and the match") == 1
    record = read_mat(text)
    for game, played in zip(record.games, match.games):
        assert game.score == played.score
    assert record.winner == match.winner and record.score == match.score
    assert "and the match" not in write_mat(random_match(0, 5, games=3))


# -- bad files ----------------------------------------------------------------------------------

GOOD = """; [Event "test"]

 3 point match

 Game 1
 A : 0                          B : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Drops
                                  Wins 1 point

 Game 2
 A : 0                          B : 1
  1)                             42: 8/4 6/4
  2) 66: 24/18 24/18 13/7 13/7    Doubles => 2
  3)  Takes                      33: 13/10 13/10 6/3 6/3
  4) 62:
                                  Wins 2 points
"""


def test_hand_written_file_reads():
    # A double dropped and one taken (RULES 7.3), a resignation after
    # rolling (RULES 6.5: "62:" with no move, then the other side wins
    # 1 x the cube of 2).
    record = read_mat(GOOD)
    assert record.header == (("Event", "test"),) and record.players == ("A", "B")
    g1, g2 = record.games
    assert [e.kind for e in g1.events] == ["opening", "play", "double", "drop"] and (g1.winner, g1.points) == (1, 1)
    assert g1.lines == (7, 7, 7, 8)
    assert [e.kind for e in g2.events][-6:] == ["take", "roll", "play", "roll", "resign", "accept"]
    assert g2.events[-2] == Event("resign", 0, 1) and (g2.winner, g2.points) == (1, 2)
    assert g2.lines[-3:] == (16, 17, 17)
    assert record.winner == 1 and record.score == (0, 3)       # RULES 8.1: B reached 3
    assert read_mat(GOOD) == record


CRAWFORD = """ 3 point match

 Game 1
 A : 0                          B : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Takes                      11:
      Wins 2 points

 Game 2
 A : 2                          B : 0
  1)                             42: 8/4 6/4
  2)  Doubles => 2
"""


def _bad(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new, 1)


@pytest.mark.parametrize("text, partial, line, words", [
    (_bad(" 3 point match", " three point match"), False, 3, "match length"),
    (_bad("  1) 31: 8/5 6/5 ", "  1) 31: 8/4 6/5 "), False, 7, "8/4"),                    # RULES 3.1
    (_bad("  1) 31: 8/5 6/5 ", "  1) 33: 8/5 6/5 "), False, 7, "opening roll"),           # RULES 2.2
    (_bad("  3)  Takes ", "  3)  Drops "), False, 15, "over"),
    (_bad("  1) 31: 8/5 6/5                 Doubles => 2", "  1) 31: 8/5 6/5                 Doubles => 4"),
     False, 7, "=> 4"),                                                                     # RULES 7.3
    (_bad("  2)  Drops", "  2)  Grumbles"), False, 8, "Grumbles"),
    (_bad(" Game 2", " Game 3"), False, 11, "game 3"),
    (_bad("  3)  Takes                      33: 13/10 13/10 6/3 6/3",
          "  3)  Takes                      33: 13/10 13/10 6/3 6/3\n  4)  Doubles => 4"), False, 17,
     "answer the cube"),                                                                    # RULES 7.3
    (_bad("  2) 66: 24/18 24/18 13/7 13/7    Doubles => 2", "  2) 66: 24/18 24/18 13/7 13/7"
          "\n  3)  Doubles => 2"), False, 15, "turn"),                                    # RULES 7.1: B owns it
    (CRAWFORD, False, 12, "crawford game (rules 8.2)"),
    (CRAWFORD.replace("  2)  Doubles => 2", " " * 34 + "Wins 1 point\n\n Game 3\n A : 2                          B : 1\n"
                      "  1)                             31: 8/5 6/5\n  2)  Doubles => 2"), False, 17,
     "dead cube"),                                                                          # RULES 8.3
    (GOOD[:GOOD.index("  3)  Takes")], False, 14, "truncated"),
    (GOOD[:GOOD.index(" Game 2")] + " Game 2\n", True, 11, "truncated"),
])
def test_bad_files_name_the_line(text, partial, line, words):
    # strict=True: a play the rules refuse is refused (by default it is kept as a set board, below).
    with pytest.raises(MatFileError) as info:
        read_mat(text, partial=partial, strict=True)
    assert info.value.line == line, str(info.value)
    assert words.lower() in str(info.value).lower(), str(info.value)
    assert f"line {line}" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_an_illegal_play_is_kept_as_a_set_board():
    # RULES 3.1: 8/4 6/5 moves 5 pips for a 3-1.  Read on, as gnubg and gammonview read such files.
    record = read_mat(_bad("  1) 31: 8/5 6/5 ", "  1) 31: 8/4 6/5 "))
    game = record.games[0]
    k = next(i for i, e in enumerate(game.events) if e.kind == "setboard")
    board = game.events[k].value
    assert (game.lines[k], board.play, board.rule) == (7, "8/4 6/5", "3.1")
    assert board.reason == "'8/4 6/5' moves 5 pips; 3-1 gives only 4 (RULES 3.1)"
    assert [(w.line, w.written) for w in record.warnings] == [(7, "31: 8/4 6/5")]
    assert board.position == bg.play.written_position(bg.Position.initial(), "8/4 6/5")
    assert record.replay().score == record.score


# A file that contradicts itself: the play wins, with a warning naming the
# line (what was written, what was used); strict=True refuses it instead.
MENDED = [
    (_bad(" A : 0                          B : 1", " A : 0                          B : 2"), 12,
     "score", "score 0-2", "0-1"),                                                          # RULES 8.5
    (_bad("Wins 1 point\n", "Wins 2 points\n"), 9, "wins 2", "Wins 2 points", "wins 1 point"),   # RULES 7.3
    (_bad(" " * 34 + "Wins 1 point", "      Wins 1 point"), 9, "the play gives player 1", "Wins 1 point",
     "player 1 wins 1 point"),                            # RULES 7.3: the Wins line in the dropper's column
    (_bad("Wins 2 points", "Wins 3 points"), 17, "resignation scores", "Wins 3 points", "a gammon"),  # RULES 6.5
]


@pytest.mark.parametrize("text, line, words, written, used", MENDED)
def test_contradictions_are_mended_or_refused(text, line, words, written, used):
    with pytest.raises(MatFileError) as info:
        read_mat(text, strict=True)
    assert info.value.line == line and f"line {line}" in str(info.value)
    assert words in str(info.value).lower(), str(info.value)
    record = read_mat(text)
    assert [(w.line, w.written) for w in record.warnings] == [(line, written)]
    assert used in record.warnings[0].used.lower(), record.warnings[0]
    assert f"line {line}" in str(record.warnings[0])
    assert read_mat(GOOD).warnings == ()
    assert record.replay().score == record.score         # the record holds what the play gives


def test_partial_and_truncated():
    # A match in progress (the last game unfinished, nobody at the length
    # yet) reads with partial=True; without it the file is truncated
    # (RULES 8.1).  Dice rolled and not yet played stay rolled.
    unfinished = bg.Match(3)
    g = unfinished.new_game()
    g.roll((5, 2)); g.play("13/8 13/11"); g.roll((4, 4))
    text = write_mat(unfinished)
    assert text.splitlines()[-1].endswith("44:")
    again = read_mat(text, partial=True)
    assert again.games[0].events == tuple(g.history) and again.replay().games[0].dice == (4, 4)
    assert again.games[0].winner is None and write_mat(again) == text
    with pytest.raises(MatFileError, match="legal plays"):
        read_mat(text)                   # "44:" with no move and no resignation after it (RULES 3.4)
    g.play("24/20 24/20 13/9 13/9")
    text = write_mat(unfinished)
    with pytest.raises(MatFileError, match="truncated") as info:
        read_mat(text)
    assert info.value.line == len(text.splitlines())
    match = random_match(3, 31)
    whole = write_mat(match)
    cut = whole[:whole.index(" Game 2")]
    assert read_mat(cut, partial=True).score == match.games[0].final_score
    with pytest.raises(MatFileError, match="truncated"):
        read_mat(cut)


@pytest.mark.parametrize("seed", [41, 42])
def test_cut_files_never_read_as_a_shorter_match(seed):
    # A match file cut anywhere either fails with MatFileError or still
    # holds the whole match (a cut inside the last "Wins ... and the
    # match" line loses nothing): never a silent partial result (RULES 8.1).
    match = random_match(5, seed)
    text = write_mat(match)
    full = read_mat(text)
    rng = np.random.default_rng(seed)
    for k in rng.integers(1, len(text) - 1, size=40):
        try:
            got = read_mat(text[:k])
        except MatFileError:
            continue
        assert [g.events for g in got.games] == [g.events for g in full.games], k
        assert text[:k].rstrip().startswith(text[:text.rindex("Wins")])


def test_replay_names_game_and_line():
    # A record edited into an illegal one fails on replay with the game and
    # the line its event came from (RULES 3).
    record = read_mat(GOOD)
    g2 = record.games[1]
    events = list(g2.events)
    k = events.index(next(e for e in events if e.kind == "play" and e.player == 0))
    events[k] = Event("play", 0, "24/23 24/23 13/7 13/7")
    bad = MatchRecord(record.players, record.length, (record.games[0], RecordedGame(
        g2.score, tuple(events), g2.winner, g2.points, g2.lines, g2.line)), record.header, (), record.rules)
    with pytest.raises(MatchFileError) as info:
        bad.replay()
    assert info.value.game == 2 and info.value.line == 14 and "line 14" in str(info.value)
    # Without lines (a record built in code), the event is named.
    plain = MatchRecord(record.players, record.length, (record.games[0], RecordedGame(
        g2.score, tuple(events), g2.winner, g2.points)))
    with pytest.raises(MatchFileError, match=r"game 2: .*event 4, play by player 0"):
        plain.replay()
    wrong_score = MatchRecord(record.players, record.length, (record.games[0], RecordedGame(
        (1, 0), g2.events, g2.winner, g2.points)))
    with pytest.raises(MatchFileError, match="score"):
        wrong_score.replay()
    wrong_player = MatchRecord(record.players, record.length, (RecordedGame(
        (0, 0), (Event("opening", -1, (3, 1)), Event("play", 1, "8/5 6/5"))),))
    with pytest.raises(MatchFileError, match="player 1"):
        wrong_player.replay()


def test_what_cannot_be_written():
    # RULES 7.5 automatic doubles and the RULES 2.2 opening re-roll have no
    # place in a .mat file; names with ':' would break the score line.
    m = bg.Match(0, rules=bg.Rules(automatic_doubles=1))
    g = m.new_game()
    g.roll((4, 4)); g.roll((3, 1)); g.play("8/5 6/5")
    with pytest.raises(MatFileError, match="automatic double"):
        write_mat(m)
    m = bg.Match(0, rules=bg.Rules(opening_reroll=True))
    g = m.new_game()
    g.roll((3, 1)); g.roll((6, 6))
    with pytest.raises(MatFileError, match="re-roll"):
        write_mat(m)
    with pytest.raises(MatFileError, match="name"):
        write_mat(bg.Match(1), players=("a:b", "c"))


def test_types_and_values():
    # _validate's convention: a wrong type is a TypeError naming the
    # parameter, a wrong value a ValueError subclass.
    with pytest.raises(TypeError, match="source"):
        read_mat(1)
    assert read_mat(GOOD.encode()) == read_mat(GOOD)          # bytes: UTF-8 (else Latin-1)
    with pytest.raises(TypeError, match="strict"):
        read_mat(GOOD, strict=1)
    with pytest.raises(TypeError, match="rules"):
        read_mat(GOOD, rules="standard")
    with pytest.raises(TypeError, match="partial"):
        read_mat(GOOD, partial=1)
    with pytest.raises(TypeError, match="source"):
        write_mat([1, 2])
    with pytest.raises(TypeError, match="players"):
        write_mat(bg.Match(1), players="ab")
    with pytest.raises(MatFileError, match="no games|not a .mat"):
        read_mat("; nothing here\n")
    with pytest.raises(MatFileError, match="money play"):
        read_mat(GOOD, rules=bg.Rules(jacoby=True))     # RULES 8.4
    assert issubclass(MatFileError, MatchFileError) and issubclass(MatchFileError, ValueError)
    assert MONEY_RULES.beavers > 0
