"""Player tokens, the engine queue, security headers and request bounds (real workers, SQLite)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from web_helpers import (
    GAMES,
    Server,
    assert_error,
    created,
    free_port,
    gridgames_command,
    new_game,
    play,
    player,
    wait_for,
)

from gridgames.gomoku import Board
from gridgames.gomoku.ai import MAX_LEVEL, Limit
from gridgames.queens import count_solutions
from gridgames.web import create_app
from gridgames.web.app import STATIC
from gridgames.web.engine import MAX_WORKERS, EngineBusyError, EnginePool

# -- player tokens -----------------------------------------------------------------


def test_only_the_player_token_changes_a_game(client: TestClient) -> None:
    state = new_game(client)
    game_id, token = state["id"], state["token"]
    assert len(token) >= 30
    assert "token" not in client.get(f"{GAMES}/{game_id}").json()  # spectators never see it
    moves = f"{GAMES}/{game_id}/moves"
    wrong = {"Authorization": "Bearer " + token[:-1] + ("A" if token[-1] != "A" else "B")}
    for headers in ({}, wrong, {"Authorization": token}, {"Authorization": "Bearer "}):
        body = assert_error(client.post(moves, json={"x": 1, "y": 1}, headers=headers),
                            403, "not_a_player")
        assert "Authorization: Bearer" in body["detail"]
        assert_error(client.post(f"{GAMES}/{game_id}/undo", headers=headers), 403, "not_a_player")
        assert_error(client.delete(f"{GAMES}/{game_id}", headers=headers), 403, "not_a_player")
    assert client.get(f"{GAMES}/{game_id}").json()["moves"] == []
    play(client, game_id, 1, 1)
    # Another game's token is no key to this one.
    other = new_game(client)
    assert_error(client.post(moves, json={"x": 2, "y": 2}, headers=player(other["id"])),
                 403, "not_a_player")
    assert client.delete(f"{GAMES}/{game_id}", headers=player(game_id)).status_code == 204


def test_imported_games_get_their_own_token(client: TestClient) -> None:
    state = created(client.post(f"{GAMES}/import",
                                json={"text": "Piskvorky 9x9, 0:0, 0\n5,5,0\n"}))
    assert state["token"] and state["moves"] == [[4, 4]]
    assert_error(client.post(f"{GAMES}/{state['id']}/moves", json={"x": 1, "y": 1}),
                 403, "not_a_player")
    play(client, state["id"], 1, 1)


def test_tokens_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db, workers=1)) as first:
        state = new_game(first)
    with TestClient(create_app(db, workers=1)) as second:
        moves = f"{GAMES}/{state['id']}/moves"
        assert_error(second.post(moves, json={"x": 1, "y": 1}), 403, "not_a_player")
        play(second, state["id"], 1, 1)
    # Only a hash is saved: the token itself is nowhere in the database file.
    assert state["token"].encode() not in db.read_bytes()


# -- the queue -----------------------------------------------------------------------


def test_moves_past_the_queue_bound_get_429_and_the_game_is_unchanged(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3", workers=1, queue_limit=1)) as client:
        games = [new_game(client, white="computer", level=MAX_LEVEL, time_ms=3000)["id"]
                 for _ in range(3)]
        play(client, games[0], 4, 4)  # searching
        wait_for(client, games[0], lambda s: not s["waiting"], timeout=30)
        queued = play(client, games[1], 4, 4)  # waits for the worker
        assert queued["thinking"] and queued["waiting"]
        refused = client.post(f"{GAMES}/{games[2]}/moves", json={"x": 4, "y": 4},
                              headers=player(games[2]))
        assert_error(refused, 429, "busy")
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert client.get(f"{GAMES}/{games[2]}").json()["moves"] == []
        # Plain requests are still answered at once.
        started = time.monotonic()
        assert client.get(f"{GAMES}/{games[1]}").status_code == 200
        assert client.get("/api/gomoku/options").status_code == 200
        assert time.monotonic() - started < 0.5
        # Once the queue moves on, the game waiting in it is searched.
        client.post(f"{GAMES}/{games[0]}/undo", headers=player(games[0]))
        state = wait_for(client, games[1], lambda s: len(s["moves"]) == 2, timeout=30)
        search = state["last_search"]
        assert search["time_ms"] <= 3000 + 100
        assert search["queued_ms"] >= 0


def test_moves_go_before_background_jobs_and_games_take_turns() -> None:
    async def scenario() -> list[str]:
        pool = EnginePool(1, queue_limit=10)
        pool.start()
        await pool.run(count_solutions, 6)  # the worker is up
        board = Board(15, 15)
        board.push((7, 7))
        finished: list[str] = []

        async def move(name: str, key: str, ms: int) -> None:
            searched = await pool.search(board, Limit(time_ms=ms), key=key)
            assert searched.result.time_ms <= ms + 100
            finished.append(name)

        async def background(name: str) -> None:
            await pool.run(count_solutions, 8, key="client")
            finished.append(name)

        try:
            tasks = [asyncio.create_task(move("a1", "a", 600))]
            await asyncio.sleep(0.2)  # a1 runs; the rest wait
            tasks.append(asyncio.create_task(background("queens")))
            await asyncio.sleep(0.05)
            tasks += [asyncio.create_task(move("a2", "a", 100)),
                      asyncio.create_task(move("a3", "a", 100))]
            await asyncio.sleep(0.05)
            tasks.append(asyncio.create_task(move("b1", "b", 100)))
            await asyncio.sleep(0.05)
            assert pool.waiting() == 4 and pool.running == 1
            await asyncio.gather(*tasks)
        finally:
            pool.shutdown()
        return finished

    assert asyncio.run(scenario()) == ["a1", "a2", "b1", "a3", "queens"]


def test_background_jobs_past_their_bound_are_refused() -> None:
    async def scenario() -> None:
        pool = EnginePool(1, queue_limit=8)  # two background jobs may wait
        pool.start()
        try:
            await asyncio.to_thread(pool.wait_ready, 60)  # jobs wait in the queue till then
            running = asyncio.create_task(pool.run(count_solutions, 11))
            waiting = [asyncio.create_task(pool.run(count_solutions, 6)) for _ in range(2)]
            await asyncio.sleep(0)
            try:
                await pool.run(count_solutions, 6)
            except EngineBusyError as error:
                assert error.retry_after >= 1 and "waiting" in str(error)
            else:
                raise AssertionError("a third waiting job was accepted")
            await asyncio.gather(running, *waiting)
        finally:
            pool.shutdown()

    asyncio.run(scenario())


def test_a_background_job_that_waits_too_long_is_refused() -> None:
    async def scenario() -> None:
        pool = EnginePool(1, queue_limit=8)
        pool.start()
        try:
            await pool.run(count_solutions, 6)  # the worker is up
            pool.background_wait_s = 0.5
            board = Board(15, 15)
            board.push((7, 7))
            move = asyncio.create_task(pool.search(board, Limit(time_ms=1500), key="game"))
            await asyncio.sleep(0.1)  # the move holds the only worker
            started = time.monotonic()
            try:
                await pool.run(count_solutions, 6, key="client")
            except EngineBusyError as error:
                assert error.retry_after >= 1 and "given up" in str(error)
            else:
                raise AssertionError("the job waited past its limit")
            assert time.monotonic() - started < 1.2
            assert pool.waiting() == 0  # it left the queue
            await move
            assert (await pool.run(count_solutions, 8))[0] == 92  # the pool goes on
        finally:
            pool.shutdown()

    asyncio.run(scenario())


def test_a_killed_worker_is_replaced_and_the_move_answered(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3", workers=1)) as client:
        engine: EnginePool = client.app.state.engine  # type: ignore[attr-defined]
        game_id = new_game(client, white="computer", level=MAX_LEVEL, time_ms=2000)["id"]
        play(client, game_id, 4, 4)
        wait_for(client, game_id, lambda s: not s["waiting"], timeout=30)
        time.sleep(0.3)
        [pid] = engine.worker_pids()
        os.kill(pid, signal.SIGKILL)
        state = wait_for(client, game_id, lambda s: len(s["moves"]) == 2, timeout=60)
        assert engine.restarts == 1 and engine.worker_pids() != [pid]
        assert state["last_search"]["time_ms"] <= 2000 + 100
        # The new worker plays on.
        play(client, game_id, 0, 0)
        wait_for(client, game_id, lambda s: len(s["moves"]) == 4, timeout=30)


# -- bounds and headers ---------------------------------------------------------------


def test_security_headers_on_pages_and_api(client: TestClient) -> None:
    for path in ("/", "/js/main.js", "/api/gomoku/options", f"{GAMES}/missing"):
        headers = client.get(path).headers
        policy = headers["content-security-policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        assert "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"


def test_the_page_has_no_inline_scripts_or_styles() -> None:
    """What the Content-Security-Policy would block."""
    html = (STATIC / "index.html").read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert "<style" not in html and not re.search(r"\sstyle=", html)
    assert not re.search(r"\son[a-z]+=", html)  # inline event handlers
    for script in (STATIC / "js").glob("*.js"):
        text = script.read_text()
        assert not re.search(r"style=|setAttribute\(\s*[\"']style", text), script.name


def test_request_bodies_are_limited(client: TestClient) -> None:
    big = "x" * (300 * 1024)
    body = assert_error(client.post(f"{GAMES}/import", json={"text": big}), 413,
                        "body_too_large")
    assert "bytes" in body["detail"]
    # A legitimate large record still fits.
    assert_error(client.post(f"{GAMES}/import", json={"text": "y" * 150_000}), 422, "bad_record")
    # sent in chunks, with no length to refuse it by beforehand
    chunks = (b"x" * 65_536 for _ in range(5))
    assert_error(client.post(GAMES, content=chunks, headers={"content-type": "application/json"}),
                 413, "body_too_large", "bytes")


def test_a_body_that_is_not_a_json_object_is_named_as_the_request_body(
        client: TestClient) -> None:
    json_type = {"content-type": "application/json"}
    assert_error(client.post(GAMES), 422, "invalid_request", "JSON object", "there is none")
    assert_error(client.post(GAMES, content=b'{"width": 9}',
                             headers={"content-type": "text/plain"}),
                 422, "invalid_request", "request body must be a JSON object")
    assert_error(client.post(GAMES, content=b"[1, 2]", headers=json_type),
                 422, "invalid_request", "request body must be a JSON object")
    assert_error(client.post(GAMES, content=b"[" * 5_000 + b"]" * 5_000, headers=json_type),
                 400, "malformed_json", "too deeply")
    assert_error(client.post(GAMES, content=b'{"width": ' + b"1" * 5_000 + b"}",
                             headers=json_type),
                 400, "malformed_json", "a number too long")


def test_costly_requests_are_bounded(client: TestClient) -> None:
    assert_error(client.get("/api/queens/count", params={"n": 17}), 422, "invalid_request")
    assert_error(client.post("/api/queens/solve", json={"n": 33}), 422, "invalid_request")
    assert_error(client.post(GAMES, json={"width": 65}), 422, "invalid_request")
    assert_error(client.post(GAMES, json={"time_ms": 60_001}), 422, "invalid_request")
    assert_error(client.post(GAMES, json={"level": MAX_LEVEL + 1}), 422, "invalid_request")


def _schema(schema: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    """``schema`` itself, or the component it refers to."""
    ref: str | None = schema.get("$ref")
    return schema if ref is None else spec["components"]["schemas"][ref.split("/")[-1]]


def _with_a_boolean(schema: dict[str, Any], spec: dict[str, Any]) -> list[tuple[str, Any]]:
    """For each integer that ``schema`` holds: where it is (``.0`` per list) and a value
    of the schema with ``true`` in its place."""
    found = []
    for option in _schema(schema, spec).get("anyOf", [schema]):
        option = _schema(option, spec)
        if option.get("type") == "integer":
            found.append(("", True))
        elif option.get("type") == "array":
            found += [(f".0{where}", [value, value])
                      for where, value in _with_a_boolean(option["items"], spec)]
    return found


def test_a_boolean_is_not_an_integer_anywhere_in_a_request(client: TestClient) -> None:
    """Python's bool is an int: "width": true was once a board 1 column wide, and
    {"x": true, "y": false} a move at 1,0."""
    game = new_game(client)
    response = client.post(f"{GAMES}/{game['id']}/moves", json={"x": True, "y": False},
                           headers=player(game["id"]))
    assert_error(response, 422, "invalid_request",
                 "x: Input should be a valid integer, not a boolean (true)",
                 "y: Input should be a valid integer, not a boolean (false)")
    assert client.get(f"{GAMES}/{game['id']}").json()["moves"] == []
    # every integer field of every request body, as the API's schema lists them
    spec = client.get("/openapi.json").json()
    refused = set()
    for path, operations in spec["paths"].items():
        url = path.replace("{game_id}", game["id"]).replace("{puzzle_id}", "1")
        for method, operation in operations.items():
            if "requestBody" not in operation:
                continue
            body = _schema(operation["requestBody"]["content"]["application/json"]["schema"],
                           spec)
            body = next(_schema(option, spec) for option in body.get("anyOf", [body])
                        if "properties" in _schema(option, spec))
            for name, field in body["properties"].items():
                for where, value in _with_a_boolean(field, spec):
                    response = client.request(method, url, json={name: value},
                                              headers=player(game["id"]))
                    assert_error(response, 422, "invalid_request",
                                 f"{name}{where}: Input should be a valid integer, "
                                 "not a boolean (true)")
                    refused.add(f"{path} {name}{where}")
    assert {f"{GAMES}/import level", f"{GAMES} width", f"{GAMES} height", f"{GAMES} time_ms",
            f"{GAMES}/{{game_id}}/moves x", f"{GAMES}/{{game_id}}/review depth",
            "/api/gomoku/analyse moves.0.0", "/api/gomoku/analyse count",
            "/api/gomoku/puzzles/{puzzle_id}/attempt move.0",
            "/api/gomoku/puzzles/{puzzle_id}/attempt played.0.0", "/api/queens/solve n",
            "/api/queens/hint queens.0.0", "/api/queens/backtrack limit"} <= refused


def test_serving_on_every_address_warns(tmp_path: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [*gridgames_command(), "serve", "--host", "0.0.0.0", "--port", str(port),
         "--db", str(tmp_path / "games.sqlite3"), "--workers", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/gomoku/options").is_success:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    assert "reachable from the network" in stderr and "--host 127.0.0.1" in stderr
    quiet = subprocess.run([*gridgames_command(), "serve", "--workers", "0"],
                           capture_output=True, text=True, timeout=60)
    assert quiet.returncode == 2 and "--workers" in quiet.stderr


@pytest.mark.parametrize("workers", [0, -1, MAX_WORKERS + 1, 10**3000, 10**5000, True, 2.0],
                         ids=["0", "-1", "max+1", "3000 digits", "5000 digits", "True", "2.0"])
def test_a_number_of_workers_the_server_cannot_start_is_refused(tmp_path: Path,
                                                                 workers: Any) -> None:
    """As ``gridgames serve --workers`` refuses it (tests/cli/test_options.py): once
    thousands of digits were taken, and the server's start-up ended in a traceback."""
    with pytest.raises(ValueError, match=rf"^workers must be a whole number from 1 to "
                                         rf"{MAX_WORKERS}, got .{{1,40}}$"):
        create_app(tmp_path / "games.sqlite3", workers=workers)
    with pytest.raises(ValueError, match="workers must be a whole number from 1 to"):
        EnginePool(workers)
    assert not (tmp_path / "games.sqlite3").exists()  # refused before anything started
    assert EnginePool(MAX_WORKERS).workers == MAX_WORKERS  # not started: no processes


