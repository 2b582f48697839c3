"""The engine's board: a padded copy of the position with incrementally updated threats.

All state lives in numpy arrays gathered in the :class:`Position` named tuple, so
numba kernels can take it as one argument. Cells are indexed on a flat board with
a :data:`PAD`-cell wall border: point (x, y) is ``(y + PAD) * stride + x + PAD``.

For every cell and each of the four lines through it, ``keys`` holds the packed
line key of its neighbours (see :mod:`.patterns`); for every empty cell and each
colour, ``shape`` holds the line shape a stone there would make and ``combo`` the
combination of the four. Counts per threat class and a running evaluation sum
are kept for each colour. A move touches only the 40 cells within five steps on
its four lines.

A grid in the core layout is kept in sync, because the rule kernels
(``forbidden_kind``) read it.
"""

from __future__ import annotations

import mmap
from typing import Any, NamedTuple

import numpy as np
from numba import from_dtype, njit, types

from gridgames.gomoku.ai.params import SearchParams, checked, default_params
from gridgames.gomoku.ai.patterns import (
    COMBO_CLASS,
    COMBO_SUSPECT,
    COMBO_VALUE,
    N_CLASSES,
    EvalWeights,
    combo_evals,
    eval_net,
    eval_weights,
    line_table,
)
from gridgames.gomoku.rules import (
    CARO_CODE,
    CARO_EXACT_CODE,
    FREESTYLE_CODE,
    RENJU_CODE,
    WALL,
    forbidden_kind,
)

# Small helpers are inlined; a division by zero (which never happens here) yields
# zero instead of raising, so no kernel has an exception path to keep. The kernels
# never allocate, so they are compiled without numba's memory runtime: the
# position's twenty-odd arrays pass from call to call with no reference counts
# (numba would count each one atomically at every call it does not inline), and
# the compiled code is smaller and quicker to build. The rule kernels they call
# keep the runtime, as they allocate. (``_nrt`` is numba's own option for this;
# its type stubs leave it out, hence the dict.)
_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "error_model": "numpy", "_nrt": False}
kernel = njit(**_OPTIONS)
inlined = njit(inline="always", **_OPTIONS)

PAD = 5
MAX_PLY = 128
TT_BITS = 20
VCF_CACHE_BITS = 16

# Slots of Position.info
I_WIDTH, I_HEIGHT, I_STRIDE, I_RULE, I_CARO, I_COUNT, I_SIDE, I_HASH = range(8)
I_MINX, I_MAXX, I_MINY, I_MAXY = range(8, 12)
I_NODES, I_NODE_LIMIT, I_ABORT, I_STOP, I_SELDEPTH, I_STAMP, I_VCF_LIMIT = range(12, 19)
I_VALUE = 19  # two slots: black's and white's evaluation sums when to move
I_OFFSETS = 21  # four slots: flat steps of the four directions
I_ROOT_COUNT, I_VCF_MOVE, I_ROOT_BEST, I_ROOT_BEST_SCORE = 25, 26, 27, 28
I_WAIT_VALUE = 29  # two slots: black's and white's evaluation sums when not to move
I_NULL = 31  # 1 while a null move is being searched
I_TEMPO = 32  # the side to move's evaluation bonus under the rule
I_AGE = 33  # stones on the board at the search's root: dates transposition entries
I_UNDO = 34  # records in Position.undo
I_REACH = 35  # how far a stone changes shapes: 4 in freestyle, 5 where fives are exact
I_ENTRIES = 36  # eight slots: the addresses of the search's entry points (see .calls)
I_EXCLUDED = 44  # (ply << 16) | move: the move a singular search at that ply leaves out; 0 if none
I_PARAMS = 45  # the search's margins and counts, in SearchParams order (see .params)
N_INFO = I_PARAMS + len(SearchParams._fields)

# Columns of Position.stack: the move, the bounding box before it, where its undo
# records start, then the class counts and evaluation sums before it.
S_UNDO = 5
S_COUNTS = 6
S_VALUES = S_COUNTS + 2 * N_CLASSES
S_COLUMNS = S_VALUES + 4
# Undo records a move can leave: two colours on ten cells of four lines.
UNDO_PER_MOVE = 80

