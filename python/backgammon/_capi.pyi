"""The functions behind the public Cython API (docs/cython-api.md).

Type stub for the Cython extension module built from src/backgammon/_capi.pyx.
"""

API_VERSION: int
