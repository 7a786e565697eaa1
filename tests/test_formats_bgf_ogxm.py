"""BGBlitz .bgf, OGXM and OGID, which gnubg does not read: measured against
gammonview (``gvformat``) and the format author's codec (``ogxm``).

- .bgf: real BGBlitz files (gammonview's MIT samples, tests/data/gammonview)
  read to the same games as their .mat exports and as gammonview reads them
  (11 of 11); our Smile decoder gives gammonview's document; the file
  holding an illegal play reads on as gammonview reads it: the play kept as
  the board its moves make (a setboard event naming RULES 3.1, and a
  warning), refused with strict=True naming the game, the record and the
  rule.
- OGXM: the codec's fixtures read; every record written reads back to the
  same games through both codecs, with our analysis in it; the OGIDs the
  reference codec derives on every ply are ours.
- OGID: Position.to_ogid / from_ogid round trip and agree with gammonview's
  parser.
"""
from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

import gvformat.bgf as gv_bgf
import gvformat.ogid as gv_ogid
import gvformat.ogxm2 as gv_ogxm2
import ogxm

import backgammon as bg
from backgammon.formats.bgf import BgfFileError, bgf_document, read_bgf
from backgammon.formats.ogid import InvalidOgidError, read_ogid, write_ogid
from backgammon.formats.ogxm import OgxmFileError, read_ogxm, record_document, write_ogxm
from backgammon.formats.smile import SmileError, decode
from backgammon.game import Phase

DATA = Path(__file__).parent / "data"
GV = DATA / "gammonview"
BGFS = sorted((GV / "bgf").glob("*.bgf"))
OGXMS = sorted((GV / "ogxm").glob("*.ogxm"))
ILLEGAL = "5nqfGw9bWG3deTaU"


def events(record, unplayed_rolls: bool = True):
    """The games' events, a roll's dice in either order; without
    ``unplayed_rolls``, a roll made and never played (before a resignation,
    or at the end of an unfinished game) left out: OGXM has no ply for it."""
    out = []
    for g in record.games:
        ev = list(g.events)
        if not unplayed_rolls:
            ev = [e for k, e in enumerate(ev)
                  if not (e.kind == "roll" and (k + 1 == len(ev) or ev[k + 1].kind == "resign"))]
        out.append([(e.kind, e.player, str(tuple(sorted(e.value)) if e.kind == "roll" else
                                           e.value.position.to_id() if e.kind == "setboard" else e.value))
                    for e in ev])
    return out


def results(record):
    return [(tuple(g.score), g.winner, g.points) for g in record.games]


# -- .bgf ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", BGFS, ids=lambda p: p.stem)
def test_smile_decoder_gives_gammonviews_document(path):
    _, payload = gv_bgf.read_bgf(path)
    assert decode(payload) == gv_bgf.decode_smile(payload)


def test_bgf_corpus_reads_as_gammonview_reads_it():
    # tests/data/README's figure: 11 of the 11 real .bgf files read as gammonview reads them.
    assert len(BGFS) == 11


@pytest.mark.parametrize("path", BGFS, ids=lambda p: p.stem)
def test_bgf_reads_as_its_mat_export_and_as_gammonview(path):
    ours = read_bgf(path, partial=True)
    mat = bg.read_mat((GV / "mat" / f"{path.stem}.mat").read_bytes(), partial=True)
    # (one export writes the names with spaces where the .bgf has underscores)
    assert [n.replace("_", " ") for n in ours.players] == [n.replace("_", " ") for n in mat.players]
    assert ours.length == mat.length
    assert results(ours) == results(mat)
    assert events(ours) == events(mat)
    gv = gv_bgf.convert_bgf(path)
    white = 0 if gv["player_white"] == ours.players[0] else 1
    theirs = [(g.get("winner"), g.get("points_won")) for g in gv["games"]]
    assert [(None if g.winner is None else (0 if g.winner == white else 1), g.points) for g in ours.games] == \
        [(w if p else None, p or 0) for w, p in theirs]


