"""Fit the evaluation weights to game results (Texel's method) and print them, or
fit the evaluation network to another engine's scores and write it.

    python benchmarks/fit_eval.py generate games.jsonl --minutes 30 --nodes 25000
    python benchmarks/fit_eval.py fit games.jsonl --ridge 0.3
    python benchmarks/fit_eval.py generate renju.jsonl --rule renju
    python benchmarks/fit_eval.py fit renju.jsonl --rule renju
    python benchmarks/fit_eval.py fit match-out/ more-games/*.psq
    python benchmarks/fit_eval.py fit games.jsonl --search-weight 1
    python benchmarks/fit_eval.py label games.jsonl --out rated.jsonl \
        --judge path/to/pbrain-rapfi --ms 50 --every 4
    python benchmarks/fit_eval.py fit-net rated.jsonl \
        --out src/gridgames/gomoku/data/eval-net-freestyle.json
    python benchmarks/fit_eval.py siblings match-out/ --out siblings.jsonl \
        --judge path/to/pbrain-rapfi --ms 50 --every 12
    python benchmarks/fit_eval.py fit-net rated.jsonl --score-scale 450 \
        --siblings siblings.jsonl --out net.json

``generate`` plays the engine against itself from the rule's shipped balanced openings,
each followed by up to two random moves near the stones (and more where that start
was already played: at a fixed node count the same start gives the same game), and
writes one line per game: its rule, board size, moves, winner and the engine's score
before each move.
With ``--random-moves`` a share of the moves are drawn at random near the stones.
``fit`` replays the games and takes every quiet position (neither side has a five to
play, the side to move has no open four to make): the game's result for the side to
move, then for the side to move and for the other side how many empty cells have
each shape combo (the four line shapes a stone there would make). The evaluation is
a sum over those cells. Recording moves rather than features lets a later version of
the shapes be fitted to the same games. ``fit`` also reads ``.psq`` records, or
folders of them such as ``gridgames match --out`` writes: games against other
engines.

``fit`` turns each combo into the features the evaluation is linear in: its line
shapes' counts and its threat class. It first finds the logistic scale that best
turns the current evaluation into a win probability, then fits every weight but
the fixed ones (fives, and the shapes and classes worth nothing) by
ridge-regularised logistic regression pulled towards the rule's current weights.
It prints the log-loss and squared error on held-out games (the last fifth) before
and after, and the rule's ``EvalWeights`` to put into ``gridgames/gomoku/ai/patterns.py``.

The target is the game's result, or with ``--search-weight`` the score recorded
with the position (the engine's own search of ``--nodes`` in its self-play game, or
a judge's after ``label``), turned into a win probability on the scores' own
logistic scale (fitted to the results), or a blend of the two.

``label`` writes the games again with a judge's scores of their quiet positions:
any Gomocup brain, asked for one in ``--every`` of them (from the 7th move on)
with ``--ms`` to think; with ``--from-rule`` it takes games played under another
rule and replays them under ``--rule`` (a game that ends otherwise there, such as a
freestyle win by an overline under standard, is left out). ``fit-net`` fits the
evaluation network (``patterns.eval_net``): a logistic output over each side's
class counts and the two linear sums, and over ``--hidden`` rectified units of
them, trained by Adam; it prints the held-out losses beside those of the linear
evaluation and of the rule's network as it is, and writes the network as JSON.

``siblings`` asks the judge, for positions drawn as ``label`` draws them, for its
move and score there and for its score of the position after each of our search's
``--width`` best moves (at ``--nodes``) and after its own. ``fit-net --siblings``
then fits the order of those children too: the squared error of their values, each
less its siblings' mean, against the judge's, ``--sibling-weight`` times beside the
log-loss. A search compares sibling positions far more than it reads a value's level.
"""

from __future__ import annotations

import argparse
import atexit
import builtins
import json
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import NamedTuple, TypeVar

import numpy as np

from gridgames.gomoku import Board, IllegalMoveError, Rule
from gridgames.gomoku.ai import Limit, analyse, think, warm_up
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai.patterns import (
    C_FIVE,
    C_FLEX4,
    CLASS_NAMES,
    EVAL_SCALE,
    N_CLASSES,
    N_SHAPES,
    NET_INPUTS,
    SHAPE_NAMES,
    EvalWeights,
    combo_features,
    eval_net,
    eval_weights,
)
from gridgames.gomoku.gomocup import Engine, EngineError, EngineInfo, PlayResult
from gridgames.gomoku.openings import centred, default_openings
from gridgames.gomoku.records import RecordError, load

# Weights fitted: shapes B1..F4 and classes FLEX2..FLEX4; the rest stay as they are.
FITTED_SHAPES = range(2, 10)
FITTED_CLASSES = range(1, 12)
T = TypeVar("T")
U = TypeVar("U")
# The evaluation network's training: full-batch Adam steps, step size, weight decay.
NET_EPOCHS = 3000
NET_RATE = 3e-3
NET_L2 = 1e-4
# A win or loss another engine has found, as a score: a sure result on any scale.
MATE_SCORE = 5000


