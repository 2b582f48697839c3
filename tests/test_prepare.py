"""On a cold start, kernel groups marked ``alongside`` compile in a second process while
the others compile in this one; without that process they compile here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

KERNELS = '''
from numba import njit
from gridgames.prepare import KernelGroup

@njit(cache=True)
def here(x):
    return x + 1

@njit(cache=True)
def elsewhere(x):
    return x * 2

def load_here():
    assert here(1) == 2

def load_elsewhere():
    assert elsewhere(3) == 6

GROUPS = (KernelGroup("here", load_here),
          KernelGroup("elsewhere", load_elsewhere, alongside=True))
'''

PREPARE = '''
import json, sys
sys.path.insert(0, sys.argv[1])  # this process only: a second one cannot import them
from numba.core import event
from gridgames.prepare import prepare
import demo_kernels
compiled = []
class Listener(event.Listener):
    def on_start(self, started):
        compiled.append(started.data["dispatcher"].py_func.__name__)
    def on_end(self, ended):
        pass
with event.install_listener("numba:compile", Listener()):
    prepare(demo_kernels.GROUPS)
print(json.dumps(compiled))
'''


def _prepare(folder: Path, *, importable_elsewhere: bool) -> list[str]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(folder / "cache"))
    env.pop("PYTHONPATH", None)
    if importable_elsewhere:
        env["PYTHONPATH"] = str(folder)
    done = subprocess.run([sys.executable, "-c", PREPARE, str(folder)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    compiled: list[str] = json.loads(done.stdout)
    return compiled


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "demo_kernels.py").write_text(KERNELS)
    return tmp_path


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two cores")
def test_a_group_alongside_is_compiled_by_a_second_process(folder: Path) -> None:
    # this process compiled only its own group, and loaded the other from the cache
    assert _prepare(folder, importable_elsewhere=True) == ["here"]
    assert _prepare(folder, importable_elsewhere=True) == []  # warm: nothing compiles


def test_without_the_second_process_the_group_compiles_here(folder: Path) -> None:
    assert _prepare(folder, importable_elsewhere=False) == ["here", "elsewhere"]
    assert _prepare(folder, importable_elsewhere=False) == []
