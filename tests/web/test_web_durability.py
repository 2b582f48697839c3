"""SIGKILL of the whole server while clients play: no acknowledged move is lost."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_helpers import GAMES, Server, created

CLIENTS = 6


def play_until_the_server_dies(url: str, game: dict[str, Any], acked: list[list[int]],
                               stop: threading.Event) -> None:
    """Play moves along the board, keeping each move the server acknowledged."""
    auth = {"Authorization": f"Bearer {game['token']}"}
    width = game["width"]
    with httpx.Client(base_url=url, timeout=10) as http:
        state = game
        spot = 0
        while not stop.is_set():
            if state["outcome"] is not None:
                return
            if state["thinking"]:
                time.sleep(0.05)
                try:
                    state = http.get(f"{GAMES}/{game['id']}").json()
                except httpx.HTTPError:
                    return
                continue
            taken = {tuple(move) for move in state["moves"]}
            # Rows two apart, so that nobody makes five in a row for a long while.
            while (spot % width, 2 * (spot // width)) in taken:
                spot += 1
            move = [spot % width, 2 * (spot // width)]
            if move[1] >= game["height"]:
                return
            try:
                response = http.post(f"{GAMES}/{game['id']}/moves",
                                     json={"x": move[0], "y": move[1]}, headers=auth)
            except httpx.HTTPError:
                return  # the server is gone: this move was never acknowledged
            if response.status_code == 200:
                state = response.json()
                acked.append(move)
            elif response.status_code == 429:
                time.sleep(float(response.headers["Retry-After"]))
            else:
                raise AssertionError(response.text)


def test_no_acknowledged_move_is_lost_when_the_server_is_killed(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    server = Server(db, workers=2)
    stop = threading.Event()
    games: list[tuple[dict[str, Any], list[list[int]]]] = []
    threads = []
    errors: list[BaseException] = []
    try:
        for index in range(CLIENTS):
            white = "computer" if index % 2 else "human"
            game = created(server.http.post(GAMES, json={
                "width": 60, "height": 60, "black": "human", "white": white, "level": 2,
                "time_ms": 200}))
            games.append((game, []))
        def play(game: dict[str, Any], acked: list[list[int]]) -> None:
            try:
                play_until_the_server_dies(server.url, game, acked, stop)
            except BaseException as error:
                errors.append(error)

        for game, acked in games:
            thread = threading.Thread(target=play, args=(game, acked))
            thread.start()
            threads.append(thread)
        time.sleep(4)
    finally:
        server.kill()  # the server and its workers, at once, mid-request
        stop.set()
        for thread in threads:
            thread.join(timeout=30)

    assert not errors, errors
    assert all(len(acked) >= 3 for _, acked in games), [len(a) for _, a in games]
    server = Server(db, workers=1)
    try:
        for game, acked in games:
            state = server.http.get(f"{GAMES}/{game['id']}").json()
            # The client's moves (every move, or black's against the computer): each
            # acknowledged one is there, in order; at most the move in flight when the
            # server died is there too.
            mine = state["moves"] if game["players"]["white"] == "human" else state["moves"][::2]
            assert mine[:len(acked)] == acked, (state["moves"], acked)
            assert len(mine) - len(acked) <= 1
    finally:
        server.stop()


def test_a_move_the_database_cannot_save_is_refused_and_not_kept(tmp_path: Path) -> None:
    import sqlite3

    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    db = tmp_path / "games.sqlite3"
    server = Server(db)
    try:
        game = created(server.http.post(GAMES, json={"width": 9, "height": 9, "black": "human",
                                                     "white": "human"}))
        auth = {"Authorization": f"Bearer {game['token']}"}
        moves = f"{GAMES}/{game['id']}/moves"
        assert server.http.post(moves, json={"x": 1, "y": 1}, headers=auth).status_code == 200
        with connect(f"{server.url.replace('http', 'ws')}{GAMES}/{game['id']}/ws") as watcher:
            assert '"state"' in str(watcher.recv(timeout=10))
            # another program holds the database: the move cannot be saved
            other = sqlite3.connect(db, isolation_level=None)
            other.execute("BEGIN EXCLUSIVE")
            refused = server.http.post(moves, json={"x": 2, "y": 2}, headers=auth)
            not_made = server.http.post(GAMES, json={})  # nor can a new game be
            other.execute("ROLLBACK")
            other.close()
            assert refused.status_code == 503, refused.text
            assert refused.json()["error"] == "store_unavailable"
            assert "database is locked" in refused.json()["detail"]
            assert "nothing was changed" in refused.json()["detail"]
            assert not_made.status_code == 503, not_made.text
            assert not_made.json()["error"] == "store_unavailable"
            assert "database is locked" in not_made.json()["detail"]
            # the server shows the game as saved, without the move, and the watcher is told
            # to connect again for it
            assert server.http.get(f"{GAMES}/{game['id']}").json()["moves"] == [[1, 1]]
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    watcher.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        # the move can be played again, and is saved
        assert server.http.post(moves, json={"x": 2, "y": 2}, headers=auth).status_code == 200
        assert server.http.get(f"{GAMES}/{game['id']}").json()["moves"] == [[1, 1], [2, 2]]
    finally:
        server.stop()
    with sqlite3.connect(db) as saved:
        row = saved.execute("SELECT moves FROM gomoku_games").fetchone()
    assert row[0] == "[[1, 1], [2, 2]]"


def test_the_server_goes_on_recording_it_runs_after_the_database_was_locked(
        tmp_path: Path) -> None:
    # What it records is when the clocks stop should it go down: a record left behind
    # would give running clocks back time that was played.
    import sqlite3

    db = tmp_path / "games.sqlite3"
    server = Server(db)
    try:
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        time.sleep(7)  # longer than a write waits for the lock
        other.execute("ROLLBACK")
        other.close()
        time.sleep(3)
        with sqlite3.connect(db) as saved:
            (alive,) = saved.execute("SELECT at FROM server_alive WHERE id = 1").fetchone()
        assert time.time() - alive < 2.5
        assert server.http.get("/api/gomoku/options").status_code == 200
    finally:
        server.stop()