# Columns of Position.combo_table; the last holds the move value and, above it, the
# renju suspect flag (see combo_value and may_be_forbidden)
T_CLASS, T_EVAL_MOVER, T_EVAL_WAITER, T_VALUE_SUSPECT = 0, 1, 2, 3
_SUSPECT_SHIFT = 16

# Candidate moves: the 3x3 square around each stone and two steps along its lines.
_NEAR_DX = np.array([-1, 0, 1, -1, 1, -1, 0, 1, -2, 0, 2, -2, 2, -2, 0, 2], dtype=np.int64)
_NEAR_DY = np.array([-1, -1, -1, 0, 0, 1, 1, 1, -2, -2, -2, 0, 0, 2, 2, 2], dtype=np.int64)

# Combo index weight of each direction's shape.
_DIR_WEIGHT = np.array([1331, 121, 11, 1], dtype=np.int64)


class Position(NamedTuple):
    cells: np.ndarray  # int8 (N,): EMPTY/BLACK/WHITE/WALL
    grid: np.ndarray  # int8 (h + 2, w + 2): the core layout
    keys: np.ndarray  # int32 (N * 4,)
    shape: np.ndarray  # uint8 (2, N * 4)
    combo: np.ndarray  # int32 (2, N)
    near: np.ndarray  # int16 (N,): stones close by (see _NEAR_DX/_NEAR_DY)
    class_count: np.ndarray  # int32 (2, N_CLASSES): empty cells per threat class
    info: np.ndarray  # int64 (N_INFO,): scalars, see the I_* slots
    stack: np.ndarray  # int32 (cells + 1, S_COLUMNS): see the S_* columns
    undo: np.ndarray  # int32 (records, 3): colour, shape slot, old shape | old combo << 8
    zobrist: np.ndarray  # int64 (2, N)
    shape_table: np.ndarray  # uint8 (1, keys): both colours' line shapes (see packed_table)
    combo_table: np.ndarray  # int32 (N_COMBOS, 4): class, evals, value and renju suspect
    tt: np.ndarray  # int64 (TT, 2): key, packed entry
    history: np.ndarray  # int64 (5, N): quiet, then attack history per colour; dedup stamps
    killers: np.ndarray  # int32 (MAX_PLY, 2)
    statics: np.ndarray  # int32 (MAX_PLY,): static value of each node on the current line
    made: np.ndarray  # int32 (MAX_PLY,): the threat class each ply's move makes for its side
    pv: np.ndarray  # int32 (MAX_PLY, MAX_PLY + 1): length, then moves
    move_buf: np.ndarray  # int32 (MAX_PLY, N)
    score_buf: np.ndarray  # int32 (MAX_PLY, N)
    root: np.ndarray  # int32 (2, N): root moves and their scores
    vcf_cache: np.ndarray  # int64 (2**VCF_CACHE_BITS, 2): key ^ entry, entry (see search.vcf)
    net: np.ndarray  # float64 (K,): the evaluation network, empty where the rule has none


# numba's type of a Position (every array C-contiguous): the search's entry points,
# called through their addresses, read exactly this layout (see .calls).
POSITION_TYPE = types.NamedTuple(
    [types.Array(from_dtype(np.dtype(dtype)), ndim, "C") for dtype, ndim in (
        (np.int8, 1), (np.int8, 2), (np.int32, 1), (np.uint8, 2), (np.int32, 2), (np.int16, 1),
        (np.int32, 2), (np.int64, 1), (np.int32, 2), (np.int32, 2), (np.int64, 2),
        (np.uint8, 2), (np.int32, 2), (np.int64, 2), (np.int64, 2), (np.int32, 2),
        (np.int32, 1), (np.int32, 1), (np.int32, 2), (np.int32, 2), (np.int32, 2),
        (np.int32, 2), (np.int64, 2), (np.float64, 1))],
    Position)


_ZOBRIST: dict[int, np.ndarray] = {}
_COMBO_TABLES: dict[EvalWeights, np.ndarray] = {}
_PACKED_TABLES: dict[int, np.ndarray] = {}
# Freestyle's packed table: line keys without the cells five steps off (16 bits).
FREESTYLE_KEYS = 1 << 16


