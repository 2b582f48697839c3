"""Line shapes and cell threat classes, classified once into lookup tables.

A cell's neighbourhood along one line is packed into a 20-bit *line key*: the ten
cells at offsets -5..-1, +1..+5, two bits each (0 empty, 1 black, 2 white,
3 wall). ``line_table[color - 1, key]`` tells what a stone of ``color`` played on
the (empty) centre makes on that line: a five, an open four, a four, a three...
Fives are decided by the rule kernel :func:`gridgames.gomoku.rules.winning_direction`
run on a one-line grid, so the tables follow each rule exactly (exact fives,
overlines, caro's blocked fives).

The four line shapes through a cell combine into a *shape combo*
(``((s0 * 11 + s1) * 11 + s2) * 11 + s3``) that indexes the threat-class and score
tables.

>>> import numpy as np
>>> from gridgames.gomoku.rules import FREESTYLE_CODE
>>> table = line_table(FREESTYLE_CODE)
>>> key = line_key([0, 0, 0, 1, 1, 1, 0, 0, 0, 0])   # . . . X X [.] X . . . .
>>> SHAPE_NAMES[table[0, key]]
'F4'
>>> SHAPE_NAMES[table[1, key]]                        # white plays there: blocks only
'DEAD'
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import NamedTuple

import numpy as np
import platformdirs
from numba import njit

from gridgames.gomoku import rules
from gridgames.gomoku.rules import WALL, winning_direction

# Line shapes, weakest first (B = blocked on one side, F = free, OL = overline).
DEAD, OL, B1, F1, B2, F2, B3, F3, B4, F4, F5 = range(11)
SHAPE_NAMES = ("DEAD", "OL", "B1", "F1", "B2", "F2", "B3", "F3", "B4", "F4", "F5")
N_SHAPES = 11
N_COMBOS = N_SHAPES**4

# Cell threat classes for one colour, weakest first.
(
    C_NONE, C_FLEX2, C_BLOCK3, C_FLEX2_2X, C_BLOCK3_PLUS, C_FLEX3, C_FLEX3_PLUS, C_FLEX3_2X,
    C_BLOCK4, C_BLOCK4_PLUS, C_BLOCK4_FLEX3, C_FLEX4, C_FIVE,
) = range(13)
CLASS_NAMES = (
    "NONE", "FLEX2", "BLOCK3", "FLEX2_2X", "BLOCK3_PLUS", "FLEX3", "FLEX3_PLUS", "FLEX3_2X",
    "BLOCK4", "BLOCK4_PLUS", "BLOCK4_FLEX3", "FLEX4", "FIVE",
)
N_CLASSES = 13

KEY_BITS = 20
HALF = 5  # cells looked at on each side of the centre
_SLOT_OFFSETS = (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5)


def line_key(cells: list[int]) -> int:
    """Pack the ten neighbour values (offsets -5..-1 then +1..+5) into a line key."""
    key = 0
    for slot, value in enumerate(cells):
        key |= value << (2 * slot)
    return key


@njit(cache=True)
def _canonical(key, color):
    """The key with everything beyond the first opponent stone or wall set to wall.

    Cells past a blocker can never share a five with the centre, so such keys
    classify alike.
    """
    out = key
    for side in range(2):
        blocked = False
        for step in range(HALF):
            slot = 4 - step if side == 0 else 5 + step
            shift = 2 * slot
            value = (key >> shift) & 3
            if blocked:
                out = (out & ~(3 << shift)) | (WALL << shift)
            elif value != 0 and value != color:
                blocked = True
    return out


@njit(cache=True)
def _five_at_centre(line, color, rule_code):
    """Whether the centre stone of the one-line grid is part of a winning line."""
    return winning_direction(line, HALF, 0, rule_code) >= 0


@njit(cache=True)
def _run_through_centre(line, color):
    length = 1
    x = HALF + 2
    while line[1, x] == color:
        length += 1
        x += 1
    x = HALF
    while line[1, x] == color:
        length += 1
        x -= 1
    return length


@njit(cache=True)
def _classify(key, color, rule_code, memo, line):
    """Shape made on this line by ``color`` stones at the centre (memoised on ``key``)."""
    key = _canonical(key, color)
    if memo[key] >= 0:
        return memo[key]
    # Lay the line out in a one-row grid (row 1, columns 1..11, centre at column 6).
    for slot in range(10):
        value = (key >> (2 * slot)) & 3
        column = slot + 1 if slot < 5 else slot + 2
        line[1, column] = value
    line[1, HALF + 1] = color
    shape = DEAD
    if _five_at_centre(line, color, rule_code):
        shape = F5
    else:
        completions = 0
        best = DEAD
        for slot in range(10):
            if (key >> (2 * slot)) & 3 != 0:
                continue
            column = slot + 1 if slot < 5 else slot + 2
            line[1, column] = color
            if _five_at_centre(line, color, rule_code):
                completions += 1
            line[1, column] = 0
        if completions >= 2:
            shape = F4
        elif completions == 1:
            shape = B4
        else:
            # One more stone on the line: the best shape it leads to, one step down.
            for slot in range(10):
                if (key >> (2 * slot)) & 3 != 0:
                    continue
                sub = _classify(key | (color << (2 * slot)), color, rule_code, memo, line)
                if sub >= B2:
                    sub -= 2  # F4 -> F3, B4 -> B3, F3 -> F2, B3 -> B2, F2 -> F1, B2 -> B1
                    if sub > best:
                        best = sub
                # the recursion overwrote the scratch line: restore it
                for s2 in range(10):
                    column = s2 + 1 if s2 < 5 else s2 + 2
                    line[1, column] = (key >> (2 * s2)) & 3
                line[1, HALF + 1] = color
            shape = best
            if shape == DEAD and _run_through_centre(line, color) >= 6:
                shape = OL
    memo[key] = shape
    return shape


@njit(cache=True)
def _build_line_table(rule_code):
    size = 1 << KEY_BITS
    table = np.zeros((2, size), dtype=np.uint8)
    line = np.full((3, 2 * HALF + 3), WALL, dtype=np.int8)
    for color in range(1, 3):
        memo = np.full(size, -1, dtype=np.int8)
        for key in range(size):
            table[color - 1, key] = _classify(key, color, rule_code, memo, line)
    return table


_LINE_TABLES: dict[int, np.ndarray] = {}


def _cache_file(rule_code: int) -> Path:
    """Where a built table is kept between runs; named after the code that defines it."""
    sources = Path(__file__).read_bytes() + Path(rules.__file__).read_bytes()
    digest = hashlib.sha1(sources).hexdigest()[:16]
    return Path(platformdirs.user_cache_dir("gridgames")) / f"lines-{rule_code}-{digest}.npy"


def line_table(rule_code: int) -> np.ndarray:
    """The (2, 2**20) shape table of a rule.

    Built on first use (about 0.1 s), then kept in memory and in the user's
    cache directory, so a later process loads it in milliseconds.
    """
    table = _LINE_TABLES.get(rule_code)
    if table is not None:
        return table
    path = _cache_file(rule_code)
    try:
        table = np.load(path)
        if table.shape != (2, 1 << KEY_BITS) or table.dtype != np.uint8:
            table = None
    except (OSError, ValueError):
        table = None
    if table is None:
        table = _build_line_table(rule_code)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(f".{os.getpid()}.tmp.npy")
            np.save(temporary, table)
            temporary.replace(path)
        except OSError:
            pass  # a read-only cache only costs the build next time
    _LINE_TABLES[rule_code] = table
    return table


def _class_of(shapes: tuple[int, ...]) -> int:
    n = [0] * N_SHAPES
    for s in shapes:
        n[s] += 1
    if n[F5]:
        return C_FIVE
    if n[F4] or n[B4] >= 2:
        return C_FLEX4
    if n[B4]:
        if n[F3]:
            return C_BLOCK4_FLEX3
        return C_BLOCK4_PLUS if n[B3] + n[F2] else C_BLOCK4
    if n[F3] >= 2:
        return C_FLEX3_2X
    if n[F3]:
        return C_FLEX3_PLUS if n[B3] + n[F2] else C_FLEX3
    if n[B3] and n[B3] + n[F2] >= 2:
        return C_BLOCK3_PLUS
    if n[F2] >= 2:
        return C_FLEX2_2X
    if n[B3]:
        return C_BLOCK3
    if n[F2]:
        return C_FLEX2
    return C_NONE


# Threat-search move ordering (the alpha-beta search orders by the evaluation's
# values): value of one line shape for the cell's owner, and extra value of the
# combined class (the threats a single move creates).
SHAPE_VALUE = (0, 0, 0, 1, 3, 8, 10, 28, 36, 200, 1000)
CLASS_VALUE = (0, 0, 0, 12, 20, 20, 50, 300, 60, 120, 500, 800, 4000)

# Evaluation: what each empty cell's line shapes and class are worth to a side, in
# 1/EVAL_SCALE centi-stones; row 0 when that side is to move, row 1 when it has
# just moved (the side to move realises a threat first); and the side to move's
# bonus (``tempo``, centi-stones). Fitted to the results of self-play games by
# ``benchmarks/fit_eval.py``; fives and the worthless entries keep the values they
# started from.
EVAL_SCALE = 12


class EvalWeights(NamedTuple):
    shape: tuple[tuple[int, ...], tuple[int, ...]]  # per line shape (SHAPE_NAMES)
    klass: tuple[tuple[int, ...], tuple[int, ...]]  # per threat class (CLASS_NAMES)
    tempo: int


# Five in a row, overlines and caro alike (ridge 0.3, 183,487 positions from freestyle
# games of the engine with the weights fitted before these, and of earlier versions).
FIVE_IN_A_ROW_EVAL = EvalWeights(
    shape=(
        (0, 0, -37, -27, -19, 67, 118, 279, 542, 800, 4000),
        (0, 0, -43, -27, -19, 76, 68, 197, 509, 256, 3000),
    ),
    klass=(
        (0, -8, -29, 46, 66, 200, 327, 1079, 169, 788, 2161, 3200, 16000),
        (0, -27, 28, -5, 6, 152, 280, 785, 140, 683, 1667, 2035, 12000),
    ),
    tempo=19,
)
# Renju, where open twos come out worth about a third as much (ridge 0.3, 17,551
# positions from renju games of an earlier engine that played renju with the
# freestyle weights of its day).
RENJU_EVAL = EvalWeights(
    shape=(
        (0, 0, -6, 9, 18, 42, 124, 282, 415, 800, 4000),
        (0, 0, -12, 9, 17, 42, 80, 194, 370, 489, 3000),
    ),
    klass=(
        (0, -52, 3, 12, 97, 183, 266, 1180, 286, 664, 2041, 3200, 16000),
        (0, -64, 66, -8, 40, 120, 215, 873, 221, 549, 1543, 2284, 12000),
    ),
    tempo=20,
)


def eval_weights(rule_code: int) -> EvalWeights:
    """The evaluation weights a rule plays with."""
    return RENJU_EVAL if rule_code == rules.RENJU_CODE else FIVE_IN_A_ROW_EVAL


# The evaluation network's inputs: each side's count of empty cells of every threat
# class but NONE (whose count grows with the board), the side to move's first, then
# the two sums of the linear evaluation above (centi-stones, each side in its role).
NET_INPUTS = 2 * (N_CLASSES - 1) + 2
# Rules that evaluate with a network (caro stays linear). Standard's fives differ from
# freestyle's only in overlines, and the freestyle network plays better there too;
# renju's fouls change what black's shapes are worth, so renju has a network of its own.
_NET_FILES = {rules.FREESTYLE_CODE: "eval-net-freestyle.json",
              rules.STANDARD_CODE: "eval-net-freestyle.json",
              rules.RENJU_CODE: "eval-net-renju.json"}
_NETS: dict[int, np.ndarray] = {}


def eval_net(rule_code: int) -> np.ndarray:
    """A rule's evaluation network as :func:`load_net` gives it, or an empty array
    where the rule has none."""
    net = _NETS.get(rule_code)
    if net is None:
        name = _NET_FILES.get(rule_code)
        net = np.zeros(0) if name is None else load_net(Path(__file__).parents[1] / "data" / name)
        _NETS[rule_code] = net
    return net


def load_net(path: Path) -> np.ndarray:
    """An evaluation network (written by ``benchmarks/fit_eval.py fit-net``) as one flat
    array for the search kernels: the hidden size H, the hidden weights (H rows of
    :data:`NET_INPUTS`), the hidden biases, the hidden units' output weights, the
    inputs' own output weights, the output bias, and the centi-stones per unit of
    output (a logit of the side to move's win)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        hidden = np.array(data["hidden"], dtype=np.float64)
        parts = [np.array(data[k], dtype=np.float64) for k in ("hidden_bias", "out", "linear")]
        scalars = [float(data["bias"]), float(data["scale"])]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path}: not an evaluation network ({error})") from None
    size = hidden.shape[0] if hidden.ndim == 2 else -1
    if (size < 1 or hidden.shape[1] != NET_INPUTS
            or [p.shape for p in parts] != [(size,), (size,), (NET_INPUTS,)]):
        raise ValueError(f"{path}: an evaluation network has H rows of {NET_INPUTS} hidden "
                         f"weights, H hidden biases, H output weights and {NET_INPUTS} linear "
                         "ones")
    return np.concatenate([[size], hidden.ravel(), *parts, scalars])


