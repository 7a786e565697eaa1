"""One error base: every exception the package defines is a
``BackgammonError`` (Ctrl-C's interruptions aside, which stay
``KeyboardInterrupt``), the file formats' under ``FormatError``, each
named in the one list of errors.py's docstring."""
from __future__ import annotations

import importlib
import pickle
import pkgutil

import pytest

import backgammon as bg
from backgammon import errors

OPTIONAL = ("backgammon.web", "backgammon.env")       # extras: their own services' errors


def _package_exceptions():
    found = {}
    for info in pkgutil.walk_packages(bg.__path__, "backgammon."):
        if info.name.startswith(OPTIONAL) or any(part.startswith("_") for part in info.name.split(".")):
            continue                  # extras, and private modules (their errors never leave them)
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if (isinstance(obj, type) and issubclass(obj, BaseException) and obj.__module__.startswith("backgammon")
                    and not any(part.startswith("_") for part in obj.__module__.split("."))):
                if not name.startswith("_") and not obj.__name__.startswith("_"):
                    found[obj.__qualname__] = obj
    return found


def test_every_public_exception_is_a_backgammon_error():
    found = _package_exceptions()
    assert len(found) >= 25
    interrupts = {n for n, c in found.items() if issubclass(c, KeyboardInterrupt)}
    assert interrupts == {"RolloutInterrupted", "DuelInterrupted"}
    for name, cls in found.items():
        if name in interrupts:
            assert not issubclass(cls, Exception)        # except Exception never swallows Ctrl-C
            continue
        assert issubclass(cls, errors.BackgammonError), name
        # Documented in the one list.
        assert f"``{name}``" in errors.__doc__ or f".{name}``" in errors.__doc__, name


def test_format_errors_share_one_base():
    from backgammon.formats.fibs import InvalidFibsBoardError
    from backgammon.formats.mat import MatFileError
    from backgammon.formats.sgf import SgfFileError
    from backgammon.formats.xg import XgFileError
    from backgammon.formats.xgid import InvalidXgidError
    for cls in (MatFileError, SgfFileError, XgFileError, InvalidXgidError, InvalidFibsBoardError,
                errors.MatchFileError, errors.BearoffFileError):
        assert issubclass(cls, bg.FormatError) and issubclass(cls, ValueError)
    with pytest.raises(bg.FormatError):
        bg.read_mat("not a match file")
    with pytest.raises(bg.FormatError):
        bg.bearoff.OneSidedDatabase.from_bytes(b"gnubg-XX-garbage")


def test_the_old_homes_still_name_the_errors():
    from backgammon import bearoff, matchid, met
    from backgammon.formats import record
    assert matchid.InvalidMatchStateError is errors.InvalidMatchStateError
    assert matchid.InvalidMatchIdError is errors.InvalidMatchIdError
    assert met.InvalidMetError is errors.InvalidMetError and met.InvalidScoreError is errors.InvalidScoreError
    assert bearoff.OutsideDatabaseError is errors.OutsideDatabaseError
    assert bearoff.BearoffFileError is errors.BearoffFileError
    assert record.MatchFileError is errors.MatchFileError is bg.MatchFileError


def test_code_and_params_travel_with_the_error():
    e = bg.RulesError("no double now", code="double.crawford", params={"rule": "8.2"})
    again = pickle.loads(pickle.dumps(e))
    assert (str(again), again.code, again.params) == ("no double now", "double.crawford", {"rule": "8.2"})
    plain = bg.InvalidRollError("bad dice")
    assert plain.code is None and plain.params == {}
    where = errors.MatchFileError("bad move", 2, 7, code="mat.move")
    assert str(where) == "game 2, line 7: bad move" and where.code == "mat.move"
    with pytest.raises(bg.BackgammonError) as info:
        bg.MatchState.from_match_id("not an id")
    assert isinstance(info.value, bg.InvalidIdError) and isinstance(info.value, ValueError)
