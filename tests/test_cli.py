"""The command line: moves and perft."""
import re
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
    from helpers import make
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


# -- the rollout command, as a user runs it ------------------------------------------------

import json
import os
import signal
import time

import pytest


def _run(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "backgammon", *args], capture_output=True, text=True, timeout=timeout)


def test_rollout_report_says_whose_chances():
    result = _run("rollout", "--games", "1296", "--workers", "1", "--seed", "3", "--truncate", "10")
    assert result.returncode == 0
    out = result.stdout
    assert "policy net" in out and "variance reduction" in out and "without variance reduction" in out
    assert "side on roll" in out and "gammons include backgammons" in out
    import re
    rows = dict(re.findall(r"^(win|lose) +([0-9.]+)", out, re.M))
    win, lose = float(rows["win"]), float(rows["lose"])
    assert win + lose == pytest.approx(1.0, abs=2e-4)


def test_rollout_json_has_every_option():
    result = _run("rollout", "--games", "100", "--workers", "1", "--truncate", "4", "--json")
    data = json.loads(result.stdout)
    assert data["truncate"] == 4 and data["games"] == 100 and data["seed"] == 0
    assert data["lose"] == pytest.approx(1 - data["win"])


@pytest.mark.parametrize("args, option", [(["--seed", "-1"], "--seed"), (["--games", "0"], "--games"),
                                          (["--workers", "x"], "--workers"), (["--truncate", "-2"], "--truncate")])
def test_rollout_bad_options_name_the_option(args, option):
    result = _run("rollout", *args)
    assert result.returncode == 2 and option in result.stderr


def test_rollout_of_plays_and_of_the_cube():
    result = _run("rollout", "4HPwATDgc/ABMA", "31", "--plays", "top3", "--games", "144", "--workers", "1",
                  "--truncate", "6", "--json")
    data = json.loads(result.stdout)
    assert result.returncode == 0 and len(data["plays"]) == 3 and data["plays"][0]["difference"] == 0
    text = _run("rollout", "4HPwATDgc/ABMA", "31", "--plays", "8/5 6/5,24/20", "--games", "72", "--workers", "1",
                "--truncate", "4")
    assert text.returncode == 0 and "8/5 6/5" in text.stdout and "the same dice" in text.stdout
    cube = _run("rollout", "--cube", "--games", "72", "--workers", "1", "--truncate", "4")
    assert cube.returncode == 0 and "Proper cube action: no double" in cube.stdout
    match_id = __import__("backgammon").MatchState(match_length=5, score=(1, 2)).to_match_id()
    m = _run("rollout", "--match", match_id, "--games", "72", "--workers", "1", "--truncate", "4", "--json")
    assert m.returncode == 0 and 0 < json.loads(m.stdout)["mwc"] < 1
    bad = _run("rollout", "--ply", "1", "--policy", "pubeval")
    assert bad.returncode == 2 and "--ply" in bad.stderr


