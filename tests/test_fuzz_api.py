"""Bad and unusual input at the public API and the command line, where the
older fuzz tests (test_fuzz*.py, test_formats_fuzz_readers.py) do not
reach: a wrong type is a TypeError naming the parameter, a wrong value a
ValueError subclass naming it, and nothing else escapes (no IndexError,
AttributeError, OverflowError, traceback); files named on the command line
are written without harm to what the name points at."""
from __future__ import annotations

import importlib.util
import math
import os
import pkgutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import backgammon as bg
from backgammon import bearoff
from backgammon.formats.mat import save_duel

FUZZ = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

junk = st.one_of(st.none(), st.booleans(), st.integers(-5, 30), st.integers(2 ** 62, 2 ** 80),
                 st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=6), st.binary(max_size=6),
                 st.lists(st.integers(-2, 8), max_size=3), st.tuples(st.integers(-2, 8), st.integers(-2, 8)),
                 st.builds(np.int64, st.integers(-5, 30)), st.builds(np.float64, st.floats()))


def _cli(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "backgammon", *args], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL, **kw)


# -- every exported function, and the rule helpers' modules ------------------------------

# Valid values mixed in, so that a call gets past its first check.
_SOME = st.sampled_from([bg.Position.initial(), bg.MatchState(), bg.MatchState(match_length=5), "31", (3, 1),
                         bg.Rules(), "pubeval", "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10",
                         "4HPwATDgc/ABMA", np.zeros((2, 25), np.uint8), np.zeros((3, 2, 25), np.int64), [], {},
                         object(), np.zeros(5), np.full(5, np.nan), np.zeros((3, 5)), np.zeros(3), 1.5, 0.5,
                         [0.5, 0.1, 0.0, 0.1, 0.0], bg.Position.initial().legal_plays("31")[0]])
_ARGS = st.one_of(junk, _SOME)
# What runs long when its junk happens to be valid (games, workers, tables
# built and cached, files written) has tests of its own.
_LONG = {"rollout", "rollout_plays", "rollout_cube", "duel", "play_match", "analyse", "hint", "cube_decision",
         "register_player", "get_include", "serve", "play_match"}
_LONG_KEYWORDS = {"workers", "executor", "progress", "games", "chunk_size", "replace", "out", "threads"}
_RULE_MODULES = ["doubling", "scoring", "match", "play", "cube", "matchid", "resignation", "met", "dice", "position",
                 "batch", "luck", "statistics", "position_types", "perft", "ogid", "fibs", "xgid"]
# The engine's other public modules; their writers write into a scratch
# directory (the test's working directory).  Not fuzzed (_NOT_FUZZED): what
# builds bear-off tables into the user's cache (bearoff.two_sided,
# bearoff.build...), trains, registers or serves.
_OTHER_MODULES = ["janowski", "cube_search", "evaluator", "lockstep", "rollouts.statistics", "rollouts.api",
                  "bearoff.bdfile", "ubgi", "duel"]
_OTHER_MODULES += [f"formats.{m.name}" for m in pkgutil.iter_modules(bg.formats.__path__)]   # every file format
_OTHER_MODULES += ["analysis", "bearoff", "evaluation", "formats", "network", "peers", "pubeval", "sample", "rollouts",
                   "mat", "sgf"] + (["env"] if importlib.util.find_spec("gymnasium") else [])     # env: the rl extra
# Builders of tables into the user's cache, training runs, registries and entry points.
_NOT_FUZZED = _LONG | {"one_sided", "two_sided", "build", "cache_dir", "kernel_tables", "train", "fit_pruner",
                       "label_positions", "select_positions", "rebuild", "register", "main"}


def _exported_functions(modules=None, skip=_LONG):
    import importlib
    import inspect
    seen, out = set(), []
    for module in [importlib.import_module(f"backgammon.{m}") for m in modules] if modules is not None else \
            [bg] + [importlib.import_module(f"backgammon.{m}") for m in _RULE_MODULES]:
        for name in module.__all__:
            fn = getattr(module, name)
            if inspect.isfunction(fn) and name not in skip and id(fn) not in seen:
                seen.add(id(fn))
                out.append(pytest.param(fn, id=f"{module.__name__}.{name}"))
    return out


