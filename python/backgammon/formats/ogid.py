"""OGID, OpenGammon's position ID, among the formats: the codec is
:mod:`backgammon.ogid` (with the positions, which ``Position.to_ogid`` and
``from_ogid`` use); this module gives it its :class:`~backgammon.formats.Format`.

>>> FORMAT.name, FORMAT.kind
('ogid', 'position')
"""
from __future__ import annotations

import re

from ..ogid import BLACK, WHITE, InvalidOgidError, parse_ogid, read_ogid, write_ogid
from . import Format

__all__ = ["InvalidOgidError", "read_ogid", "write_ogid", "parse_ogid", "WHITE", "BLACK"]


def sniff_ogid(data: bytes) -> bool:
    return bool(re.match(rb"^\s*(?:OGID=)?[0-9a-p]*:[0-9a-p]*:[NWBD?]\d+[NOTP]:", data[:80], re.I))


FORMAT = Format("ogid", (), "position", read_ogid, write_ogid, InvalidOgidError, sniff=sniff_ogid,
                title="OGID", example="11ccccchhhjjjjj:66666888dddddoo:N0N::B:IW:0:0:0:0")
