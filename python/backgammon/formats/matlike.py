"""Formats that are ``.mat`` in other clothes: each reader lays its file out
as ``.mat`` lines, every line tagged with the source line it came from, and
:func:`read_as_mat` reads them with :func:`~backgammon.formats.mat.read_mat`
(so the rows, the columns, the cube and the results are read one way), then
puts the source's line numbers back into the record and into any error.

This is how gnubg itself imports PartyGammon and BGRoom files (it writes a
``.mat`` file and imports that); here no file is written.

>>> rec = read_as_mat([(0, " 1 point match"), (0, " Game 1"), (1, " A : 0   B : 0"),
...                    (2, "  1) 31: 8/5 6/5"), (3, "      Wins 1 point")], MatchFileError)
>>> rec.games[0].lines, rec.games[0].line
((2, 2, 3, 3), 1)
"""
from __future__ import annotations

from dataclasses import replace

from ..rules import Rules
from .mat import MatFileError, read_mat
from .record import MatchFileError, MatchRecord, RecordWarning

__all__ = ["read_as_mat"]


def read_as_mat(lines: list, error_cls=MatchFileError, rules: Rules | None = None, *, partial: bool = False,
                strict: bool = False) -> MatchRecord:
    """Read ``(source_line, text)`` pairs as a ``.mat`` file: the record
    and its warnings carry the source lines; a refusal raises ``error_cls``
    with the game, the source line and the rule."""
    where = [0] + [int(at) for at, _ in lines]            # .mat line k (1-based) -> source line
    text = "\n".join(t for _, t in lines) + "\n"

    def back(line: int | None) -> int:
        return where[line] if line and 0 < line < len(where) else 0

    try:
        record = read_mat(text, rules, partial=partial, strict=strict)
    except MatFileError as e:
        message = str(e)
        for prefix in (f"game {e.game}, line {e.line}: ", f"game {e.game}: ", f"line {e.line}: "):
            if message.startswith(prefix):
                message = message[len(prefix):]
                break
        raise error_cls(message, e.game, back(e.line)) from None
    games = tuple(replace(g, lines=tuple(back(k) for k in g.lines), line=back(g.line)) for g in record.games)
    warnings = tuple(RecordWarning(w.game, back(w.line), w.written, w.used) for w in record.warnings)
    return replace(record, games=games, warnings=warnings)
