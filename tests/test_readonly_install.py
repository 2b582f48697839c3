"""A wheel installed where nothing can be written: compiled kernels go to the user's cache.

The wheel is installed into a fresh venv, and its site-packages is mounted
read-only (a bind mount in a mount namespace of the test's own) while a search
runs in two processes one after the other. The first compiles, with progress
on stderr, and leaves the machine code in the user's cache folder; the second
loads it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEARCH = (
    "from gridgames.gomoku import Board\n"
    "from gridgames.gomoku.ai import Limit, think\n"
    "import gridgames\n"
    "board = Board(15)\n"
    "board.push_many([(7, 7), (8, 8), (6, 8)])\n"
    "print(gridgames.__file__)\n"
    "print(think(board, Limit(depth=3)).move)\n"
)


def _can_mount_read_only() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount --bind / / 2>/dev/null"],
                           capture_output=True)
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(not _can_mount_read_only(),
                                reason="needs a private mount namespace (root and unshare)")


def _search_read_only(python: Path, site: Path, home: Path
                      ) -> tuple[float, subprocess.CompletedProcess[str]]:
    script = (f"mount --bind {site} {site} && mount -o remount,ro,bind {site} && "
              f'exec {python} -c "$0"')
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "LANG": "C.UTF-8"}
    started = time.perf_counter()
    done = subprocess.run(["unshare", "-m", "sh", "-c", script, SEARCH], env=env, cwd=home,
                          capture_output=True, text=True, timeout=900)
    return time.perf_counter() - started, done


@pytest.mark.slow
def test_a_read_only_install_compiles_once_into_the_users_cache(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "-w", str(wheels), str(ROOT)],
                   check=True, capture_output=True, timeout=300)
    [wheel] = wheels.glob("gridgames-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip())
    # our wheel alone, not editable; its dependencies from the test's own environment
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", str(site), str(wheel)], check=True, timeout=300)
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    home = tmp_path / "home"
    home.mkdir()

    first_s, first = _search_read_only(python, site, home)
    assert first.returncode == 0, first.stderr
    installed, move = first.stdout.splitlines()
    assert installed.startswith(str(site))  # the wheel's copy, not the source tree
    assert "preparing the engine (first run only)" in first.stderr
    assert not list(site.rglob("*.nbi"))  # nothing written beside the code
    assert list((home / ".cache").rglob("*.nbi"))  # but in the user's cache

    second_s, second = _search_read_only(python, site, home)
    assert second.returncode == 0, second.stderr
    assert second.stdout.splitlines()[-1] == move
    assert "preparing" not in second.stderr
    assert second_s < first_s / 2
