"""Tactics suite: forced wins (VCF, VCT) and only-move defences; prints solve rate and times.

    python benchmarks/engine_tactics.py                 # solve the suite at 1 s a position
    python benchmarks/engine_tactics.py --time-ms 300
    python benchmarks/engine_tactics.py --generate 40   # rebuild the suite from self-play
    python benchmarks/engine_tactics.py --check         # does every entry still hold?

Suite lines (benchmarks/data/tactics.txt): ``kind rule size moves answer``, where kind is
``vcf``, ``vct`` or ``defend``, moves are renju-notation points run together (``h8i9``),
and answer is the only saving move for ``defend`` (``-`` for wins: any proven win counts).
Wins are proven by the engine's own solvers with a large budget when the suite is built;
an answer to a ``win`` position counts as solved when the engine claims the win and the
threat solver confirms it from the position after the move. ``--check`` proves every
entry again with the solvers as they are now (a change of the rules' code can refute an
entry made before it).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import Limit, think, warm_up
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai import search as S
from gridgames.gomoku.ai.engine import load_position
from gridgames.gomoku.notation import format_position, format_renju, parse_position

SUITE = Path(__file__).parent / "data" / "tactics.txt"
PROOF_NODES = 3_000_000
MIN_PLIES = 7  # wins shorter than four moves of the attacker are too easy


def threat_win(board: Board, *, vct: bool, nodes: int = PROOF_NODES, vct_depth: int = 12) -> int:
    """Plies of a forced win for the side to move found by VCF (or VCT), 0 if none."""
    pos = load_position(board, P.new_table(10))
    pos.info[P.I_VCF_LIMIT] = nodes
    side = int(pos.info[P.I_SIDE])
    plies = int(S.vcf(pos, 0, 40, side, 1))
    if plies == 0 and vct:
        plies = int(S.vct(pos, 0, vct_depth, side))
    return plies


def near_moves(board: Board) -> list[tuple[int, int]]:
    """The side to move's legal points within two of a stone: every sensible move."""
    stones = board.move_stack
    return [m for m in board.legal_moves
            if any(abs(m[0] - x) <= 2 and abs(m[1] - y) <= 2 for x, y in stones)]


def attacker_still_wins(board: Board, nodes: int = PROOF_NODES) -> bool:
    """After the attacker's move: do all defences lose (by the threat solvers)?"""
    if board.outcome() is not None:
        return board.outcome().winner is not None  # type: ignore[union-attr]
    pos = load_position(board, P.new_table(10))
    pos.info[P.I_VCF_LIMIT] = nodes
    attacker = 3 - int(pos.info[P.I_SIDE])
    if S.vcf(pos, 0, 40, attacker, 1) > 0:
        return True
    return int(S.vct(pos, 0, 12, attacker)) > 0


def opponent_vcf(board: Board, nodes: int = 200_000) -> int:
    """Plies of the opponent's VCF if it were their move now."""
    pos = load_position(board, P.new_table(10))
    pos.info[P.I_SIDE] = 3 - pos.info[P.I_SIDE]
    pos.info[P.I_VCF_LIMIT] = nodes
    return int(S.vcf(pos, 0, 40, int(pos.info[P.I_SIDE]), 1))


def only_defence(board: Board) -> tuple[int, int] | None:
    """The single move after which the opponent has no VCF (None if zero or several)."""
    savers = []
    for move in near_moves(board):
        board.push(move)
        lost = board.outcome() is None and threat_win(board, vct=False, nodes=100_000) > 0
        won = board.outcome() is not None
        board.pop()
        if won:
            return None
        if not lost:
            savers.append(move)
            if len(savers) > 1:
                return None
    return savers[0] if len(savers) == 1 else None


