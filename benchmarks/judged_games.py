"""When a match's games were decided, as judge engines see them.

    python benchmarks/judged_games.py DIR [DIR ...] --engine NAME --judge CMD [--judge CMD]
        [--ms 250] [--rule R] [--json F]
    python benchmarks/judged_games.py --from F --engine NAME     # the tables again, no judging

Every position of every game of the match folders (``gridgames match --out``) that
ended on the board, from the end of the opening on, is given to each judge (a
Gomocup brain's command) for ``--ms``; its score, or the forced result it reports,
becomes ``--engine``'s chance of winning through a logistic curve whose unit (the
judge's score worth e to one in odds) is fitted to the games' results. Printed for
each judge:

- **the engine's chance, plies after the opening**, as black and as white, beside
  the score it made with each colour: where the two colours part is where the
  games were decided;
- **what each side's moves cost**: the mean fall in the mover's chance across its
  own move, for the engine's moves and the opponent's, by stones on the board and
  by the engine's colour (noise from the judge's own errors adds to both alike);
- **how well the judge foretold the results**, as log-loss by stones on the board.

A position with a single answer (the block of a four) is left out: brains play
it at once, some after the shallowest search, so their scores there say little.

A judge that is one of the two engines may favour its own moves, so two judges
(say, each engine) are worth reading side by side.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import shlex
import statistics
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TypeVar

from gridgames.gomoku import Board, Color, Rule
from gridgames.gomoku.ai import Limit
from gridgames.gomoku.analysis import only_answer
from gridgames.gomoku.gomocup import Engine, EngineError
from gridgames.gomoku.records import RecordError, load, winner_of

# A forced win a judge reports is written as this score (a loss as its negative):
# beyond any engine's own numbers, and plain JSON where infinity is not.
DECIDED_SCORE = 1_000_000.0
PHASES = ((0, 10), (10, 16), (16, 22), (22, 30), (30, 40), (40, 60), (60, 10_000))
AFTER_OPENING = (0, 2, 4, 6, 8, 10, 12, 16, 20, 26, 32, 40)  # plies for the chance table
UNITS = [25 * 1.15 ** k for k in range(45)]  # logistic units tried, 25 to about 12,000
CHANCE_FLOOR = 0.02  # a judge's chance is held within [0.02, 0.98] in the log-loss


def judge_name(command: str) -> str:
    return Path(shlex.split(command)[0]).name


def read_games(dirs: list[Path], rule: Rule) -> list[dict]:
    """Every game of the folders that ended on the board: moves, players, the
    result (1 black won, 0 white won, 0.5 a draw), the opening's length and the
    positions with a single answer."""
    games = []
    for directory in dirs:
        for path in sorted(directory.glob("*.psq")):
            try:
                record = load(path, rule)
            except (OSError, RecordError) as error:
                raise SystemExit(f"{path}: {error}") from None
            if record.result == "*" or record.termination:
                continue  # unfinished, or lost off the board: says nothing of the play
            winner = winner_of(record)
            times = record.times_ms or []
            opening = next((i for i, ms in enumerate(times) if ms > 0), len(times))
            game = {"path": str(path), "black": record.black, "white": record.white,
                    "width": record.width, "height": record.height,
                    "rule": rule.name.lower(), "moves": [list(m) for m in record.moves],
                    "opening": opening,
                    "result": 0.5 if winner is None else float(winner == Color.BLACK),
                    "scores": {}}
            game["forced"] = sorted(forced_plies(game))
            games.append(game)
    return games


def _score(engine: Engine, board: Board, ms: int) -> float | None:
    """The judge's score for the side to move: its own number, or +-DECIDED_SCORE for
    a forced result; None where it says nothing."""
    info = engine.play(board, Limit(time_ms=ms)).info
    if info.mate is not None:
        return DECIDED_SCORE if info.mate > 0 else -DECIDED_SCORE
    return None if info.score is None else float(info.score)


def empty_board(game: dict) -> Board:
    """The board a game (as ``read_games`` writes it) is played on, with no stone."""
    return Board(game["width"], game["height"], rule=Rule[game["rule"].upper()])


def forced_plies(game: dict) -> set[int]:
    """The positions (stones on the board) after the opening with a single answer."""
    board = empty_board(game)
    forced = set()
    for ply, move in enumerate(game["moves"]):
        if ply >= game["opening"] and only_answer(board) is not None:
            forced.add(ply)
        board.push(tuple(move))
    return forced


def _start_judge(command: str) -> Engine:
    # the brain keeps its table from one position of a game to the next
    return Engine(command, tolerance_ms=10_000, restart_before_board=False)


def _judge_game(task: tuple[str, dict, int]) -> list[float | None]:
    """The judge's score before each move of one game after its opening. One brain a
    game (it may keep what it learnt from one position to the next); one that breaks
    the protocol is started again once."""
    command, game, ms = task
    board = empty_board(game)
    moves = [tuple(m) for m in game["moves"]]
    board.push_many(moves[:game["opening"]])
    scores: list[float | None] = [None] * game["opening"]
    forced = set(game["forced"])
    engine = _start_judge(command)
    restarted = False
    try:
        for ply, move in enumerate(moves[game["opening"]:], start=game["opening"]):
            if ply in forced:
                scores.append(None)
                board.push(move)
                continue
            try:
                scores.append(_score(engine, board, ms))
            except EngineError:
                if restarted:
                    raise
                engine.quit()
                engine = _start_judge(command)
                restarted = True
                scores.append(_score(engine, board, ms))
            board.push(move)
    finally:
        engine.quit()
    return scores


T = TypeVar("T")
R = TypeVar("R")


def each_in_pool(function: Callable[[T], R], tasks: list[T], workers: int, role: str,
                 command: str, unit: str) -> Iterator[R]:
    """``function`` of each task, in order, run by ``workers`` processes, with a line of
    progress; a brain (``role`` ``command``) that fails ends the script, saying so."""
    started = time.monotonic()
    with ProcessPoolExecutor(workers) as pool:
        try:
            for number, result in enumerate(pool.map(function, tasks), start=1):
                yield result
                print(f"\r{judge_name(command)}: {number}/{len(tasks)} {unit}, "
                      f"{time.monotonic() - started:.0f} s", end="", flush=True)
        except EngineError as error:
            raise SystemExit(f"\nthe {role} {command!r} failed: {error}") from None
    print()


def judge(games: list[dict], commands: list[str], ms: int, workers: int) -> None:
    """Each judge's score before every move after the opening, into ``game["scores"]``."""
    for command in commands:
        tasks = [(command, game, ms) for game in games]
        scores = each_in_pool(_judge_game, tasks, workers, "judge", command, "games")
        for game, game_scores in zip(games, scores, strict=True):
            game["scores"][judge_name(command)] = game_scores


