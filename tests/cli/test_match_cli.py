"""``gridgames match`` and ``gridgames tournament`` run as commands: refusing a bad --out
(one a killed match left, too) or a bad wait before any game, the time a brain has to
start, and Ctrl-C, SIGTERM and SIGHUP, once or more."""

from __future__ import annotations

import fcntl
import os
import re
import signal
import subprocess
import sys
import termios
import textwrap
import time
from pathlib import Path

import pytest

from gridgames.cli.stopping import signals_stop
from process_state import running

GAMES = ["level:1", "level:1", "--size", "9", "--games", "2", "--time-ms", "100"]


def run(command: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gridgames.cli.main", command, *args],
                          capture_output=True, text=True, timeout=120, cwd=cwd)


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_an_out_that_is_a_file_is_refused(tmp_path: Path, command: str) -> None:
    (tmp_path / "somefile.psq").write_text("Piskvorky 15x15, 0:0, 0\n")
    result = run(command, *GAMES, "--out", "somefile.psq", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (f"gridgames {command}: --out somefile.psq: that is a file, not a "
                             "folder; give a folder for the games' .psq records (it is made "
                             "if missing)\n")
    assert result.stdout == ""  # refused before the first game


def test_an_out_under_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "somefile").write_text("")
    result = run("match", *GAMES, "--out", "somefile/games", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == ("gridgames match: --out somefile/games: cannot make that folder "
                             "for the games' records: Not a directory\n")


def test_an_out_folder_is_made_before_the_games(tmp_path: Path) -> None:
    result = run("match", *GAMES, "--out", "new/games", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "new" / "games").iterdir()) == [
        "game-0001.psq", "game-0002.psq"]


FAKE = Path(__file__).parents[1] / "gomoku" / "gomocup" / "fake_brain.py"


def fake(mode: str, *args: object) -> str:
    return " ".join([sys.executable, str(FAKE), mode, *map(str, args)])


