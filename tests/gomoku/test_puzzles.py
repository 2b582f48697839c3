"""Puzzles: the shipped set is sound, and the judge accepts any forced win and nothing else."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from gridgames.gomoku import Board, Color, IllegalMoveError, Rule
from gridgames.gomoku.notation import parse_position
from gridgames.gomoku.puzzles import (
    AVOID_FOULS,
    FOUL_TRAP,
    MAX_LENGTH,
    MIN_LENGTH,
    PUZZLE_RULES,
    Puzzle,
    SearchLimitError,
    VcfProver,
    engine_vcf,
    get_puzzle,
    hint,
    judge,
    load_puzzles,
    puzzles_from_json,
    puzzles_to_json,
    winning_moves,
)

PUZZLES = load_puzzles()
IDS = [p.id for p in PUZZLES]


def position(text: str, rule: Rule = Rule.FREESTYLE) -> Board:
    board = Board(15, rule=rule)
    board.push_many(parse_position(text, 15, 15))
    return board


def puzzle_of(text: str, length: int, rule: Rule = Rule.FREESTYLE) -> Puzzle:
    board = position(text, rule)
    return Puzzle(0, rule, 15, 15, tuple(board.move_stack), board.to_move, length, ())


def test_the_shipped_set_covers_every_rule_and_is_ordered_by_length():
    counts = {rule: len(load_puzzles(rule)) for rule in PUZZLE_RULES}
    assert counts[Rule.FREESTYLE] >= 50 and counts[Rule.RENJU] >= 30, counts
    assert counts[Rule.STANDARD] >= 15 and counts[Rule.CARO] >= 15, counts
    assert sum(FOUL_TRAP in p.themes for p in load_puzzles("renju")) >= 10
    assert list(range(1, len(PUZZLES) + 1)) == sorted(IDS)
    lengths = [p.length for p in PUZZLES]
    assert lengths == sorted(lengths)  # listed easiest first, whatever their ids
    assert all(MIN_LENGTH <= n <= MAX_LENGTH for n in lengths)
    assert puzzles_from_json(puzzles_to_json(PUZZLES)) == PUZZLES
    # The ids of the first sets, which players' progress is kept by, never change.
    assert [(p.id, p.rule, p.length) for p in PUZZLES if p.id in (1, 140, 141, 160)] == [
        (1, Rule.FREESTYLE, 3), (140, Rule.FREESTYLE, 7), (141, Rule.FREESTYLE, 7),
        (160, Rule.RENJU, 9)]


@pytest.mark.parametrize("puzzle_id", IDS)
def test_the_stored_line_is_legal_forced_and_ends_in_the_attackers_five(puzzle_id):
    puzzle = get_puzzle(puzzle_id)
    board = puzzle.board()
    assert board.to_move is puzzle.to_move
    line = puzzle.solution
    assert len(line) == 2 * puzzle.length - 1
    for index in range(0, len(line), 2):
        board.push(line[index])  # raises if illegal
        if index == len(line) - 1:
            break
        # the attacker's move is a four, so the defender must stop its five points
        prover = VcfProver(board)
        fives = prover.fives_near(line[index], puzzle.to_move)
        assert fives, f"{board.point_name(line[index])} is not a four"
        assert not prover.fives(puzzle.to_move.other)
        blocks = prover.blocks(puzzle.to_move, fives)
        if blocks:
            assert line[index + 1] in blocks
        board.push(line[index + 1])
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is puzzle.to_move


@pytest.mark.parametrize("puzzle_id", IDS)
def test_the_prover_agrees_with_the_engine(puzzle_id):
    puzzle = get_puzzle(puzzle_id)
    board = puzzle.board()
    first = puzzle.solution[0]
    assert winning_moves(board, puzzle.length) == {first: puzzle.length}
    assert winning_moves(board, puzzle.length - 1) == {}  # the length is the shortest
    engine = engine_vcf(board, puzzle.length)
    assert engine is not None and engine[1] == first and engine[0] <= puzzle.length


@pytest.mark.parametrize("puzzle_id", IDS)
def test_the_first_move_is_accepted_and_a_quiet_move_refused(puzzle_id):
    puzzle = get_puzzle(puzzle_id)
    started = time.perf_counter()
    verdict = judge(puzzle, [], puzzle.solution[0])
    assert time.perf_counter() - started < 2.0
    assert verdict.kind == "continue", verdict
    assert verdict.reply == puzzle.solution[1]
    assert verdict.moves_left == puzzle.length - 1
    prover = VcfProver(puzzle.board())
    fours = set(prover.fours(puzzle.to_move))
    board = puzzle.board()
    quiet = next(p for p in board.legal_moves if p not in fours)
    refused = judge(puzzle, [], quiet)
    assert refused.kind == "fail"
    assert "not a four" in refused.message


def test_following_the_line_solves_the_puzzle():
    puzzle = next(p for p in PUZZLES if p.length >= 4)
    line = list(puzzle.solution)
    for index in range(0, len(line) - 1, 2):
        verdict = judge(puzzle, line[:index], line[index])
        assert verdict.kind == "continue"
        assert verdict.reply == line[index + 1]
    final = judge(puzzle, line[:-1], line[-1])
    assert final.solved and line[-1] in final.five and "solved" in final.message


def test_foul_traps_end_with_black_forbidden_to_block():
    traps = [p for p in load_puzzles(Rule.RENJU) if FOUL_TRAP in p.themes]
    assert traps
    for puzzle in traps:
        assert puzzle.to_move is Color.WHITE
        board = puzzle.board()
        board.push_many(puzzle.solution[:-2])
        five = puzzle.solution[-1]
        # white's last four threatens the five at a point black may not take
        assert board.to_move is Color.BLACK
        assert board.foul(five), (puzzle.id, board.point_name(five))
        assert "forbidden" in (board.illegal_reason(five) or "")
        board.push(puzzle.solution[-2])
        board.push(five)
        assert board.outcome().winner is Color.WHITE


def tempting_fours(board: Board) -> list[tuple[int, int]]:
    """Black's fours on forbidden points (black to move, renju)."""
    prover = VcfProver(board)
    found = []
    for point in sorted(board.forbidden_points()):
        prover.place(point, Color.BLACK)
        if prover.fives_near(point, Color.BLACK):
            found.append(point)
        prover.remove(point)
    return found


