""".mat files as other programs write them (tests/data/dialects, see
tests/data/README): each dialect reads to the record gnubg's ``import
mat`` gives (run in a child process, with a timeout), what the file
contradicts is mended with a warning naming the line (``strict=True``
refuses it), and what breaks the rules fails naming the game, the line
and the rule.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

import gnubg  # noqa: F401  (fail, not skip, without the oracle)

import backgammon as bg
from backgammon.formats import for_path, get
from backgammon.formats.mat import MatFileError, read_mat, write_mat
from backgammon.formats.record import RecordWarning
from backgammon.play import written_position

DIALECTS = os.path.join(os.path.dirname(__file__), "data", "dialects")


def data(name: str) -> bytes:
    with open(os.path.join(DIALECTS, name), "rb") as f:
        return f.read()


def results(record) -> list:
    return [(g.score, g.winner, g.points if g.winner is not None else None) for g in record.games]


_GNUBG = r"""
import json, sys
from gnubg import _gnubg
for c in ("set confirm new off", "set player 0 human", "set player 1 human", "set threads 1",
          "set jacoby off"):
    _gnubg.command(c)
_gnubg.command('import mat "%s"' % sys.argv[1])
try:
    m = _gnubg.match(0, 1, 0, 0)
except Exception:
    m = None
out = []
for g in (m or {}).get("games", []):
    i = g["info"]
    w = {"X": 0, "O": 1}.get(i.get("winner"))
    out.append([[i["score-X"], i["score-O"]], w, i.get("points-won") if w is not None else None])
