"""The command line's parser: every command, its options, examples and
default depths (docs/guide/cli.md shows the same)."""
from __future__ import annotations

import argparse
import difflib
import sys

from ..analysis import THRESHOLDS
from .common import INITIAL_ID, USAGE
from .files import run_analyse, run_convert
from .play import run_duel, run_serve, run_train, run_ubgi
from .positions import run_hint, run_moves, run_perft
from .rollout import run_rollout

__all__ = ["build_parser", "DEFAULT_DEPTHS", "EXAMPLES", "POSITION_HELP"]


def at_least(option: str, low: int, high: int | None = None):
    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{option} takes a whole number, not {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{option} must be >= {low}, not {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"{option} must be <= {high}, not {value}")
        return value
    return read


def positive(option: str):
    return at_least(option, 1)


class Formatter(argparse.RawDescriptionHelpFormatter):
    """Help as written: the examples keep their lines."""

    def __init__(self, prog, **kwargs):
        kwargs.setdefault("max_help_position", 30)
        super().__init__(prog, **kwargs)


class Parser(argparse.ArgumentParser):
    """A subcommand's parser: its errors show its own usage, and an
    option it does not know is answered with the nearest it does."""

    def error(self, message: str):
        unknown = message.partition("unrecognized arguments: ")[2].split()
        if unknown:
            known = [o for a in self._actions for o in a.option_strings]
            near = [m for u in unknown if u.startswith("-") for m in difflib.get_close_matches(u.split("=")[0],
                                                                                             known, n=1)]
            if near:
                message += f" (did you mean {' or '.join(dict.fromkeys(near))}?)"
        self.print_usage(sys.stderr)
        self.exit(USAGE, f"{self.prog}: error: {message}\n")


POSITION_HELP = ("a position code: GNU Position ID, Position ID:Match ID, XGID with or without 'XGID=', or "
                 "FIBS board line (a bare XGID may start with '-'; '--' before a code works too)")


#: Each command's default search depth, and why they differ (docs/guide/cli.md has the same table).


DEFAULT_DEPTHS = {
    "rollout": ("--policy net", "0-ply: the fastest player, so more games in the time; the averaging over "
                                "many games, not the search, gives the accuracy"),
    "hint": ("--ply 0", "0-ply: an answer at once; --ply 1 and --ply 2 are stronger and slower"),
    "analyse": ("--ply 2", "2-ply: grading a whole match deserves the strongest search, as gnubg's analysis does"),
    "ubgi": ("--player net:1", "1-ply: an opponent that plays whole games, a play in a blink and stronger than 0-ply"),
}


EXAMPLES = {
    "rollout": """examples:
  backgammon rollout                                   the opening, 1,296 games, the shipped network
  backgammon rollout 4HPwATDgc/ABMA 31 --plays top3    the best three plays of an opening 3-1
  backgammon rollout XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10 --cube --truncate 10
  backgammon rollout 4HPwATDgc/ABMA --match cAkAAAAAAAAA --games 12960 --json""",
    "moves": """examples:
  backgammon moves 4HPwATDgc/ABMA 66                   the board and the 11 plays of 6-6
  backgammon moves 4HPwATDgc/ABMA:cIkFAAAAAAAE         the dice from the Match ID (3-1)
  backgammon moves -- -b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10""",
    "perft": """examples:
  backgammon perft --depth 3 --all                     447, 202782, 116154993 leaves""",
    "hint": """examples:
  backgammon hint 4HPwATDgc/ABMA 62 --ply 1            the plays of 6-2 ranked at 1-ply
  backgammon hint 4HPwATDgc/ABMA 62 --top 3 --json     the best three as JSON
  backgammon hint XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:4:0:7:10   the cube decision at 2-4 to 7""",
    "duel": """examples:
  backgammon duel net pubeval --games 2000 --seed 1
  backgammon duel net:1 gnubg --games 20000 --save games.mat""",
    "serve": """examples:
  backgammon serve --open                              play in the browser at http://127.0.0.1:8000/""",
    "ubgi": """examples:
  printf 'ubgi\\nposition gnubgid 4HPwATDgc/ABMA\\ndice 3 1\\ngo\\nquit\\n' | backgammon ubgi""",
    "analyse": f"""examples:
  backgammon analyse match.mat                         the report, errors of {THRESHOLDS[0]} (gnubg's doubtful mark) or more
  backgammon analyse match.xg --ply 1 --sgf analysed.sgf --json""",
    "convert": """examples:
  backgammon convert match.xg match.mat
  backgammon convert session.txt session.sgf --from mat --partial""",
    "train": """examples:
  backgammon train --games 2000000 --seed 1 --refine-rounds 8 --out nets.npz   the networks the shipped ones were fitted from""",
}


def _why(command: str) -> str:
    option, reason = DEFAULT_DEPTHS[command]
    return f"default {option}: {reason}"


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__
    parser = argparse.ArgumentParser(
        prog="backgammon", description="A fast backgammon engine core.", formatter_class=Formatter,
        epilog="Run 'backgammon COMMAND --help' for a command's options and examples.\n"
               "Exit status: 0 done, 1 a failure while working, 2 a command line at fault, 130 interrupted.")
    parser.add_argument("--version", action="version", version=f"backgammon {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser, metavar="COMMAND")

    def command(name: str, help: str, **kwargs):
        epilog = EXAMPLES[name] + (f"\n\n{_why(name)}" if name in DEFAULT_DEPTHS else "")
        p = sub.add_parser(name, help=help, description=help[:1].upper() + help[1:] + ".", epilog=epilog,
                           formatter_class=Formatter, **kwargs)
        p.set_defaults(parser=p)
        return p

    p = command("rollout", "roll out a position, the plays of a roll, or a cube decision")
    p.add_argument("position", nargs="?", default=INITIAL_ID, help=POSITION_HELP + " (default: the opening)")
    p.add_argument("roll", nargs="?", default=None,
                   help="the dice, e.g. 31: roll out the plays of that roll (see --plays; default: the code's "
                        "dice, if it holds any)")
    p.add_argument("--games", type=positive("--games"), default=1296, help="games to play (default 1296)")
    p.add_argument("--policy", default="net", metavar="SPEC",
                   help="who plays both sides, a player spec: net (default: the shipped network, 0-ply), "
                        "net:1, net:2, pubeval, random, gnubg, ubgi:COMMAND or a registered player")
    p.add_argument("--ply", type=at_least("--ply", 0), choices=[0, 1, 2], default=None,
                   help="the network's search depth for checker play (net:K)")
    p.add_argument("--cube-ply", type=at_least("--cube-ply", 0), choices=[0, 1, 2], default=None,
                   help="the network's search depth for cube decisions (default: the checker players')")
    p.add_argument("--plays", default=None, metavar="WHICH",
                   help="with ROLL: topN (default top5) of the 0-ply ranking, all, or plays separated by commas")
    p.add_argument("--cube", action="store_true",
                   help="cubeful: without ROLL, roll out no double, double/take and double/pass")
    p.add_argument("--cubeless", action="store_true",
                   help="cubeless, though the code or --match gives a match state (a rollout at a state is "
                        "cubeful unless asked this; at a match score then valued by the match winning chances "
                        "of its cubeless outcomes)")
    p.add_argument("--match", default=None, metavar="MATCHID",
                   help="GNU Match ID: the cube, score and match length (a cubeful rollout); a code with a match "
                        "state (Position ID:Match ID, XGID) gives its own")
    p.add_argument("--truncate", type=at_least("--truncate", 0), default=None, metavar="PLY",
                   help="stop each game after PLY plies and score it with the player's evaluator")
    p.add_argument("--bearoff", action="store_true",
                   help="stop a game once both sides bear off and count the bear-off tables' chances")
    p.add_argument("--no-variance-reduction", action="store_true",
                   help="no variance reduction (it is on by default)")
    p.add_argument("--workers", type=positive("--workers"), default=None, help="local processes (default: all cores)")
    p.add_argument("--seed", type=at_least("--seed", 0), default=0, help="seed >= 0 (default 0): same seed, same result")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--progress", action="store_true", help="show the progress bar even when not a terminal")
    p.set_defaults(run=run_rollout)
    p = command("moves", "list the legal plays of a roll from a position")
    p.add_argument("position", help=POSITION_HELP + " (the opening is 4HPwATDgc/ABMA)")
    p.add_argument("roll", nargs="?", default=None,
                   help="the dice, e.g. 31 or 3-1 (default: the code's dice, if it holds any)")
    p.add_argument("-q", "--quiet", action="store_true", help="do not draw the board")
    p.set_defaults(run=run_moves)
    p = command("perft", "count the leaves of the game tree (all 21 rolls, all plays)")
    p.add_argument("position", nargs="?", default=INITIAL_ID, help=POSITION_HELP + " (default: the opening)")
    p.add_argument("--depth", type=at_least("--depth", 0), default=2, help="plies to expand (default 2)")
    p.add_argument("--all", action="store_true", help="print every depth from 1 up")
    p.set_defaults(run=run_perft)
    p = command("hint", "rank the plays of a roll, or give the cube action without a roll")
    p.add_argument("position", help=POSITION_HELP + " (the side on roll to play)")
    p.add_argument("roll", nargs="?", default=None,
                   help="the dice, e.g. 31 (default: the code's dice); without dice, the cube decision")
    p.add_argument("--ply", type=at_least("--ply", 0), default=0, choices=[0, 1, 2],
                   help="search depth, 0 to 2 (default 0: at once; 1 and 2 are stronger and slower)")
    p.add_argument("--match", default=None, metavar="MATCHID",
                   help="GNU Match ID for match play (cube hint); a code with a match state gives its own")
    p.add_argument("--top", type=at_least("--top", 0), default=0,
                   help="show only the best N plays (default 0: all of them)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_hint)
    p = command("duel", "compare two players over cubeless games with duplicate dice")
    p.add_argument("a", help="player spec: random, pubeval, net, net:1, net:2, gnubg, ubgi:COMMAND or a "
                             "registered player")
    p.add_argument("b", help="the other player's spec")
    p.add_argument("--games", type=positive("--games"), default=1000, help="games, an even number (default 1000)")
    p.add_argument("--seed", type=at_least("--seed", 0), default=0, help="seed >= 0 (default 0)")
    p.add_argument("--workers", type=positive("--workers"), default=None, help="local processes (default: all cores)")
    p.add_argument("--save", default=None, metavar="FILE.mat",
                   help="write the games as a .mat money session (its directory is checked before the games)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--progress", action="store_true", help="show the progress bar even when not a terminal")
    p.set_defaults(run=run_duel)
    p = command("serve", "the game in the browser and the JSON engine API (needs the web extra)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only)")
    p.add_argument("--port", type=at_least("--port", 0, 65535), default=8000, help="port (default 8000)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.set_defaults(run=run_serve)
    p = command("ubgi", "speak the UBGI engine protocol on standard input and output")
    p.add_argument("--player", default="net:1", help="the player behind the engine (default net:1)")
    p.set_defaults(run=run_ubgi)
    p = command("analyse", "grade every play and cube decision of a match file (.mat, .sgf, .xg)")
    p.add_argument("file", help="the match file")
    p.add_argument("--from", dest="source_format", default=None, help="the file's format: mat, sgf or xg")
    p.add_argument("--ply", type=int, choices=(0, 1, 2), default=2, help="checker play search depth (default 2, as gnubg's)")
    p.add_argument("--cube-ply", type=int, choices=(0, 1, 2), default=None,
                   help="cube decision search depth (default: --ply)")
    p.add_argument("--threshold", type=float, default=THRESHOLDS[0],
                   help="list the plays and cube decisions losing at least this much "
                        "(default %(default)s, gnubg's doubtful mark)")
    p.add_argument("--no-diagrams", action="store_true", help="no position diagrams in the report")
    p.add_argument("--json", action="store_true", help="print everything as one JSON object")
    p.add_argument("--sgf", metavar="OUT", default=None, help="also write the match with the analysis as SGF")
    p.add_argument("--rollout", action="store_true",
                   help=f"check the errors of {THRESHOLDS[1]} or more (gnubg's bad mark) "
                        "by rolling out their candidates")
    p.add_argument("--rollout-games", type=positive("--rollout-games"), default=324,
                   help="games per candidate of those rollouts (default 324)")
    p.add_argument("--rollout-truncate", type=at_least("--rollout-truncate", 0), default=None,
                   help="truncate those rollouts after this many plies")
    p.add_argument("--seed", type=at_least("--seed", 0), default=0, help="seed of the rollouts (default 0)")
    p.add_argument("--workers", type=positive("--workers"), default=None,
                   help="local processes (default: all cores)")
    p.add_argument("--progress", action="store_true", help="show the progress bar even when not a terminal")
    p.set_defaults(run=run_analyse)
    p = command("convert", "convert a match file (.mat, .sgf, .xg) to .mat or SGF")
    p.add_argument("input", help="the match file to read (its format from its name, or --from)")
    p.add_argument("output", help="the file to write (.mat or .sgf, or --to); written whole or not at all")
    p.add_argument("--from", dest="source_format", default=None, help="the input's format: mat, sgf or xg")
    p.add_argument("--to", default=None, help="the output's format: mat or sgf")
    p.add_argument("--strict", action="store_true", help="refuse a file the reader would have to mend")
    p.add_argument("--partial", action="store_true", help="accept a match that stops before its end")
    p.set_defaults(run=run_convert)
    p = command("train", "train the networks by self-play (resumable)")
    p.add_argument("--games", type=positive("--games"), required=True, help="self-play games in total")
    p.add_argument("--seed", type=at_least("--seed", 0), default=0, help="seed >= 0 (default 0): same seed, same weights")
    p.add_argument("--out", default="nets.npz", help="weight file to write (default nets.npz)")
    p.add_argument("--checkpoint", default=None, help="checkpoint file (default OUT.ckpt)")
    p.add_argument("--restart", action="store_true", help="ignore an existing checkpoint")
    p.add_argument("--alpha", type=float, default=0.1, help="initial step size (default 0.1)")
    p.add_argument("--half-life", type=int, default=200_000, help="games over which the step size falls")
    p.add_argument("--contact-hidden", type=int, default=128, help="hidden units of the contact network")
    p.add_argument("--race-hidden", type=int, default=64, help="hidden units of the race network")
    p.add_argument("--crashed-hidden", type=int, default=128,
                   help="hidden units of the crashed network (0: none, contact answers)")
    p.add_argument("--layout", type=int, choices=(1, 2), default=2, help="input layout (default 2)")
    p.add_argument("--explore", type=float, default=0.0,
                   help="chance that a self-play decision plays another play near the best (default 0)")
    p.add_argument("--explore-within", type=float, default=0.1,
                   help="equity from the best within which such a play is chosen (default 0.1)")
    p.add_argument("--td-lambda", type=float, default=0.0,
                   help="TD(lambda) returns learnt at the end of each self-play game (default 0: TD(0))")
    p.add_argument("--refine-rounds", type=at_least("--refine-rounds", 0), default=0,
                   help="rounds of search distillation after the self-play games (default 0)")
    p.add_argument("--refine-games", type=positive("--refine-games"), default=4000,
                   help="self-play games whose positions each round learns (default 4000)")
    p.add_argument("--rounds", type=at_least("--rounds", 0), default=0,
                   help="rollout-supervised rounds after the refinement rounds (default 0)")
    p.add_argument("--positions", type=at_least("--positions", 2), default=20_000,
                   help="positions each round labels (default 20000)")
    p.add_argument("--label-games", type=positive("--label-games"), default=36,
                   help="games of each label's rollout (default 36)")
    p.add_argument("--label-truncate", type=at_least("--label-truncate", 0), default=10,
                   help="plies of each label's rollout (default 10)")
    p.add_argument("--prune-games", type=at_least("--prune-games", 0), default=4000,
                   help="self-play games whose plays the pruning network learns at the end (default 4000; 0: none)")
    p.add_argument("--workers", type=positive("--workers"), default=None,
                   help="local processes that label (default: all cores)")
    p.add_argument("--dask", metavar="ADDRESS", default=None,
                   help="label on the Dask cluster whose scheduler is at ADDRESS")
    p.add_argument("--threads", type=positive("--threads"), default=None,
                   help="threads for the 1-ply values of a round (default: all cores)")
    p.add_argument("--progress", action="store_true", help="show the progress bar even when not a terminal")
    p.set_defaults(run=run_train)
    return parser
