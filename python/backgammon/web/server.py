"""The web server under its older module name: ``create_app`` is
``routes.create_app``; the store, limits and levels are re-exported here.

>>> from backgammon.web.server import MAX_BODY
>>> MAX_BODY
65536
"""
from .computer import LEVELS
from .middleware import MAX_BODY
from .routes import create_app, is_loopback
from .store import MAX_GAMES, GameStore

__all__ = ["create_app", "GameStore", "LEVELS", "MAX_BODY", "MAX_GAMES", "is_loopback"]
