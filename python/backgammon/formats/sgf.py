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
>>> print(text.replace("AP[backgammon:" + bg.__version__ + "]", "AP[...]"), end="")
(;FF[4]GM[6]CA[UTF-8]AP[...]MI[length:1][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RE[W+1R]
;W[31hefe])
>>> record = read_sgf(text)
>>> [(e.kind, e.player, e.value) for e in record.games[0].events]
[('opening', -1, (3, 1)), ('play', 0, '8/5 6/5'), ('resign', 1, 1), ('accept', 0, None)]

The same :class:`~backgammon.formats.record.MatchRecord` as the ``.mat`` reader
gives.  What we write is what gnubg's ``save match`` writes for the same
games, less its analysis and statistics (``A``, ``DA``, ``GS``, ...):
the same root properties and action nodes.  Reading ignores those
properties; it refuses position or cube set-up (``AE``, ``AB``, ``AW``,
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

import re
from dataclasses import dataclass
from typing import NoReturn

from .. import _validate
from ..rules import Rules
from .record import MONEY_RULES, GameItems, MatchFileError, MatchRecord, RecordBuilder, record_items

__all__ = ["SgfFileError", "read_sgf", "write_sgf"]


class SgfFileError(MatchFileError):
    """An SGF file that is malformed, truncated or against the rules."""


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
    """The game trees of an SGF collection: a list of node lists; each
    node records its line and its properties (name -> list of values)."""
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
_RESULT = re.compile(r"^([WB])\+(\d+)(R?)$")
_SETUP = {"AE", "AB", "AW", "CV", "CP"}
_HEADER_PROPS = (("DT", "EventDate"), ("EV", "Event"), ("RO", "Round"), ("PC", "Site"), ("AN", "Transcriber"))


def _one(node: _Node, name: str) -> str | None:
    values = node.props.get(name)
    return values[0] if values else None


def read_sgf(text: str | bytes, rules: Rules | None = None, *, partial: bool = False) -> MatchRecord:
    """Read gnubg's SGF match text into a :class:`~backgammon.mat.MatchRecord`,
    replaying every game (RULES 2-8).

    ``rules`` replaces the rules the file implies (the standard rules for
    a match; :data:`~backgammon.mat.MONEY_RULES` for money, with Jacoby
    when the root says ``RU[Jacoby]``).  With ``partial`` the last game
    (and the match) may be unfinished; otherwise a game with no ``RE``
    result, or a match nobody has won, is a truncated file.  Errors raise
    :class:`SgfFileError` naming the game and the line.
    """
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
        for node in actions:
            _action(builder, node, number)
        if result is not None:
            builder.wins(result[0], result[1], root.line, resigned=result[2])
        builder.end(nodes[-1].line, index == len(trees) - 1, partial)
    builder.number = 0
    games = builder.finish(trees[-1][-1].line, partial)
    return MatchRecord(players, length, games, tuple(header), comments, rules)


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
            if not rest.strip().isdigit():
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
    if kind == "double":
        return f";{colour}[double]"
    return f";{colour}[{kind}]"


def _tree(record: MatchRecord, index: int, game: GameItems) -> str:
    from .. import __version__
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
    lines.extend(_node(item) for item in game.items if item[0] != "wins")
    return "\n".join(lines) + ")\n"


def write_sgf(source, players=None) -> str:
    """gnubg's SGF text of a ``Match``, a :class:`~backgammon.mat.MatchRecord`
    or a ``DuelResult`` made with ``record=True`` (a money session), one
    game tree per game.  ``players`` names White (player 0) and Black
    (player 1).  The games are replayed first: a record the rules refuse
    raises :class:`SgfFileError`."""
    record, games = record_items(source, players, SgfFileError)
    for name in record.players:
        if not name.strip() or "\n" in name:
            raise SgfFileError(f"a player's name is not empty and has no line break, not {name!r}")
    return "".join(_tree(record, i, game) for i, game in enumerate(games))


from . import Format  # noqa: E402  (the package index reads FORMAT)

FORMAT = Format("sgf", (".sgf",), "match", read_sgf, write_sgf, SgfFileError)
