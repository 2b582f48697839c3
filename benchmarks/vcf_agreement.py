"""The engine's wins by continuous fours checked by the puzzles' exact prover.

    python benchmarks/vcf_agreement.py --rule caro --games 40 --seed 1

Self-play games (the engine at ``--nodes`` a move, from the centre and up to
three random moves near it): at every position the engine's VCF solver (the
one the root's threat stage uses) is asked for a win within ``--moves`` of the
side to move's moves, and each win it reports is checked by
``gridgames.gomoku.puzzles.winning_moves``, an exact search of every four and
every block the rules allow. Prints how many wins the engine reported, how many
the prover refuted (each with its position) and how many were too open for the
prover's node limit. Freestyle, standard, renju and caro (the prover's rules).
"""

from __future__ import annotations

import argparse
import random
import sys

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import Limit, think, warm_up
from gridgames.gomoku.notation import format_position
from gridgames.gomoku.puzzles import PUZZLE_RULES, SearchLimitError, engine_vcf, winning_moves

CENTRE_SPREAD = 2  # the random opening moves lie this close to the centre


def opening(rng: random.Random, rule: Rule) -> Board:
    board = Board(15, rule=rule)
    board.push((7, 7))
    for _ in range(rng.randrange(1, 4)):
        near = [m for m in board.legal_moves
                if abs(m[0] - 7) <= CENTRE_SPREAD and abs(m[1] - 7) <= CENTRE_SPREAD]
        board.push(rng.choice(near))
    return board


def check_games(rule: Rule, games: int, seed: int, nodes: int, moves: int,
                max_stones: int) -> tuple[int, list[str], int]:
    """(wins the engine reported, the positions of those the prover refuted, undecided)."""
    rng = random.Random(seed)
    reported, refuted, undecided = 0, [], 0
    for _ in range(games):
        board = opening(rng, rule)
        while board.outcome() is None and len(board) < max_stones:
            if engine_vcf(board, moves) is not None:
                reported += 1
                try:
                    if not winning_moves(board, moves):
                        refuted.append(format_position(board.move_stack, board.height))
                except SearchLimitError:
                    undecided += 1
            board.push(think(board, Limit(nodes=nodes)).move)
    return reported, refuted, undecided


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rule", default="caro",
                        choices=[r.value for r in PUZZLE_RULES])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=3000, help="the engine's nodes a move")
    parser.add_argument("--moves", type=int, default=7,
                        help="wins within this many of the attacker's moves (3 to 9)")
    parser.add_argument("--max-stones", type=int, default=80,
                        help="stop a game at this many stones")
    args = parser.parse_args()
    if args.games < 1 or args.nodes < 1 or not 3 <= args.moves <= 9 or args.max_stones < 5:
        sys.exit("--games and --nodes must be 1 or more, --moves 3 to 9, --max-stones 5 "
                 "or more")
    warm_up()
    reported, refuted, undecided = check_games(Rule.from_name(args.rule), args.games,
                                               args.seed, args.nodes, args.moves,
                                               args.max_stones)
    for position in refuted:
        print(f"refuted: {position}")
    print(f"{args.rule}, {args.games} games: the engine reported {reported} wins by fours "
          f"within {args.moves} moves; the prover refuted {len(refuted)}, could not decide "
          f"{undecided}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
