"""UBGI, the UCI-like engine protocol of bkgm and gnubg-ubgi ("proto 0.2"),
both ways: :func:`serve` makes any of the project's players an engine on
standard input and output (``backgammon ubgi --player net:1``), and
:class:`UbgiPlayer` (``player("ubgi:COMMAND")``) runs any external UBGI
engine as a player, for duels against other programs.  docs/ubgi.md has
the commands.

>>> import io
>>> out = io.StringIO()
>>> position = "position gnubgid 4HPwATDgc/ABMA:cAkAAAAAAAAA"
>>> commands = f"ubgi\\n{position}\\ndice 3 1\\ngo\\nquit\\n"
>>> serve(io.StringIO(commands), out, "pubeval")
>>> out.getvalue().splitlines()[-1]
'bestmove 8/5 6/5'
"""
from __future__ import annotations

import queue
import shlex
import subprocess
import threading
from typing import IO

import numpy as np

from ._validate import instance
from .dice import to_dice
from .errors import BackgammonError
from .formats.codes import read_position
from .matchid import GameState, MatchState
from .players import SPECS, Player, player
from .play import Play
from .position import Position

__all__ = ["serve", "UbgiPlayer", "UbgiError", "format_move", "ubgi_player", "PROTOCOL"]

PROTOCOL = "0.2"
NAME = "backgammon"


class UbgiError(BackgammonError, RuntimeError):
    """An external engine that does not answer as UBGI says, or not in time
    (also a ``RuntimeError``).

    Examples
    --------
    >>> import sys
    >>> UbgiPlayer(f"{sys.executable} -c pass", timeout=10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    backgammon.ubgi.UbgiError: the engine '...' stopped while answering 'ubgi'
    """


def format_move(play) -> str:
    """A play in UBGI's move format: every single-die step written out as
    ``from/to`` (no repeats in parentheses, no hit marks), ``bar`` and
    ``off``; ``pass`` for a turn with no move.

    Examples
    --------
    >>> format_move(Position.initial().parse_play("13/7(2) 8/2(2)", "66"))
    '13/7 13/7 8/2 8/2'
    """
    if type(play) is not Play:
        instance("play", play, Play, "backgammon.Play")
    steps = [f"{'bar' if f == 25 else f}/{'off' if t == 0 else t}" for f, t, _ in play.steps]
    return " ".join(steps) if steps else "pass"


class _Engine:
    """The state of one UBGI session on our side."""

    def __init__(self, spec: str):
        self.spec = spec
        self.player = player(spec)
        self.position = Position.initial()
        self.state = MatchState(game_state=GameState.PLAYING)
        self.dice: tuple[int, int] | None = None

    def keys(self) -> list[str]:
        choices = "|".join(s for s in SPECS if s != "gnubg")
        return [f"key player enum {choices} {self.spec}"]

    def handle(self, line: str) -> list[str] | None:
        """Replies to one command line; None means quit."""
        words = line.split()
        if not words:
            return []
        cmd, args = words[0], words[1:]
        if cmd == "quit":
            return None
        if cmd == "ubgi":
            from . import __version__
            return [f"id name {NAME} ({self.spec})", "id author the backgammon authors", f"id version {__version__}",
                    f"proto {PROTOCOL}", *self.keys(), "ubgiok"]
        if cmd == "isready":
            return ["readyok"]
        if cmd == "newgame":
            self.position, self.state, self.dice = Position.initial(), MatchState(game_state=GameState.PLAYING), None
            return []
        if cmd == "keys":
            return self.keys()
        if cmd == "get":
            if args == ["player"]:
                return [f"value player {self.spec}"]
            return ["error unsupported key"]
        if cmd == "set":
            if len(args) != 2 or args[0] != "player":
                return ["error unsupported key" if args else "error bad_command set"]
            if args[1].partition(":")[0] == "ubgi":
                # Whoever writes to this engine (a GUI, a server relaying its
                # users' options) must not start programs: an engine behind
                # this one is chosen on the command line (--player) only.
                return ["error bad_value player"]
            try:
                self.player = player(args[1])
            except ValueError:
                return ["error bad_value player"]
            self.spec = args[1]
            return []
        if cmd == "position":
            return self._position(args)
        if cmd == "dice":
            try:
                if len(args) != 2 or not all(a.isdigit() for a in args):
                    raise ValueError
                self.dice = to_dice((int(args[0]), int(args[1])))
            except ValueError:
                return ["error bad_value dice"]
            return []
        if cmd == "go":
            what = args[0] if args else "chequer"
            if what in ("chequer", "checker", "move"):
                return [self._best_move()]
            if what == "cube":
                return [self._best_cube()]
            if what == "resign":
                return [self._best_resign()]
            return ["error bad_command go"]
        if cmd == "stop":
            return []
        return [f"error bad_command {cmd[:40]}"]

    def _position(self, args: list[str]) -> list[str]:
        # Any position code (gnubgid: Position ID[:Match ID], xgid, ogid, fibs),
        # read by the one reader the command line and the web use too.
        if len(args) != 2 or args[0] not in ("gnubgid", "xgid", "ogid", "fibs"):
            return ["error bad_command position"]
        try:
            position, state = read_position(args[1])
        except ValueError:
            return ["error bad_value position"]
        if state is None:
            state = MatchState(game_state=GameState.PLAYING)
        self.position, self.state = position, state
        self.dice = state.dice if state.dice != (0, 0) else None
        return []

    def _best_move(self) -> str:
        if self.dice is None:
            return "error bad_state missing.dice"
        if self.position.is_game_over():
            return "error bad_state game.over"
        # At a match score the player ranks by match equity (Player.choose_at).
        return "bestmove " + format_move(self.player.choose_at(self.position, self.dice, self.state))

    def _best_cube(self) -> str:
        if self.position.is_game_over():
            return "error bad_state game.over"
        try:
            if self.state.double_offered:
                # The side on turn answers the double: its view is the
                # opponent's of the position, whose on-roll side doubled.
                decision = self.player.cube_action(self.position, self.state.replace(double_offered=False))
                return f"bestcube {decision.take}"
            decision = self.player.cube_action(self.position, self.state)
        except ValueError:
            return "error bad_state cube"
        return "bestcube " + ("double" if decision.should_double and decision.can_double else "roll")

    def _best_resign(self) -> str:
        level = self.state.resignation
        if not level:
            return "error bad_state no.resignation"
        # The side on turn answers the resignation of the side on roll (the
        # resigner's position), by the one rule (``resignation.accepts``).
        accept = self.player.accept_resignation(self.position, level, self.state.replace(resignation=0))
        return "bestresign " + ("accept" if accept else "reject")


