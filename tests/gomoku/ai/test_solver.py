"""Forced wins and only-move defences from engine self-play (proven when the suite was built)."""

from __future__ import annotations

import pytest

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import Limit, analyse, think
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai import search as S
from gridgames.gomoku.ai.engine import load_position
from gridgames.gomoku.notation import parse_position
from gridgames.gomoku.puzzles import winning_moves

LIMIT = Limit(time_ms=3000)

# Black wins by fours that each make nothing on another line at first, but build one up.
PLAIN_FOURS_WIN = "h8f6i9h7j8g8j10g7h10g11i10g10g9i7"

WINS = [
    # (rule, moves) where the side to move wins by continuous fours (VCF) or threats (VCT)
    ("renju", "h8f8i10g8i9e8d8g7i11i8g9e9h6e10e11d10c11e7e6f10c10g10h10f9i12i13h7h9h5h4j12k13f11"),
    ("renju", "h8f8i10g8i9e8d8g7i11i8g9e9h6e10e11d10c11e7e6f10c10g10h10f9i12i13h7h9h5h4j12k13f11"
              "f7f6"),
    ("freestyle", "h8i7h9i6j7g7i8g10h7h6k6l5j8g8k8l8g9j4i5l6h10h11l7f9i12k5m7k7j9e8d7i3h2g6"),
    ("freestyle", "h8j7h10j9j10i8g7i9g9k10h7l11m12h9g10k9l9k6l5k8k7k12k11g8"),
    ("caro", "h8f7i8f8g7f6f10f9f5g9g6h7g5g8g4g3i6"),
    ("caro", PLAIN_FOURS_WIN),
]

# Caro, black to move: the search used to count a win by fours here (f11 first) that
# white escapes by blocking a four at the far end of its five, leaving that five
# blocked at both ends, which caro does not count.
FAR_END_ESCAPE = "h8i7f10j8f8h6k9g6f6i9i10f7h10g10g9e7i11j12h11f4g5g7h7h9e11d12"

# White wins by fours and threes (not by fours alone).
VCT_WIN = "h8g7i10f9h9h7g8f7i7f8j11k12f10g9e7"

DEFENCES = [
    # (rule, moves, the only move that stops the opponent's VCF)
    ("freestyle", "h8j7h10j9j10i8g7i9g9k10h7l11m12h9g10k9l9k6l5k8k7k12k11", "g8"),
    ("standard", "h8i6j8f8i7h7k9h6l10m11j6g9j7j5j10j9k5l4", "g8"),
    ("renju", "h8i8i6h6i5j7h9h10i7g9i4i3i11k5j4h4g5f5h7g8g11h11j10h12i9g7k9i12g10g12j9l9k11"
              "l12j12e12f12h14h13j11l8m7k10k8k13k12l14m15n11l13", "i10"),
]

# Freestyle games lost to Rapfi at 1 s a move: the move played there (the second item)
# left the opponent a win that the root's first check, its budget shared among all the
# root moves, did not find.
REFUTED_IN_PLAY = [
    # a win by continuous fours too long for the VCT's depth
    ("h8i7e10i8i6i10i9j10h6h10g10h7j9g7j7k9k10g6f7i11h12l10j12g5g8f5e4g4g3l11l9h5i5j11m11"
     "k12m10k8h9d5e5g9e6e7f8d8h4f2f11e2f3c9f6", "g2"),
    # a win by fours and threes that takes the solver some 60,000 nodes
    ("h8j7e11i7k7j8h6i6i5h5k8g7h7h9i8g6g8i4f7g4f3j9j6h4f4h3f5f6i3k9l9l10m11j10j11k10i10m9"
     "i11k11", "j12"),
]


def board_of(rule: str, moves: str) -> Board:
    board = Board(15, rule=Rule.from_name(rule))
    board.push_many(parse_position(moves, 15, 15))
    return board


def test_only_the_full_vcf_solver_sees_a_win_by_plain_fours() -> None:
    pos = load_position(board_of("caro", PLAIN_FOURS_WIN), P.new_table(10))
    black = int(pos.info[P.I_SIDE])
    assert S.vcf(pos, 0, 40, black, 1) > 0  # every four: the root solver
    assert S.vcf(pos, 0, 40, black, 0) == 0  # the leaf solver's shortcut misses it


