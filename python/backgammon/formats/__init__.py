"""File formats: match files (``.mat``, SGF, XG's binary ``.xg``, BGBlitz
``.bgf``, OGXM, Jellyfish ``.gam``, FIBS oldmoves, GamesGrid, TrueMoneyGames,
GammonEmpire, PartyGammon, BGRoom) and position codes (XGID, OGID, FIBS
board lines, Snowie text, Jellyfish ``.pos``), each in a module of its own with
the same shape: ``read_x(text or bytes) -> value``, ``write_x(value) ->
str`` (none for ``.xg``), and one error class under
:class:`~backgammon.errors.FormatError`.

Match formats read into and write from one record model
(:mod:`backgammon.formats.record`: ``MatchRecord`` and the
``RecordBuilder`` readers use).  Every format module declares itself with
a module-level ``FORMAT`` (:class:`Format`); this package finds them, so a
new format is one new module (docs/design.md, "Where new things go").

>>> sorted(f.name for f in match_formats())
['bgf', 'bgroom', 'empire', 'gam', 'mat', 'ogxm', 'oldmoves', 'party', 'sgf', 'sgg', 'tmg', 'xg']
>>> get("xgid").kind
'position'
>>> for_path("match.XG").name, for_path("match.XG").binary, for_path("a.mat").binary
('xg', True, False)
>>> for_path("game.gam").name, for_path("m.ogxm").name
('gam', 'ogxm')
"""
from __future__ import annotations

from .registry import Format, for_path, formats, get, match_formats
from .detection import detect, read_match

__all__ = ["Format", "formats", "match_formats", "get", "for_path", "detect", "read_match"]
