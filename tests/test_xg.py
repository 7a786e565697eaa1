"""eXtreme Gammon .xg files (backgammon.formats.xg, through the optional
gammonview package): matches played here are written as .xg files by a
writer in this file (the layout of docs/formats.md, "XG match files") and
must read back to their own record, every game replayed through
Match/Game; sides are matched by name (gammonview calls the players white
and black after sorting their names); without gammonview read_xg says how
to install it.

test_real_xg_files reads the real files of /work/corpus/xg when that
directory exists (a local corpus that is not part of the repository) and
says so when it does not: it is not counted on as coverage, the generated
files are.
"""
from __future__ import annotations

import csv
import os
import struct
import sys
import zlib

import pytest

import backgammon as bg
from backgammon.formats import for_path, get
from backgammon.formats.mat import MatFileError, read_mat
from backgammon.formats.record import MatchRecord
from backgammon.formats.xg import INSTALL, XgFileError, available, read_xg

CORPUS = "/work/corpus/xg"
needs_gammonview = pytest.mark.skipif(not available(), reason=f"gammonview is not installed: {INSTALL}")


# -- writing .xg files (test data) -------------------------------------------------------------

RECORD = 2560


def _pos26(position: bg.Position, player_on_roll: int, frame: int) -> list:
    """XG's 26 bytes of a position, from ``frame``'s side (0 or 1): 1-24 its
    points, 25 its bar, 0 the other's bar; its checkers positive."""
    a = position.array
    mine, theirs = (a[1], a[0]) if frame == player_on_roll else (a[0], a[1])
    out = [0] * 26
    for p in range(1, 25):
        out[p] = int(mine[p - 1]) - int(theirs[24 - p])
    out[25] = int(mine[24])
    out[0] = -int(theirs[24])
    return out


def _ustr(text: str) -> bytes:
    return text.encode("utf-16-le")[:256] + b"\0\0"


def _sstr(text: str, size: int) -> bytes:
    raw = text.encode("cp1252", "replace")[:size]
    return bytes([len(raw)]) + raw + b"\0" * (size - len(raw))


def _record(kind: int) -> bytearray:
    rec = bytearray(RECORD)
    rec[8] = kind
    return rec


def _cube_code(value: int, owner) -> int:
    n = value.bit_length() - 1
    return 0 if owner is None else (n if owner == 0 else -n)


