"""Where an engine's lost games were decided, as our threat solvers and search see them.

    python benchmarks/lost_games.py DIR [DIR ...] --engine NAME [--ms 1000] [--json F]

For every game of the match folders (``gridgames match --out``) that ``--engine``
lost on the board, counted back from its end:

- **the threat**: the earliest position, the winner to move, from which the winner
  has a forced win by fours and threes (VCT) that our solvers find, and from every
  one of the winner's later positions;
- **the winner's last free move**, the move two plies before that: the winner had
  no such win before it. Either every reply of the loser then lost to one (a
  *winning free move*; *quiet* where it made no four and no open three, so that
  nothing forced the reply), or a reply that held was there and the loser missed it;
- **seen by the loser**: our engine, given ``--ms`` at the loser's move just before
  a winning free move, already reports a forced loss (so the game was lost before);
  at a missed defence, the same at the move that missed it (the replies that held
  against the solvers then lose to the search);
- **found by the winner**: our engine, given ``--ms`` in the winner's seat before a
  winning free move, reports a forced win there.

The solvers prove wins only: a game whose winner needed more than they find in
``--nodes`` counts as *no threat found*.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from engine_tactics import near_moves, threat_win  # beside this script
from gridgames.gomoku import Board, Color, Rule
from gridgames.gomoku.ai import Limit, think, warm_up
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai.engine import load_position
from gridgames.gomoku.ai.patterns import C_FIVE, C_FLEX4
from gridgames.gomoku.records import GameRecord, RecordError, load, winner_of

KINDS = ("winning free move", "missed defence", "no threat found")
VCT_DEPTH = 16  # moves of the attacker, each a three or a four


@dataclass
class LostGame:
    path: str
    moves: int  # stones on the board at the end
    kind: str  # one of KINDS
    threat_from: int | None = None  # stones on the board where the winner's VCT begins
    replies: int = 0  # the loser's replies to the last free move
    quiet: bool | None = None  # a winning free move that made no four and no open three
    seen_by_loser: bool | None = None  # our engine saw the loss at the loser's last free move
    loser_score: int | None = None  # its score there (centi-stones, the loser's view)
    found_by_winner: bool | None = None  # our engine, in the winner's seat, found the win


def board_of(record: GameRecord, stones: int) -> Board:
    board = Board(record.width, record.height, rule=record.rule)
    board.push_many(record.moves[:stones])
    return board


def has_threat_win(board: Board, nodes: int) -> bool:
    """Whether the side to move has a forced win by fours (VCF), or by fours and threes
    (VCT), that the solvers find within ``nodes``."""
    return threat_win(board, vct=True, nodes=nodes, vct_depth=VCT_DEPTH) > 0


def makes_threat(board: Board) -> bool:
    """Whether the side that has just moved has a four or an open three on the board."""
    pos = load_position(board, P.new_table(10))
    counts = pos.class_count[2 - int(pos.info[P.I_SIDE])]  # the colour that just moved
    return int(counts[C_FIVE] + counts[C_FLEX4]) > 0


def threat_start(record: GameRecord, nodes: int) -> int | None:
    """Stones on the board at the earliest position from which the winner (to move)
    has a VCT our solvers find, and at every later position with the winner to move."""
    earliest = None
    for stones in range(len(record.moves) - 1, 0, -2):  # the winner made the last move
        if not has_threat_win(board_of(record, stones), nodes):
            break
        earliest = stones
    return earliest


def every_reply_loses(board: Board, nodes: int) -> tuple[bool, int]:
    """Whether each reply of the side to move leaves the other side a forced win, and
    how many replies there were."""
    points = near_moves(board)
    for point in points:
        board.push(point)
        lost = board.outcome() is None and has_threat_win(board, nodes)
        board.pop()
        if not lost:
            return False, len(points)
    return True, len(points)


def examine(path: Path, record: GameRecord, limit: Limit, nodes: int) -> LostGame:
    start = threat_start(record, nodes)
    game = LostGame(str(path), len(record.moves), KINDS[2], start)
    if start is None or start < 3:
        return game
    free_move = start - 2  # stones before the winner's last free move
    after = board_of(record, free_move + 1)
    won, game.replies = every_reply_loses(after, nodes)
    if not won:
        game.kind = KINDS[1]
        game.loser_score, game.seen_by_loser = search(after, limit)
        return game
    game.kind = KINDS[0]
    game.quiet = not makes_threat(after)
    game.loser_score, game.seen_by_loser = search(board_of(record, free_move - 1), limit)
    found = think(board_of(record, free_move), limit)
    game.found_by_winner = found.mate is not None and found.mate > 0
    return game


def search(board: Board, limit: Limit) -> tuple[int, bool]:
    """Our engine's score for the side to move, and whether it reported a forced loss."""
    result = think(board, limit)
    return result.score, result.mate is not None and result.mate < 0


