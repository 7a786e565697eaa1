"""OGID, OpenGammon's position ID, over positions: the codec over board
arrays is :mod:`backgammon.ogid` (which ``Position.to_ogid`` and
``from_ogid`` call); this module reads and writes positions with their
match state and gives OGID its :class:`~backgammon.formats.Format`.

>>> from backgammon import Position, MatchState
>>> write_ogid(Position.initial(), MatchState(on_roll=1, dice=(6, 5), match_length=9))
'11ccccchhhjjjjj:66666888dddddoo:N0N:56:W:IB:0:0:9:0'
>>> pos, state = read_ogid("11ccccchhhjjjjj:66666888dddddoo:N0N:56:W:IB:0:0:9:0")
>>> pos == Position.initial(), state.on_roll, state.dice, state.match_length
(True, 1, (6, 5), 9)
>>> FORMAT.name, FORMAT.kind
('ogid', 'position')
"""
from __future__ import annotations

import re

from .._validate import instance
from ..matchid import MatchState
from ..ogid import BLACK, WHITE, InvalidOgidError, decode_ogid
from ..position import Position
from .registry import Format

__all__ = ["InvalidOgidError", "read_ogid", "write_ogid", "parse_ogid", "WHITE", "BLACK"]


def parse_ogid(text: str) -> tuple[Position, MatchState, int]:
    """The position (side on roll in row 1), match state and move counter of
    an OGID (an ``OGID=`` prefix allowed)."""
    _, _, move = decode_ogid(text)
    position, state = Position.from_ogid(text)
    return position, state, move


def read_ogid(text: str) -> tuple[Position, MatchState]:
    """The position (side on roll in row 1) and match state of an OGID."""
    return Position.from_ogid(text)


def write_ogid(position, state: MatchState | None = None, *, move_id: int = 0, cube_action: str | None = None,
               last_game: bool = False) -> str:
    """The OGID of ``position`` (side on roll in row 1) in ``state`` (default:
    money play, White on roll, not rolled), White being player 0; see
    :func:`backgammon.ogid.encode_ogid` for ``move_id``, ``cube_action`` and
    ``last_game``."""
    instance("position", position, Position)
    return position.to_ogid(state, move_id=move_id, cube_action=cube_action, last_game=last_game)


def sniff_ogid(data: bytes) -> bool:
    return bool(re.match(rb"^\s*(?:OGID=)?[0-9a-p]*:[0-9a-p]*:[NWBD?][0-9]+[NOTP]:", data[:80], re.I))


FORMAT = Format("ogid", (), "position", read_ogid, write_ogid, InvalidOgidError, sniff=sniff_ogid,
                title="OGID", example="11ccccchhhjjjjj:66666888dddddoo:N0N::B:IW:0:0:0:0")