def features(pos: P.Position) -> tuple[list[list[list[int]]], bool]:
    """How many empty cells have each shape combo, for the side to move then the other
    (``[combo, count]`` pairs), and whether the position is tactical."""
    me = int(pos.info[P.I_SIDE]) - 1
    empty = pos.cells == 0
    histograms = []
    for c in (me, 1 - me):
        combos, counts = np.unique(pos.combo[c][empty], return_counts=True)
        histograms.append([[int(a), int(b)] for a, b in zip(combos, counts, strict=True)])
    cc = pos.class_count
    tactical = bool(cc[me, C_FIVE] or cc[me, C_FLEX4] or cc[1 - me, C_FIVE])
    return histograms, tactical


def near_moves(board: Board) -> list[tuple[int, int]]:
    return [m for m in board.legal_moves
            if any(abs(m[0] - s[0]) <= 2 and abs(m[1] - s[1]) <= 2 for s in board.move_stack)]


def opening_board(rng: random.Random, openings: list, rule: Rule,
                  played: set[tuple[tuple[int, int], ...]] | None = None) -> Board:
    """A 15x15 self-play start: a shipped opening and up to two random moves near it,
    and more while the start is one of ``played`` (which it joins): at a fixed node
    count the engine plays the same game again from the same start."""
    board = Board(15, rule=rule)
    board.push_many(centred(rng.choice(openings), 15, 15) or [])
    for _ in range(rng.randrange(3)):
        board.push(rng.choice(near_moves(board)))
    if played is not None:
        while tuple(board.move_stack) in played and board.outcome() is None:
            board.push(rng.choice(near_moves(board)))
        played.add(tuple(board.move_stack))
    return board


def game_record(board: Board, scores: list[int | None] | None = None) -> dict:
    """The line ``generate`` writes for a finished game: rule, size, moves, winner and,
    for self-play, the engine's score before each move (None before the opening's)."""
    outcome = board.outcome()
    winner = outcome.winner if outcome is not None else None
    record = {"rule": board.rule.name.lower(), "width": board.width, "height": board.height,
              "moves": [list(m) for m in board.move_stack],
              "winner": winner.name.lower() if winner else None}
    if scores is not None:
        record["scores"] = scores
    return record


def self_play(minutes: float, nodes: int, rule: Rule, seed: int, random_moves: float = 0.0
              ) -> Iterator[tuple[Board, list[int | None]]]:
    """Engine games from the shipped openings until ``minutes`` have passed: each
    finished board, with the engine's score before every move (None before the
    opening's own moves and before a random one). A share ``random_moves`` of the
    moves are drawn at random near the stones instead: the search scores mostly
    positions after a poor move, which good games seldom reach."""
    warm_up()
    rng = random.Random(seed)
    openings = default_openings(rule)
    deadline = time.monotonic() + 60 * minutes
    played: set[tuple[tuple[int, int], ...]] = set()
    while time.monotonic() < deadline:
        board = opening_board(rng, openings, rule, played)
        scores: list[int | None] = [None] * len(board.move_stack)
        while board.outcome() is None and board.legal_moves:
            if rng.random() < random_moves:
                scores.append(None)
                board.push(rng.choice(near_moves(board) or board.legal_moves))
                continue
            result = think(board, Limit(nodes=nodes), seed=rng.randrange(1 << 30))
            scores.append(result.score)
            board.push(result.move)
        yield board, scores


def generate(out: str, minutes: float, nodes: int, rule: Rule, seed: int,
             random_moves: float = 0.0) -> None:
    games = 0
    with open(out, "a", encoding="utf-8") as file:
        for board, scores in self_play(minutes, nodes, rule, seed, random_moves):
            file.write(json.dumps(game_record(board, scores)) + "\n")
            games += 1
            file.flush()
    print(f"{games} games written to {out}")


def quiet_replay(game: dict) -> Iterator[tuple[int, P.Position, list[list[list[int]]]]]:
    """Replay a recorded game (each move checked) and yield each quiet position before
    its move: the ply (moves already played), the engine position and its combo
    histograms (see :func:`features`)."""
    rule = Rule[game["rule"].upper()]
    board = Board(game["width"], game["height"], rule=rule)  # checks each move
    pos = P.new_position(board.width, board.height, rule.code, P.new_table(4))
    for ply, move in enumerate(game["moves"]):
        histograms, tactical = features(pos)
        if not tactical:
            yield ply, pos, histograms
        board.push(tuple(move))
        P.make(pos, P.cell_index(pos, tuple(move)))


def quiet_positions(game: dict) -> list[list]:
    """``[result, score, side to move's combos, other side's combos]`` for each quiet
    position of a recorded game: the result for the side to move (1 won, 0.5 drawn,
    0 lost) and the engine's score there (None where the record has none)."""
    winner = {"black": 1, "white": 2, None: 0}[game["winner"]]
    scores = game.get("scores") or [None] * len(game["moves"])
    if len(scores) != len(game["moves"]):
        raise ValueError(f"{len(scores)} scores for {len(game['moves'])} moves")
    rows = []
    for ply, pos, histograms in quiet_replay(game):
        side = int(pos.info[P.I_SIDE])
        result = 0.5 if winner == 0 else float(winner == side)
        rows.append([result, scores[ply], *histograms])
    return rows


def quiet_plies(game: dict) -> list[int]:
    """The plies (moves already played) of a recorded game whose position is quiet."""
    return [ply for ply, _, _ in quiet_replay(game)]