def packed_table(rule_code: int) -> np.ndarray:
    """The (1, keys) table of both colours' line shapes that positions read (see
    :func:`_shapes_of`): built from the rule's line table once per process."""
    table = _PACKED_TABLES.get(rule_code)
    if table is None:
        shapes = line_table(rule_code)
        if rule_code == FREESTYLE_CODE:
            shapes = shapes[:, np.arange(FREESTYLE_KEYS, dtype=np.int64) << 2]
        table = (shapes[0] | shapes[1] << 4).astype(np.uint8).reshape(1, -1)
        _PACKED_TABLES[rule_code] = table
    return table


def combo_table(rule_code: int, weights: EvalWeights | None = None) -> np.ndarray:
    """The (N_COMBOS, 4) table of a rule: class, evaluations, move value and renju
    suspect (built once for each set of weights, which several rules share);
    ``weights`` replaces the rule's own."""
    weights = eval_weights(rule_code) if weights is None else weights
    table = _COMBO_TABLES.get(weights)
    if table is None:
        if len(_COMBO_TABLES) >= 8:  # a tuning run tries many sets of weights
            _COMBO_TABLES.clear()
        evals = combo_evals(weights)
        # a combo's fields side by side in 16 bytes: a shape change reads one cache
        # line of the table for each combo, and four combos share a line
        packed = COMBO_VALUE.astype(np.int32) | COMBO_SUSPECT.astype(np.int32) << _SUSPECT_SHIFT
        table = np.stack([COMBO_CLASS, evals[0], evals[1], packed], axis=1).astype(np.int32)
        _COMBO_TABLES[weights] = table
    return table


def new_table(tt_bits: int = TT_BITS, *, shared: bool = False) -> np.ndarray:
    """A zeroed transposition table; ``shared`` puts it in memory that forked
    processes write through to (their searches then fill the parent's table)."""
    shape = (1 << tt_bits, 2)
    if not shared:
        return np.zeros(shape, dtype=np.int64)
    memory = mmap.mmap(-1, shape[0] * shape[1] * 8)  # anonymous maps are MAP_SHARED
    return np.frombuffer(memory, dtype=np.int64).reshape(shape)


def new_position(width: int, height: int, rule_code: int, tt: np.ndarray | None = None,
                 params: SearchParams | None = None,
                 weights: EvalWeights | None = None) -> Position:
    """An empty engine board (stones are then added with :func:`make`).

    ``tt`` is a table kept from earlier searches on boards of this size and rule;
    ``params`` the search's margins, the rule's own by default (ValueError if one
    is not a usable whole number); ``weights`` the linear evaluation's, the rule's
    own by default.
    """
    stride = width + 2 * PAD
    n = stride * (height + 2 * PAD)
    zobrist = _ZOBRIST.get(n)
    if zobrist is None:
        rng = np.random.default_rng(20240611 + n)
        zobrist = rng.integers(1, 2**62, size=(2, n), dtype=np.int64)
        _ZOBRIST[n] = zobrist
    grid = np.zeros((height + 2, width + 2), dtype=np.int8)
    grid[0, :] = grid[-1, :] = WALL
    grid[:, 0] = grid[:, -1] = WALL
    pos = Position(
        cells=np.full(n, WALL, dtype=np.int8),
        grid=grid,
        keys=np.zeros(n * 4, dtype=np.int32),
        shape=np.zeros((2, n * 4), dtype=np.uint8),
        combo=np.zeros((2, n), dtype=np.int32),
        near=np.zeros(n, dtype=np.int16),
        class_count=np.zeros((2, N_CLASSES), dtype=np.int32),
        info=np.zeros(N_INFO, dtype=np.int64),
        stack=np.zeros((width * height + 1, S_COLUMNS), dtype=np.int32),
        undo=np.zeros(((width * height + 1) * UNDO_PER_MOVE, 3), dtype=np.int32),
        zobrist=zobrist,
        shape_table=packed_table(rule_code),
        combo_table=combo_table(rule_code, weights),
        tt=new_table() if tt is None else tt,
        history=np.zeros((5, n), dtype=np.int64),
        killers=np.zeros((MAX_PLY, 2), dtype=np.int32),
        statics=np.zeros(MAX_PLY, dtype=np.int32),
        made=np.zeros(MAX_PLY, dtype=np.int32),
        pv=np.zeros((MAX_PLY, MAX_PLY + 1), dtype=np.int32),
        move_buf=np.zeros((MAX_PLY, n), dtype=np.int32),
        score_buf=np.zeros((MAX_PLY, n), dtype=np.int32),
        root=np.zeros((2, n), dtype=np.int32),
        vcf_cache=np.zeros((1 << VCF_CACHE_BITS, 2), dtype=np.int64),
        net=eval_net(rule_code),
    )
    info = pos.info
    info[I_WIDTH] = width
    info[I_HEIGHT] = height
    info[I_STRIDE] = stride
    info[I_RULE] = rule_code
    info[I_CARO] = int(rule_code in (CARO_CODE, CARO_EXACT_CODE))
    info[I_SIDE] = 1
    info[I_TEMPO] = (eval_weights(rule_code) if weights is None else weights).tempo
    # a freestyle five is five in a row whatever lies beyond, so a stone five steps
    # away changes no shape (checked for every line key by the tests)
    info[I_REACH] = 4 if rule_code == FREESTYLE_CODE else 5
    info[I_OFFSETS : I_OFFSETS + 4] = (1, stride, stride + 1, 1 - stride)
    info[I_PARAMS:] = default_params(rule_code) if params is None else checked(params)
    init_position(pos)
    if (width, height) != FITTED_SIZE:
        # Every empty cell adds to the evaluation's sums, and the weights were fitted on
        # 15x15 boards: start from that empty board's sums, so that the cells a larger
        # board adds far from the stones do not swamp the value (nor a smaller board's
        # missing ones), and the stones' effects stay what they are on 15x15.
        sums = _fitted_empty_sums(rule_code, weights)
        info[I_VALUE : I_VALUE + 2] = sums[:2]
        info[I_WAIT_VALUE : I_WAIT_VALUE + 2] = sums[2:]
    return pos


