"""gnubg's SGF match files (``save match`` / ``load match``; docs/formats.md,
"Match files").

One game tree per game: a root node with the match information, then one
node per action.  The root holds ``GM[6]`` (backgammon),
``MI[length:7][game:0][ws:0][bs:0]`` (match length, 0 for money; the
0-based game number; the score of White and Black before the game),
``PW``/``PB`` (the names of White, our player 0, and Black, player 1),
``RU`` (``Crawford``, ``Crawford:CrawfordGame`` for the Crawford game,
``Jacoby`` for money with the Jacoby rule) and ``RE[W+2]`` (White won 2
points; ``RE[B+4R]``: Black won 4 by resignation).  An action node is
``;B[31qtst]`` (Black rolled 3-1 and moved q->t, s->t), ``;W[21]`` (no
legal play), ``;W[double]`` (also a beaver or raccoon: a double while a
double is pending), ``;B[take]``, ``;B[drop]``, or ``;PL[W]DI[52]``
(White rolled 5-2 and then resigned, or the game stops there).  Points
are letters of the absolute board: White's point p is ``a`` + p - 1,
Black's point p is ``x`` - (p - 1); ``y`` is the bar and ``z`` off.

>>> import backgammon as bg
>>> m = bg.Match(1)
>>> g = m.new_game()
>>> g.roll((3, 1)); g.play("8/5 6/5"); g.resign(1); g.accept_resignation()
>>> text = write_sgf(m, players=("Ann", "Bob"))
>>> app = "AP[backgammon:" + bg.__version__ + "]"
>>> print(text.replace(app, "AP[...]"), end="")
(;FF[4]GM[6]CA[UTF-8]AP[...]MI[length:1][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RE[W+1R]
;W[31hefe])
>>> record = read_sgf(text)
>>> [(e.kind, e.player, e.value) for e in record.games[0].events]
[('opening', -1, (3, 1)), ('play', 0, '8/5 6/5'), ('resign', 1, 1), ('accept', 0, None)]

The same :class:`~backgammon.formats.record.MatchRecord` as the ``.mat`` reader
gives.  What we write is what gnubg's ``save match`` writes for the same
games, less its analysis and statistics (``A``, ``DA``, ``GS``, ...):
the same root properties and action nodes.  Reading ignores those
properties; it reads a board set in place of a play as gnubg writes it
(``;PL[W]DI[31]`` then ``;PL[W]AE[a:y]AW[..]AB[..]``, gnubg's
``MOVE_SETDICE`` and ``MOVE_SETBOARD``: a ``setboard`` event, the play and
its reason from the node's ``C[Illegal play ...]``, which we write), and
refuses any other position or cube set-up (``AE``, ``AB``, ``AW``,
``CV``, ``CP``), variations, matches without the Crawford rule and a
``RU`` Crawford-game mark that the score contradicts (RULES 8.2); a
double node just before a resignation (``RE[..R]``) by the side that
resigned is gnubg's record of a cube decision, not a double, and is
dropped.  What SGF cannot hold: tied opening rolls and rejected
resignations (left out), automatic doubles and an opening re-roll
(refused), the level of an accepted resignation beyond the points it
scored, and rules options other than Jacoby.
"""
from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from typing import IO, NoReturn, cast

from .. import _validate
from ..position import Position
from ..rules import Rules
from ..scoring import equity
from .record import MONEY_RULES, GameItems, MatchFileError, MatchRecord, RecordBuilder, play_steps, record_items
from .source import reads_source
from .registry import Format

__all__ = ["SgfFileError", "read_sgf", "write_sgf"]


class SgfFileError(MatchFileError):
    """An SGF file that is malformed, truncated or against the rules: the
    message names the game and the line.

    Examples
    --------
    >>> import backgammon as bg
    >>> bg.read_sgf("(;FF[4]GM[1])")
    Traceback (most recent call last):
    ...
    backgammon.formats.sgf.SgfFileError: game 1, line 1: GM[1] is not backgammon (GM[6])
    """


_COLOURS = "WB"          # White is player 0, Black player 1 (gnubg's player 0 and 1)
_BAR, _OFF = 25, 0


def _letter(player: int, point: int) -> str:
    if point == _BAR:
        return "y"
    if point == _OFF:
        return "z"
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("x") - (point - 1))


