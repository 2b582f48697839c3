"""``gridgames serve``: start the web app."""

from __future__ import annotations

import argparse
import errno
import os
import signal
import socket
import sys
from pathlib import Path

from gridgames.cli.options import port_number, whole_number
from gridgames.web.engine import MAX_QUEUE_LIMIT, MAX_WORKERS

NAME = "serve"
HELP = "Start the web app (Gomoku and N-Queens in the browser)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=port_number, default=8000,
                        help="port to listen on, 0 to 65535 (0: any free port)")
    parser.add_argument("--db", type=Path, default=None,
                        help="SQLite file for saved games (default: in your data folder)")
    parser.add_argument("--workers", type=whole_number(1, MAX_WORKERS),
                        default=min(2, os.cpu_count() or 1),
                        help=f"engine processes (games thinking at the same time), 1 to "
                        f"{MAX_WORKERS}")
    parser.add_argument("--queue-limit", type=whole_number(1, MAX_QUEUE_LIMIT), default=None,
                        help="most computer moves waiting for an engine before new moves are "
                             "refused with 429 (default: 4 per engine process)")


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _database_problem(db: Path) -> str | None:
    """Why the game database cannot be opened (a folder, not SQLite, not writable), or None."""
    import sqlite3

    from gridgames.store import GameStore

    try:
        GameStore(db).close()
    except (OSError, sqlite3.Error) as error:
        return str(error)
    return None


def _exit_on_terminate(signum: int, _frame: object) -> None:
    # uvicorn stops the server on SIGTERM and then raises the signal again; its default
    # action would end the process before Python's clean-up (the engine pool's
    # semaphores, leaked with a warning). Leave as an exit instead, with the status the
    # signal gives.
    raise SystemExit(128 + signum)


def run(args: argparse.Namespace) -> int:
    signal.signal(signal.SIGTERM, _exit_on_terminate)
    # Bind first: a taken port is reported at once, before the slow imports.
    try:
        sock = _bind(args.host, args.port)
    except OSError as error:
        hint = (" Is another server running there? Choose another port with --port."
                if error.errno == errno.EADDRINUSE else "")
        print(f"gridgames: cannot listen on {args.host}:{args.port}: "
              f"{error.strerror or error}.{hint}", file=sys.stderr)
        return 1

    from gridgames.store import default_path

    db = args.db or default_path()
    problem = _database_problem(db)
    if problem is not None:
        sock.close()
        print(f"gridgames: cannot keep games in {db}: {problem}. Choose another file "
              "with --db.", file=sys.stderr)
        return 1

    import uvicorn

    from gridgames.gomoku.ai import KERNEL_GROUPS
    from gridgames.gomoku.puzzles import KERNEL_GROUPS as PUZZLE_GROUPS
    from gridgames.prepare import prepare, stderr_report
    from gridgames.queens.solver import KERNEL_GROUPS as QUEENS_GROUPS
    from gridgames.web.app import create_app

    # Compile here, once, with progress shown, before any engine worker starts:
    # every kernel the workers warm up (they then load the cache).
    prepare(KERNEL_GROUPS + QUEENS_GROUPS + PUZZLE_GROUPS, stderr_report())

    host = f"[{args.host}]" if ":" in args.host else args.host

    def announce() -> None:  # once the engine workers are ready: the first move is quick
        print(f"gridgames is running at http://{host}:{sock.getsockname()[1]}/", flush=True)
        print(f"games are saved in {db}; press Ctrl+C to stop", flush=True)
        if args.host not in LOOPBACK:
            print(f"warning: listening on {args.host}, so the server is reachable from the "
                  "network: anyone who can reach this port can watch games, start games and "
                  "use the engines. Use --host 127.0.0.1 to keep it on this machine.",
                  file=sys.stderr, flush=True)

    app = create_app(db, workers=args.workers, queue_limit=args.queue_limit, on_ready=announce)
    config = uvicorn.Config(app, log_level="warning", access_log=False, ws="auto")
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    return 0
