"""Fixtures for the web tests: the app on a real SQLite file, with real engine workers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from gridgames.web import create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app per test module: starting engine workers costs a second or two."""
    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    with TestClient(create_app(db, workers=2)) as test_client:
        yield test_client
