"""Saved games in SQLite, so that a restarted server resumes every game where it was.

A game row holds the board settings, who plays each side, the moves and the
thinking times, for a game under an opening rule the rule, its actions so far
and who is its first player, the game clock if it has one, and the colour that
lost other than on the board (its time ran out, or it resigned). Every change
is committed before the call returns.

>>> store = GameStore(":memory:")
>>> game = store.create(StoredGame(width=15, height=15, rule="renju"))
>>> store.set_moves(game.id, [(7, 7), (8, 8)], [0, 120])
>>> store.get(game.id).moves
[(7, 7), (8, 8)]
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import platformdirs

Point = tuple[int, int]

# How long a call waits for the database while another program holds it locked, before
# it fails with sqlite3.OperationalError "database is locked" (sqlite3's busy timeout).
WAIT_S = 5.0

# The first version's columns; the later ones are added by _ADDED_COLUMNS, to a new
# database as to an older one, so that each column is declared once.
_SCHEMA = """
CREATE TABLE IF NOT EXISTS gomoku_games (
    id TEXT PRIMARY KEY,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    rule TEXT NOT NULL,
    black TEXT NOT NULL,
    white TEXT NOT NULL,
    level INTEGER NOT NULL,
    time_ms INTEGER,
    moves TEXT NOT NULL,
    times_ms TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    updated REAL NOT NULL
)
"""

# Columns that databases written by older versions lack (player tokens, opening
# rules, then clocks, then friends invited, then rematches), added when a database is opened.
_ADDED_COLUMNS = {
    "token_hash": "TEXT NOT NULL DEFAULT ''",
    "opening": "TEXT NOT NULL DEFAULT 'free'",
    "opening_actions": "TEXT NOT NULL DEFAULT '[]'",
    "first_player": "TEXT NOT NULL DEFAULT ''",
    "clock": "TEXT NOT NULL DEFAULT ''",
    "loser": "TEXT NOT NULL DEFAULT ''",
    "termination": "TEXT NOT NULL DEFAULT ''",
    "guest_token_hash": "TEXT NOT NULL DEFAULT ''",
    "guest_seat": "TEXT NOT NULL DEFAULT ''",
    "guest_joined": "INTEGER NOT NULL DEFAULT 0",
    "rematch": "TEXT NOT NULL DEFAULT ''",
}


# A game's review (gridgames.gomoku.analysis as JSON), with the moves it judged.
_REVIEW_SCHEMA = """
CREATE TABLE IF NOT EXISTS gomoku_reviews (
    game_id TEXT PRIMARY KEY,
    moves TEXT NOT NULL,
    review TEXT NOT NULL,
    updated REAL NOT NULL
)
"""


# The server's last sign of life, so that a restarted server knows how long it was
# down (game clocks do not run meanwhile).
_ALIVE_SCHEMA = """
CREATE TABLE IF NOT EXISTS server_alive (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at REAL NOT NULL
)
"""


def default_path() -> Path:
    """The database file in the user's data folder."""
    return Path(platformdirs.user_data_dir("gridgames")) / "games.sqlite3"