@pytest.mark.parametrize("fn", _exported_functions())
@FUZZ
@given(st.data())
def test_exported_functions_take_junk_with_our_errors(fn, data):
    # A wrong type is a TypeError, a wrong value a ValueError subclass:
    # doubling.may_double(None), scoring.game_points(kind, cube, None),
    # scoring.flip_change of 3 values, match.match_winner(nan, 2**70),
    # play.legal_plays([1.0], "31") and more raised AttributeError or
    # IndexError from inside.
    _call_with_junk(fn, data)


_SCRATCH: list = []


@pytest.mark.parametrize("fn", _exported_functions(_OTHER_MODULES, _NOT_FUZZED))
@FUZZ
@given(st.data())
def test_other_modules_functions_take_junk_with_our_errors(fn, tmp_path_factory, data):
    # janowski.owner_of(None), evaluator.flip("31"), lockstep.pick(...),
    # formats.source.decode(1.5), bdfile.write_one_sided(...) and more
    # raised AttributeError, IndexError or OverflowError from inside.
    cwd = os.getcwd()
    if not _SCRATCH:
        _SCRATCH.append(tmp_path_factory.mktemp("fuzz"))       # one directory for every example
    os.chdir(_SCRATCH[0])
    try:
        _call_with_junk(fn, data)
    finally:
        os.chdir(cwd)


def _call_with_junk(fn, data):
    import inspect
    params = inspect.signature(fn).parameters.values()
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    keywords = [p.name for p in params if p.kind == p.KEYWORD_ONLY and p.name not in _LONG_KEYWORDS]
    args = [data.draw(_ARGS) for _ in range(data.draw(st.integers(0, len(positional))))]
    kwargs = {k: data.draw(_ARGS) for k in data.draw(st.lists(st.sampled_from(keywords), max_size=2, unique=True))} \
        if keywords else {}
    try:
        fn(*args, **kwargs)
    except (TypeError, ValueError, MemoryError, FileNotFoundError, IsADirectoryError):
        pass


# -- the game's match, a player's game, a list of plays ---------------------------------

@FUZZ
@given(junk)
def test_game_takes_a_match_or_none(match):
    # Game(match=...) read match.rules before looking at it: AttributeError.
    if match is None:
        assert bg.Game(seed=1).length == 0
        return
    with pytest.raises(TypeError, match="match must be a backgammon.Match"):
        bg.Game(match=match, seed=1)


def test_a_match_still_makes_its_games():
    m = bg.Match(3, seed=1)
    g = m.new_game()
    assert g.match is m and g.length == 3
    assert bg.Game.replay(g.history, match=bg.Match(3, seed=1)).length == 3


@FUZZ
@given(junk)
def test_choose_in_takes_a_game(game):
    # Player.choose_in(non-game) read game.length: AttributeError.
    with pytest.raises(TypeError, match="game must be a backgammon.Game"):
        bg.player("pubeval").choose_in(game)


def test_choose_in_wants_a_game_waiting_for_a_play():
    # Before the roll there is no play: a ValueError naming the game, not a
    # TypeError about a roll the caller never gave.
    g = bg.Game(seed=1)
    with pytest.raises(ValueError, match="game: no play to choose.*OPENING"):
        bg.player("pubeval").choose_in(g)
    g.roll((3, 1))
    assert str(bg.player("pubeval").choose_in(g)) == "8/5 6/5"


@FUZZ
@given(st.one_of(st.floats(allow_nan=True), st.text(max_size=3), st.none(), st.lists(st.integers(), max_size=2)))
def test_plays_index_only_by_integers(index):
    # plays[nan] raised IndexError and plays[1.5] sliced a buffer with a float.
    plays = bg.Position.initial().legal_plays("31")
    with pytest.raises(TypeError, match="play indices must be integers or slices"):
        plays[index]


def test_plays_index_as_a_list_does():
    plays = bg.Position.initial().legal_plays("31")
    listed = list(plays)
    assert plays[np.int64(1)] == listed[1] and plays[-1] == listed[-1] and plays[1:3] == listed[1:3]
    with pytest.raises(IndexError):
        plays[len(listed)]
    with pytest.raises(IndexError):
        plays[2 ** 70]


