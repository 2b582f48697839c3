"""The Gomocup protocol: our engine as a brain, and external brains driven from Python.

- :mod:`.brain`: ``pbrain-gridgames``, our engine speaking the protocol on stdin/stdout;
- :mod:`.client`: :class:`Engine`, which runs any protocol brain as a subprocess;
- :mod:`.protocol`: the text forms both sides share.
"""

from gridgames.gomoku.gomocup.client import (
    Engine,
    EngineError,
    EngineStartError,
    EngineTerminatedError,
    EngineTimeoutError,
    GomocupEngine,
    IllegalEngineMoveError,
    PlayResult,
    UnknownCommandError,
    our_brain_command,
)
from gridgames.gomoku.gomocup.protocol import EngineInfo, ProtocolError

__all__ = [
    "Engine",
    "EngineError",
    "EngineInfo",
    "EngineStartError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "GomocupEngine",
    "IllegalEngineMoveError",
    "PlayResult",
    "ProtocolError",
    "UnknownCommandError",
    "our_brain_command",
]