@dataclass
class StoredGame:
    """One Gomoku game as saved: settings, players ("human"/"computer") and moves."""

    width: int
    height: int
    rule: str
    black: str = "human"
    white: str = "human"
    level: int = 1
    time_ms: int | None = None
    moves: list[Point] = field(default_factory=list)
    times_ms: list[int] = field(default_factory=list)
    finished: bool = False
    # SHA-256 of the player token (hex); empty for games saved before tokens existed.
    token_hash: str = ""
    # The opening rule (gridgames.gomoku.opening_rules.OpeningRule's value) and its
    # actions so far, as text ("place h8", "choose white"...).
    opening: str = "free"
    opening_actions: list[str] = field(default_factory=list)
    # Who is the opening's first player ("human"/"computer"); empty for games saved
    # before opening rules existed (black is). The second is the other one of
    # black and white, which always hold the two players, in their colours so far.
    first_player: str = ""
    # The game clock (gridgames.gomoku.clock.GameClock.to_dict), None without one;
    # how the game ended other than on the board (gridgames.gomoku.records.TERMINATIONS)
    # and the colour that lost ("black"/"white"; empty for a draw), empty while it has not.
    clock: dict[str, Any] | None = None
    loser: str = ""
    termination: str = ""
    # A friend invited to play one seat on their own device: the SHA-256 of their
    # token and their seat ("first"/"second"; without an opening rule black is
    # first), and whether they have opened the invitation; empty while none is.
    guest_token_hash: str = ""
    guest_seat: str = ""
    guest_joined: bool = False
    # The id of the game played again from this one, once a player has asked for it.
    rematch: str = ""
    id: str = ""
    created: float = 0.0
    updated: float = 0.0


class GameNotFoundError(KeyError):
    """No game is stored under this id."""


class _Deadline(threading.local):
    at: float | None = None  # time.monotonic(); None: each call waits WAIT_S


