"""Fixtures for the Gomocup tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gomocup_helpers import BrainProcess


@pytest.fixture
def brain_process() -> Iterator[BrainProcess]:
    process = BrainProcess()
    yield process
    process.close()


@pytest.fixture(scope="module")
def shared_brain() -> Iterator[BrainProcess]:
    """One brain for a module's tests (starting Python and the engine takes a second)."""
    process = BrainProcess()
    process.send("START 15")
    assert process.read(timeout=120) == "OK"
    yield process
    process.close()
