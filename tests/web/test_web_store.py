"""The SQLite game store, and games read back from it."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_helpers import wait_for

from gridgames.gomoku.ai import MAX_LEVEL
from gridgames.store import GameNotFoundError, GameStore, StoredGame, default_path
from gridgames.web import create_app


def test_round_trip_and_reopen(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "games.sqlite3"
    store = GameStore(path)
    game = store.create(StoredGame(width=19, height=9, rule="caro", black="computer",
                                   white="human", level=4, time_ms=None))
    assert game.id and game.created > 0
    store.set_moves(game.id, [(1, 2), (3, 4)], [10, 0])
    store.close()

    again = GameStore(path).get(game.id)
    assert (again.width, again.height, again.rule) == (19, 9, "caro")
    assert (again.black, again.white, again.level, again.time_ms) == ("computer", "human", 4, None)
    assert again.moves == [(1, 2), (3, 4)] and again.times_ms == [10, 0]


def test_unfinished_and_delete(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    playing = store.create(StoredGame(width=15, height=15, rule="freestyle"))
    over = store.create(StoredGame(width=15, height=15, rule="freestyle"))
    store.set_moves(over.id, [(0, 0)], [0], finished=True)
    assert [g.id for g in store.unfinished()] == [playing.id]
    store.delete(playing.id)
    with pytest.raises(GameNotFoundError):
        store.get(playing.id)
    with pytest.raises(GameNotFoundError):
        store.set_moves(playing.id, [], [])


def test_default_path_is_in_the_data_folder() -> None:
    path = default_path()
    assert path.name == "games.sqlite3" and "gridgames" in str(path)


def test_a_game_saved_at_a_level_that_no_longer_exists_plays_at_the_top(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    store = GameStore(db)
    game = store.create(StoredGame(width=9, height=9, rule="freestyle", black="human",
                                   white="computer", level=MAX_LEVEL + 1, time_ms=200))
    store.set_moves(game.id, [(4, 4)], [0])
    store.close()
    with TestClient(create_app(db, workers=1)) as client:
        state = wait_for(client, game.id, lambda s: len(s["moves"]) == 2, timeout=60)
    assert state["moves"][0] == [4, 4] and state["to_move"] == "black"