def xg_bytes(match: bg.Match, players=("Ann", "Bob"), event="Club", jacoby=False, beavers=False) -> bytes:
    """An .xg file of ``match`` (every game finished): XG player 1 is our
    player 0.  Cube records before each roll, move records with the play
    as one candidate (as XG's analysis keeps it), game and match footers,
    in XG's ZLB archive (temp.xg and temp.xgi) behind an RGMH header with
    no thumbnail."""
    recs = []
    head = _record(0)
    head[9:50] = _sstr(players[0], 40)
    head[50:91] = _sstr(players[1], 40)
    struct.pack_into("<i", head, 92, match.length or 99999)
    head[100], head[101], head[102] = 1, int(jacoby), int(beavers)
    struct.pack_into("<d", head, 128, 45256.3958)
    head[136:265] = _sstr(event, 128)
    struct.pack_into("<i", head, 548, 1)
    struct.pack_into("<i", head, 552, 30)
    head[556:560] = b"DMLI"
    struct.pack_into("<i", head, 612, 10)
    head[622:880] = _ustr(event).ljust(258, b"\0")
    head[880:1138] = _ustr(players[0]).ljust(258, b"\0")
    head[1138:1396] = _ustr(players[1]).ljust(258, b"\0")
    recs.append(head)
    for number, game in enumerate(match.games, 1):
        gh = _record(1)
        struct.pack_into("<ii", gh, 12, *game.score)
        gh[20] = int(game.crawford)
        struct.pack_into("<i", gh, 48, number)
        recs.append(gh)
        replay = bg.Game()
        cube, owner, pending = 1, None, None            # pending: the cube record of the roll to come
        events = list(game.history)
        k = 0
        while k < len(events):
            e = events[k]
            if e.kind in ("opening", "roll") and not (e.kind == "opening" and e.value[0] == e.value[1]):
                mover = (0 if e.value[0] > e.value[1] else 1) if e.kind == "opening" else e.player
                before = replay.position
                replay.apply(e)
                dice = (max(e.value), min(e.value)) if e.kind == "opening" else tuple(e.value)
                cr = pending or _record(2)
                struct.pack_into("<i", cr, 12, 1 if mover == 0 else -1)
                if pending is None:
                    struct.pack_into("<iii", cr, 16, -2, -1, -1)
                struct.pack_into("<i", cr, 32, _cube_code(cube, owner))
                cr[36:62] = struct.pack("<26b", *_pos26(before, mover, 0))
                cr[208:211] = _sstr(f"{dice[0]}{dice[1]}", 2)
                recs.append(cr)
                pending = None
                mv = _record(3)
                mv[9:35] = struct.pack("<26b", *_pos26(before, mover, 0))
                struct.pack_into("<i", mv, 64, 1 if mover == 0 else -1)
                struct.pack_into("<ii", mv, 100, *dice)
                struct.pack_into("<i", mv, 108, _cube_code(cube, owner))
                pairs = [-1] * 8
                nxt = events[k + 1] if k + 1 < len(events) else None
                if nxt is not None and nxt.kind == "play" and replay.phase is bg.Phase.PLAY:
                    play = before.parse_play(nxt.value, dice) if replay.phase is bg.Phase.PLAY else None
                    replay.apply(nxt)
                    k += 1
                    steps = list(play.moves)
                    for i, (frm, to) in enumerate(steps):
                        pairs[2 * i] = 24 if frm == 25 else frm - 1
                        pairs[2 * i + 1] = (to - 1) if to else frm - 1 - max(dice)
                    after = _pos26(play.position.swapped(), mover, mover)
                    mv[35:61] = struct.pack("<26b", *after)
                    struct.pack_into("<i", mv, 120, 1)             # one candidate: the play
                    mv[192:218] = struct.pack("<26b", *after)
                    mv[1024:1032] = struct.pack("<8b", *pairs)
                    mv[2308] = 1
                elif replay.phase is not bg.Phase.PLAY:          # no legal play: the turn passed
                    if nxt is not None and nxt.kind == "play" and nxt.value == "":
                        k += 1
                    mv[35:61] = struct.pack("<26b", *_pos26(before, mover, mover))
                    mv[2308] = 1
                struct.pack_into("<8i", mv, 68, *(pairs if mv[2308] else [0] * 8))
                recs.append(mv)
            elif e.kind == "double":
                replay.apply(e)
                cr = _record(2)
                struct.pack_into("<iii", cr, 12, 1 if e.player == 0 else -1, 1, -1)
                struct.pack_into("<i", cr, 32, _cube_code(cube, owner))
                answer = events[k + 1]
                replay.apply(answer)
                k += 1
                if answer.kind == "take":
                    struct.pack_into("<i", cr, 20, 1)
                    cube, owner = cube * 2, answer.player
                    pending = cr                                # the doubler's roll follows
                else:
                    struct.pack_into("<i", cr, 20, 0)
                    cr[208:211] = _sstr("77", 2)
                    recs.append(cr)
            elif e.kind == "resign":
                replay.apply(e)
                if replay.phase is bg.Phase.RESIGNED and events[k - 1].kind in ("play", "take", "opening") \
                        and game.history[k - 1].kind != "roll":
                    cr = _record(2)
                    struct.pack_into("<iiii", cr, 12, 1 if e.player == 0 else -1, -1, -1, -1)
                    struct.pack_into("<i", cr, 32, _cube_code(cube, owner))
                    cr[208:211] = _sstr("77", 2)
                    recs.append(cr)
            else:
                replay.apply(e)
            k += 1
        o = game.outcome
        foot = _record(4)
        final = game.final_score
        struct.pack_into("<ii", foot, 12, *final)
        struct.pack_into("<iii", foot, 24, 1 if o.winner == 0 else -1, o.points,
                         {"dropped double": 0, "resignation": 100 + o.multiplier}.get(o.ending.value, o.multiplier))
        recs.append(foot)
    fm = _record(5)
    struct.pack_into("<ii", fm, 12, *match.score)
    recs.append(fm)
    return _container(b"".join(recs), recs[0] + recs[-1])