@pytest.mark.parametrize("text", ["８/５ ６/５", "٨/٥ ٦/٥", "8/5 6/٥", "8/5(２)", "२४/२३ १३/१०", "8/5 6/5\u00b2"])
def test_play_notation_is_ascii_digits_as_rolls_are(text):
    # parse_play read '８/５ ６/５' (int() takes any script's digits) where
    # legal_plays("３１") and every other reader refuse them (RULES 10.1).
    with pytest.raises(bg.InvalidRollError):
        bg.Position.initial().legal_plays("３１")
    with pytest.raises(bg.InvalidMoveError, match=r"^text: .* is not an ASCII digit"):
        bg.Position.initial().parse_play(text, "31")
    g = bg.Game(seed=1)
    g.roll((3, 1))
    with pytest.raises(ValueError, match="is not an ASCII digit"):      # the game's IllegalPlayError
        g.play(text)
    assert str(bg.Position.initial().parse_play("8/5 6/5", "31")) == "8/5 6/5"


# -- game numbers, bear-off indices, training step sizes --------------------------------

@pytest.mark.parametrize("kw, name", [(dict(n=2 ** 70), "n"), (dict(n=2 ** 63), "n"),
                                      (dict(n=2, first=2 ** 70), "first"), (dict(n=2, first=2 ** 63 - 1), "first")])
def test_vector_games_numbers_fit_the_game_loop(kw, name):
    # n or first beyond int64 raised OverflowError from numpy.
    with pytest.raises(ValueError, match=f"{name} must be <="):
        bg.VectorGames(seed=1, **kw)


@pytest.mark.parametrize("n", [2 ** 62, 2 ** 63, 2 ** 70])
def test_roll_batch_beyond_an_array_names_n(n):
    # numpy's "array is too big" / "Maximum allowed dimension exceeded" named no parameter.
    with pytest.raises(ValueError, match=r"n must be <= 4611686018427387903"):
        bg.roll_batch(n, seed=1)


def test_roll_batch_beyond_memory_names_n():
    # 2**61 rolls are 4 EiB: numpy's MemoryError named no parameter.
    with pytest.raises(MemoryError, match=r"^n: 2,305,843,009,213,693,952 rolls"):
        bg.roll_batch(2 ** 61, seed=1)
    assert bg.roll_batch(0, seed=1).shape == (0, 2)


def test_vector_games_up_to_the_last_game_number():
    games = bg.VectorGames(2, seed=1, first=2 ** 63 - 2)
    offsets, children = games.candidates()
    assert len(children) == offsets[-1] > 0


def test_position_index_of_a_batch_is_every_index():
    # A batch gave the first row's index only; an empty batch raised IndexError.
    batch = np.array([(0, 0, 0, 0, 0, 1), (2, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0)])
    assert bearoff.position_index(batch).tolist() == [bearoff.position_index(tuple(row)) for row in batch] == [6, 7, 0]
    db = bearoff.one_sided()
    assert bearoff.position_index(batch).tolist() == db.index(batch).tolist()
    assert bearoff.position_index(np.zeros((0, 6), dtype=np.int64)).shape == (0,)
    assert bearoff.position_index(np.zeros((0, 2, 25), dtype=np.uint8)).shape == (0,)
    assert isinstance(bearoff.position_index((0, 1, 0, 0, 0, 3)), int)


@pytest.mark.parametrize("name", ["alpha", "refine_alpha", "round_alpha", "explore_within"])
@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 0.0, -1.0])
def test_training_step_sizes_are_finite_and_positive(tmp_path, name, value):
    # alpha and refine_alpha went unchecked: alpha=nan trained NaN weights and
    # wrote them; an infinite explore_within or round_alpha was taken.
    from backgammon.train import train
    with pytest.raises(ValueError, match=name):
        train(2, out=tmp_path / "n.npz", **{name: value})
    with pytest.raises(TypeError, match=name):
        train(2, out=tmp_path / "n.npz", **{name: "0.1"})
    assert not list(tmp_path.iterdir())