def _point(player: int, letter: str) -> int:
    if letter == "y":
        return _BAR
    if letter == "z":
        return _OFF
    if "a" <= letter <= "x":
        i = ord(letter) - ord("a")
        return i + 1 if player == 0 else 24 - i
    raise ValueError(f"{letter!r} is not a point letter (a-x, y for the bar, z for off)")


# -- parsing the SGF tree ---------------------------------------------------------------------

class _Node:
    __slots__ = ("line", "props")

    def __init__(self, line: int):
        self.line = line
        self.props: dict = {}


_IDENT = re.compile(r"[A-Z]+")


def _parse(text: str) -> list:
    """An SGF collection's game trees: lists of nodes (line, name -> values)."""
    trees: list = []
    i, n, line = 0, len(text), 1

    def fail(message: str) -> NoReturn:
        raise SgfFileError(message, None, line)

    def skip():
        nonlocal i, line
        while i < n and text[i].isspace():
            if text[i] == "\n":
                line += 1
            i += 1

    while True:
        skip()
        if i >= n:
            break
        if text[i] != "(":
            fail(f"expected '(' to open a game tree, not {text[i:i + 10]!r}")
        i += 1
        nodes: list = []
        while True:
            skip()
            if i >= n:
                fail("the file ends inside a game tree: it is truncated")
            c = text[i]
            if c == ")":
                i += 1
                break
            if c == "(":
                fail("variations (nested game trees) are not supported")
            if c != ";":
                fail(f"expected ';' to start a node, not {text[i:i + 10]!r}")
            node = _Node(line)
            nodes.append(node)
            i += 1
            while True:
                skip()
                m = _IDENT.match(text, i)
                if not m:
                    break
                name = m.group(0)
                i = m.end()
                values = []
                while True:
                    skip()
                    if i >= n or text[i] != "[":
                        break
                    i += 1
                    value = []
                    while True:
                        if i >= n:
                            fail(f"the file ends inside the value of {name}: it is truncated")
                        c = text[i]
                        if c == "\\":
                            if i + 1 >= n:
                                fail(f"the file ends inside the value of {name}: it is truncated")
                            if text[i + 1] == "\n":
                                line += 1          # a soft line break
                            else:
                                value.append(text[i + 1])
                            i += 2
                            continue
                        if c == "]":
                            i += 1
                            break
                        if c == "\n":
                            line += 1
                        value.append(c)
                        i += 1
                    values.append("".join(value))
                if not values:
                    fail(f"property {name} has no value")
                node.props.setdefault(name, []).extend(values)
        if not nodes:
            fail("an empty game tree")
        trees.append(nodes)
    return trees


# -- reading ----------------------------------------------------------------------------------

_MOVE_VALUE = re.compile(r"^([1-6])([1-6])([a-z]*)$")
_RESULT = re.compile(r"^([WB])\+([0-9]+)(R?)$")
_SETUP = {"AE", "AB", "AW", "CV", "CP"}
_HEADER_PROPS = (("DT", "EventDate"), ("EV", "Event"), ("RO", "Round"), ("PC", "Site"), ("AN", "Transcriber"))


def _one(node: _Node, name: str) -> str | None:
    values = node.props.get(name)
    return values[0] if values else None


