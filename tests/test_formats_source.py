"""What a reader is handed (formats/source.py): a path, a pathlib.Path, an
open file, the text or its bytes all read alike; the format is told by the
content (formats/detection.py) as gnubg's ``import auto`` tells it, so
``read_match`` and the CLI's convert and analyse take any match file
whatever its name; a refusal names the file, the line and the rule."""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

import backgammon as bg
from backgammon.formats import detect, formats, get, read_match
from backgammon.formats.source import decode, load

HERE = Path(__file__).parent
DATA = HERE / "data"
SELFPLAY = DATA / "gnubg_selfplay_9.mat"
BGF = DATA / "gammonview" / "bgf" / "B4_SrGcsKAQmoTyHlgJCbM.bgf"
OGXM = DATA / "gammonview" / "ogxm" / "match.ogxm"

sys.path.insert(0, str(HERE))
from legacy_writers import WRITERS  # noqa: E402


def _events(record):
    """The games' events, a roll's dice in either order (OGXM keeps them unordered)."""
    return [[(e.kind, e.player, str(tuple(sorted(e.value)) if e.kind == "roll" else e.value)) for e in g.events]
            for g in record.games]


def test_load_takes_paths_files_text_and_bytes(tmp_path):
    raw = SELFPLAY.read_bytes()
    assert load(str(SELFPLAY)) == (raw, str(SELFPLAY))
    assert load(SELFPLAY) == (raw, str(SELFPLAY))
    with open(SELFPLAY, "rb") as f:
        assert load(f) == (raw, str(SELFPLAY))
    with open(SELFPLAY, encoding="utf-8") as f:
        assert load(f)[0] == raw
    assert load(raw.decode()) == (raw, None)               # text, not a path
    assert load(io.BytesIO(raw)) == (raw, None)
    assert load(bytearray(raw)) == (raw, None)
    assert load(str(tmp_path / "missing.mat"))[1] is None   # a name that is no file is text
    with pytest.raises(TypeError, match="source must be a path, an open file, str or bytes"):
        load(3)
    assert decode("Ren\u00e9".encode("latin-1")) == "Ren\u00e9"


@pytest.mark.parametrize("form", ["str", "path", "binary file", "text file", "text", "bytes"])
def test_every_new_reader_takes_every_source(form):
    record = bg.read_mat(SELFPLAY.read_bytes())
    text = WRITERS["tmg"](record)
    p = Path(os.environ.get("TMPDIR", "/tmp")) / f"bg_source_{os.getpid()}.tmg"
    p.write_text(text)
    try:
        source = {"str": str(p), "path": p, "binary file": open(p, "rb"), "text file": open(p),
                  "text": text, "bytes": text.encode()}[form]
        got = bg.formats.get("tmg").read(source)
        if hasattr(source, "close"):
            source.close()
    finally:
        p.unlink()
    assert _events(got) == _events(record)


def test_detect_tells_every_match_format_by_content():
    record = bg.read_mat(SELFPLAY.read_bytes())
    from backgammon.formats.gam import write_gam
    samples = {name: w(record).encode() for name, w in WRITERS.items()}
    samples.update({"mat": SELFPLAY.read_bytes(), "sgf": bg.write_sgf(record).encode(),
                    "gam": write_gam(record).encode(), "bgf": BGF.read_bytes(), "ogxm": OGXM.read_bytes()})
    for name, data in samples.items():
        assert detect(data).name == name, name
    assert detect(b"9;0;0;0;1;a;b;0;0;0;1;0;0;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;2;0;0;0;").name \
        == "snowietxt"
    assert detect(b"nothing a reader knows") is None
    assert detect(b"nothing", "x.sgf").name == "sgf"          # the extension as the last resort


def test_read_match_names_the_file_line_and_rule(tmp_path):
    record = bg.read_mat(SELFPLAY.read_bytes())
    text = WRITERS["oldmoves"](record).replace("X: (6 4) 8-2 6-2", "X: (6 4) 8-4 4-2 6-2", 1)   # RULES 3.1
    bad = tmp_path / "bad.fibs"
    bad.write_text(text)
    assert next(e for e in read_match(bad).games[0].events if e.kind == "setboard").value.rule == "3.1"
    with pytest.raises(bg.formats.get("oldmoves").error) as e:
        read_match(bad, strict=True)
    line = text.split("\n").index("X: (6 4) 8-4 4-2 6-2") + 1
    assert str(e.value).startswith(f"{bad}: game 1, line {line}: ")
    assert "4/2 moves 2 pips" in str(e.value) and e.value.line == line and e.value.game == 1
    with pytest.raises(bg.errors.FormatError, match="not a match file of any known format"):
        read_match(b"hello")
    with pytest.raises(bg.errors.FormatError, match="snowietxt position file, not a match file"):
        read_match(b"0;0;0;1;0;a;b;0;0;0;1;0;0;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;2;0;0;0;")


def test_every_format_declares_its_error_under_format_error():
    for fmt in formats().values():
        assert issubclass(fmt.error, bg.errors.FormatError), fmt.name
        assert issubclass(fmt.error, ValueError)


def _cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "backgammon", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def test_cli_converts_and_analyses_any_format_by_content(tmp_path):
    record = bg.read_mat(SELFPLAY.read_bytes())
    odd = tmp_path / "match.txt"                       # a name that says nothing of the format
    odd.write_text(WRITERS["oldmoves"](record))
    done = _cli("convert", odd, tmp_path / "out.mat", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert _events(bg.read_mat((tmp_path / "out.mat").read_bytes())) == _events(record)
    done = _cli("convert", odd, tmp_path / "out.gam", cwd=tmp_path)      # .gam: the writing format of the three
    assert done.returncode == 0, done.stderr
    assert [str(e.value) for g in read_match(tmp_path / "out.gam").games for e in g.events if e.kind == "play"] == \
        [str(e.value) for g in record.games for e in g.events if e.kind == "play"]
    bgf = tmp_path / "b.bin"
    bgf.write_bytes(BGF.read_bytes())
    done = _cli("convert", bgf, tmp_path / "b.ogxm", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "b.ogxm").read_bytes()[:4] == b"OGXM"
    again = read_match(tmp_path / "b.ogxm", partial=True)
    assert _events(again) == _events(read_match(BGF, partial=True))
    done = _cli("analyse", tmp_path / "b.ogxm", "--ply", "0", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert '"games"' in done.stdout
    bad = tmp_path / "bad.sgg"
    text = WRITERS["sgg"](record).replace("13/8, 24/23", "13/10, 10/8, 24/23", 1)   # a 3-pip step off 5-1
    bad.write_text(text)
    line = next(k for k, ln in enumerate(text.split("\n"), 1) if "13/10" in ln)
    done = _cli("convert", bad, tmp_path / "x.mat", cwd=tmp_path)       # read on: a set board (RULES 3.1)
    assert done.returncode == 0, done.stderr
    assert "51: Illegal play (" in (tmp_path / "x.mat").read_text()
    done = _cli("convert", "--strict", bad, tmp_path / "y.mat", cwd=tmp_path)
    assert done.returncode != 0 and f"{bad}: game 1, line {line}: " in done.stderr
    assert "13/10 moves 3 pips, which no die or chain of dice of 5-1 makes (RULES 3.1" in done.stderr


def test_get_knows_each_new_format():
    for name in ("bgf", "ogxm", "gam", "empire", "oldmoves", "sgg", "tmg", "party", "bgroom"):
        assert get(name).kind == "match"
    for name in ("snowietxt", "pos", "ogid"):
        assert get(name).kind == "position"