def test_black_may_not_attack_through_a_forbidden_point():
    avoiding = [p for p in load_puzzles(Rule.RENJU) if AVOID_FOULS in p.themes]
    assert avoiding
    for puzzle in avoiding:
        assert puzzle.to_move is Color.BLACK
        board = puzzle.board()
        for index in range(0, len(puzzle.solution), 2):
            tempting = tempting_fours(board)
            if tempting:
                break
            board.push_many(puzzle.solution[index:index + 2])
        assert tempting, f"puzzle {puzzle.id} has no four on a forbidden point"
        verdict = judge(puzzle, puzzle.solution[:index], tempting[0])
        assert verdict.kind == "illegal" and "forbidden for black" in verdict.message
        # and the stored move there is a legal four
        assert judge(puzzle, puzzle.solution[:index], puzzle.solution[index]).kind in (
            "continue", "win")


def test_any_winning_first_move_is_accepted():
    # black's open three h8 i8 j8: g8 and k8 both make an open four
    puzzle = puzzle_of("h8a1i8a3j8a5", 3)
    assert set(winning_moves(puzzle.board(), 3)) == {(6, 7), (10, 7)}
    for first, ends in (((6, 7), {(5, 7), (10, 7)}), ((10, 7), {(6, 7), (11, 7)})):
        verdict = judge(puzzle, [], first)
        assert verdict.kind == "continue", verdict
        assert verdict.moves_left == 1
        assert "cannot stop both" in verdict.message
        assert verdict.reply in ends
        (five,) = ends - {verdict.reply}
        won = judge(puzzle, [first, verdict.reply], five)
        assert won.solved and len(won.five) == 5


def test_a_four_the_defender_answers_is_refused_with_the_block():
    puzzle = puzzle_of("h8a1i8a3j8a5", 3)
    verdict = judge(puzzle, [], (5, 7))  # f8: a four, g8 stops it, nothing is left
    assert verdict.kind == "fail"
    assert verdict.reply == (6, 7)
    assert "blocks at g8" in verdict.message


def test_the_defenders_four_must_be_answered():
    # black's h8 i8 j8 k8 is blocked at g8 and threatens l8; white is to move
    puzzle = puzzle_of("h8g8i8a1j8a2k8", 3)
    assert puzzle.to_move is Color.WHITE
    verdict = judge(puzzle, [], (0, 12))  # a3 ignores the four
    assert verdict.kind == "fail"
    assert verdict.message == "a3 leaves black's four standing: black makes five at l8"
    assert verdict.reply == (11, 7)
    assert "not a four" in judge(puzzle, [], (11, 7)).message


def test_illegal_moves_get_a_reason():
    puzzle = get_puzzle(1)
    occupied = puzzle.moves[0]
    verdict = judge(puzzle, [], occupied)
    assert verdict.kind == "illegal" and "occupied" in verdict.message
    assert "off the board" in judge(puzzle, [], (15, 3)).message
    assert "not a point" in judge(puzzle, [], "h8").message


