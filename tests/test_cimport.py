"""The public Cython API (docs/cython-api.md) as another project uses it:
an extension built outside the source tree against the installed package
(only ``backgammon.get_include()`` on its include paths), imported and run
in a fresh interpreter; and the example native evaluator
(examples/native_evaluator) built with scikit-build-core and played by the
kernel game loop.

In CI the package is the wheel that ``pip install '.[test]'`` built and
installed; in an editable install the include directory is the installed
copy in the build tree, never ``src/``.
"""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import backgammon as bg

ROOT = Path(__file__).resolve().parent.parent
PUBLIC = {"__init__.pxd", "_capi.pxd", "board.pxd", "movegen.pxd", "net.pxd", "bearoff.pxd", "evaluator.pxd",
          "backgammon.h"}

EXT = textwrap.dedent("""
    # cython: language_level=3
    from libc.stdint cimport uint8_t, int8_t, int32_t
    from libc.stdlib cimport malloc, free
    from backgammon.board cimport (board_check, board_start, board_winner, chances_equity, bg_api_version,
                                   BG_API_VERSION, BG_BOARD_BYTES)
    from backgammon.movegen cimport (bg_movegen, movegen_new, movegen_free, movegen_plays, movegen_dice_used,
                                     BG_MAX_PLAYS, BG_MOVE_BYTES)
    from backgammon.net cimport (bg_networks, bg_scratch, networks_get, scratch_new, scratch_free,
                                 networks_evaluate, networks_best_child, networks_class)
    from backgammon.bearoff cimport bearoff_positions, bearoff_index, bearoff_counts

    def versions():
        return BG_API_VERSION, bg_api_version()

    def check(bytes board):
        return board_check(board)

    def start():
        cdef uint8_t b[50]
        board_start(b)
        return bytes(b[:50])

    def winner(bytes board):
        cdef int kind = 0
        cdef int w = board_winner(board, &kind)
        return w, kind

    def plays(bytes board, int d1, int d2, bint mover_view=False):
        # Without the GIL, as an engine's search would.
        cdef const uint8_t* b = board
        cdef bg_movegen* g = movegen_new()
        cdef uint8_t* out = <uint8_t*>malloc(BG_MAX_PLAYS * BG_BOARD_BYTES)
        cdef int8_t* mv = <int8_t*>malloc(BG_MAX_PLAYS * BG_MOVE_BYTES)
        cdef int n, used
        with nogil:
            n = movegen_plays(g, b, d1, d2, out, mv, mover_view)
            used = movegen_dice_used(g)
        result = (n, bytes(out[:n * BG_BOARD_BYTES]), bytes((<uint8_t*>mv)[:n * BG_MOVE_BYTES]), used)
        free(out); free(mv); movegen_free(g)
        return result

    def evaluate(nets, bytes boards):
        cdef const bg_networks* net = networks_get(nets)
        cdef bg_scratch* s = scratch_new()
        cdef const uint8_t* b = boards
        cdef Py_ssize_t i, n = len(boards) // 50
        cdef float p[5]
        out = []
        for i in range(n):
            with nogil:
                networks_evaluate(net, b + 50 * i, p, s)
            out.append((p[0], p[1], p[2], p[3], p[4], chances_equity(p), networks_class(b + 50 * i)))
        scratch_free(s)
        return out

    def best(nets, bytes children):
        cdef const bg_networks* net = networks_get(nets)
        cdef bg_scratch* s = scratch_new()
        cdef float p[5]
        cdef int k, n = <int>(len(children) // 50)
        cdef const uint8_t* c = children
        with nogil:
            k = networks_best_child(net, c, n, p, s)
        scratch_free(s)
        return k, (p[0], p[1], p[2], p[3], p[4])

    def bearoff(counts):
        cdef uint8_t c[6]
        cdef uint8_t back[6]
        for i in range(6):
            c[i] = counts[i]
        cdef int32_t index = bearoff_index(c)
        ok = bearoff_counts(index, back)
        return bearoff_positions(15), index, ok, [back[i] for i in range(6)], bearoff_counts(-1, back)
""")

SETUP = textwrap.dedent("""
    import backgammon
    from setuptools import setup, Extension
    from Cython.Build import cythonize
    inc = backgammon.get_include()
    setup(name="uses_bg", ext_modules=cythonize(
        [Extension("uses_bg", ["uses_bg.pyx"], include_dirs=[inc])], include_path=[inc], quiet=True))
""")

