"""Games with a clock through the JSON API, with real engine workers and SQLite: time
spent and added, a flag that falls while nobody moves, the computer on its clock, a
clock that runs on across a restart; and games ended by resigning."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_helpers import GAMES, Server, assert_error, created, new_game, play, player, wait_for

from gridgames.gomoku import Color
from gridgames.gomoku.clock import GameClock
from gridgames.store import GameStore
from gridgames.web import create_app
from gridgames.web.engine import EnginePool


def test_each_side_spends_its_own_time_and_gets_the_increment(client: TestClient) -> None:
    state = new_game(client, clock="1+5")
    clock = state["clock"]
    assert (clock["text"], clock["initial_ms"], clock["increment_ms"]) == ("1+5", 60_000, 5000)
    assert clock["running"] == "black" and clock["black_ms"] <= 60_000
    time.sleep(0.3)
    state = play(client, state["id"], 4, 4)
    clock = state["clock"]
    assert clock["running"] == "white"
    # black spent at least the 0.3 s waited, and got 5 s back
    assert 60_000 < clock["black_ms"] <= 65_000 - 300
    assert clock["white_ms"] <= 60_000
    record = client.get(f"{GAMES}/{state['id']}/record", params={"format": "json"}).json()
    assert record["times_ms"][0] >= 300  # the move's time as the clock counted it


def test_the_flag_falls_while_nobody_moves(client: TestClient) -> None:
    state = new_game(client, clock="0.02")  # 1.2 s a side
    game_id = state["id"]
    play(client, game_id, 4, 4)
    state = wait_for(client, game_id, lambda s: s["outcome"] is not None, timeout=20)
    assert state["outcome"] == {"winner": "black", "line": [], "result": "1-0",
                                "draw_reason": "", "termination": "time forfeit"}
    assert state["clock"]["running"] is None and state["clock"]["white_ms"] == 0
    record = client.get(f"{GAMES}/{game_id}/record", params={"format": "json"}).json()
    assert (record["result"], record["termination"], record["clock"]) == (
        "1-0", "time forfeit", "0.02+0")
    assert_error(client.post(f"{GAMES}/{game_id}/moves", json={"x": 0, "y": 0},
                             headers=player(game_id)), 409, "game_over",
                 "white's time ran out, black wins")


def test_moves_cannot_be_taken_back_under_a_clock(client: TestClient) -> None:
    state = new_game(client, clock="5+0")
    play(client, state["id"], 4, 4)
    assert_error(client.post(f"{GAMES}/{state['id']}/undo", headers=player(state["id"])),
                 409, "timed_game", "cannot be taken back in a game with a clock")


@pytest.mark.parametrize(("clock", "words"), [
    ("soon", ("cannot read the clock 'soon'", "such as 5+3")),
    ("0+5", ("a clock needs 1 second to 600 minutes a side",)),
])
def test_a_clock_that_cannot_be_set_is_refused(client: TestClient, clock: str,
                                               words: tuple[str, ...]) -> None:
    assert_error(client.post(GAMES, json={"clock": clock}), 422, "invalid_value", *words)


def test_the_clock_starts_when_the_opening_ends(client: TestClient) -> None:
    state = new_game(client, width=15, height=15, opening="swap", clock="2+0")
    game_id = state["id"]
    assert state["clock"]["running"] is None
    for action in ["place h8", "place h9", "place j8"]:
        state = client.post(f"{GAMES}/{game_id}/opening", json={"action": action},
                            headers=player(game_id)).json()
    time.sleep(0.2)  # not counted: the opening has no clock
    assert state["clock"]["running"] is None and state["clock"]["black_ms"] == 120_000
    state = client.post(f"{GAMES}/{game_id}/opening", json={"action": "choose white"},
                        headers=player(game_id)).json()
    assert state["clock"]["running"] == "white"


def test_the_computer_plays_on_its_clock(client: TestClient) -> None:
    state = new_game(client, width=15, height=15, black="computer", white="human",
                     clock="0.25+1", time_ms=None, level=6)  # 15 s a side
    game_id = state["id"]
    state = wait_for(client, game_id, lambda s: len(s["moves"]) == 1 and not s["thinking"])
    first = state["clock"]["black_ms"]
    assert state["clock"]["running"] == "white" and 1000 < first <= 16_000
    for x in (0, 14):
        state = play(client, game_id, x, 0)
        count = len(state["moves"]) + 1
        state = wait_for(client, game_id, lambda s, n=count: len(s["moves"]) == n
                         and not s["thinking"])
    clock = state["clock"]
    assert state["outcome"] is None and clock["running"] == "white"
    # three moves, each within what the clock left, each followed by its second
    spent = 15_000 + 3 * 1000 - clock["black_ms"]
    times = client.get(f"{GAMES}/{game_id}/record", params={"format": "json"}).json()["times_ms"]
    assert spent > 0 and abs(spent - sum(times[0::2])) <= 50


def test_no_clock_runs_while_the_server_is_down(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    server = Server(db)
    try:
        http = server.http
        up = time.time()
        first = created(http.post(GAMES, json={"width": 9, "height": 9, "black": "human",
                                               "white": "human", "clock": "0.05"}))  # 3 s
        second = created(http.post(GAMES, json={"width": 9, "height": 9, "black": "human",
                                                "white": "human", "clock": "10"}))
        play(http, second["id"], 4, 4)
    finally:
        server.kill()
    # A clock is charged at most the server's last second of life beyond what ran.
    charged_at_most_ms = (time.time() - up) * 1000 + 1000 + 500
    saved = GameStore(db).get(first["id"])
    assert saved.clock is not None and saved.clock["running"] == "black"
    time.sleep(3.5)  # longer than black's whole clock
    server = Server(db)
    try:
        http = server.http
        state = http.get(f"{GAMES}/{first['id']}").json()
        assert state["outcome"] is None and state["clock"]["running"] == "black"
        assert 3000 - charged_at_most_ms < state["clock"]["black_ms"] < 3000
        state = http.get(f"{GAMES}/{second['id']}").json()
        assert state["clock"]["running"] == "white"
        assert 600_000 - charged_at_most_ms < state["clock"]["white_ms"] < 600_000
        # The clock runs on from the restart, and the flag falls.
        outcome = wait_for(http, first["id"], lambda state: state["outcome"] is not None,
                           timeout=10)["outcome"]
        assert (outcome["termination"], outcome["winner"]) == ("time forfeit", "white")
    finally:
        server.stop()
    # A server stopped cleanly: the clocks stand still from its last moment.
    stopped = GameStore(db).last_alive()
    assert stopped is not None and abs(stopped - time.time()) < 5
    saved = GameStore(db).get(second["id"])
    assert saved.clock is not None
    white_at_stop = GameClock.from_dict(saved.clock).left_ms(Color.WHITE, stopped)
    time.sleep(1.5)
    server = Server(db)
    try:
        state = server.http.get(f"{GAMES}/{second['id']}").json()
        assert white_at_stop - 1500 < state["clock"]["white_ms"] < white_at_stop
    finally:
        server.stop()


# -- resigning -------------------------------------------------------------------------


def test_the_human_resigns_against_the_computer(client: TestClient) -> None:
    state = new_game(client, black="computer", white="human", clock="5+0", level=1)
    game_id = state["id"]
    state = wait_for(client, game_id, lambda s: len(s["moves"]) == 1 and not s["thinking"])
    response = client.post(f"{GAMES}/{game_id}/resign", headers=player(game_id))
    assert response.status_code == 200, response.text
    state = response.json()
    assert state["outcome"] == {"winner": "black", "line": [], "result": "1-0",
                                "draw_reason": "", "termination": "resignation"}
    assert state["clock"]["running"] is None
    record = client.get(f"{GAMES}/{game_id}/record", params={"format": "json"}).json()
    assert (record["result"], record["termination"]) == ("1-0", "resignation")
    assert_error(client.post(f"{GAMES}/{game_id}/resign", headers=player(game_id)),
                 409, "game_over", "white resigned, black wins")
    assert_error(client.post(f"{GAMES}/{game_id}/moves", json={"x": 0, "y": 0},
                             headers=player(game_id)), 409, "game_over", "white resigned")


def test_between_two_people_the_side_to_move_resigns(client: TestClient) -> None:
    state = new_game(client)
    play(client, state["id"], 4, 4)
    state = client.post(f"{GAMES}/{state['id']}/resign", headers=player(state["id"])).json()
    assert (state["outcome"]["winner"], state["outcome"]["termination"]) == (
        "black", "resignation")


def test_who_may_not_resign(client: TestClient) -> None:
    watched = new_game(client)
    assert_error(client.post(f"{GAMES}/{watched['id']}/resign"), 403, "not_a_player")
    opening = new_game(client, width=15, height=15, opening="swap")
    assert_error(client.post(f"{GAMES}/{opening['id']}/resign", headers=player(opening["id"])),
                 409, "opening_under_way", "once its moves begin")
    computers = new_game(client, black="computer", white="computer", level=1)
    assert_error(client.post(f"{GAMES}/{computers['id']}/resign",
                             headers=player(computers["id"])),
                 409, "not_your_turn", "no one to resign")
    client.delete(f"{GAMES}/{computers['id']}", headers=player(computers["id"]))


def test_the_computers_clock_stands_still_while_its_move_waits_for_an_engine(
        tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3", workers=1)) as one_worker:
        # a long search takes the only engine...
        busy = new_game(one_worker, width=15, height=15, white="computer", level=6,
                        time_ms=2500)
        play(one_worker, busy["id"], 7, 7)
        wait_for(one_worker, busy["id"], lambda s: s["thinking"] and not s["waiting"])
        # ...so the computer's first move in a game on a 1.2 s clock waits behind it
        timed = new_game(one_worker, black="computer", clock="0.02")
        state = one_worker.get(f"{GAMES}/{timed['id']}").json()
        assert state["waiting"] and state["clock"]["paused"]
        time.sleep(1.5)  # longer than its whole clock
        state = wait_for(one_worker, timed["id"], lambda s: len(s["moves"]) == 1, timeout=30)
        assert state["outcome"] is None and state["clock"]["running"] == "white"
        assert 0 < state["clock"]["black_ms"] < 1200


def test_a_move_on_a_clock_is_taken_though_every_engine_is_busy(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db, workers=1, queue_limit=1)) as full:
        untimed = [new_game(full, white="computer", level=6, time_ms=3000)["id"]
                   for _ in range(3)]
        play(full, untimed[0], 4, 4)  # searching
        wait_for(full, untimed[0], lambda s: not s["waiting"], timeout=30)
        play(full, untimed[1], 4, 4)  # waiting: the queue is full
        assert_error(full.post(f"{GAMES}/{untimed[2]}/moves", json={"x": 4, "y": 4},
                               headers=player(untimed[2])), 429, "busy")
        # a player on a clock would lose time trying again: the move is taken, and the
        # computer's reply waits with its clock standing still
        timed = new_game(full, white="computer", clock="1+0")
        state = play(full, timed["id"], 4, 4)
        assert state["waiting"] and state["clock"]["paused"]


def test_a_search_lost_with_its_worker_costs_the_computer_no_time(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3", workers=1)) as client:
        engine: EnginePool = client.app.state.engine  # type: ignore[attr-defined]
        game_id = new_game(client, width=15, height=15, white="computer", clock="1",
                           time_ms=None, level=6)["id"]  # a minute a side
        play(client, game_id, 7, 7)
        wait_for(client, game_id, lambda s: s["thinking"] and not s["waiting"])
        time.sleep(1.0)
        [pid] = engine.worker_pids()
        os.kill(pid, signal.SIGKILL)
        # While a new worker starts, the computer's clock stands still.
        state = wait_for(client, game_id, lambda s: s["waiting"] or len(s["moves"]) == 2)
        if len(state["moves"]) == 1:
            assert state["clock"]["paused"] and state["clock"]["white_ms"] == 60_000
        state = wait_for(client, game_id, lambda s: len(s["moves"]) == 2, timeout=60)
        assert engine.restarts == 1
        # Only the search that gave the move was charged, not the one lost (1 s).
        spent = 60_000 - state["clock"]["white_ms"]
        assert 0 < spent <= state["last_search"]["time_ms"] + 500