@reads_source
def read_sgf(source: str | bytes | os.PathLike | IO, rules: Rules | None = None, *,
             partial: bool = False) -> MatchRecord:
    """Read gnubg's SGF match file, replaying every game (RULES 2-8).

    The analysis gnubg wrote into the file is kept in the record's
    ``analysis`` (a list of :class:`NodeAnalysis`).

    Parameters
    ----------
    source : str, os.PathLike, file or bytes
        The file's path (a ``str`` or a ``pathlib.Path``), the file open
        for reading, its text, or its bytes (UTF-8, else Latin-1).
    rules : Rules, optional
        Replaces the rules the file implies (the standard rules for a
        match; :data:`~backgammon.mat.MONEY_RULES` for money, with Jacoby
        when the root says ``RU[Jacoby]``).
    partial : bool, default False
        The last game (and the match) may be unfinished; otherwise a game
        with no ``RE`` result, or a match nobody has won, is a truncated
        file.

    Returns
    -------
    MatchRecord

    Raises
    ------
    SgfFileError
        A malformed or truncated file, or an action against the rules,
        naming the game and the line (and the path, when read from one).
    OSError
        A path that cannot be read.

    See Also
    --------
    write_sgf : the other way, with an analysis.
    backgammon.formats.read_match : any format, told by its content.

    Examples
    --------
    >>> import backgammon as bg
    >>> duel = bg.duel("pubeval", "random", games=2, seed=1, workers=1, record=True)
    >>> # or a path, or an open file
    >>> record = bg.read_sgf(bg.write_sgf(duel))
    >>> record.players, len(record.games)
    (('pubeval', 'random'), 2)
    """
    text: str | bytes = cast(bytes, source)    # its bytes, whatever it was (reads_source)
    if isinstance(text, (bytes, bytearray)):
        raw = bytes(text)
        try:                               # gnubg writes CA[UTF-8]
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
    _validate.instance("text", text, str)
    if rules is not None:
        _validate.instance("rules", rules, Rules, "backgammon.Rules")
    partial = _validate.flag("partial", partial)
    if text.startswith("\ufeff"):
        text = text[1:]
    trees = _parse(text.replace("\r\n", "\n").replace("\r", "\n"))
    if not trees:
        raise SgfFileError("the file holds no game", None, 1)
    first = _root(trees[0][0], 1)
    players, length = first.players, first.length
    if rules is None:
        rules = MONEY_RULES if length == 0 else Rules()
        if length == 0 and first.jacoby:
            rules = Rules(jacoby=True, beavers=MONEY_RULES.beavers)
    builder = RecordBuilder(length, rules, SgfFileError)
    header: list[tuple[str, str]] = []
    keys = dict(_HEADER_PROPS)
    root = trees[0][0]
    for prop, values in root.props.items():       # in the file's order
        if prop in keys:
            header.append((keys[prop], values[0].replace("-", ".") if prop == "DT" else values[0]))
    comments = tuple(line for line in (_one(root, "GC") or "").split("\n") if line.strip())
    notes: list = []
    for index, nodes in enumerate(trees):
        number = index + 1
        root = nodes[0]
        info = _root(root, number) if index else first
        if info.players != players:
            raise SgfFileError(f"the players {info.players[0]!r} and {info.players[1]!r} differ "
                               f"from game 1's {players[0]!r} and {players[1]!r}", number, root.line)
        if info.length != length:
            raise SgfFileError(f"the match length {info.length} differs from game 1's {length}",
                               number, root.line)
        if info.game is not None and info.game != index:
            raise SgfFileError(f"MI says game:{info.game} where game:{index} was expected", number, root.line)
        builder.begin(number, info.score, root.line)
        game = builder.game
        if length > 1 and not info.crawford:
            raise SgfFileError("a match without the Crawford rule (RU[Crawford]) is not supported "
                               "(RULES 8.2)", number, root.line)
        if info.crawford and length > 1 and info.crawford_game != game.crawford:
            raise SgfFileError(f"RU says this is {'' if info.crawford_game else 'not '}the Crawford "
                               f"game, but the score makes it {'' if game.crawford else 'not '}so (RULES 8.2)",
                               number, root.line)
        actions = nodes[1:]
        result = info.result
        if result is not None and result[2] and actions and \
                _one(actions[-1], _COLOURS[1 - result[0]]) == "double":
            # gnubg writes the cube decision of a side that then resigned on
            # its turn as a double (a real one must be answered, RULES 7.3).
            actions = actions[:-1]
        for k, node in enumerate(actions):
            if k and _is_setup(node) and _one(actions[k - 1], "DI") is not None:
                continue                        # read with the DI node before it
            before = builder.game.position
            dice = builder.game.dice
            if k + 1 < len(actions) and _one(node, "DI") is not None and _is_setup(actions[k + 1]):
                _set_board(builder, node, actions[k + 1], number)
                continue
            _action(builder, node, number)
            note = _node_analysis(node, number, builder.game, before, dice)
            if note is not None:
                notes.append(note)
        if result is not None:
            builder.wins(result[0], result[1], root.line, resigned=result[2])
        builder.end(nodes[-1].line, index == len(trees) - 1, partial)
    builder.number = 0
    games = builder.finish(trees[-1][-1].line, partial)
    return MatchRecord(players, length, games, tuple(header), comments, rules, tuple(builder.warnings),
                       analysis=tuple(notes))


@dataclass
class _RootInfo:
    players: tuple
    length: int
    game: int | None
    score: tuple
    crawford: bool
    crawford_game: bool
    jacoby: bool
    result: tuple | None          # (winner, points, resigned)


