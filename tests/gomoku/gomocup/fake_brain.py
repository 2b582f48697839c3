"""A scripted Gomocup brain for tests: plays the first empty point, or misbehaves on purpose.

Run as ``python fake_brain.py MODE [ARG]``. Modes:

- ``good``: a simple legal player (first empty point nearest the centre);
- ``illegal``: answers moves with an occupied point (off the board on an empty one);
- ``offboard``: answers every move with ``99,99``;
- ``crash``: exits with code 3 when asked for a move;
- ``crash-late N``: plays N moves, then exits when asked for the next;
- ``hang``: never answers a move;
- ``silent``: never answers START (a program that is not a Gomocup brain);
- ``slow MS``: waits MS milliseconds before every move;
- ``garbage``: answers a move with text that is not a move;
- ``error``: answers ``ERROR`` to BOARD / BEGIN / TURN;
- ``norestart``: plays well but answers ``UNKNOWN`` to RESTART;
- ``additive``: BOARD adds the stones to its position instead of replacing it;
- ``suggest``: answers with ``SUGGEST x,y`` and plays after ``PLAY x,y``;
- ``chatty``: sends MESSAGE / DEBUG lines (Rapfi's formats) before each move;
- ``scoring``: reports a score before each move, 10 times the sum of the stones' x;
- ``cr``: plays well but ends its lines with CR alone;
- ``busy MS``: plays well but drops every line that comes within MS milliseconds of
  a move it played, as Rapfi drops commands while it is still finishing a move;
- ``crlf``: plays well but ends its lines with CR LF and pads its moves with spaces;
- ``unknown``: answers ``UNKNOWN`` to BOARD / BEGIN / TURN;
- ``restart-error``: answers RESTART with ``ERROR Unknown command: RESTART``, as Rapfi
  answers every command it does not know;
- ``start-error``: answers START and RECTSTART with ``ERROR`` (a size it cannot play);
- ``start-once MS``: the first of its processes to be started plays, a move every MS
  milliseconds; every later one never answers START (they share the file named by
  ``$FAKE_BRAIN_ONCE``);
- ``crash-start``: exits with code 4 on START;
- ``slow-start MS``: waits MS milliseconds before answering START (loading a network);
- ``buffered``: never flushes its output (so nothing arrives until it exits);
- ``extra``: after each move prints one more legal move, a line too many;
- ``stderr-flood``: writes a megabyte to stderr before each move;
- ``crash-noisy``: writes 50 long lines to stderr, then dies of an exception;
- ``bad-about``: answers ABOUT with free text instead of ``key="value"`` pairs.

Every line received is appended to the file named by ``$FAKE_BRAIN_LOG`` if set, and
the process id to the file named by ``$FAKE_BRAIN_PIDS``; with ``$FAKE_BRAIN_DEAF`` set
the brain ignores Ctrl-C (SIGINT).
"""

from __future__ import annotations

