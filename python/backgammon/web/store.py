"""The games the server holds: one :class:`Session` per game against the
computer, kept by unguessable id in a :class:`GameStore`."""
from __future__ import annotations

import collections
import dataclasses
import re
import secrets
import threading
import time
from typing import Any

from ..game import Game
from ..match import Match
from .schemas import ApiError

__all__ = ["Session", "GameStore", "MAX_GAMES", "ID_PATTERN"]

#: The most games kept in memory.
MAX_GAMES = 1000
#: What a game id looks like (the store makes 24 URL-safe characters).
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


@dataclasses.dataclass
class Session:
    """One human against the computer: a match (or money session), its
    current game, and who plays which side.  ``seed`` makes the match's
    dice (a rebuilt match gets the same ones)."""

    id: str
    match: Match
    game: Game
    human: int
    level: str
    computer: Any
    seed: int = 0
    offered: set = dataclasses.field(default_factory=set)       # resignation levels the computer offered
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)
    touched: float = dataclasses.field(default_factory=time.monotonic)
    created: float = dataclasses.field(default_factory=time.time)

    @property
    def bot(self) -> int:
        return 1 - self.human

    def who(self, side) -> str | None:
        return None if side is None else ("you" if side == self.human else "computer")


class GameStore:
    """Games by unguessable id, at most ``limit`` of them: adding one more
    evicts the one idle longest."""

    def __init__(self, limit: int = MAX_GAMES):
        self.limit = limit
        self._games: collections.OrderedDict[str, Session] = collections.OrderedDict()
        self._lock = threading.Lock()
        self.evicted = 0

    def add(self, session_factory) -> Session:
        gid = secrets.token_urlsafe(18)
        session = session_factory(gid)
        with self._lock:
            self._games[gid] = session
            while len(self._games) > self.limit:
                self._games.popitem(last=False)
                self.evicted += 1
        return session

    def get(self, gid: str) -> Session:
        if not ID_PATTERN.match(gid):
            raise ApiError(404, "no such game: a game id is 16-64 characters of A-Z, a-z, 0-9, - and _")
        with self._lock:
            session = self._games.get(gid)
            if session is None:
                raise ApiError(404, "no such game (it may have ended long ago and been evicted)")
            self._games.move_to_end(gid)
            session.touched = time.monotonic()
            return session

    def __len__(self) -> int:
        return len(self._games)