def lost_by(directory: Path, engine: str, rule: Rule) -> list[tuple[Path, GameRecord]]:
    games = []
    for path in sorted(directory.glob("*.psq")):
        try:
            record = load(path, rule)
        except (OSError, RecordError) as error:
            raise SystemExit(f"{path}: {error}") from None
        winner = winner_of(record)
        if winner is None or record.termination:  # a draw, or lost off the board
            continue
        loser_name = record.white if winner == Color.BLACK else record.black
        if loser_name == engine:
            games.append((path, record))
    return games


def summary(games: list[LostGame]) -> dict[str, object]:
    kinds = Counter(game.kind for game in games)
    won = [game for game in games if game.kind == KINDS[0]]
    missed = [game for game in games if game.kind == KINDS[1]]
    return {
        "lost": len(games),
        "kinds": {kind: kinds[kind] for kind in KINDS},
        "quiet": sum(bool(game.quiet) for game in won),
        "seen_by_loser": sum(bool(game.seen_by_loser) for game in won),
        "found_by_winner": sum(bool(game.found_by_winner) for game in won),
        "missed_seen_by_loser": sum(bool(game.seen_by_loser) for game in missed),
        "plies_from_threat_to_end": sorted(game.moves - game.threat_from for game in games
                                           if game.threat_from is not None),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", type=Path, help="folders of .psq match records")
    parser.add_argument("--engine", required=True, help="the player's name in the records")
    parser.add_argument("--rule", choices=[r.name.lower() for r in Rule], default="freestyle")
    parser.add_argument("--ms", type=int, default=1000, help="our time a position (default 1000)")
    parser.add_argument("--nodes", type=int, default=300_000,
                        help="the threat solvers' nodes a position (default 300,000)")
    parser.add_argument("--json", type=Path, help="write every game and the counts here too")
    args = parser.parse_args()
    if min(args.ms, args.nodes) <= 0:
        parser.error("--ms and --nodes must be above 0")
    for directory in args.dirs:
        if not directory.is_dir():
            parser.error(f"{directory} is not a folder")
    rule = Rule[args.rule.upper()]
    warm_up()
    started = time.monotonic()
    games = []
    for directory in args.dirs:
        for path, record in lost_by(directory, args.engine, rule):
            games.append(examine(path, record, Limit(time_ms=args.ms), args.nodes))
            game = games[-1]
            print(f"{path}: {game.kind}, the threat from stone {game.threat_from} of "
                  f"{game.moves}, seen by the loser {game.seen_by_loser}, found by the "
                  f"winner {game.found_by_winner}", flush=True)
    counts = summary(games)
    kinds = counts["kinds"]
    assert isinstance(kinds, dict)
    print(f"{platform.machine()}, {time.strftime('%Y-%m-%d')}: {len(games)} games lost by "
          f"{args.engine}, ours at {args.ms} ms a position ({time.monotonic() - started:.0f} s)")
    for kind in KINDS:
        print(f"  {kind}: {kinds[kind]}")
    print(f"  of the winning free moves, quiet (no four, no open three): {counts['quiet']}")
    print(f"  before a winning free move, the loser already saw its loss in "
          f"{counts['seen_by_loser']} of {kinds[KINDS[0]]}; the winner's seat found the "
          f"win in {counts['found_by_winner']}")
    print(f"  at a missed defence, the loser saw a forced loss whatever it played in "
          f"{counts['missed_seen_by_loser']} of {kinds[KINDS[1]]}")
    if args.json:
        args.json.write_text(json.dumps({"summary": counts,
                                         "games": [asdict(game) for game in games]},
                                        indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
