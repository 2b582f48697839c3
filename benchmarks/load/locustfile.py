"""Load scenarios for `gridgames serve` (locust); loopback only.

The reference scenario: players each play a human-vs-computer game at the
highest level, 500 ms a move, for 15 moves, while other clients ask for queens
counts, queens solutions and hints over and over. A 429 (every engine busy) is
expected pushback: the client waits Retry-After and tries again, as the page does.

Run it through ``benchmarks/load/run_scenario.py``, which starts the server,
kills an engine worker mid-run and checks the rules; or by hand::

    locust -f benchmarks/load/locustfile.py --headless -u 86 -r 20 -t 6m \\
        --host http://127.0.0.1:8000

Environment: ``GRIDGAMES_LOAD_PLAYERS`` / ``GRIDGAMES_LOAD_SPAMMERS`` (user counts,
default 80 / 6), ``GRIDGAMES_LOAD_MOVES`` (15), ``GRIDGAMES_LOAD_TIME_MS`` (500),
``GRIDGAMES_LOAD_CLOCK`` (a game clock such as ``0.25+1``: the players' games are on
it, with no time per move), ``GRIDGAMES_LOAD_RESULTS`` (a JSON file for what every
player last saw).
"""

from __future__ import annotations

import json
import os
import random
import time
from typing import Any
from urllib.parse import urlparse

from locust import HttpUser, between, events, task
from locust.exception import StopUser

GAMES = "/api/gomoku/games"
PLAYERS = int(os.environ.get("GRIDGAMES_LOAD_PLAYERS", "80"))
SPAMMERS = int(os.environ.get("GRIDGAMES_LOAD_SPAMMERS", "6"))
MOVES = int(os.environ.get("GRIDGAMES_LOAD_MOVES", "15"))
TIME_MS = int(os.environ.get("GRIDGAMES_LOAD_TIME_MS", "500"))
RESULTS = os.environ.get("GRIDGAMES_LOAD_RESULTS")
CLOCK = os.environ.get("GRIDGAMES_LOAD_CLOCK") or None
SIZE = 15
POLL_SECONDS = 0.25

# game id -> what its player last saw: moves, the outcome, and the searches' times
seen: dict[str, dict[str, Any]] = {}
# Every failed request and every 5xx of the whole run (locust's own table may be
# reset once all users are running, to show the steady state).
failures: dict[str, Any] = {"failed": 0, "5xx": 0, "examples": []}


@events.test_start.add_listener
def _loopback_only(environment: Any, **_: Any) -> None:
    host = urlparse(environment.host or "").hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit(f"load tests go to the loopback address only, not {host!r}")


@events.request.add_listener
def _count_failures(request_type: str, name: str, response: Any = None,
                    exception: Any = None, **_: Any) -> None:
    status = getattr(response, "status_code", 0) or 0
    if status >= 500:
        failures["5xx"] += 1
    if exception is not None:
        failures["failed"] += 1
        if len(failures["examples"]) < 10:
            failures["examples"].append(f"{request_type} {name}: {exception}")


@events.quitting.add_listener
def _write_results(environment: Any, **_: Any) -> None:
    if RESULTS:
        with open(RESULTS, "w") as out:
            json.dump({"games": seen, "failures": failures}, out)


def _search_event(environment: Any, name: str, ms: int) -> None:
    """Search and queue times go into locust's table as their own rows."""
    environment.events.request.fire(request_type="ENGINE", name=name, response_time=ms,
                                    response_length=0, exception=None, context={})


class Client(HttpUser):
    abstract = True

    def send(self, method: str, path: str, *, name: str, **kwargs: Any) -> Any:
        """A request; 429 is retried after Retry-After (counted, not a failure)."""
        while True:
            with self.client.request(method, path, name=name, catch_response=True,
                                     **kwargs) as response:
                if response.status_code == 429:
                    response.success()
                    _search_event(self.environment, "429 busy (retried)", 0)
                    wait = float(response.headers.get("Retry-After", "1"))
                    time.sleep(min(wait, 10) * random.uniform(0.5, 1.0))
                    continue
                if response.status_code >= 400:
                    response.failure(f"{response.status_code}: {response.text[:200]}")
                return response