class GameStore:
    """A small game table on :mod:`sqlite3`; safe to share between threads."""

    def __init__(self, path: str | Path | None = None) -> None:
        target = default_path() if path is None else path
        if str(target) != ":memory:":
            Path(target).parent.mkdir(parents=True, exist_ok=True)
        self.path = str(target)
        self._lock = threading.Lock()
        self._deadline = _Deadline()
        self._db = sqlite3.connect(self.path, check_same_thread=False)
        self._db.row_factory = sqlite3.Row
        with self._locked(), self._db:
            if self.path != ":memory:":
                # WAL keeps readers unblocked; a commit survives the process being killed.
                self._db.execute("PRAGMA journal_mode=WAL")
                # No disk flush on every commit (a flush took up to 130 ms on a busy
                # disk, with the server stopped meanwhile): a commit is in the file as
                # soon as it returns, so it survives the server being killed, and only
                # a power cut may lose the last moments (the database stays whole).
                self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(_SCHEMA)
            self._db.execute(_REVIEW_SCHEMA)
            self._db.execute(_ALIVE_SCHEMA)
            columns = {row["name"] for row in self._db.execute("PRAGMA table_info(gomoku_games)")}
            for name, definition in _ADDED_COLUMNS.items():
                if name not in columns:
                    self._db.execute(f"ALTER TABLE gomoku_games ADD COLUMN {name} {definition}")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextlib.contextmanager
    def deadline(self, at: float) -> Iterator[None]:
        """Calls from this thread within the block wait for a database locked by another
        program until ``at`` (:func:`time.monotonic`) at most, rather than WAIT_S each:
        calls queued one after another then each end by their own deadline.

        >>> store = GameStore(":memory:")
        >>> with store.deadline(time.monotonic() + 0.5):
        ...     store.exists("no-such-game")
        False
        """
        before, self._deadline.at = self._deadline.at, at
        try:
            yield
        finally:
            self._deadline.at = before

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """The connection for one call, which waits for a locked database until this
        thread's deadline."""
        with self._lock:
            at = self._deadline.at
            wait_s = WAIT_S if at is None else max(0.0, at - time.monotonic())
            self._db.execute(f"PRAGMA busy_timeout = {round(wait_s * 1000)}")
            yield

    def create(self, game: StoredGame, *, rematch_of: str | None = None) -> StoredGame:
        """Save a new game under a fresh id and return it; with ``rematch_of``, the game
        it is a rematch of records it in the same commit."""
        now = time.time()
        saved = replace(game, id=secrets.token_urlsafe(9), created=now, updated=now)
        with self._locked(), self._db:
            self._db.execute(
                "INSERT INTO gomoku_games (id, width, height, rule, black, white, level, "
                "time_ms, moves, times_ms, finished, created, updated, token_hash, opening, "
                "opening_actions, first_player, clock, loser, termination, guest_token_hash, "
                "guest_seat, guest_joined) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (saved.id, saved.width, saved.height, saved.rule, saved.black, saved.white,
                 saved.level, saved.time_ms, json.dumps(saved.moves), json.dumps(saved.times_ms),
                 int(saved.finished), now, now, saved.token_hash, saved.opening,
                 json.dumps(saved.opening_actions), saved.first_player,
                 _clock_text(saved.clock), saved.loser, saved.termination,
                 saved.guest_token_hash, saved.guest_seat, int(saved.guest_joined)),
            )
            if rematch_of is not None:
                cursor = self._db.execute(
                    "UPDATE gomoku_games SET rematch = ?, updated = ? WHERE id = ?",
                    (saved.id, now, rematch_of))
                if cursor.rowcount == 0:
                    raise GameNotFoundError(rematch_of)  # and the new game is rolled back
        return saved

    def get(self, game_id: str) -> StoredGame:
        with self._locked():
            row = self._db.execute("SELECT * FROM gomoku_games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFoundError(game_id)
        return _from_row(row)

    def set_moves(self, game_id: str, moves: list[Point], times_ms: list[int],
                  *, finished: bool = False, clock: dict[str, Any] | None = None,
                  loser: str = "", termination: str = "") -> None:
        """Replace a game's moves (after a move or an undo), with its clock and how it was
        lost off the board, if it was, and commit."""
        with self._locked(), self._db:
            cursor = self._db.execute(
                "UPDATE gomoku_games SET moves = ?, times_ms = ?, finished = ?, clock = ?, "
                "loser = ?, termination = ?, updated = ? WHERE id = ?",
                (json.dumps(moves), json.dumps(times_ms), int(finished), _clock_text(clock),
                 loser, termination, time.time(), game_id),
            )
        if cursor.rowcount == 0:
            raise GameNotFoundError(game_id)

    def set_opening(self, game_id: str, actions: list[str], *, black: str, white: str,
                    moves: list[Point], times_ms: list[int],
                    clock: dict[str, Any] | None = None) -> None:
        """Replace a game's opening actions, with the players' colours and the stones
        they give and the clock (started when the opening ends), after an action in the
        opening, and commit them together.

        >>> store = GameStore(":memory:")
        >>> game = store.create(StoredGame(width=15, height=15, rule="freestyle",
        ...                                opening="swap", first_player="human"))
        >>> store.set_opening(game.id, ["place h8"], black="human", white="computer",
        ...                   moves=[(7, 7)], times_ms=[0])
        >>> store.get(game.id).opening_actions
        ['place h8']
        """
        with self._locked(), self._db:
            cursor = self._db.execute(
                "UPDATE gomoku_games SET opening_actions = ?, black = ?, white = ?, moves = ?, "
                "times_ms = ?, clock = ?, updated = ? WHERE id = ?",
                (json.dumps(actions), black, white, json.dumps(moves), json.dumps(times_ms),
                 _clock_text(clock), time.time(), game_id),
            )
        if cursor.rowcount == 0:
            raise GameNotFoundError(game_id)

    def set_clock(self, game_id: str, clock: dict[str, Any]) -> None:
        """Replace a game's clock alone (the server's downtime taken off it)."""
        with self._locked(), self._db:
            cursor = self._db.execute("UPDATE gomoku_games SET clock = ? WHERE id = ?",
                                      (_clock_text(clock), game_id))
        if cursor.rowcount == 0:
            raise GameNotFoundError(game_id)

    def set_guest(self, game_id: str, token_hash: str, seat: str, *,
                  joined: bool = False) -> None:
        """Save the token hash and the seat of a friend invited to play, and whether they
        have opened the invitation, and commit."""
        with self._locked(), self._db:
            cursor = self._db.execute(
                "UPDATE gomoku_games SET guest_token_hash = ?, guest_seat = ?, guest_joined = ?, "
                "updated = ? WHERE id = ?", (token_hash, seat, int(joined), time.time(), game_id))
        if cursor.rowcount == 0:
            raise GameNotFoundError(game_id)

    def mark_alive(self, now: float) -> None:
        """Record that the server is running at ``now`` (seconds since the epoch)."""
        with self._locked(), self._db:
            self._db.execute("INSERT INTO server_alive (id, at) VALUES (1, ?) "
                             "ON CONFLICT (id) DO UPDATE SET at = excluded.at", (now,))

    def last_alive(self) -> float | None:
        """When a server last recorded it was running, None if none ever did.

        >>> store = GameStore(":memory:")
        >>> store.last_alive() is None
        True
        >>> store.mark_alive(100.0); store.mark_alive(101.0); store.last_alive()
        101.0
        """
        with self._locked():
            row = self._db.execute("SELECT at FROM server_alive WHERE id = 1").fetchone()
        return None if row is None else float(row["at"])

    def delete(self, game_id: str) -> None:
        with self._locked(), self._db:
            self._db.execute("DELETE FROM gomoku_games WHERE id = ?", (game_id,))
            self._db.execute("DELETE FROM gomoku_reviews WHERE game_id = ?", (game_id,))

    def save_review(self, game_id: str, moves: list[Point], review: dict[str, Any]) -> None:
        """Keep a game's review (replacing an earlier one) with the moves it judged.

        >>> store = GameStore(":memory:")
        >>> game = store.create(StoredGame(width=15, height=15, rule="freestyle"))
        >>> store.save_review(game.id, [(7, 7)], {"moves": []})
        >>> store.review(game.id)
        ([(7, 7)], {'moves': []})
        """
        if not self.exists(game_id):
            raise GameNotFoundError(game_id)
        with self._locked(), self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO gomoku_reviews (game_id, moves, review, updated) "
                "VALUES (?, ?, ?, ?)",
                (game_id, json.dumps(moves), json.dumps(review), time.time()),
            )

    def review(self, game_id: str) -> tuple[list[Point], dict[str, Any]] | None:
        """The saved review of a game and the moves it judged, or None."""
        with self._locked():
            row = self._db.execute("SELECT moves, review FROM gomoku_reviews WHERE game_id = ?",
                                   (game_id,)).fetchone()
        if row is None:
            return None
        return [(x, y) for x, y in json.loads(row["moves"])], json.loads(row["review"])

    def exists(self, game_id: str) -> bool:
        with self._locked():
            row = self._db.execute("SELECT 1 FROM gomoku_games WHERE id = ?",
                                   (game_id,)).fetchone()
        return row is not None

    def unfinished(self) -> Iterator[StoredGame]:
        """Games still in progress, oldest first."""
        with self._locked():
            rows = self._db.execute(
                "SELECT * FROM gomoku_games WHERE finished = 0 ORDER BY created"
            ).fetchall()
        return (_from_row(row) for row in rows)


def _clock_text(clock: dict[str, Any] | None) -> str:
    return "" if clock is None else json.dumps(clock)


def _from_row(row: sqlite3.Row) -> StoredGame:
    return StoredGame(
        id=row["id"],
        width=row["width"],
        height=row["height"],
        rule=row["rule"],
        black=row["black"],
        white=row["white"],
        level=row["level"],
        time_ms=row["time_ms"],
        moves=[(x, y) for x, y in json.loads(row["moves"])],
        times_ms=list(json.loads(row["times_ms"])),
        finished=bool(row["finished"]),
        created=row["created"],
        updated=row["updated"],
        token_hash=row["token_hash"],
        opening=row["opening"],
        opening_actions=list(json.loads(row["opening_actions"])),
        first_player=row["first_player"],
        clock=json.loads(row["clock"]) if row["clock"] else None,
        loser=row["loser"],
        termination=row["termination"],
        guest_token_hash=row["guest_token_hash"],
        guest_seat=row["guest_seat"],
        guest_joined=bool(row["guest_joined"]),
        rematch=row["rematch"],
    )
