"""What every command shares: the one-line error (:class:`CommandError`,
its exit status), the position code and roll of a command line, files
checked before the work and written whole, and the report's header."""
from __future__ import annotations

import json
import os
import re
import sys

from .._files import write_atomically
from ..errors import BackgammonError
from ..formats.codes import read_position

__all__ = ["CommandError", "USAGE", "FAILURE", "INITIAL_ID", "usage", "code_of", "roll_of", "check_input",
           "check_output", "write_atomically", "wrap", "header", "print_json", "show_progress", "partial_advice"]

INITIAL_ID = "4HPwATDgc/ABMA"

#: The exit status of a command line at fault (as argparse's) and of a failure while working.
USAGE, FAILURE = 2, 1


class CommandError(BackgammonError):
    """A failure to report in one line, with its exit status."""

    def __init__(self, message: str, status: int = FAILURE):
        super().__init__(message)
        self.status = status


def usage(message: str) -> CommandError:
    return CommandError(message, USAGE)


def code_of(args):
    """The position and the match state of the command's position code,
    with ``--match`` (a Match ID for a bare Position ID) applied."""
    from ..matchid import MatchState
    pos, state = read_position(args.position)
    match = getattr(args, "match", None)
    if match:
        if state is not None:
            raise usage(f"--match: {args.position!r} carries its own match state; give --match with a bare "
                         f"Position ID")
        state = MatchState.from_match_id(match)
    return pos, state


def roll_of(args, state):
    """The roll to play: the ROLL argument, else the dice the code holds."""
    if args.roll is not None:
        return args.roll
    if state is not None and state.dice != (0, 0):
        return state.dice
    return None


def check_input(path: str) -> None:
    """Refuse, before any work, an input file that cannot be read."""
    if not os.path.exists(path):
        raise CommandError(f"cannot read {path}: no such file")
    if os.path.isdir(path):
        raise CommandError(f"cannot read {path}: it is a directory")
    if not os.access(path, os.R_OK):
        raise CommandError(f"cannot read {path}: permission denied")


def check_output(path: str, option: str = "") -> None:
    """Refuse, before any work, an output file that cannot be written."""
    where = f"{option}: " if option else ""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise CommandError(f"{where}cannot write {path}: it is a directory")
    if not os.path.isdir(folder):
        raise CommandError(f"{where}cannot write {path}: no directory {os.path.dirname(path) or folder}")
    if not os.access(folder, os.W_OK | os.X_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise CommandError(f"{where}cannot write {path}: permission denied")


def wrap(text: str, width: int = 79) -> str:
    """``text`` in lines of at most ``width`` characters, broken after a
    comma or a semicolon only (so that "policy net" stays whole)."""
    pieces = re.split(r"(?<=[,;]) ", text)
    lines = [pieces[0]]
    for piece in pieces[1:]:
        if len(lines[-1]) + 1 + len(piece) > width:
            lines.append("  " + piece)
        else:
            lines[-1] += " " + piece
    return "\n".join(lines)


def header(text: str, args) -> None:
    """A report's first lines, printed before the work (not with --json)."""
    if not args.json:
        print(wrap(text), flush=True)


def print_json(data) -> None:
    print(json.dumps(data))


def show_progress(args) -> bool:
    """Show a progress bar: on a terminal, or when asked, never with --json."""
    return not getattr(args, "json", False) and (sys.stderr.isatty() or getattr(args, "progress", False))


def partial_advice(message: str) -> str:
    # The readers speak to Python callers; here the same advice is an option.
    return message.replace("partial=True", "--partial")