def _container(temp_xg: bytes, temp_xgi: bytes) -> bytes:
    header = bytearray(8232)
    header[0:4] = b"RGMH"
    struct.pack_into("<II", header, 4, 1, 8232)          # version, header size; thumbnail offset 0, size 0
    archive, registry = b"", b""
    for name, content in (("temp.xg", temp_xg), ("temp.xgi", temp_xgi)):
        stored = zlib.compress(content, 2)
        entry = _sstr(name, 255) + _sstr("", 255) + struct.pack("<iiiIBBxx", len(content), len(stored),
                                                                  len(archive), zlib.crc32(content), 0, 2)
        archive += stored
        registry += entry
    registry = zlib.compress(registry)
    body = archive + registry
    trailer = struct.pack("<Iiiiii12x", zlib.crc32(body), 2, 1, len(registry), len(archive), 1)
    return bytes(header) + body + trailer


# -- matches to write -------------------------------------------------------------------------

def played_match(length: int, seed: int, double_rate=0.12, resign_rate=0.02) -> bg.Match:
    """A match of random legal actions: doubles taken and dropped,
    resignations before and after rolling, dances, the Crawford game."""
    import random
    rng = random.Random(seed)
    m = bg.Match(length, seed=seed)
    while not m.is_over():
        g = m.new_game()
        while not g.is_over():
            r = rng.random()
            if g.phase is bg.Phase.OPENING:
                g.roll()
            elif g.phase is bg.Phase.TURN:
                if g.can_double() and r < double_rate:
                    g.double()
                elif r > 1 - resign_rate:
                    g.resign(1)
                else:
                    g.roll()
            elif g.phase is bg.Phase.PLAY:
                plays = g.legal_plays()
                if r > 1 - resign_rate and len(plays) > 1:
                    g.resign(2)
                else:
                    g.play(str(plays[rng.randrange(len(plays))]))
            elif g.phase is bg.Phase.DOUBLED:
                (g.take if r < 0.6 else g.drop)()
            else:
                g.accept_resignation()
    return m


def events_of(record_or_match) -> list:
    games = record_or_match.games
    return [(tuple(g.score), tuple(getattr(g, "events", None) or
             [e for e in g.history if not (e.kind == "opening" and e.value[0] == e.value[1])]))
            for g in games]


# -- generated files ---------------------------------------------------------------------------

@needs_gammonview
@pytest.mark.parametrize("length, seed, players", [
    (5, 1, ("Ann", "Bob")),          # gammonview's white is XG's player 1
    (7, 2, ("Zoe", "Adam")),         # ... and here player 2 (it sorts the names)
    (3, 9, ("Sam", "Sam")),          # one name twice: the sides follow the first roll
])
def test_generated_xg_reads_to_its_match(length, seed, players):
    match = played_match(length, seed)
    kinds = {e.kind for g in match.games for e in g.history}
    assert {"double", "take", "resign"} <= kinds
    data = xg_bytes(match, players)
    record = read_xg(data)
    assert isinstance(record, MatchRecord)
    assert record.players == players and record.length == length and record.warnings == ()
    assert events_of(record) == events_of(match)                  # RULES 2-8, every action
    assert [(g.winner, g.points) for g in record.games] == [(g.outcome.winner, g.outcome.points)
                                                           for g in match.games]
    assert record.replay().score == match.score == record.score
    assert ("Event", "Club") in record.header
    assert get("xg").read(data) == record and for_path("a.xg").read(bytearray(data)) == record


