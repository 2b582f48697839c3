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

from .match import add_game_options, game_config, settings_line
from .options import whole_number


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("engines", nargs="+", metavar="ENGINE",
                        help="two or more: level:N, level:max, or a brain's command line "
                        "(quoted)")
    parser.add_argument("--games", type=whole_number(1, MAX_GAMES), default=2,
                        help=f"games of each pairing, 1 to {MAX_GAMES:,} (default 2: one "
                        "opening, both colours)")
    add_game_options(parser)


def run(args: argparse.Namespace) -> int:
    from gridgames.gomoku.tournament import pairings, run_tournament, unique_names

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

    def game(pair: tuple[int, int], result: GameResult, stats: MatchStats) -> None:
        config = replace(settings, engines=(engines[pair[0]], engines[pair[1]]))
        print(game_line(result, config, config.games), flush=True)

    def match(pair: tuple[int, int], report: MatchReport) -> None:
        print(f"  {report.summary_lines()[0]}", flush=True)

    try:
        report = run_tournament(engines, settings, on_game=game, on_match=match)
    except EngineError as error:  # an engine that cannot even be started
        print(f"gridgames tournament: {error}", file=sys.stderr)
        return 1
    except ValueError as error:  # a pairing's folder of records cannot be made
        print(f"gridgames tournament: {error}", file=sys.stderr)
        return 2
    print(f"Standings after {sum(len(m.results) for m in report.matches.values())} games:")
    for line in report.standings_lines():
        print(line)
    return 0
