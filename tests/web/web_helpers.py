"""Helpers for the web tests: polling a game and running `gridgames serve`."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
GAMES = "/api/gomoku/games"
# game id -> player token, for the games the tests created
TOKENS: dict[str, str] = {}


def player(game_id: str) -> dict[str, str]:
    """The headers that make a request come from the game's player."""
    return {"Authorization": f"Bearer {TOKENS[game_id]}"}


def created(response: Any) -> dict[str, Any]:
    """The state of a game just created (or imported), remembering its token."""
    assert response.status_code == 201, response.text
    state: dict[str, Any] = response.json()
    TOKENS[state["id"]] = state["token"]
    return state


def new_game(client: Any, **settings: Any) -> dict[str, Any]:
    """Create a game (9 × 9, two humans unless ``settings`` say otherwise)."""
    body = {"width": 9, "height": 9, "black": "human", "white": "human", **settings}
    return created(client.post(GAMES, json=body))


def play(client: Any, game_id: str, x: int, y: int) -> dict[str, Any]:
    """Play a move that must be accepted."""
    response = client.post(f"{GAMES}/{game_id}/moves", json={"x": x, "y": y},
                           headers=player(game_id))
    assert response.status_code == 200, response.text
    return response.json()


def assert_error(response: Any, status: int, code: str, *words: str) -> dict[str, Any]:
    """An error reply: its status, its code, and the words its detail must hold; its body."""
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["error"] == code, body
    assert isinstance(body["detail"], str) and body["detail"], body
    for word in words:
        assert word in body["detail"], body
    return body


def wait_for(client: Any, game_id: str, done: Callable[[dict[str, Any]], bool],
             timeout: float = 60.0) -> dict[str, Any]:
    """Poll the game (with a TestClient or httpx.Client) until ``done(state)``."""
    deadline = time.monotonic() + timeout
    while True:
        state: dict[str, Any] = client.get(f"/api/gomoku/games/{game_id}").json()
        if done(state):
            return state
        assert time.monotonic() < deadline, f"timed out waiting; last state {state}"
        time.sleep(0.05)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def gridgames_command() -> list[str]:
    script = Path(sys.executable).parent / "gridgames"
    return [str(script)] if script.exists() else [sys.executable, "-m", "gridgames.cli.main"]


class Server:
    """``gridgames serve`` in a subprocess on a free port."""

    def __init__(self, db: Path, port: int | None = None, workers: int = 1,
                 options: tuple[str, ...] = ()) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = db.parent / f"server-{self.port}.log"
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [*gridgames_command(), "serve", "--port", str(self.port), "--db", str(db),
                 "--workers", str(workers), *options],
                stdout=log, stderr=subprocess.STDOUT, text=True,
                start_new_session=True,  # its engine workers go with it when it is killed
            )
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{self.url}/api/gomoku/options", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server did not start: {self.output()}")
            time.sleep(0.1)
        self.http = httpx.Client(base_url=self.url, timeout=30)

    def output(self) -> str:
        return self.log.read_text()

    def kill(self) -> None:
        """Kill the server and its workers at once, as a crash would."""
        self.http.close()
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        self.http.close()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=15)