import os
import signal
import sys
import time


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "good"
    arg = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    log_path = os.environ.get("FAKE_BRAIN_LOG")
    if os.environ.get("FAKE_BRAIN_PIDS"):
        with open(os.environ["FAKE_BRAIN_PIDS"], "a", encoding="utf-8") as pids:
            pids.write(f"{os.getpid()}\n")
    if os.environ.get("FAKE_BRAIN_DEAF"):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if mode == "buffered":  # block-buffered whatever PYTHONUNBUFFERED says
        sys.stdout = open(sys.stdout.fileno(), "w", buffering=8192, closefd=False)  # noqa: SIM115
    size = (15, 15)
    stones: dict[tuple[int, int], int] = {}
    played = 0
    busy_until = 0.0

    def say(text: str) -> None:
        sys.stdout.write(text + {"cr": "\r", "crlf": "\r\n"}.get(mode, "\n"))
        if mode != "buffered":
            sys.stdout.flush()

    def pick() -> tuple[int, int]:
        cx, cy = size[0] // 2, size[1] // 2
        empty = [(x, y) for y in range(size[1]) for x in range(size[0]) if (x, y) not in stones]
        return min(empty, key=lambda p: (max(abs(p[0] - cx), abs(p[1] - cy)), p[1], p[0]))

    def move() -> None:
        nonlocal played, busy_until
        if mode == "crash" or (mode == "crash-late" and played >= arg):
            sys.exit(3)
        if mode == "hang":
            time.sleep(3600)
        if mode in ("slow", "start-once"):
            time.sleep(arg / 1000)
        if mode == "garbage":
            say("I think I will play somewhere nice")
            return
        if mode == "error":
            say("ERROR not in the mood")
            return
        if mode == "unknown":
            say("UNKNOWN what is a move?")
            return
        if mode == "stderr-flood":
            sys.stderr.write(("thinking " * 100 + "\n") * 1100)
            sys.stderr.flush()
        if mode == "crash-noisy":
            for number in range(50):
                sys.stderr.write(f"search log line {number}: " + "x" * 200 + "\n")
            raise RuntimeError("the search went wrong")
        if mode == "offboard":
            say("99,99")
            return
        if mode == "illegal":
            point = next(iter(stones), (99, 99))
            say(f"{point[0]},{point[1]}")
            return
        point = pick()
        if mode == "chatty":
            say("DEBUG thinking hard")
            say("MESSAGE depth 3-5 ev 12 n 1500 n/ms 30 tm 50 pv I9 7,7")
            say("MESSAGE Speed 30K | Depth 4-6 | Eval -M7 | Node 2K | Time 60ms")
        if mode == "scoring":
            say(f"MESSAGE depth 1-1 ev {10 * sum(x for x, _ in stones)} n 1 n/ms 1 tm 1 pv")
        if mode == "suggest":
            say(f"SUGGEST {point[0]},{point[1]}")
            return
        stones[point] = 1
        played += 1
        say(f" {point[0]} , {point[1]} " if mode == "crlf" else f"{point[0]},{point[1]}")
        if mode == "busy":
            busy_until = time.monotonic() + arg / 1000
        if mode == "extra":
            spare = pick()
            stones[spare] = 1
            say(f"{spare[0]},{spare[1]}")

    def first_of_its_kind() -> bool:
        try:
            with open(os.environ["FAKE_BRAIN_ONCE"], "x", encoding="utf-8") as mark:
                mark.write(f"{os.getpid()}\n")
        except FileExistsError:
            with open(os.environ["FAKE_BRAIN_ONCE"], encoding="utf-8") as mark:
                return mark.read().strip() == str(os.getpid())
        return True

    block: list[str] | None = None
    block_name = ""
    for raw in sys.stdin:
        line = raw.strip()
        if log_path:
            with open(log_path, "a", encoding="utf-8") as log:
                log.write(line + "\n")
        if not line or time.monotonic() < busy_until:
            continue
        if block is not None:
            if line.upper() == "DONE":
                if block_name == "BOARD" and mode != "additive":
                    stones.clear()
                if block_name in ("BOARD", "YXBOARD"):
                    for item in block:
                        x, y, field = (int(v) for v in item.split(","))
                        stones[(x, y)] = field
                if block_name == "BOARD":
                    move()
                block = None
            else:
                block.append(line)
            continue
        word, _, rest = line.partition(" ")
        word = word.upper()
        if mode == "silent":
            continue
        if word in ("START", "RECTSTART") and mode == "start-error":
            say("ERROR Unsupported board size!")
        elif word == "START" and mode == "start-once" and not first_of_its_kind():
            pass
        elif word == "START" and mode == "crash-start":
            sys.exit(4)
        elif word == "START":
            if mode == "slow-start":
                time.sleep(arg / 1000)
            size = (int(rest), int(rest))
            stones.clear()
            say("OK")
        elif word == "RECTSTART":
            w, h = rest.split(",")
            size = (int(w), int(h))
            stones.clear()
            say("OK")
        elif word == "RESTART":
            if mode == "norestart":
                say("UNKNOWN restart is not implemented")
            elif mode == "restart-error":
                say("ERROR Unknown command: RESTART")
            else:
                stones.clear()
                say("OK")
        elif word == "INFO":
            pass
        elif word == "BEGIN":
            move()
        elif word == "TURN":
            x, y = (int(v) for v in rest.split(","))
            stones[(x, y)] = 2
            move()
        elif word == "PLAY":
            x, y = (int(v) for v in rest.split(","))
            stones[(x, y)] = 1
            say(f"{x},{y}")
        elif word in ("BOARD", "YXBOARD"):
            block, block_name = [], word
        elif word == "YXSHOWFORBID":
            say("FORBID 07070808.")
        elif word == "ABOUT" and mode == "bad-about":
            say("fake brain 1.0 by the tests")
        elif word == "ABOUT":
            say(f'name="fake-{mode}", version="1.0", author="tests"')
        elif word == "END":
            return
        else:
            say(f"UNKNOWN {word}")


if __name__ == "__main__":
    main()
