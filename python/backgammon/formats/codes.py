"""Position codes: one reader for every text that names a position.

:func:`read_position` takes any of the codes players paste, tells which
it is, and gives the position with its match state:

- a GNU Position ID, ``4HPwATDgc/ABMA`` (the position alone);
- a Position ID and a Match ID joined by a colon, as gnubg prints them,
  ``4HPwATDgc/ABMA:cIkFAAAAAAAE`` (or gnubg's board text,
  ``Position ID: ... Match ID: ...``);
- an XGID, with or without its ``XGID=`` prefix;
- a FIBS board line, ``board:...``;
- any position format a module of :mod:`backgammon.formats` adds with a
  ``sniff`` that claims the text (OpenGammon's OGID comes in so).

The command line, UBGI and the web API read positions with it, so a code
that works in one works in all.  A text that is none of them raises
:class:`InvalidPositionCodeError`, whose message lists the forms
accepted; a text that is one of them with a fault raises that form's own
error (naming the field), which is an ``InvalidPositionCodeError`` too.

Examples
--------
>>> pos, state = read_position("4HPwATDgc/ABMA:cIkFAAAAAAAE")
>>> pos == Position.initial(), state.dice, state.match_length
(True, (3, 1), 0)
>>> pos, state = read_position("-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10")
>>> pos.to_id(), state.to_match_id()
('4HPwATDgc/ABMA', 'cIkFAAAAAAAE')
>>> # a bare Position ID has no state
>>> read_position("4HPwATDgc/ABMA")[1] is None
True
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from ..errors import FormatError, InvalidIdError
from ..matchid import MatchState
from ..position import Position

__all__ = ["read_position", "InvalidPositionCodeError", "CodeForm", "FORMS", "forms"]


class InvalidPositionCodeError(FormatError, InvalidIdError):
    """A text that is no position code this package reads; the message
    names the forms it takes.

    Examples
    --------
    >>> read_position("XGID-...")
    Traceback (most recent call last):
    ...
    backgammon.formats.codes.InvalidPositionCodeError: 'XGID-...' is not a position code: give a GNU Position \
ID (4HPwATDgc/ABMA), a Position ID:Match ID (4HPwATDgc/ABMA:cIkFAAAAAAAE), an XGID, with or without \
'XGID=' (XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10), a FIBS board line (board:...), an OGID \
(11ccccchhhjjjjj:66666888dddddoo:N0N::B:IW:0:0:0:0) or a Snowie text position (9;0;0;0;1;...)
    """


@dataclass(frozen=True)
class CodeForm:
    """One form of position code.

    Attributes
    ----------
    name : str
        What players call it.
    example : str
        A code in this form, quoted by the error that lists the forms.
    claims : callable
        ``claims(text)``: whether ``text`` is written in this form (its
        shape, not its validity).
    read : callable
        ``read(text)``: the position and the match state (None when the
        form carries none); a fault raises a ``ValueError`` naming it.
    described : str
        The form as the error's list names it.

    Examples
    --------
    >>> [form.name for form in FORMS]
    ['GNU Position ID', 'Position ID:Match ID', 'XGID', 'FIBS board line']
    >>> FORMS[2].described
    "an XGID, with or without 'XGID=' (XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10)"
    """

    name: str
    example: str
    claims: Callable[[str], bool]
    read: Callable[[str], "tuple[Position, MatchState | None]"]
    note: str = ""

    @property
    def described(self) -> str:
        article = "an" if self.name[:1] in "AEIOUX" else "a"
        return f"{article} {self.name}{self.note} ({self.example})"


_BASE64 = re.compile(r"[A-Za-z0-9+/]+\Z")
_GNUBG_TEXT = re.compile(r"(?is)\s*(?:gnu\s*backgammon\s*)?position\s*id\s*:\s*(\S+)\s+match\s*id\s*:\s*(\S+)\s*\Z")
_XGID_BOARD = re.compile(r"[-A-Pa-p]{26}:")


def _plain(text: str) -> str:
    body = text.strip()
    if body.lower().startswith("position id:"):
        body = body[len("position id:"):].strip()
    return body


def _is_position_id(text: str) -> bool:
    body = _plain(text)
    return ":" not in body and bool(_BASE64.match(body)) and 10 <= len(body) <= 18


def _read_position_id(text: str):
    return Position.from_id(_plain(text)), None


def _is_combined(text: str) -> bool:
    if _GNUBG_TEXT.match(text):
        return True
    parts = [p.strip() for p in text.strip().split(":")]
    return (len(parts) == 2 and all(_BASE64.match(p) for p in parts)
            and 10 <= len(parts[0]) <= 18 and 8 <= len(parts[1]) <= 16)


def _read_combined(text: str):
    m = _GNUBG_TEXT.match(text)
    position_id, match_id = (m.group(1), m.group(2)) if m else text.strip().split(":")
    return Position.from_id(position_id.strip()), MatchState.from_match_id(match_id.strip())


def _is_xgid(text: str) -> bool:
    body = text.strip()
    return body[:5].upper() == "XGID=" or bool(_XGID_BOARD.match(body))


def _read_xgid(text: str):
    from .xgid import read_xgid
    return read_xgid(text)


def _is_fibs(text: str) -> bool:
    return text.strip()[:6].lower() == "board:"


def _read_fibs(text: str):
    from .fibs import read_fibs_board
    board = read_fibs_board(text)
    return board.position, board.match_state()


#: The forms this module reads itself, in the order they are tried.
FORMS: tuple[CodeForm, ...] = (
    CodeForm("GNU Position ID", "4HPwATDgc/ABMA", _is_position_id, _read_position_id),
    CodeForm("Position ID:Match ID", "4HPwATDgc/ABMA:cIkFAAAAAAAE", _is_combined, _read_combined),
    CodeForm("XGID", "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10", _is_xgid, _read_xgid,
             ", with or without 'XGID='"),
    CodeForm("FIBS board line", "board:...", _is_fibs, _read_fibs),
)
_OWN = ("xgid", "fibs")


def _as_pair(value) -> tuple[Position, MatchState | None]:
    """A position format reader's value as (position, state)."""
    if isinstance(value, Position):
        return value, None
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], Position):
        return value
    position = getattr(value, "position", None)
    if isinstance(position, Position):
        state = getattr(value, "state", None)
        if state is None and callable(getattr(value, "match_state", None)):
            state = value.match_state()
        return position, state if isinstance(state, MatchState) else None
    raise TypeError(f"a position reader gave {type(value).__name__}, not a position")