def test_bgf_reads_the_illegal_play_as_the_board_gammonview_gives():
    # RULES 3.1: 3-1 played 14/10 13/12 moves 5 pips.  Read on, as gammonview reads it: the turn is
    # a setboard event holding the board the moves make as written, the play and the rule it breaks.
    record = read_bgf(GV / "bgf" / f"{ILLEGAL}.bgf")
    game = record.games[0]
    k = next(i for i, e in enumerate(game.events) if e.kind == "setboard")
    event = game.events[k]
    assert (event.player, event.value.play, event.value.rule, game.lines[k]) == (0, "14/10 13/12", "3.1", 20)
    assert event.value.reason == "'14/10 13/12' moves 5 pips; 3-1 gives only 4 (RULES 3.1)"
    assert [(w.game, w.line, w.written) for w in record.warnings] == [(1, 20, "31: 14/10 13/12")]
    assert "RULES 3.1" in record.warnings[0].used
    gv = gv_bgf.convert_bgf(GV / "bgf" / f"{ILLEGAL}.bgf")
    ply = gv["games"][0]["plies"][19]                       # record 20, the ply gammonview flags
    assert ply["analysis"]["illegal_move"]
    assert bg.Position.from_ogid(ply["ogid_after"])[0] == event.value.position
    assert record.replay().score == record.score == (2, 7)
    # The same in its .mat export (gnubg's import would mangle the play: 14/13 13/10, tests/data/README).
    mat = bg.read_mat((GV / "mat" / f"{ILLEGAL}.mat").read_bytes())
    assert events(mat) == events(record) and results(mat) == results(record)


def test_bgf_strict_refuses_the_illegal_play():
    with pytest.raises(BgfFileError) as e:
        read_bgf(GV / "bgf" / f"{ILLEGAL}.bgf", strict=True)
    assert "game 1, record 20: '14/10 13/12' moves 5 pips; 3-1 gives only 4" in str(e.value)
    assert str(e.value).startswith(str(GV / "bgf" / f"{ILLEGAL}.bgf"))
    assert "(RULES 3.1)" in str(e.value)
    with pytest.raises(bg.formats.mat.MatFileError, match="1-3 gives only 4"):   # as its .mat export
        bg.read_mat((GV / "mat" / f"{ILLEGAL}.mat").read_bytes(), strict=True)


def test_set_board_is_written_so_gnubg_and_we_read_it_back():
    # .mat: gnubg's "Illegal play (...)"; SGF: gnubg's PL/DI node then PL[W]AE[a:y]AW..AB.. (what gnubg
    # writes for MOVE_SETDICE, MOVE_SETBOARD).  Both read back to the same games, the set board kept.
    record = read_bgf(GV / "bgf" / f"{ILLEGAL}.bgf")
    mat_text = bg.write_mat(record)
    assert "31: Illegal play (" in mat_text
    sgf_text = bg.write_sgf(record)
    assert ";PL[W]DI[31]\n;PL[W]AE[a:y]AW[" in sgf_text
    for back in (bg.read_mat(mat_text), bg.read_sgf(sgf_text)):
        assert events(back) == events(record) and results(back) == results(record)
    sgf_back = bg.read_sgf(sgf_text).games[0]
    event = next(e for e in sgf_back.events if e.kind == "setboard")
    assert (event.value.play, event.value.rule) == ("14/10 13/12", "3.1")      # carried in C[...]


def test_analysis_does_not_rate_the_set_board_turn():
    record = read_bgf(GV / "bgf" / f"{ILLEGAL}.bgf")
    game = bg.formats.record.MatchRecord(record.players, record.length, record.games[:1], rules=record.rules)
    k = next(i for i, e in enumerate(game.games[0].events, 1) if e.kind == "setboard")
    result = bg.analyse(game, ply=0, workers=1)
    assert k not in [p.action for p in result.games[0].plays]
    assert k in [r.action for r in result.games[0].luck]      # the roll's luck counts, as gnubg's MOVE_SETDICE
    # written with its analysis, as gnubg writes its own: the set board's node carries none
    text = bg.write_sgf(game, analysis=result)
    back = bg.read_sgf(text, partial=True)
    assert events(back) == events(game)
    node = next(line for line in text.splitlines() if "AE[a:y]" in line)
    assert "A[" not in node and "DA[" not in node