def test_a_database_that_cannot_be_opened_is_reported_before_serving(tmp_path: Path) -> None:
    """A folder or a file that is not SQLite given as --db: once a traceback and
    'Application startup failed'; now one line naming the file and the option."""
    not_sqlite = tmp_path / "notes.txt"
    not_sqlite.write_text("my notes\n", encoding="utf-8")
    for db, says in [(tmp_path, "unable to open database file"),
                     (not_sqlite, "file is not a database")]:
        result = subprocess.run(
            [*gridgames_command(), "serve", "--port", str(free_port()), "--db", str(db),
             "--workers", "1"], capture_output=True, text=True, timeout=60)
        assert result.returncode == 1, result.stderr
        assert "Traceback" not in result.stderr
        assert f"cannot keep games in {db}: {says}. Choose another file with --db." \
            in result.stderr
    assert not_sqlite.read_text(encoding="utf-8") == "my notes\n"


def test_the_live_stream_of_an_unknown_game_closes_saying_so(tmp_path: Path) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    server = Server(tmp_path / "games.sqlite3")
    try:
        game = new_game(server.http)
        address = server.url.replace("http://", "ws://")
        with connect(f"{address}{GAMES}/{game['id']}/ws") as stream:
            assert '"type":"state"' in str(stream.recv(timeout=10)).replace(" ", "")
        # a client is told the game does not exist (close code 4404), not refused as if
        # it were not allowed to watch
        with connect(f"{address}{GAMES}/no-such-game/ws") as stream, \
                pytest.raises(ConnectionClosed) as closed:
            stream.recv(timeout=10)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4404, "no such game")
    finally:
        server.stop()
