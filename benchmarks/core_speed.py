"""Speed of the rules core: push+outcome per second and renju forbidden_points per second.

Run: .venv/bin/python benchmarks/core_speed.py
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import statistics
import time

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.notation import parse_position

# A mid-game 15x15 renju position, black to move, three points forbidden.
RENJU_MIDGAME = "j7k8j8k6i4g6e5e6f4f6d7e9d9d8f9e8f10h8j9h11g12i12j13h14i13g14e12e14e15e13d11b12"


def random_game(rule: Rule, rng: random.Random, size: int = 15) -> list[tuple[int, int]]:
    board = Board(size, rule=rule)
    while not board.is_game_over():
        moves = board.legal_moves
        x0, y0 = board.move_stack[-1] if board.move_stack else (size // 2, size // 2)
        near = [m for m in moves if abs(m[0] - x0) <= 2 and abs(m[1] - y0) <= 2]
        board.push(rng.choice(near or moves))
    return board.move_stack


def push_outcome_rate(rule: Rule, games: list[list[tuple[int, int]]]) -> float:
    board = Board(15, rule=rule)
    pushes = 0
    start = time.perf_counter()
    for moves in games:
        for move in moves:
            board.push(move)
            board.outcome()
            pushes += 1
        board.clear()
    return pushes / (time.perf_counter() - start)


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()  # --help only
    print(f"machine: {platform.machine()} {platform.processor() or ''} cores={os.cpu_count()} "
          f"python={platform.python_version()} date={datetime.date.today()}")
    rng = random.Random(1)
    for rule in Rule:
        games = [random_game(rule, rng) for _ in range(20)]
        push_outcome_rate(rule, games[:2])  # warm up
        rates = [push_outcome_rate(rule, games) for _ in range(5)]
        rate = statistics.median(rates)
        print(f"push+outcome ({rule.value:10}): {rate:>10,.0f} /s (median of 5)")

    board = Board(15, rule=Rule.RENJU)
    board.push_many(parse_position(RENJU_MIDGAME, 15, 15))
    board.forbidden_points()
    timings = []
    for _ in range(7):
        start = time.perf_counter()
        calls = 0
        while time.perf_counter() - start < 0.5:
            board.forbidden_points()
            calls += 1
        timings.append(calls / (time.perf_counter() - start))
    print(f"forbidden_points (15x15 renju, {len(board)} stones, "
          f"{len(board.forbidden_points())} forbidden): {statistics.median(timings):,.0f} /s")


if __name__ == "__main__":
    main()
