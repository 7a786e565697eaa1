"""Progress that moves (issue 45, item 4): every long command (rollout,
duel, analyse, train) prints its header before the work, then progress on
standard error in small steps (games, positions or actions as they finish,
not whole chunks) with the rate and the time left: a bar on a terminal
(tqdm), plain lines in a log or a pipe, or without tqdm."""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from backgammon import _parallel

DATA = Path(__file__).resolve().parent / "data"

# "324/1,296 games (25%), 151 games/s, 0:02 so far, 0:06 left"
LINE = re.compile(r"^([\d,]+)/([\d,]+) (\w+)s \((\d+)%\), ([\d,.]+) \w+s/s, (\d+:\d\d(?::\d\d)?) so far"
                  r"(?:, (\d+:\d\d(?::\d\d)?) left)?")


def _run(*args, interval="0.05", timeout=300):
    """The command in a subprocess as a user runs it with output to a pipe:
    standard output and error in one stream, in the order written."""
    env = dict(os.environ, BACKGAMMON_PROGRESS_INTERVAL=interval)
    proc = subprocess.run([sys.executable, "-m", "backgammon", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=timeout, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:]
    return proc.stdout.splitlines()


def _progress(lines, unit):
    """(index, done, total) of each progress line of ``unit``."""
    found = []
    for i, line in enumerate(lines):
        m = LINE.match(line)
        if m and m.group(3) == unit:
            found.append((i, int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))))
    return found


def _moves_in_small_steps(lines, unit, total, chunk):
    """Several progress lines before the end, counts rising by less than a
    chunk, each with its rate and the time left."""
    steps = _progress(lines, unit)
    assert steps, "\n".join(lines)
    assert all(t == total for _, _, t in steps)
    counts = [n for _, n, _ in steps]
    assert counts == sorted(counts)
    inside = sorted({n for n in counts if 0 < n < total})
    assert len(inside) >= 2, lines
    assert any(n % chunk for n in inside), f"the bar moved only by whole chunks of {chunk}: {counts}"
    for i, n, _ in steps:
        if n < total:
            assert LINE.match(lines[i]).group(7), f"no time left in {lines[i]!r}"
    return steps


def test_rollout_progress_moves_game_by_game_after_its_header():
    # The issue: the default rollout sat at 0% then jumped to 100% (one
    # chunk of 1,296 games), its header printed after the work.
    lines = _run("rollout", "--games", "324", "--workers", "1", "--progress", "--seed", "2")
    steps = _moves_in_small_steps(lines, "game", 324, 324)
    head = next(i for i, line in enumerate(lines) if line.startswith("Rollout of 4HPwATDgc/ABMA"))
    result = next(i for i, line in enumerate(lines) if line.startswith("Chances of the side on roll"))
    assert head < steps[0][0] and steps[-1][0] < result


def test_rollout_on_worker_processes_counts_their_games():
    # Two local workers, two chunks: the counters live in shared memory.
    lines = _run("rollout", "--games", "2592", "--workers", "2", "--truncate", "6", "--progress")
    _moves_in_small_steps(lines, "game", 2592, 1296)


def test_duel_progress_counts_lockstep_games():
    # Games end at different plies of the lockstep loop: counted as they end.
    lines = _run("duel", "net", "pubeval", "--games", "1000", "--workers", "1", "--progress", interval="0.02")
    steps = _moves_in_small_steps(lines, "game", 1000, 500)
    head = next(i for i, line in enumerate(lines) if line.startswith("net against pubeval: 1,000 cubeless"))
    assert head < steps[0][0]


def test_analyse_progress_counts_actions():
    lines = _run("analyse", str(DATA / "gnubg_selfplay_9.mat"), "--ply", "0", "--workers", "1", "--progress",
                 interval="0.02")
    steps = _progress(lines, "action")
    head = next(i for i, line in enumerate(lines) if line.startswith("Analysing "))
    assert steps and head < steps[0][0]
    inside = {n for _, n, _ in steps if 0 < n < steps[0][2]}
    assert len(inside) >= 2, lines


def test_train_progress_counts_games(tmp_path):
    lines = _run("train", "--games", "600", "--prune-games", "0", "--out", str(tmp_path / "n.npz"), "--progress",
                 interval="0.02")
    head = next(i for i, line in enumerate(lines) if line.startswith("Training 600 self-play games"))
    steps = _moves_in_small_steps(lines, "game", 600, 1000)
    assert head < steps[0][0]


def test_no_progress_without_asking_in_a_pipe():
    # Standard error not a terminal and no --progress: no lines (a script's log stays clean).
    lines = _run("rollout", "--games", "72", "--workers", "1")
    assert not _progress(lines, "game")


# -- the bar itself --------------------------------------------------------------------------

def test_line_bar_reports_rate_and_time_left():
    out = io.StringIO()
    bar = _parallel.LineBar(100, "game", interval=0.0, stream=out)
    for _ in range(4):
        time.sleep(0.01)
        bar.update(10)
    bar.update(60)
    bar.close()
    lines = out.getvalue().splitlines()
    assert [LINE.match(x).group(1) for x in lines] == ["10", "20", "30", "40", "100"]
    assert all(LINE.match(x).group(7) for x in lines[:-1]) and not LINE.match(lines[-1]).group(7)


def test_plain_lines_without_tqdm(monkeypatch):
    # The core install needs numpy only at run time: without tqdm, lines.
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert isinstance(_parallel.progress_bar(True, 10, "game"), _parallel.LineBar)


def test_a_terminal_gets_tqdms_bar(monkeypatch):
    tqdm = pytest.importorskip("tqdm")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    bar = _parallel.progress_bar(True, 10, "game")
    try:
        assert isinstance(bar, tqdm.tqdm)
    finally:
        bar.close()


def _count_slowly(n):
    counter = _parallel.tally()
    for _ in range(n):
        time.sleep(0.01)
        counter[0] += 1
    return n


def test_run_chunks_shows_work_inside_chunks(monkeypatch):
    # Here and on local worker processes the bar reads each chunk's counter
    # while it runs; the results come back in chunk order.
    for workers in (1, 2):
        out = io.StringIO()
        made = []

        def bar(on, total, unit, initial=0):
            made.append(_parallel.LineBar(total, unit, interval=0.0, stream=out))
            return made[-1]

        monkeypatch.setattr(_parallel, "progress_bar", bar)
        done = _parallel.run_chunks(_count_slowly, [40, 40], [40, 40], workers=workers, executor=None,
                                    progress=True, unit="game")
        assert done == [40, 40]
        counts = [int(LINE.match(x).group(1)) for x in out.getvalue().splitlines()]
        assert counts == sorted(counts) and counts[-1] == 80
        assert any(n % 40 for n in counts), (workers, counts)


def test_a_task_outside_a_run_counts_into_scratch():
    assert _parallel.tally().shape == (1,) and _parallel.tally()[0] == 0
    assert _parallel.run_chunks(_count_slowly, [2], [2], workers=1, executor=None, progress=False,
                                unit="game") == [2]
    assert _parallel.tally()[0] == 0


def test_the_game_loop_counts_its_games():
    import backgammon as bg
    from backgammon import _rollout
    counter = np.array([5], dtype=np.int64)
    start = np.frombuffer(bg.Position.initial().to_bytes(), dtype=np.uint8)
    results, _ = _rollout.play_games(start, 0, 30, 1, 0, 0, counter=counter)
    assert results.shape == (30, 5) and counter[0] == 35
    with pytest.raises(ValueError, match="counter"):
        _rollout.play_games(start, 0, 3, 1, 0, 0, counter=np.zeros(2, dtype=np.int64))
