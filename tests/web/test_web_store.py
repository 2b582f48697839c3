"""The SQLite game store."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridgames.store import GameNotFoundError, GameStore, StoredGame, default_path


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
