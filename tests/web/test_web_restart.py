"""A killed server comes back with every game where it was, thinking included."""

from __future__ import annotations

import signal
import socket
import subprocess
from pathlib import Path

from web_helpers import Server, created, gridgames_command, player, wait_for

GAMES = "/api/gomoku/games"


def test_games_survive_a_killed_server(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    server = Server(db)
    try:
        http = server.http
        two_humans = created(http.post(GAMES, json={"width": 9, "height": 9, "rule": "renju",
                                                    "black": "human", "white": "human"}))["id"]
        for x, y in [(4, 4), (3, 3), (5, 4)]:
            assert http.post(f"{GAMES}/{two_humans}/moves", json={"x": x, "y": y},
                             headers=player(two_humans)).is_success
        # A long search is under way when the server dies.
        thinking = created(http.post(GAMES, json={"black": "human", "white": "computer",
                                                  "level": 6, "time_ms": 3000}))["id"]
        state = http.post(f"{GAMES}/{thinking}/moves", json={"x": 7, "y": 7},
                          headers=player(thinking)).json()
        assert state["thinking"] is True
    finally:
        server.kill()

    server = Server(db)
    try:
        http = server.http
        state = http.get(f"{GAMES}/{two_humans}").json()
        assert state["moves"] == [[4, 4], [3, 3], [5, 4]]
        assert state["rule"] == "renju" and state["to_move"] == "white"
        assert http.post(f"{GAMES}/{two_humans}/moves", json={"x": 6, "y": 6},
                         headers=player(two_humans)).is_success
        # The computer picked its search up again and answers.
        state = wait_for(http, thinking, lambda s: len(s["moves"]) == 2, timeout=30)
        assert state["moves"][0] == [7, 7] and state["to_move"] == "black"
    finally:
        server.stop()


def test_port_in_use_is_reported(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [*gridgames_command(), "serve", "--port", str(port),
             "--db", str(tmp_path / "games.sqlite3")],
            capture_output=True, text=True, timeout=60,
        )
    assert result.returncode == 1
    assert f"127.0.0.1:{port}" in result.stderr and "in use" in result.stderr
    assert "--port" in result.stderr


def test_a_server_stopped_by_sigterm_leaves_cleanly(tmp_path: Path) -> None:
    """SIGTERM, as a service manager stops a server: once the process died of the
    signal itself, after uvicorn's shutdown, and Python warned of leaked semaphores."""
    db = tmp_path / "games.sqlite3"
    server = Server(db)
    thinking = created(server.http.post(GAMES, json={"black": "human", "white": "computer",
                                                     "level": 6, "time_ms": 3000}))["id"]
    assert server.http.post(f"{GAMES}/{thinking}/moves", json={"x": 7, "y": 7},
                            headers=player(thinking)).json()["thinking"] is True
    server.stop()
    # 143 as the shell reports a process stopped by SIGTERM; uvicorn before 0.29 ends
    # its run normally instead
    assert server.process.returncode in (0, 128 + signal.SIGTERM)
    assert "leaked" not in server.output() and "Traceback" not in server.output()
    server = Server(db)
    try:
        state = wait_for(server.http, thinking, lambda s: len(s["moves"]) == 2, timeout=30)
        assert state["moves"][0] == [7, 7]
    finally:
        server.stop()
