"""Run a load scenario against a real `gridgames serve` on 127.0.0.1 and check the rules.

It starts the server on a fresh database, runs locust headless for a fixed time
with a fixed number of users (``locustfile.py`` beside this script), SIGKILLs an
engine worker in the middle of the run, stops the server, and then checks:

- no 5xx and no failed request (429 is expected pushback, retried by the clients);
- no move lost, duplicated or reordered: what each player last saw is what the
  database holds at the end (the database may hold one more move: the computer's
  reply that arrived after the client stopped looking);
- every computer search within its time limit + 100 ms; on a game clock
  (``--clock``), no game lost on time by the computer, whatever the queue;
- GET of a game and of /api/gomoku/options: p99 within ``--get-p99-ms`` (100 ms),
  once every user is running (locust's table is reset after the ramp-up; failures
  count from the start);
- the killed worker was replaced (the server says so in its log) and the games
  went on.

Run (the reference scenario takes about six minutes)::

    .venv/bin/python benchmarks/load/run_scenario.py --players 80 --spammers 6 --duration 360

It prints the figures as a Markdown table (with machine and date) and exits 1
if a rule is broken.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import datetime
import json
import os
import platform
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
LOCUSTFILE = HERE / "locustfile.py"
GET_NAMES = ("get game", "options")
SLACK_MS = 100


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def gridgames_command() -> list[str]:
    script = Path(sys.executable).parent / "gridgames"
    return [str(script)] if script.exists() else [sys.executable, "-m", "gridgames.cli.main"]


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with (task / "children").open() as listing:
            found += [int(child) for child in listing.read().split()]
    return found


def engine_workers(server_pid: int) -> list[int]:
    """The server's engine worker processes (spawned; not its resource tracker)."""
    workers = []
    for pid in children(server_pid):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"spawn_main" in command and b"resource_tracker" not in command:
            workers.append(pid)
    return workers


def cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.machine()


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def start_server(db: Path, port: int, workers: int, queue_limit: int | None,
                 log: Path) -> subprocess.Popen[str]:
    command = [*gridgames_command(), "serve", "--host", "127.0.0.1", "--port", str(port),
               "--db", str(db), "--workers", str(workers)]
    if queue_limit is not None:
        command += ["--queue-limit", str(queue_limit)]
    with log.open("w") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, text=True,
                                  start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(f"{url}/api/gomoku/options", timeout=2).is_success:
                break
        except httpx.HTTPError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the server did not start:\n{log.read_text()}")
        time.sleep(0.2)
    # Wait until the workers have warmed up: a first search answers.
    http = httpx.Client(base_url=url, timeout=120)
    game = http.post("/api/gomoku/games", json={"width": 9, "height": 9, "black": "computer",
                                                "white": "human", "level": 1}).json()
    while not http.get(f"/api/gomoku/games/{game['id']}").json()["moves"]:
        time.sleep(0.2)
    http.delete(f"/api/gomoku/games/{game['id']}",
                headers={"Authorization": f"Bearer {game['token']}"})
    http.close()
    return server


def read_stats(prefix: Path) -> dict[str, dict[str, str]]:
    with open(f"{prefix}_stats.csv") as listing:
        return {f"{row['Type']} {row['Name']}": row for row in csv.DictReader(listing)}