def _root(root: _Node, number: int) -> _RootInfo:
    def fail(message: str) -> NoReturn:
        raise SgfFileError(message, number, root.line)

    if _one(root, "GM") != "6":
        fail(f"GM[{_one(root, 'GM')}] is not backgammon (GM[6])")
    for name in root.props:
        if name in _SETUP:
            fail(f"{name}: setting up a position or the cube is not supported; a record starts from the "
                 f"opening position (RULES 1.2)")
    mi = {"length": 0, "game": None, "ws": 0, "bs": 0}
    for value in root.props.get("MI", []):
        key, _, rest = value.partition(":")
        if key in mi:
            if not (rest.strip().isascii() and rest.strip().isdigit()):
                fail(f"MI[{value}]: {key} must be a whole number")
            mi[key] = int(rest)
    rules: set[str] = set()
    for value in root.props.get("RU", []):
        rules.update(part.strip() for part in value.split(":"))
    unknown = rules - {"Crawford", "CrawfordGame", "Jacoby", ""}
    if unknown:
        fail(f"RU[{':'.join(sorted(unknown))}]: only the standard game with Crawford and Jacoby is supported")
    length = int(mi["length"] or 0)
    if "Jacoby" in rules and length:
        fail("RU[Jacoby] in a match: the Jacoby rule is for money play only (RULES 8.4)")
    result = None
    text = _one(root, "RE")
    if text is not None:
        m = _RESULT.match(text.strip())
        if not m:
            fail(f"RE[{text}]: expected W+n or B+n, with R after n for a resignation")
        result = (_COLOURS.index(m.group(1)), int(m.group(2)), bool(m.group(3)))
    return _RootInfo((_one(root, "PW") or "", _one(root, "PB") or ""), length, mi["game"],
                     (mi["ws"], mi["bs"]), "Crawford" in rules, "CrawfordGame" in rules, "Jacoby" in rules,
                     result)


def _is_setup(node: _Node) -> bool:
    return "AE" in node.props and not any(c in node.props for c in _COLOURS)


def _set_board(builder: RecordBuilder, rolled: _Node, setup: _Node, number: int) -> None:
    """gnubg's record of a play it could not take (``MOVE_SETDICE`` then
    ``MOVE_SETBOARD``): ``PL[x]DI[dd]``, then ``PL[W]AE[a:y]AW[..]AB[..]``,
    the board after the play on the absolute board."""
    def fail(message: str) -> NoReturn:
        raise SgfFileError(message, number, setup.line)

    colour, d = _one(rolled, "PL") or "", (_one(rolled, "DI") or "").strip()
    if colour not in ("W", "B") or not re.fullmatch(r"[1-6][1-6]", d):
        raise SgfFileError(f"PL[{colour}]DI[{d}]: expected PL[W] or PL[B] and two dice such as 52", number,
                           rolled.line)
    if (_one(setup, "PL") or "W") != "W" or any(name in setup.props for name in ("CV", "CP")):
        fail("a board set during a game is read as gnubg writes it: PL[W]AE[a:y]AW[..]AB[..]")
    if setup.props["AE"] != ["a:y"]:
        fail(f"AE[{']['.join(setup.props['AE'])}]: a board set during a game clears the whole board (AE[a:y])")
    rows = [[0] * 25, [0] * 25]                   # White's and Black's
    try:
        for side, prop in ((0, "AW"), (1, "AB")):
            for letter in setup.props.get(prop, []):
                point = _point(side, letter.strip())
                if point == _OFF:
                    raise ValueError("z (off) holds no checker on the board")
                rows[side][24 if point == _BAR else point - 1] += 1
        mover = _COLOURS.index(colour)
        after = Position.from_array([rows[mover], rows[1 - mover]])
    except ValueError as e:
        fail(f"the board set: {e}")
    note = _one(setup, "C") or ""
    written, reason = "", note
    if note.startswith(_SETBOARD_NOTE):
        head, _, reason = note[len(_SETBOARD_NOTE):].partition(": ")
        written = head.strip()
    builder.board(mover, (int(d[0]), int(d[1])), after, rolled.line, note or "AE[a:y]AW..AB..", reason,
                  explicit=True, play=written)


