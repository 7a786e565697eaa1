"""Snowie text and Jellyfish .pos positions against gnubg: positions from
real play written as Snowie text import into gnubg (``import snowietxt``)
as the same Position ID and Match ID; the Snowie text and .pos files gnubg
itself exports (``export position snowietxt`` / ``pos``; no public .pos
file could be found) read back to those positions and states."""
from __future__ import annotations

import os
import random
import re
import subprocess
from pathlib import Path

import pytest

import backgammon as bg
from backgammon.formats.pos import JellyfishPositionError, read_pos
from backgammon.formats.snowietxt import SnowieTxtError, read_snowie_txt, write_snowie_txt
from backgammon.game import Phase

import gnubg_import

N = 40


def _states(n: int, seed: int):
    """Positions from real play: games of a 7-point match with the cube
    used, at moments with and without dice rolled."""
    rng = random.Random(seed)
    out = []
    m = bg.Match(7)
    game = m.new_game()
    while len(out) < n:
        if game.is_over() or m.is_over():
            if m.is_over():
                m = bg.Match(rng.choice([0, 5, 7]))
            game = m.new_game()
            continue
        if game.phase is Phase.OPENING:
            game.roll((rng.randint(1, 6), rng.randint(1, 6)))
            continue
        if game.phase is Phase.TURN:
            if rng.random() < 0.3:
                out.append((game.position, game.match_state()))
            if game.can_double() and rng.random() < 0.05:
                game.double()
                game.take() if rng.random() < 0.7 else game.drop()
                continue
            game.roll((rng.randint(1, 6), rng.randint(1, 6)))
            continue
        if game.phase is Phase.PLAY:
            if rng.random() < 0.3:
                out.append((game.position, game.match_state()))
            plays = game.legal_plays()
            game.play(str(plays[rng.randrange(len(plays))]))
            continue
        break
    return out


@pytest.fixture(scope="module")
def gnubg_round(tmp_path_factory):
    assert gnubg_import.have_gnubg(), "gnubg is needed: apt-get install gnubg"
    d = tmp_path_factory.mktemp("snowie")
    states = _states(N, 44)
    script = ["set confirm new off"]
    for k, (pos, state) in enumerate(states):
        (d / f"ours{k}.txt").write_text(write_snowie_txt(pos, state, players=("ann", "bob")))
        script += [f'import snowietxt "ours{k}.txt"',
                   f'export position snowietxt "gnubg{k}.txt"', f'export position pos "gnubg{k}.pos"']
    done = subprocess.run(["nice", "-n", "10", gnubg_import.GNUBG, "-t", "-q", "-r"], input="\n".join(script) + "\n",
                          capture_output=True, text=True, cwd=d, timeout=600, env={**os.environ, "LANG": "C"})
    ids = re.findall(r"Position ID: (\S+)\s+Match ID\s*: (\S+)", done.stdout)
    return d, states, ids


def _same_match_id(ours: str, theirs: str) -> bool:
    """gnubg stores the Jacoby setting even in a match, where it has no
    effect (RULES 8.4): compare the rest."""
    a = bg.MatchState.from_match_id(ours)
    b = bg.MatchState.from_match_id(theirs)
    if a.match_length:
        b = b.replace(jacoby=a.jacoby)
    return a == b


def test_gnubg_imports_our_snowie_text_as_the_same_position(gnubg_round):
    _, states, ids = gnubg_round
    assert len(ids) == len(states)
    for (pos, state), (pid, mid) in zip(states, ids):
        assert pid == pos.to_id()
        assert _same_match_id(state.to_match_id(), mid), (state, mid)


def test_gnubgs_snowie_text_and_pos_exports_read_back(gnubg_round):
    d, states, _ = gnubg_round
    for k, (pos, state) in enumerate(states):
        text = read_snowie_txt(d / f"gnubg{k}.txt")
        assert text.position == pos and text.players == ("ann", "bob")
        assert _same_match_id(state.to_match_id(), text.state.to_match_id())
        jf = read_pos(d / f"gnubg{k}.pos")
        assert jf.position == pos
        s = jf.state
        assert (s.dice, s.cube_value, s.cube_owner, s.on_roll, s.match_length) == \
            (state.dice, state.cube_value, state.cube_owner, state.on_roll, state.match_length)
        if state.match_length:
            assert s.score == state.score and s.crawford == state.crawford


def test_snowie_text_round_trip_and_refusals():
    for pos, state in _states(200, 7):
        text = write_snowie_txt(pos, state, players=("a", "b"))
        back = read_snowie_txt(text)
        assert back.position == pos and back.state.to_match_id() == state.to_match_id()
        assert write_snowie_txt(back) == text
    with pytest.raises(SnowieTxtError, match="40 fields"):
        read_snowie_txt("1;2;3")
    base = write_snowie_txt(bg.Position.initial(), bg.MatchState()).split(";")
    for k, value, said in [(13, "x", "field 13 \\(point 1\\) must be a number"), (10, "3", "power of two"),
                           (38, "7", "field 38 \\(die 1\\) must be 0 to 6"), (13, "-9", "the board")]:
        fields = list(base)
        fields[k] = value
        with pytest.raises(SnowieTxtError, match=said):
            read_snowie_txt(";".join(fields))
    with pytest.raises(SnowieTxtError, match="holds no ';'"):
        write_snowie_txt(bg.Position.initial(), players=("a;b", "c"))


def test_pos_refusals_name_the_field():
    with pytest.raises(JellyfishPositionError, match="version word is 200"):
        read_pos(bytes([200, 0]) + bytes(100))
    with pytest.raises(JellyfishPositionError, match="truncated"):
        read_pos(bytes([126, 0, 0, 0]))
