"""PartyGammon game files (gnubg's ``import party``), and BGRoom's
(``import bgroom``, :mod:`backgammon.formats.bgroom`).

A PartyGammon file is ``key=value`` lines: ``boardid=`` and ``creator=``
first, ``MATCHLENGTH=N`` and per game ``GAME_<k>_PLAYER_1=``,
``GAME_<k>_PLAYER_2=``, ``GAME_<k>_GAMEPLAY=`` (the actions, separated by
``#``) and ``GAME_<k>_SCORE1=`` / ``GAME_<k>_SCORE2=``, the score *after*
the game.  An action starts with the side (``1`` or ``2``); a roll and its
play is ``<side> <n> <n> <dice> <moves>`` (moves such as ``13/8 bar/22
6/off``), anything else is a cube word (``Double``, ``Take``, ``Drop``).
A game's result is what its score lines add (gnubg converts the file to
``.mat`` this way and imports that; so is it read here, no file written).

Player 1 is player 0.

>>> text = ("boardid=1\\ncreator=x\\nMATCHLENGTH=1\\nGAME_1_PLAYER_1=ann\\nGAME_1_PLAYER_2=bob\\n"
...         "GAME_1_GAMEPLAY=1 0 0 31 8/5 6/5\\nGAME_1_SCORE1=1\\nGAME_1_SCORE2=0\\n")
>>> rec = read_party(text)
>>> rec.players, rec.games[0].winner, rec.games[0].points
(('ann', 'bob'), 0, 1)
"""
from __future__ import annotations

import re

from ..rules import Rules
from . import Format
from .matlike import read_as_mat
from .record import MatchFileError, MatchRecord
from .source import load, named, reader_options, text_lines

__all__ = ["PartyFileError", "read_party"]


class PartyFileError(MatchFileError):
    """A PartyGammon file that is malformed or against the rules."""


_KEY = re.compile(r"^\s*([A-Za-z0-9_]+)\s*=(.*)$")
_GAMEKEY = re.compile(r"^GAME_([0-9]+)_(.*)$", re.I)
_CUBE = {"double": " Doubles", "doubles": " Doubles", "take": " Takes", "takes": " Takes", "accept": " Takes",
         "drop": " Drops", "drops": " Drops", "pass": " Drops", "reject": " Drops"}


def read_party(source, rules: Rules | None = None, *, partial: bool = False, strict: bool = False) -> MatchRecord:
    """Read a PartyGammon file (a path, an open file, its text or bytes)
    into a :class:`~backgammon.formats.record.MatchRecord`, every game
    replayed; refusals raise :class:`PartyFileError` naming the game, the
    line and the rule."""
    data, path = load(source)
    rules, partial, strict = reader_options(rules, partial, strict)
    try:
        return read_as_mat(_mat_lines(text_lines(data)), PartyFileError, rules, partial=partial, strict=strict)
    except PartyFileError as e:
        raise named(e, path) from None


def _mat_lines(lines: list[str]) -> list:
    length = None
    names = ["", ""]
    games: dict[int, dict] = {}
    for at, text in enumerate(lines, 1):
        m = _KEY.match(text)
        if not m:
            if text.strip():
                raise PartyFileError(f"expected key=value, not {text.strip()[:40]!r}", None, at)
            continue
        key, value = m.group(1).upper(), m.group(2).strip()
        if key == "MATCHLENGTH":
            if not re.fullmatch(r"[0-9]{1,3}", value):
                raise PartyFileError(f"MATCHLENGTH={value[:12]!r} is not a number", None, at)
            length = int(value)
            continue
        g = _GAMEKEY.match(key)
        if not g:
            continue
        k, field = int(g.group(1)), g.group(2)
        game = games.setdefault(k, {"at": at})
        if field == "PLAYER_1":
            names[0] = names[0] or value
        elif field == "PLAYER_2":
            names[1] = names[1] or value
        elif field == "GAMEPLAY":
            game["play"], game["play_at"] = value, at
        elif field in ("SCORE1", "SCORE2"):
            if not re.fullmatch(r"-?[0-9]{1,6}", value):
                raise PartyFileError(f"{key}={value[:12]!r} is not a number", k, at)
            game[field] = int(value)
            game["score_at"] = at
    if length is None:
        raise PartyFileError("no MATCHLENGTH= line: not a PartyGammon file", None, max(len(lines), 1))
    out = [(0, f" {length} point match")]
    before = [0, 0]
    for number, k in enumerate(sorted(games), 1):
        game = games[k]
        if k != number:
            raise PartyFileError(f"game {k} where game {number} was expected", None, game["at"])
        if "SCORE1" not in game or "SCORE2" not in game:
            raise PartyFileError("the game has no SCORE1 and SCORE2 lines", number, game["at"])
        at = game.get("play_at", game["at"])
        out.append((at, f" Game {number}"))
        out.append((at, f" {names[0] or 'Player 1'} : {before[0]}    {names[1] or 'Player 2'} : {before[1]}"))
        out.extend(_rows(game.get("play", ""), at, number))
        gained = (game["SCORE1"] - before[0], game["SCORE2"] - before[1])
        winner = 0 if gained[0] > 0 else 1
        points = max(gained)
        if points > 0 and min(gained) == 0:
            pad = "      " if winner == 0 else " " * 38
            out.append((game["score_at"], f"{pad}Wins {points} point{'s' if points != 1 else ''}"))
        elif gained != (0, 0):
            raise PartyFileError(f"the scores after the game ({game['SCORE1']}-{game['SCORE2']}) do not follow "
                                 f"from {before[0]}-{before[1]} by one side's win (RULES 8.5)", number,
                                 game["score_at"])
        before = [game["SCORE1"], game["SCORE2"]]
    return out


def _rows(play: str, at: int, number: int) -> list:
    """The actions as .mat rows (the left column 27 characters wide)."""
    rows: list = []
    row = None
    for token in [t.strip() for t in play.split("#") if t.strip()]:
        words = token.split()
        if words[0] not in ("1", "2"):
            raise PartyFileError(f"an action starts with its side, 1 or 2, not {token[:20]!r}", number, at)
        side = int(words[0]) - 1
        rest = words[1:]
        if rest and rest[0].isascii() and rest[0].isdigit():
            if len(rest) < 3 or not re.fullmatch(r"[1-6][1-6]", rest[2]):
                raise PartyFileError(f"a roll is '<side> <n> <n> <dice> <moves>', not {token[:30]!r}", number, at)
            cell = f"{rest[2]}: {' '.join(rest[3:])}".rstrip()
        else:
            word = (rest[0] if rest else "").lower()
            if word not in _CUBE:
                raise PartyFileError(f"cannot read the action {token[:30]!r}", number, at)
            cell = _CUBE[word]
        if side == 0 or row is None:
            row = [cell, None] if side == 0 else ["", cell]
            rows.append(row)
            if side == 1:
                row = None
        else:
            row[1] = cell
            row = None
    out = []
    for n, (left, right) in enumerate(rows, 1):
        text = f"{n:3d}) {left:<27} {right}" if right is not None else f"{n:3d}) {left}"
        out.append((at, text.rstrip()))
    return out


def sniff_party(data: bytes) -> bool:
    """gnubg's test: ``boardid=`` then ``creator=``."""
    lines = data[:2000].lstrip().splitlines()
    return len(lines) > 1 and lines[0].lower().startswith(b"boardid=") and lines[1].lower().startswith(b"creator=")


FORMAT = Format("party", (".gam",), "match", read_party, None, PartyFileError, sniff=sniff_party)