FITTED_SIZE = (15, 15)
_EMPTY_SUMS: dict[tuple[int, EvalWeights | None], np.ndarray] = {}


def _fitted_empty_sums(rule_code: int, weights: EvalWeights | None) -> np.ndarray:
    """The evaluation sums of the empty 15x15 board: to move, black's and white's,
    then waiting."""
    sums = _EMPTY_SUMS.get((rule_code, weights))
    if sums is None:
        info = new_position(*FITTED_SIZE, rule_code, new_table(1), weights=weights).info
        sums = np.concatenate([info[I_VALUE : I_VALUE + 2], info[I_WAIT_VALUE : I_WAIT_VALUE + 2]])
        if len(_EMPTY_SUMS) >= 32:  # a tuning run tries many sets of weights
            _EMPTY_SUMS.clear()
        _EMPTY_SUMS[(rule_code, weights)] = sums
    return sums


def params_of(pos: Position) -> SearchParams:
    """The search's margins ``pos`` carries."""
    return SearchParams(*pos.info[I_PARAMS:].tolist())


def cell_index(pos: Position, point: tuple[int, int]) -> int:
    return (point[1] + PAD) * int(pos.info[I_STRIDE]) + point[0] + PAD


def cell_point(pos: Position, idx: int) -> tuple[int, int]:
    y, x = divmod(int(idx), int(pos.info[I_STRIDE]))
    return x - PAD, y - PAD


@inlined
def unsigned(index):
    """``index`` as an unsigned number, for an array index known not to be negative.

    numba checks every signed index for a negative value (counted from the end);
    an unsigned one is used as it is. In the kernels a move runs, the checks cost
    more than the arithmetic around them."""
    return np.uint64(index)


@inlined
def _account(pos, idx, sign):
    """Add (sign 1) or remove (sign -1) the empty cell's class count and value."""
    for c in range(2):
        combo = pos.combo[c, idx]
        pos.class_count[c, pos.combo_table[combo, T_CLASS]] += sign
        pos.info[I_VALUE + c] += sign * pos.combo_table[combo, T_EVAL_MOVER]
        pos.info[I_WAIT_VALUE + c] += sign * pos.combo_table[combo, T_EVAL_WAITER]


@inlined
def _shapes_of(pos, key):
    """Both colours' line shapes for a line key, black's in the low four bits. A
    freestyle shape does not depend on the cells five steps off, so its table is
    indexed without them: 64 KiB, which stays in the processor's nearer caches."""
    if pos.shape_table.shape[1] == FREESTYLE_KEYS:
        return np.int64(pos.shape_table[0, (key >> 2) & (FREESTYLE_KEYS - 1)])
    return np.int64(pos.shape_table[0, key])