def serve(stdin: IO[str], stdout: IO[str], spec: str = "net") -> None:
    """Be a UBGI engine: answer UBGI commands from ``stdin`` on ``stdout``
    until ``quit`` or the end of input.

    A malformed line gets an ``error ...`` line and the engine carries on.
    ``backgammon ubgi --player SPEC`` runs this.

    Parameters
    ----------
    stdin, stdout : text file
        Where the commands come from and the answers go.
    spec : str, default "net"
        The player behind the engine (any spec of
        :func:`~backgammon.players.player`).

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:62:0:0:0:0:10"
    >>> serve(io.StringIO(f"ubgi\\nposition xgid {xgid}\\ngo\\nquit\\n"), out)
    >>> out.getvalue().splitlines()[-1]
    'bestmove 24/18 13/11'
    """
    engine = _Engine(spec)
    for line in stdin:
        try:
            replies = engine.handle(line.strip())
        except Exception as e:   # noqa: BLE001 -- an engine never dies of a bad line
            replies = [f"error internal {type(e).__name__}"]
        if replies is None:
            break
        for reply in replies:
            stdout.write(reply + "\n")
        stdout.flush()


class UbgiPlayer(Player):
    """An external UBGI engine as a player (spec ``ubgi:COMMAND``).

    It starts the engine, shakes hands (``ubgi`` ... ``ubgiok``,
    ``isready`` ... ``readyok``) and asks it for each play
    (``position gnubgid``, ``dice``, ``go``).

    Parameters
    ----------
    command : str
        The engine's command line (split as a shell would).
    timeout : float, default 30.0
        Seconds every answer must come within.

    Raises
    ------
    UbgiError
        The engine does not start, answer the handshake or a request as
        UBGI says, or in time.

    Examples
    --------
    This package's own engine, as another program would run it:

    >>> import sys, backgammon as bg
    >>> engine = UbgiPlayer(f"{sys.executable} -m backgammon ubgi --player pubeval")
    >>> str(engine.choose(bg.Position.initial(), "31"))
    '8/5 6/5'
    >>> engine.close()
    """

    def __init__(self, command: str, timeout: float = 30.0):
        if not isinstance(command, str) or not command.strip():
            raise ValueError("command: give the engine's command line, e.g. 'ubgi:python -m backgammon ubgi'")
        self.spec = f"ubgi:{command}"
        self.timeout = timeout
        try:
            self._proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as e:
            raise ValueError(f"command: cannot start {command!r}: {e}") from None
        self._lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.name = command
        try:
            for line in self._ask("ubgi", until="ubgiok"):
                if line.startswith("id name "):
                    self.name = line[8:]
            self._ask("isready", until="readyok")
        except UbgiError:
            self.close()
            raise

    def _read(self) -> None:
        assert self._proc.stdout is not None     # opened with stdout=PIPE
        for line in self._proc.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def _send(self, line: str) -> None:
        assert self._proc.stdin is not None      # opened with stdin=PIPE
        try:
            self._proc.stdin.write(line + "\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise UbgiError(f"the engine {self.name!r} has stopped") from None

    def _ask(self, line: str, until: str) -> list[str]:
        """Send ``line``; return the lines up to one starting with ``until``."""
        self._send(line)
        got = []
        while True:
            try:
                reply = self._lines.get(timeout=self.timeout)
            except queue.Empty:
                raise UbgiError(f"the engine {self.name!r} did not answer {line!r} within {self.timeout} s") from None
            if reply is None:
                raise UbgiError(f"the engine {self.name!r} stopped while answering {line!r}")
            got.append(reply)
            if reply.startswith(until):
                return got
            if reply.startswith("error"):
                raise UbgiError(f"the engine {self.name!r} answered {line!r} with {reply!r}")

    def choose(self, position: Position, roll):
        return self.choose_at(position, roll)

    def choose_at(self, position: Position, roll, state=None, rules=None):
        """The engine's play; with ``state`` the engine is told the cube and
        score (the Match ID of ``position gnubgid``), so it can play for them."""
        d1, d2 = to_dice(roll)
        plays = position.legal_plays((d1, d2))
        if not len(plays):
            raise ValueError("position: the game is over, there is no play to choose")
        if state is None:
            state = MatchState(game_state=GameState.PLAYING, dice=(d1, d2))
        else:
            state = instance("state", state, MatchState, "backgammon.MatchState").replace(
                game_state=GameState.PLAYING, dice=(d1, d2), turn=state.on_roll, double_offered=False, resignation=0)
        self._send(f"position gnubgid {position.to_id()}:{state.to_match_id()}")
        self._send(f"dice {d1} {d2}")
        answer = self._ask("go", until="bestmove")[-1][len("bestmove"):].strip()
        if answer in ("", "pass"):
            if len(plays) == 1 and not plays[0].moves:
                return plays[0]
            raise UbgiError(f"the engine {self.name!r} passed with {d1}-{d2} although a play is legal")
        text = " ".join(_pair(token) for token in _pairs(answer))
        try:
            return position.parse_play(text, (d1, d2))
        except ValueError as e:
            raise UbgiError(f"the engine {self.name!r} played {answer!r}, not legal with {d1}-{d2}: {e}") from None

    def choose_indices(self, boards, rolls):
        out = np.zeros(len(boards), dtype=np.int64)
        for i, (board, roll) in enumerate(zip(boards, rolls)):
            pos = Position.from_array(board)
            dice = (int(roll[0]), int(roll[1]))
            play = self.choose(pos, dice)
            out[i] = pos.legal_plays(dice).find(play.position)
        return out

    def close(self) -> None:
        proc = getattr(self, "_proc", None)
        if proc is None or proc.poll() is not None:
            return
        try:
            self._send("quit")
            proc.wait(timeout=2)
        except (UbgiError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001
            pass


def ubgi_player(arg, seed=None) -> UbgiPlayer:
    """The factory of ``player("ubgi:COMMAND")`` (registered through the
    ``backgammon.players`` entry point).

    Examples
    --------
    >>> import sys, backgammon as bg
    >>> command = f"{sys.executable} -m backgammon ubgi --player pubeval"
    >>> engine = bg.player(f"ubgi:{command}")
    >>> type(engine).__name__
    'UbgiPlayer'
    >>> engine.close()
    """
    if not arg:
        raise ValueError("spec must give the engine's command after 'ubgi:', e.g. 'ubgi:python -m backgammon ubgi'")
    return UbgiPlayer(arg)


def _pairs(answer: str) -> list[str]:
    """``8/5 6/5``, ``8-5 6-5`` or ``8 5 6 5`` as ``["8/5", "6/5"]``."""
    tokens = answer.replace("-", "/").split()
    if all("/" in t for t in tokens):
        return tokens
    flat = [p for t in tokens for p in t.split("/")]
    if len(flat) % 2:
        raise UbgiError(f"cannot read the move {answer!r}")
    return [f"{a}/{b}" for a, b in zip(flat[::2], flat[1::2])]


def _pair(token: str) -> str:
    a, _, b = token.partition("/")
    a = "bar" if a in ("25", "bar") else a
    b = "off" if b in ("0", "off") else b
    return f"{a}/{b}"
