"""Fuzzing every new reader (and content detection): on any bytes, and on
valid files with bytes flipped, lines dropped or cut short, a reader gives
its record or raises its own error (a FormatError, a ValueError); nothing
else escapes, nothing hangs (each example is bounded by hypothesis's
deadline)."""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import backgammon as bg
from backgammon.formats import detect, get, read_match
from backgammon.formats.gam import write_gam
from backgammon.formats.ogid import write_ogid
from backgammon.formats.ogxm import write_ogxm
from backgammon.formats.smile import SmileError, decode
from backgammon.formats.snowietxt import write_snowie_txt

from legacy_writers import WRITERS

DATA = Path(__file__).parent / "data"
FUZZ = settings(max_examples=150, deadline=timedelta(seconds=5), derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

_RECORD = bg.read_mat((DATA / "gnubg_selfplay_9.mat").read_bytes())
_SHORT = bg.formats.record.MatchRecord(_RECORD.players, 0, _RECORD.games[:1], (), (), bg.formats.record.MONEY_RULES)
VALID = {name: w(_SHORT).encode() for name, w in WRITERS.items()}
VALID.update({
    "gam": write_gam(_SHORT).encode(),
    "empire": write_gam(_SHORT).encode(),
    "bgf": (DATA / "gammonview" / "bgf" / "B4_SrGcsKAQmoTyHlgJCbM.bgf").read_bytes(),
    "ogxm": write_ogxm(_SHORT),
    "snowietxt": write_snowie_txt(bg.Position.initial(), bg.MatchState(dice=(3, 1))).encode(),
    "ogid": write_ogid(bg.Position.initial(), bg.MatchState(dice=(3, 1))).encode(),
    "pos": None,
})


def _pos_bytes() -> bytes:
    import struct
    words = [126, 0, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0, 7, 2, 1]
    board = [0] * 26
    board[24], board[13], board[8], board[6] = -2, -5, -3, -5
    board[1], board[12], board[17], board[19] = 2, 5, 3, 5
    return (struct.pack("<18h", *words) + b"\x03Ann\x03Bob" + struct.pack("<3h", 0, 0, 0) + b"\x00" +
            struct.pack("<2h", 3, 1) + b"".join(struct.pack("<2h", v + 20, v + 20) for v in board))


VALID["pos"] = _pos_bytes()


def _read(name: str, data: bytes):
    fmt = get(name)
    if fmt.kind == "match":
        return fmt.read(data, partial=True)
    if name == "ogid":
        return fmt.read(data.decode("latin-1"))
    return fmt.read(data)


def test_every_valid_sample_reads():
    for name, data in VALID.items():
        assert _read(name, data) is not None, name


@st.composite
def mutated(draw, data: bytes):
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 6))):
        what = draw(st.sampled_from(["flip", "cut", "drop_line", "insert", "dup_line"]))
        if not out:
            break
        k = draw(st.integers(0, len(out) - 1))
        if what == "flip":
            out[k] = draw(st.integers(0, 255))
        elif what == "cut":
            del out[k:]
        elif what == "insert":
            out[k:k] = draw(st.binary(max_size=8))
        else:
            lines = bytes(out).split(b"\n")
            j = draw(st.integers(0, len(lines) - 1))
            if what == "drop_line":
                del lines[j]
            else:
                lines.insert(j, lines[j])
            out = bytearray(b"\n".join(lines))
    return bytes(out)


def _only_format_errors(name: str, data: bytes):
    fmt = get(name)
    try:
        _read(name, data)
    except fmt.error:
        pass
    except bg.errors.FormatError:
        pass


def test_a_row_ending_in_a_vertical_tab_is_read_or_refused():
    # Found by the fuzzer: a row whose only rest is whitespace that is not a space or a tab.
    data = (b" gnubg                          root\n  1)                             51: 13/8 24/23\n"
            b"  2)\x0b\n 64: 8/2* 6/2                62:\n")
    _only_format_errors("gam", data)
    _only_format_errors("mat", data)


@pytest.mark.parametrize("name", sorted(VALID))
@FUZZ
@given(data=st.data())
def test_mutated_files_only_raise_the_formats_error(name, data):
    _only_format_errors(name, data.draw(mutated(VALID[name])))


@pytest.mark.parametrize("name", sorted(VALID))
@FUZZ
@given(raw=st.binary(max_size=600))
def test_any_bytes_only_raise_the_formats_error(name, raw):
    _only_format_errors(name, VALID[name][:8] + raw if name in ("bgf", "ogxm", "pos") else raw)


@FUZZ
@given(raw=st.binary(max_size=400))
def test_smile_decoder_only_raises_smile_errors(raw):
    try:
        decode(b":)\n\x03" + raw)
    except SmileError:
        pass


@FUZZ
@given(raw=st.binary(max_size=400), name=st.sampled_from(sorted(VALID)))
def test_detection_and_read_match_never_crash(raw, name):
    data = VALID[name][: len(raw) % (len(VALID[name]) + 1)] + raw
    detect(data)
    try:
        read_match(data, partial=True)
    except bg.errors.FormatError:
        pass


@pytest.mark.parametrize("name", [n for n, d in VALID.items() if n != "pos" and d.isascii()])
@pytest.mark.parametrize("zero", ["\u0660", "\uff10", "\u0966"])
def test_non_ascii_digits_are_bad_text(name, zero):
    # The readers matched numbers with \d (and str.isdigit), which takes any
    # script's digits: snowietxt read '٠;٠;...' as a position; every reader
    # now refuses them with its FormatError, as parse_play does (RULES 10.1).
    text = VALID[name].decode("ascii")
    digits = "".join(chr(ord(zero) + int(c)) if c in "0123456789" else c for c in text)
    with pytest.raises(bg.errors.FormatError):
        _read(name, digits.encode())


def test_a_non_ascii_match_length_is_no_mat_header():
    # '٥ point match' was a five-point match header to the .mat reader.
    text = (DATA / "gnubg_selfplay_9.mat").read_text("ascii")
    assert " 9 point match" in text
    head, _, rest = text.partition(" point match")
    length = head.strip().split()[-1]
    bad = head[:len(head) - len(length)] + "".join(chr(0x660 + int(c)) for c in length) + " point match" + rest
    with pytest.raises(bg.errors.FormatError):
        bg.read_mat(bad.encode())
    assert bg.read_mat(text.encode()).length == 9