_judges: dict[str, Engine] = {}


def _judge_play(judge: str, board: Board, judge_ms: int) -> PlayResult:
    """The judge's move and verdict on ``board``. One process a worker, kept between positions;
    one that breaks the protocol (some brains get confused by a new position right
    after finding a win) is replaced once."""
    for attempt in range(2):
        engine = _judges.get(judge)
        if engine is None:
            engine = _judges[judge] = Engine(judge, tolerance_ms=10_000,
                                             restart_before_board=False)
            atexit.register(engine.quit)
        try:
            return engine.play(board, Limit(time_ms=judge_ms))
        except EngineError:
            engine.quit()
            del _judges[judge]
            if attempt:
                raise
    raise AssertionError("unreachable")


def _judge_game(task: tuple[str, dict, list[int], int]) -> dict:
    """The game with the judge's score before each of the given plies (None elsewhere);
    a win or loss the judge has found counts as +-MATE_SCORE."""
    judge, game, plies, judge_ms = task
    rule = Rule[game["rule"].upper()]
    scores: list[int | None] = [None] * len(game["moves"])
    for ply in plies:
        board = Board(game["width"], game["height"], rule=rule)
        board.push_many([tuple(m) for m in game["moves"][:ply]])
        scores[ply] = _judge_score(_judge_play(judge, board, judge_ms).info)
    return {**game, "scores": scores}


def _judge_score(info: EngineInfo) -> int | None:
    """The judge's score, a win or loss it has found as +-MATE_SCORE."""
    if info.mate is not None:
        return MATE_SCORE if info.mate > 0 else -MATE_SCORE
    return info.score


def _judge_siblings(task: tuple[str, dict, list[int], int, int, int]) -> list[dict]:
    """For each given ply of the game: the judge's move and score there, and its score
    of the position after each of our search's ``width`` best moves and after its own."""
    judge, game, plies, judge_ms, nodes, width = task
    rule = Rule[game["rule"].upper()]
    rows = []
    for ply in plies:
        board = Board(game["width"], game["height"], rule=rule)
        board.push_many([tuple(m) for m in game["moves"][:ply]])
        verdict = _judge_play(judge, board, judge_ms)
        moves = [r.move for r in analyse(board, Limit(nodes=nodes), multipv=width)]
        if verdict.move not in moves:
            moves.append(verdict.move)
        children = []
        for move in moves:
            child = board.copy()
            child.push(move)
            if child.outcome() is None:
                children.append([*move, _judge_score(_judge_play(judge, child, judge_ms).info)])
        rows.append({"rule": game["rule"], "width": game["width"], "height": game["height"],
                     "moves": game["moves"][:ply], "score": _judge_score(verdict.info),
                     "children": children})
    return rows


def sampled_plies(paths: list[str], rule: Rule, every: int, seed: int,
                  played: Rule | None = None) -> list[tuple[dict, list[int]]]:
    """Each game with one in ``every`` of its quiet plies from the 7th move on, drawn at
    random (games left with none are left out). Games played under ``played`` are
    first replayed under ``rule``."""
    rng = random.Random(seed)
    sampled = []
    for game, quiet in for_each_game(paths, rule, lambda game: (game, quiet_plies(game)),
                                     played):
        plies = [p for p in quiet if p >= 6 and rng.randrange(every) == 0]
        if plies:
            sampled.append((game, plies))
    return sampled


def in_workers(work: Callable[[T], U], tasks: list[T], workers: int) -> Iterator[U]:
    """``work`` done on each task, the results in order: in this process for one
    worker; for more, each in a process of its own."""
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        yield from (pool or builtins).map(work, tasks)
    finally:
        if pool is not None:
            pool.shutdown()


def label(paths: list[str], out: str, judge: str, judge_ms: int, every: int, rule: Rule,
          workers: int, seed: int, played: Rule | None = None) -> None:
    """Write the games again with another engine's score of their quiet positions:
    one in ``every``, from the 7th move on, drawn at random. Games played under
    ``played`` are first replayed under ``rule``."""
    tasks = [(judge, game, plies, judge_ms)
             for game, plies in sampled_plies(paths, rule, every, seed, played)]
    total = sum(len(plies) for _, _, plies, _ in tasks)
    print(f"{total} positions of {len(tasks)} games to rate, {judge_ms} ms each", flush=True)
    _write_rated(out, total, in_workers(_judge_game, tasks, workers),
                 lambda game: ([game], sum(score is not None for score in game["scores"])))


def label_siblings(paths: list[str], out: str, judge: str, judge_ms: int, every: int,
                   rule: Rule, workers: int, seed: int, nodes: int, width: int,
                   played: Rule | None = None) -> None:
    """Write, for one in ``every`` quiet positions drawn as ``label`` draws them, the
    judge's score there and of the position after each of several moves: our
    search's ``width`` best at ``nodes`` and the judge's own."""
    tasks = [(judge, game, plies, judge_ms, nodes, width)
             for game, plies in sampled_plies(paths, rule, every, seed, played)]
    total = sum(len(plies) for _, _, plies, _, _, _ in tasks)
    print(f"{total} positions of {len(tasks)} games, each with up to {width + 1} moves "
          f"to rate, {judge_ms} ms each", flush=True)
    _write_rated(out, total, in_workers(_judge_siblings, tasks, workers),
                 lambda rows: (rows, len(rows)))


