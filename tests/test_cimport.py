"""Another Cython project can cimport the installed kernels (the .pxd files
and headers ship with the package)."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import backgammon as bg

EXT = textwrap.dedent("""
    # cython: language_level=3
    from libc.stdlib cimport malloc, free
    from backgammon._movegen cimport Generator, new_generator, generate, MAX_PLAYS, BOARD_BYTES
    from backgammon._board cimport check_board, BOARD_OK

    def count(bytes board, int d1, int d2):
        cdef Generator* g = new_generator()
        cdef unsigned char* out = <unsigned char*>malloc(MAX_PLAYS * BOARD_BYTES)
        if check_board(board) != BOARD_OK:
            raise ValueError("bad board")
        cdef int n = generate(g, board, d1, d2, out, NULL, True)
        free(out)
        free(g)
        return n
""")

SETUP = textwrap.dedent("""
    import numpy, backgammon
    from setuptools import setup, Extension
    from Cython.Build import cythonize
    inc = backgammon.get_include()
    setup(name="uses_bg", ext_modules=cythonize(
        [Extension("uses_bg", ["uses_bg.pyx"], include_dirs=[inc + "/backgammon", numpy.get_include()])],
        include_path=[inc], quiet=True))
""")


def test_a_cython_extension_cimports_the_move_generator(tmp_path):
    pytest.importorskip("Cython")
    pytest.importorskip("setuptools")
    inc = bg.get_include()
    for name in ("_movegen.pxd", "_board.pxd", "_bearoff.pxd", "_net.pxd", "_bits.h", "__init__.pxd"):
        assert os.path.exists(os.path.join(inc, "backgammon", name)), name
    (tmp_path / "uses_bg.pyx").write_text(EXT)
    (tmp_path / "setup.py").write_text(SETUP)
    build = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr[-3000:]
    run = subprocess.run([sys.executable, "-c", "import uses_bg, backgammon as bg; "
                          "print(uses_bg.count(bg.Position.initial().to_bytes(), 3, 1))"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr[-3000:]
    assert int(run.stdout) == 16 == len(bg.Position.initial().legal_plays((3, 1)))


def test_the_rules_document_ships_with_the_package():
    # Error messages cite "RULES n.m": the numbered sections of this file.
    path = os.path.join(bg.get_include(), "backgammon", "RULES.md")
    text = open(path, encoding="utf-8").read()
    assert "3.4 A player must use as many dice" in text and "8.3 Dead cube" in text