@needs_gammonview
def test_resignations_and_drops_in_xg():
    # A drop ends the game at the cube before the double (RULES 7.3); a
    # resignation after rolling keeps its roll, before rolling none (RULES 6.5).
    m = bg.Match(5)
    g = m.new_game()
    g.roll((3, 1)); g.play("8/5 6/5"); g.double(); g.drop()
    g = m.new_game()
    g.roll((6, 5)); g.play("24/13"); g.roll((6, 6)); g.play("24/18(2) 13/7(2)"); g.resign(1); g.accept_resignation()
    g = m.new_game()
    g.roll((4, 2)); g.play("8/4 6/4"); g.roll((5, 2)); g.resign(2); g.accept_resignation()
    g = m.new_game()
    g.roll((2, 1)); g.play("13/11 6/5"); g.double(); g.take(); g.roll((3, 3)); g.play("24/21(2) 13/10(2)")
    g.resign(1); g.accept_resignation()
    record = read_xg(xg_bytes(m, ("Ann", "Bob")), partial=True)
    assert [(g.score, g.winner, g.points) for g in record.games] == [
        ((0, 0), 1, 1), ((0, 1), 1, 1), ((0, 2), 0, 2), ((2, 2), 1, 2)]
    assert [e.kind for e in record.games[0].events][-2:] == ["double", "drop"]
    assert [e.kind for e in record.games[1].events][-3:] == ["play", "resign", "accept"]
    assert [e.kind for e in record.games[2].events][-3:] == ["roll", "resign", "accept"]
    assert record.games[2].events[-2] == bg.Event("resign", 1, 2)          # a gammon, after rolling 52
    assert events_of(record) == events_of(m)
    with pytest.raises(XgFileError, match="ends at 2-4 before anyone has won"):
        read_xg(xg_bytes(m, ("Ann", "Bob")))


@needs_gammonview
def test_a_play_xg_kept_that_the_rules_refuse():
    # XG keeps a play a transcriber entered, flagged invalid (here a checker
    # that "moves" zero pips): a set board by default, refused by strict=True
    # naming the game, the action and the rule.
    match = played_match(3, 4)
    data = bytearray(xg_bytes(match, ("Ann", "Bob")))
    raw = zlib.decompressobj()
    start = 8232
    temp = bytearray(raw.decompress(bytes(data[start:])))
    for k in range(len(temp) // RECORD):
        rec = temp[k * RECORD:(k + 1) * RECORD]
        if rec[8] == 3 and struct.unpack_from("<i", rec, 120)[0] == 1:
            moves = list(struct.unpack_from("<8b", rec, 1024))
            if moves[0] >= 1 and moves[1] >= 0:
                moves[1] = moves[0]                        # a checker that "moves" zero pips
                struct.pack_into("<8b", temp, k * RECORD + 1024, *moves)
                break
    bad = _container(bytes(temp), bytes(temp[:RECORD]))
    # gammonview gives that play only as the board after it (its action 31): strict=True refuses it there
    with pytest.raises(XgFileError, match=r"game 1, action 1: .*XG flags this play invalid .*\(RULES 3-5\)"):
        read_xg(bad, strict=True)
    # by default it is a set board (gammonview's board: the opponent's checkers where they were), and
    # the file fails where a later play needs the checker whose step was lost (RULES 1)
    with pytest.raises(XgFileError, match=r"game 1, action 3: '7/1 13/11': no checker of yours on point 7") as info:
        read_xg(bad)
    assert info.value.game == 1 and info.value.line == 3


@needs_gammonview
def test_unreadable_and_wrong_input():
    with pytest.raises(XgFileError, match="gammonview can read"):
        read_xg(b"RGMH" + b"\0" * 100)
    with pytest.raises(XgFileError, match="gammonview can read"):
        read_xg(b"not an xg file at all")
    with pytest.raises(FileNotFoundError):
        read_xg("a path to no file")          # .xg has no text: a str is a path
    with pytest.raises(TypeError, match="rules"):
        read_xg(b"", rules="standard")


def test_without_gammonview_the_error_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "gvformat.xg", None)          # import fails as if not installed
    assert not available()
    with pytest.raises(XgFileError, match=r"pip install 'backgammon\[xg\]'"):
        read_xg(b"RGMH")
    assert issubclass(XgFileError, ValueError) and get("xg").error is XgFileError and get("xg").binary


