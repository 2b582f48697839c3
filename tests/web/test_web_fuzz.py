"""Property-based fuzzing of the JSON API from its own OpenAPI schema (schemathesis).

Every operation gets generated valid and invalid requests; the server must never
answer 5xx, and its answers must match what the schema documents.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from web_helpers import Server

from gridgames.web import create_app

# The schema comes from the app itself; the requests go to a real server.
schema = schemathesis.openapi.from_dict(create_app().openapi())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("fuzz") / "games.sqlite3", workers=1)
    yield running
    running.stop()


@schema.parametrize()
@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_api_never_fails(case: Any, server: Server) -> None:
    if isinstance(case.body, dict):
        # Games between two computers would keep the engine busy for the whole run.
        for side in ("black", "white"):
            if case.body.get(side) == "computer":
                case.body[side] = "human"
    case.call_and_validate(base_url=server.url, checks=[
        not_a_server_error, status_code_conformance, content_type_conformance,
        response_schema_conformance,
    ], timeout=30)