def _write_rated(out: str, total: int, rated: Iterator[T],
                 lines: Callable[[T], tuple[list[dict], int]]) -> None:
    """Append each worker's result to ``out`` as JSON lines as it comes, with progress."""
    done = 0
    start = time.monotonic()
    try:
        with open(out, "a", encoding="utf-8") as file:
            for result in rated:
                rows, count = lines(result)
                file.writelines(json.dumps(row) + "\n" for row in rows)
                file.flush()
                done += count
                print(f"\r{done}/{total} rated, {time.monotonic() - start:.0f} s", end="",
                      file=sys.stderr, flush=True)
    finally:
        while _judges:
            _judges.popitem()[1].quit()
    print(f"\n{done} positions rated, written to {out}")


def match_games(path: Path, rule: Rule) -> list[dict]:
    """The games of ``.psq`` records (a file, or a folder of them such as
    ``gridgames match --out`` writes) that ended in five or a full board: a game lost
    on time or by an error says nothing of its position."""
    files = sorted(path.glob("*.psq")) if path.is_dir() else [path]
    games = []
    for file in files:
        board = load(file, rule).to_board()
        if board.outcome() is not None:
            games.append(game_record(board))
    return games


def replayed(game: dict, played: Rule, rule: Rule) -> dict | None:
    """A written game played under ``played``, as played under ``rule`` instead and
    without scores; None where a move is illegal there (a renju foul) or the game ends
    otherwise (a freestyle win by an overline wins nothing under standard)."""
    moves = [tuple(move) for move in game["moves"]]
    Board(game["width"], game["height"], rule=played).push_many(moves)  # checks the record
    board = Board(game["width"], game["height"], rule=rule)
    try:
        board.push_many(moves)
    except IllegalMoveError:
        return None
    record = game_record(board)
    return record if record["winner"] == game["winner"] else None


def written_games(path: Path, rule: Rule, played: Rule | None = None) -> list[dict]:
    """The games of a file ``generate`` or ``label`` wrote, all played under ``played``
    (default ``rule``), replayed under ``rule`` where the two differ."""
    played = played or rule
    games = []
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            game = json.loads(line)
            if not isinstance(game, dict) or "moves" not in game:
                raise ValueError(f"line {number} is not a game written by 'generate'")
            if game["rule"] != played.name.lower():
                raise ValueError(f"line {number} is a {game['rule']} game, "
                                 f"not {played.name.lower()}")
            if played is not rule:
                game = replayed(game, played, rule)
            if game is not None:
                games.append(game)
    return games


def for_each_game(paths: list[str], rule: Rule, work: Callable[[dict], T],
                  played: Rule | None = None) -> list[T]:
    """``work`` done on every game of the given files (games written by ``generate`` or
    ``label``, ``.psq`` records or folders of them; written games played under
    ``played`` are replayed under ``rule``); a file that cannot be read, or holds an
    illegal game, stops the run with its name."""
    done = []
    for name in paths:
        path = Path(name)
        try:
            if path.is_dir() or path.suffix.lower() == ".psq":
                games = match_games(path, rule)
            else:
                games = written_games(path, rule, played)
            done += [work(game) for game in games]
        except (OSError, ValueError, KeyError, TypeError, RecordError) as error:
            raise SystemExit(f"cannot read {path} (games written by 'generate', .psq "
                             f"records or folders of them): {error}") from None
    return done


def read_positions(paths: list[str], rule: Rule) -> list[list]:
    rows = [row for game in for_each_game(paths, rule, quiet_positions) for row in game]
    if not rows:
        raise SystemExit("no positions in the given files")
    return rows


