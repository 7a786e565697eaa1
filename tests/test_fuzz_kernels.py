"""Every function the Cython kernels expose to Python, fed garbage: it may
raise, but it must never crash the interpreter or read out of bounds.  The
calls run in a child process so that a crash fails the test instead of
killing the test run."""
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(r"""
    import numpy as np
    from backgammon import (_board, _movegen, _chain, _perft, _bearoff, _pubeval, _tesauro, _choice, _rollout,
                            _env, _net, _pool, network, pubeval, bearoff)

    rng = np.random.default_rng(0)
    pubeval.load_weights()
    os_db, ts = bearoff.one_sided(), bearoff.two_sided()
    nets = network.default()

    def boards(n, high=256):
        return rng.integers(0, high, size=(n, 2, 25), dtype=np.uint8)

    def call(f, *args, **kw):
        try:
            f(*args, **kw)
        except (ValueError, TypeError, OverflowError, MemoryError, RuntimeError, IndexError, KeyError):
            pass

    ints = [-2**63, -2**31 - 1, -1, 0, 1, 6, 7, 24, 25, 255, 3072, 2**31, 2**63 - 1]
    for trial in range(300):
        b = boards(4, high=rng.choice([2, 4, 16, 256]))
        one = bytes(b[0].reshape(-1))
        i, j = (int(x) for x in rng.choice(ints, 2))
        call(_board.results, b); call(_board.all_home, b); call(_board.first_invalid, b)
        call(_board.is_race, b[0].reshape(-1))
        call(_movegen.step, one, i, j, int(rng.choice(ints)))
        call(_movegen.plays, one, i, j); call(_movegen.count_plays, one, i, j)
        call(_perft.perft, one, int(rng.choice([-1, 0, 1, 5, 10**6])))
        rolls = rng.integers(0, 9, size=(4, 2), dtype=np.uint8)
        offsets = np.zeros(5, dtype=np.int64)
        kids = np.zeros((3072 * 4, 2, 25), dtype=np.uint8)
        call(_movegen.generate_into, b, rolls, 0, offsets, kids, None, True, bool(trial % 2))
        call(_movegen.generate_into, b, rolls, i, offsets, kids, None, True, False)
        call(_chain.Chain, i, j)
        for size in (4, int(rng.integers(0, 6))):
            chain = _chain.Chain(size, int(rng.integers(1, 5)))
            call(_movegen.generate_shared, b, rolls, offsets, kids[:int(rng.choice([0, 10, 3072, 3072 * 4]))],
                 None, True, chain)
            call(_movegen.generate_shared, b, rolls, offsets, kids, None, True, chain)   # a used chain
        call(_bearoff.indices, rng.integers(0, 256, size=(3, 6), dtype=np.uint8))
        call(_bearoff.board_indices, b, i, j); call(_bearoff.board_indices, b, 1, 15)
        call(_bearoff.position_of, i)
        idx = rng.integers(-5, 60000, size=4, dtype=np.int32)
        call(_bearoff.gather_rows, os_db.table, idx, np.zeros((4, 32)))
        call(_bearoff.gather, np.zeros(54264), idx, np.zeros(4))
        call(_bearoff.race_estimates, b, os_db.table, os_db.gammon_table, ts.records, int(rng.choice(ints)))
        call(_bearoff.race_estimates, b, os_db.table, os_db.gammon_table, ts.records, ts.checkers)
        call(_bearoff.race_estimates, b[:, :, :], os_db.table[:100], os_db.gammon_table)
        call(_pubeval.pubeval_batch, b); call(_pubeval.pubeval_batch, b, rng.integers(0, 2, 4).astype(np.uint8))
        call(_pubeval.set_weights, rng.normal(size=(int(rng.integers(0, 130)), 2)))
        call(_tesauro.tesauro_inputs, b)
        call(_board.equities, rng.normal(size=(4, int(rng.integers(0, 7)))))
        gen = np.random.default_rng(trial)
        call(_choice.choose_plays, int(rng.integers(-1, 4)), b, rolls, gen if trial % 2 else None, nets)
        key = int(rng.integers(0, 2**63))
        call(_rollout.play_games, b[0].reshape(-1), i, int(rng.integers(-2, 3)), key, int(rng.integers(-1, 4)),
             int(rng.integers(-1, 4)), True, int(rng.integers(-2, 4)), bool(trial % 2), bool(trial % 3 == 0),
             os_db.table, os_db.gammon_table, ts.records, ts.checkers, nets=nets)
        call(_rollout.play_games, b[0].reshape(-1), 0, 2, key, 1, 1, True, -1, True, False)   # no tables
        call(_rollout.lockstep_rolls, np.array([i] * 4, dtype=np.int64), np.array([j] * 4, dtype=np.int64), True, key)
        call(_rollout.lockstep_settle, b, rng.integers(-1, 3, 4).astype(np.int8), np.full(4, i, dtype=np.int64), j,
             os_db.table, os_db.gammon_table, ts.records, ts.checkers)
        call(_rollout.lockstep_luck, nets, b, rolls, rng.integers(-1, 3, 4).astype(np.int8))
        call(_net.evaluate, nets, b, int(rng.integers(-1, 3)))
        call(_net.encode_boards, b)
        call(_net.choose, nets, b, rolls, int(rng.integers(-1, 3)))
        call(_net.rank_plays, nets, b.reshape(4, 50), int(rng.integers(-1, 3)))
        call(_net.rank_plays, nets, np.zeros((0, 50), dtype=np.uint8))
        call(_net.prune_chances, nets, b)
        call(_net.position_classes, b)
        call(_net.train_pruner, nets, b, rng.normal(size=(4, 5)).astype(np.float32),
             rng.integers(-2, 6, size=3).astype(np.int64), 0.0)
        call(setattr, nets, "pruning", int(rng.integers(-2, 20)))
        call(_pool.block, int(rng.choice([-5, 0, 1, 1000])))
        # The environment kernels: garbage boards, dice, uniforms, codes.
        u = rng.choice([-1e300, -1.0, 0.0, 0.5, 0.999999, 1.0, 7.0, np.nan, np.inf], size=(4, 4))
        rolls8 = rng.integers(0, 256, size=(4, 2), dtype=np.uint8)
        offs = np.sort(rng.integers(0, 20, size=5)).astype(np.int64) if trial % 3 else rng.integers(-5, 50, 5)
        def env_state(rows=4):
            return _env.EnvState(b.copy()[:rows], rolls8.copy()[:rows], rng.integers(0, 3, rows).astype(np.uint8),
                                 b.copy()[:rows], rng.integers(0, 256, size=(rows, 2), dtype=np.uint8),
                                 rng.integers(0, 4, rows).astype(np.uint8), np.zeros(rows, np.float32),
                                 np.zeros(rows, np.uint8), np.zeros(rows, np.uint8), u.copy()[:rows],
                                 rng.choice(ints, rows).astype(np.int64))
        call(env_state, 3)
        call(_env.EnvState, b, rolls8, np.zeros(3, np.uint8), b, rolls8, np.zeros(4, np.uint8), np.zeros(4, np.float32),
             np.zeros(4, np.uint8), np.zeros(4, np.uint8), u, np.zeros(4, np.int64))      # a short row
        st = env_state()
        call(_env.env_play, st, offs, kids[:20], rng.choice(ints, 4).astype(np.int64), gen, -3.0, bool(trial % 2))
        call(_env.observations, b, rolls8, np.zeros((4, 210), np.float32))
        call(_env.observations, b, rolls8, np.zeros((3, 210), np.float32))
        for policy in (-1, 0, 1, 2, 3, 4):
            chain = _chain.Chain(4, int(rng.integers(1, 5)))
            call(_env.env_answer, env_state(), policy, rng.choice(ints, 4).astype(np.int64),
                 np.zeros((4, 210), np.float32), np.zeros((4, 3072), np.int8), bool(trial % 2),
                 np.zeros(5, np.int64), kids[:int(rng.choice([0, 100, 3072 * 4]))], chain, nets)
        one = env_state(1)
        call(_env.turn, one, int(rng.choice(ints)), gen, np.zeros((2, 210), np.float32), np.zeros(3072, np.int8),
             np.sort(rng.integers(0, 5, 2)).astype(np.int64), kids[:int(rng.choice([0, 3072]))])
    # The same functions with valid boards must give sane answers.
    from backgammon.sample import random_positions
    good, good_rolls = random_positions(200, seed=3)
    assert (_net.evaluate(nets, good) >= 0).all()
    assert _movegen.count_plays(bytes(good[0].reshape(-1)), 3, 1) >= 1
    print("survived")
""")


def test_kernel_entry_points_never_crash():
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().endswith("survived")
