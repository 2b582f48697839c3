"""``gridgames tournament``: a round robin of two engines or more, with standings.

Every engine plays every other a match of ``--games`` games from the same
openings, both colours each; the standings give points, score and a rating
fitted to all the games, and a crosstable::

    gridgames tournament level:4 level:5 "/opt/rapfi/pbrain-rapfi" --games 20 --time-ms 500
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from gridgames.gomoku.gomocup import EngineError
from gridgames.gomoku.match import (
    MAX_GAMES,
    EngineSpec,
    GameResult,
    MatchReport,
    MatchStats,
    game_line,
)
from gridgames.gomoku.tournament import (
    TournamentReport,
    pairings,
    run_tournament,
    unique_names,
)

from .match import add_game_options, game_config, settings_line
from .options import whole_number
from .stopping import StoppedBy, signals_stop


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("engines", nargs="+", metavar="ENGINE",
                        help="two or more: level:N, level:max, or a brain's command line "
                        "(quoted)")
    parser.add_argument("--games", type=whole_number(1, MAX_GAMES), default=2,
                        help=f"games of each pairing, 1 to {MAX_GAMES:,} (default 2: one "
                        "opening, both colours)")
    add_game_options(parser)


def run(args: argparse.Namespace) -> int:
    try:
        engines = unique_names([EngineSpec.parse(text) for text in args.engines])
        if len(engines) < 2:
            raise ValueError(f"a tournament needs two engines or more, got {len(engines)}")
        settings = game_config(args, (engines[0], engines[1]), args.games)
    except ValueError as error:
        print(f"gridgames tournament: {error}", file=sys.stderr)
        return 2
    count = len(pairings(len(engines)))
    print(f"Tournament of {len(engines)} engines: {count} pairings of {settings.games} games, "
          f"{settings_line(settings)}", flush=True)
    # The games counted so far, for the standings of a tournament that stops before its end.
    so_far = TournamentReport(engines)

    def game(pair: tuple[int, int], result: GameResult, stats: MatchStats) -> None:
        config = replace(settings, engines=(engines[pair[0]], engines[pair[1]]))
        so_far.matches.setdefault(pair, MatchReport(config)).results.append(result)
        print(game_line(result, config, config.games), flush=True)

    def match(pair: tuple[int, int], report: MatchReport) -> None:
        print(f"  {report.summary_lines()[0]}", flush=True)

    with signals_stop() as signals:
        try:
            report = signals.run(lambda: run_tournament(engines, settings, on_game=game,
                                                        on_match=match))
        except StoppedBy as stop:
            # The brains are ended and the games finished are kept: say where they stand.
            print(f"\nTournament stopped by {stop.why} after {_games(so_far)} of "
                  f"{count * settings.games} games.")
            _print_standings(so_far)
            return stop.status
        except (EngineError, ValueError) as error:
            # an engine that never starts a game, a record or folder that cannot be written
            _print_standings(so_far)
            print(f"gridgames tournament: {error}", file=sys.stderr)
            return 1 if isinstance(error, EngineError) else 2
        _print_standings(report)
    return 0


def _games(report: TournamentReport) -> int:
    return sum(len(match.results) for match in report.matches.values())


def _print_standings(report: TournamentReport) -> None:
    """The standings of the games counted, if any (a tournament that stopped may have
    none)."""
    if _games(report):
        print(f"Standings after {_games(report)} games:")
        for line in report.standings_lines():
            print(line, flush=True)
