"""The load scenario, short: players against the top level, spammers, a worker killed mid-run.

``benchmarks/load/run_scenario.py`` starts a real `gridgames serve` on 127.0.0.1,
runs locust headless and checks the rules (no 5xx or failed request, no move lost,
duplicated or reordered, every search within its limit + 100 ms, GET p99 within
a bound, the killed worker replaced). The full reference scenario is the same
script with 80 players (see docs/server.md).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

RUNNER = Path(__file__).resolve().parents[2] / "benchmarks" / "load" / "run_scenario.py"
# The GETs' p99 is the benchmark's figure to report: on a shared 2-core machine whose
# cores both search, the test's 30 s measured 250 to 340 ms where a quiet run gives
# under 100. A request waiting behind a 500 ms search on the event loop would still
# break this bound.
GET_BOUND = ("--get-p99-ms", "1000")


def test_short_load_scenario_keeps_the_rules(tmp_path: Path) -> None:
    # Looked up, not imported: locust patches the standard library when imported.
    if importlib.util.find_spec("locust") is None:
        pytest.skip("locust is not installed (pip install -e '.[dev]')")
    result = subprocess.run(
        [sys.executable, str(RUNNER), "--players", "8", "--spammers", "2", "--duration", "30",
         "--kill-at", "10", "--out", str(tmp_path), *GET_BOUND],
        capture_output=True, text=True, timeout=240,
    )
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert "rules: all hold" in report
    # The scenario really ran: moves were searched and the worker was killed.
    assert "SIGKILLed at 10.0 s" in report
    assert "| ENGINE search time_ms |" in report