def combo_shapes(combo: int) -> tuple[int, int, int, int]:
    """The four line shapes (one per direction) packed into a shape combo."""
    return (
        combo // N_SHAPES**3,
        combo // N_SHAPES**2 % N_SHAPES,
        combo // N_SHAPES % N_SHAPES,
        combo % N_SHAPES,
    )


def combo_features() -> np.ndarray:
    """One row a shape combo: its line shapes' counts, then its class (one-hot). The
    evaluation is linear in these (:func:`combo_evals`), and its weights are fitted
    on them."""
    table = np.zeros((N_COMBOS, N_SHAPES + N_CLASSES))
    for combo in range(N_COMBOS):
        for shape in combo_shapes(combo):
            table[combo, shape] += 1
        table[combo, N_SHAPES + COMBO_CLASS[combo]] = 1
    return table


def combo_evals(weights: EvalWeights) -> np.ndarray:
    """Each shape combo's worth to a side: row 0 when it is to move, row 1 when not."""
    features = combo_features()
    rows = [features @ np.array(weights.shape[role] + weights.klass[role]) for role in range(2)]
    return np.rint(rows).astype(np.int32)


def _build_combo_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    classes = np.zeros(N_COMBOS, dtype=np.uint8)
    values = np.zeros(N_COMBOS, dtype=np.int32)
    suspect = np.zeros(N_COMBOS, dtype=np.uint8)
    for combo in range(N_COMBOS):
        shapes = combo_shapes(combo)
        cls = _class_of(shapes)
        classes[combo] = cls
        values[combo] = sum(SHAPE_VALUE[s] for s in shapes) + CLASS_VALUE[cls]
        fours = sum(1 for s in shapes if s in (B4, F4))
        threes = sum(1 for s in shapes if s == F3)
        # Renju pre-filter: only these cells can be forbidden for black (the rule
        # kernel decides); a same-line double four shows up as F4.
        if cls != C_FIVE and (OL in shapes or F4 in shapes or fours >= 2 or threes >= 2):
            suspect[combo] = 1
    return classes, values, suspect


COMBO_CLASS, COMBO_VALUE, COMBO_SUSPECT = _build_combo_tables()