RUN = textwrap.dedent("""
    import json, numpy as np, uses_bg, backgammon as bg
    from backgammon import batch, network
    pos = bg.Position.initial()
    out = {"versions": uses_bg.versions(), "start": uses_bg.start() == pos.to_bytes()}
    out["check"] = [uses_bg.check(pos.to_bytes()), uses_bg.check(bytes(50)), uses_bg.check(b"\\x0f" * 50)]
    boards, rolls = __import__("backgammon.sample", fromlist=["x"]).random_positions(300, seed=2)
    same = True
    for b, r in zip(boards, rolls):
        for view in (False, True):
            n, kids, moves, used = uses_bg.plays(b.tobytes(), int(r[0]), int(r[1]), view)
            offsets, children, steps = batch.legal_positions(b[None], r[None], moves=True, mover_view=view)
            same &= n == len(children) and kids == children.tobytes() and moves == steps.tobytes()
    out["plays_same"] = bool(same)
    n, kids, _, used = uses_bg.plays(pos.to_bytes(), 3, 1)
    out["opening"] = [n, used]
    mine = np.array(uses_bg.evaluate(network.default(), boards.tobytes()))
    ref = bg.evaluate(boards, dtype=np.float32)
    out["evaluate_same"] = bool(np.array_equal(mine[:, :5].astype(np.float32), ref.probabilities))
    out["classes_same"] = bool(np.array_equal(mine[:, 6], network._net.position_classes(boards)))
    kids = pos.legal_plays("31").positions
    k, p = uses_bg.best(None, np.ascontiguousarray(kids).tobytes())
    out["best"] = [k, str(pos.legal_plays("31")[k])]
    out["bearoff"] = uses_bg.bearoff([1, 0, 2, 0, 0, 3])
    over = np.zeros((2, 25), np.uint8); over[0, 5] = 15      # the side on roll is off: a gammon
    back = np.zeros((2, 25), np.uint8); back[1, 23] = 15     # its opponent is off, all in its home board: a backgammon
    out["winner"] = [uses_bg.winner(over.tobytes()), uses_bg.winner(back.tobytes()),
                     uses_bg.winner(pos.to_bytes())[0]]
    try:
        uses_bg.evaluate("not networks", pos.to_bytes())
    except TypeError as e:
        out["type_error"] = str(e)
    print(json.dumps(out))
""")


def _compiler_env():
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return env


def test_get_include_is_the_package_api_only():
    inc = Path(bg.get_include())
    assert sorted(os.listdir(inc)) == ["backgammon"]            # not site-packages: nothing else on the path
    assert set(os.listdir(inc / "backgammon")) == PUBLIC
    assert ROOT / "src" not in inc.parents                    # the installed copy, not the source tree
    header = (inc / "backgammon" / "backgammon.h").read_text()
    assert "#define BG_API_VERSION 1" in header and "typedef struct bg_evaluator" in header


def test_the_rules_document_ships_with_the_package():
    # Error messages cite "RULES n.m": the numbered sections of this file.
    from backgammon import _capi
    path = os.path.join(os.path.dirname(_capi.__file__), "RULES.md")
    text = open(path, encoding="utf-8").read()
    assert "3.4 A player must use as many dice" in text and "8.3 Dead cube" in text


def test_an_extension_built_against_the_installed_package(tmp_path):
    pytest.importorskip("Cython")
    pytest.importorskip("setuptools")
    (tmp_path / "uses_bg.pyx").write_text(EXT)
    (tmp_path / "setup.py").write_text(SETUP)
    build = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=600, env=_compiler_env())
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-3000:]
    # Only the public include directory was on the compiler's path.
    assert str(ROOT / "src") not in build.stdout + build.stderr
    run = subprocess.run([sys.executable, "-c", RUN], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                         env=_compiler_env())
    assert run.returncode == 0, run.stderr[-3000:]
    import json
    out = json.loads(run.stdout)
    assert out["versions"] == [1, 1]
    assert out["start"] is True
    assert out["check"][0] == 0 and out["check"][1] != 0 and out["check"][2] != 0
    assert out["plays_same"] is True                       # byte for byte the batch API's plays and steps
    assert out["opening"] == [16, 2]
    assert out["evaluate_same"] is True and out["classes_same"] is True
    assert out["best"] == [out["best"][0], "8/5 6/5"]
    positions, index, ok, back, bad = out["bearoff"]
    assert positions == 54264 and ok == 0 and back == [1, 0, 2, 0, 0, 3] and bad == -1
    assert index == bg.bearoff.position_index((1, 0, 2, 0, 0, 3))
    assert out["winner"] == [[1, 2], [0, 3], -1]          # RULES 6.2-6.4
    assert "networks must be" in out["type_error"]


# -- the example native evaluator ------------------------------------------------------------

@pytest.fixture(scope="module")
def example(native_example):
    """The example built against the installed package (conftest.py)."""
    return native_example


