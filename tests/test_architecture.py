"""The package's seams (docs/design.md, "Layers"): which module may import
which, no module reaching into another's private names, citations of
files that exist, and a player added from outside the package reaching
every tool by its spec."""
from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import backgammon as bg

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "backgammon"

# The layers, lowest first; a module may import its own layer and those below.
LAYERS = {
    "foundation": ["errors", "_validate", "_parallel"],
    "values and rules": ["position", "play", "dice", "batch", "perft", "bearoff", "rules", "game", "match",
                         "matchid", "met", "chouette", "sample", "ogid", "position_types", "scoring", "doubling", "turn"],
    "players and evaluators": ["evaluator", "evaluation", "network", "pubeval", "hint", "cube", "resignation",
                               "players", "peers", "duel", "rollouts", "lockstep", "train", "janowski", "cube_search"],
    "formats": ["formats", "mat", "sgf", "xgid", "fibs"],
    "analysis": ["analysis", "statistics", "luck"],
    "services": ["cli", "__main__", "ubgi", "web", "env"],
}
RANK = {name: rank for rank, names in enumerate(LAYERS.values()) for name in names}


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield path, ["backgammon", *parts]


def _imports(path: Path, name: list[str]):
    """(line, imported module path, imported names) of every import, at
    any depth (imports inside functions count)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                target = base + (node.module.split(".") if node.module else [])
            else:
                target = (node.module or "").split(".")
            names = []
            for a in node.names:
                if target[:1] == ["backgammon"] and _is_module(target + [a.name]):
                    yield node.lineno, target + [a.name], []      # a module of a package
                else:
                    names.append(a.name)
            if names:
                yield node.lineno, target, names
        elif isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name.split("."), []


def _is_module(parts: list[str]) -> bool:
    base = PACKAGE.joinpath(*parts[1:])
    return base.with_suffix(".py").exists() or (base / "__init__.py").exists() or any(
        PACKAGE.glob("/".join(parts[1:]) + ".*.so")) or base.with_suffix(".pyi").exists() or (
        len(parts) == 2 and (ROOT / "src" / "backgammon" / (parts[1] + ".pyx")).exists())   # a kernel, built elsewhere


def _layer(parts: list[str]) -> int | None:
    """The layer of a package module; None for kernels (below everything)
    and the package root (which re-exports every layer)."""
    if len(parts) < 2 or parts[0] != "backgammon":
        return None
    top = parts[1]
    if top.startswith("_") and top not in RANK:
        return None                    # a kernel (an extension module)
    return RANK[top]


def test_every_module_has_a_layer():
    for path, name in _modules():
        if len(name) > 1:
            assert name[1] in RANK or name[1].startswith("_"), f"{path}: give {name[1]} a layer in this test"


def test_no_module_imports_a_higher_layer():
    wrong = []
    for path, name in _modules():
        mine = _layer(name)
        if mine is None:
            continue
        for line, target, names in _imports(path, name):
            if target[:1] != ["backgammon"]:
                continue
            if len(target) == 1:           # the package root: only its version
                if names != ["__version__"]:
                    wrong.append(f"{path.name}:{line} imports {names} from the package root")
                continue
            theirs = _layer(target)
            if theirs is not None and theirs > mine:
                wrong.append(f"{'.'.join(name)}:{line} ({list(LAYERS)[mine]}) imports {'.'.join(target)} "
                             f"({list(LAYERS)[theirs]})")
    assert not wrong, "\n".join(wrong)


def test_no_module_imports_another_modules_private_name():
    wrong = []
    for path, name in _modules():
        for line, target, names in _imports(path, name):
            if target[:1] != ["backgammon"] or target == name:
                continue
            for n in names:
                if n.startswith("_") and not n.startswith("__") and not _is_module(target + [n]):
                    wrong.append(f"{'.'.join(name)}:{line} imports {n} from {'.'.join(target)}")
    assert not wrong, "\n".join(wrong)


def test_the_layering_test_catches_an_upward_import(tmp_path):
    # The checks above read real imports: an upward one is found.
    fake = tmp_path / "game.py"
    fake.write_text("from .cli import main\nfrom .batch import _outputs\n")
    found = list(_imports(fake, ["backgammon", "game"]))
    assert found[0][1] == ["backgammon", "cli"] and _layer(found[0][1]) > _layer(["backgammon", "game"])
    assert found[1][2] == ["_outputs"] and not _is_module(["backgammon", "batch", "_outputs"])


# Names with a leading underscore that are public by convention (namedtuple's API).
PUBLIC_UNDERSCORED = {"_make", "_replace", "_asdict", "_fields"}


def _bindings(tree: ast.AST, name: list[str], path: Path) -> dict[str, list[str]]:
    """The local names a module binds to backgammon modules and their
    names by importing them: {local name: module path}."""
    package = name if path.name == "__init__.py" else name[:-1]
    bound: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = (package[:len(package) - node.level + 1] + (node.module.split(".") if node.module else [])
                      if node.level else (node.module or "").split("."))
            if target[:1] == ["backgammon"] and target != name:
                for a in node.names:
                    bound[a.asname or a.name] = target
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "backgammon" and a.asname:
                    bound[a.asname] = a.name.split(".")
    return bound


def _private_attributes(path: Path, name: list[str]):
    """(line, text) of each ``X._private`` where X is a name imported from
    another backgammon module: a reach into its private parts."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bound = _bindings(tree, name, path)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound
                and node.attr.startswith("_") and not node.attr.startswith("__")
                and node.attr not in PUBLIC_UNDERSCORED):
            yield node.lineno, f"{node.value.id}.{node.attr}"