print("RESULT " + json.dumps(out))
"""


def gnubg_reads(path: str) -> list | None:
    """gnubg's games of ``path`` (score before, winner, points; X is the
    left column, our player 0), imported in a child process (gnubg can hang
    or crash on odd input): None when gnubg imports no match.  Money
    sessions are imported with the Jacoby rule off, as these files say."""
    done = subprocess.run([sys.executable, "-c", _GNUBG, path], capture_output=True, text=True, timeout=60)
    found = re.search(r"^RESULT (.*)$", done.stdout, re.M)
    assert found, done.stdout[-500:] + done.stderr[-500:]
    games = json.loads(found.group(1))
    return [(tuple(s), w, p) for s, w, p in games] or None


# (file, partial, the games: score before, winner, points; warnings: line, what was written)
CASES = [
    ("galaxy.txt", False, [((0, 0), 0, 2), ((2, 0), 1, 1), ((2, 1), 1, 1), ((2, 2), 1, 4)],
     [(89, "Wins 3 point and the match")]),
    ("studio_latin1.txt", False, [((0, 0), 1, 1), ((0, 1), 1, 1), ((0, 2), 1, 3)],
     [(98, "Wins 4016 point and the match")]),
    ("xg_notation.txt", False, [((0, 0), 1, 2), ((0, 2), 0, 1), ((1, 2), 1, 3)], []),
    ("playok_truncated.txt", True, [((0, 0), 1, 2), ((0, 2), 1, 1), ((0, 3), None, None)],
     [(95, "35: 21/16")]),
    ("gnubg_illegal_play.mat", False, [((0, 0), 1, 2), ((0, 2), 1, 3)],
     [(11, "64: Illegal play (0;0;1;0;0;finn;erin;0;0;0;1;0;0;0;1;1;-2;0")]),
    ("raccoon_money.txt", False, [((0, 0), 0, 2), ((2, 0), 1, 1)], []),
]
# Read where Game.resign takes the resigning player (RULES 6.5: the loser resigns after its own move).
OUT_OF_TURN = [
    ("dailygammon.txt", [((0, 0), 1, 1), ((0, 1), 1, 4), ((0, 5), 1, 2)], 16),
    ("fibs_resign_after_move.mat", [((0, 0), 1, 1), ((0, 1), 0, 1), ((1, 1), 0, 3)], 10),
]


@pytest.mark.parametrize("name, partial, games, warnings", CASES)
def test_dialects_read_as_gnubg_reads_them(name, partial, games, warnings):
    record = read_mat(data(name), partial=partial)
    assert results(record) == games
    assert [(w.line, w.written) for w in record.warnings] == warnings
    assert all(isinstance(w, RecordWarning) and w.game for w in record.warnings)
    match = record.replay()                                   # every game through Match/Game (RULES 2-8)
    assert match.score == record.score
    theirs = gnubg_reads(os.path.join(DIALECTS, name))
    if name == "raccoon_money.txt":
        assert theirs is None                     # gnubg refuses "Money session" (not a valid .mat file)
    else:
        assert theirs == games
    # Our own file of the record reads back to the same games.
    again = read_mat(write_mat(record), partial=partial)
    assert [(g.score, g.events, g.winner, g.points) for g in again.games] == \
        [(g.score, g.events, g.winner, g.points) for g in record.games]


@pytest.mark.parametrize("name, partial, games, warnings", [c for c in CASES if c[3]])
def test_strict_refuses_what_was_mended(name, partial, games, warnings):
    with pytest.raises(MatFileError) as info:
        read_mat(data(name), partial=partial, strict=True)
    assert info.value.line == warnings[0][0] and f"line {warnings[0][0]}" in str(info.value)


@pytest.mark.parametrize("name, games, line", OUT_OF_TURN)
def test_resignation_after_the_resigners_own_move(name, games, line):
    # FIBS (DailyGammon, Snowie exports): the loser resigns right after its
    # own move; the Wins line is in the winner's column, as gnubg reads it.
    path = os.path.join(DIALECTS, name)
    assert gnubg_reads(path) == games
    record = read_mat(data(name))
    assert results(record) == games and record.warnings == ()
    first = record.games[0]
    resign, accept = first.events[-2:]
    assert (resign.kind, accept.kind) == ("resign", "accept")
    assert resign.player == first.events[-3].player == 1 - first.winner   # the last mover resigned
    assert first.lines[-1] == line
    after_own_move = [g for g in record.games if g.resigned and g.events[-3].kind == "play"
                      and g.events[-3].player == g.events[-2].player]
    assert {g.winner for g in after_own_move} == ({0, 1} if name.startswith("fibs") else {1})
    assert record.replay().score == record.score
    again = read_mat(write_mat(record))
    assert [g.events for g in again.games] == [g.events for g in record.games]


def test_galaxy_losses_lines_and_names():
    record = read_mat(data("galaxy.txt"))
    assert record.players == ("ann", "bob")      # game 2's score line leaves the right name empty
    assert ("Site", "BackgammonGalaxy") in record.header
    text = data("galaxy.txt").decode()
    assert text.count("Losses") == 3 and "\n5 point match" in text
    # A Losses line that the result contradicts is mended with a warning.
    changed = text.replace("Losses 2 point", "Losses 4 point", 1)
    record = read_mat(changed)
    assert [(w.line, w.written, w.used) for w in record.warnings][0] == \
        (24, "Losses 4 point", "player 1 loses 2 points")
    capped = [w for w in read_mat(text).warnings if "and the match" in w.written][0]
    assert "player 1 wins 4 points" in capped.used and "the play" in capped.used


def test_studio_latin1_sentinel_and_concedes():
    raw = data("studio_latin1.txt")
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    record = read_mat(raw)                              # bytes: UTF-8, else Latin-1
    assert ("Player 1", "Jürgen Kümin") in record.header and record.players == ("vye36", "sahlen")
    text = raw.decode("latin-1")
    assert "Concedes" in text and "????" in text and "Cannot Move" in text and "bar/" in text
    # "Wins 4016 point" after "????": the lowest level accounting for it (a backgammon at cube 1).
    last = record.games[-1]
    assert last.events[-2] == bg.Event("resign", 0, 3) and last.events[-3].kind == "roll"
    assert "a backgammon at cube 1" in record.warnings[0].used
    assert read_mat(text) == record


def test_xg_notation_bom_crlf():
    raw = data("xg_notation.txt")
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw
    record = read_mat(raw)
    text = raw.decode("utf-8-sig")
    for token in ("Bar/", "/Off", "(2)", "Cannot Move", "????", "Concedes"):
        assert token in text, token
    assert re.search(r"\d\d: \d+/\d+ ", text)              # one checker's whole roll in one step
    # The roll never played ("????"), then the other side's win: a resignation after rolling.
    g1 = record.games[0]
    assert [e.kind for e in g1.events[-3:]] == ["roll", "resign", "accept"]
    assert read_mat(text.replace("\r\n", "\n")) == record


def test_playok_truncated_and_ratings():
    raw = data("playok_truncated.txt")
    with pytest.raises(MatFileError, match="truncated") as info:
        read_mat(raw)
    assert info.value.line == 95 and info.value.game == 3 and "RULES 3.4" in str(info.value)
    record = read_mat(raw, partial=True)
    assert record.players == ("rook", "nori")           # "name,rating": the rating is dropped
    last = record.games[-1]
    assert last.winner is None and last.events[-1].kind == "roll" and last.lines[-1] == 95
    assert "ends inside this move" in record.warnings[0].used
    # Dice written in the order rolled ("35:") are that roll.
    assert last.events[-1].value == (3, 5)


def test_money_session_comments_and_cube_limit():
    record = read_mat(data("raccoon_money.txt"))
    assert record.length == 0 and record.rules.cube_limit == 1 and not record.rules.jacoby
    assert record.comments.count("engine note: 0.4 s for this move") == 2
    assert not any(e.kind == "double" for g in record.games for e in g.events)


def _gnubg_saves(path: str, tmp_path) -> bg.MatchRecord:
    """gnubg's reading of a .mat file: ``import mat`` then ``save match``
    (SGF, which keeps a set board as gnubg holds it), read with read_sgf."""
    out = tmp_path / "gnubg.sgf"
    subprocess.run(["/usr/games/gnubg", "-t", "-q", "-r"], input=f'import mat "{path}"\nsave match "{out}"\n',
                   capture_output=True, text=True, timeout=120, env={**os.environ, "LANG": "C"})
    return bg.read_sgf(out.read_text(), partial=True)


def _events(record):
    return [[(e.kind, e.player, e.value.position if e.kind == "setboard" else e.value) for e in g.events]
            for g in record.games]


def test_illegal_play_read_as_gnubg_reads_it(tmp_path):
    # gnubg's "Illegal play (...)" (import.c, ParseMatMove): the dice (MOVE_SETDICE), then the board
    # given (MOVE_SETBOARD), the mover's checkers the negative ones when field 4 is the mover; the
    # opponent moves next.  Read the same: a setboard event, and a warning.
    text = data("gnubg_illegal_play.mat").decode()
    record = read_mat(text)
    event, line = record.games[0].events[17], record.games[0].lines[17]
    assert (event.kind, event.player, line, event.value.play) == ("setboard", 0, 11, "")
    assert "the legal play bar/21 20/14 reaches the same board" in event.value.reason   # no rule broken
    before = bg.Game.replay(record.games[0].events[:17], rules=record.rules)
    assert event.value.position == before.position.play("bar/21 20/14", before.dice)
    assert _events(_gnubg_saves(os.path.join(DIALECTS, "gnubg_illegal_play.mat"), tmp_path)) == _events(record)
    # A board no legal play of the roll reaches (RULES 3-5): strict=True refuses it, naming the rule.
    body = re.search(r"Illegal play \(([^)]*)\)", text).group(1)
    fields = body.split(";")
    k = next(k for k in range(14, 37) if fields[k] != fields[13])
    fields[13], fields[k] = fields[k], fields[13]         # two points' checkers change places
    # (read by default, as gnubg reads it: test_gnubg_exported_set_board; here the later plays no longer
    # fit the board, so only the strict refusal is checked)
    with pytest.raises(MatFileError, match=r"the file gives a board, not a play: no legal play of 6-4 here reaches "
                                           r"the board gnubg's 'Illegal play' gives \(RULES 3-5\)") as info:
        read_mat(text.replace(body, ";".join(fields)), strict=True)
    assert (info.value.game, info.value.line) == (1, 11)


def test_gnubg_exported_set_board(tmp_path):
    # tests/data/dialects/gnubg_setboard.mat: gnubg's own export (export match snowietxt) of a match
    # whose game 1 holds player 0's 3-1 played 13/9 8/7 (RULES 3.1), kept by gnubg as a set board.
    path = os.path.join(DIALECTS, "gnubg_setboard.mat")
    record = read_mat(data("gnubg_setboard.mat"))
    k = next(i for i, e in enumerate(record.games[0].events) if e.kind == "setboard")
    event = record.games[0].events[k]
    assert (event.player, record.games[0].lines[k], record.games[0].events[k - 1].value) == (0, 6, (3, 1))
    assert "(RULES 3-5)" in event.value.reason and event.value.rule == "3"
    before = bg.Game.replay(record.games[0].events[:k], rules=record.rules).position
    assert event.value.position == written_position(before, "13/9 8/7")
    theirs = _gnubg_saves(path, tmp_path)
    assert _events(theirs) == _events(record)
    assert results(theirs) == results(record)
    assert gnubg_reads(path) == results(record)
    assert record.replay().score == record.score
    # Written back (.mat and SGF), gnubg's way: the same games.
    assert _events(read_mat(write_mat(record))) == _events(record)
    assert _events(bg.read_sgf(bg.write_sgf(record))) == _events(record)


def test_match_resumed_at_a_score():
    # PlayOK exports of a match's later games: the first score line is 4-3.
    raw = data("playok_resumed.txt")
    assert gnubg_reads(os.path.join(DIALECTS, "playok_resumed.txt")) == [((4, 3), 1, 1), ((4, 4), 0, 3)]
    record = read_mat(raw)
    assert results(record) == [((4, 3), 1, 1), ((4, 4), 0, 3)] and record.winner == 0
    assert record.replay().score == (7, 4)
    assert [(w.line, w.written) for w in record.warnings] == [(89, "Wins 100 points and the match")]


@pytest.mark.parametrize("right", [33, 37, 39, 40, 45])
def test_any_column_position(right):
    # The right column found from the file: gnubg's 33, DailyGammon's 37, XG's 39, Studio's 40.
    m = bg.Match(3, seed=5)
    while not m.is_over():
        g = m.new_game()
        while not g.is_over():
            if g.phase is bg.Phase.OPENING or g.phase is bg.Phase.TURN:
                g.roll()
            else:
                plays = g.legal_plays()
                g.play(str(plays[len(plays) // 2]))
    text = write_mat(m, players=("Ann", "Bob"))
    wide = []
    for line in text.splitlines():
        row = re.match(r"^(\s*\d+\) )(.{27}) (\S.*)$", line)
        if row:
            wide.append(f"{row.group(1)}{row.group(2).rstrip():<{right - 5}}{row.group(3)}")
        elif line.startswith(" " * 34):
            wide.append(" " * (right + 1) + line.strip())
        else:
            wide.append(line)
    again = read_mat("\n".join(wide))
    assert [g.events for g in again.games] == [tuple(g.history) for g in m.games]


def test_formats_index_knows_the_dialects_and_xg():
    assert for_path("match.txt") is get("mat") and for_path("x.MAT") is get("mat")
    assert for_path("m.xg").binary and not get("mat").binary and get("xg").write is None
    assert for_path("notes.doc") is None


RESIGNS = """ 3 point match

 Game 1
 Alice : 0                      Bob : 0
                                  Wins 1 point

 Game 2
 Alice : 0                      Bob : 1
  1) 31: 8/5 6/5                 Resigns
      Wins 1 point

 Game 3
 Alice : 1                      Bob : 1
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 31: 13/10 24/23             Resigns
      Wins 2 points and the match
