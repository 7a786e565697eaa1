"""Match equity: the chance of winning a match from a score, and take points.

A match equity table (MET) gives the match winning chance (MWC) of a player
``i`` points away from winning against an opponent ``j`` away (RULES 8.1),
with the cube centred and no game in progress.  It has two parts:

- the *pre-Crawford* table, ``i, j = 1..N``.  As in GNU Backgammon, its rows
  and columns for a 1-away player hold the value at the start of the
  Crawford game (RULES 8.2): a player who has just reached 1-away, before
  the Crawford game is played.
- the *post-Crawford* table: the chance of the trailer ``k`` away against a
  leader 1-away once the Crawford game is over (the cube is back, RULES 8.2),
  ``k = 1..M``; ``k = 1`` is double match point.

:meth:`MatchEquityTable.kazaross_xg2` is the Kazaross-XG2 table, gnubg's and
eXtreme Gammon's default (docs/formats.md, "Match equity and cube formulas").

>>> met = MatchEquityTable.kazaross_xg2()
>>> met.mwc(3, 5)
0.64795
>>> # Crawford game; post-Crawford
>>> met.mwc(1, 2, crawford=True), met.mwc(2, 1)
(0.67736, 0.48803)
>>> # 2-away, 2-away: the Crawford-game value
>>> round(met.take_point((3, 3), 5), 4)
0.3226
>>> # no gammons, live cube
>>> money_take_point(1, 1), money_cash_point(1, 1)
(0.2, 0.8)

The shipped file ``data/kazaross_xg2.json`` was made once from the gnubg
PyPI package (1.1.0a16) with this module::

    import dataclasses, pathlib, re, gnubg
    from backgammon.met import MatchEquityTable
    xml = pathlib.Path(gnubg.__file__).parent / "data/met/Kazaross-XG2.xml"
    text = xml.read_text()
    notice = re.search(r"<!--(.*?)-->", text, re.S).group(1)   # its copyright notice
    table = MatchEquityTable.from_xml(text)
    table = dataclasses.replace(table, notice=" ".join(notice.split()), source=
        "met/Kazaross-XG2.xml of the gnubg 1.1.0a16 PyPI package (GNU Backgammon), "
        "figures copied unchanged")
    pathlib.Path("python/backgammon/data/kazaross_xg2.json").write_text(table.to_json() + "\\n")
"""
from __future__ import annotations

import functools
import json
import math
import numbers
import operator
import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, cast

from ._files import read_at_most
from .errors import InvalidMetError, InvalidScoreError

__all__ = [
    "MatchEquityTable", "InvalidMetError", "InvalidScoreError",
    "money_take_point", "money_cash_point",
]


#: The largest MET file read by name (gnubg's are a few tens of kilobytes).
MAX_XML_BYTES = 16 * 1024 * 1024


def _chance(value, where: str) -> float:
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise InvalidMetError(f"{where}: {value!r} is not a number") from None
    if not 0.0 <= x <= 1.0:  # also rejects NaN
        raise InvalidMetError(f"{where}: {x!r} is not a probability between 0 and 1")
    return x


def _count(name: str, value) -> int:
    try:
        return operator.index(value)
    except TypeError:
        raise InvalidScoreError(f"{name} must be an integer, not {type(value).__name__}") from None