@inlined
def _refresh_line(pos, idx, d):
    """Reclassify the empty cell ``idx`` along direction ``d`` after its key changed,
    leaving an undo record of each shape that changes."""
    slot = idx * 4 + d
    both = _shapes_of(pos, pos.keys[unsigned(slot)])
    for c in range(2):
        old_combo = np.int64(pos.combo[unsigned(c), unsigned(idx)])
        new_shape = (both >> (4 * c)) & 15
        old_shape = np.int64(pos.shape[unsigned(c), unsigned(slot)])
        if new_shape == old_shape:
            continue
        u = pos.info[I_UNDO]
        record = pos.undo[unsigned(u)]
        record[0] = c
        record[1] = slot
        record[2] = old_shape | old_combo << 8
        pos.info[I_UNDO] = u + 1
        pos.shape[unsigned(c), unsigned(slot)] = new_shape
        combo = old_combo + (new_shape - old_shape) * _DIR_WEIGHT[unsigned(d)]
        pos.combo[unsigned(c), unsigned(idx)] = combo
        old_row = pos.combo_table[unsigned(old_combo)]
        row = pos.combo_table[unsigned(combo)]
        pos.class_count[unsigned(c), unsigned(old_row[T_CLASS])] -= 1
        pos.class_count[unsigned(c), unsigned(row[T_CLASS])] += 1
        pos.info[I_VALUE + c] += row[T_EVAL_MOVER] - old_row[T_EVAL_MOVER]
        pos.info[I_WAIT_VALUE + c] += row[T_EVAL_WAITER] - old_row[T_EVAL_WAITER]


@inlined
def _refresh_cell(pos, idx):
    """Classify the empty cell ``idx`` from scratch (its contributions must be absent)."""
    for c in range(2):
        combo = 0
        for d in range(4):
            s = (_shapes_of(pos, pos.keys[idx * 4 + d]) >> (4 * c)) & 15
            pos.shape[c, idx * 4 + d] = s
            combo = combo * 11 + s
        pos.combo[c, idx] = combo


@kernel
def init_position(pos):
    info = pos.info
    width, height, stride = info[I_WIDTH], info[I_HEIGHT], info[I_STRIDE]
    for y in range(height):
        for x in range(width):
            pos.cells[(y + PAD) * stride + x + PAD] = 0
    for y in range(height):
        for x in range(width):
            idx = (y + PAD) * stride + x + PAD
            for d in range(4):
                off = info[I_OFFSETS + d]
                key = 0
                for slot in range(10):
                    k = slot - 5 if slot < 5 else slot - 4
                    key += int(pos.cells[idx + k * off]) << (2 * slot)
                pos.keys[idx * 4 + d] = key
            _refresh_cell(pos, idx)
            _account(pos, idx, np.int64(1))
    info[I_MINX] = width
    info[I_MAXX] = -1
    info[I_MINY] = height
    info[I_MAXY] = -1


@inlined
def _update_lines(pos, idx, delta, reach):
    """Add ``delta`` (a colour, or minus it) at ``idx`` to the keys of the cells around,
    and reclassify the empty ones up to ``reach`` steps away."""
    for d in range(4):
        off = pos.info[I_OFFSETS + d]
        for k in range(1, 6):
            q = idx - k * off  # idx sits at offset +k from q
            cell = pos.cells[unsigned(q)]
            if cell == WALL:
                break
            pos.keys[unsigned(q * 4 + d)] += np.int32(delta) << (2 * (4 + k))
            if k <= reach and cell == 0:
                _refresh_line(pos, q, np.int64(d))
        for k in range(1, 6):
            q = idx + k * off  # idx sits at offset -k from q
            cell = pos.cells[unsigned(q)]
            if cell == WALL:
                break
            pos.keys[unsigned(q * 4 + d)] += np.int32(delta) << (2 * (5 - k))
            if k <= reach and cell == 0:
                _refresh_line(pos, q, np.int64(d))