# -- files written by name --------------------------------------------------------------

def _read_fifo(path, into: list):
    with open(path, "rb") as f:
        into.append(f.read())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_save_into_a_named_pipe_writes_into_it(tmp_path):
    # The atomic writer renamed its temporary file over the pipe (as over
    # /dev/full or /dev/null when run as root), replacing it with a file.
    fifo = tmp_path / "games.mat"
    os.mkfifo(fifo)
    got: list = []
    reader = threading.Thread(target=_read_fifo, args=(fifo, got), daemon=True)   # never holds up the run
    reader.start()
    done = _cli("duel", "pubeval", "random", "--games", "2", "--workers", "1", "--save", str(fifo))
    reader.join(timeout=60)
    assert done.returncode == 0, done.stderr
    assert os.path.exists(fifo) and not os.path.isfile(fifo)        # still the pipe
    assert got, "nothing came through the pipe"
    assert len(bg.read_mat(got[0].decode()).games) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.mat"]   # no temporary file left


def test_a_save_through_a_symbolic_link_keeps_the_link(tmp_path):
    target = tmp_path / "real.mat"
    target.write_text("old")
    link = tmp_path / "link.mat"
    link.symlink_to(target)
    save_duel(link, bg.duel("pubeval", "random", games=2, seed=1, workers=1, record=True))
    assert link.is_symlink() and len(bg.read_mat(target.read_text()).games) == 2


# -- the command line -------------------------------------------------------------------

@pytest.mark.parametrize("port", ["65536", "70000", "99999999999999999999"])
def test_serve_refuses_a_port_beyond_65535(port):
    # The bind raised OverflowError: a traceback, exit status 1.
    done = _cli("serve", "--port", port)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--port must be <= 65535" in done.stderr


@pytest.mark.parametrize("option, value", [("--alpha", "nan"), ("--alpha", "-1"), ("--explore-within", "inf")])
def test_train_refuses_step_sizes_that_are_no_step(tmp_path, option, value):
    out = tmp_path / "n.npz"
    done = _cli("train", "--games", "2", option, value, "--out", str(out))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert option[2:].replace("-", "_") in done.stderr and not out.exists()


@pytest.mark.parametrize("games", ["9223372036854775808", "99999999999999999999999999"])
def test_rollout_games_beyond_the_game_loops_numbers(games):
    # More games than int64 numbers: OverflowError's traceback from the seeds' spawn.
    done = _cli("rollout", "--games", games, "--workers", "1")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "games must be <= 9223372036854775807" in done.stderr


@pytest.mark.parametrize("call", [bg.rollout, bg.rollout_cube, lambda pos, **kw: bg.rollout_plays(pos, "31", **kw)])
def test_rollout_games_fit_int64(call):
    with pytest.raises(ValueError, match="games must be <= 9223372036854775807"):
        call(bg.Position.initial(), games=2 ** 63, workers=1)


_HUGE = """
import signal, sys
from concurrent.futures import ThreadPoolExecutor
import backgammon as bg
# Ctrl-C as at a terminal even when this process was started with SIGINT
# ignored (a background job of a shell without job control inherits that).
signal.signal(signal.SIGINT, signal.default_int_handler)
kind = sys.argv[1]
kw = dict(seed=1, progress=True)
if kind.endswith("executor"):
    kw["executor"] = ThreadPoolExecutor(1)          # the Dask path: any Executor
else:
    kw["workers"] = 2 if kind.endswith("pool") else 1
try:
    if kind.startswith("duel"):
        bg.duel("pubeval", "random", games=2 ** 62, **kw)
    elif kind.startswith("rollout_cube"):
        bg.rollout_cube(bg.Position.initial(), games=2 ** 62, policy="pubeval", variance_reduction=False, **kw)
    elif kind.startswith("rollout_plays"):
        bg.rollout_plays(bg.Position.initial(), "31", top=2, games=2 ** 62, policy="pubeval",
                         variance_reduction=False, **kw)
    else:
        bg.rollout(games=2 ** 62, policy="pubeval", variance_reduction=False, **kw)
except KeyboardInterrupt as e:
    partial = e.partial[0] if isinstance(e.partial, list) else e.partial
    print(type(e).__name__, partial.games if partial is not None else 0)
"""