def test_version():
    # One version, written once (python/backgammon/__init__.py), read by the build.
    import importlib.metadata
    import backgammon
    assert importlib.metadata.version("backgammon") == backgammon.__version__
    result = _run("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"backgammon {backgammon.__version__}"


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for our purposes once reaped by its parent (init).
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split()[2] != "Z"


@pytest.mark.parametrize("command", [
    ["-m", "backgammon", "rollout", "--games", "100000000", "--workers", "2"],
    ["-m", "backgammon", "rollout", "--games", "100000000", "--workers", "1"],
    ["-c", "import backgammon as bg; bg.rollout(games=10**8, workers=2, seed=1)"],
])
def test_ctrl_c_stops_a_rollout(command):
    # Ctrl-C reaches the whole process group, as in a terminal; the child
    # starts with Ctrl-C's default action even when this run inherited it
    # ignored (a shell's background job ignores SIGINT).
    proc = subprocess.Popen([sys.executable, *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        workers = "--workers" not in command or command[command.index("--workers") + 1] != "1"
        deadline = time.monotonic() + 30
        kids = []
        while time.monotonic() < deadline:
            time.sleep(0.5)
            kids = _children(proc.pid)
            if (len(kids) >= 2 or not workers) and time.monotonic() > deadline - 27:
                break
        if workers:
            assert len(kids) >= 2, "the workers never started"
        os.killpg(proc.pid, signal.SIGINT)
        t0 = time.monotonic()
        out, err = proc.communicate(timeout=10)
        assert time.monotonic() - t0 < 3.0
        if command[0] == "-m":
            assert proc.returncode == 130
            assert "interrupted after" in err and "Traceback" not in err
        else:
            assert proc.returncode != 0 and "RolloutInterrupted" in err and err.count("Traceback") == 1
        time.sleep(0.5)
        assert not [k for k in kids if _alive(k)], "worker processes were left behind"
    finally:
        # Whatever failed, the 10**8-game rollout and its workers must not outlive the test.
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def test_convert_reads_any_match_format_and_writes_mat_or_sgf(tmp_path):
    # issue 19: backgammon convert IN OUT, warnings on stderr, --strict.
    import backgammon as bg
    from backgammon.formats.xg import INSTALL, available
    if not available():
        pytest.skip(f"gammonview is not installed: {INSTALL}")
    from test_xg import played_match, xg_bytes
    match = played_match(5, seed=3)
    src = tmp_path / "m.xg"
    src.write_bytes(xg_bytes(match))
    for out in ("m.mat", "m.sgf"):
        r = _run("convert", str(src), str(tmp_path / out))
        assert r.returncode == 0, r.stderr
        assert f"-> {tmp_path / out}: {len(match.games)} games" in r.stdout
    mat = bg.read_mat((tmp_path / "m.mat").read_text())
    sgf = bg.read_sgf((tmp_path / "m.sgf").read_text())
    assert [g.events for g in mat.games] == [g.events for g in sgf.games]
    assert [(g.winner, g.points) for g in mat.games] == [(g.outcome.winner, g.outcome.points) for g in match.games]
    # A file that contradicts itself: read with a warning, refused with --strict.
    text = (tmp_path / "m.mat").read_text()
    capped = re.sub(r"Wins \d+ points?", "Wins 99 points", text, count=1)
    (tmp_path / "c.mat").write_text(capped)
    r = _run("convert", str(tmp_path / "c.mat"), str(tmp_path / "d.mat"))
    assert r.returncode == 0 and "warning: game 1" in r.stderr, r.stderr
    r = _run("convert", str(tmp_path / "c.mat"), str(tmp_path / "e.mat"), "--strict")
    assert r.returncode == 1 and "c.mat" in r.stderr and not (tmp_path / "e.mat").exists()
    r = _run("convert", str(tmp_path / "c.mat"), str(tmp_path / "x.doc"))
    assert r.returncode == 2 and "--to" in r.stderr
    r = _run("convert", str(tmp_path / "c.mat"), str(tmp_path / "x.doc"), "--to", "sgf")
    assert r.returncode == 0


def test_serve_without_the_web_extra_says_how_to_install_it():
    # A new user's `pip install .` has no web extra: one line naming the command that mends it.
    code = ("import sys; sys.modules['uvicorn'] = None; from backgammon.cli import main; "
            "raise SystemExit(main(['serve', '--port', '0']))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 1 and len(lines) == 1, result.stderr
    assert lines[0].startswith("backgammon serve: error:") and "uvicorn missing" in lines[0]
    assert "pip install '.[web]'" in lines[0]


def test_rollout_at_a_match_score_is_cubeful_unless_asked_cubeless():
    # Issue 40, RULES 8: the plays of a code at a match score roll out cubeful and say so
    # (the column "cubeful (match)"); --cubeless asks for the cubeless rollout, valued by the match
    # winning chances of its outcomes (equity = 2 * mwc - 1 at double match point).
    dmp = "XGID=-ba-aBD-C-A-eD-----e-Aa---:0:0:1:65:6:6:0:7:10"
    common = ["--plays", "21/10,13/8 10/4*", "--games", "72", "--workers", "1", "--truncate", "4"]
    text = _run("rollout", dmp, *common)
    assert text.returncode == 0 and "cubeful (match)" in text.stdout, text.stdout
    assert "in normalised match equity" in text.stdout
    cubeful = json.loads(_run("rollout", dmp, *common, "--json").stdout)
    assert cubeful["cube"] is True and all(p["cubeful"] for p in cubeful["plays"])
    cubeless = json.loads(_run("rollout", dmp, *common, "--json", "--cubeless").stdout)
    assert cubeless["cube"] is False and not any(p["cubeful"] for p in cubeless["plays"])
    for p in cubeless["plays"]:
        assert p["equity"] == pytest.approx(2 * p["mwc"] - 1)
    text = _run("rollout", dmp, *common, "--cubeless")
    assert text.returncode == 0 and "cubeless (match)" in text.stdout
    both = _run("rollout", dmp, "--cube", "--cubeless")
    assert both.returncode == 2 and "--cubeless" in both.stderr
