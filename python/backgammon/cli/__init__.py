"""The ``backgammon`` command line.

    backgammon rollout --games 10000       roll out the opening (the main job)
    backgammon moves 4HPwATDgc/ABMA 31     the legal plays of a roll
    backgammon perft --depth 2             count the game tree

Every command that takes a position takes any position code
(:func:`backgammon.formats.codes.read_position`).  A failure is one line
on standard error, ``backgammon COMMAND: error: ...``, with exit status 2
for a command line at fault (an option, a code, a roll) and 1 for a
failure while working (a file that cannot be read or written, an engine
that fails); paths are checked before any work starts, output files are
written whole or not at all, and a closed pipe ends the program quietly,
as Unix tools do.

The package holds one module per group of commands (``positions``,
``rollout``, ``files``, ``play``), the ``parser`` and what they share
(``common``); :func:`main` runs a command line.
"""
from __future__ import annotations

import os
import re
import signal
import sys

from ..errors import FormatError, InvalidIdError, InvalidPositionError
from .common import FAILURE, INITIAL_ID, USAGE, CommandError, partial_advice
from .parser import DEFAULT_DEPTHS, EXAMPLES, POSITION_HELP, build_parser

__all__ = ["main", "build_parser", "CommandError", "USAGE", "FAILURE", "INITIAL_ID", "DEFAULT_DEPTHS", "EXAMPLES",
           "POSITION_HELP"]


_XGID_ARGUMENT = re.compile(r"-[-A-Pa-p]{25}:")


def _arguments(argv) -> list[str]:
    """The command line with each bare XGID (whose board usually starts
    with '-', which argparse would take for an option) given its prefix."""
    args = list(sys.argv[1:] if argv is None else argv)
    if "--" in args:
        cut = args.index("--")
        return [*_arguments(args[:cut]), "--", *args[cut + 1:]]
    return ["XGID=" + a if _XGID_ARGUMENT.match(a) else a for a in args]


def _quit_on_closed_pipe() -> int:
    """Standard output's reader has gone (``backgammon moves ... | head -1``):
    stop quietly, as Unix tools do, by the signal that a closed pipe sends."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())       # Python's flush at exit must not fail again
    except (OSError, ValueError):
        pass
    if hasattr(signal, "SIGPIPE"):
        sys.stderr.flush()
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGPIPE)
    return 128 + 13


def main(argv=None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); the exit status.

    Examples
    --------
    >>> main(["perft", "--depth", "1"])           # doctest: +ELLIPSIS
    perft(1) = 447   (... s)
    0
    """
    parser = build_parser()
    try:
        args, unknown = parser.parse_known_args(_arguments(argv))
        if unknown:
            args.parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    except BrokenPipeError:                        # --help | head -1
        return _quit_on_closed_pipe()
    except SystemExit:                             # --help, --version, a usage error: flushed here
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            return _quit_on_closed_pipe()
        raise
    try:
        status = args.run(args)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        return _quit_on_closed_pipe()
    except CommandError as e:
        return _fail(args, str(e), e.status)
    except (InvalidIdError, InvalidPositionError) as e:       # a code or ID given on the command line
        return _fail(args, str(e), USAGE)
    except FormatError as e:                                  # a file's content
        return _fail(args, partial_advice(str(e)), FAILURE)
    except ValueError as e:                                   # an argument the library refuses
        return _fail(args, str(e), USAGE)
    except OSError as e:                                      # a file or a socket, while working
        where = f"{e.filename}: " if e.filename else ""
        return _fail(args, f"{where}{e.strerror or e}", FAILURE)
    except (RuntimeError, ImportError) as e:                  # an engine that fails, an extra not installed
        return _fail(args, f"{type(e).__name__}: {e}" if not str(e) else str(e), FAILURE)
    except KeyboardInterrupt:
        print(f"backgammon {args.command}: interrupted", file=sys.stderr)
        return 130


def _fail(args, message: str, status: int) -> int:
    message = " ".join(message.split()) or "failed"          # one line, whatever the message held
    try:
        print(f"backgammon {args.command}: error: {message}", file=sys.stderr)
    except BrokenPipeError:
        pass
    return status


if __name__ == "__main__":
    raise SystemExit(main())