def test_bad_ids_and_move_lists_are_clear_value_errors():
    with pytest.raises(ValueError, match=r"no puzzle 0; the puzzles are numbered 1 to \d+"):
        get_puzzle(0)
    with pytest.raises(ValueError, match="a puzzle id is a whole number"):
        get_puzzle("3")
    with pytest.raises(ValueError, match="unknown rule 'chess'"):
        load_puzzles("chess")
    with pytest.raises(ValueError, match="no puzzles for caro-exact"):
        load_puzzles(Rule.CARO_EXACT)
    puzzle = get_puzzle(1)
    with pytest.raises(ValueError, match="must be pairs"):
        judge(puzzle, [puzzle.solution[0]], puzzle.solution[1])
    with pytest.raises(ValueError, match="too many moves so far"):
        judge(puzzle, [(0, 0)] * (2 * puzzle.length), (1, 1))
    with pytest.raises(IllegalMoveError, match=r"move 1 of the moves so far: .* is occupied"):
        judge(puzzle, [puzzle.moves[0], (0, 0)], puzzle.solution[0])


def test_wrong_arguments_are_named_with_what_is_allowed():
    """Each was an AttributeError or a TypeError about something inside (judge(1, ...):
    "'int' object has no attribute 'length'"), or an error about Python's limit on the
    digits of a number; a numpy id was "not a whole number"."""
    puzzle = get_puzzle(1)
    with pytest.raises(TypeError, match=r"a puzzle is a Puzzle \(get_puzzle\(1\), say\), not 1"):
        judge(1, [], puzzle.solution[0])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a puzzle is a Puzzle"):
        hint(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"the moves so far are a list of points, \[\] at the "
                       "start, not None"):
        judge(puzzle, None, puzzle.solution[0])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"got 1 move$"):
        hint(puzzle, [puzzle.solution[0]])
    with pytest.raises(TypeError, match=r"rule is a Rule or its name \(freestyle, standard, "
                       r"renju, caro\), not 5"):
        load_puzzles(5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"unknown rule 'chess'; puzzles are for freestyle, "
                       r"standard, renju, caro$"):
        load_puzzles("chess")
    with pytest.raises(ValueError, match="no puzzle of so many digits; the puzzles are "
                       r"numbered 1 to \d+"):
        get_puzzle(10**5000)
    assert get_puzzle(np.int64(1)) is puzzle
    for limit in (0, -1, "x"):
        with pytest.raises(ValueError, match="node_limit must be a whole number of 1 or more"):
            judge(puzzle, [], puzzle.solution[0], node_limit=limit)  # type: ignore[arg-type]


def test_the_prover_stops_at_its_node_limit():
    puzzle = next(p for p in PUZZLES if p.length >= 5)
    prover = VcfProver(puzzle.board(), node_limit=3)
    with pytest.raises(SearchLimitError, match="no verdict within 3 positions"):
        prover.attacker_moves(puzzle.to_move, puzzle.length)
    with pytest.raises(SearchLimitError):
        judge(puzzle, [], puzzle.solution[0], node_limit=3)


def test_a_hint_points_at_the_line_of_the_four():
    puzzle = get_puzzle(1)
    text = hint(puzzle)
    assert text.startswith("make a four on the ")
    assert "your stone at" in text


def test_caro_blocks_include_the_far_end_of_a_five():
    # caro: white x at a8, black b8 c8 d8 e8 would make five at f8 blocked by g8
    board = position("b8a8c8o1d8o3e8", Rule.CARO)
    prover = VcfProver(board)
    fives = prover.fives(Color.BLACK)
    assert fives == [(5, 7)]
    assert prover.blocks(Color.BLACK, fives) == [(5, 7), (6, 7)]


def brute_force_escape(board: Board, attacker: Color, bound: int) -> bool:
    """Whether the defender survives ``bound`` attacker moves of fours, trying every
    legal defence (an oracle independent of the prover's choice of blocks)."""
    def wins_now() -> bool:
        for move in board.legal_moves:
            board.push(move)
            won = board.outcome() is not None and board.outcome().winner is not None
            board.pop()
            if won:
                return True
        return False

    if wins_now():
        return False
    if bound < 2:
        return True
    for four in VcfProver(board).attacking_moves(attacker):
        board.push(four)
        escaped = wins_now()  # the defender's own five
        for reply in [] if escaped else board.legal_moves:
            board.push(reply)
            escaped = board.outcome() is None and brute_force_escape(board, attacker, bound - 1)
            board.pop()
            if escaped:
                break
        board.pop()
        if not escaped:
            return False
    return True


