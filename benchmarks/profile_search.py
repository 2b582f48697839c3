"""Where the search spends its time: `perf` samples of a fixed-depth search, by kernel.

    python benchmarks/profile_search.py              # depth 8 on the 73 positions
    python benchmarks/profile_search.py --depth 9

Linux only; needs ``perf`` (allowed to sample the process) and ``nm``. The kernels
are compiled afresh into a temporary cache, because numba keeps a kernel's object
code only when it compiles it; their symbols are written to the perf map of the
process (``/tmp/perf-PID.map``) so that ``perf`` can name the code it samples.
Then ``perf record`` samples the search of ``engine_depth.py``'s positions and the
samples are counted by kernel. Kernels inlined into others count as part of them;
the search's own kernel (``negamax`` and what it inlines: ordering, the table,
pruning) may not be named, and then counts as "other JIT code".

This reads numba's code libraries, which are not a public interface: it is a
developer's tool, checked with numba 0.68.
"""

from __future__ import annotations

import bisect
import collections
import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

_CACHE = tempfile.mkdtemp(prefix="gridgames-profile-")
os.environ["NUMBA_CACHE_DIR"] = _CACHE  # before numba is imported: compile afresh

from engine_depth import parse_depth, positions  # noqa: E402
from gridgames.gomoku.ai import Limit, calls, search, think, warm_up  # noqa: E402


def _short(symbol: str) -> str:
    """``module.function`` out of a mangled numba symbol."""
    rest = re.sub(r"^(cfunc\.)?_ZN", "", symbol)
    parts = []
    while rest[:1].isdigit():
        digits = re.match(r"\d+", rest)
        assert digits is not None
        length = int(digits.group())
        start = len(digits.group())
        parts.append(rest[start:start + length])
        rest = rest[start + length:]
    name = ".".join(parts[-2:]) or symbol
    return ("wrapper of " if symbol.startswith("cfunc.") else "") + name


def _kernel_symbols() -> list[tuple[int, int, str]]:
    """(address, size, name) of every function of the search's compiled kernels."""
    libraries = [entry._library for entry in calls._compiled.values()]
    for value in vars(search).values():
        libraries += [result.library for result in getattr(value, "overloads", {}).values()]
    symbols = {}
    with tempfile.TemporaryDirectory() as scratch:
        for k, library in enumerate(libraries):
            try:
                code = library.serialize_using_object_code()[2][0]
            except RuntimeError:  # loaded, not compiled: no object code kept
                continue
            path = os.path.join(scratch, f"{k}.o")
            with open(path, "wb") as file:
                file.write(code)
            listing = subprocess.run(["nm", "-S", "--defined-only", path], check=True,
                                     capture_output=True, text=True).stdout
            for line in listing.splitlines():
                fields = line.split()
                if len(fields) == 4 and fields[2] in "tT":
                    address = library.get_pointer_to_function(fields[3])
                    if address:
                        symbols[address] = (int(fields[1], 16), _short(fields[3]))
    return [(address, size, name) for address, (size, name) in sorted(symbols.items())]


def main() -> None:
    depth = parse_depth(__doc__)
    print("compiling the kernels afresh (a minute or two)...", flush=True)
    warm_up()
    boards = list(positions())
    think(boards[0], Limit(depth=3))
    symbols = _kernel_symbols()
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as file:
        for address, size, name in symbols:
            file.write(f"{address:x} {size:x} {name}\n")
    data = os.path.join(_CACHE, "perf.data")
    recorder = subprocess.Popen(["perf", "record", "-F", "2999", "-p", str(os.getpid()),
                                 "-o", data], stderr=subprocess.DEVNULL)
    time.sleep(1.5)  # perf attaches
    started = time.process_time()
    for board in boards:
        think(board, Limit(depth=depth))
    cpu = time.process_time() - started
    recorder.send_signal(signal.SIGINT)
    recorder.wait()
    samples = subprocess.run(["perf", "script", "-i", data, "-F", "ip,sym"], check=True,
                             capture_output=True, text=True).stdout.splitlines()
    starts = [address for address, _, _ in symbols]
    counts: collections.Counter[str] = collections.Counter()
    for sample in samples:
        fields = sample.split()
        ip = int(fields[0], 16)
        i = bisect.bisect_right(starts, ip) - 1
        if i >= 0 and ip < starts[i] + symbols[i][1]:
            counts[symbols[i][2]] += 1
        else:
            counts["other JIT code" if fields[1:2] in ([], ["[unknown]"])
                   else "outside the kernels"] += 1
    total = sum(counts.values()) or 1
    print(f"depth {depth}, {len(boards)} positions, {cpu:.1f} s CPU, {total} samples")
    for name, count in counts.most_common(12):
        print(f"{100 * count / total:5.1f}%  {name}")


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(_CACHE, ignore_errors=True)
        with contextlib.suppress(OSError):
            os.remove(f"/tmp/perf-{os.getpid()}.map")