def _action(builder: RecordBuilder, node: _Node, number: int) -> None:
    props = node.props

    def fail(message: str) -> NoReturn:
        raise SgfFileError(message, number, node.line)

    for name in props:
        if name in _SETUP:
            fail(f"{name}: editing the position or the cube during a game is not supported")
    movers = [c for c in _COLOURS if c in props]
    if len(movers) > 1:
        fail("a node holds one action: both B and W")
    if movers:
        colour = movers[0]
        player = _COLOURS.index(colour)
        value = props[colour][0].strip()
        if value in ("double", "take", "drop"):
            if value == "double":
                builder.cube(player, "double", None, node.line)
            else:
                builder.answer(player, value, node.line)
            return
        m = _MOVE_VALUE.match(value)
        if not m or len(m.group(3)) % 2 or len(m.group(3)) > 8:
            fail(f"{colour}[{value}]: expected dice and up to four from/to letter pairs such as 31qtst, "
                 f"or double, take, drop")
        dice = (int(m.group(1)), int(m.group(2)))
        letters = m.group(3)
        try:
            steps = [(_point(player, letters[k]), _point(player, letters[k + 1]))
                     for k in range(0, len(letters), 2)]
        except ValueError as e:
            fail(f"{colour}[{value}]: {e}")
        text = " ".join(f"{'bar' if f == _BAR else f}/{'off' if t == _OFF else t}" for f, t in steps)
        builder.move(player, dice, text, node.line)
        return
    rolled = _one(node, "DI")
    if rolled is not None:
        colour = _one(node, "PL") or ""
        if colour not in ("W", "B"):
            fail("DI (dice rolled) needs PL[W] or PL[B] to say whose roll it is")
        if not re.fullmatch(r"[1-6][1-6]", rolled.strip()):
            fail(f"DI[{rolled}]: expected two dice such as 52")
        d = rolled.strip()
        builder.dice_only(_COLOURS.index(colour), (int(d[0]), int(d[1])), node.line)


# -- gnubg's analysis in SGF --------------------------------------------------------------------
#
# docs/formats.md, "SGF analysis": a play's node may hold A (the candidate plays, best first, and the
# one played), DA (the cube decision before the roll), LU (the roll's luck), GB/GW (its mark), DO/BM
# (the play's skill mark) and DC/BC (not doubling's); a double, take or drop node DA and DO/BM.

_SKILL_OF_MARK = {("DO", ""): "doubtful", ("BM", "1"): "error", ("BM", "2"): "blunder"}
_CUBE_SKILL_OF_MARK = {("DC", ""): "doubtful", ("BC", "1"): "error", ("BC", "2"): "blunder"}
_MARK_OF_SKILL = {"doubtful": "DO[]", "error": "BM[1]", "blunder": "BM[2]"}
_CUBE_MARK_OF_SKILL = {"doubtful": "DC[]", "error": "BC[1]", "blunder": "BC[2]"}


@dataclass(frozen=True)
class NodeAnalysis:
    """The analysis a file holds for one action: ``game`` (1-based) and
    ``action`` (its place in the game's history, 1-based), ``kind``
    ("play", "double", "take" or "drop"), the ``player``; for a play the
    ``candidates`` best first, each (notation, normalised cubeful equity,
    the mover's five cubeless chances after it, the plies), and the index
    of the one ``played`` (None when the file gives none); the ``luck`` of
    the roll (normalised, for the roller) and its ``luck_mark`` (-2..2); the
    ``skill`` mark of the play or cube action ("", "doubtful", "error",
    "blunder"); ``cube``: the cube decision before the action (the
    doubler's cubeless chances, and the cubeful value of no double and of
    double/take: money equity, or match winning chances in a match), and
    ``cube_skill``, the mark of not doubling.

    >>> import backgammon as bg
    >>> text = ("(;FF[4]GM[6]MI[length:0]PW[A]PB[B]RE[W+1R];W[31hefe]"
    ...         "A[0][hefe E ver 3 0.55 0.15 0.01 0.12 0.005 0.17 "
    ...         "0C 0 1 0.000000 1]"
    ...         "LU[0.13800])")
    >>> r = bg.read_sgf(text, partial=True)
    >>> n = r.analysis[0]
    >>> n.kind, n.candidates[0][0], n.played, n.luck
    ('play', '8/5 6/5', 0, 0.138)
    """

    game: int
    action: int
    kind: str
    player: int
    candidates: tuple = ()
    played: int | None = None
    luck: float | None = None
    luck_mark: int = 0
    skill: str = ""
    cube: dict | None = None
    cube_skill: str = ""


def _floats(words) -> list:
    return [float(w) for w in words]