@dataclass(frozen=True, repr=False)
class MatchEquityTable:
    """A match equity table: the chance of winning the match from each score.

    Parameters
    ----------
    pre_crawford : sequence of sequences of float
        ``pre_crawford[i-1][j-1]`` is the match winning chance of the
        player ``i`` points away against one ``j`` away, cube centred.
    post_crawford : sequence of float
        ``post_crawford[k-1]`` is the post-Crawford chance of the trailer
        ``k`` away against the leader (1 away).
    name, description : str, optional
        What the table is called and says of itself.
    source, notice : str, optional
        Where the figures come from and their licence text (not compared).

    Raises
    ------
    InvalidMetError
        An empty table, a pre-Crawford table that is not square, an entry
        that is not a chance from 0 to 1, a name that is not text.

    See Also
    --------
    kazaross_xg2 : the table shipped (the default everywhere).
    from_xml : read one of gnubg's MET files.

    Examples
    --------
    >>> t = MatchEquityTable([[0.5, 0.7], [0.3, 0.5]], [0.5, 0.49], name="tiny")
    >>> t, t.mwc(2, 2), t.mwc(1, 2, crawford=True), t.mwc(1, 2)
    (MatchEquityTable(name='tiny', length=2), 0.5, 0.7, 0.51)
    """

    pre_crawford: tuple[tuple[float, ...], ...]
    post_crawford: tuple[float, ...]
    name: str = ""
    description: str = ""
    # Provenance and licence text travel with the figures but are not part
    # of what makes two tables equal.
    source: str = field(default="", compare=False)
    notice: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        try:
            rows = [list(r) for r in self.pre_crawford]
            post = list(self.post_crawford)
        except TypeError:
            raise InvalidMetError("the tables must be a list of rows and a list of numbers") from None
        n = len(rows)
        if n == 0:
            raise InvalidMetError("the pre-Crawford table has no rows")
        pre = []
        for i, row in enumerate(rows, 1):
            if len(row) != n:
                raise InvalidMetError(f"the pre-Crawford table must be square: row {i} of {n} has {len(row)} entries")
            pre.append(tuple(_chance(x, f"pre-Crawford row {i}, entry {j}") for j, x in enumerate(row, 1)))
        if not post:
            raise InvalidMetError("the post-Crawford table is empty")
        object.__setattr__(self, "pre_crawford", tuple(pre))
        object.__setattr__(self, "post_crawford",
                           tuple(_chance(x, f"post-Crawford entry {k}") for k, x in enumerate(post, 1)))
        for name in ("name", "description", "source", "notice"):
            if not isinstance(getattr(self, name), str):
                raise InvalidMetError(f"{name} must be a string")

    @property
    def length(self) -> int:
        """N: the pre-Crawford table covers 1-away to N-away."""
        return len(self.pre_crawford)

    @property
    def post_crawford_length(self) -> int:
        """M: the post-Crawford table covers the trailer 1-away to M-away."""
        return len(self.post_crawford)

    def __repr__(self) -> str:
        return f"MatchEquityTable(name={self.name!r}, length={self.length})"

    # -- queries -------------------------------------------------------------------
    def mwc(self, away: int, opponent_away: int, crawford: bool = False) -> float:
        """The match winning chance of a player ``away`` points from winning,
        against an opponent ``opponent_away`` away, cube centred.

        Parameters
        ----------
        away, opponent_away : int
            Points each side still needs, at least 1.
        crawford : bool, default False
            With one player 1-away: True is the Crawford game (the
            pre-Crawford table, as gnubg uses it), False a post-Crawford
            game (the post-Crawford table).  1-away against 1-away is
            always post-Crawford: the Crawford game came first.

        Returns
        -------
        float

        Raises
        ------
        InvalidScoreError
            A distance below 1 or beyond the table.

        Examples
        --------
        >>> met = MatchEquityTable.kazaross_xg2()
        >>> met.mwc(2, 1), met.mwc(2, 1, crawford=True), met.mwc(1, 3)
        (0.48803, 0.32264, 0.67736)
        """
        a, b = _count("away", away), _count("opponent_away", opponent_away)
        for name, x in (("away", a), ("opponent_away", b)):
            if x < 1:
                raise InvalidScoreError(f"{name} must be at least 1 (the match is not over), got {x}")
            if x > self.length:
                raise InvalidScoreError(f"this table covers 1-away to {self.length}-away, got {name}={x}")
        if crawford not in (True, False, 0, 1):
            raise InvalidScoreError(f"crawford must be True or False, got {crawford!r}")
        if crawford:
            if (a == 1) == (b == 1):
                raise InvalidScoreError("the Crawford game needs exactly one player 1-away (RULES 8.2), "
                                        f"got {a}-away against {b}-away")
            return self.pre_crawford[a - 1][b - 1]
        if a == 1 or b == 1:
            trailer = max(a, b)
            if trailer > self.post_crawford_length:
                raise InvalidScoreError(f"the post-Crawford table covers the trailer up to "
                                        f"{self.post_crawford_length}-away, got {trailer}-away")
            p = self.post_crawford[trailer - 1]
            return 1.0 - p if trailer == b > 1 else p  # the table is the trailer's chance
        return self.pre_crawford[a - 1][b - 1]

    def match_winning_chance(self, score, length: int, crawford: bool = False) -> float:
        """The match winning chance at a score, cube centred, between games.

        Parameters
        ----------
        score : pair of int
            The player's points and the opponent's.
        length : int
            The match length.
        crawford : bool, default False
            As in :meth:`mwc`.

        Returns
        -------
        float
            The chance that the player with ``score[0]`` wins; a score
            that has reached the length has won (1.0) or lost (0.0) the
            match (RULES 8.1).

        Raises
        ------
        InvalidScoreError
            A score or length the table cannot answer.

        Examples
        --------
        >>> met = MatchEquityTable.kazaross_xg2()
        >>> met.match_winning_chance((2, 0), 5), met.match_winning_chance((0, 0), 5)
        (0.64795, 0.5)
        >>> met.match_winning_chance((4, 3), 5, crawford=True)
        0.67736
        >>> met.match_winning_chance((5, 3), 5)
        1.0
        """
        n, (mine, theirs) = self._score(score, length)
        if mine >= n:
            return 1.0
        if theirs >= n:
            return 0.0
        return self.mwc(n - mine, n - theirs, crawford)

    def take_point(self, score, length: int, cube: int = 1, crawford: bool = False) -> float:
        """The gammonless take point of a double from cube ``cube`` to ``2 * cube``.

        ``score`` is ``(taker, doubler)``.  With D the taker's chance after
        dropping (the doubler scores ``cube``, RULES 7.3), W after taking and
        winning (the taker scores ``2 * cube``) and L after taking and losing,
        all read from this table::

            risk = D - L,  gain = W - D,  take point = risk / (risk + gain)

        the cubeless chance of winning the game at which taking and dropping
        are equal (docs/formats.md, "Match equity and cube formulas", for the
        money-play analogue).  Gammons are ignored and the cube is treated as
        dead after the take (no redouble value).  The next game is the
        Crawford game when nobody is 1-away now and a player reaches 1-away.
        No double is allowed in the Crawford game (RULES 8.2) or by a player
        whose win at the current cube already wins the match (RULES 8.3).

        >>> met = MatchEquityTable.kazaross_xg2()
        >>> round(met.take_point((0, 0), 5), 4), round(met.take_point((3, 2), 5), 4)
        (0.2387, 0.2618)
        """
        n, (taker, doubler) = self._score(score, length)
        c = _count("cube", cube)
        if c < 1 or c & (c - 1):
            raise InvalidScoreError(f"the cube value must be a power of two (RULES 7.4), got {c}")
        if crawford:
            raise InvalidScoreError("no double can be offered in the Crawford game (RULES 8.2)")
        if taker >= n or doubler >= n:
            raise InvalidScoreError(f"the {n}-point match is over at {(taker, doubler)}")
        a, b = n - taker, n - doubler
        if c >= b:
            raise InvalidScoreError(f"dead cube: the doubler, {b}-away, already wins the match by winning "
                                    f"at cube {c} and may not double (RULES 8.3)")
        next_is_crawford = a > 1 and b > 1

        def after(x: int, y: int) -> float:
            if x <= 0:
                return 1.0
            if y <= 0:
                return 0.0
            return self.mwc(x, y, crawford=next_is_crawford and (x == 1) != (y == 1))

        drop, win, lose = after(a, b - c), after(a - 2 * c, b), after(a, b - 2 * c)
        if win <= lose:
            raise InvalidMetError(f"the table gives the taker no more after winning ({win}) than after losing ({lose})")
        return (drop - lose) / (win - lose)

    @staticmethod
    def _score(score, length) -> tuple[int, tuple[int, int]]:
        n = _count("length", length)
        if n < 1:
            raise InvalidScoreError(f"a match is to at least 1 point, got length {n}")
        try:
            mine, theirs = score
        except (TypeError, ValueError):
            raise InvalidScoreError(f"score must be a pair of integers, got {score!r}") from None
        mine, theirs = _count("score", mine), _count("score", theirs)
        if mine < 0 or theirs < 0:
            raise InvalidScoreError(f"scores cannot be negative, got {(mine, theirs)}")
        if mine >= n and theirs >= n:
            raise InvalidScoreError(f"both players cannot have won the {n}-point match: {(mine, theirs)}")
        return n, (mine, theirs)

    # -- formats ---------------------------------------------------------------------
    @classmethod
    def from_xml(cls, path_or_text) -> "MatchEquityTable":
        """Read a GNU Backgammon MET file (``met/*.xml``, format ``met.dtd``).

        ``path_or_text`` is a path, or the XML itself as bytes or as a string
        starting with ``<``.  Only ``type="explicit"`` tables can be read;
        gnubg computes its ``zadeh`` and ``mec`` types from parameters.  A
        missing file raises ``OSError``; anything else wrong with it
        :class:`InvalidMetError`.

        >>> t = MatchEquityTable.from_xml('''<met><info><name>tiny</name></info>
        ...   <pre-crawford-table type="explicit">
        ...     <row><me>0.5</me></row></pre-crawford-table>
        ...   <post-crawford-table type="explicit">
        ...     <row><me>0.5</me></row></post-crawford-table></met>''')
        >>> t.name, t.mwc(1, 1)
        ('tiny', 0.5)
        """
        data: bytes | str
        if isinstance(path_or_text, (bytes, bytearray)):
            data, where = bytes(path_or_text), "MET XML"
        elif isinstance(path_or_text, str) and path_or_text.lstrip().startswith("<"):
            data, where = path_or_text, "MET XML"
        else:
            where = os.fspath(path_or_text)
            try:
                data = read_at_most(where, MAX_XML_BYTES, "a match equity table")
            except ValueError as e:
                raise InvalidMetError(str(e)) from None
        try:
            root = ET.fromstring(data)
        except ET.ParseError as e:
            raise InvalidMetError(f"{where}: not well-formed XML ({e})") from None
        if root.tag != "met":
            raise InvalidMetError(f"{where}: the root element is <{root.tag}>, not <met>")

        def text(path: str) -> str:
            node = root.find(path)
            return " ".join((node.text or "").split()) if node is not None else ""

        pre_node = root.find("pre-crawford-table")
        if pre_node is None:
            raise InvalidMetError(f"{where}: no <pre-crawford-table>")
        post_nodes = root.findall("post-crawford-table")
        if not post_nodes:
            raise InvalidMetError(f"{where}: no <post-crawford-table>")
        for node in [pre_node, *post_nodes]:
            kind = node.get("type", "explicit")
            if kind != "explicit":
                raise InvalidMetError(f"{where}: <{node.tag}> has type {kind!r}; only explicit tables "
                                      "can be read (gnubg computes the others from parameters)")

        def rows(node) -> list[list[str]]:
            return [[(me.text or "").strip() for me in row.findall("me")] for row in node.findall("row")]

        pre = rows(pre_node)
        posts = {}
        for node in post_nodes:
            player = node.get("player", "both")
            if player not in ("both", "0", "1"):
                raise InvalidMetError(f"{where}: <post-crawford-table player={player!r}> is none of both, 0, 1")
            body = rows(node)
            if len(body) != 1:
                raise InvalidMetError(f"{where}: a post-Crawford table has one <row>, found {len(body)}")
            posts[player] = body[0]
        tables = list(posts.values())
        if any(t != tables[0] for t in tables):
            raise InvalidMetError(f"{where}: the post-Crawford tables differ by player; "
                                  "only one table for both players is supported")
        try:
            # The constructor converts and checks the text entries.
            table = cls(cast(Any, pre), cast(Any, tables[0]), name=text("info/name"), description=text("info/description"))
        except InvalidMetError as e:
            raise InvalidMetError(f"{where}: {e}") from None
        declared = text("info/length")
        if declared and declared.lstrip("-").isdigit() and int(declared) > 0 and int(declared) != table.length:
            raise InvalidMetError(f"{where}: <length> says {declared} but the pre-Crawford table "
                                  f"has {table.length} rows")
        return table

    def to_json(self) -> str:
        """The table as JSON: name, description, source, notice and both tables."""
        head = {"name": self.name, "description": self.description, "source": self.source, "notice": self.notice}
        rows = ",\n".join("  " + json.dumps(list(r)) for r in self.pre_crawford)  # one row a line
        return ("{\n" + "".join(f" {json.dumps(k)}: {json.dumps(v)},\n" for k, v in head.items())
                + f' "pre_crawford": [\n{rows}\n ],\n'
                + f' "post_crawford": {json.dumps(list(self.post_crawford))}\n}}')

    @classmethod
    def from_json(cls, text: str | bytes) -> "MatchEquityTable":
        """Read what :meth:`to_json` writes."""
        try:
            d = json.loads(text)
        except (TypeError, ValueError) as e:
            raise InvalidMetError(f"not JSON: {e}") from None
        if not isinstance(d, dict) or "pre_crawford" not in d or "post_crawford" not in d:
            raise InvalidMetError("a MET in JSON is an object with pre_crawford and post_crawford")
        return cls(d["pre_crawford"], d["post_crawford"], name=d.get("name", ""),
                   description=d.get("description", ""), source=d.get("source", ""), notice=d.get("notice", ""))

    @classmethod
    def kazaross_xg2(cls) -> "MatchEquityTable":
        """The Kazaross-XG2 table shipped with the package (25 x 25).

        Examples
        --------
        >>> MatchEquityTable.kazaross_xg2().length
        25
        """
        return _kazaross_xg2()