@pytest.mark.parametrize("kind", ["duel", "duel pool", "duel executor", "rollout", "rollout pool", "rollout executor",
                                  "rollout_cube", "rollout_plays"])
def test_a_run_of_2_to_the_62_games_starts_at_once(kind):
    # The chunks and their seeds were all made before the first game (the
    # seeds' spawn and the task list): 2**62 games never got past planning.
    # Now the games start at once; Ctrl-C once a chunk is done (the bar past
    # 2,600 games: 500 a duel's chunk, 1,296 a rollout's, twice that for two
    # plays) ends the run with the games played.
    import signal
    env = dict(os.environ, BACKGAMMON_PROGRESS_INTERVAL="0")
    # Its own process group, so that a hang kills its workers too: they
    # hold its stderr open, and reading it would otherwise never end.
    child = subprocess.Popen([sys.executable, "-c", _HUGE, kind], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env, start_new_session=True)
    timer = threading.Timer(240, os.killpg, (child.pid, signal.SIGKILL))   # a hang fails the test, not holds it up
    timer.start()
    try:
        for line in child.stderr:
            played = line.split("/")[0].replace(",", "")
            if played.isdigit() and int(played) > 2600:
                # the total computed, not summed: games x starts (two for rollout_cube and two plays)
                assert f"/{2 ** 62:,} games" in line or f"/{2 ** 63:,} games" in line
                child.send_signal(signal.SIGINT)
                break
        out, _ = child.communicate()
    finally:
        timer.cancel()
    words = out.split()
    assert child.returncode == 0 and words[0] in ("DuelInterrupted", "RolloutInterrupted"), out
    assert int(words[1]) > 0


def test_lazy_chunks_keep_the_seeds_results():
    # The chunks' seeds made one by one are those spawned all at once: the
    # same games for a seed (benchmarks/fixed_figures.txt holds more).
    import numpy as np
    from backgammon.duel import PAIRS_PER_CHUNK
    n = 2 * PAIRS_PER_CHUNK * 2 + 6                   # three chunks, the last short
    one = bg.duel("pubeval", "random", games=n, seed=np.random.SeedSequence(5), workers=1, record=True)
    pool = bg.duel("pubeval", "random", games=n, seed=5, workers=2, record=True)
    same = ("games", "ppg", "ppg_se", "a_wins", "a_gammons", "a_backgammons", "b_gammons", "b_backgammons")
    assert [getattr(one, k) for k in same] == [getattr(pool, k) for k in same] and one.games == n
    assert one.records == pool.records
    r1 = bg.rollout(games=2 * 36 + 5, chunk_size=36, policy="pubeval", seed=3, workers=1)
    r2 = bg.rollout(games=2 * 36 + 5, chunk_size=36, policy="pubeval", seed=3, workers=2)
    assert r1.games == 77 and (r1.win, r1.equity, r1.equity_se) == (r2.win, r2.equity, r2.equity_se)


# -- writers ------------------------------------------------------------------------------

@FUZZ
@given(junk)
def test_write_sgf_takes_a_match_analysis(analysis):
    # write_sgf(record, analysis=junk) read analysis.games: AttributeError.
    record = bg.read_mat("1 point match\n\n Game 1\n A : 0                B : 0\n  1) 31: 8/5 6/5\n",
                         partial=True)
    if analysis is None:
        assert bg.write_sgf(record).startswith("(;FF[4]")
        return
    with pytest.raises(TypeError, match="analysis must be a backgammon.MatchAnalysis"):
        bg.write_sgf(record, analysis=analysis)


# -- the environments' helpers ------------------------------------------------------------