def _evaluation(words: list, start: int):
    """(chances, equity, plies, next index) of an evaluation written as
    ``E ver 3 p1..p5 eq <plies>[C] ...`` or older forms; None for others."""
    if start >= len(words):
        return None
    tag = words[start]
    i = start + 1
    if tag == "E":
        if i + 1 < len(words) and words[i] == "ver":
            i += 2
        try:
            probs = _floats(words[i:i + 5])
            eq = float(words[i + 5])
        except (ValueError, IndexError):
            return None
        digits = re.match(r"[0-9]*", words[i + 6] if i + 6 < len(words) else "")
        return tuple(probs), eq, int(digits.group(0) or 0) if digits else 0, i + 6
    if tag == "X":      # a rollout: "X ver 3 Score eq eq2 Trials n Output p1..p5 ..."
        try:
            k = words.index("Score", i)
            eq = float(words[k + 1])
            o = words.index("Output", k)
            probs = _floats(words[o + 1:o + 6])
        except (ValueError, IndexError):
            return None
        return tuple(probs), eq, -1, o + 6
    return None


def _node_analysis(node: _Node, number: int, game, before, dice) -> "NodeAnalysis | None":
    props = node.props
    keys = set(props)
    if not keys & {"A", "DA", "LU", "DO", "BM", "DC", "BC", "GB", "GW"}:
        return None
    colour = next((c for c in _COLOURS if c in props), None)
    if colour is None:
        return None
    player = _COLOURS.index(colour)
    value = props[colour][0].strip()
    kind = value if value in ("double", "take", "drop") else "play"
    action = len(game.history)
    skill = ""
    for (mark, v), name in _SKILL_OF_MARK.items():
        if mark in props and (props[mark][0].strip() == v or not v):
            skill = name
    cube_skill = ""
    for (mark, v), name in _CUBE_SKILL_OF_MARK.items():
        if mark in props and (props[mark][0].strip() == v or not v):
            cube_skill = name
    candidates: list = []
    played = None
    m = _MOVE_VALUE.match(value) if kind == "play" else None
    if m:
        dice = (int(m.group(1)), int(m.group(2)))
    if "A" in props and kind == "play" and dice is not None:
        values = props["A"]
        try:
            played = int(values[0])
        except ValueError:
            played = None
        for cand in values[1:]:
            words = cand.split()
            if not words:
                continue
            letters, start = ("", 0) if words[0] in ("E", "X", "R") else (words[0], 1)
            ev = _evaluation(words, start)
            if ev is None:
                continue
            try:
                steps = [(_point(player, letters[k]), _point(player, letters[k + 1]))
                         for k in range(0, len(letters), 2)]
                text = " ".join(f"{'bar' if f == _BAR else f}/{'off' if t == _OFF else t}" for f, t in steps)
                notation = str(before.parse_play(text, dice)) if text else ""
            except ValueError:
                continue
            candidates.append((notation, ev[1], ev[0], ev[2]))
    luck = None
    if "LU" in props:
        try:
            luck = float(props["LU"][0])
        except ValueError:
            luck = None
        if luck is not None and not math.isfinite(luck):
            luck = None
    luck_mark = 0
    for mark, sign in (("GW", 1), ("GB", -1)):
        if mark in props:
            try:
                n = int(props[mark][0])
            except ValueError:
                n = 1
            luck_mark = sign * n * (1 if player == 0 else -1)
    cube = None
    if "DA" in props:
        words = props["DA"][0].split()
        if words and words[0] == "E":
            i = 3 if len(words) > 2 and words[1] == "ver" else 1
            try:
                numbers = _floats(words[i + 4:i + 4 + 14])
            except ValueError:
                numbers = []
            if len(numbers) == 14:
                cube = {"chances": tuple(numbers[0:5]), "cubeless": numbers[5], "no_double": numbers[6],
                        "double_take": numbers[13]}
    return NodeAnalysis(number, action, kind, player, tuple(candidates), played, luck, luck_mark, skill, cube,
                        cube_skill)


# -- writing ----------------------------------------------------------------------------------

def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _node(item) -> str:
    kind, player = item[0], item[1]
    colour = _COLOURS[player]
    if kind == "move":
        _, _, dice, steps = item
        letters = "".join(_letter(player, f) + _letter(player, t) for f, t, _ in steps)
        return f";{colour}[{dice[0]}{dice[1]}{letters}]"
    if kind == "dice":
        return f";PL[{colour}]DI[{item[2][0]}{item[2][1]}]"
    if kind == "setboard":
        return f";PL[{colour}]DI[{item[2][0]}{item[2][1]}]\n" + _setup_node(player, item[3])
    if kind == "double":
        return f";{colour}[double]"
    return f";{colour}[{kind}]"