@functools.lru_cache(maxsize=None)
def _kazaross_xg2() -> MatchEquityTable:
    # Tables are immutable, so one shared instance is safe.
    text = resources.files("backgammon").joinpath("data").joinpath("kazaross_xg2.json").read_text(encoding="utf-8")
    return MatchEquityTable.from_json(text)


# -- money play (Janowski) ---------------------------------------------------------------
def _gammon_values(win, loss) -> tuple[float, float]:
    for name, value in (("win", win), ("loss", loss)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name} must be a number, not {type(value).__name__}")
    w, l = float(win), float(loss)
    if not (math.isfinite(w) and math.isfinite(l)) or w < 1 or l < 1:
        raise ValueError("W and L are the average values of a win and of a loss "
                         f"(1 plus gammon and backgammon shares), so at least 1; got W={win!r}, L={loss!r}")
    return w, l


def money_take_point(win: float, loss: float) -> float:
    """Money-play take point (L - 0.5) / (W + L + 0.5), Janowski's formula for
    a live cube (docs/formats.md, "Match equity and cube formulas").

    Parameters
    ----------
    win, loss : float
        W and L: the taker's average values of a win and of a loss (1 for
        a single game, more with gammons), at least 1.

    Returns
    -------
    float
        The least chance of winning at which taking is right.

    Raises
    ------
    TypeError
        ``win`` or ``loss`` not a number.
    ValueError
        ``win`` or ``loss`` below 1 (or not finite).

    See Also
    --------
    money_cash_point
    MatchEquityTable.take_point : the take point of a match score.

    Examples
    --------
    >>> money_take_point(1, 1), round(money_take_point(1.2, 1.3), 4)
    (0.2, 0.2667)
    """
    w, l = _gammon_values(win, loss)
    return (l - 0.5) / (w + l + 0.5)


def money_cash_point(win: float, loss: float) -> float:
    """Money-play cash point (L + 1) / (W + L + 0.5) (Janowski, docs/formats.md).

    Parameters
    ----------
    win, loss : float
        W and L: the doubler's average values of a win and of a loss, at
        least 1.

    Returns
    -------
    float
        The chance of winning above which the doubler should cash.

    Raises
    ------
    TypeError
        ``win`` or ``loss`` not a number.
    ValueError
        ``win`` or ``loss`` below 1 (or not finite).

    Examples
    --------
    >>> money_cash_point(1, 1)
    0.8
    """
    w, l = _gammon_values(win, loss)
    return (l + 1) / (w + l + 0.5)
