"""Whether a process still runs, for the tests that check no brain is left behind."""

from __future__ import annotations

from pathlib import Path


def running(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting to be reaped does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        # gone before the open, or reaped between the open and the read
        return False
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")
