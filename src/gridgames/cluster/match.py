"""Play an engine match on a Ray cluster: each game is a task that needs one CPU.

The games are the same as on one machine (:func:`gridgames.gomoku.match.schedule`:
the same seed gives the same openings and colours) and so is the accounting
(:class:`gridgames.gomoku.match.MatchTally`: totals, records, Elo, SPRT).

- Games are submitted in the order of their numbers, a few more at a time than
  the cluster has CPUs. When the SPRT decides, the games submitted and not yet
  counted (queued or being played) are cancelled, and the match returns once
  they have ended.
- A game whose node (or worker process) disappears is played again from the
  start on another node, at most :data:`MAX_ATTEMPTS` times in all. Only a
  task that returns a finished game is counted, once, by its game number.
- Before the first game one small task on every node checks that the node
  has gridgames and every external brain, and names the node that lacks one.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

from gridgames.cluster import ClusterError, check_nodes, cluster_cpus, connect
from gridgames.gomoku.board import Point
from gridgames.gomoku.match import (
    GameResult,
    MatchConfig,
    MatchReport,
    MatchStats,
    MatchTally,
    play_one_game,
    schedule,
)

CANCEL_PATIENCE_S = 30.0  # how long a match waits for its cancelled games to end
MAX_ATTEMPTS = 4  # a game lost with its node is played again, up to this many times in all


def brain_paths(config: MatchConfig) -> tuple[str, ...]:
    """The files an external brain's command line names, which every node must have:
    the program, and each argument that is a file on this machine (a script, a model).

    >>> from gridgames.gomoku.match import EngineSpec
    >>> spec = EngineSpec.parse("/opt/pbrain-x --weights /etc/hostname -q")
    >>> brain_paths(MatchConfig((spec, EngineSpec.parse("level:1"))))
    ('/opt/pbrain-x', '/etc/hostname')
    """
    paths: list[str] = []
    for spec in config.engines:
        if spec.level is not None:
            continue  # our own brain: it comes with gridgames
        program, *arguments = spec.argv
        paths.append(program)
        paths += [arg for arg in arguments if Path(arg).is_absolute() and Path(arg).exists()]
    return tuple(dict.fromkeys(paths))


def play_on_node(config: MatchConfig, number: int, opening: tuple[Point, ...],
                 black: int) -> GameResult:
    """The task: one whole game, with our brain started by the node's own Python."""
    first, second = config.engines
    on_node = replace(config, engines=(first.on_this_machine(), second.on_this_machine()))
    return play_one_game(on_node, number, opening, black)


def run_match(config: MatchConfig, address: str, *,
              on_game: Callable[[GameResult, MatchStats], None] | None = None,
              on_replay: Callable[[int, str], None] | None = None,
              ship_package: bool = False) -> MatchReport:
    """Play the match on the Ray cluster at ``address``.

    ``on_game`` is called after every counted game, as by
    :func:`gridgames.gomoku.match.run_match`; ``on_replay`` with the game number and
    the reason when a game is lost with its node and played again.
    """
    with connect(address, ship_package=ship_package) as ray:
        check_nodes(ray, brain_paths(config))
        return _play(ray, config, on_game, on_replay)


def _play(ray: ModuleType, config: MatchConfig,
          on_game: Callable[[GameResult, MatchStats], None] | None,
          on_replay: Callable[[int, str], None] | None) -> MatchReport:
    # Ray's own retries are off: a lost game is resubmitted here, by its number, so that
    # the coordinator knows of every replay and never waits on a game twice.
    task = ray.remote(num_cpus=1, max_retries=0, retry_exceptions=False)(play_on_node)
    shared_config = ray.put(config)
    tally = MatchTally(config, on_game)
    pending: dict[Any, tuple[tuple[int, tuple[Point, ...], int], int]] = {}

    def submit(job: tuple[int, tuple[Point, ...], int], attempt: int) -> None:
        pending[task.remote(shared_config, *job)] = (job, attempt)

    # Games are handed out a few more at a time than the cluster has CPUs, in the order of
    # their numbers: the waiting stays short however long the match, and nodes that join
    # in the meantime get work.
    waiting = deque(schedule(config))

    def refill() -> None:
        window = 2 * cluster_cpus(ray) + 2
        while waiting and len(pending) < window:
            submit(waiting.popleft(), 1)

    try:
        refill()
        while pending and not tally.decided:
            [ready], _ = ray.wait(list(pending), num_returns=1)
            job, attempt = pending.pop(ready)
            try:
                result = ray.get(ready)
            except ray.exceptions.RayTaskError as error:
                # The game itself failed (an engine that cannot start): as on one machine.
                cause = error.cause
                raise (cause if isinstance(cause, Exception) else error) from None
            except ray.exceptions.RayError as error:  # the node or the worker is gone
                reason = _first_line(error)
                if attempt >= MAX_ATTEMPTS:
                    raise ClusterError(f"game {job[0]} was lost {attempt} times, last: "
                                       f"{reason}") from None
                if on_replay is not None:
                    on_replay(job[0], reason)
                submit(job, attempt + 1)
                continue
            tally.add(result)
            refill()
    finally:
        _cancel(ray, list(pending))
    return tally.finish()


def _cancel(ray: ModuleType, refs: list[Any], patience_s: float = CANCEL_PATIENCE_S) -> None:
    """Cancel the games left and wait until they have ended. Ray's cancel is best effort (a
    game handed to a worker at that very moment can miss it), so it is sent again to the
    games still running, once a second, for at most ``patience_s``."""
    deadline = time.monotonic() + patience_s
    while refs and time.monotonic() < deadline:
        for ref in refs:
            ray.cancel(ref, force=True)
        _, refs = ray.wait(refs, num_returns=len(refs), timeout=1.0)


def _first_line(error: BaseException) -> str:
    """The first sentence of Ray's message (the rest is advice on its own tools)."""
    lines = [line for line in str(error).splitlines() if line.strip()]
    if not lines:
        return type(error).__name__
    return lines[0].strip().split(". ")[0].rstrip(".")
