"""--cluster without Ray, with bad addresses, with a brain a node lacks; the core without Ray."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gridgames.cluster.local import LocalCluster, free_ports

NO_RAY = "import sys; sys.modules['ray'] = None; from gridgames.cli.main import main; "


def gridgames(*args: str, without_ray: bool = False) -> subprocess.CompletedProcess[str]:
    if without_ray:  # as if the cluster extra were not installed
        command = [sys.executable, "-c", NO_RAY + f"sys.exit(main({list(args)!r}))"]
    else:
        command = [sys.executable, "-m", "gridgames.cli.main", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args", [
    ("match", "level:1", "level:1", "--games", "1", "--cluster", "auto"),
    ("queens", "count", "--n", "8", "--cluster", "auto"),
])
def test_without_ray_cluster_says_how_to_install_it(args: tuple[str, ...]) -> None:
    done = gridgames(*args, without_ray=True)
    assert done.returncode == 2
    assert "pip install 'gridgames[cluster]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_core_never_imports_ray() -> None:
    code = ("import sys; import gridgames.queens, gridgames.gomoku.match, gridgames.cli.main; "
            "from gridgames.queens import count_solutions; count_solutions(8); "
            "print(sorted(name for name in sys.modules if name.split('.')[0] == 'ray'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(("address", "said"), [
    ("nonsense", "a cluster address is HOST:PORT"),
    ("127.0.0.1", "a cluster address is HOST:PORT"),
    ("127.0.0.1:99999", "1 to 65535"),
    (f"127.0.0.1:{free_ports(1)[0]}", "cannot reach a Ray cluster at 127.0.0.1:"),
])
def test_a_bad_address_is_refused(address: str, said: str) -> None:
    for args in (("match", "level:1", "level:1", "--games", "1", "--cluster", address),
                 ("queens", "count", "--n", "8", "--cluster", address)):
        done = gridgames(*args)
        assert done.returncode == 2, done.stdout
        assert said in done.stderr and "Traceback" not in done.stderr


def test_a_brain_missing_on_a_node_is_named(cluster: LocalCluster, tmp_path: Path) -> None:
    brain = tmp_path / "pbrain-nowhere"  # exists on no node (not even here)
    done = gridgames("match", "level:1", str(brain), "--games", "2",
                     "--cluster", cluster.address)
    assert done.returncode == 2
    assert f"lacks {brain}" in done.stderr and "node " in done.stderr
    assert "Game 1" not in done.stdout


def test_an_engine_that_cannot_start_fails_as_on_one_machine(cluster: LocalCluster,
                                                            tmp_path: Path) -> None:
    brain = tmp_path / "pbrain-not-executable"
    brain.write_text("not a program\n")  # on every node (they share this machine), not runnable
    local = gridgames("match", str(brain), "level:1", "--games", "2")
    done = gridgames("match", str(brain), "level:1", "--games", "2",
                     "--cluster", cluster.address)
    assert local.returncode == done.returncode == 1, done.stdout + done.stderr
    assert "cannot start" in local.stderr and "cannot start" in done.stderr
    assert done.stderr.startswith("gridgames match: ") and "Traceback" not in done.stderr
    assert "Game 1" not in done.stdout