class Player(Client):
    """Plays MOVES moves against the computer at the highest level (a new game whenever
    one is over), then idles."""

    fixed_count = PLAYERS
    wait_time = between(0.2, 0.6)  # a person's thinking time between moves

    def on_start(self) -> None:
        options = self.send("GET", "/api/gomoku/options", name="options").json()
        self.top_level = max(level["number"] for level in options["levels"])
        self.played = 0
        self.new_game()

    def new_game(self) -> None:
        top_level = self.top_level
        response = self.send("POST", GAMES, name="create game", json={
            "width": SIZE, "height": SIZE, "black": "human", "white": "computer",
            "level": top_level, "time_ms": None if CLOCK else TIME_MS, "clock": CLOCK})
        state = response.json()
        self.game_id: str = state["id"]
        self.auth = {"Authorization": f"Bearer {state['token']}"}
        self.state: dict[str, Any] = state
        self.rng = random.Random(self.game_id)
        seen[self.game_id] = {"moves": [], "outcome": None, "time_ms": [], "queued_ms": []}

    def remember(self, state: dict[str, Any]) -> None:
        self.state = state
        seen[self.game_id]["moves"] = state["moves"]
        seen[self.game_id]["outcome"] = state["outcome"]

    def choose(self) -> list[int]:
        taken = {tuple(move) for move in self.state["moves"]}
        centre = SIZE // 2
        spots = [(x, y) for x in range(SIZE) for y in range(SIZE) if (x, y) not in taken]
        spots.sort(key=lambda p: abs(p[0] - centre) + abs(p[1] - centre) + self.rng.random() * 4)
        return list(spots[0])

    @task
    def move(self) -> None:
        if self.played >= MOVES:
            raise StopUser()
        if self.state["outcome"] is not None:
            self.new_game()
        x, y = self.choose()
        response = self.send("POST", f"{GAMES}/{self.game_id}/moves", name="play move",
                             json={"x": x, "y": y}, headers=self.auth)
        if response.status_code != 200:
            raise StopUser()
        self.played += 1
        state = response.json()
        self.remember(state)
        # The computer's reply: follow the game until it is the human's turn again.
        played = len(state["moves"])
        while state["outcome"] is None and len(state["moves"]) == played:
            time.sleep(POLL_SECONDS * random.uniform(0.6, 1.4))  # clients are not in step
            response = self.send("GET", f"{GAMES}/{self.game_id}", name="get game")
            if response.status_code != 200:
                raise StopUser()
            state = response.json()
            if len(state["moves"]) >= played:
                self.remember(state)
        search = state["last_search"]
        if search is not None and len(state["moves"]) > played:
            seen[self.game_id]["time_ms"].append(search["time_ms"])
            seen[self.game_id]["queued_ms"].append(search["queued_ms"])
            _search_event(self.environment, "search time_ms", search["time_ms"])
            _search_event(self.environment, "queue queued_ms", search["queued_ms"])


class Spammer(Client):
    """Asks for queens counts, queens solutions and hints over and over."""

    fixed_count = SPAMMERS
    wait_time = between(0.0, 0.2)

    def on_start(self) -> None:
        # A two-human game with a few moves, to ask hints about.
        state = self.send("POST", GAMES, name="create game", json={
            "width": SIZE, "height": SIZE, "black": "human", "white": "human"}).json()
        auth = {"Authorization": f"Bearer {state['token']}"}
        for x, y in [(7, 7), (8, 8), (7, 8), (6, 6)]:
            self.send("POST", f"{GAMES}/{state['id']}/moves", name="play move",
                      json={"x": x, "y": y}, headers=auth)
        self.hint_game = state["id"]

    @task(3)
    def queens_count(self) -> None:
        self.send("GET", "/api/queens/count", name="queens count",
                  params={"n": random.randint(8, 16)})

    @task(2)
    def queens_solve(self) -> None:
        n = random.randint(8, 32)
        self.send("POST", "/api/queens/solve", name="queens solve",
                  json={"n": n, "queens": [[0, random.randrange(n)]]})

    @task(3)
    def hint(self) -> None:
        self.send("GET", f"{GAMES}/{self.hint_game}/hint", name="hint")

    @task(2)
    def options(self) -> None:
        self.send("GET", "/api/gomoku/options", name="options")