def check(args: argparse.Namespace, work: Path) -> int:
    db, log = work / "games.sqlite3", work / "server.log"
    results, prefix = work / "seen.json", work / "locust"
    port = free_port()
    load_before = os.getloadavg()[0]  # others' work on a shared machine shows in the latencies
    server = start_server(db, port, args.workers, args.queue_limit, log)
    rss_start = rss_kib(server.pid)
    env = {**os.environ, "GRIDGAMES_LOAD_PLAYERS": str(args.players),
           "GRIDGAMES_LOAD_SPAMMERS": str(args.spammers),
           "GRIDGAMES_LOAD_MOVES": str(args.moves), "GRIDGAMES_LOAD_TIME_MS": str(args.time_ms),
           "GRIDGAMES_LOAD_RESULTS": str(results), "GRIDGAMES_LOAD_CLOCK": args.clock or ""}
    users = args.players + args.spammers
    locust = subprocess.Popen(
        [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless",
         "-u", str(users), "-r", str(max(1, users // 4)), "-t", f"{args.duration}s",
         "--host", f"http://127.0.0.1:{port}", "--csv", str(prefix), "--csv-full-history",
         "--only-summary", "--reset-stats",
         "--stop-timeout", "5", "--loglevel", "WARNING"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    killed = None
    try:
        time.sleep(args.kill_at)
        workers = engine_workers(server.pid)
        if workers:
            killed = workers[0]
            os.kill(killed, signal.SIGKILL)
        output, _ = locust.communicate(timeout=args.duration + 120)
    finally:
        if locust.poll() is None:
            locust.kill()
        rss_end = rss_kib(server.pid) if server.poll() is None else 0
        workers_after = engine_workers(server.pid) if server.poll() is None else []
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=30)

    load_after = os.getloadavg()[0]
    stats = read_stats(prefix)
    if not results.exists():
        raise SystemExit(f"locust wrote no results:\n{output}")
    outcome = json.loads(results.read_text())
    seen: dict[str, dict[str, Any]] = outcome["games"]
    with sqlite3.connect(db) as connection:
        stored = {row[0]: json.loads(row[1]) for row in
                  connection.execute("SELECT id, moves FROM gomoku_games")}
    problems: list[str] = []

    failed = outcome["failures"]
    if failed["failed"] or failed["5xx"]:
        problems.append(f"{failed['failed']} failed requests, {failed['5xx']} of them 5xx: "
                        f"{failed['examples']}")
    mismatches = 0
    for game_id, client in seen.items():
        moves = stored.get(game_id)
        saw = client["moves"]
        if moves is None or moves[:len(saw)] != saw or len(moves) - len(saw) > 1:
            mismatches += 1
            if mismatches <= 5:
                problems.append(f"game {game_id}: the client saw {saw}, the database has {moves}")
    if mismatches:
        problems.append(f"{mismatches} games differ between what the client saw and the database")
    searches = [ms for client in seen.values() for ms in client["time_ms"]]
    queued = sorted(ms for client in seen.values() for ms in client["queued_ms"])
    slow = [] if args.clock else [ms for ms in searches if ms > args.time_ms + SLACK_MS]
    on_time = [c["outcome"] for c in seen.values()
               if (c.get("outcome") or {}).get("termination") == "time forfeit"]
    computer_flagged = sum(1 for o in on_time if o["winner"] == "black")  # it plays white
    if computer_flagged:
        problems.append(f"the computer lost {computer_flagged} games on time")
    if slow:
        problems.append(f"{len(slow)} searches over {args.time_ms + SLACK_MS} ms: "
                        f"{sorted(slow)[-5:]}")
    for name in GET_NAMES:
        got = stats.get(f"GET {name}")
        if got is not None and float(got["99%"]) > args.get_p99_ms:
            problems.append(f"GET {name}: p99 {got['99%']} ms is over {args.get_p99_ms} ms")
    if killed is None:
        problems.append("no engine worker was found to kill")
    elif killed in workers_after or len(workers_after) < args.workers:
        problems.append(f"the killed worker was not replaced (workers now {workers_after})")
    moves_played = sum(len(client["moves"]) for client in seen.values())
    growth = (rss_end - rss_start) / rss_start * 100 if rss_start and rss_end else float("nan")

    lines = [
        f"Load scenario, {datetime.date.today()}, {platform.node()}: {os.cpu_count()} cores, "
        f"{cpu_model()}, Python {platform.python_version()}; load average (1 min) "
        f"{load_before:.1f} before the run, {load_after:.1f} at its end",
        f"{args.players} players (level top, "
        f"{f'a {args.clock} clock' if args.clock else f'{args.time_ms} ms a move'}, "
        f"{args.moves} moves), "
        f"{args.spammers} spammers, {args.workers} engine workers, {args.duration} s, "
        f"worker {killed} SIGKILLed at {args.kill_at} s",
        "",
        "| request | count | failures | req/s | p50 ms | p95 ms | p99 ms | max ms |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for key, row in sorted(stats.items()):
        lines.append(f"| {key.strip()} | {row['Request Count']} | {row['Failure Count']} | "
                     f"{float(row['Requests/s']):.1f} | {row['50%']} | {row['95%']} | "
                     f"{row['99%']} | {float(row['Max Response Time']):.0f} |")
    lines += [
        "",
        f"games: {len(seen)}, moves on their boards: {moves_played}; "
        f"computer searches: {len(searches)}, longest {max(searches, default=0)} ms; "
        f"queue wait median {queued[len(queued) // 2] if queued else 0} ms, "
        f"max {queued[-1] if queued else 0} ms"
        + (f"; games lost on time: {len(on_time) - computer_flagged} by the players, "
           f"{computer_flagged} by the computer" if args.clock else ""),
        f"server RSS: {rss_start / 1024:.0f} MiB after warm-up, {rss_end / 1024:.0f} MiB at the "
        f"end ({growth:+.1f}%)",
        "rules: " + ("all hold" if not problems else "BROKEN"),
        *problems,
    ]
    report = "\n".join(lines)
    print(report)
    (work / "report.md").write_text(report + "\n")
    if locust.returncode not in (0, 1):  # 1: locust saw failures, reported above
        print(output)
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=80)
    parser.add_argument("--spammers", type=int, default=6)
    parser.add_argument("--moves", type=int, default=15)
    parser.add_argument("--time-ms", type=int, default=500)
    parser.add_argument("--clock", default=None, metavar="MIN+SEC",
                        help="play the games on this clock instead of --time-ms a move")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--queue-limit", type=int, default=None)
    parser.add_argument("--duration", type=int, default=360, help="seconds of load")
    parser.add_argument("--get-p99-ms", type=int, default=100,
                        help="the rule for GETs' 99th percentile (default 100 ms)")
    parser.add_argument("--kill-at", type=float, default=None,
                        help="seconds into the run to SIGKILL a worker (default: a third)")
    parser.add_argument("--out", type=Path, default=None,
                        help="folder for the database, logs and locust CSVs (default: temporary)")
    args = parser.parse_args(argv)
    if args.kill_at is None:
        args.kill_at = args.duration / 3
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        return check(args, args.out)
    with tempfile.TemporaryDirectory(prefix="gridgames-load-") as work:
        return check(args, Path(work))


if __name__ == "__main__":
    sys.exit(main())
