"""Run the move-generation benchmarks and print our speed as ratios to the peers.

    python benchmarks/peers.py            (needs the bench extra: pip install '.[bench]')

Every figure comes from one pytest-benchmark run on one corpus (corpus.py),
so ours and the peers' are measured side by side on the same machine.
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent

NAMES = {
    "test_batch_legal_positions": "backgammon batch.legal_positions",
    "test_batch_legal_positions_reused_buffer": "backgammon batch, reused buffer, trusted input",
    "test_batch_legal_positions_reused_buffer_validated": "backgammon batch, reused buffer, validated",
    "test_legal_plays_per_call": "backgammon Position.legal_plays per call",
    "test_gnubg_nn_moves_per_call": "gnubg-nn moves() per call",
    "test_open_spiel_legal_actions_per_call": "open-spiel legal_actions() per call (own states)",
    "test_perft_3": "backgammon perft(3) generations",
    "test_self_play[random]": "backgammon random self-play games",
    "test_self_play[pubeval]": "backgammon pubeval self-play games",
    "test_rollout_workers[1]": "backgammon rollout, 1 worker, games",
    "test_rollout_workers[2]": "backgammon rollout, 2 workers, games",
    "test_gnubg_nn_random_self_play": "gnubg-nn random self-play from Python, games",
    "test_open_spiel_random_self_play": "open-spiel random self-play from Python, games",
    "test_build_one_sided": "one-sided bear-off table builds",
    "test_build_two_sided_6": "two-sided (6) bear-off table builds",
    "test_one_sided_batch_lookup[index]": "one-sided bear-off indices from a batch",
    "test_one_sided_batch_lookup[expected_rolls]": "one-sided expected rolls from a batch",
    "test_one_sided_batch_lookup[distribution]": "one-sided distributions from a batch",
    "test_batch_legal_positions_threads[1]": "backgammon batch, threads=1",
    "test_batch_legal_positions_threads[2]": "backgammon batch, threads=2",
    "test_batch_legal_positions_two_processes": "backgammon batch, 2 processes x threads=1",
    "test_open_spiel_turns": "open-spiel backgammon from Python, whole turns",
    "test_pettingzoo_turns[raw_env]": "backgammon PettingZoo raw_env, turns",
    "test_pettingzoo_turns[env]": "backgammon PettingZoo env (wrapped), turns",
    "test_gymnasium_single_turns": "backgammon Gymnasium single env, steps",
    "test_net_batch_evaluate": "backgammon network, batch evaluation (game positions)",
    "test_net_batch_evaluate_random_games": "backgammon network, batch evaluation (random-play corpus)",
    "test_gnubg_nn_probabilities_per_call": "gnubg-nn probabilities() 0-ply per call",
    "test_net_self_play": "backgammon network 0-ply self-play, games",
    "test_gnubg_nn_self_play": "gnubg-nn 0-ply self-play from Python, games",
    "test_net_decision_time[0]": "backgammon net:0 decisions",
    "test_net_decision_time[1]": "backgammon net:1 decisions",
    "test_net_decision_time[2]": "backgammon net:2 decisions",
    "test_gnubg_nn_decision_time": "gnubg-nn best_move 0-ply decisions",
    "test_batch_legal_positions_one_pair": "backgammon batch, one pair per call",
    "test_legal_plays_one_pair": "backgammon Position.legal_plays, one pair per call",
}

# Published figures of peers that cannot run here (games per second, one core).
PUBLISHED = {
    "OpenSpiel C++ random self-play (published)": ("test_self_play[random]", 1_100),
    "BackgammonNet.jl random self-play (published)": ("test_self_play[random]", 4_700),
    "bgsage C++ pubeval self-play (measured in this project)": ("test_self_play[pubeval]", 1_000),
}


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "bench.json"
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(HERE),
               f"--benchmark-json={report}", "--benchmark-min-rounds=3"]
        code = subprocess.call(cmd)
        if code != 0 or not report.exists():
            return code or 1
        data = json.loads(report.read_text())
    rates = {}
    alternating = {}
    for bench in data["benchmarks"]:
        if "threads_over_processes" in bench["extra_info"]:
            alternating[bench["name"]] = bench["extra_info"]["threads_over_processes"]
        # test_variance_reduction measures standard errors, not a rate.
        if "items" in bench["extra_info"]:
            rates[bench["name"]] = bench["extra_info"]["items"] / bench["stats"]["min"]
    print(f"\nMachine: {data['machine_info'].get('cpu', {}).get('brand_raw', '?')}, one thread\n")
    print(f"{'measure':<52}{'per second':>14}")
    for name, rate in rates.items():
        print(f"{NAMES.get(name, name):<52}{rate:>14,.0f}")
    print()
    print()
    for ours, peer in (("test_self_play[random]", "test_gnubg_nn_random_self_play"),
                       ("test_self_play[random]", "test_open_spiel_random_self_play"),
                       ("test_net_self_play", "test_gnubg_nn_self_play"),
                       ("test_net_batch_evaluate", "test_gnubg_nn_probabilities_per_call"),
                       ("test_net_decision_time[0]", "test_gnubg_nn_decision_time")):
        if ours in rates and peer in rates:
            print(f"{NAMES[ours]} / {NAMES[peer]}: {rates[ours] / rates[peer]:.1f}x")
    for label, (ours, figure) in PUBLISHED.items():
        if ours in rates:
            print(f"{NAMES[ours]} / {label}: {rates[ours] / figure:.1f}x")
    if "test_batch_legal_positions_threads[1]" in rates and "test_batch_legal_positions_threads[2]" in rates:
        one = rates["test_batch_legal_positions_threads[1]"]
        print(f"batch.legal_positions speed-up with 2 threads: "
              f"{rates['test_batch_legal_positions_threads[2]'] / one:.2f}x")
        if "test_batch_legal_positions_two_processes" in rates:
            print(f"  (two processes on this machine: {rates['test_batch_legal_positions_two_processes'] / one:.2f}x)")
    one, two = (rates.get(f"test_batch_legal_positions_threads_random_games[{k}]") for k in (1, 2))
    if one and two:
        print(f"the same on 100,000 random-game pairs: {two / one:.2f}x")
    for entry in ("raw_env", "env"):
        name = f"test_pettingzoo_turns[{entry}]"
        if name in rates and "test_open_spiel_turns" in rates:
            print(f"{NAMES[name]} / {NAMES['test_open_spiel_turns']}: {rates[name] / rates['test_open_spiel_turns']:.2f}x")
    for name, rate in rates.items():
        if name.startswith("test_vector_env_steps["):
            copy, opponent, threads = name[len("test_vector_env_steps["):-1].split("-")
            print(f"vector env, N = 1,024, {opponent} opponent, {copy}, threads={threads}: {rate:,.0f} steps/s")
    for size in ("10k", "100k", "300k", "1M"):
        two, procs = (rates.get(f"test_batch_legal_positions_scaling[{m}-{size}]") for m in ("threads2", "processes2"))
        if two and procs:
            print(f"batch.legal_positions, {size} random-game pairs: threads=2 at {two / procs:.0%} of two processes")
    for name, ratio in alternating.items():
        print(f"batch.legal_positions, {name[name.index('[') + 1:-1]} random-game pairs, alternating rounds: "
              f"threads=2 at {ratio:.0%} of two processes")
    for size in ("100k", "1M"):
        first, later = (rates.get(f"test_batch_legal_positions_first_call[{f}-{size}]") for f in ("True", "False"))
        if first and later:
            print(f"first call of {size} pairs (fresh memory) / later calls: {later / first:.2f}x the time")
    if "test_batch_legal_positions_one_pair" in rates:
        one = rates["test_batch_legal_positions_one_pair"]
        line = f"one pair through the batch API: {1e6 / one:.2f} us a call"
        if "test_legal_plays_one_pair" in rates:
            line += f" (Position.legal_plays: {1e6 / rates['test_legal_plays_one_pair']:.2f} us)"
        print(line)
    if "test_gnubg_nn_moves_per_call" in rates and "test_batch_legal_positions_threads[2]" in rates:
        print(f"backgammon batch, threads=2 / gnubg-nn moves() per call: "
              f"{rates['test_batch_legal_positions_threads[2]'] / rates['test_gnubg_nn_moves_per_call']:.1f}x")
    for kind in ("plain", "variance-reduced"):
        ours = rates.get(f"test_native_rollout[builtin-{kind}]")
        for who in ("native", "native-pruned"):
            theirs = rates.get(f"test_native_rollout[{who}-{kind}]")
            if ours and theirs:
                print(f"{kind} rollout, third-party evaluator ({who}) / built-in networks: {theirs / ours:.0%}")
    for who in ("native", "native-pruned"):
        ours, theirs = rates.get("test_native_decisions[builtin]"), rates.get(f"test_native_decisions[{who}]")
        if ours and theirs:
            print(f"0-ply decisions on the same positions, third-party evaluator ({who}) / built-in networks: "
                  f"{theirs / ours:.0%}")
    for ply in (1, 2):
        name = f"test_net_decision_time[{ply}]"
        if name in rates:
            print(f"time per decision at {ply}-ply: {1000 / rates[name]:.1f} ms")
    if "test_rollout_workers[1]" in rates and "test_rollout_workers[2]" in rates:
        print(f"rollout speed-up with 2 workers: {rates['test_rollout_workers[2]'] / rates['test_rollout_workers[1]']:.2f}x")
    for peer in ("test_gnubg_nn_moves_per_call", "test_open_spiel_legal_actions_per_call"):
        if peer not in rates:
            print(f"{NAMES[peer]}: not installed, no ratio")
            continue
        for ours in ("test_legal_plays_per_call", "test_batch_legal_positions",
                     "test_batch_legal_positions_reused_buffer",
                     "test_batch_legal_positions_reused_buffer_validated"):
            if ours in rates:
                print(f"{NAMES[ours]} / {NAMES[peer]}: {rates[ours] / rates[peer]:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