def chance(score: float, unit: float) -> float:
    """The side to move's chance of winning from a judge's score."""
    if abs(score) >= DECIDED_SCORE:
        return 1.0 if score > 0 else 0.0
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, score / unit))))


def black_chances(game: dict, name: str, unit: float) -> list[float | None]:
    """Black's chance before each move, as the judge ``name`` sees it (None where it
    did not judge, and at a single answer)."""
    forced = set(game["forced"])
    return [None if s is None or ply in forced
            else (chance(s, unit) if ply % 2 == 0 else 1 - chance(s, unit))
            for ply, s in enumerate(game["scores"][name])]


def log_loss(pairs: list[tuple[float, float]]) -> float:
    total = 0.0
    for p, y in pairs:
        p = min(max(p, CHANCE_FLOOR), 1 - CHANCE_FLOOR)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(pairs)


def fitted_unit(games: list[dict], name: str) -> float:
    """The logistic unit under which the judge's chances best foretell the results."""
    def loss(unit: float) -> float:
        return log_loss([(p, game["result"]) for game in games
                         for p in black_chances(game, name, unit) if p is not None])
    return min(UNITS, key=loss)


def phase_of(stones: int) -> tuple[int, int]:
    return next(phase for phase in PHASES if phase[0] <= stones < phase[1])


def shown_phase(stones: tuple[int, ...] | list[int]) -> str:
    low, high = stones
    return f"{low}+" if high >= PHASES[-1][1] else f"{low}-{high - 1}"


def report(games: list[dict], engine: str, name: str) -> dict:
    """The three tables of one judge (see the module's text)."""
    unit = fitted_unit(games, name)
    after: dict[str, dict[int, list[float]]] = {"black": {}, "white": {}}
    cost: dict[tuple[str, str, tuple[int, int]], list[float]] = {}
    foretold: dict[tuple[int, int], list[tuple[float, float]]] = {}
    made: dict[str, list[float]] = {"black": [], "white": []}
    for game in games:
        colour = "black" if game["black"] == engine else "white"
        mine = (lambda p: p) if colour == "black" else (lambda p: 1 - p)
        result = mine(game["result"])
        made[colour].append(result)
        chances = [None if p is None else mine(p) for p in black_chances(game, name, unit)]
        chances.append(result)  # after the last move, the result itself
        for ply, p in enumerate(chances[:-1]):
            if p is None:
                continue
            foretold.setdefault(phase_of(ply), []).append((p, result))
            if ply - game["opening"] in AFTER_OPENING:
                after[colour].setdefault(ply - game["opening"], []).append(p)
            following = chances[ply + 1]
            if following is not None:
                ours = (ply % 2 == 0) == (colour == "black")
                fall = p - following if ours else following - p
                cost.setdefault((colour, "engine" if ours else "opponent", phase_of(ply)),
                                []).append(fall)
    return {
        "judge": name,
        "unit": round(unit, 1),
        "score": {c: statistics.mean(v) if v else None for c, v in made.items()},
        "chance_after_opening": {c: {k: [statistics.mean(v), len(v)]
                                     for k, v in sorted(t.items())} for c, t in after.items()},
        "cost_per_move": [{"colour": c, "side": s, "stones": list(ph),
                           "mean_fall": statistics.mean(v), "moves": len(v)}
                          for (c, s, ph), v in sorted(cost.items())],
        "log_loss": [{"stones": list(ph), "log_loss": log_loss(v), "positions": len(v)}
                     for ph, v in sorted(foretold.items())],
    }


