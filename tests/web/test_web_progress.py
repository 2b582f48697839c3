"""The computer's live search progress on the game's WebSocket (real engine workers)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from web_helpers import GAMES, new_game, play, player

from gridgames.gomoku.ai import MAX_LEVEL


def receive_until(ws: Any, done: Any) -> list[dict[str, Any]]:
    """Messages up to and including the state for which ``done(game)`` holds."""
    messages = []
    while True:
        message = ws.receive_json()
        messages.append(message)
        if message["type"] == "state" and done(message["game"]):
            return messages


def assert_progress_is_current(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every progress report follows a state of the same version in which the
    computer is thinking, and names an empty point of that position."""
    current: dict[str, Any] | None = None
    reports = []
    for message in messages:
        if message["type"] == "state":
            current = message["game"]
            continue
        assert message["type"] == "progress"
        assert current is not None and current["thinking"], message
        assert message["version"] == current["version"] and message["game_id"] == current["id"]
        assert message["depth"] >= 1 and message["nodes"] >= 0 and message["score_text"]
        assert message["move"] == message["pv"][0]
        assert message["move"] not in current["moves"]
        reports.append(message)
    return reports


def test_progress_streams_during_the_search(client: TestClient) -> None:
    game_id = new_game(client, width=15, height=15, white="computer", level=MAX_LEVEL,
                       time_ms=1000)["id"]
    with client.websocket_connect(f"{GAMES}/{game_id}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        play(client, game_id, 7, 7)
        messages = receive_until(ws, lambda g: len(g["moves"]) == 2 and not g["thinking"])
    reports = assert_progress_is_current(messages)
    assert reports, "no progress while the computer searched"
    depths = [report["depth"] for report in reports]
    assert depths == sorted(depths)


def test_no_stale_progress_after_undo(client: TestClient) -> None:
    game_id = new_game(client, width=15, height=15, white="computer", level=MAX_LEVEL,
                       time_ms=3000)["id"]
    with client.websocket_connect(f"{GAMES}/{game_id}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        play(client, game_id, 7, 7)
        messages = receive_until(ws, lambda g: g["thinking"])
        while messages[-1]["type"] != "progress":  # the search is under way
            messages.append(ws.receive_json())
        undone = client.post(f"{GAMES}/{game_id}/undo", headers=player(game_id)).json()
        assert undone["moves"] == [] and not undone["thinking"]
        # The stopped search's late reports must not follow the undo, nor a new move's.
        play(client, game_id, 3, 3)
        messages += receive_until(ws, lambda g: len(g["moves"]) == 2 and not g["thinking"])
    assert_progress_is_current(messages)
    versions = {m["version"] for m in messages if m["type"] == "progress"}
    assert len(versions) >= 1