def test_gammonview_reads_the_illegal_play_as_played_and_flags_it():
    # The one .bgf that does not read as gammonview reads it (tests/data/README): gammonview plays
    # the illegal 3-1 (its board advanced by the steps as written: 4 pips and 1, from its points 11
    # and 12, White's 14 and 13) and flags that ply illegal_move; the other plies and games read on.
    gv = gv_bgf.convert_bgf(GV / "bgf" / f"{ILLEGAL}.bgf")
    flagged = [(k, n, p) for k, g in enumerate(gv["games"], 1) for n, p in enumerate(g["plies"], 1)
               if (p.get("analysis") or {}).get("illegal_move")]
    assert [(k, n) for k, n, _ in flagged] == [(1, 20)]                  # our refusal's game 1, record 20
    ply = flagged[0][2]
    assert sorted((ply["d1"], ply["d2"])) == [1, 3]
    assert [(m["from"], m["pips"]) for m in ply["moves"]] == [(11, 4), (12, 1)]
    assert len(gv["games"]) == 6


def test_bgf_refusals_name_what_is_wrong():
    good = BGFS[-1].read_bytes()
    for data, said in [(b"no header", "no JSON header line"), (b"{\"format\":\"XG\"}\n", "format BGF"),
                       (good[:200], "cannot be inflated"),
                       (b'{"format":"BGF"}\n:)\n\x03\xfa\x82abc', "truncated")]:
        with pytest.raises(BgfFileError, match=said):
            read_bgf(data)
    with pytest.raises(SmileError, match="not Smile"):
        decode(b"{}")


def test_bgf_plain_json_body():
    _, doc = bgf_document(BGFS[-1].read_bytes())
    import json
    plain = b'{"format":"BGF","version":"1.0","compress":false,"useSmile":false}\n' + json.dumps(doc).encode()
    assert events(read_bgf(plain, partial=True)) == events(read_bgf(BGFS[-1], partial=True))


# -- OGXM ----------------------------------------------------------------------------------------

READABLE = ["match", "resign", "blocks"]


@pytest.mark.parametrize("name", READABLE)
def test_ogxm_fixtures_read_as_the_codec_and_gammonview_decode_them(name):
    data = (GV / "ogxm" / f"{name}.ogxm").read_bytes()
    ours = read_ogxm(data, partial=True)
    doc = ogxm.binary_to_json(data)
    assert ours.players == (doc["player_white"], doc["player_black"])
    assert [(g.winner if g.winner is not None else 255, g.points) for g in ours.games] == \
        [(g["winner"], g.get("points_won", 0) if g["winner"] != 255 else 0) for g in doc["games"]]
    gv = gv_ogxm2.read_ogxm2(data)
    assert [(g["winner"], g.get("points_won")) for g in gv["games"]] == \
        [(g["winner"], g.get("points_won")) for g in doc["games"]]


@pytest.mark.parametrize("name,said", [("cube-on-two", "opens with the cube at 2"),
                                       ("fields", "'nackgammon': only backgammon"),
                                       ("set-up", "game 2: the game starts from a set-up position")])
def test_ogxm_refuses_what_a_record_cannot_replay(name, said):
    with pytest.raises(OgxmFileError, match=said):
        read_ogxm(GV / "ogxm" / f"{name}.ogxm", partial=True)


def _sources():
    yield "selfplay", bg.read_mat((DATA / "gnubg_selfplay_9.mat").read_bytes())
    for p in sorted((DATA / "dialects").iterdir()):
        if p.stem.startswith("gnubg_illegal_play") or p.stem.startswith("gnubg_setboard"):
            continue              # a board with no play: OGXM cannot hold it (test_ogxm_set_board)
        try:
            yield p.stem, bg.read_mat(p.read_bytes(), partial=True)
        except bg.formats.mat.MatFileError:
            continue
    yield "duel", bg.MatchRecord.from_duel(bg.duel("pubeval", "pubeval", games=4, seed=7, workers=1, record=True))


