"""One local Ray cluster (a head with 2 CPUs) for the cluster tests, stopped at the end."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gridgames.cluster.local import LocalCluster


@pytest.fixture(scope="package")
def cluster() -> Iterator[LocalCluster]:
    pytest.importorskip("ray", reason="the cluster extra is not installed")
    with LocalCluster(cpus=2) as running:
        yield running
