"""gnubg's SGF match files (backgammon.sgf) against GNU Backgammon.

The same lockstep sessions as test_mat.py: gnubg's ``save match`` of a
session must read back to our record of it, action for action, and the
SGF we write for our ``Match`` must be the one gnubg writes -- the same
root properties (MI, PW, PB, RU, RE) and the same action nodes, move by
move (dice and from/to letter pairs).  gnubg's ``load match`` cannot be
the oracle here: in the gnubg 1.1.0a16 wheel its SGF parser is compiled
out (``SGFParse`` returns at once and ``load match`` crashes), so gnubg's
writer is compared with ours instead.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import backgammon as bg
from backgammon.game import Event
from backgammon.mat import MatchRecord, read_mat, write_mat
from backgammon.sgf import SgfFileError, read_sgf, write_sgf
from backgammon.formats.sgf import _parse  # the tree parser, tested on its own

from test_mat import (GNUBG_CUBE_LIMIT, LOCKSTEP, _sample_match, drive, engine,  # noqa: F401
                      gnubg_actions, gnubg_record, gnubg_self_play, kept, our_actions, random_match)

_ACTION_PROPS = ("B", "W", "PL", "DI")
_ROOT_PROPS = ("GM", "FF", "CA", "MI", "PW", "PB", "RU", "RE")


def _nodes(text: str):
    """Per game: the root properties compared and the action nodes, each
    move's letter pairs sorted (gnubg and we may list the steps of a play
    in another order)."""
    games = []
    for tree in _parse(text):
        root = {k: v for k, v in tree[0].props.items() if k in _ROOT_PROPS}
        actions = []
        for node in tree[1:]:
            props = {k: v[0] for k, v in node.props.items() if k in _ACTION_PROPS}
            for colour in "BW":
                value = props.get(colour, "")
                if value[:1].isdigit():
                    pairs = sorted(value[k:k + 2] for k in range(2, len(value), 2))
                    props[colour] = value[:2] + "".join(pairs)
            if props:
                actions.append(props)
        games.append((root, actions))
    return games


@pytest.mark.parametrize("length, seed, options", LOCKSTEP)
def test_sgf_files_both_ways_with_gnubg(engine, tmp_path, length, seed, options):
    # RULES 2.2, 3, 6.2-6.5, 7.1-7.5, 8.1-8.5: gnubg's SGF of a session reads
    # to our record, and ours is gnubg's, node for node.
    match = drive(length, seed, **options)
    theirs = gnubg_record()
    saved = tmp_path / "gnubg.sgf"
    engine.command(f"save match {saved}")
    gnubg_text = saved.read_text()
    record = read_sgf(gnubg_text, rules=match.rules)
    assert our_actions(record.games) == theirs
    assert [kept(g.history) for g in match.games] == [list(g.events) for g in record.games]
    ours = write_sgf(match, players=record.players)
    assert _nodes(ours) == _nodes(gnubg_text)
    assert write_sgf(read_sgf(ours, rules=match.rules)) == ours
    if length > 1:
        assert "RU[Crawford:CrawfordGame]" in ours              # RULES 8.2


def test_sgf_jacoby_session_as_gnubg_writes_it(engine, tmp_path):
    # RULES 7.5 Jacoby: RU[Jacoby] on every game of a money session, and a
    # gammon on a centred cube scored single in RE.
    match = drive(0, 4, rules=bg.Rules(jacoby=True, beavers=1, cube_limit=GNUBG_CUBE_LIMIT), beavers=1,
                  jacoby=True, games=10, double_rate=0.05)
    saved = tmp_path / "gnubg.sgf"
    engine.command(f"save match {saved}")
    ours = write_sgf(match, players=("gnubg", "root"))
    assert _nodes(ours) == _nodes(saved.read_text())
    assert ours.count("RU[Jacoby]") == len(match.games)
    record = read_sgf(ours)
    assert record.rules.jacoby and our_actions(record.games, jacoby=True) == gnubg_record()


def test_gnubg_self_play_sgf_reads_back(gnubg_self_play):
    # gnubg's own SGF, with its analysis properties, of a match it played:
    # the same games as its record and as its .mat export (RULES 8).
    record = read_sgf(gnubg_self_play["sgf"])
    assert our_actions(record.games) == gnubg_actions(gnubg_self_play["match"])
    from_mat = read_mat(gnubg_self_play["mat"])
    assert [g.events for g in record.games] == [g.events for g in from_mat.games]
    assert record.players == from_mat.players and record.length == 5
    assert dict(record.header)["EventDate"] == dict(from_mat.header)["EventDate"]


@pytest.mark.parametrize("length, seed, rules", [
    (5, 10, None), (1, 11, None), (0, 12, bg.Rules(beavers=2)), (0, 13, bg.Rules(jacoby=True, beavers=1)),
])
def test_random_matches_round_trip(length, seed, rules):
    # Exact text round trips; the record's events are the match's, less
    # tied openings and rejected resignations; the scores replay (RULES 8.5).
    match = random_match(length, seed, rules=rules, games=6 if length == 0 else None, tie_rate=0.2)
    text = write_sgf(match)
    record = read_sgf(text, rules=rules)
    assert write_sgf(record) == text
    assert [list(g.events) for g in record.games] == [kept(g.history) for g in match.games]
    assert record.replay().score == match.score == record.score
    assert text.count("(;FF[4]GM[6]") == len(match.games)


def test_mat_and_sgf_hold_the_same_record():
    # One record, two formats: .mat -> record -> SGF -> record gives the same
    # games, players and header (EventDate <-> DT, Event <-> EV, Site <-> PC).
    match = _sample_match()
    text = '; [Event "Club night"]\n; [Site "Oslo"]\n; [EventDate "2024.05.17"]\n; a note\n\n' + \
        write_mat(match, players=("Ann", "Bob"))
    record = read_mat(text)
    sgf = write_sgf(record)
    assert "DT[2024-05-17]" in sgf and "EV[Club night]" in sgf and "PC[Oslo]" in sgf and "GC[a note]" in sgf
    again = read_sgf(sgf)
    assert [g.events for g in again.games] == [g.events for g in record.games]
    assert again.players == ("Ann", "Bob") and again.score == match.score and again.winner == match.winner
    assert sorted(again.header) == sorted(record.header) and again.comments == ("a note",)
    assert write_mat(again) == text


def test_letters_from_each_side():
    # White's point p is 'a' + p - 1, Black's 'x' - (p - 1); y is the bar,
    # z off (docs/formats.md); the 3-1 opening from each side (RULES 1.1).
    for first, node in ((0, ";W[31hefe]"), (1, ";B[31qtst]")):
        text = f"(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[a]PB[b]\n{node})"
        game = read_sgf(text, partial=True).games[0]
        assert game.events[1] == Event("play", first, "8/5 6/5")
    m = bg.Match(0)
    g = m.new_game()
    g.roll((6, 4)); g.play("24/18 13/9")
    g.roll((2, 1)); g.play("13/11 8/7*")                    # player 1 hits on its 7 = White's 18
    assert g.position.array[1, 24] == 1                     # RULES 3.3: White is on the bar
    g.roll((6, 1)); g.play("bar/24 24/18*")                 # RULES 4.2: enters with the 1, hits with the 6
    nodes = _nodes(write_sgf(m))[0][1]
    assert nodes == [{"W": "64mixr"}, {"B": "21lnqr"}, {"W": "61xryx"}]
    assert read_sgf(write_sgf(m), partial=True).games[0].events == tuple(g.history)


def test_resignations_and_placeholder_double():
    # RULES 6.5: a resignation is RE[..R] with the dice rolled before it as
    # PL/DI; gnubg writes the cube decision of a side that resigns on its
    # turn as a double node, read here as no double at all.
    head = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]RU[Crawford]"
    after_roll = head + "RE[W+2R]\n;W[31hefe]\n;PL[B]DI[52])"
    game = read_sgf(after_roll, partial=True).games[0]
    assert [e.kind for e in game.events] == ["opening", "play", "roll", "resign", "accept"]
    assert game.events[3] == Event("resign", 1, 2) and (game.winner, game.points) == (0, 2)
    placeholder = head + "RE[W+1R]\n;W[31hefe]\n;B[double])"
    game = read_sgf(placeholder, partial=True).games[0]
    assert [e.kind for e in game.events] == ["opening", "play", "resign", "accept"]
    mat = " 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5                 Doubles => 2\n" \
          "      Wins 1 point\n"
    assert [e.kind for e in read_mat(mat, partial=True).games[0].events] == ["opening", "play", "resign", "accept"]


GOOD = ("(;FF[4]GM[6]CA[UTF-8]MI[length:3][game:0][ws:0][bs:0]PW[A]PB[B]RU[Crawford]RE[B+1]\n"
        ";W[31hefe]\n;B[double]\n;W[drop])\n"
        "(;FF[4]GM[6]CA[UTF-8]MI[length:3][game:1][ws:0][bs:1]PW[A]PB[B]RU[Crawford]RE[B+2R]\n"
        ";B[42qusu]\n;W[66xrxrmgmg]\n;B[double]\n;W[take]\n;B[33lolosvsv]\n;PL[W]DI[62])\n")


def test_hand_written_file_reads():
    record = read_sgf(GOOD)
    assert record.players == ("A", "B") and record.length == 3 and record.score == (0, 3)
    assert [e.kind for e in record.games[0].events] == ["opening", "play", "double", "drop"]
    assert record.games[0].lines == (2, 2, 3, 4)
    assert record.games[1].events[-3:] == (Event("roll", 0, (6, 2)), Event("resign", 0, 1), Event("accept", 1))
    assert write_mat(record).count("Wins") == 2


def _bad(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new, 1)


@pytest.mark.parametrize("text, line, words", [
    (_bad(";W[31hefe]", ";W[31hefd]"), 2, "6/4"),                                      # RULES 3.1
    (_bad(";W[31hefe]", ";W[31he!e]"), 2, "letter"),
    (_bad(";W[31hefe]", ";W[33hefe]"), 2, "opening roll"),                             # RULES 2.2
    (_bad("RE[B+1]", "RE[B+2]"), 1, "wins 2"),                                         # RULES 7.3
    (_bad("RE[B+1]", "RE[W+1]"), 1, "player 0 wins 1"),
    (_bad("RE[B+1]", ""), 4, "no result"),
    (_bad("[bs:1]", "[bs:2]"), 5, "score"),                                            # RULES 8.5
    (_bad("[game:1]", "[game:2]"), 5, "game:2"),
    (_bad(";W[take]", ";B[take]"), 9, "answers the cube"),                              # RULES 7.3
    (GOOD.rstrip()[:-1], 11, "truncated"),
    (_bad(";W[drop])", ";W[drop](;W[take]))"), 4, "variations"),
    (_bad("GM[6]", "GM[1]"), 1, "not backgammon"),
    (_bad(";W[31hefe]", ";AB[a]W[31hefe]"), 2, "not supported"),
    (_bad(";PL[W]DI[62]", ";DI[62]"), 11, "PL"),
    (_bad("RU[Crawford]", ""), 1, "crawford"),                                         # RULES 8.2
    (GOOD.replace("MI[length:3]", "MI[length:2]"), 5, "crawford game"),                 # RULES 8.2
    (GOOD.replace("MI[length:3]", "MI[length:1]").replace("RE[B+1]", "RE[W+1R]").replace(
        ";W[31hefe]\n;B[double]\n;W[drop])", ";W[31hefe])"), 3, "match is over"),        # RULES 8.1
])
def test_bad_files_name_the_line(text, line, words):
    with pytest.raises(SgfFileError) as info:
        read_sgf(text)
    assert info.value.line == line, str(info.value)
    assert words.lower() in str(info.value).lower(), str(info.value)
    assert isinstance(info.value, ValueError)


def test_truncated_and_partial():
    cut = GOOD[:GOOD.index(";PL[W]")] + ")"
    cut = cut.replace("RE[B+2R]", "")
    with pytest.raises(SgfFileError, match="truncated"):
        read_sgf(cut)
    record = read_sgf(cut, partial=True)
    assert record.games[-1].winner is None and record.winner is None
    assert write_sgf(record).count("(;FF[4]") == 2


@pytest.mark.parametrize("seed", [41, 42])
def test_cut_files_never_read_as_a_shorter_match(seed):
    # An SGF match cut anywhere fails with SgfFileError (RULES 8.1: until
    # the last game is complete nobody has won).
    text = write_sgf(random_match(5, seed))
    rng = np.random.default_rng(seed)
    for k in rng.integers(1, len(text.rstrip()) - 1, size=40):
        with pytest.raises(SgfFileError):
            read_sgf(text[:k])


def test_duel_as_sgf():
    result = bg.duel("pubeval", "random", games=4, seed=5, workers=1, record=True)
    text = write_sgf(result)
    record = read_sgf(text)
    assert record.players == ("pubeval", "random") and record.length == 0
    assert [(g.winner, g.points) for g in record.games] == [(r.winner, r.points) for r in result.records]
    assert [g.events for g in record.games] == [g.events for g in MatchRecord.from_duel(result).games]
    assert re.search(r"RE\[[WB]\+[123]\]", text)


def test_docstring_examples():
    import doctest

    import backgammon.formats.sgf
    result = doctest.testmod(backgammon.formats.sgf)
    assert result.failed == 0 and result.attempted >= 6


def test_types_and_values():
    with pytest.raises(TypeError, match="source"):
        read_sgf(3)
    assert read_sgf(GOOD.encode()) == read_sgf(GOOD)            # bytes: UTF-8, as gnubg writes (CA[UTF-8])
    with pytest.raises(TypeError, match="partial"):
        read_sgf(GOOD, partial="yes")
    with pytest.raises(TypeError, match="source"):
        write_sgf("match")
    with pytest.raises(SgfFileError, match="no game"):
        read_sgf("  \n")
    with pytest.raises(SgfFileError, match="name"):
        write_sgf(bg.Match(1), players=("", "b"))
    m = bg.Match(1)
    m.new_game().roll((3, 1))
    names = write_sgf(m, players=("a]b", "c\\d"))
    assert names.endswith(";PL[W]DI[31])\n")
    assert "PW[a\\]b]PB[c\\\\d]" in names
    assert read_sgf(names, partial=True).players == ("a]b", "c\\d")