@pytest.mark.parametrize("name,record", list(_sources()), ids=lambda v: v if isinstance(v, str) else "")
def test_ogxm_written_reads_back_through_both_codecs(name, record):
    data = write_ogxm(record)
    assert data[:4] == b"OGXM"
    doc = ogxm.binary_to_json(data)
    assert doc["replay_complete"] is True             # the reference codec replays every ply by the rules
    back = read_ogxm(data, partial=True)
    assert events(back, False) == events(record, False) and results(back) == results(record)
    assert back.players == record.players and back.length == record.length
    gv = gv_ogxm2.read_ogxm2(data)
    assert [(g["winner"], g.get("points_won") or 0) for g in gv["games"]] == \
        [(g["winner"], g.get("points_won") or 0) for g in doc["games"]]


def test_ogxm_carries_our_analysis():
    record = bg.read_mat((DATA / "gnubg_selfplay_9.mat").read_bytes())
    analysis = bg.analyse(record, ply=0, workers=1)
    data = write_ogxm(record, analysis=analysis)
    for decoded in (ogxm.binary_to_json(data), gv_ogxm2.read_ogxm2(data)):
        plies = [p for g in decoded["games"] for p in g["plies"] if p.get("action_id", 30) <= 20 and p.get("moves")]
        graded = [p for g in analysis.games for p in g.plays]
        assert len(graded) > 100
        stored = [sorted(a["equity"] for a in p["analysis"]["alternatives"]) for p in plies
                  if p.get("analysis", {}).get("alternatives")]
        ours = [sorted({c[0]: c[1] for c in p.candidates}.values()) for p in graded]
        assert len(stored) == len(ours)
        for x, y in zip(stored, ours):
            assert x == pytest.approx(y, abs=1.5e-4)
    cubes = [p for g in ogxm.binary_to_json(data)["games"] for p in g["plies"] if p.get("action_id") in (21, 22, 23)]
    answered = [c for g in analysis.games for c in g.cubes if c.action in ("double", "take", "pass")]
    assert len(cubes) == len(answered) > 0
    for ply, c in zip(cubes, answered):
        assert ply["analysis"]["played_action"] == c.action.replace("drop", "pass")
        # written to 6 decimals (rounding it again to 5 could differ from the value rounded once)
        assert ply["analysis"]["double_take_equity"] == pytest.approx(c.double_take, abs=5.01e-7)


# -- OGID ----------------------------------------------------------------------------------------

def _state_ogids(record):
    """(ours, the reference codec's) OGID before every roll's play, the
    games replayed in one Match as the record's reader replays them."""
    from backgammon.formats.replay import match_at as _match
    data = write_ogxm(record)
    doc = ogxm.binary_to_json(data)
    first = record.games[0]
    match = _match(record.length, record.rules, tuple(first.score),
                   any(e.kind == "double" for e in first.events))
    for rec, gd in zip(record.games, doc["games"]):
        game = match.new_game()
        ours, taken = [], 0
        for e in rec.events:
            game.apply(e)
            if e.kind == "take":
                taken = 1                      # the codec marks T on the doubler's roll after the take
            elif e.kind == "play" and taken:
                taken -= 1
            if e.kind in ("opening", "roll") and game.phase is Phase.PLAY:
                ours.append(write_ogid(game.position, game.match_state(), cube_action="T" if taken else None,
                                       last_game=bool(gd.get("is_lastgame"))))
        theirs = [p["ogid_before"] for p in gd["plies"] if p.get("action_id", 30) <= 20 and p.get("moves")]
        yield from zip(ours, theirs)


def test_ogids_are_the_reference_codecs():
    pairs = [(a, b) for _, r in _sources() for a, b in _state_ogids(r)]
    assert len(pairs) > 500
    strip = [(":".join(a.split(":")[:9]), ":".join(b.split(":")[:9])) for a, b in pairs]
    differ = [p for p in strip if p[0] != p[1]]
    assert not differ, differ[:3]


