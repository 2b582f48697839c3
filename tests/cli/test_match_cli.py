"""``gridgames match`` and ``gridgames tournament`` run as commands: refusing a bad --out
or a bad wait before any game, the time a brain has to start, and Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gridgames.cli.stopping import signals_stop

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


def running(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting to be reaped does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_ctrl_c_ends_the_match_and_every_brain(tmp_path: Path) -> None:
    """Ctrl-C reaches the match, not the brains (each runs in a process group of its
    own), and these brains would not stop for it anyway: the match ends them. It once
    left them running, one of them thinking for an hour."""
    pids = tmp_path / "pids"
    env = {**os.environ, "FAKE_BRAIN_PIDS": str(pids), "FAKE_BRAIN_DEAF": "1"}
    # as at a terminal: Ctrl-C raises KeyboardInterrupt (a background job ignores it)
    script = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
              "from gridgames.cli.main import main; sys.exit(main(sys.argv[1:]))")
    proc = subprocess.Popen([sys.executable, "-c", script, "match", fake("hang"), fake("good"),
                             "--size", "9", "--games", "4", "--concurrency", "2",
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


def stopped_by_signal(tmp_path: Path, signum: int, *args: str) -> tuple[int, str, str]:
    """Run ``gridgames ARGS`` until its first game is counted, send it ``signum``, and
    check that every brain it started has ended; its status, output and error output."""
    pids = tmp_path / "pids"
    env = {**os.environ, "FAKE_BRAIN_PIDS": str(pids)}
    # as at a terminal: Ctrl-C raises KeyboardInterrupt, SIGHUP is not ignored (nohup)
    script = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
              "signal.signal(signal.SIGHUP, signal.SIG_DFL); "
              "from gridgames.cli.main import main; sys.exit(main(sys.argv[1:]))")
    proc = subprocess.Popen([sys.executable, "-c", script, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # the first game is counted (its brain hung: lost on time)
            if line.startswith("Game 1/20"):
                break
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=60)
        started = [int(pid) for pid in pids.read_text().split()]
        deadline = time.monotonic() + 5
        while any(running(pid) for pid in started) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [pid for pid in started if running(pid)] == []
        return proc.returncode, out, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        for pid in [int(pid) for pid in pids.read_text().split()] if pids.exists() else []:
            if running(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(("signum", "why", "code"), [(signal.SIGINT, "Ctrl-C", 130),
                                                     (signal.SIGTERM, "SIGTERM", 143)])
def test_a_stopped_match_sums_up_its_games_and_ends_its_brains(
        tmp_path: Path, signum: int, why: str, code: int) -> None:
    """Stopped after a game or more, the match keeps their records and prints what they add
    up to. SIGTERM once ended the match's process at once: no summary, and a brain that
    hangs, in a process group of its own, was left running."""
    status, out, err = stopped_by_signal(
        tmp_path, signum, "match", fake("hang"), fake("good"), "--size", "9", "--games", "20",
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
        tmp_path, signum, "tournament", fake("hang"), fake("good"), fake("good"),
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
