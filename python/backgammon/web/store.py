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

__all__ = ["Session", "GameStore", "session_bytes", "MAX_GAMES", "MAX_BYTES", "ID_PATTERN"]

#: The most games kept in memory, and about the most bytes they may hold.
MAX_GAMES = 1000
MAX_BYTES = 128 << 20
#: ``session_bytes``'s estimate: a session's base and each recorded event.
BASE_BYTES = 8 << 10
EVENT_BYTES = 120
#: Ids of evicted games remembered (to answer 410, not 404).
GONE_KEPT = 100_000
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
    played: list = dataclasses.field(default_factory=list)      # the computer's plays since the last answer
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)
    touched: float = dataclasses.field(default_factory=time.monotonic)
    created: float = dataclasses.field(default_factory=time.time)

    @property
    def bot(self) -> int:
        return 1 - self.human

    def who(self, side) -> str | None:
        return None if side is None else ("you" if side == self.human else "computer")


def session_bytes(session: Session) -> int:
    """About how much memory a session holds: a base and each recorded
    event (measured: a 42-game money session of 1,768 events, resumed from
    its .mat file, holds about 210 kB)."""
    events = sum(len(g.history) for g in session.match.games)
    return BASE_BYTES + EVENT_BYTES * events


class GameStore:
    """Games by unguessable id, at most ``limit`` of them and about
    ``budget`` bytes in all (``session_bytes``): making room evicts the
    games idle longest.  An evicted game's id answers 410 with a message
    (the page then resumes from its own saved copy), never a fresh game."""

    def __init__(self, limit: int = MAX_GAMES, budget: int = MAX_BYTES):
        self.limit = limit
        self.budget = budget
        self._games: collections.OrderedDict[str, Session] = collections.OrderedDict()
        self._sizes: dict[str, int] = {}
        self._total = 0
        self._gone: collections.OrderedDict[str, None] = collections.OrderedDict()
        self._lock = threading.Lock()
        self.evicted = 0

    @property
    def bytes(self) -> int:
        """The estimated memory of the games kept."""
        return self._total

    def add(self, session_factory) -> Session:
        gid = secrets.token_urlsafe(18)
        session = session_factory(gid)
        with self._lock:
            self._games[gid] = session
            self._resize(gid, session_bytes(session))
            self._make_room(gid)
        return session

    def get(self, gid: str) -> Session:
        if not ID_PATTERN.match(gid):
            raise ApiError(404, "no such game: a game id is 16-64 characters of A-Z, a-z, 0-9, - and _", "bad_game_id")
        with self._lock:
            session = self._games.get(gid)
            if session is None:
                if gid in self._gone:
                    raise ApiError(410, "this game was removed from the server to make room for newer games; "
                                        "continue it from your saved copy (the page keeps one) or start a new game",
                                   "game_gone")
                raise ApiError(404, "no such game (the server may have restarted)", "game_not_found")
            self._games.move_to_end(gid)
            session.touched = time.monotonic()
            return session

    def update(self, session: Session) -> None:
        """Count a session's size again after it changed (it keeps its place)."""
        with self._lock:
            if session.id in self._games:
                self._resize(session.id, session_bytes(session))
                self._make_room(session.id)

    def _resize(self, gid: str, size: int) -> None:
        self._total += size - self._sizes.get(gid, 0)
        self._sizes[gid] = size

    def _make_room(self, keep: str) -> None:
        while len(self._games) > 1 and (len(self._games) > self.limit or self._total > self.budget):
            gid = next(iter(self._games))
            if gid == keep:
                self._games.move_to_end(gid)
                gid = next(iter(self._games))
            self._games.pop(gid)
            self._total -= self._sizes.pop(gid)
            self._gone[gid] = None
            while len(self._gone) > GONE_KEPT:
                self._gone.popitem(last=False)
            self.evicted += 1

    def __len__(self) -> int:
        return len(self._games)