"""


def test_resigns_and_a_resignation_before_the_opening_roll(tmp_path):
    # A "Resigns" action (gnubg lists it as such) and a game given up before
    # its opening roll (RULES 6.5: a side may resign before anything is
    # rolled): gnubg imports both, and so do we, to the same games.
    path = tmp_path / "resigns.mat"
    path.write_text(RESIGNS)
    games = [((0, 0), 1, 1), ((0, 1), 0, 1), ((1, 1), 0, 2)]
    # gnubg's record of a game with no move names no winner, but the next
    # game's score shows the point it gave player 1.
    oracle = [((0, 0), None, None)] + games[1:]
    assert gnubg_reads(str(path)) == oracle
    record = read_mat(RESIGNS, strict=True)
    assert results(record) == games and record.warnings == ()
    first = record.games[0]
    assert [(e.kind, e.player) for e in first.events] == [("resign", 0), ("accept", 1)]
    assert record.games[2].events[-2].value == 2          # a gammon resigned on the cube of 1
    again = read_mat(write_mat(record))
    assert [g.events for g in again.games] == [g.events for g in record.games]
    (tmp_path / "again.mat").write_text(write_mat(record))
    assert gnubg_reads(str(tmp_path / "again.mat")) == oracle
    sgf = get("sgf")
    assert [g.events for g in sgf.read(sgf.write(record)).games] == [g.events for g in record.games]


def test_a_money_sessions_beavers_come_back_from_its_mat(tmp_path):
    # Issue 40: the rules of a game read from a file are the rules it was played
    # by (RULES 7.5): a money session is read with beavers on unless its file says
    # otherwise, so write_mat says so for a session played without them (or with
    # a count), and read_mat reads it back; gnubg imports the file as before
    # (its money rules are its own settings, whatever the file's tags say).
    for rules in (bg.Rules(), bg.Rules(beavers=1, jacoby=True), bg.Rules(beavers=16)):
        m = bg.play_match(["pubeval", "random"], 0, seed=1, games=2, rules=rules)
        text = write_mat(m)
        record = read_mat(text)
        assert (record.rules.beavers, record.rules.jacoby) == (rules.beavers, rules.jacoby)
        assert write_mat(record) == text
        state = record.replay().games[-1].match_state()
        assert state.beavers == (rules.beavers > 0)
    m = bg.play_match(["pubeval", "random"], 0, seed=1, games=2, rules=bg.Rules())
    path = tmp_path / "no_beavers.mat"
    path.write_text(write_mat(m))
    shown = subprocess.run(["/usr/games/gnubg", "-t", "-q", "-r"], input=f'set jacoby off\nimport mat "{path}"\nshow score\n',
                           capture_output=True, text=True, timeout=120, env={**os.environ, "LANG": "C"}).stdout
    assert f"(after 2 games) is: Player 0 {m.score[0]}, Player 1 {m.score[1]} (money session" in shown, shown
    with pytest.raises(MatFileError, match="Beavers"):
        read_mat('; [Beavers "maybe"]\n\n 0 point match\n\n Game 1\n A : 0     B : 0\n')
