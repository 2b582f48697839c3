"""The game the review tests share: white ignores black's open three at move 10.

The engine's own moves on both sides (depth 5) when the game was written, until
black's h9 makes the open three h8-h9-h10; white ignores it (a15), black makes the
open four h11 and then five. The game is kept as it is: the engine now plays
other depth-5 moves. ``python tests/review_game.py`` prints its current game with
the same blunder, should another game like this one be needed.
"""

from gridgames.gomoku import Board
from gridgames.gomoku.ai import Limit, think
from gridgames.gomoku.notation import format_position, parse_renju

IGNORED_THREE = "h8i7j8i8i9g7h10g11h9a15h11h7h12"
BLUNDER_PLY = 10
BLUNDER = "a15"
BEST_ANSWERS = ("h7", "h11")


def replay() -> str:
    """Black's h8, then the engine's depth-5 moves for both sides, but white's
    ``BLUNDER`` at ``BLUNDER_PLY``, until the game ends."""
    board = Board(15)
    board.push(parse_renju("h8", 15, 15))
    while not board.is_game_over():
        if len(board.move_stack) == BLUNDER_PLY - 1:
            board.push(parse_renju(BLUNDER, 15, 15))
        else:
            board.push(think(board, Limit(depth=5)).move)
    return format_position(board.move_stack, 15)


if __name__ == "__main__":
    print(replay())