# -- the real files (a local corpus, when present) --------------------------------------------------

def _corpus_files():
    if not os.path.isdir(CORPUS):
        return []
    with open(os.path.join(CORPUS, "SOURCES.tsv")) as f:
        return list(csv.DictReader(f, delimiter="\t"))


# The real files that are refused, and why: not XG's match files at all.  Since set boards
# came in (a play the rules refuse is read on as the board it makes or XG records, with a
# warning), the real files holding one read: Squire-Jorgensen-Harmand-Unger (game 7, a 4-3
# played '14/11 8/5'), 5nqfGw9bWG3deTaU ('14/10 13/12' off a 3-1), hQ8sVn2LbTdF4wRm and
# rK7pXm4TqLb9NzWd (boards XG records for plays it flags invalid); uwvEbd63's game won before
# the opening roll reads since resignations before it were taken (tests/data/README).
REFUSED = {
    "demo.xg": ("not an .xg match file",),               # Insti/xgdatatools: made by a test helper
    "example.xg": ("not an .xg match file",),
}
# The set boards of the real files that hold an illegal play, read by default (strict=True refuses).
SET_BOARDS = {
    "Squire": [(7, "3.1")],
    "5nqfGw9bWG3deTaU": [(1, "3.1")],
    "hQ8sVn2LbTdF4wRm": [(2, "3"), (3, "3.1"), (3, "3.1")],
    "rK7pXm4TqLb9NzWd": [(12, "3")],
}
# A text export that read_mat refuses: XG wrote the invalid 6-5 of hQ8sVn2LbTdF4wRm's game 2
# ('14/8 15/10 6/8') with a step backward, which no board can be taken from as written.
PAIR_REFUSED = {"hQ8sVn2LbTdF4wRm.mat": ("game 2, line 71", "never moves backward", "RULES 3.1")}


def _unordered_rolls(events: tuple) -> tuple:
    """XG stores a roll's higher die first whatever order a text file it imported gave
    (every move record of the 21 real files), so a roll is compared as a pair of dice, and a
    set board by the board given (its reason names the roll in the order the file wrote it,
    "3-1" in the .xg and "1-3" in its .mat export; where XG records only the board after a play
    it flags invalid, the .xg has no play text, its .mat export the play as written)."""
    return tuple((e.kind, e.player, tuple(sorted(e.value))) if e.kind == "roll" else
                 (e.kind, e.player, e.value.position) if e.kind == "setboard" else e
                 for e in events)


@needs_gammonview
def test_real_xg_files():
    rows = _corpus_files()
    if not rows:
        pytest.skip(f"{CORPUS} is not here: the real .xg files are a local corpus, not part of the repository")
    read, refused, paired, pair_refused = {}, {}, 0, []
    for row in rows:
        with open(row["local_path"], "rb") as f:
            data = f.read()
        try:
            record = read_xg(data)
        except XgFileError as e:
            refused[os.path.basename(row["local_path"])] = str(e)
            continue
        read[row["local_path"]] = record
        assert record.replay().score == record.score
        assert record.winner is not None or record.length == 0     # a money session has no winner
        boards = [(k, e.value.rule) for k, g in enumerate(record.games, 1) for e in g.events if e.kind == "setboard"]
        expected = [v for k, v in SET_BOARDS.items() if k in row["local_path"]]
        assert boards == (expected[0] if expected else []), row["local_path"]
        if boards:
            with pytest.raises(XgFileError, match=r"RULES 3"):
                read_xg(data, strict=True)
        for pair in filter(None, row["paired_text_export_local_path"].split(",")):
            with open(pair, "rb") as f:
                pair_data = f.read()
            why = PAIR_REFUSED.get(os.path.basename(pair))
            if why:
                with pytest.raises(MatFileError) as refusal:
                    read_mat(pair_data)
                assert all(part in str(refusal.value) for part in why), str(refusal.value)
                pair_refused.append(os.path.basename(pair))
                continue
            text = read_mat(pair_data)
            assert sorted(text.players) == sorted(record.players)
            assert text.players == record.players             # XG's player 1 is the left column
            assert [(g.score, _unordered_rolls(g.events), g.winner, g.points) for g in text.games] == \
                [(g.score, _unordered_rolls(g.events), g.winner, g.points) for g in record.games], pair
            assert len(text.warnings) == len(record.warnings), pair   # both mend the same results
            paired += 1
    for name, message in refused.items():
        why = [v for k, v in REFUSED.items() if k in name]
        assert why, f"{name} is refused: {message}"
        assert all(part in message for part in why[0]), (name, message)
    assert len(read) >= 10 and paired >= 10, (len(read), paired, refused)
    assert sorted(pair_refused) == sorted(k for k in PAIR_REFUSED if any(k in r["paired_text_export_local_path"]
                                                                         for r in rows))