def test_no_module_reaches_into_another_modules_private_attributes():
    wrong = [f"{'.'.join(name)}:{line} uses {text}" for path, name in _modules()
             for line, text in _private_attributes(path, name)]
    assert not wrong, "\n".join(wrong)


def test_the_private_attribute_check_catches_a_reach(tmp_path):
    fake = tmp_path / "cube.py"
    fake.write_text("from .position import Position\nfrom . import _board\n"
                    "Position._from_bytes(b'')\n_board._secret\nPosition.from_bytes(b'')\nx._y\n")
    found = [text for _, text in _private_attributes(fake, ["backgammon", "cube"])]
    assert sorted(found) == ["Position._from_bytes", "_board._secret"]


def _runtime_imports(path: Path, name: list[str]) -> set[str]:
    """The backgammon modules a module imports when it runs (at any depth;
    ``if TYPE_CHECKING:`` blocks, which never run, left out), the package
    root aside (it re-exports every layer)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []
    out = set()
    for _, target, _names in _imports_tree(tree, path, name):
        if target[:1] != ["backgammon"] or len(target) < 2:
            continue
        while len(target) > 1 and not _is_module(target):
            target = target[:-1]          # a name of a module: the module
        if target != name:
            out.add(".".join(target))
    return out


def _imports_tree(tree: ast.AST, path: Path, name: list[str]):
    package = name if path.name == "__init__.py" else name[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = (package[:len(package) - node.level + 1] + (node.module.split(".") if node.module else [])
                      if node.level else (node.module or "").split("."))
            for a in node.names:
                full = target + [a.name]
                yield node.lineno, full if target[:1] == ["backgammon"] and _is_module(full) else target, [a.name]
        elif isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name.split("."), []


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _docstring_lines(source: str) -> int:
    """How many lines of ``source`` are docstrings (a module's, class's or
    function's, and the attribute docstrings after assignments)."""
    lines = set()
    for node in ast.walk(ast.parse(source)):
        for stmt in getattr(node, "body", []) if isinstance(getattr(node, "body", None), list) else []:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                lines.update(range(stmt.lineno, stmt.end_lineno + 1))
    return len(lines)


def test_no_python_module_over_700_lines():
    # One job per module (docs/design.md, "Layers"): none grows past 700
    # lines of code.  Docstrings do not count: the API reference (issue 45,
    # numpy style with Parameters, Returns, Raises and Examples) lives in
    # them and must not split a module.
    long = []
    for path, _ in _modules():
        source = path.read_text(encoding="utf-8")
        n = len(source.splitlines()) - _docstring_lines(source)
        if n > 700:
            long.append(f"{path.relative_to(ROOT)}: {n} lines besides docstrings")
    assert not long, "\n".join(long)


def test_the_line_count_leaves_out_docstrings_only():
    source = 'def f():\n    """Doc.\n\n    More.\n    """\n    return 1\n\nX = 1\n"""X\'s doc."""\n'
    assert _docstring_lines(source) == 5 and len(source.splitlines()) == 9


def test_no_import_circles():
    graph = {".".join(name): _runtime_imports(path, name) for path, name in _modules()}
    assert not _circles(graph), _circles(graph)


def test_the_circle_check_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


CITATION = re.compile(r"\b((?:docs/)?[A-Za-z_][\w./-]*\.md)\b")


def test_citations_name_files_that_exist():
    # Comments and docstrings cite the project's own documents.
    missing = []
    files = [p for p in (ROOT / "src").rglob("*") if p.suffix in (".pyx", ".pxd", ".h")]
    files += list(PACKAGE.rglob("*.py")) + list(PACKAGE.rglob("*.pyi")) + list((ROOT / "tests").glob("*.py"))
    files += list((ROOT / "benchmarks").glob("*.py")) + list((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
    for path in files:
        if path.name == "test_architecture.py":
            continue
        for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for cited in CITATION.findall(line):
                if cited in ("backgammon/RULES.md", "RULES.md") or cited.startswith(("http", "www.")):
                    continue          # the installed copy of docs/rules.md
                if not any((base / cited).exists() for base in (ROOT, ROOT / "docs", path.parent)):
                    missing.append(f"{path.relative_to(ROOT)}:{k} cites {cited}")
    assert not missing, "\n".join(missing)


# -- one rule in one place -------------------------------------------------------------------

def test_position_and_batch_validate_boards_alike():
    # One home for board validation: a Position and the batch calls accept
    # and refuse the same inputs (whole-number floats included).
    from backgammon import batch
    from backgammon.sample import random_positions
    rng = np.random.default_rng(5)
    boards, _ = random_positions(300, seed=4)
    seen = set()
    for k, board in enumerate(boards):
        a = board.astype(np.int64)
        change = k % 5
        if change == 1:
            a[rng.integers(2), rng.integers(25)] += rng.integers(1, 4)          # too many, or a shared point
        elif change == 2:
            a[rng.integers(2), rng.integers(25)] = -1
        dtype = [np.int64, np.uint8, np.float64, np.int8, object][k % 5]
        a = a.astype(dtype) if not (dtype is np.uint8 and a.min() < 0) else a
        if k % 7 == 3 and a.dtype == np.float64:
            a = a + 0.5
        outcomes = []
        for f in (lambda: bg.Position.from_array(a), lambda: batch.validate_boards(a[None]),
                  lambda: batch.legal_positions(a[None], [(3, 1)]), lambda: bg.evaluate(a[None])):
            try:
                f()
                outcomes.append("ok")
            except bg.InvalidPositionError:
                outcomes.append("refused")
        assert len(set(outcomes)) == 1, (k, a.dtype, outcomes)
        seen.add(outcomes[0])
    assert seen == {"ok", "refused"}


def test_a_player_must_choose():
    from backgammon.players import Player

    class Idle(Player):
        pass

    with pytest.raises(TypeError, match="must override choose"):
        Idle()


def test_a_users_evaluator_reaches_every_tool():
    calls = []

    def race_only(boards):
        calls.append(len(boards))
        pips = (boards[:, 1] * np.arange(1, 26)).sum(axis=1) - (boards[:, 0] * np.arange(1, 26)).sum(axis=1)
        win = 1 / (1 + np.exp(pips / 20))          # fewer pips to go: better
        return np.column_stack([win, np.zeros((len(boards), 4))])

    pos = bg.Position.initial()
    e = bg.evaluate(pos, evaluator=race_only)
    assert e.win == pytest.approx(0.5) and calls
    assert bg.evaluate(pos, 1, evaluator=race_only).win == pytest.approx(0.5, abs=0.2)
    ranked = bg.hint(pos, "61", evaluator=race_only)
    assert len(ranked) == len(pos.legal_plays("61"))
    assert ranked[0].equity == max(r.equity for r in ranked) == pytest.approx(1 - 2 / (1 + np.exp(7 / 20)))
    assert bg.cube_decision(pos, evaluator=race_only).action == "no double"
    # A pip count alone makes players hit forever; these two play with
    # pubeval's judgement in a user's callable.
    from backgammon.evaluator import PubevalEvaluator
    from backgammon.players import EvaluatorPlayer
    judge = PubevalEvaluator()
    seen = []

    def users(boards):
        seen.append(len(boards))
        return np.asarray(judge(boards))

    r = bg.rollout(games=40, seed=1, evaluator=users)
    assert r.games == 40 and seen
    d = bg.duel(EvaluatorPlayer(users), "random", games=20, seed=1)
    assert d.games == 20 and d.ppg > 0


def test_resignations_are_answered_alike_everywhere():
    # The UBGI engine and the players answer by the one rule.
    import io
    from backgammon import resignation
    from backgammon.sample import random_positions
    from backgammon.ubgi import serve
    boards, _ = random_positions(3000, seed=7)
    eq = bg.evaluate(boards).equity
    # Half losing more than a single game (a single resigned is refused), half not.
    pick = np.concatenate([np.flatnonzero(eq < -1.05)[:30], np.flatnonzero(eq > -0.9)[:30]])
    net = bg.player("net")
    lines, expected = [], []
    for b in boards[pick]:
        pos = bg.Position.from_array(b)
        for level in (1, 2):
            state = bg.MatchState(game_state=bg.GameState.PLAYING, resignation=level, turn=1, on_roll=0)
            lines += [f"position gnubgid {pos.to_id()}:{state.to_match_id()}", "go resign"]
            expected.append(resignation.accepts(pos, level))
            assert net.accept_resignation(pos, level) == expected[-1]
    out = io.StringIO()
    serve(io.StringIO("\n".join(lines + ["quit"]) + "\n"), out, "net")
    answers = [line.split()[1] == "accept" for line in out.getvalue().splitlines() if line.startswith("bestresign")]
    assert answers == expected and any(expected) and not all(expected)


def test_game_apply_checks_whose_action_it_is():
    g = bg.Game()
    g.apply(bg.Event("opening", -1, (3, 1)))
    with pytest.raises(bg.RulesError, match="player 1"):
        g.apply(bg.Event("play", 1, "8/5 6/5"))
    g.apply(bg.Event("play", 0, "8/5 6/5"))
    with pytest.raises(bg.RulesError, match="unknown event"):
        g.apply(bg.Event("dance", 1))
    with pytest.raises(TypeError, match="event"):
        g.apply(("roll", 1, (3, 1)))
    again = bg.Game.replay(g.history)
    assert again.position == g.position and again.history == g.history


# -- a player from outside the package ------------------------------------------------------------

PLUGIN = textwrap.dedent('''
    import numpy as np
    from backgammon.players import Player

    class LastPlay(Player):
        """Always the last play the move generator lists."""

        def choose_indices(self, boards, rolls):
            from backgammon.batch import legal_positions
            offsets, _ = legal_positions(boards, rolls, validate=False, threads=1)
            return np.diff(offsets) - 1

    def make(arg, seed):
        return LastPlay()
''')


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory):
    """A package installed nowhere but on PYTHONPATH, declaring the player
    ``lastplay`` through the ``backgammon.players`` entry point group."""
    root = tmp_path_factory.mktemp("plugin")
    (root / "lastplay_plugin.py").write_text(PLUGIN)
    info = root / "lastplay_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lastplay-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[backgammon.players]\nlastplay = lastplay_plugin:make\n")
    return str(root)


def _run(args, plugin_path, stdin=None):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([plugin_path, os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300, env=env, input=stdin)


def test_a_plugin_player_reaches_every_tool(plugin_path):
    script = textwrap.dedent('''
        import json
        import gymnasium
        import backgammon as bg, backgammon.env
        from fastapi.testclient import TestClient
        from backgammon.web import create_app
        out = {}
        out["duel"] = bg.duel("lastplay", "random", games=20, seed=1, workers=2).games
        out["rollout"] = bg.rollout(games=30, policy="lastplay", seed=1, workers=2).games
        out["rollout_same"] = bg.rollout(games=30, policy="lastplay", seed=1, workers=1).equity == \\
            bg.rollout(games=30, policy="lastplay", seed=1, workers=2).equity
        e = gymnasium.make(backgammon.env.ENV_ID, opponent="lastplay")
        e.reset(seed=1)
        out["env"] = type(e.unwrapped.opponent).__name__
        client = TestClient(create_app())
        r = client.post("/api/games", json={"player": "lastplay", "seed": 3})
        out["web"] = (r.status_code, r.json()["player"])
        m = client.get("/api/move", params={"position": "4HPwATDgc/ABMA", "dice": "31", "player": "lastplay"})
        plays = [str(p) for p in bg.Position.initial().legal_plays("31")]
        out["web_move"] = m.json()["choice"] == plays[-1]
        print(json.dumps(out))
    ''')
    r = _run(["-c", script], plugin_path)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out == {"duel": 20, "rollout": 30, "rollout_same": True, "env": "LastPlay",
                   "web": [201, "lastplay"], "web_move": True}
    cli = _run(["-m", "backgammon", "duel", "lastplay", "pubeval", "--games", "10", "--workers", "1", "--json"],
               plugin_path)
    assert cli.returncode == 0 and json.loads(cli.stdout)["a"] == "lastplay", cli.stderr[-2000:]
    cli = _run(["-m", "backgammon", "rollout", "--policy", "lastplay", "--games", "20", "--workers", "1", "--json"],
               plugin_path)
    assert cli.returncode == 0 and json.loads(cli.stdout)["games"] == 20, cli.stderr[-2000:]
    ubgi = _run(["-m", "backgammon", "ubgi", "--player", "lastplay"], plugin_path,
                stdin="position gnubgid 4HPwATDgc/ABMA:cAkAAAAAAAAA\ndice 3 1\ngo\nquit\n")
    last = str(bg.Position.initial().legal_plays("31")[-1])
    from backgammon.ubgi import format_move
    assert ubgi.stdout.strip().splitlines()[-1] == "bestmove " + format_move(bg.Position.initial().parse_play(last, "31"))


def test_no_kernel_over_900_lines():
    # One job a kernel module (issue 42): the network kernel was split in four.
    for path in sorted((ROOT / "src" / "backgammon").glob("*.pyx")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= 900, f"{path.name}: {lines} lines"
