"""The command line: moves and perft."""
import subprocess
import sys

from backgammon.cli import main


def test_moves_lists_plays(capsys):
    assert main(["moves", "4HPwATDgc/ABMA", "31"]) == 0
    out = capsys.readouterr().out
    assert "16 distinct legal plays for 3-1" in out
    assert "8/5 6/5" in out and "Position ID: 4HPwATDgc/ABMA" in out


def test_moves_pass(capsys):
    # A closed board with a checker on the bar: the turn passes (RULES 4.4).
    from conftest import make
    pos = make(me={6: 14}, me_bar=1, opp={1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 3})
    assert main(["moves", "-q", pos.to_id(), "6-5"]) == 0
    assert "the turn passes" in capsys.readouterr().out


def test_perft(capsys):
    assert main(["perft", "--depth", "2", "--all"]) == 0
    out = capsys.readouterr().out
    assert "perft(1) = 447" in out and "perft(2) = 202782" in out


def test_bad_input_is_one_line(capsys):
    assert main(["moves", "garbage", "31"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("backgammon moves: error:") and "\n" not in err
    assert main(["moves", "4HPwATDgc/ABMA", "71"]) == 2
    assert "roll" in capsys.readouterr().err


def test_python_dash_m():
    result = subprocess.run([sys.executable, "-m", "backgammon", "moves", "4HPwATDgc/ABMA", "65", "-q"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "24/13" in result.stdout