def test_a_pairing_folder_that_is_a_file_is_refused(tmp_path: Path) -> None:
    """The pairings' folders are made in --out before the first game; one that cannot be
    made was once a traceback, after the games of the pairings before it."""
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "1-2").write_text("")
    result = run("tournament", fake("good"), fake("good"), "--size", "9", "--games", "1",
                 "--out", "out", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == ("gridgames tournament: --out out/1-2: that is a file, not a "
                             "folder; give a folder for the games' .psq records (it is made "
                             "if missing)\n")
    assert "Game " not in result.stdout


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_the_time_to_start_is_an_option(tmp_path: Path, command: str) -> None:
    """A brain that takes 1.5 s to answer START: too long for --start-timeout-ms 300 (the
    match stops, saying why), not for the default of 60 s."""
    slow = fake("slow-start", 1500)
    refused = run(command, slow, fake("good"), "--size", "9", "--games", "1",
                  "--start-timeout-ms", "300", cwd=tmp_path)
    assert refused.returncode == 1, refused.stderr
    assert refused.stderr == (f"gridgames {command}: python never started a game: python did "
                              "not answer START 9 in time (allowed 0.3 s; a brain must answer "
                              "OK and flush its output)\n")
    played = run(command, slow, fake("good"), "--size", "9", "--games", "1", "--time-ms", "100",
                 cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "made five" in played.stdout


@pytest.mark.parametrize(("option", "value", "says"), [
    ("--start-timeout-ms", "0", "must be a whole number from 1 to 2147483647, got 0"),
    ("--start-timeout-ms", "soon", "must be a whole number from 1 to 2147483647, got 'soon'"),
    ("--start-timeout-ms", "3000000000", "must be a whole number from 1 to 2147483647"),
    # once a traceback from the first wait for a move (OverflowError)
    ("--tolerance-ms", "100000000000000000", "must be a whole number from 0 to 2147483647"),
])
def test_bad_waits_are_refused(tmp_path: Path, option: str, value: str, says: str) -> None:
    for command in ("match", "tournament"):
        result = run(command, fake("good"), fake("good"), "--size", "9", option, value,
                     cwd=tmp_path)
        assert result.returncode == 2 and result.stdout == ""
        assert f"gridgames {command}: error: argument {option}: {says}" in result.stderr
        assert "Traceback" not in result.stderr


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_ctrl_c_ends_the_match_and_every_brain(tmp_path: Path) -> None:
    """Ctrl-C reaches the match, not the brains (each runs in a process group of its
    own), and these brains would not stop for it anyway: the match ends them. It once
    left them running, one of them thinking for an hour."""
    pids = tmp_path / "pids"
    env = {**os.environ, "FAKE_BRAIN_PIDS": str(pids), "FAKE_BRAIN_DEAF": "1"}
    proc = subprocess.Popen([sys.executable, "-c", AT_A_TERMINAL, "match", fake("hang"),
                             fake("good"), "--size", "9", "--games", "4", "--concurrency", "2",
                             "--time-ms", "60000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path, env=env)
    started: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while len(started) < 4 and time.monotonic() < deadline:  # both games' brains
            time.sleep(0.1)
            started = [int(pid) for pid in pids.read_text().split()] if pids.exists() else []
        assert len(started) == 4
        time.sleep(0.5)  # the games are under way
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 130 and "Traceback" not in err, err
        deadline = time.monotonic() + 5
        while any(running(pid) for pid in started) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [pid for pid in started if running(pid)] == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        for pid in started:
            if running(pid):
                os.kill(pid, signal.SIGKILL)


# gridgames as at a terminal: Ctrl-C raises KeyboardInterrupt, SIGHUP is not ignored (nohup).
AT_A_TERMINAL = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
                 "signal.signal(signal.SIGHUP, signal.SIG_DFL); "
                 "from gridgames.cli.main import main; sys.exit(main(sys.argv[1:]))")


def brains_ended(pids: Path) -> None:
    """Check that every brain whose process id is in ``pids`` has ended, or soon does."""
    started = [int(pid) for pid in pids.read_text().split()]
    deadline = time.monotonic() + 5
    while any(running(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [pid for pid in started if running(pid)] == []


def kill_left(pids: Path) -> None:
    """Kill what a test left running of the brains whose process ids are in ``pids``."""
    for pid in [int(pid) for pid in pids.read_text().split()] if pids.exists() else []:
        if running(pid):
            os.kill(pid, signal.SIGKILL)


def stopped_by_signal(tmp_path: Path, signums: tuple[int, ...], *args: str,
                      gap_s: float = 0.0) -> tuple[int, str, str]:
    """Run ``gridgames ARGS`` until its first game is counted, send it ``signums``, ``gap_s``
    apart, and check that every brain it started has ended; its status, output and error
    output."""
    pids = tmp_path / "pids"
    env = {**os.environ, "FAKE_BRAIN_PIDS": str(pids)}
    proc = subprocess.Popen([sys.executable, "-c", AT_A_TERMINAL, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path, env=env)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # the first game is counted
            if line.startswith("Game 1/20"):
                break
        for number, signum in enumerate(signums):
            if number:
                time.sleep(gap_s)
            proc.send_signal(signum)
        out, err = proc.communicate(timeout=60)
        brains_ended(pids)
        return proc.returncode, out, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        kill_left(pids)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(("signum", "why", "code"), [(signal.SIGINT, "Ctrl-C", 130),
                                                     (signal.SIGTERM, "SIGTERM", 143)])
def test_a_stopped_match_sums_up_its_games_and_ends_its_brains(
        tmp_path: Path, signum: int, why: str, code: int) -> None:
    """Stopped after a game or more, the match keeps their records and prints what they add
    up to. SIGTERM once ended the match's process at once: no summary, and a brain that
    hangs, in a process group of its own, was left running."""
    status, out, err = stopped_by_signal(
        tmp_path, (signum,), "match", fake("hang"), fake("good"), "--size", "9", "--games", "20",
        "--time-ms", "200", "--tolerance-ms", "100", "--out", "games")
    assert status == code and "Traceback" not in err, err
    games = sorted(p.name for p in (tmp_path / "games").iterdir())
    assert f"\nMatch stopped by {why} after {len(games)} of 20 games.\n" in out
    assert f"Score of python vs python (2): 0 - {len(games)} - 0 " in out
    assert f"Games lost by error (illegal move, time, crash, protocol): {len(games)}" in out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(("signum", "why", "code"), [(signal.SIGINT, "Ctrl-C", 130),
                                                     (signal.SIGTERM, "SIGTERM", 143),
                                                     (signal.SIGHUP, "SIGHUP", 129)])
def test_a_stopped_tournament_gives_its_standings_and_ends_its_brains(
        tmp_path: Path, signum: int, why: str, code: int) -> None:
    """As a match does. SIGTERM and SIGHUP once ended the tournament's process at once,
    leaving the brain that hangs running, and Ctrl-C printed no standings."""
    status, out, err = stopped_by_signal(
        tmp_path, (signum,), "tournament", fake("hang"), fake("good"), fake("good"),
        "--size", "9", "--games", "20", "--time-ms", "200", "--tolerance-ms", "100",
        "--out", "games")
    assert status == code and "Traceback" not in err, err
    played = len(list((tmp_path / "games" / "1-2").iterdir()))
    assert [len(list((tmp_path / "games" / pair).iterdir())) for pair in ("1-3", "2-3")
            ] == [0, 0]  # the later pairings were not begun
    assert f"\nTournament stopped by {why} after {played} of 60 games.\n" in out
    assert f"\nStandings after {played} games:\n" in out
    # the engine that hangs lost every game played; the third played none
    assert f"  python (2)  {played:>6}  {played:>5}  1.000  " in out
    assert f"  python      {0:>6}  {played:>5}  0.000  " in out
    assert f"  python (3)  {0:>6}  {0:>5}  0.000  " in out


def test_a_signal_set_to_be_ignored_stays_ignored() -> None:
    """Under nohup SIGHUP is ignored, and a match or tournament must not end by it."""
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with signals_stop():
            assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        with signals_stop():
            assert signal.getsignal(signal.SIGHUP) not in (signal.SIG_IGN, signal.SIG_DFL)
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_DFL
    finally:
        signal.signal(signal.SIGHUP, previous)


def test_an_out_holding_an_earlier_match_is_refused(tmp_path: Path) -> None:
    """A second match into the folder of a first once overwrote its records in part: the
    folder then held two matches' games, and the report read them as one."""
    first = run("match", fake("good"), fake("crash"), "--size", "9", "--games", "4",
                "--time-ms", "200", "--out", "games", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    records = {p.name: p.read_text() for p in (tmp_path / "games").iterdir()}
    assert len(records) == 4
    second = run("match", fake("good"), fake("good"), "--size", "9", "--games", "2",
                 "--time-ms", "200", "--out", "games", cwd=tmp_path)
    assert second.returncode == 2 and second.stdout == ""
    assert second.stderr == ("gridgames match: --out games: that folder holds the records of "
                             "an earlier match (game-0001.psq, 4 in all); give a new or empty "
                             "folder\n")
    assert {p.name: p.read_text() for p in (tmp_path / "games").iterdir()} == records


@pytest.mark.parametrize(("engine", "says"), [
    ('"/opt/pbrain-x', "cannot read the engine command '\"/opt/pbrain-x': No closing "
                       "quotation"),
    ("''", "an engine is 'level:N', 'level:max' or a brain's command line, got \"''\""),
])
def test_an_engine_command_that_cannot_be_read_is_refused(tmp_path: Path, engine: str,
                                                          says: str) -> None:
    """Once 'No closing quotation' alone (which engine?), and an empty program name tried."""
    result = run("match", engine, fake("good"), cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (2, "",
                                                                 f"gridgames match: {says}\n")


def test_a_match_stopped_by_a_record_it_cannot_write_sums_up_its_games(
        tmp_path: Path) -> None:
    """This brain plays off the board (and loses) and removes the folder of records when
    the second game starts, once the first game's record is written: the match stops,
    saying which record it could not write (once a FileNotFoundError's traceback), after
    the summary of the game it recorded."""
    brain = tmp_path / "brain.py"
    brain.write_text(textwrap.dedent("""\
        import os, shutil, sys, time
        for line in sys.stdin:
            word = line.strip().partition(" ")[0]
            if word == "RESTART":
                while not os.path.exists("games/game-0001.psq"):
                    time.sleep(0.01)
                shutil.rmtree("games")
            if word in ("START", "RESTART"):
                print("OK", flush=True)
            elif word in ("BEGIN", "TURN", "DONE"):
                print("99,99", flush=True)
            elif word == "END":
                break
    """))
    result = run("match", f"{sys.executable} {brain}", fake("good"), "--size", "9",
                 "--games", "2", "--time-ms", "500", "--out", "games", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stderr == ("gridgames match: --out games: cannot write the record of game 2 "
                             "in that folder: No such file or directory\n")
    assert "\nScore of python vs python (2): 0 - 1 - 0 [0.000] 1\n" in result.stdout


MATCH_REPORT = Path(__file__).parents[2] / "benchmarks" / "match_report.py"
# gridgames, killed (SIGKILL) by the first write of a file beyond 40 bytes: a game's record.
KILLED_BY_ITS_FIRST_RECORD = (
    "import os, resource, signal, sys; "
    "signal.signal(signal.SIGXFSZ, lambda *_: os.kill(os.getpid(), signal.SIGKILL)); "
    "resource.setrlimit(resource.RLIMIT_FSIZE, (40, 40)); "
    "from gridgames.cli.main import main; sys.exit(main(sys.argv[1:]))")


def test_an_out_left_by_a_match_killed_while_it_wrote_a_record_is_refused(
        tmp_path: Path) -> None:
    """A match killed (SIGKILL) while it writes a record leaves that record's hidden
    temporary file. The folder once looked like a fresh one to the next match (no
    game-NNNN.psq in it), and to the report like a folder of no games or of every game:
    both now name that file, and the folder is taken once it is deleted."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    killed = subprocess.run([sys.executable, "-c", KILLED_BY_ITS_FIRST_RECORD, "match",
                             fake("good"), fake("illegal"), "--size", "9", "--games", "2",
                             "--time-ms", "500", "--out", "games"],
                            capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    [left] = (tmp_path / "games").iterdir()
    assert left.name.startswith(".game-0001.psq.") and left.name.endswith(".tmp")
    again = run("match", fake("good"), fake("good"), "--size", "9", "--games", "2",
                "--time-ms", "200", "--out", "games", cwd=tmp_path)
    assert again.returncode == 2 and again.stdout == ""
    assert again.stderr == (f"gridgames match: --out games: that folder holds {left.name}, the "
                            "temporary file of a record whose write was interrupted (its match "
                            "was killed); it holds no whole record and may be deleted, or give "
                            "a new or empty folder\n")
    report = subprocess.run([sys.executable, str(MATCH_REPORT), "games", "--engine", "python"],
                            capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert report.returncode == 2
    assert (f"games: no game records (game-NNNN.psq) in it; left out games/{left.name}: the "
            "temporary file of a record whose write was interrupted (its match was killed "
            "while saving it); that game is not counted\n") in report.stderr
    left.unlink()
    assert run("match", fake("good"), fake("good"), "--size", "9", "--games", "2",
               "--time-ms", "200", "--out", "games", cwd=tmp_path).returncode == 0


# A brain deaf to Ctrl-C, SIGTERM and END, and still there once its input is closed: only
# a kill ends it. It plays the first empty point, 50 ms a move. With "escape", a helper of
# its own, in a session of its own, keeps its output open after it has been killed, and
# from its second game on it never answers a move.
STUBBORN_BRAIN = """
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
with open(os.environ["FAKE_BRAIN_PIDS"], "a") as pids:
    pids.write(f"{os.getpid()}\\n")
if sys.argv[1:] == ["escape"] and os.fork() == 0:
    os.setsid()
    with open(os.environ["HELPER_PIDS"], "a") as pids:
        pids.write(f"{os.getpid()}\\n")
    time.sleep(600)
    os._exit(0)
size, stones, block, games = 15, set(), None, 0


def move():
    time.sleep(600 if sys.argv[1:] == ["escape"] and games > 1 else 0.05)
    point = next((x, y) for y in range(size) for x in range(size) if (x, y) not in stones)
    stones.add(point)
    print(f"{point[0]},{point[1]}", flush=True)


for line in sys.stdin:
    word, _, rest = line.strip().partition(" ")
    if block is not None:
        if word == "DONE":
            stones = {tuple(map(int, item.split(",")[:2])) for item in block}
            block = None
            move()
        else:
            block.append(word)
    elif word in ("START", "RESTART"):
        size = int(rest) if word == "START" else size
        stones, games = set(), games + 1
        print("OK", flush=True)
    elif word == "BEGIN":
        move()
    elif word == "TURN":
        stones.add(tuple(map(int, rest.split(","))))
        move()
    elif word == "BOARD":
        block = []
while True:
    time.sleep(1)
"""


def stubborn(tmp_path: Path, *args: str) -> str:
    """The command line of :data:`STUBBORN_BRAIN`."""
    path = tmp_path / "stubborn.py"
    path.write_text(STUBBORN_BRAIN, encoding="utf-8")
    return " ".join([sys.executable, str(path), *args])


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(("command", "signums", "gap_s", "why", "code"), [
    ("match", (signal.SIGINT, signal.SIGINT), 0.0, "Ctrl-C", 130),
    ("match", (signal.SIGTERM, signal.SIGTERM), 0.01, "SIGTERM", 143),
    ("match", (signal.SIGINT, signal.SIGTERM, signal.SIGINT), 0.05, "Ctrl-C", 130),
    ("tournament", (signal.SIGTERM, signal.SIGINT), 0.02, "SIGTERM", 143),
    ("tournament", (signal.SIGHUP, signal.SIGHUP), 0.05, "SIGHUP", 129),
])
def test_a_second_signal_while_stopping_still_sums_up_and_ends_every_brain(
        tmp_path: Path, command: str, signums: tuple[int, ...], gap_s: float, why: str,
        code: int) -> None:
    """Brains deaf to END and SIGTERM, and signals sent one after the other, as a user
    presses Ctrl-C twice: whenever the later ones come, the command ends every brain,
    keeps the records of the games it counted, prints their summary and exits with the
    status of the first signal."""
    brains = [stubborn(tmp_path), fake("good")] + ([fake("good")] if command == "tournament"
                                                   else [])
    status, out, err = stopped_by_signal(
        tmp_path, signums, command, *brains, "--size", "9", "--games", "20",
        "--concurrency", "2", "--time-ms", "1000", "--out", "games", gap_s=gap_s)
    assert status == code and "Traceback" not in err, err
    games = len(list((tmp_path / "games").rglob("game-*.psq")))
    assert games >= 1
    total = 20 if command == "match" else 60
    title = command.capitalize()
    assert f"\n{title} stopped by {why} after {games} of {total} games.\n" in out
    if command == "match":
        assert re.search(rf"\nScore of python vs python \(2\): \d+ - \d+ - \d+ \[[0-9.]+\] "
                         rf"{games}\n", out), out
        assert out.splitlines()[-1].startswith("Pairs of games by points for python "), out
    else:
        assert f"\nStandings after {games} games:\n" in out
        assert out.splitlines()[-5].startswith("Crosstable "), out  # and its 4 lines


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_stopped_match_does_not_wait_for_a_game_its_brains_end_does_not_end(
        tmp_path: Path) -> None:
    """A brain whose helper, in a session of its own, outlives it and keeps its output
    open: its game, in play when Ctrl-C comes, waits for a move until its time is up. The
    match once waited 5 s for that game before it summed up (and only a second Ctrl-C
    stopped the wait); every brain is killed, so it no longer waits."""
    helpers = tmp_path / "helpers"
    env = {**os.environ, "FAKE_BRAIN_PIDS": str(tmp_path / "pids"),
           "HELPER_PIDS": str(helpers)}
    proc = subprocess.Popen([sys.executable, "-c", AT_A_TERMINAL, "match",
                             stubborn(tmp_path, "escape"), fake("good"), "--size", "9",
                             "--games", "20", "--time-ms", "60000", "--out", "games"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path, env=env)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("Game 1/20"):
                break
        time.sleep(0.3)  # game 2 is under way, waiting for a move that never comes
        proc.send_signal(signal.SIGINT)
        stopped = time.monotonic()
        out, err = proc.communicate(timeout=60)
        assert time.monotonic() - stopped < 3  # not the 5 s it waited
        assert proc.returncode == 130 and "Traceback" not in err, err
        assert "\nMatch stopped by Ctrl-C after 1 of 20 games.\n" in out
        assert "\nScore of python vs python (2): 1 - 0 - 0 [1.000] 1\n" in out
        brains_ended(tmp_path / "pids")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        kill_left(tmp_path / "pids")
        kill_left(helpers)


def pipe_holds(fd: int) -> int:
    """The bytes waiting in the pipe whose reading end is ``fd``."""
    return int.from_bytes(fcntl.ioctl(fd, termios.FIONREAD, bytes(4)), sys.byteorder)


@pytest.mark.skipif(not hasattr(fcntl, "F_SETPIPE_SZ"), reason="sets a pipe's size (Linux)")
@pytest.mark.parametrize(("command", "first", "second", "why", "code"), [
    ("match", signal.SIGTERM, signal.SIGTERM, "SIGTERM", 143),
    ("match", signal.SIGINT, signal.SIGINT, "Ctrl-C", 130),
    ("tournament", signal.SIGINT, signal.SIGTERM, "Ctrl-C", 130),
])
def test_a_second_signal_while_the_summary_is_written_leaves_it_whole(
        tmp_path: Path, command: str, first: int, second: int, why: str, code: int) -> None:
    """The output is a pipe that is full (a pager, a slow reader), so the command waits
    to write its summary; a second signal then once ended it there, with no summary
    (SIGTERM's default action was back) or a traceback in its middle (Ctrl-C)."""
    pids = tmp_path / "pids"
    read, write = os.pipe()
    fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, 4096)
    brains = [fake("illegal"), fake("good")] + ([fake("good")] if command == "tournament"
                                                else [])
    proc = subprocess.Popen([sys.executable, "-c", AT_A_TERMINAL, command, *brains,
                             "--size", "9", "--games", "200", "--time-ms", "1000",
                             "--out", "games"],
                            stdout=write, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            env={**os.environ, "FAKE_BRAIN_PIDS": str(pids)})
    os.close(write)
    try:
        held, deadline = -1, time.monotonic() + 60
        while (held < 3500 or held != pipe_holds(read)) and time.monotonic() < deadline:
            held = pipe_holds(read)
            time.sleep(0.5)  # the command is stuck on a line of its progress
        proc.send_signal(first)
        time.sleep(1)  # it ends its brains and waits to write its summary
        proc.send_signal(second)
        time.sleep(0.2)
        with open(read, encoding="utf-8") as output:
            out = output.read()
        assert proc.stderr is not None
        err = proc.stderr.read()
        proc.wait(60)
        assert proc.returncode == code and "Traceback" not in err, err
        games = len(list((tmp_path / "games").rglob("game-*.psq")))
        total = 200 if command == "match" else 600
        assert f"\n{command.capitalize()} stopped by {why} after {games} of {total} games.\n" \
            in out
        if command == "match":
            assert out.endswith(f"Games lost by error (illegal move, time, crash, protocol): "
                                f"{games}\n"), out[-300:]
        else:
            # the crosstable's last row: the engine that lost every game
            assert re.search(rf"\npython +0/{games} +0/0 +-\n$", out), out[-300:]
        brains_ended(pids)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        kill_left(pids)