def _setup_node(mover: int, board) -> str:
    """gnubg's node for a board set in place of a play (``MOVE_SETBOARD``):
    ``PL[W]``, ``AE[a:y]`` (clear the board), then White's checkers
    (``AW``) and Black's (``AB``) on the absolute board; a comment says
    what was played and why it is not legal."""
    rows = board.position.array          # row 0 the mover, row 1 the opponent
    white, black = (rows[0], rows[1]) if mover == 0 else (rows[1], rows[0])
    aw = "".join(f"[{_letter(0, 25 if i == 24 else i + 1)}]" * int(white[i]) for i in range(25))
    ab = "".join(f"[{_letter(1, 25 if i == 24 else i + 1)}]" * int(black[i]) for i in range(25))
    note = f"C[{_escape(_SETBOARD_NOTE + (' ' + board.play if board.play else '') + ': ' + board.reason)}]" \
        if board.play or board.reason else ""
    return f";PL[W]AE[a:y]{'AW' + aw if aw else ''}{'AB' + ab if ab else ''}{note}"


_SETBOARD_NOTE = "Illegal play"


def _tree(record: MatchRecord, index: int, game: GameItems, notes: dict | None = None) -> str:
    from .. import __version__          # the package root imports this module
    w, b = record.players
    root = [f"(;FF[4]GM[6]CA[UTF-8]AP[backgammon:{__version__}]",
            f"MI[length:{record.length}][game:{index}][ws:{game.score[0]}][bs:{game.score[1]}]",
            f"PW[{_escape(w)}]PB[{_escape(b)}]"]
    if index == 0:
        props = {key.lower(): prop for prop, key in _HEADER_PROPS}
        for key, value in record.header:            # in the record's order
            prop = props.get(key.lower())
            if prop is not None:
                root.append(f"{prop}[{_escape(value.replace('.', '-') if prop == 'DT' else value)}]")
        if record.comments:
            root.append(f"GC[{_escape(chr(10).join(record.comments))}]")
    rules = []
    if record.length > 1:
        rules.append("Crawford")
        if game.crawford:
            rules.append("CrawfordGame")
    if record.length == 0 and record.rules.jacoby:
        rules.append("Jacoby")
    if rules:
        root.append(f"RU[{':'.join(rules)}]")
    if game.winner is not None:
        root.append(f"RE[{_COLOURS[game.winner]}+{game.points}{'R' if game.resigned else ''}]")
    lines = ["".join(root)]
    counts: dict = {}
    for item in game.items:
        if item[0] == "wins":
            continue
        group = _GROUPS.get(item[0], item[0])
        k = counts[group] = counts.get(group, 0) + 1
        lines.append(_node(item) + ((notes or {}).get((group, k), "")))
    return "\n".join(lines) + ")\n"


_GROUPS = {"move": "move", "dice": "dice", "setboard": "setboard", "double": "double", "take": "answer",
           "drop": "answer"}
_EVENT_GROUPS = {"play": "move", "double": "double", "beaver": "double", "raccoon": "double", "take": "answer",
                 "drop": "answer"}


def _evaluation_text(chances, equity: float, ply: int) -> str:
    p = " ".join(f"{float(v):.6f}" for v in chances)
    return f"E ver 3 {p} {equity:.6f} {max(ply, 0)}C 0 1 0.000000 1"


def _cube_text(c) -> str:
    """gnubg's DA: the doubler's chances, cubeless equity and cubeful value
    (money equity, or match winning chances) of no double, then of double/take."""
    chances = tuple(c.chances) if c.chances else (0.5, 0.0, 0.0, 0.0, 0.0)
    cubeless = float(equity(chances))
    nd, dt = (c.mwc[0], c.mwc[1]) if c.mwc else (c.no_double, c.double_take)
    p = " ".join(f"{float(v):.6f}" for v in chances)
    return (f"DA[E ver 3 {max(c.ply, 0)}C 1 0.000000 1 {p} {cubeless:.6f} {nd:.6f} "
            f"{p} {cubeless:.6f} {dt:.6f}]")