def test_env_helpers_check_the_counts_they_are_given():
    # encode and final_points cast to uint8: 256 checkers read as 0 (the
    # opening, silently), -1 as 255, a Python int out of range raised OverflowError.
    env = pytest.importorskip("backgammon.env")
    start = bg.Position.initial().array[None].astype(np.int64)
    assert env.encode(start, [(3, 1)]).shape == (1, env.OBS_SIZE) and env.final_points(start).tolist() == [0]
    for boards in (start + 256, -start, 3072, np.zeros((1, 2, 24), dtype=np.int64)):
        for helper in (lambda b: env.encode(b, None), env.final_points):
            with pytest.raises(bg.InvalidPositionError, match="boards|board 0"):
                helper(boards)
    for rolls, error in (([(7, 1)], ValueError), ([(3, 1), (2, 2)], ValueError), ([(-1, 2)], ValueError),
                         ([(3.5, 1)], TypeError)):
        with pytest.raises(error, match="rolls"):
            env.encode(start, rolls)


# -- files read by name -------------------------------------------------------------------

@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_that_never_ends_is_no_match_file(tmp_path):
    # A device has no size to check before reading: read_mat(Path("/dev/zero"))
    # and `backgammon analyse /dev/zero` read until memory ran out.
    with pytest.raises(ValueError, match="holds more than"):
        bg.read_mat(Path("/dev/zero"))
    with pytest.raises(bg.BackgammonError, match="holds more than"):       # InvalidMetError
        bg.MatchEquityTable.from_xml("/dev/zero")
    for command in (["analyse", "/dev/zero"], ["convert", "/dev/zero", str(tmp_path / "out.mat")]):
        done = _cli(*command)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert "/dev/zero holds more than" in done.stderr


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("read", [bg.read_xg, bg.read_mat, bg.read_sgf])
def test_a_device_named_by_a_str_is_read_as_the_file(read, tmp_path):
    # read_xg("/dev/zero") said "No such file or directory: '/dev/zero'" (a
    # str naming no regular file was no path); read_mat("/dev/zero") read the
    # name as a match's text.  Now: the format's base error, a ValueError,
    # naming the file; a directory is a directory.
    with pytest.raises(bg.FormatError, match="^/dev/zero holds more than 67,108,864 bytes: not a match file"):
        read("/dev/zero")
    with pytest.raises(bg.FormatError, match="^/dev/zero holds more than"):
        with open("/dev/zero", "rb") as f:
            read(f)
    with pytest.raises(IsADirectoryError, match=str(tmp_path)):
        read(str(tmp_path))
    with pytest.raises(FileNotFoundError, match="nosuch.xg"):
        read(str(tmp_path / "nosuch.xg"))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_match_from_a_named_pipe_converts(tmp_path):
    fifo, out = tmp_path / "in.mat", tmp_path / "out.sgf"
    os.mkfifo(fifo)
    text = Path(__file__).parent / "data" / "gnubg_selfplay_9.mat"

    def feed():
        with open(text, "rb") as src, open(fifo, "wb") as dst:
            dst.write(src.read())
    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    done = _cli("convert", str(fifo), str(out), "--from", "mat")
    writer.join(timeout=60)
    assert done.returncode == 0, done.stderr
    assert len(bg.read_sgf(out.read_text()).games) == len(bg.read_mat(text).games)


# -- weight files ---------------------------------------------------------------------------