def log_loss_and_error(values: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Log-loss and squared error of the win probabilities of logits ``values``."""
    p = np.clip(1 / (1 + np.exp(-np.clip(values, -50, 50))), 1e-9, 1 - 1e-9)
    log_loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    return float(log_loss), float(np.mean((y - p) ** 2))


class Dataset(NamedTuple):
    x: np.ndarray  # per position: each side's line-shape counts and classes, summed over cells
    results: np.ndarray  # the game's result for the side to move
    targets: np.ndarray  # what to fit: the result, the score's win probability, or a blend
    evals: np.ndarray  # the current evaluation, centi-stones
    scale: float  # centi-stones of the evaluation per logistic unit
    weights: EvalWeights  # the rule's current weights
    train: slice  # the first four fifths of the positions, in game order
    test: slice  # the last fifth: other games


def dataset(paths: list[str], rule: Rule, search_weight: float,
            score_scale: float | None = None) -> Dataset:
    rows = read_positions(paths, rule)
    if search_weight > 0:
        rows = [r for r in rows if r[1] is not None]
        if not rows:
            raise SystemExit("no position has a score: use games written by 'generate' or "
                             "'label', or --search-weight 0")
    results = np.array([r[0] for r in rows])
    searched = np.array([0.0 if r[1] is None else float(r[1]) for r in rows])
    x = combo_sums([(mover, waiter) for _, _, mover, waiter in rows])
    weights = eval_weights(rule.code)
    evals = x @ signed_weights(weights) + weights.tempo
    scales = np.arange(20, 1000, 10)
    scale = float(min(scales, key=lambda k: log_loss_and_error(evals / k, results)[1]))
    # the scores' own scale (another engine's need not be ours), fitted to the results
    # unless given (the results of games with random moves say little of their positions)
    if score_scale is None:
        score_scale = float(min(scales,
                                key=lambda k: log_loss_and_error(searched / k, results)[0]))
    # the target: the game's result, or the searched score there, or a blend
    targets = (1 - search_weight) * results + search_weight / (
        1 + np.exp(-np.clip(searched / score_scale, -50, 50)))
    print(f"{len(x)} positions; scale {scale:.0f} centi-stones per logistic unit")
    if search_weight > 0:
        print(f"scores: scale {score_scale:.0f} per logistic unit")
    split = len(x) * 4 // 5
    return Dataset(x, results, targets, evals, scale, weights, slice(0, split),
                   slice(split, None))


def combo_sums(histograms: Sequence[Sequence[list]]) -> np.ndarray:
    """:class:`Dataset` ``x`` rows of positions' combo histograms (see :func:`features`)."""
    per_combo = combo_features()
    width = per_combo.shape[1]
    x = np.zeros((len(histograms), 2 * width))
    for i, pair in enumerate(histograms):
        for side, histogram in zip((0, width), pair, strict=True):
            combos = np.array([c for c, _ in histogram], dtype=np.int64)
            counts = np.array([n for _, n in histogram], dtype=float)
            x[i, side:side + width] = counts @ per_combo[combos]
    return x


class Siblings(NamedTuple):
    x: np.ndarray  # per quiet child position, as Dataset x (its side to move first)
    targets: np.ndarray  # the judge's score of it in logistic units, less its siblings' mean
    groups: np.ndarray  # the index of its parent position
    train: np.ndarray  # which rows belong to the first four fifths of the parents
    # (the groups are numbered in file order, so held-out parents are later ones)


# A judge's score beyond this many logistic units tells only that one side is winning.
SIBLING_CLIP = 4.0


def read_siblings(paths: list[str], rule: Rule, score_scale: float) -> Siblings:
    """The quiet child positions that ``siblings`` rated, two or more to a parent (a
    child the judge calls won or lost is left out: the search's threats decide those)."""
    histograms: list[list[list[list[int]]]] = []
    targets: list[float] = []
    groups: list[int] = []
    for name in paths:
        try:
            lines = Path(name).read_text(encoding="utf-8").splitlines()
        except OSError as error:
            raise SystemExit(f"cannot read {name}: {error}") from None
        for number, line in enumerate(lines, 1):
            try:
                found = _rated_children(json.loads(line), rule, score_scale)
            except (ValueError, KeyError, TypeError, IllegalMoveError) as error:
                raise SystemExit(f"cannot read {name} (positions written by 'siblings'), "
                                 f"line {number}: {error}") from None
            if len(found) < 2:
                continue
            values = np.clip([t for _, t in found], -SIBLING_CLIP, SIBLING_CLIP)
            histograms += [h for h, _ in found]
            targets += list(values - values.mean())
            groups += [groups[-1] + 1 if groups else 0] * len(found)
    if not groups:
        raise SystemExit("no parent position with two quiet rated children")
    group = np.array(groups)
    return Siblings(combo_sums(histograms), np.array(targets), group,
                    group < (group[-1] + 1) * 4 // 5)


def _rated_children(row: dict, rule: Rule, score_scale: float) -> list[tuple[list, float]]:
    """A line ``siblings`` wrote: each quiet child's histograms (see :func:`features`)
    and the judge's score of it in logistic units, mates left out."""
    if Rule[row["rule"].upper()] is not rule:
        raise ValueError(f"a {row['rule']} position, not {rule.name.lower()}")
    board = Board(row["width"], row["height"], rule=rule)
    board.push_many([tuple(m) for m in row["moves"]])  # checks each move
    pos = P.new_position(board.width, board.height, rule.code, P.new_table(4))
    for move in board.move_stack:
        P.make(pos, P.cell_index(pos, move))
    found = []
    for cx, cy, score in row["children"]:
        if score is None or abs(score) >= MATE_SCORE or not board.is_legal((cx, cy)):
            continue
        P.make(pos, P.cell_index(pos, (cx, cy)))
        histogram, tactical = features(pos)
        P.unmake(pos)
        if not tactical:
            found.append((histogram, score / score_scale))
    return found


def less_group_mean(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each value less the mean of its group's."""
    _, group = np.unique(groups, return_inverse=True)
    means = np.bincount(group, values) / np.bincount(group)
    return values - means[group]


def sibling_report(siblings: Siblings, logits: np.ndarray) -> tuple[float, float]:
    """On the held-out parents: the mean squared error of the children's logits,
    each less its siblings' mean, against the judge's; and the share of sibling pairs
    (the judge's scores a tenth of a unit or more apart) the logits put in its order."""
    test = ~siblings.train
    groups, targets, values = siblings.groups[test], siblings.targets[test], logits[test]
    errors = less_group_mean(values, groups) - targets
    agree = pairs = 0
    for g in np.unique(groups):
        at = groups == g
        t, v = targets[at], values[at]
        dt = t[:, None] - t[None, :]
        dv = v[:, None] - v[None, :]
        counted = dt > 0.1
        pairs += int(counted.sum())
        agree += int((counted & (dv > 0)).sum())
    return float(np.mean(errors**2)), agree / max(pairs, 1)


def signed_weights(weights: EvalWeights) -> np.ndarray:
    """The weights of :class:`Dataset` ``x``'s columns in centi-stones: the side to
    move's, then the waiting side's negated."""
    return np.concatenate([weights.shape[0], weights.klass[0], np.negative(weights.shape[1]),
                           np.negative(weights.klass[1])]).astype(float) / EVAL_SCALE


def report(data: Dataset, before: np.ndarray, after: np.ndarray, search_weight: float,
           current: np.ndarray | None = None) -> None:
    """Held-out losses of two sets of logits, against the results and the target; with
    ``current``, those of the rule's network as it is beside them."""
    test = data.test
    targets = [("", data.results)] + ([("against the target: ", data.targets)]
                                      if search_weight > 0 else [])
    for label, y in targets:
        old = log_loss_and_error(before[test], y[test])
        new = log_loss_and_error(after[test], y[test])
        line = (f"{label}held-out log-loss {old[0]:.4f} -> {new[0]:.4f}, "
                f"squared error {old[1]:.4f} -> {new[1]:.4f}")
        if current is not None:
            now = log_loss_and_error(current[test], y[test])
            line += f" (the network as it is: {now[0]:.4f}, {now[1]:.4f})"
        print(line)


def fit(paths: list[str], ridge: float, rule: Rule, search_weight: float) -> None:
    data = dataset(paths, rule, search_weight)
    x, targets, scale, weights = data.x, data.targets, data.scale, data.weights
    width = x.shape[1] // 2
    base = signed_weights(weights)
    free = np.zeros(2 * width, dtype=bool)
    for side in (0, width):
        free[[side + s for s in FITTED_SHAPES]] = True
        free[[side + N_SHAPES + c for c in FITTED_CLASSES]] = True
    # logistic regression in centi-stones over ``scale``, the tempo as the intercept
    z = np.hstack([x[:, free], np.ones((len(x), 1))]) / scale
    offset = x[:, ~free] @ base[~free] / scale
    prior = np.append(base[free], weights.tempo)
    theta = prior.copy()
    train = data.train
    for _ in range(30):  # Newton's method: the loss is convex
        p = 1 / (1 + np.exp(-(z[train] @ theta + offset[train])))
        gradient = z[train].T @ (p - targets[train]) + 2 * ridge * (theta - prior)
        hessian = (z[train] * (p * (1 - p))[:, None]).T @ z[train] + 2 * ridge * np.eye(len(theta))
        theta -= np.linalg.solve(hessian, gradient)
    fitted = base.copy()
    fitted[free] = theta[:-1]
    report(data, data.evals / scale, (x @ fitted + theta[-1]) / scale, search_weight)

    def table(start: int, count: int, sign: int) -> tuple[int, ...]:
        return tuple(round(sign * v * EVAL_SCALE) for v in fitted[start:start + count])

    print("SHAPES  ", " ".join(f"{n:>6}" for n in SHAPE_NAMES))
    print("CLASSES ", " ".join(f"{n:>6}" for n in CLASS_NAMES))
    print(f"EvalWeights for {rule.name.lower()} (tempo fitted {theta[-1]:.2f}):")
    print("    shape=(")
    print(f"        {table(0, N_SHAPES, 1)},\n        {table(width, N_SHAPES, -1)},\n    ),")
    print("    klass=(")
    print(f"        {table(N_SHAPES, N_CLASSES, 1)},\n"
          f"        {table(width + N_SHAPES, N_CLASSES, -1)},\n    ),")
    print(f"    tempo={round(theta[-1])},")


def net_inputs(x: np.ndarray, weights: EvalWeights) -> np.ndarray:
    """The evaluation network's inputs (``patterns.NET_INPUTS``) of :class:`Dataset` rows:
    each side's class counts but NONE's, then each side's linear sum, as the engine has them."""
    width = N_SHAPES + N_CLASSES
    # integer sums divided once, exactly as the engine does (signed_weights divides first)
    mover = x[:, :width] @ np.array(weights.shape[0] + weights.klass[0]) / EVAL_SCALE
    waiter = x[:, width:] @ np.array(weights.shape[1] + weights.klass[1]) / EVAL_SCALE
    return np.hstack([x[:, N_SHAPES + 1:width], x[:, width + N_SHAPES + 1:],
                      mover[:, None], waiter[:, None]])


def flat_net_logits(net: np.ndarray, inputs: np.ndarray) -> np.ndarray:
    """The logits of a network in the flat form of ``patterns.load_net`` on rows of its
    inputs, as the search computes them (before the scale to centi-stones)."""
    size = int(net[0])
    hidden = net[1:1 + size * NET_INPUTS].reshape(size, NET_INPUTS)
    rest = net[1 + size * NET_INPUTS:]
    params = {"hidden": hidden.T, "hidden_bias": rest[:size], "out": rest[size:2 * size],
              "linear": rest[2 * size:2 * size + NET_INPUTS], "bias": rest[-2:-1]}
    return net_forward(params, inputs)[0]


def train_net(z: np.ndarray, targets: np.ndarray, data: Dataset, hidden: int, seed: int,
              siblings: Siblings | None = None, sibling_z: np.ndarray | None = None,
              sibling_weight: float = 0.0) -> dict[str, np.ndarray]:
    """A logistic output over the inputs and one layer of ``hidden`` rectified units,
    trained by Adam on the whole training set; the epoch that does best on the
    held-out games is kept. With ``siblings`` (their inputs ``sibling_z``) the loss
    adds ``sibling_weight`` times the squared error of the children's logits, each
    less its siblings' mean, against the judge's: the order of the moves from a
    position, not only the level of its value."""
    rng = np.random.default_rng(seed)
    n_in = z.shape[1]
    params = {"linear": np.zeros(n_in), "bias": np.zeros(1),
              "hidden": rng.normal(0, 1 / np.sqrt(n_in), (n_in, hidden)),
              "hidden_bias": np.zeros(hidden), "out": np.zeros(hidden)}
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    x, y = z[data.train], targets[data.train]
    if siblings is not None and sibling_z is not None:
        train = siblings.train
        x = np.vstack([x, sibling_z[train]])
        sibling_groups, sibling_targets = siblings.groups[train], siblings.targets[train]
    level = len(y)
    best, kept = np.inf, params
    for epoch in range(1, NET_EPOCHS + 1):
        logits, units = net_forward(params, x)
        g = np.empty(len(x))
        g[:level] = (1 / (1 + np.exp(-np.clip(logits[:level], -50, 50))) - y) / level
        if level < len(x):  # the siblings' rows follow the positions'
            g[level:] = 2 * sibling_weight * (
                less_group_mean(logits[level:], sibling_groups) - sibling_targets
            ) / (len(x) - level)
        back = np.outer(g, params["out"]) * (units > 0)
        grads = {"linear": x.T @ g, "bias": np.array([g.sum()]), "hidden": x.T @ back,
                 "hidden_bias": back.sum(0), "out": units.T @ g}
        for k, value in params.items():
            m, v = moments[k]
            grad = grads[k] + NET_L2 * value * (k != "bias")
            m[:] = 0.9 * m + 0.1 * grad
            v[:] = 0.999 * v + 0.001 * grad**2
            value -= NET_RATE * (m / (1 - 0.9**epoch)) / (np.sqrt(v / (1 - 0.999**epoch)) + 1e-8)
        if epoch % 50 == 0:
            loss = log_loss_and_error(net_forward(params, z[data.test])[0], targets[data.test])[0]
            if siblings is not None and sibling_z is not None:
                loss += sibling_weight * sibling_report(
                    siblings, net_forward(params, sibling_z)[0])[0]
            if loss < best:
                best, kept = loss, {k: v.copy() for k, v in params.items()}
    return kept


def net_forward(params: dict[str, np.ndarray], z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The logits and the hidden units' values."""
    units = np.maximum(z @ params["hidden"] + params["hidden_bias"], 0)
    return z @ params["linear"] + params["bias"][0] + units @ params["out"], units


def fit_net(paths: list[str], rule: Rule, search_weight: float, hidden: int, out: str,
            seed: int, score_scale: float | None = None, sibling_paths: Sequence[str] = (),
            sibling_weight: float = 1.0) -> None:
    """Fit the evaluation network and write it where ``patterns.eval_net`` reads it."""
    data = dataset(paths, rule, search_weight, score_scale)
    inputs = net_inputs(data.x, data.weights)
    mean = inputs[data.train].mean(0)
    spread = inputs[data.train].std(0) + 1e-6
    siblings = sibling_inputs = None
    if sibling_paths:
        if score_scale is None:
            raise SystemExit("--siblings needs --score-scale: the judge's units per "
                             "logistic unit")
        siblings = read_siblings(list(sibling_paths), rule, score_scale)
        sibling_inputs = net_inputs(siblings.x, data.weights)
        print(f"{len(siblings.x)} child positions of {siblings.groups[-1] + 1} parents")
    params = train_net((inputs - mean) / spread, data.targets, data, hidden, seed, siblings,
                       None if sibling_inputs is None else (sibling_inputs - mean) / spread,
                       sibling_weight)
    # the inputs' standardisation folded into the weights: the engine reads raw inputs
    hidden_w = params["hidden"] / spread[:, None]
    linear = params["linear"] / spread
    net = {"hidden": hidden_w.T, "hidden_bias": params["hidden_bias"] - mean @ hidden_w,
           "out": params["out"], "linear": linear,
           "bias": params["bias"][0] - mean @ linear}
    flat = {**net, "hidden": hidden_w, "bias": np.array([net["bias"]])}
    logits = net_forward(flat, inputs)[0]
    current = eval_net(rule.code)
    report(data, data.evals / data.scale, logits, search_weight,
           flat_net_logits(current, inputs) if current.size else None)
    if siblings is not None and sibling_inputs is not None:
        lines = [("linear", (siblings.x @ signed_weights(data.weights)) / data.scale),
                 ("fitted", net_forward(flat, sibling_inputs)[0])]
        if current.size:
            lines.insert(1, ("network as it is", flat_net_logits(current, sibling_inputs)))
        for name, values in lines:
            error, order = sibling_report(siblings, values)
            print(f"held-out siblings, {name}: squared error {error:.4f}, "
                  f"pairs in the judge's order {order:.3f}")
    written = {k: np.round(v, 8).tolist() for k, v in net.items()}
    written["scale"] = data.scale
    Path(out).write_text(json.dumps(written, indent=1) + "\n", encoding="utf-8")
    print(f"{hidden} hidden units written to {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gen = commands.add_parser("generate", help="play self-play games and write features")
    gen.add_argument("out")
    gen.add_argument("--minutes", type=float, default=30)
    gen.add_argument("--nodes", type=int, default=25_000)
    gen.add_argument("--rule", choices=[r.name.lower() for r in Rule], default="freestyle")
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--random-moves", type=float, default=0.0,
                     help="share of moves drawn at random near the stones, 0 to 1 (default 0)")
    rating = commands.add_parser("label", help="write games again with another engine's "
                                 "scores of their quiet positions")
    siblings = commands.add_parser("siblings", help="write another engine's scores of quiet "
                                   "positions and of the positions after their best moves")
    for judged in (rating, siblings):
        judged.add_argument("data", nargs="+",
                            help="games written by generate, .psq records or folders of them")
        judged.add_argument("--out", required=True)
        judged.add_argument("--judge", required=True, help="a Gomocup brain's command")
        judged.add_argument("--ms", type=int, default=100, help="the judge's time a position")
        judged.add_argument("--every", type=int, default=5,
                            help="rate one quiet position in this many (default 5)")
        judged.add_argument("--workers", type=int, default=2)
        judged.add_argument("--rule", choices=[r.name.lower() for r in Rule],
                            default="freestyle")
        judged.add_argument("--from-rule", choices=[r.name.lower() for r in Rule],
                            help="the rule written games were played under (default: --rule); "
                                 "each is replayed under --rule, and left out where it ends "
                                 "otherwise there")
        judged.add_argument("--seed", type=int, default=1)
    siblings.add_argument("--nodes", type=int, default=4000,
                          help="our search's nodes to choose the moves (default 4000)")
    siblings.add_argument("--width", type=int, default=6,
                          help="how many of our search's best moves (default 6)")
    fitting = commands.add_parser("fit", help="fit the weights to written games")
    fitting.add_argument("data", nargs="+",
                         help="games written by generate, .psq records or folders of them")
    fitting.add_argument("--ridge", type=float, default=0.3)
    fitting.add_argument("--rule", choices=[r.name.lower() for r in Rule], default="freestyle",
                         help="the rule the games were played under: its weights are refitted")
    fitting.add_argument("--search-weight", type=float, default=0.0,
                         help="share of the target taken from the engine's own search score "
                              "instead of the game's result, 0 to 1 (default 0)")
    netting = commands.add_parser("fit-net", help="fit the evaluation network to written "
                                  "games and write it")
    netting.add_argument("data", nargs="+",
                         help="games written by generate or label, .psq records or folders")
    netting.add_argument("--rule", choices=[r.name.lower() for r in Rule], default="freestyle")
    netting.add_argument("--search-weight", type=float, default=1.0,
                         help="share of the target taken from the positions' scores instead "
                              "of the games' results, 0 to 1 (default 1)")
    netting.add_argument("--hidden", type=int, default=16, help="hidden units (default 16)")
    netting.add_argument("--out", required=True, help="the network's file (JSON)")
    netting.add_argument("--seed", type=int, default=1)
    netting.add_argument("--score-scale", type=float,
                         help="the scores' units per logistic unit (default: fitted to the "
                              "games' results)")
    netting.add_argument("--siblings", nargs="+", default=[], metavar="FILE",
                         help="positions written by 'siblings': fit the order of each "
                              "one's children too (needs --score-scale)")
    netting.add_argument("--sibling-weight", type=float, default=1.0,
                         help="the siblings' share of the loss (default 1)")
    args = parser.parse_args()
    if args.command == "generate":
        if not 0 <= args.random_moves <= 1:
            parser.error("--random-moves must be between 0 and 1")
        generate(args.out, args.minutes, args.nodes, Rule[args.rule.upper()], args.seed,
                 args.random_moves)
    elif args.command in ("label", "siblings"):
        if min(args.ms, args.every, args.workers) <= 0:
            parser.error("--ms, --every and --workers must be above 0")
        rule = Rule[args.rule.upper()]
        played = Rule[args.from_rule.upper()] if args.from_rule else None
        if args.command == "label":
            label(args.data, args.out, args.judge, args.ms, args.every, rule, args.workers,
                  args.seed, played)
        elif args.nodes <= 0 or args.width <= 0:
            parser.error("--nodes and --width must be above 0")
        else:
            label_siblings(args.data, args.out, args.judge, args.ms, args.every, rule,
                           args.workers, args.seed, args.nodes, args.width, played)
    else:
        if not 0 <= args.search_weight <= 1:
            parser.error("--search-weight must be between 0 and 1")
        if args.command == "fit":
            fit(args.data, args.ridge, Rule[args.rule.upper()], args.search_weight)
        elif args.hidden <= 0:
            parser.error("--hidden must be above 0")
        elif args.score_scale is not None and args.score_scale <= 0:
            parser.error("--score-scale must be above 0")
        else:
            fit_net(args.data, Rule[args.rule.upper()], args.search_weight, args.hidden,
                    args.out, args.seed, args.score_scale, args.siblings, args.sibling_weight)


if __name__ == "__main__":
    main()