def _analysis_notes(record: MatchRecord, analysis) -> list:
    """The properties each node of each game gets from ``analysis`` (a
    ``backgammon.analysis.MatchAnalysis`` of the same match), as gnubg
    writes them: {(group, ordinal): text}."""
    out = []
    for k, rec in enumerate(record.games):
        notes: dict = {}
        if k >= len(analysis.games):
            out.append(notes)
            continue
        ga = analysis.games[k]
        key_of: dict = {}
        counts: dict = {}
        events = list(rec.events)
        for i, e in enumerate(events, 1):
            group = _EVENT_GROUPS.get(e.kind)
            if group is not None:
                counts[group] = counts.get(group, 0) + 1
                key_of[i] = (group, counts[group])
        next_play = {}
        following = None
        for i in range(len(events), 0, -1):
            if events[i - 1].kind in ("play", "setboard"):   # a set board: its turn carries no note
                following = i
            next_play[i] = following

        def add(key, text):
            if key is not None:
                notes[key] = notes.get(key, "") + text

        for c in ga.cubes:
            if c.kind == "double" and c.action == "no double":
                play_at = next_play.get(c.action_index)
                add(key_of.get(play_at), _cube_text(c) + _CUBE_MARK_OF_SKILL.get(c.skill, ""))
            else:
                add(key_of.get(c.action_index), _cube_text(c) + _MARK_OF_SKILL.get(c.skill, ""))
        for p in ga.plays:
            pos = Position.from_id(p.position_id)
            cands = []
            for name, value, chances in (c[:3] for c in p.candidates):
                play = pos.parse_play(name, p.roll) if name else None
                letters = "".join(_letter(p.player, f) + _letter(p.player, t) for f, t, _ in play_steps(play)) \
                    if play is not None else ""
                cands.append(f"{letters} {_evaluation_text(chances, value, p.ply)}".strip())
            order = sorted(range(len(cands)), key=lambda j: -p.candidates[j][1])
            played = next(j for j, c in enumerate(p.candidates) if c[0] == p.played)
            text = f"A[{order.index(played)}]" + "".join(f"[{_escape(cands[j])}]" for j in order)
            add(key_of.get(p.action), text + "MR[]" + _MARK_OF_SKILL.get(p.skill, ""))
        for r in ga.luck:
            mark = ""
            level = 2 if abs(r.luck) > 0.6 else 1 if abs(r.luck) > 0.3 else 0
            if level:
                favoured = r.player if r.luck > 0 else 1 - r.player
                mark = f"G{_COLOURS[favoured]}[{level}]"
            add(key_of.get(r.action), f"LU[{r.luck:.5f}]{mark}")
        out.append(notes)
    return out


def write_sgf(source, players=None, *, analysis=None) -> str:
    """gnubg's SGF text of a match, one game tree per game.

    Parameters
    ----------
    source : Match, MatchRecord or DuelResult
        A :class:`~backgammon.match.Match`, a
        :class:`~backgammon.mat.MatchRecord` or a ``DuelResult`` made
        with ``record=True`` (a money session).
    players : pair of str, optional
        White's (player 0) and Black's (player 1) names.
    analysis : MatchAnalysis, optional
        An analysis of the same match
        (:func:`~backgammon.analysis.analyse`), written into the nodes as
        gnubg writes its own (candidate plays, cube decisions, luck and
        skill marks), so gnubg shows it.

    Returns
    -------
    str

    Raises
    ------
    SgfFileError
        A record the rules refuse (the games are replayed first).

    Examples
    --------
    >>> import backgammon as bg
    >>> m = bg.Match(3, seed=1)
    >>> g = m.new_game(); g.roll((3, 1)); g.play("8/5 6/5")
    >>> g.resign(1); g.accept_resignation()
    >>> text = bg.write_sgf(m, players=("Ann", "Bob"))
    >>> text.startswith("(;FF[4]GM[6]"), "PW[Ann]" in text, "MI[length:3]" in text
    (True, True, True)
    """
    record, games = record_items(source, players, SgfFileError)
    for name in record.players:
        if not name.strip() or "\n" in name:
            raise SgfFileError(f"a player's name is not empty and has no line break, not {name!r}")
    if analysis is not None and not isinstance(getattr(analysis, "games", None), (tuple, list)):
        # A MatchAnalysis (analysis.py is a layer above the formats).
        raise TypeError(f"analysis must be a backgammon.MatchAnalysis, not {type(analysis).__name__}")
    notes = _analysis_notes(record, analysis) if analysis is not None else [None] * len(games)
    return "".join(_tree(record, i, game, notes[i]) for i, game in enumerate(games))


FORMAT = Format("sgf", (".sgf",), "match", read_sgf, write_sgf, SgfFileError)