def _run(example, code):
    env = _compiler_env()
    env["PYTHONPATH"] = str(example)
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=example, capture_output=True, text=True,
                          timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    import json
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_example_evaluator_plays_in_the_kernel_game_loop(example):
    out = _run(example, """
        import json, numpy as np, backgammon as bg
        from backgammon import _rollout, _native, _choice
        from backgammon.sample import random_positions
        from tesauro_net import TesauroNet
        net = TesauroNet(hidden=128, seed=1)
        boards, _ = random_positions(200, seed=4)
        mine = _native.evaluate(net, boards)
        out = {"evaluate_same": bool(np.array_equal(mine, net(boards).astype(np.float32)))}
        # The game loop's choice of a play: the lowest equity for the side then on roll.
        b2, r2 = random_positions(300, seed=6)
        picks = _choice.choose_plays(_choice.Policy.POLICY_NET, b2, r2, evaluator=net)
        offsets, kids = bg.batch.legal_positions(b2, r2)
        p = _native.evaluate(net, kids)
        eq = 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]
        ref = bg.batch.best_per_pair(offsets, eq, lowest=True)
        ref[np.diff(offsets) <= 1] = 0
        out["choose_same"] = bool(np.array_equal(picks, ref))
        start = np.frombuffer(bg.Position.initial().to_bytes(), dtype=np.uint8)
        NET = _choice.Policy.POLICY_NET
        res = {}
        for name, kw in (("plain", {}), ("reduced", dict(reduce=True)), ("truncated", dict(truncate=6, reduce=True))):
            a, la = _rollout.play_games(start, 0, 40, 99, NET, NET, evaluator=net, **kw)
            b, lb = _rollout.play_games(start, 0, 40, 99, NET, NET, evaluator=TesauroNet(hidden=128, seed=1), **kw)
            res[name] = [bool(np.array_equal(a, b) and np.array_equal(la, lb)), float(a[:, 0].mean()),
                         float(np.abs(la).sum()), bool(((a >= 0) & (a <= 1)).all())]
        out["games"] = res
        # A different network plays different games.
        c, _ = _rollout.play_games(start, 0, 40, 99, NET, NET, evaluator=TesauroNet(hidden=128, seed=2))
        a, _ = _rollout.play_games(start, 0, 40, 99, NET, NET, evaluator=net)
        out["other_net_differs"] = bool(not np.array_equal(a, c))
        # Against pubeval, one policy each.
        from backgammon.pubeval import load_weights
        load_weights()
        d, _ = _rollout.play_games(start, 0, 40, 99, NET, _choice.Policy.POLICY_PUBEVAL, evaluator=net)
        out["mixed"] = d.shape
        try:
            _rollout.play_games(start, 0, 4, 99, NET, NET, evaluator=TesauroNet(hidden=16, fail=True))
        except RuntimeError as e:
            out["failure"] = str(e)
        try:
            _rollout.play_games(start, 0, 4, 99, NET, NET, evaluator=object())
        except TypeError as e:
            out["not_native"] = str(e)
        print(json.dumps(out))
    """)
    assert out["evaluate_same"] is True
    assert out["choose_same"] is True
    for name, (same, wins, luck, bounded) in out["games"].items():
        assert same and bounded, name                      # the same seed, the same games
        assert 0.0 < wins < 1.0, name
        assert (luck > 0) == (name != "plain"), name        # variance reduction measured the luck
    assert out["other_net_differs"] is True
    assert out["mixed"] == [40, 5]
    assert "failed" in out["failure"]
    assert "native evaluator" in out["not_native"]


def test_the_example_pruner_ranks_plays_and_without_one_every_play_is_evaluated(example):
    out = _run(example, """
        import json, numpy as np, backgammon as bg
        from backgammon import _rollout, _choice
        from tesauro_net import TesauroNet
        from tesauro_net._net import random_arrays
        start = np.frombuffer(bg.Position.initial().to_bytes(), dtype=np.uint8)
        NET = _choice.Policy.POLICY_NET
        arrays = random_arrays(128, 16, seed=3)
        full = {k: v for k, v in arrays.items() if not k.startswith("prune_")}
        plain, _ = _rollout.play_games(start, 0, 60, 5, NET, NET, evaluator=TesauroNet(full))
        # A pruner that keeps 16 plays within any distance lets every play of most rolls through.
        wide, _ = _rollout.play_games(start, 0, 60, 5, NET, NET,
                                      evaluator=TesauroNet(arrays, prune_keep=16, prune_within=1e9))
        # Its own best play only: the game follows the pruner's choices.
        one, _ = _rollout.play_games(start, 0, 60, 5, NET, NET, evaluator=TesauroNet(arrays, prune_keep=1))
        pruner_only = {"w1": arrays["prune_w1"], "b1": arrays["prune_b1"], "w2": arrays["prune_w2"],
                       "b2": arrays["prune_b2"]}
        small, _ = _rollout.play_games(start, 0, 60, 5, NET, NET, evaluator=TesauroNet(pruner_only))
        print(json.dumps({"wide_vs_plain": float(np.abs(wide - plain).sum()),
                          "one_is_pruner": bool(np.array_equal(one, small)),
                          "one_differs": bool(not np.array_equal(one, plain))}))
    """)
    assert out["one_is_pruner"] is True          # keep 1: the pruner's choice, as the small net alone plays
    assert out["one_differs"] is True
    assert out["wide_vs_plain"] < 60 * 5         # mostly the same games as without a pruner
