"""``gridgames match``: play a match between two engines and report the score and Elo.

An engine is ``level:N`` / ``level:max`` (our engine) or the command line of
any Gomocup brain, quoted as one argument::

    gridgames match level:max "/opt/rapfi/pbrain-rapfi" --games 20 --time-ms 1000

With ``--cluster HEAD:PORT`` (or ``auto``) the games are tasks on a Ray cluster
(``pip install 'gridgames[cluster]'``; see docs/cluster.md).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gridgames.gomoku import MAX_SIZE, MIN_SIZE
from gridgames.gomoku.gomocup import EngineError
from gridgames.gomoku.gomocup.client import DEFAULT_START_TIMEOUT_MS
from gridgames.gomoku.match import (
    MAX_CONCURRENCY,
    MAX_GAMES,
    MAX_NODES,
    MAX_TIME_MS,
    EngineSpec,
    GameResult,
    MatchConfig,
    MatchReport,
    MatchStats,
    Sprt,
    default_opening_moves,
    game_line,
    progress_line,
    read_openings,
    records_folder,
    replayed_games,
    run_match,
    scheduled_openings,
)

from .options import positive_number, whole_number
from .stopping import StoppedBy, signals_stop


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("engines", nargs=2, metavar="ENGINE",
                        help="level:N, level:max, or a brain's command line (quoted)")
    parser.add_argument("--games", type=whole_number(1, MAX_GAMES), default=10,
                        help=f"number of games, 1 to {MAX_GAMES:,} (default 10)")
    add_game_options(parser)
    parser.add_argument("--time-odds", type=positive_number, default=1.0,
                        help="the first engine's times, a move's and a game's, multiplied by "
                        "this (2: twice the second engine's time; default 1)")
    parser.add_argument("--sprt", help="elo0,elo1[,alpha,beta]: stop early once a hypothesis "
                        "is accepted (alpha and beta default to 0.05)")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="play the games as tasks on the Ray cluster at ADDRESS (HEAD:PORT, "
                        "or auto for the one running here); --concurrency is then the "
                        "cluster's CPUs. Needs: pip install 'gridgames[cluster]'")
    parser.add_argument("--cluster-ship", action="store_true",
                        help="send this gridgames to the cluster's nodes through Ray's runtime "
                        "environment, for nodes where it is not installed")


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """The options of the games themselves, shared with ``gridgames tournament``."""
    parser.add_argument("--rule", default="freestyle",
                        help="freestyle, standard, renju, caro or caro-exact (default freestyle)")
    board_size = whole_number(MIN_SIZE, MAX_SIZE)
    parser.add_argument("--size", type=board_size, help="square board size (default 15)")
    parser.add_argument("--width", type=board_size, help="board width (default: --size)")
    parser.add_argument("--height", type=board_size,
                        help="board height (default: --size, or the width)")
    parser.add_argument("--time-ms", type=whole_number(0, MAX_TIME_MS), default=1000,
                        help=f"time per move in milliseconds, 0 to {MAX_TIME_MS} (the most "
                        "the protocol carries; default 1000)")
    parser.add_argument("--match-time-ms", type=whole_number(1, MAX_TIME_MS),
                        help=f"time per game for each engine in milliseconds, 1 to "
                        f"{MAX_TIME_MS} (default: none)")
    parser.add_argument("--nodes", type=whole_number(1, MAX_NODES),
                        help="nodes a move for both engines, sent as INFO max_node (Yixin's "
                        "key; the time a move still applies as a cap), 1 to 2**48")
    parser.add_argument("--tolerance-ms", type=whole_number(0, MAX_TIME_MS), default=1000,
                        help="lateness forgiven on each move, as Piskvork's tolerance "
                        "(default 1000)")
    parser.add_argument("--start-timeout-ms", type=whole_number(1, MAX_TIME_MS),
                        default=DEFAULT_START_TIMEOUT_MS,
                        help="time a brain has to answer OK to START (and RESTART), not "
                        "counted as its time: loading a network, a book or compiled code "
                        "(default %(default)s). A brain that never starts a game stops the "
                        "match")
    parser.add_argument("--openings", type=Path,
                        help="file with one opening a line as a position string like h8i9j10, "
                        "or as Piskvork's and Gomocup's opening files write them, dx,dy "
                        "pairs from the centre like 0,0, 1,0, 1,3 (default: the balanced "
                        "openings shipped with gridgames for the rule: "
                        "5-stone renju openings under renju, 3-stone ones otherwise)")
    parser.add_argument("--concurrency", type=whole_number(1, MAX_CONCURRENCY), default=1,
                        help=f"games played at once, 1 to {MAX_CONCURRENCY} (default 1)")
    parser.add_argument("--out", "--pgn-dir", dest="out", type=Path,
                        help="directory for one .psq record per game")
    parser.add_argument("--seed", type=whole_number(0), help="seed for the order of the openings")


def build_config(args: argparse.Namespace) -> MatchConfig:
    """The match described by the command line; raises ValueError saying what is wrong.

    ``args`` comes from the parser of :func:`add_arguments`, whose option types have
    already refused a --games, --time-ms or --concurrency out of its range.
    """
    engines = (EngineSpec.parse(args.engines[0]), EngineSpec.parse(args.engines[1]))
    return game_config(args, engines, args.games, time_odds=args.time_odds,
                       sprt=Sprt.parse(args.sprt) if args.sprt else None)


def game_config(args: argparse.Namespace, engines: tuple[EngineSpec, EngineSpec], games: int,
                **more: Any) -> MatchConfig:
    """A match of ``games`` between ``engines`` under the options of
    :func:`add_game_options` (and ``more`` of MatchConfig's fields); raises ValueError
    saying what is wrong."""
    from gridgames.gomoku import Rule
    from gridgames.gomoku.board import check_size
    from gridgames.gomoku.openings import load_openings

    rule = Rule.from_name(args.rule)
    size = 15 if args.size is None else args.size
    width = size if args.width is None else args.width
    height = (width if args.size is None else size) if args.height is None else args.height
    check_size(width, height)
    if args.openings is not None:
        openings = read_openings(load_openings(args.openings), width, height, rule)
    else:
        openings = default_opening_moves(width, height, rule)
    config = MatchConfig(
        engines=engines, games=games, rule=rule, width=width, height=height,
        time_ms=args.time_ms, match_time_ms=args.match_time_ms, nodes=args.nodes,
        tolerance_ms=args.tolerance_ms, start_timeout_ms=args.start_timeout_ms,
        openings=openings, concurrency=args.concurrency, out_dir=args.out, seed=args.seed,
        **more,
    )
    if args.out is not None:
        records_folder(args.out)  # now: a bad --out is refused before anything is printed
    return config


def settings_line(config: MatchConfig) -> str:
    """The games' settings for a header line: rule, board and times."""
    return (f"{config.rule.value} {config.width}x{config.height}, {config.time_ms} ms a move"
            + (f", {config.nodes} nodes a move" if config.nodes else "")
            + (f", {config.match_time_ms} ms a game" if config.match_time_ms else ""))


def run(args: argparse.Namespace) -> int:
    try:
        config = build_config(args)
    except ValueError as error:
        print(f"gridgames match: {error}", file=sys.stderr)
        return 2
    if args.cluster_ship and args.cluster is None:
        print("gridgames match: --cluster-ship goes with --cluster ADDRESS", file=sys.stderr)
        return 2
    a, b = (spec.name for spec in config.engines)
    where = f", on the cluster at {args.cluster}" if args.cluster is not None else ""
    print(f"Match {a} vs {b}: {config.games} games, {settings_line(config)}"
          + (f", {a}'s times x{config.time_odds:g}" if config.time_odds != 1 else "") + where,
          flush=True)
    replayed = replayed_games(config)
    if replayed and config.nodes is not None:
        # fixed nodes make a brain like ours deterministic: a replayed opening is the same
        # game again, and counting it again narrows the intervals for nothing
        print(f"Note: {replayed} of the {config.games} games replay an opening of the "
              f"{len(scheduled_openings(config))} already played, and at a fixed node count a "
              "replayed game can be the same game again, counted anew; --openings FILE can "
              "give more openings.", flush=True)
    # The games counted so far, to sum up a match that stops before its end.
    so_far = MatchReport(config)

    def progress(result: GameResult, stats: MatchStats) -> None:
        so_far.results.append(result)
        so_far.stats = stats
        print(game_line(result, config, config.games), flush=True)
        print(f"  {progress_line(stats, config)}", flush=True)

    def play() -> MatchReport:
        if args.cluster is not None:
            return _run_on_cluster(config, args.cluster, progress, args.cluster_ship)
        return run_match(config, on_game=progress)

    with signals_stop() as signals:
        try:
            report = signals.run(play)
        except StoppedBy as stop:
            # The brains are ended and the games finished are kept: say what they add up to.
            print(f"\nMatch stopped by {stop.why} after {so_far.stats.games} of "
                  f"{config.games} games.")
            _print_summary(so_far)
            return stop.status
        except (EngineError, ValueError, _ClusterFailure) as error:
            # a brain that never starts, a record that cannot be written, a cluster that fails
            _print_summary(so_far)
            print(f"gridgames match: {error}", file=sys.stderr)
            return 1 if isinstance(error, EngineError) else 2
        if report.stopped_early:
            print(f"SPRT decided after {report.stats.games} games: stopping.")
        _print_summary(report)
    return 0


def _print_summary(report: MatchReport) -> None:
    """The summary of the games counted, if any (a match that stopped may have none)."""
    if report.stats.games:
        for line in report.summary_lines():
            print(line, flush=True)


class _ClusterFailure(Exception):
    """The cluster could not play the match (the message says why)."""


def _run_on_cluster(config: MatchConfig, address: str,
                    progress: Callable[[GameResult, MatchStats], None],
                    ship_package: bool) -> MatchReport:
    # Imported here: without --cluster, gridgames never needs Ray.
    from gridgames.cluster import ClusterError
    from gridgames.cluster.match import run_match as run_on_cluster

    def replay(number: int, reason: str) -> None:
        print(f"Game {number} was lost with its node ({reason}): playing it again", flush=True)

    try:
        return run_on_cluster(config, address, on_game=progress, on_replay=replay,
                              ship_package=ship_package)
    except ClusterError as error:
        raise _ClusterFailure(str(error)) from None
