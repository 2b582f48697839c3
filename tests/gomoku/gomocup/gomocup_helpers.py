"""Our brain and the scripted fake brain as subprocesses, for the Gomocup tests."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

FAKE_BRAIN = Path(__file__).with_name("fake_brain.py")


def fake_command(mode: str = "good", *args: object) -> list[str]:
    return [sys.executable, str(FAKE_BRAIN), mode, *map(str, args)]


def brain_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "gridgames.gomoku.gomocup.brain", *args]


class BrainProcess:
    """Our brain in a subprocess, spoken to line by line with a deadline on every read."""

    def __init__(self, *args: str, env: dict[str, str] | None = None,
                 command: list[str] | None = None) -> None:
        self.proc = subprocess.Popen(command or brain_command(*args), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=None if env is None else {**os.environ, **env})
        self.lines: queue.Queue[tuple[float, str | None]] = queue.Queue()
        self.errors: list[str] = []  # stderr, line by line
        self.pumps = [threading.Thread(target=self._pump, daemon=True),
                      threading.Thread(target=self._pump_errors, daemon=True)]
        for pump in self.pumps:
            pump.start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for raw in iter(self.proc.stdout.readline, b""):
            self.lines.put((time.perf_counter(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        self.lines.put((time.perf_counter(), None))

    def _pump_errors(self) -> None:
        assert self.proc.stderr is not None
        for raw in iter(self.proc.stderr.readline, b""):
            self.errors.append(raw.decode("utf-8", "replace").rstrip("\r\n"))

    def rest(self, timeout: float = 10.0) -> list[str]:
        """Every line written from now until the brain exits (which it must, in time)."""
        self.proc.wait(timeout=timeout)
        lines = []
        while (line := self.lines.get(timeout=timeout)[1]) is not None:
            lines.append(line)
        return lines

    def send(self, *lines: str, raw: bytes | None = None) -> float:
        """Send lines (CR LF ended, as Piskvork does); return the time they were sent."""
        assert self.proc.stdin is not None
        data = raw if raw is not None else "".join(line + "\r\n" for line in lines).encode()
        sent = time.perf_counter()
        self.proc.stdin.write(data)
        self.proc.stdin.flush()
        return sent

    def read(self, timeout: float = 10.0) -> str:
        """The next line that is not MESSAGE / DEBUG."""
        return self.read_stamped(timeout)[1]

    def read_stamped(self, timeout: float = 10.0, *, skip_messages: bool = True
                     ) -> tuple[float, str]:
        deadline = time.perf_counter() + timeout
        while True:
            try:
                stamp, line = self.lines.get(timeout=max(0.0, deadline - time.perf_counter()))
            except queue.Empty:
                raise AssertionError(f"no reply within {timeout} s") from None
            if line is None:
                raise AssertionError(f"the brain exited (code {self.proc.poll()})")
            if skip_messages and line.split(" ", 1)[0] in ("MESSAGE", "DEBUG"):
                continue
            return stamp, line

    def messages_until_reply(self, timeout: float = 10.0) -> tuple[list[str], str]:
        messages = []
        while True:
            _, line = self.read_stamped(timeout, skip_messages=False)
            if line.startswith("MESSAGE"):
                messages.append(line)
            else:
                return messages, line

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for pump in self.pumps:  # a stream closed under a reading pump fails it
            pump.join(timeout=5)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