REAL = os.path.join(os.path.dirname(__file__), "data", "xg")     # kevung/gbf, MIT (LICENSE.gbf)


@needs_gammonview
def test_committed_real_xg_files():
    """Two real .xg files committed (tests/data/README): test.xg reads as its two text
    exports (XG's own text and its .mat export); the Squire-Jorgensen-Harmand-Unger match
    holds a 4-3 XG flags invalid (game 7, '14/11 8/5': two threes), read by default as a set
    board naming RULES 3.1 with a warning, and refused with strict=True."""
    with open(os.path.join(REAL, "test.xg"), "rb") as f:
        record = read_xg(f.read())
    assert record.warnings == () and record.replay().score == record.score == (7, 4)
    for name in ("test.txt", "test.mat"):
        with open(os.path.join(REAL, name), "rb") as f:
            text = read_mat(f.read())
        assert text.players == record.players
        assert [(g.score, _unordered_rolls(g.events), g.winner, g.points) for g in text.games] == \
            [(g.score, _unordered_rolls(g.events), g.winner, g.points) for g in record.games], name
    with open(os.path.join(REAL, "Squire-Jorgensen-Harmand-Unger_7p.xg"), "rb") as f:
        data = f.read()
    squire = read_xg(data)
    assert (len(squire.games), squire.score) == (8, (7, 6)) and squire.replay().score == squire.score
    boards = [(k, e.player, e.value.play, e.value.rule) for k, g in enumerate(squire.games, 1)
              for e in g.events if e.kind == "setboard"]
    assert [b[0] for b in boards] == [7] and boards[0][2:] == ("14/11 8/5", "3.1")
    assert [(w.game, w.line, w.written) for w in squire.warnings] == [(7, 28, "43: 14/11 8/5")]
    with pytest.raises(XgFileError, match=r"game 7, action 28.*RULES 3"):
        read_xg(data, strict=True)


def test_xgs_default_max_cube_reads_as_an_xgids():
    """Issue 40: one reading of XG's default maximum cube (code 10): an .xg file's
    rules and the XGIDs of its positions (``:10``) say the same, so the rules of
    the record and the state of an XGID written from it agree in every decision
    (RULES 7.4; docs/formats.md, "XGID")."""
    with open(os.path.join(REAL, "test.xg"), "rb") as f:
        record = read_xg(f.read())
    assert record.rules.cube_limit == bg.rules.MAX_CUBE     # as read_xgid reads ':10'
    game = record.replay().games[0]
    g = bg.Game(rules=record.rules)
    for event in game.history:
        g.apply(event)
        if g.phase is bg.Phase.TURN and g.match_state().game_state == bg.GameState.PLAYING:
            pos, state = g.position, g.match_state()
            text = bg.write_xgid(pos, state)
            assert text.endswith(":10")
            again = bg.read_xgid(text)[1]
            assert again == state and again.game_rules() == record.rules
            bg.cube_decision(pos, again, rules=record.rules)        # one set of rules: no RulesError