def test_weight_files_that_are_not_are_value_errors(tmp_path):
    # An empty or cut-short file raised EOFError or zipfile.BadZipFile (the
    # docstring promises ValueError); NaN weights loaded and evaluated every
    # position to nonsense without a word.
    from importlib import resources
    from backgammon import network
    shipped = resources.files("backgammon").joinpath("data/nets.npz").read_bytes()
    arrays, meta = network.read(resources.files("backgammon").joinpath("data/nets.npz"))
    cases = {"empty": b"", "garbage": b"PK\x03\x04 not a zip", "cut": shipped[: len(shipped) // 2]}
    for name, data in cases.items():
        (tmp_path / f"{name}.npz").write_bytes(data)
    arrays["contact_w1"][0, 0] = np.nan
    network.save(tmp_path / "nan.npz", arrays, meta)
    for name in [*cases, "nan"]:
        with pytest.raises(ValueError, match="not a weight file|not all finite"):
            network.load(tmp_path / f"{name}.npz")
    arrays["contact_w1"][0, 0] = 0.0
    network.save(tmp_path / "fine.npz", arrays, meta)
    assert 0 < bg.evaluate(bg.Position.initial(), evaluator=network.load(tmp_path / "fine.npz")).win < 1


@pytest.mark.parametrize("types, error", [(-1, ValueError), (9, ValueError), ([0, 2 ** 70], ValueError),
                                          (1.9, TypeError), (True, TypeError), ("race", TypeError)])
def test_position_type_names_take_type_indices(types, error):
    # -1 read as 'over' (the last name), 1.9 as 1, 9 raised IndexError.
    from backgammon.position_types import TYPES, names
    with pytest.raises(error, match="types"):
        names(types)
    assert names(np.arange(len(TYPES), dtype=np.int8)) == list(TYPES)


@pytest.mark.parametrize("board, error", [(None, TypeError), ([], TypeError), (np.zeros((2, 25)), TypeError),
                                         (np.full((2, 25), 10 ** 5), bg.InvalidPositionError),
                                         (-np.ones((2, 25), int), bg.InvalidPositionError),
                                         (np.zeros((2, 25), int), bg.InvalidPositionError),
                                         (np.zeros((2, 24), int), bg.InvalidPositionError)])
def test_encode_ogid_takes_a_board(board, error):
    # The board went unchecked: counts of 10**5 wrote an OGID of 2.4 million
    # checkers (10**9 built lists until memory ran out), None raised IndexError.
    from backgammon.ogid import encode_ogid
    with pytest.raises(error, match="array"):
        encode_ogid(board)
    assert encode_ogid(bg.Position.initial().array, opening=True) == bg.Position.initial().to_ogid()


@FUZZ
@given(junk)
def test_written_position_takes_a_position(position):
    # A board array or None read position.to_bytes: AttributeError, OverflowError.
    from backgammon.play import written_position
    with pytest.raises(TypeError, match="position must be a backgammon.Position"):
        written_position(position, "13/9 8/7")
    assert written_position(bg.Position.initial(), "13/9 8/7").pip_counts() == (167, 162)


@pytest.mark.parametrize("rate", [np.float64(1e308), np.float32(3e38), 2 ** 80, 1e300])
def test_luck_rating_of_a_huge_rate_is_quietly_the_top(rate):
    # Ten times a numpy 1e308 overflowed with a RuntimeWarning.
    import warnings
    from backgammon.statistics import LUCK_RATINGS, luck_rating
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert luck_rating(rate) == LUCK_RATINGS[-1]
        assert luck_rating(-rate) == LUCK_RATINGS[0]
    with pytest.raises(ValueError, match="rate must be finite"):
        luck_rating(2 ** 2000)


def test_public_helpers_name_what_is_wrong():
    # A few of the errors the fuzzing above only lets through, as users read them.
    from backgammon import janowski, lockstep
    from backgammon.cube_search import rank_plays
    from backgammon.evaluator import as_evaluator, best_of
    from backgammon.formats.source import decode
    from backgammon.rollouts.api import as_player0
    with pytest.raises(TypeError, match="state must be a backgammon.MatchState"):
        janowski.owner_of(None)
    with pytest.raises(ValueError, match="owner must be one of"):
        janowski.exact_known(np.zeros((1, 2, 25), np.uint8), "mine")
    with pytest.raises(ValueError, match=r"boards must be boards of shape \(n, 2, 25\)"):
        janowski.efficiencies(np.zeros((3, 5), np.uint8))
    with pytest.raises(ValueError, match="ply must be <= 3"):
        rank_plays(as_evaluator(), bg.Position.initial().legal_plays("31").positions, 9,
                   bg.MatchState(), bg.Rules())
    with pytest.raises(ValueError, match="probs must have shape"):
        best_of(np.zeros(5), np.zeros(1, np.int64))
    with pytest.raises(ValueError, match="choice must index a play"):
        offsets, children = bg.batch.legal_positions(bg.Position.initial().array[None], [[3, 1]])
        lockstep.pick(offsets, children, [99])
    with pytest.raises(TypeError, match="data must be bytes, not str"):
        decode("text")
    with pytest.raises(TypeError, match="state must be a backgammon.MatchState"):
        as_player0(None)
    assert decode(b"\xe9") == "é"
    assert janowski.efficiencies(bg.Position.initial().array).tolist() == [0.68]