def test_position_ogid_round_trip_and_gammonview_reads_it():
    rng = random.Random(44)
    game = bg.Game(seed=44)
    seen = 0
    while seen < 300:
        if game.is_over():
            game = bg.Game(seed=rng.randrange(10 ** 6))
        if game.phase is Phase.PLAY:
            state = game.match_state()
            text = game.position.to_ogid(state)
            pos, back = bg.Position.from_ogid(text)
            assert pos == game.position and back.dice == state.dice and back.on_roll == state.on_roll
            assert pos.to_ogid(back) == text
            parsed = gv_ogid.parse_ogid(text)
            assert parsed.on_roll == ("W" if state.on_roll == 0 else "B")
            assert (parsed.die1, parsed.die2) == tuple(sorted(state.dice))
            seen += 1
            plays = game.legal_plays()
            game.play(str(plays[rng.randrange(len(plays))]) if plays else "")
        else:
            game.roll()


@pytest.mark.parametrize("text,said", [("1:2:3", "5 to 11 fields"), ("11ccccchhhjjjjj:66666888dddddoo:X0N::W",
                                                                      "field 3"),
                                       ("z:6:N0N::W", "field 1"), ("1:0:N0N::W", "0 is White's bar"),
                                       ("11ccccchhhjjjjj:66666888dddddoo:N0N:17:W", "field 4"),
                                       ("11ccccchhhjjjjj:66666888dddddoo:N0N::Q", "field 5"),
                                       ("1111111111111111:6:N0N::W", "16 checkers")])
def test_ogid_refusals_name_the_field(text, said):
    with pytest.raises(InvalidOgidError, match=said):
        read_ogid(text)


def test_ogxm_without_a_codec_says_how_to_install_one(monkeypatch):
    import importlib
    real = importlib.import_module

    def no_codec(name, *args):
        if name in ("ogxm", "gvformat.ogxm2", "gvformat.ogxm2_writer"):
            raise ImportError(name)
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", no_codec)
    from backgammon.formats import ogxm as module
    assert not module.available()
    with pytest.raises(OgxmFileError, match=r"pip install 'backgammon\[ogxm\]'"):
        read_ogxm(GV / "ogxm" / "match.ogxm")
    with pytest.raises(OgxmFileError, match=r"pip install 'backgammon\[ogxm\]'"):
        write_ogxm(bg.read_mat((DATA / "gnubg_selfplay_9.mat").read_bytes()))


def test_ogxm_falls_back_to_gammonview(monkeypatch):
    import importlib
    real = importlib.import_module

    def no_ogxm(name, *args):
        if name == "ogxm":
            raise ImportError(name)
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", no_ogxm)
    record = bg.read_mat((DATA / "gnubg_selfplay_9.mat").read_bytes())
    data = write_ogxm(record)                      # gammonview's writer
    monkeypatch.undo()
    assert events(read_ogxm(data)) == events(record)   # the reference codec reads it


def test_ogxm_set_board():
    # A play the rules refuse is written as its moves, as gammonview writes it, and read back as the
    # same set board (RULES 3.1); a board given with no play (gnubg's "Illegal play") has no OGXM ply.
    record = read_bgf(GV / "bgf" / f"{ILLEGAL}.bgf")
    data = write_ogxm(record)
    assert ogxm.binary_to_json(data)["replay_complete"] is False     # the codec stops at the illegal ply
    back = read_ogxm(data, partial=True)
    assert events(back, unplayed_rolls=False) == events(record, unplayed_rolls=False)
    event = next(e for e in back.games[0].events if e.kind == "setboard")
    assert (event.value.play, event.value.rule) == ("14/10 13/12", "3.1")
    board_only = bg.read_mat((DATA / "dialects" / "gnubg_illegal_play.mat").read_bytes())
    with pytest.raises(OgxmFileError, match="a board set with no play written"):
        write_ogxm(board_only)