def _format_forms() -> list[CodeForm]:
    """Forms added by the position formats of ``backgammon.formats`` (a
    ``Format`` of kind "position" with a ``sniff``)."""
    from . import formats
    added = []
    for fmt in formats().values():
        sniff = getattr(fmt, "sniff", None)
        if fmt.kind != "position" or fmt.binary or fmt.name in _OWN or sniff is None:
            continue

        def claims(text: str, sniff=sniff) -> bool:
            try:
                return bool(sniff(text.strip().encode("utf-8")))
            except Exception:       # noqa: BLE001 -- a sniffer that cannot tell has not claimed the text
                return False

        def read(text: str, fmt=fmt):
            return _as_pair(fmt.read(text.strip()))
        added.append(CodeForm(fmt.title or fmt.name, fmt.example or "...", claims, read))
    return added


def forms() -> list[CodeForm]:
    """Every form :func:`read_position` takes: :data:`FORMS`, then those
    the position formats of :mod:`backgammon.formats` add.

    Examples
    --------
    >>> forms()[0].example
    '4HPwATDgc/ABMA'
    """
    return [*FORMS, *_format_forms()]


def _refusal(text: str, every: list[CodeForm]) -> InvalidPositionCodeError:
    shown = text if len(text) <= 60 else text[:57] + "..."
    listed = [f.described for f in every]
    return InvalidPositionCodeError(f"{shown!r} is not a position code: give "
                                    f"{', '.join(listed[:-1])} or {listed[-1]}")


def read_position(code: str) -> tuple[Position, MatchState | None]:
    """The position and match state a position code gives.

    Parameters
    ----------
    code : str
        A GNU Position ID, a Position ID and a Match ID joined by ``:``, an
        XGID (the ``XGID=`` prefix optional), a FIBS board line, or a form
        a position format adds (:func:`forms`).  Blanks around it are
        ignored.

    Returns
    -------
    position : Position
        The position, the side on roll in row 1.
    state : MatchState or None
        The cube, score, match length, dice and turn, or None for a bare
        Position ID, which carries none.

    Raises
    ------
    InvalidPositionCodeError
        ``code`` is none of the forms (the message lists them), or is one
        with a fault (the message names the field).
    TypeError
        ``code`` is not a str.

    See Also
    --------
    backgammon.Position.from_id : the Position ID alone.
    backgammon.formats.xgid.read_xgid : the XGID alone, keeping beavers and the cube limit.

    Examples
    --------
    >>> pos, state = read_position("-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10")
    >>> pos.to_id(), state.dice
    ('4HPwATDgc/ABMA', (3, 1))
    >>> read_position("4HPwATDgc/ABMA:QYkqASAAIAAA")[1].score
    (2, 4)
    """
    if not isinstance(code, str):
        raise TypeError(f"code must be a str, not {type(code).__name__}")
    every = forms()
    for form in every:
        if form.claims(code):
            try:
                return form.read(code)
            except InvalidPositionCodeError:
                raise
            except ValueError as e:        # the form's own error, which names the form and the field
                raise InvalidPositionCodeError(str(e)) from None
    raise _refusal(code.strip(), every)
