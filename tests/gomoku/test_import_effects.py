"""Importing the library and searching with it change nothing outside it: no warnings
filter, no numba setting, no environment variable, no handler of the process's own.

Run in a new interpreter, so that nothing imported by other tests hides a change. numpy
and numba are imported before the first look: what they do as they load is theirs.
"""

from __future__ import annotations

import json
import subprocess
import sys

PROGRAM = r"""
import json, locale, logging, os, signal, sys, threading, warnings
import numpy as np
import numba
import numba.core.config as numba_config

def state():
    return {
        "environment": dict(os.environ),
        "warnings filters": [repr(f) for f in warnings.filters],
        "showwarning": repr(warnings.showwarning),
        "numba config": {k: repr(getattr(numba_config, k)) for k in dir(numba_config)
                         if k.isupper()},
        "numba threads": numba.get_num_threads(),
        "numpy errors": np.geterr(),
        "numpy print options": repr(np.get_printoptions()),
        "recursion limit": sys.getrecursionlimit(),
        "int digits": sys.get_int_max_str_digits(),
        "switch interval": sys.getswitchinterval(),
        "excepthooks": [repr(sys.excepthook), repr(threading.excepthook)],
        "root logger": [logging.root.level, repr(logging.root.handlers)],
        "numba logger": logging.getLogger("numba").level,
        "signals": {int(s): repr(signal.getsignal(s))
                    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE)},
        "locale": locale.setlocale(locale.LC_ALL),
        "working folder": os.getcwd(),
    }

before = state()
import gridgames
import gridgames.gomoku, gridgames.gomoku.ai, gridgames.gomoku.analysis
import gridgames.gomoku.clock, gridgames.gomoku.opening_rules, gridgames.gomoku.records
from gridgames.gomoku import Board
from gridgames.gomoku.ai import Limit, analyse, think
board = Board(15)
board.push_many([(7, 7), (8, 8)])
think(board, Limit(depth=2))
think(board, Limit(time_ms=100), threads=2)
analyse(board, Limit(depth=2), multipv=2)
after = state()

def changes(old, new):
    if isinstance(old, dict):  # only the entries that changed
        return {k: [old.get(k), new.get(k)] for k in old.keys() | new.keys()
                if old.get(k) != new.get(k)}
    return [old, new]

print(json.dumps({key: changes(before[key], after[key]) for key in before
                  if before[key] != after[key]}))
"""


def test_importing_and_searching_change_nothing_outside_the_library() -> None:
    out = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                         check=True).stdout
    changed = json.loads(out.splitlines()[-1])
    assert changed == {}