@kernel
def make(pos, idx):
    """Play a stone of the side to move at the empty cell ``idx``."""
    info = pos.info
    color = info[I_SIDE]
    stride = info[I_STRIDE]
    n = info[I_COUNT]
    pos.stack[n, 0] = idx
    pos.stack[n, 1] = info[I_MINX]
    pos.stack[n, 2] = info[I_MAXX]
    pos.stack[n, 3] = info[I_MINY]
    pos.stack[n, 4] = info[I_MAXY]
    pos.stack[n, S_UNDO] = info[I_UNDO]
    for c in range(2):
        for k in range(N_CLASSES):
            pos.stack[n, S_COUNTS + c * N_CLASSES + k] = pos.class_count[c, k]
        pos.stack[n, S_VALUES + c] = info[I_VALUE + c]
        pos.stack[n, S_VALUES + 2 + c] = info[I_WAIT_VALUE + c]
    info[I_COUNT] = n + 1
    x = idx % stride - PAD
    y = idx // stride - PAD
    info[I_MINX] = min(info[I_MINX], x)
    info[I_MAXX] = max(info[I_MAXX], x)
    info[I_MINY] = min(info[I_MINY], y)
    info[I_MAXY] = max(info[I_MAXY], y)
    _account(pos, idx, np.int64(-1))
    pos.cells[idx] = color
    pos.grid[y + 1, x + 1] = color
    info[I_HASH] ^= pos.zobrist[color - 1, idx]
    _update_lines(pos, idx, color, info[I_REACH])
    for k in range(_NEAR_DX.shape[0]):
        pos.near[unsigned(idx + _NEAR_DY[k] * stride + _NEAR_DX[k])] += 1
    info[I_SIDE] = 3 - color


@kernel
def unmake(pos):
    """Take back the last stone: the keys by subtraction, the rest from the stack
    and the undo records (cheaper than classifying again)."""
    info = pos.info
    stride = info[I_STRIDE]
    n = info[I_COUNT] - 1
    idx = np.int64(pos.stack[n, 0])
    color = np.int64(pos.cells[idx])
    info[I_COUNT] = n
    info[I_MINX] = pos.stack[n, 1]
    info[I_MAXX] = pos.stack[n, 2]
    info[I_MINY] = pos.stack[n, 3]
    info[I_MAXY] = pos.stack[n, 4]
    x = idx % stride - PAD
    y = idx // stride - PAD
    pos.cells[idx] = 0
    pos.grid[y + 1, x + 1] = 0
    info[I_HASH] ^= pos.zobrist[color - 1, idx]
    _update_lines(pos, idx, -color, np.int64(0))
    first = pos.stack[n, S_UNDO]
    for u in range(info[I_UNDO] - 1, first - 1, -1):
        record = pos.undo[unsigned(u)]
        c = unsigned(record[0])
        slot = record[1]
        old = record[2]
        pos.shape[c, unsigned(slot)] = old & 255
        pos.combo[c, unsigned(slot // 4)] = old >> 8
    info[I_UNDO] = first
    # the cell's own shapes were left as they were while it was taken (only empty
    # cells are reclassified), so the counts and sums before it hold again
    for c in range(2):
        for k in range(N_CLASSES):
            pos.class_count[c, k] = pos.stack[n, S_COUNTS + c * N_CLASSES + k]
        info[I_VALUE + c] = pos.stack[n, S_VALUES + c]
        info[I_WAIT_VALUE + c] = pos.stack[n, S_VALUES + 2 + c]
    for k in range(_NEAR_DX.shape[0]):
        pos.near[unsigned(idx + _NEAR_DY[k] * stride + _NEAR_DX[k])] -= 1
    info[I_SIDE] = color


@inlined
def combo_value(pos, combo):
    """The move value of a shape combo (the class's and its shapes')."""
    return pos.combo_table[unsigned(combo), T_VALUE_SUSPECT] & ((1 << _SUSPECT_SHIFT) - 1)


@inlined
def may_be_forbidden(pos, color, idx):
    """Whether ``color`` at the empty cell ``idx`` may be a renju foul: the pattern
    tables' pre-filter of :func:`is_forbidden`."""
    return (color == 1 and pos.info[I_RULE] == RENJU_CODE
            and pos.combo_table[unsigned(pos.combo[0, idx]), T_VALUE_SUSPECT]
            >> _SUSPECT_SHIFT != 0)


@inlined
def is_forbidden(pos, color, idx):
    """Whether ``color`` may not play the empty cell ``idx`` (renju black fouls only).

    The pattern tables pre-filter; the rule kernel decides.
    """
    if not may_be_forbidden(pos, color, idx):
        return False
    stride = pos.info[I_STRIDE]
    return forbidden_kind(pos.grid, idx % stride - PAD, idx // stride - PAD) != 0
