"""The UBGI engine protocol, both ways: our engine over stdin/stdout and
our client running an engine in a subprocess."""
import io
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import backgammon as bg
from backgammon.duel import duel
from backgammon.players import player
from backgammon.sample import random_positions
from backgammon.ubgi import UbgiError, UbgiPlayer, format_move, serve

ENGINE = f"{sys.executable} -m backgammon ubgi --player pubeval"


def talk(lines, spec="pubeval"):
    out = io.StringIO()
    serve(io.StringIO("".join(line + "\n" for line in lines)), out, spec)
    return out.getvalue().splitlines()


def test_set_player_never_starts_a_program(tmp_path):
    # `set player ubgi:PROGRAM` started PROGRAM: whoever writes to the
    # engine's input could run anything (docs/ubgi.md).
    ran = tmp_path / "ran"
    script = tmp_path / "engine.sh"
    script.write_text(f"#!/bin/sh\ntouch {ran}\n")
    script.chmod(0o755)
    assert talk([f"set player ubgi:{script}", "get player", f"set player ubgi:{sys.executable}",
                 "set player noisy:0.1", "get player"]) == [
        "error bad_value player", "value player pubeval", "error bad_value player", "value player noisy:0.1"]
    assert not ran.exists()


def test_transcript():
    start = "4HPwATDgc/ABMA:" + bg.MatchState().to_match_id()
    assert talk(["ubgi", "isready", "newgame", f"position gnubgid {start}", "dice 6 5", "go",
                 "dice 3 3", "go", "go cube", "quit", "isready"]) == [
        "id name backgammon (pubeval)", "id author the backgammon authors", f"id version {bg.__version__}",
        "proto 0.2", "key player enum random|pubeval|net|net:0|net:1|net:2 pubeval", "ubgiok", "readyok",
        "bestmove 24/18 18/13", "bestmove 24/21 24/21 6/3 6/3", "bestcube roll"]


def test_the_moves_are_the_players():
    boards, rolls = random_positions(60, seed=3)
    lines, want = ["ubgi"], []
    p = player("net")
    for board, roll in zip(boards, rolls):
        pos = bg.Position.from_array(board)
        state = bg.MatchState(dice=tuple(int(d) for d in roll))
        lines += [f"position gnubgid {pos.to_id()}:{state.to_match_id()}", "go"]
        want.append("bestmove " + format_move(p.choose(pos, roll.tolist())))
    got = [line for line in talk(lines, "net") if line.startswith("bestmove")]
    assert got == want


def test_cube_and_resignation_answers():
    crushing = bg.Position.from_array(np.array(
        [[0] * 12 + [7, 5] + [0] * 10 + [3], [2, 2, 2, 2, 3, 4] + [0] * 19]))
    offered = bg.MatchState(double_offered=True, turn=1).to_match_id()
    plain = bg.MatchState().to_match_id()
    resigned = bg.MatchState(resignation=1, turn=1).to_match_id()
    out = talk(["ubgi", f"position gnubgid {crushing.to_id()}:{plain}", "go cube",
                f"position gnubgid {crushing.to_id()}:{offered}", "go cube",
                f"position gnubgid {crushing.to_id()}:{resigned}", "go resign",
                f"position gnubgid {crushing.swapped().to_id()}:{resigned}", "go resign",
                f"position gnubgid 4HPwATDgc/ABMA:{plain}", "go resign"], "net")
    d = bg.cube_decision(crushing)
    assert d.take == "pass" and d.probabilities[0] > 0.85
    # The winning side offering a single is accepted; the losing side, likely
    # to lose a gammon, offering a single is not.
    assert out[-5:] == ["bestcube " + ("double" if d.should_double else "roll"), "bestcube pass",
                        "bestresign accept", "bestresign reject", "error bad_state no.resignation"]
    # A double that should be taken is taken.
    even = f"position gnubgid 4HPwATDgc/ABMA:{offered}"
    assert talk(["ubgi", even, "go cube"], "net")[-1] == "bestcube take"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(
    st.text(max_size=30),
    st.sampled_from(["go", "go cube", "go resign", "dice 1 1", "dice 0 9", "dice a b", "position", "set", "get",
                     "position gnubgid 4HPwATDgc/ABMA", "position xgid nonsense", "position gnubgid x:y",
                     "set player net:7", "keys", "newgame", "stop"])), max_size=25))
def test_a_fuzzed_command_stream_never_stops_the_engine(lines):
    lines = [line.replace("\n", " ").replace("\r", " ") for line in lines if not line.strip().startswith("quit")]
    out = talk(lines + ["isready"])
    assert out[-1] == "readyok"
    assert all(not line.startswith("error internal") for line in out)


def test_our_client_against_our_engine():
    with UbgiPlayer(ENGINE) as engine:
        assert "pubeval" in engine.name
        local = player("pubeval")
        boards, rolls = random_positions(40, seed=8)
        for board, roll in zip(boards, rolls):
            pos = bg.Position.from_array(board)
            assert engine.choose(pos, roll.tolist()) == local.choose(pos, roll.tolist())


def test_a_duel_through_the_protocol_equals_the_local_one():
    spec = f"ubgi:{ENGINE}"
    remote = duel(spec, "random", games=20, seed=2, workers=1)
    local = duel("pubeval", "random", games=20, seed=2, workers=1)
    assert remote.ppg == local.ppg and remote.a_wins == local.a_wins


def test_bad_engines():
    with pytest.raises(ValueError, match="command"):
        UbgiPlayer("/nonexistent/engine")
    with pytest.raises(UbgiError):
        UbgiPlayer(f"{sys.executable} -c \"print('hello')\"", timeout=5)


def test_the_command_line_engine():
    out = subprocess.run([sys.executable, "-m", "backgammon", "ubgi", "--player", "pubeval"],
                         input="ubgi\nposition gnubgid 4HPwATDgc/ABMA\ndice 3 1\ngo\nquit\n",
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.splitlines()[-1] == "bestmove 8/5 6/5"
    bad = subprocess.run([sys.executable, "-m", "backgammon", "ubgi", "--player", "nobody"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--player must be one of" in bad.stderr
