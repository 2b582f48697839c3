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
- ``cr``: plays well but ends its lines with CR alone;
- ``busy MS``: plays well but drops every line that comes within MS milliseconds of
  a move it played, as Rapfi drops commands while it is still finishing a move.

Every line received is appended to the file named by ``$FAKE_BRAIN_LOG`` if set.
"""

from __future__ import annotations

import os
import sys
import time


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "good"
    arg = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    log_path = os.environ.get("FAKE_BRAIN_LOG")
    size = (15, 15)
    stones: dict[tuple[int, int], int] = {}
    played = 0
    busy_until = 0.0

    def say(text: str) -> None:
        sys.stdout.write(text + ("\r" if mode == "cr" else "\n"))
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
        if mode == "slow":
            time.sleep(arg / 1000)
        if mode == "garbage":
            say("I think I will play somewhere nice")
            return
        if mode == "error":
            say("ERROR not in the mood")
            return
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
        if mode == "suggest":
            say(f"SUGGEST {point[0]},{point[1]}")
            return
        stones[point] = 1
        played += 1
        say(f"{point[0]},{point[1]}")
        if mode == "busy":
            busy_until = time.monotonic() + arg / 1000

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
        if word == "START":
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
        elif word == "ABOUT":
            say(f'name="fake-{mode}", version="1.0", author="tests"')
        elif word == "END":
            return
        else:
            say(f"UNKNOWN {word}")


if __name__ == "__main__":
    main()