def test_caro_fours_are_stopped_at_the_far_end_of_their_five_too() -> None:
    # black h8-k8 against white l8: g8 makes a five unless white holds g8, or f8
    # (then g8-k8 is blocked at both ends)
    board = board_of("caro", "h8l8i8a1j8a2k8")
    answers = {line.move for line in analyse(board, Limit(depth=3), multipv=3)}
    assert answers == {board.parse("g8"), board.parse("f8")}
    board = board_of("freestyle", "h8l8i8a1j8a2k8")
    assert {line.move for line in analyse(board, Limit(depth=3), multipv=3)} == {
        board.parse("g8")}


def test_no_win_by_fours_is_counted_that_a_far_end_block_refutes() -> None:
    board = board_of("caro", FAR_END_ESCAPE)
    assert winning_moves(board, 9) == {}  # the puzzles' exact prover: no win by fours
    pos = load_position(board, P.new_table(10))
    assert S.vcf(pos, 0, 40, int(pos.info[P.I_SIDE]), 1) == 0


def test_threat_cache_keeps_proven_wins_and_forgets_searches_cut_short() -> None:
    pos = load_position(board_of("freestyle", VCT_WIN), P.new_table(10))
    white = int(pos.info[P.I_SIDE])
    pos.info[P.I_VCF_LIMIT] = 200
    assert S.vct(pos, 0, 10, white) == 0  # too few nodes to find it
    # ... which proves nothing, so nothing of it may be remembered as a failure
    pos.info[P.I_NODES] = 0
    pos.info[P.I_VCF_LIMIT] = 1_000_000
    plies = S.vct(pos, 0, 10, white)
    searched = pos.info[P.I_NODES]
    assert plies > 0
    pos.info[P.I_NODES] = 0
    assert S.vct(pos, 0, 10, white) == plies
    assert pos.info[P.I_NODES] * 100 < searched  # the replies' wins are remembered


@pytest.mark.parametrize(("rule", "moves"), WINS)
def test_forced_win_is_found_and_played_out(rule: str, moves: str) -> None:
    board = board_of(rule, moves)
    winner = board.to_move
    result = think(board, LIMIT)
    assert result.mate is not None and result.mate > 0, result
    # play it out against the engine's best defence: the win must arrive in time
    for _ in range(2 * result.mate + 4):
        if board.outcome() is not None:
            break
        board.push(think(board, LIMIT).move)
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is winner


@pytest.mark.parametrize(("rule", "moves", "answer"), DEFENCES)
def test_only_defence_is_found(rule: str, moves: str, answer: str) -> None:
    board = board_of(rule, moves)
    assert think(board, LIMIT).move == board.parse(answer)


def opponent_wins(board: Board) -> bool:
    """Whether the side to move wins by fours (VCF), or by fours and threes (VCT), as the
    solvers prove with a million nodes."""
    pos = load_position(board, P.new_table(10))
    pos.info[P.I_VCF_LIMIT] = 1_000_000
    return S.root_threat_search(pos, 40, 10) > 0


@pytest.mark.parametrize(("moves", "played"), REFUTED_IN_PLAY)
def test_the_move_chosen_is_checked_for_a_win_it_leaves_the_opponent(moves: str,
                                                                     played: str) -> None:
    board = board_of("freestyle", moves)
    board.push(board.parse(played))
    assert opponent_wins(board)  # the move of the game lost
    board.pop()
    board.push(think(board, Limit(nodes=1_000_000)).move)
    assert not opponent_wins(board)


def test_checks_of_the_best_move_leave_a_node_limited_search_its_nodes() -> None:
    # white to move against black's threats (from a game): the root solvers take a
    # quarter of the nodes; the checks of the best move must not take the rest
    board = board_of("freestyle", "h8i8e7i9i10j9g9")
    result = think(board, Limit(nodes=250_000))  # the "Expert" level's limit
    assert result.depth >= 10, result
