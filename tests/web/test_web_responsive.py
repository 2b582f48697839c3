"""Slow work does not hold up the server: a save waiting for a locked database leaves
every other request answered at once, and saves queued behind it are each answered
about 5 s (the store's WAIT_S) after they were sent, not 5 s times their place.

Each test holds the slow request open (the database locked by another connection) and
checks the order of events: the other requests are answered while it is still pending,
whatever the machine's load.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator

import httpx
import pytest
from web_helpers import GAMES, Server, created

from gridgames.store import WAIT_S

# How long the request under test is given to reach the server and start waiting.
SETTLE_S = 0.5
# A request refused for a locked database is answered within this of being sent: its
# WAIT_S, and room for a busy machine (well under two WAIT_S, what a second save in
# the queue took when each waited its full WAIT_S in turn).
ANSWERED_WITHIN_S = WAIT_S + 2.5


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("responsive") / "games.sqlite3")
    try:
        yield running
    finally:
        running.stop()


class Pending:
    """A request run in a thread; ``done`` is set once it is answered."""

    def __init__(self, send: Callable[[httpx.Client], httpx.Response], url: str) -> None:
        self.done = threading.Event()
        self.response: httpx.Response | None = None
        self.error: BaseException | None = None
        self.sent = time.monotonic()
        self.took = 0.0  # seconds from sent to answered

        def run() -> None:
            try:
                with httpx.Client(base_url=url, timeout=60) as http:
                    self.response = send(http)
            except BaseException as error:
                self.error = error
            finally:
                self.took = time.monotonic() - self.sent
                self.done.set()

        self.thread = threading.Thread(target=run)
        self.thread.start()

    def result(self) -> httpx.Response:
        self.thread.join(timeout=60)
        assert self.error is None, self.error
        assert self.response is not None
        return self.response


def new_game(server: Server) -> tuple[str, dict[str, str]]:
    game = created(server.http.post(GAMES, json={"width": 9, "height": 9, "black": "human",
                                                 "white": "human"}))
    return game["id"], {"Authorization": f"Bearer {game['token']}"}


def post_move(server: Server, game_id: str, auth: dict[str, str], x: int, y: int) -> Pending:
    return Pending(lambda http: http.post(f"{GAMES}/{game_id}/moves", json={"x": x, "y": y},
                                          headers=auth), server.url)


def saved_moves(db: str, game_id: str) -> str:
    with sqlite3.connect(db) as saved:
        (moves,) = saved.execute("SELECT moves FROM gomoku_games WHERE id = ?",
                                 (game_id,)).fetchone()
    return str(moves)


@contextlib.contextmanager
def database_locked(server: Server) -> Iterator[None]:
    """Another program holds the database's write lock (readers may still read) until
    the block ends."""
    other = sqlite3.connect(server_db(server), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def server_db(server: Server) -> str:
    return str(server.log.parent / "games.sqlite3")


@pytest.mark.parametrize("released", [True, False], ids=["lock-released", "lock-kept"])
def test_a_move_waiting_for_a_locked_database_holds_up_no_other_request(
        server: Server, released: bool) -> None:
    game_id, auth = new_game(server)
    other_id, other_auth = new_game(server)
    assert server.http.post(f"{GAMES}/{other_id}/moves", json={"x": 4, "y": 4},
                            headers=other_auth).status_code == 200
    with database_locked(server):
        move = post_move(server, game_id, auth, 1, 1)
        time.sleep(SETTLE_S)  # the move is waiting for the lock now
        # A read of the same game waits for the move's save: it never shows it unsaved.
        same = Pending(lambda http: http.get(f"{GAMES}/{game_id}"), server.url)
        # Meanwhile the server answers the rest, the other game's live stream included.
        assert server.http.get("/api/gomoku/options").status_code == 200
        assert server.http.get(f"{GAMES}/{other_id}").json()["moves"] == [[4, 4]]
        from websockets.sync.client import connect
        with connect(f"{server.url.replace('http', 'ws')}{GAMES}/{other_id}/ws") as watcher:
            assert '"state"' in str(watcher.recv(timeout=10))
        assert not move.done.is_set(), "the other requests waited for the locked save"
        if not released:
            answer = move.result()  # the lock outlasts the save's wait: refused
    if released:
        answer = move.result()
        assert answer.status_code == 200, answer.text
        assert answer.json()["moves"] == [[1, 1]]
        assert saved_moves(server_db(server), game_id) == "[[1, 1]]"
        assert same.result().json()["moves"] == [[1, 1]]
    else:
        assert answer.status_code == 503, answer.text
        assert answer.json()["error"] == "store_unavailable"
        assert "database is locked" in answer.json()["detail"]
        assert same.result().json()["moves"] == []
        assert server.http.get(f"{GAMES}/{game_id}").json()["moves"] == []
        assert saved_moves(server_db(server), game_id) == "[]"


def test_moves_of_one_game_waiting_for_the_database_are_saved_in_order_once(
        server: Server) -> None:
    game_id, auth = new_game(server)
    with database_locked(server):
        first = post_move(server, game_id, auth, 1, 1)
        time.sleep(SETTLE_S)
        again = post_move(server, game_id, auth, 1, 1)  # the same point, sent twice
        time.sleep(SETTLE_S)
        second = post_move(server, game_id, auth, 2, 2)
        time.sleep(SETTLE_S)
        assert not (first.done.is_set() or again.done.is_set() or second.done.is_set())
    assert first.result().json()["moves"] == [[1, 1]], first.result().text
    assert again.result().status_code == 409 and again.result().json()["error"] == "occupied"
    assert second.result().json()["moves"] == [[1, 1], [2, 2]], second.result().text
    assert saved_moves(server_db(server), game_id) == "[[1, 1], [2, 2]]"


def assert_refused_in_time(moves: list[Pending]) -> None:
    """Each move was refused for the locked database, within its own wait."""
    for number, move in enumerate(moves, start=1):
        answer = move.result()
        assert answer.status_code == 503, answer.text
        assert answer.json()["error"] == "store_unavailable"
        assert move.took < ANSWERED_WITHIN_S, \
            f"move {number} was answered {move.took:.1f} s after it was sent"


def test_saves_queued_for_a_locked_database_each_wait_from_when_they_were_sent(
        server: Server) -> None:
    games = [new_game(server) for _ in range(6)]
    with database_locked(server):
        moves = [post_move(server, game_id, auth, 1, 1) for game_id, auth in games]
        for move in moves:
            move.thread.join(timeout=60)
    assert_refused_in_time(moves)
    # Nothing refused was kept; the database takes moves again once it is free.
    for game_id, auth in games:
        assert saved_moves(server_db(server), game_id) == "[]"
        assert server.http.get(f"{GAMES}/{game_id}").json()["moves"] == []
        answer = server.http.post(f"{GAMES}/{game_id}/moves", json={"x": 2, "y": 2},
                                  headers=auth)
        assert answer.status_code == 200, answer.text
        assert saved_moves(server_db(server), game_id) == "[[2, 2]]"


def test_moves_of_one_game_queued_for_a_locked_database_each_wait_from_when_sent(
        server: Server) -> None:
    # each waits for the game's lock behind the one before, then for the database
    game_id, auth = new_game(server)
    with database_locked(server):
        moves = []
        for point in (1, 2, 3):
            moves.append(post_move(server, game_id, auth, point, point))
            time.sleep(SETTLE_S)
        for move in moves:
            move.thread.join(timeout=60)
    assert_refused_in_time(moves)
    assert saved_moves(server_db(server), game_id) == "[]"
    answer = server.http.post(f"{GAMES}/{game_id}/moves", json={"x": 4, "y": 4}, headers=auth)
    assert answer.json()["moves"] == [[4, 4]], answer.text
    assert saved_moves(server_db(server), game_id) == "[[4, 4]]"