def test_a_caro_four_blocked_at_its_far_end_is_no_win():
    # black's e10 makes a four (e9 completes e6-e10), but white e11 leaves that five
    # blocked at both ends, which caro does not count; a later block that escapes
    # must sink the whole four, whatever the earlier blocks gave
    puzzle = puzzle_of("h8i7e7h9g5f6e6e5d7g7c8f5f7f4e8g3", 4, Rule.CARO)
    board = puzzle.board()
    assert winning_moves(board, 4) == {}
    assert brute_force_escape(board, puzzle.to_move, 3)
    e10 = board.parse("e10")
    prover = VcfProver(board)
    prover.place(e10, puzzle.to_move)
    assert prover.blocks(puzzle.to_move, prover.fives_near(e10, puzzle.to_move)) == [
        board.parse("e11"), board.parse("e9")]
    verdict = judge(puzzle, [], e10)
    assert verdict.kind == "fail" and "no forced win by fours is left" in verdict.message


@pytest.mark.parametrize("puzzle_id", IDS)
def test_the_last_four_of_every_line_holds_against_every_reply(puzzle_id):
    # every legal reply, not only the prover's blocks, leaves the attacker a five
    puzzle = get_puzzle(puzzle_id)
    board = puzzle.board()
    board.push_many(puzzle.solution[:-2])
    for reply in board.legal_moves:
        board.push(reply)
        outcome = board.outcome()
        assert outcome is None or outcome.winner is puzzle.to_move
        assert VcfProver(board).fives(puzzle.to_move), board.point_name(reply)
        board.pop()


@pytest.mark.parametrize("rule", PUZZLE_RULES, ids=lambda r: r.value)
def test_the_prover_agrees_with_brute_force_on_random_positions(rule):
    rng = random.Random(11)
    decided = won = 0
    for _ in range(40):
        board = Board(9, rule=rule)
        stones = rng.randrange(14, 30)
        while len(board) < stones:
            point = (rng.randrange(9), rng.randrange(9))
            if board.is_legal(point):
                board.push(point)
                if board.outcome() is not None:
                    board.pop()
        attacker = board.to_move
        prover = VcfProver(board)
        if prover.fives(attacker):
            continue
        for bound in (2, 3) if len(board.legal_moves) <= 55 else (2,):
            proved = prover.attacker_moves(attacker, bound) > 0
            assert proved == (not brute_force_escape(board, attacker, bound)), repr(board)
            decided += 1
            won += proved
    assert decided >= 40 and won >= 5, (decided, won)


def test_the_engine_reports_no_win_by_fours_the_prover_refutes_in_caro_self_play():
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "vcf_agreement.py"
    done = subprocess.run([sys.executable, str(script), "--rule", "caro", "--games", "3",
                           "--nodes", "800", "--seed", "3"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    summary = done.stdout.splitlines()[-1]
    assert "the prover refuted 0, could not decide 0" in summary, done.stdout
    reported = int(summary.split("reported ")[1].split()[0])
    assert reported > 0  # the games reached wins by fours to check


def test_a_caro_attacker_may_stop_the_defenders_four_at_the_far_end_with_a_four():
    # white (1,1)-(4,1), blocked by black (0,1), threatens five at (5,1); under caro
    # black may block at (6,1) instead, which makes black's four (6,1)-(6,4) where
    # (5,1) makes nothing
    moves = [(0, 1), (1, 1), (6, 2), (2, 1), (6, 3), (3, 1), (6, 4), (4, 1)]
    for rule, expected in ((Rule.CARO, [(6, 1)]), (Rule.FREESTYLE, [])):
        board = Board(15, rule=rule)
        board.push_many(moves)
        assert VcfProver(board).attacking_moves(Color.BLACK) == expected, rule


@pytest.mark.parametrize("call", [
    lambda p: p.foul((-1, -1), Color.BLACK),
    lambda p: p.place((15, 0), Color.BLACK),
    lambda p: p.remove((0, 15)),
    lambda p: p.stone((0.5, 1)),
    lambda p: p.fives_near((3, 99), Color.WHITE),
])
def test_the_prover_refuses_a_point_off_its_board_and_leaves_its_walls(call):
    board = Board(15, rule=Rule.RENJU)
    for point in [(0, 0), (1, 1), (2, 2), (3, 3)]:  # black on a1 to d4 and white apart
        board.push(point)
        board.push((14 - point[0], 10))
    prover = VcfProver(board)
    grid = prover.grid.copy()
    with pytest.raises(IllegalMoveError, match=r"x (must be )?0 to 14 and y 0 to 14"):
        call(prover)
    assert np.array_equal(prover.grid, grid)


def test_the_prover_places_only_stones_of_a_colour():
    prover = VcfProver(Board(15))
    with pytest.raises(ValueError, match=r"Color\.BLACK or Color\.WHITE, got 7"):
        prover.place((1, 1), 7)
    assert prover.stone((1, 1)) == 0