def print_report(table: dict, engine: str) -> None:
    print(f"\njudge {table['judge']} (logistic unit fitted to the results: {table['unit']})")
    score = table["score"]
    print(f"  {engine}'s score: as black {score['black']:.3f}, as white {score['white']:.3f}")
    print("  its chance, plies after the opening:   as black   as white")
    chances = table["chance_after_opening"]
    for k in AFTER_OPENING:
        cells = [f"{chances[c][k][0]:.3f} ({chances[c][k][1]:3d})" if k in chances[c]
                 else "        -" for c in ("black", "white")]
        print(f"    {k:3d}                                 {cells[0]}  {cells[1]}")
    print("  the mover's chance lost a move (engine / opponent), by stones on the board:")
    rows: dict[tuple[str, tuple[int, ...]], dict[str, float]] = {}
    for row in table["cost_per_move"]:
        rows.setdefault((row["colour"], tuple(row["stones"])), {})[row["side"]] = row["mean_fall"]
    for (colour, stones), sides in sorted(rows.items()):
        print(f"    {engine} {colour:5s}, {shown_phase(stones):>5s}: "
              f"{sides.get('engine', math.nan):+.4f} / {sides.get('opponent', math.nan):+.4f}")
    print("  log-loss of the results, by stones on the board:")
    for row in table["log_loss"]:
        print(f"    {shown_phase(row['stones']):>5s}: "
              f"{row['log_loss']:.3f} over {row['positions']} positions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", type=Path, help="folders of .psq match records")
    parser.add_argument("--engine", required=True, help="the player's name in the records")
    parser.add_argument("--judge", action="append", default=[],
                        help="a Gomocup brain's command; repeat for more judges")
    parser.add_argument("--ms", type=int, default=250, help="a judge's time a position")
    parser.add_argument("--rule", choices=[r.name.lower() for r in Rule], default="freestyle")
    parser.add_argument("--workers", type=int, default=2, help="positions judged at once")
    parser.add_argument("--json", type=Path, help="write the games, the scores and the tables")
    parser.add_argument("--from", dest="source", type=Path,
                        help="read the games and scores of an earlier --json instead")
    args = parser.parse_args()
    if args.source is None and (not args.dirs or not args.judge):
        parser.error("give match folders and at least one --judge, or --from an earlier --json")
    if args.ms <= 0 or args.workers <= 0:
        parser.error("--ms and --workers must be above 0")
    for directory in args.dirs:
        if not directory.is_dir():
            parser.error(f"{directory} is not a folder")
    if len({judge_name(command) for command in args.judge}) < len(args.judge):
        parser.error("two judges go by the same name (their program's file name)")
    if args.source is not None:
        try:
            games = json.loads(args.source.read_text(encoding="utf-8"))["games"]
            for game in games:  # what the tables read, there and of the right kind
                empty_board(game)
                kinds: list[tuple[object, type | tuple[type, ...]]] = [
                    (game["scores"], dict), (game["opening"], int),
                    (game["result"], (int, float)), (game["black"], str),
                    (game["white"], str), (game["moves"], list)]
                if not all(isinstance(value, kind) for value, kind in kinds):
                    raise TypeError("a game's scores, opening, result, players or moves "
                                    "are not what --json writes")
        except KeyError as error:
            parser.error(f"cannot read games from {args.source}: no {error} given")
        except (OSError, ValueError, TypeError, AttributeError) as error:
            parser.error(f"cannot read games from {args.source}: {error}")
    else:
        games = read_games(args.dirs, Rule[args.rule.upper()])
        started = time.monotonic()
        judge(games, args.judge, args.ms, args.workers)
        print(f"{platform.machine()}, {time.strftime('%Y-%m-%d')}: {len(games)} games judged "
              f"at {args.ms} ms a position in {time.monotonic() - started:.0f} s")
    games = [g for g in games if args.engine in (g["black"], g["white"])]
    for game in games:
        if "forced" not in game:  # written before single answers were left out
            game["forced"] = sorted(forced_plies(game))
    names = sorted({name for game in games for name in game["scores"]})
    if not games or not names:
        parser.error(f"no judged game of {args.engine!r} to report on")
    if not {"black", "white"} <= {("black" if g["black"] == args.engine else "white")
                                  for g in games}:
        parser.error(f"{args.engine!r} played only one colour: the tables compare both")
    tables = [report(games, args.engine, name) for name in names]
    for table in tables:
        print_report(table, args.engine)
    if args.json:
        args.json.write_text(json.dumps({"games": games, "tables": tables}, indent=1) + "\n",
                             encoding="utf-8")


if __name__ == "__main__":
    main()