def generate(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    lines: list[str] = []
    seen: set[str] = set()
    quotas = {"vcf": count, "vct": count, "defend": count}
    rules = [Rule.FREESTYLE, Rule.RENJU, Rule.STANDARD, Rule.CARO, Rule.FREESTYLE, Rule.RENJU]
    game = 0
    while any(quotas.values()) and game < 600:
        rule = rules[game % len(rules)]
        game += 1
        board = Board(15, rule=rule)
        board.push((7, 7))
        for _ in range(rng.randint(2, 5)):
            moves = [m for m in board.legal_moves if abs(m[0] - 7) <= 2 and abs(m[1] - 7) <= 2]
            board.push(rng.choice(moves))
        found: set[str] = set()  # one position of each kind per game, for variety
        while board.outcome() is None and len(board) < 120:
            key = format_position(board.move_stack, 15)
            if len(board) >= 8 and key not in seen:
                seen.add(key)
                kind, answer = classify(board)
                if kind and quotas[kind] > 0 and kind not in found:
                    found.add(kind)
                    quotas[kind] -= 1
                    lines.append(f"{kind} {rule.value} 15 {key} {answer}")
                    print(lines[-1], file=sys.stderr)
            result = think(board, Limit(nodes=rng.choice([800, 3000, 10000])), seed=game)
            board.push(result.move)
    return lines


def survives_threats(board: Board, saver: tuple[int, int]) -> bool:
    """Whether the saving move does not lose to threes and fours either."""
    board.push(saver)
    refuted = threat_win(board, vct=True, nodes=400_000) > 0
    board.pop()
    return not refuted


def classify(board: Board) -> tuple[str | None, str]:
    """Which puzzle the position makes, if any: a long enough forced win or an only move."""
    vcf_plies = threat_win(board, vct=False)
    if vcf_plies >= MIN_PLIES:
        return "vcf", "-"
    if vcf_plies:
        return None, "-"
    if threat_win(board, vct=True, nodes=400_000) >= MIN_PLIES:
        return "vct", "-"
    if opponent_vcf(board) >= 5:
        saver = only_defence(board)
        if saver is not None and survives_threats(board, saver):
            return "defend", format_renju(saver, 15)
    return None, "-"


def suite_entries() -> list[list[str]]:
    """The suite's lines, each as [kind, rule, size, moves, answer]."""
    return [line.split() for line in SUITE.read_text().splitlines() if line.strip()]


def entry_board(rule_name: str, size: str, moves: str) -> Board:
    n = int(size)
    board = Board(n, rule=Rule.from_name(rule_name))
    board.push_many(parse_position(moves, n, n))
    return board


def still_holds(kind: str, board: Board, answer: str) -> bool:
    """Whether the solvers as they are now prove the entry as it was made: the win, or
    the answer as the only defence (one that does not lose to threes and fours)."""
    if kind in ("vcf", "vct"):
        return threat_win(board, vct=kind == "vct") > 0
    saver = board.parse(answer)
    return only_defence(board) == saver and survives_threats(board, saver)


def check() -> int:
    """Print the entries the solvers no longer prove; their number."""
    entries = suite_entries()
    stale = 0
    for kind, rule_name, size, moves, answer in entries:
        if not still_holds(kind, entry_board(rule_name, size, moves), answer):
            stale += 1
            print(f"no longer holds: {kind} {rule_name} {size} {moves} {answer}")
    print(f"{stale} of {len(entries)} entries no longer hold")
    return stale


def solve(time_ms: int, verbose: bool) -> None:
    entries = suite_entries()
    by_kind: dict[str, list[tuple[bool, float]]] = {}
    for kind, rule_name, size, moves, answer in entries:
        n = int(size)
        board = entry_board(rule_name, size, moves)
        started = time.perf_counter()
        result = think(board, Limit(time_ms=time_ms))
        elapsed = time.perf_counter() - started
        if kind == "defend":
            ok = result.move == board.parse(answer)
        else:
            ok = result.mate is not None and result.mate > 0
            if ok:
                board.push(result.move)
                ok = attacker_still_wins(board)
        by_kind.setdefault(kind, []).append((ok, elapsed))
        if verbose:
            mark = "ok  " if ok else "MISS"
            print(f"{mark} {kind:6s} {rule_name:10s} {format_renju(result.move, n):4s} "
                  f"{result.score_text:12s} {elapsed * 1000:6.0f} ms  {moves}")
    total = [r for results in by_kind.values() for r in results]
    print(f"tactics suite, {time_ms} ms a position, {time.strftime('%Y-%m-%d')}")
    for kind, results in [*sorted(by_kind.items()), ("all", total)]:
        solved = sum(ok for ok, _ in results)
        times = [t for ok, t in results if ok]
        median = statistics.median(times) * 1000 if times else float("nan")
        rate = 100 * solved / len(results)
        print(f"  {kind:7s} solved {solved:3d}/{len(results):3d} ({rate:5.1f}%)"
              f"  median time of solved {median:7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-ms", type=int, default=1000)
    parser.add_argument("--generate", type=int, metavar="N", help="rebuild with N of each kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--check", action="store_true",
                        help="prove every entry again with the solvers as they are now")
    args = parser.parse_args()
    warm_up()
    if args.check:
        sys.exit(1 if check() else 0)
    if args.generate:
        lines = generate(args.generate, args.seed)
        SUITE.parent.mkdir(parents=True, exist_ok=True)
        SUITE.write_text("\n".join(lines) + "\n")
        print(f"wrote {len(lines)} positions to {SUITE}")
        return
    solve(args.time_ms, args.verbose)


if __name__ == "__main__":
    main()
