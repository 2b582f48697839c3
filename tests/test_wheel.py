"""The release: ``python -m build`` makes an sdist and a wheel, and the wheel works on its own.

The wheel is installed (not editable) into a fresh virtual environment, and every
command runs from an empty folder with its own home, data and cache folders, so
nothing of the source tree or of the developer's caches can stand in for a
missing file. Dependencies come from the package index through pip's own cache.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import tarfile
import threading
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

import gridgames

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "gridgames"
# The first engine call of a fresh install compiles the numba kernels.
COMPILE_TIMEOUT = 300

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Release:
    wheel: Path
    sdist: Path


@dataclass(frozen=True)
class Installed:
    bin: Path
    cwd: Path
    env: dict[str, str]


def data_files() -> list[str]:
    """Every file of the package that is not Python source, relative to ``src/``."""
    listed = subprocess.run(["git", "ls-files", "src/gridgames"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.split()
    files = [name.removeprefix("src/") for name in listed if not name.endswith(".py")]
    assert "gridgames/web/static/index.html" in files, listed
    return files


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Release:
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    version = gridgames.__version__
    wheel = out / f"gridgames-{version}-py3-none-any.whl"
    sdist = out / f"gridgames-{version}.tar.gz"
    assert wheel.exists() and sdist.exists(), sorted(p.name for p in out.iterdir())
    return Release(wheel, sdist)


def test_the_wheel_holds_every_data_file_and_the_sources(release: Release) -> None:
    with zipfile.ZipFile(release.wheel) as wheel:
        names = set(wheel.namelist())
    missing = [name for name in data_files() if name not in names]
    assert not missing, f"data files missing from the wheel: {missing}"
    sources = {str(path.relative_to(PACKAGE.parent)) for path in PACKAGE.rglob("*.py")}
    assert sources <= names, sorted(sources - names)
    assert not [name for name in names if "__pycache__" in name or name.startswith("tests/")]


def test_the_wheel_names_its_version_entry_points_and_project_urls(release: Release) -> None:
    info = f"gridgames-{gridgames.__version__}.dist-info"
    with zipfile.ZipFile(release.wheel) as wheel:
        metadata = wheel.read(f"{info}/METADATA").decode()
        entry_points = wheel.read(f"{info}/entry_points.txt").decode()
    assert f"Version: {gridgames.__version__}\n" in metadata
    assert "Classifier: Topic :: Games/Entertainment :: Board Games" in metadata
    assert "Project-URL: Homepage, https://github.com/gridgames/gridgames" in metadata
    assert "gridgames = gridgames.cli.main:main" in entry_points
    assert "pbrain-gridgames = gridgames.gomoku.gomocup.brain:main" in entry_points


def test_the_sdist_holds_the_data_files_too(release: Release) -> None:
    prefix = f"gridgames-{gridgames.__version__}/src/"
    with tarfile.open(release.sdist) as sdist:
        names = {name.removeprefix(prefix) for name in sdist.getnames()}
    missing = [name for name in data_files() if name not in names]
    assert not missing, f"data files missing from the sdist: {missing}"


@pytest.fixture(scope="module")
def installed(release: Release, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    base = tmp_path_factory.mktemp("fresh")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    bin_dir = venv / "bin"
    # Nothing of the calling environment may make the source tree importable.
    clean = {key: value for key, value in os.environ.items()
             if not key.startswith(("PYTHON", "VIRTUAL_ENV"))}
    pip = subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet",
                          str(release.wheel)], env=clean, capture_output=True, text=True,
                         timeout=900)
    assert pip.returncode == 0, pip.stdout[-3000:] + pip.stderr[-3000:]
    empty = base / "empty"
    empty.mkdir()
    home = base / "home"
    env = {key: value for key, value in clean.items() if not key.startswith(("XDG_", "NUMBA_"))}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"),
               XDG_CACHE_HOME=str(home / "cache"), XDG_CONFIG_HOME=str(home / "config"),
               PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", NO_COLOR="1")
    yield Installed(bin_dir, empty, env)


def run(installed: Installed, *args: str, timeout: float = COMPILE_TIMEOUT
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(installed.bin / args[0]), *args[1:]], cwd=installed.cwd,
                          env=installed.env, capture_output=True, text=True, timeout=timeout)


def test_the_installed_package_is_the_wheel_not_the_source_tree(installed: Installed) -> None:
    result = subprocess.run(
        [str(installed.bin / "python"), "-c", "import gridgames; print(gridgames.__file__)"],
        cwd=installed.cwd, env=installed.env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    location = Path(result.stdout.strip())
    assert location.is_relative_to(installed.bin.parent), location
    assert not location.is_relative_to(ROOT), location


def test_version(installed: Installed) -> None:
    result = run(installed, "gridgames", "--version", timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"gridgames {gridgames.__version__}"


def test_queens_count(installed: Installed) -> None:
    result = run(installed, "gridgames", "queens", "count", "--n", "8")
    assert result.returncode == 0, result.stderr
    assert "92" in result.stdout.split(), result.stdout


def test_the_gomocup_brain_answers_start_and_begin(installed: Installed) -> None:
    # stdout carries the protocol; stderr (compile progress on a first run) goes to a file
    log = installed.cwd.parent / "brain.log"
    with open(log, "w") as errors:
        brain = subprocess.Popen([str(installed.bin / "pbrain-gridgames")], cwd=installed.cwd,
                                 env=installed.env, stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=errors, text=True, bufsize=1)
    lines: queue.Queue[str] = queue.Queue()

    def read_lines() -> None:
        for line in brain.stdout or ():
            lines.put(line.rstrip("\r\n"))

    threading.Thread(target=read_lines, daemon=True).start()

    def send(command: str) -> None:
        assert brain.stdin is not None
        brain.stdin.write(command + "\n")
        brain.stdin.flush()

    def reply() -> str:
        """The next line that is not a MESSAGE or DEBUG line."""
        deadline = time.monotonic() + COMPILE_TIMEOUT
        while True:
            try:
                line = lines.get(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                raise AssertionError(f"the brain did not answer; stderr: {log.read_text()}"
                                     ) from None
            if not line.startswith(("MESSAGE", "DEBUG")):
                return line

    try:
        send("START 15")
        assert reply() == "OK"
        send("INFO timeout_turn 500")
        send("BEGIN")
        x, y = (int(part) for part in reply().split(","))
        assert 0 <= x < 15 and 0 <= y < 15
        send("END")
        assert brain.wait(timeout=30) == 0, log.read_text()
    finally:
        if brain.poll() is None:
            brain.kill()
            brain.wait(timeout=30)


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_web_app_serves_its_page_static_files_and_a_computer_move(
        installed: Installed) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = installed.cwd.parent / "serve.log"
    with open(log, "w") as out:
        server = subprocess.Popen(
            [str(installed.bin / "gridgames"), "serve", "--port", str(port), "--workers", "1"],
            cwd=installed.cwd, env=installed.env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True)
    try:
        with httpx.Client(base_url=url, timeout=30) as http:
            deadline = time.monotonic() + 120
            while True:
                try:
                    page = http.get("/")
                    break
                except httpx.TransportError:
                    assert server.poll() is None, log.read_text()
                    assert time.monotonic() < deadline, log.read_text()
                    time.sleep(0.2)
            assert page.status_code == 200
            assert "<html" in page.text.lower() and "gridgames" in page.text.lower()
            script = http.get("/js/main.js")
            assert script.status_code == 200, script.text
            assert "javascript" in script.headers["content-type"]
            assert len(script.content) > 100

            created = http.post("/api/gomoku/games", json={
                "width": 15, "height": 15, "black": "computer", "white": "human",
                "level": 2, "time_ms": 500})
            assert created.status_code == 201, created.text
            game_id = created.json()["id"]
            deadline = time.monotonic() + COMPILE_TIMEOUT
            while not (state := http.get(f"/api/gomoku/games/{game_id}").json())["moves"]:
                assert time.monotonic() < deadline, f"no computer move: {state}"
                time.sleep(0.2)
            [[x, y]] = state["moves"]
            assert 0 <= x < 15 and 0 <= y < 15
            assert state["to_move"] == "white"
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, 9)
            server.wait(timeout=20)
    # The database went to the fresh user data folder, not to the working folder.
    assert not any(installed.cwd.iterdir()), sorted(installed.cwd.iterdir())


def test_the_version_has_one_source() -> None:
    """pyproject reads the version from ``gridgames.__version__``; the CLI and the
    changelog name the same one."""
    from importlib.metadata import version

    from gridgames.cli.main import build_parser

    assert version("gridgames") == gridgames.__version__
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject
    assert 'version = { attr = "gridgames.__version__" }' in pyproject
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["--version"])
    assert exit_info.value.code == 0
    assert f"## [{gridgames.__version__}] - " in (ROOT / "CHANGELOG.md").read_text()
