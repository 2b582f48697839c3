"""Search kernels: principal-variation alpha-beta with a VCF quiescence, and a VCF solver.

Scores are from the side to move's point of view. A won position scores
``MATE - plies`` where ``plies`` counts half-moves from the root to the winning
five, a lost one the negative.
"""

from __future__ import annotations

import numpy as np
from numba import types

from gridgames.gomoku.ai.calls import address_of, call_at, entry_address, prefetch_row
from gridgames.gomoku.ai.params import SearchParams
from gridgames.gomoku.ai.patterns import (
    B3,
    B4,
    C_BLOCK4,
    C_BLOCK4_FLEX3,
    C_BLOCK4_PLUS,
    C_FIVE,
    C_FLEX2_2X,
    C_FLEX3,
    C_FLEX3_2X,
    C_FLEX4,
    EVAL_SCALE,
    F3,
    F5,
    N_CLASSES,
    NET_INPUTS,
)
from gridgames.gomoku.ai.position import (
    I_ABORT,
    I_AGE,
    I_CARO,
    I_COUNT,
    I_ENTRIES,
    I_EXCLUDED,
    I_HASH,
    I_HEIGHT,
    I_MAXX,
    I_MAXY,
    I_MINX,
    I_MINY,
    I_NODE_LIMIT,
    I_NODES,
    I_NULL,
    I_OFFSETS,
    I_PARAMS,
    I_ROOT_BEST,
    I_ROOT_BEST_SCORE,
    I_ROOT_COUNT,
    I_RULE,
    I_SELDEPTH,
    I_SIDE,
    I_STAMP,
    I_STOP,
    I_STRIDE,
    I_TEMPO,
    I_VALUE,
    I_VCF_LIMIT,
    I_VCF_MOVE,
    I_WAIT_VALUE,
    I_WIDTH,
    MAX_PLY,
    PAD,
    POSITION_TYPE,
    T_CLASS,
    T_EVAL_MOVER,
    Position,
    combo_value,
    inlined,
    is_forbidden,
    kernel,
    make,
    may_be_forbidden,
    unmake,
    unsigned,
)
from gridgames.gomoku.rules import FREESTYLE_CODE, RENJU_CODE

MATE = 30000
MATE_BOUND = MATE - 1000
INF = 32000
EXACT, LOWER, UPPER = 1, 2, 3
QUIESCENCE_VCF_DEPTH = 8
QUIESCENCE_VCF_NODES = 400
NULL_MOVE_KEY = 0x5851F42D4C957F2D  # hashed in while the side to move passes
SEARCHED = -(1 << 30)  # score_buf mark of a move already searched at its ply
# History rows of Position.history: quiet moves per colour, attacking moves per
# colour (a three or more made), then generate()'s dedup stamps. Values stay
# within +-HISTORY_RANGE: each update moves a value part of the way to the bound.
HISTORY_QUIET, HISTORY_ATTACK, HISTORY_MARKS = 0, 2, 4
HISTORY_RANGE = 16384
# Set apart the threat searches' cache keys of each attacker and each kind of search.
_VCF_SALT = np.array([0x2545F4914F6CDD1D, 0x1D8E4E27C47D124F, 0x6A09E667F3BCC908,
                      0x3C6EF372FE94F82B], dtype=np.int64)
_VCT_SALT = 0x7F4A7C159E3779B9
# Move-count pruning searches 3 + depth^1.32 moves at a node (4, 5, 7, 9, 11, 13,
# 16 and 18 at depths 1-8), and late-move reductions grow with the logarithms of
# depth and move number: both from tables, not computed at every node.
_MOVE_COUNT = np.array([3 + int(d**1.32) for d in range(MAX_PLY + 1)], dtype=np.int64)
_LOG = np.log(np.maximum(np.arange(64 * 64 + 1), 1))


def _param_slot(name: str) -> int:
    """The slot of Position.info holding the search's value ``name`` (see .params)."""
    return I_PARAMS + SearchParams._fields.index(name)


_FUTILITY_MARGIN = _param_slot("futility_margin")
_LMR_BASE = _param_slot("lmr_base")
_LMR_SCALE = _param_slot("lmr_scale")
_DEEPER_MARGIN = _param_slot("deeper_margin")
_DEEPER_PER_PLY = _param_slot("deeper_per_ply")
_HISTORY_CUT = _param_slot("history_cut")
_MOVE_COUNT_SCALE = _param_slot("move_count_scale")
_OWN_WEIGHT = _param_slot("own_weight")
_REVERSE_FUTILITY_DEPTH = _param_slot("reverse_futility_depth")
_FUTILITY_DEPTH = _param_slot("futility_depth")
_LATE_COUNT_SCALE = _param_slot("late_count_scale")
_NULL_BASE = _param_slot("null_base")
_NULL_PER_PLY = _param_slot("null_per_ply")
_SINGULAR_DEPTH = _param_slot("singular_depth")
_SINGULAR_MARGIN = _param_slot("singular_margin")


@inlined
def _out_of_budget(pos):
    """Count a node; true once the search must stop (stop flag or node limit)."""
    info = pos.info
    info[I_NODES] += 1
    if info[I_ABORT] != 0:
        return True
    if (info[I_NODES] & 255) != 0:
        return False
    if info[I_STOP] != 0 or (info[I_NODE_LIMIT] > 0 and info[I_NODES] >= info[I_NODE_LIMIT]):
        info[I_ABORT] = 1
        return True
    return False


@inlined
def _threat_budget_spent(pos):
    """Whether the threat searches have used up their node budget (I_VCF_LIMIT, 0: none)."""
    limit = pos.info[I_VCF_LIMIT]
    return limit > 0 and pos.info[I_NODES] >= limit


@inlined
def _class_at(pos, c, idx):
    """The threat class (C_*) a stone of colour index ``c`` would make on ``idx``."""
    return pos.combo_table[unsigned(pos.combo[unsigned(c), unsigned(idx)]), T_CLASS]


@inlined
def _region(pos, margin):
    """Bounding box of the stones grown by ``margin``, clipped to the board."""
    info = pos.info
    x0 = max(info[I_MINX] - margin, 0)
    x1 = min(info[I_MAXX] + margin, info[I_WIDTH] - 1)
    y0 = max(info[I_MINY] - margin, 0)
    y1 = min(info[I_MAXY] + margin, info[I_HEIGHT] - 1)
    return x0, x1, y0, y1


@kernel
def find_cells(pos, color, min_class, max_class, out):
    """Store the empty cells where ``color``'s class is in [min_class, max_class]; returns count."""
    stride = pos.info[I_STRIDE]
    c = color - 1
    # the class counts say how many there are: the scan stops at the last of them
    wanted = 0
    for cls in range(min_class, max_class + 1):
        wanted += pos.class_count[c, cls]
    n = 0
    if wanted == 0:
        return n
    # A four needs a four on some line, a three or more a three or more: the cell's
    # own shapes, near at hand, rule most cells out before the combo table is read.
    least_shape = B4 if min_class >= C_BLOCK4 else (F3 if min_class >= C_FLEX3 else 0)
    shapes = pos.shape[unsigned(c)]
    x0, x1, y0, y1 = _region(pos, np.int64(2))
    for y in range(y0, y1 + 1):
        row = (y + PAD) * stride + PAD
        for x in range(x0, x1 + 1):
            idx = row + x
            at = idx * 4
            if max(max(shapes[unsigned(at)], shapes[unsigned(at + 1)]),
                   max(shapes[unsigned(at + 2)], shapes[unsigned(at + 3)])) < least_shape:
                continue
            if pos.cells[unsigned(idx)] == 0:
                cls = _class_at(pos, c, idx)
                if min_class <= cls <= max_class:
                    out[unsigned(n)] = idx
                    n += 1
                    if n == wanted:
                        return n
    return n


@inlined
def _five_defences(pos, color, out):
    """The cells where a stone may stop ``color``'s fives, into ``out``; returns the count.

    The five cells themselves and, under caro, the far end of a five whose other
    end the defender already holds: a five blocked at both ends does not win.
    The search then finds out which of them stop every five.
    """
    n = find_cells(pos, color, np.int64(C_FIVE), np.int64(C_FIVE), out)
    if pos.info[I_CARO] == 0:
        return n
    defender = 3 - color
    for i in range(n):
        five = np.int64(out[i])
        for d in range(4):
            if pos.shape[color - 1, five * 4 + d] != F5:
                continue
            off = pos.info[I_OFFSETS + d]
            low = five - off
            while pos.cells[low] == color:
                low -= off
            high = five + off
            while pos.cells[high] == color:
                high += off
            if (high - low) // off != 6:
                continue  # an overline wins however it is blocked
            far = np.int64(-1)
            if pos.cells[low] == defender and pos.cells[high] == 0:
                far = high
            elif pos.cells[high] == defender and pos.cells[low] == 0:
                far = low
            if far < 0:
                continue
            new = True
            for j in range(n):
                if out[j] == far:
                    new = False
            if new:
                out[n] = far
                n += 1
    return n


@inlined
def _five_cell(pos, color):
    """One cell where ``color`` makes a five (-1 if none)."""
    stride = pos.info[I_STRIDE]
    x0, x1, y0, y1 = _region(pos, np.int64(1))
    c = color - 1
    for y in range(y0, y1 + 1):
        row = (y + PAD) * stride + PAD
        for x in range(x0, x1 + 1):
            idx = row + x
            if pos.cells[idx] == 0 and _class_at(pos, c, idx) == C_FIVE:
                return idx
    return -1


@inlined
def _legal_flex4(at, color):
    """A cell where ``color`` makes an open four or double four (-1 if none; never in caro).

    Under caro an open four can still be stopped (a five blocked at both ends
    does not count), so there the search has to find out.
    """
    pos = at[0]
    if pos.class_count[color - 1, C_FLEX4] == 0 or pos.info[I_CARO] != 0:
        return -1
    stride = pos.info[I_STRIDE]
    x0, x1, y0, y1 = _region(pos, np.int64(2))
    c = color - 1
    for y in range(y0, y1 + 1):
        row = (y + PAD) * stride + PAD
        for x in range(x0, x1 + 1):
            idx = row + x
            if (
                pos.cells[idx] == 0
                and _class_at(pos, c, idx) == C_FLEX4
                and not _is_forbidden(at, color, idx)
            ):
                return idx
    return -1


@inlined
def _has_four_move(pos, color):
    counts = pos.class_count[color - 1]
    return counts[C_BLOCK4] + counts[C_BLOCK4_PLUS] + counts[C_BLOCK4_FLEX3] + counts[C_FLEX4] > 0


@inlined
def evaluate(pos):
    me = pos.info[I_SIDE] - 1
    net = pos.net
    if net.shape[0] == 0:
        # each side's threats weighed by who moves next (see patterns.EvalWeights)
        score = (pos.info[I_VALUE + me] - pos.info[I_WAIT_VALUE + 1 - me]) // EVAL_SCALE
        return max(-MATE_BOUND + 1, min(MATE_BOUND - 1, score + pos.info[I_TEMPO]))
    return _net_value(pos, me, net)


@inlined
def _net_value(pos, me, net):
    """The evaluation network (see patterns.eval_net) on this position's class counts
    and linear sums."""
    hidden = np.int64(net[0])
    mover = pos.info[I_VALUE + me] / EVAL_SCALE
    waiter = pos.info[I_WAIT_VALUE + 1 - me] / EVAL_SCALE
    biases = 1 + hidden * NET_INPUTS
    outs = biases + hidden
    linear = outs + hidden
    out = net[linear + NET_INPUTS] + _weighed_inputs(pos, me, net, linear, mover, waiter)
    for j in range(hidden):
        unit = net[biases + j] + _weighed_inputs(pos, me, net, 1 + j * NET_INPUTS, mover, waiter)
        if unit > 0:
            out += net[outs + j] * unit
    score = np.int64(out * net[linear + NET_INPUTS + 1])
    return max(-MATE_BOUND + 1, min(MATE_BOUND - 1, score))


@inlined
def _weighed_inputs(pos, me, net, start, mover, waiter):
    """The network's inputs weighed by ``net[start:start + NET_INPUTS]``: each side's
    class counts but NONE's, the side to move's first, then the two linear sums."""
    counts = pos.class_count
    total = net[start + NET_INPUTS - 2] * mover + net[start + NET_INPUTS - 1] * waiter
    for k in range(1, N_CLASSES):
        total += (net[start + k - 1] * counts[me, k]
                  + net[start + N_CLASSES - 2 + k] * counts[1 - me, k])
    return total


@inlined
def _no_winning_shape(pos, color):
    """Whether ``color`` has no move making an open four, a four-three or a double three."""
    counts = pos.class_count[color - 1]
    return counts[C_FLEX4] + counts[C_BLOCK4_FLEX3] + counts[C_FLEX3_2X] == 0


@inlined
def _sort_by_value(pos, ply, n, color):
    """Sort ``move_buf[ply][:n]`` by the value of the shapes ``color`` makes there."""
    moves = pos.move_buf[ply]
    values = pos.score_buf[ply]
    for i in range(n):
        values[i] = combo_value(pos, pos.combo[color - 1, moves[i]])
    for i in range(1, n):
        m = moves[i]
        v = values[i]
        j = i - 1
        while j >= 0 and values[j] < v:
            moves[j + 1] = moves[j]
            values[j + 1] = values[j]
            j -= 1
        moves[j + 1] = m
        values[j + 1] = v


@inlined
def _block_that_is_a_four(pos, me):
    """The attacker's move when the opponent threatens a five: the single block,
    if it is also a four of ours (a threat search goes on only with fours);
    -1 when there is no such move."""
    opp = 3 - me
    if pos.class_count[opp - 1, C_FIVE] > 1:
        return -1
    block = _five_cell(pos, opp)
    if _class_at(pos, me - 1, block) < C_BLOCK4:
        return -1
    return block


# ---------------------------------------------------------------------------
# VCF: victory by continuous fours


@inlined
def _threat_cache_probe(pos, key, ply, depth_left):
    """What a threat search knows of ``key``: plies to the win, 0 for a failure tried at
    least as deep, -1 when nothing (a win holds at any depth; at the root, always -1)."""
    slot = key & (pos.vcf_cache.shape[0] - 1)
    cached = pos.vcf_cache[slot, 1]
    if (
        ply > 0
        and pos.vcf_cache[slot, 0] ^ cached == key
        and cached != 0
        and (cached & 255 > 0 or (cached >> 8) & 255 >= depth_left)
    ):
        return cached & 255
    return -1


@inlined
def _threat_cache_store(pos, key, result, depth_left):
    if pos.info[I_ABORT] != 0 or (result == 0 and _threat_budget_spent(pos)):
        return  # a search cut short proves nothing
    slot = key & (pos.vcf_cache.shape[0] - 1)
    entry = min(result, 255) | depth_left << 8 | 1 << 16
    pos.vcf_cache[slot, 0] = key ^ entry
    pos.vcf_cache[slot, 1] = entry


@inlined
def _attacker_settled(pos, ply, depth_left, ply_margin):
    """A threat search's attacker node decided without looking at moves: 1 when the
    attacker has a five to play (left in ``info[I_VCF_MOVE]`` at ply 0), 0 when the
    search must stop here (depth, plies or node budget spent), -1 to go on."""
    me = pos.info[I_SIDE]
    if pos.class_count[me - 1, C_FIVE] > 0:
        if ply == 0:
            pos.info[I_VCF_MOVE] = _five_cell(pos, me)
        return 1
    if depth_left <= 0 or ply >= MAX_PLY - ply_margin or _out_of_budget(pos):
        return 0
    if _threat_budget_spent(pos):
        return 0
    return -1


@inlined
def _keep_fruitful_fours(pos, me, moves, n):
    """Drop the fours that lead nowhere: a four whose stone makes no three or four on
    another line creates no new four, and its block is forced, so a chain of fours
    never needs it (white in renju excepted: a block there may be forbidden)."""
    kept = 0
    c = me - 1
    for i in range(n):
        idx = moves[i]
        lines = 0
        for d in range(4):
            if pos.shape[c, idx * 4 + d] >= B3:
                lines += 1
        if lines >= 2 or _class_at(pos, c, idx) >= C_FLEX4:
            moves[kept] = idx
            kept += 1
    return kept


# The recursive searches and the costly kernels they share are entry points, compiled
# once each and called through the addresses in info[I_ENTRIES:] (see .calls), with a
# pointer ``at`` to the position; these are the calls kernels make (their slots follow
# the order of _ENTRIES below).
@inlined
def _negamax(at, alpha, beta, depth, ply):
    return call_at(at[0].info[I_ENTRIES], at, alpha, beta, depth, ply)


_VCF_SLOT, _VCT_SLOT = 1, 2  # the two threat solvers, which share their move loop


@inlined
def _threat_solver(at, slot, ply, depth_left, attacker, every_four):
    return call_at(at[0].info[I_ENTRIES + slot], at, ply, depth_left, attacker, every_four)


@inlined
def _vcf(at, ply, depth_left, attacker, every_four):
    return _threat_solver(at, _VCF_SLOT, ply, depth_left, attacker, every_four)


@inlined
def _vct(at, ply, depth_left, attacker):
    return _threat_solver(at, _VCT_SLOT, ply, depth_left, attacker, 0)


@inlined
def _make(at, move):
    call_at(at[0].info[I_ENTRIES + 3], at, move, 0, 0, 0)


@inlined
def _unmake(at):
    call_at(at[0].info[I_ENTRIES + 4], at, 0, 0, 0, 0)


@inlined
def _generate(at, ply):
    packed = call_at(at[0].info[I_ENTRIES + 5], at, ply, 0, 0, 0)
    return packed >> 1, (packed & 1) != 0


@inlined
def _evaluate(at):
    return call_at(at[0].info[I_ENTRIES + 7], at, 0, 0, 0, 0)


@inlined
def _is_forbidden(at, color, move):
    return (may_be_forbidden(at[0], color, move)
            and call_at(at[0].info[I_ENTRIES + 6], at, color, move, 0, 0) != 0)


def _make_body(at, move, _b, _c, _d):
    pos = at[0]
    # the child's table bucket, loaded while the move is made
    key = pos.info[I_HASH] ^ pos.zobrist[pos.info[I_SIDE] - 1, move]
    prefetch_row(pos.tt, _tt_bucket(pos, key))
    make(pos, move)
    return 0


def _unmake_body(at, _a, _b, _c, _d):
    unmake(at[0])
    return 0


def _generate_body(at, ply, _b, _c, _d):
    n, forced = generate(at[0], ply)
    return n * 2 + int(forced)


def _forbidden_body(at, color, move, _c, _d):
    return int(is_forbidden(at[0], color, move))


def _evaluate_body(at, _a, _b, _c, _d):
    return evaluate(at[0])


@inlined
def _attacker_opening(pos, ply, depth_left, ply_margin, key):
    """An attacker node's first steps in either threat search; returns (result, n).

    A result of 0 or more settles the node: a five to play, depth, plies or
    budget spent, the threat cache, or an opponent's five that no four of ours
    blocks. Otherwise n is 1 when the one move is the block of that five (a four,
    left in ``move_buf[ply][0]``), 0 when the caller lists its threats.
    """
    settled = _attacker_settled(pos, ply, depth_left, ply_margin)
    if settled >= 0:
        return settled, 0
    cached = _threat_cache_probe(pos, key, ply, depth_left)
    if cached >= 0:
        return cached, 0
    me = pos.info[I_SIDE]
    if pos.class_count[2 - me, C_FIVE] > 0:  # the opponent's, 3 - me, has a five
        block = _block_that_is_a_four(pos, me)
        if block < 0:
            return 0, 0
        pos.move_buf[ply, 0] = block
        return -1, 1
    return -1, 0


@inlined
def _threat_moves(at, slot, ply, depth_left, attacker, every_four, n):
    """Make each of ``move_buf[ply][:n]``, search on with the solver in ``slot`` and
    take it back. The defender's answers: the longest win over them, 0 as soon as
    one holds (a forbidden one holds nothing). The attacker's threats: plies to the
    first win (its move left in ``info[I_VCF_MOVE]`` at ply 0), else 0."""
    pos = at[0]
    info = pos.info
    me = info[I_SIDE]
    defending = attacker != me
    moves = pos.move_buf[ply]
    longest = 2
    for i in range(n):
        move = np.int64(moves[i])
        if _is_forbidden(at, me, move):
            continue
        _make(at, move)
        found = _threat_solver(at, slot, ply + 1, depth_left - int(defending), attacker,
                               every_four)
        _unmake(at)
        if defending:
            if found == 0:
                return 0
            longest = max(longest, found + 1)
        elif found > 0:
            if ply == 0:
                info[I_VCF_MOVE] = move
            return found + 1
        elif info[I_ABORT] != 0:
            return 0
    return longest if defending else 0


def _vcf_body(at, ply, depth_left, attacker, every_four):
    """Plies to the attacker's five by continuous fours, or 0 if none is found.

    ``attacker`` is the side to move, or the side that has just made a four
    (then the defender must block it). At ply 0 the winning first move is left
    in ``info[I_VCF_MOVE]``. With ``every_four`` 0 (the fast leaf search) fours
    that make nothing on another line are skipped: wins that need several of
    them to build up a new line are missed.
    """
    pos = at[0]
    info = pos.info
    me = info[I_SIDE]
    moves = pos.move_buf[ply]
    key = info[I_HASH] ^ _VCF_SALT[me - 1] ^ _VCF_SALT[2 + every_four]
    if attacker != me:
        fives = pos.class_count[attacker - 1, C_FIVE]
        if fives == 0:
            return 0
        if fives >= 2 and info[I_CARO] == 0:
            return 2
        n = _five_defences(pos, attacker, moves)
    else:
        result, n = _attacker_opening(pos, ply, depth_left, np.int64(4), key)
        if result >= 0:
            return result
        if n == 0:
            n = find_cells(pos, me, np.int64(C_BLOCK4), np.int64(C_FLEX4), moves)
            if every_four == 0 and not (me == 2 and info[I_RULE] == RENJU_CODE):
                n = _keep_fruitful_fours(pos, me, moves, n)
            _sort_by_value(pos, ply, n, me)  # open fours and four-threes first
    # one call site: each copy of an inlined kernel is compiled again
    result = _threat_moves(at, _VCF_SLOT, ply, depth_left, attacker, every_four, n)
    if attacker == me:
        _threat_cache_store(pos, key, result, depth_left)
    return result


# ---------------------------------------------------------------------------
# VCT: victory by continuous threats (fours and threes)


def _vct_body(at, ply, depth_left, attacker, _unused):
    """Plies to the attacker's five by fours and threes, or 0 if none is found.

    The defender may answer a three with any move on its lines or a four of
    its own (a superset of the real defences), so a win found here is a real
    win. At ply 0 the winning first move is left in ``info[I_VCF_MOVE]``.
    """
    pos = at[0]
    info = pos.info
    me = info[I_SIDE]
    moves = pos.move_buf[ply]
    key = info[I_HASH] ^ _VCF_SALT[me - 1] ^ _VCT_SALT
    if attacker != me:
        if pos.class_count[me - 1, C_FIVE] > 0:
            return 0
        if _out_of_budget(pos):
            return 0
        if pos.class_count[attacker - 1, C_FIVE] > 0:
            if pos.class_count[attacker - 1, C_FIVE] >= 2 and info[I_CARO] == 0:
                return 2
            n = _five_defences(pos, attacker, moves)
        else:
            n, forced = _generate(at, ply)
            if not forced:
                return 0  # the attacker's move was no threat
    else:
        result, n = _attacker_opening(pos, ply, depth_left, np.int64(8), key)
        if result >= 0:
            return result
        if n == 0:
            flex4 = _legal_flex4(at, me)
            if flex4 >= 0:
                if ply == 0:
                    info[I_VCF_MOVE] = flex4
                return 3
            n = find_cells(pos, me, np.int64(C_FLEX3), np.int64(C_FLEX4), moves)
            _sort_by_value(pos, ply, n, me)
    result = _threat_moves(at, _VCT_SLOT, ply, depth_left, attacker, np.int64(0), n)
    if attacker == me:
        _threat_cache_store(pos, key, result, depth_left)
    return result


# ---------------------------------------------------------------------------
# Move generation and ordering


@kernel
def generate(pos, ply):
    """Candidate moves for the side to move into ``move_buf[ply]``; returns (count, forced).

    Assumes neither side has a five to play or block. When the opponent
    threatens an open four (or a double four), only defences on those lines and
    our own fours are generated.
    """
    info = pos.info
    me = info[I_SIDE]
    opp = 3 - me
    moves = pos.move_buf[ply]
    stride = info[I_STRIDE]
    marks = pos.history[HISTORY_MARKS]
    n = 0
    if pos.class_count[opp - 1, C_FLEX4] > 0:
        threats = pos.score_buf[ply]
        n_threats = find_cells(pos, opp, np.int64(C_FLEX4), np.int64(C_FLEX4), threats)
        info[I_STAMP] += 1
        stamp = info[I_STAMP]
        real = 0
        for i in range(n_threats):
            t = np.int64(threats[i])
            if is_forbidden(pos, opp, t):
                continue
            real += 1
            if marks[t] != stamp:
                marks[t] = stamp
                moves[n] = t
                n += 1
            for d in range(4):
                if pos.shape[opp - 1, t * 4 + d] < B4:
                    continue
                off = info[I_OFFSETS + d]
                for sign in (-1, 1):
                    for k in range(1, 6):
                        q = t + sign * k * off
                        v = pos.cells[q]
                        if v == 3:
                            break
                        if v == 0 and marks[q] != stamp:
                            marks[q] = stamp
                            moves[n] = q
                            n += 1
        if real > 0:
            n_fours = find_cells(pos, me, np.int64(C_BLOCK4), np.int64(C_FLEX4), threats)
            for i in range(n_fours):
                q = threats[i]
                if marks[q] != stamp:
                    marks[q] = stamp
                    moves[n] = q
                    n += 1
            return n, True
        n = 0
    x0, x1, y0, y1 = _region(pos, np.int64(2))
    for y in range(y0, y1 + 1):
        row = (y + PAD) * stride + PAD
        for x in range(x0, x1 + 1):
            idx = row + x
            if pos.cells[unsigned(idx)] == 0 and pos.near[unsigned(idx)] > 0:
                moves[unsigned(n)] = idx
                n += 1
    return n, False


@inlined
def _makes_three(pos, c, move):
    """Whether a stone of colour index ``c`` on ``move`` makes a three or more: an attack."""
    return _class_at(pos, c, move) >= C_FLEX3


@inlined
def _is_quiet(pos, me, move, made):
    """Whether ``move``, of threat class ``made`` for the side to move (``me``), makes
    no three nor stops one."""
    return made < C_FLEX3 and not _makes_three(pos, 2 - me, move)


@inlined
def _reward_cutoff(pos, ply, me, best_i, depth, forced):
    """History: ``move_buf[ply][best_i]`` caused a cutoff, the moves searched before it did not.

    Attacks and quiet moves keep separate tables; in a forced node (the opponent
    threatens) only attacks teach anything about the position.
    """
    bonus = min(32 * depth * depth + 64 * depth, 8000)
    moves = pos.move_buf[ply]
    for j in range(best_i + 1):
        if pos.score_buf[ply, j] != SEARCHED:
            continue
        move = moves[j]
        attack = _makes_three(pos, me - 1, move)
        if not attack and forced:
            continue
        row = (HISTORY_ATTACK if attack else HISTORY_QUIET) + me - 1
        delta = bonus if j == best_i else -bonus
        h = pos.history[row, move]
        pos.history[row, move] = h + delta - h * abs(delta) // HISTORY_RANGE


@kernel
def _order(pos, ply, n, tt_move):
    """Score ``move_buf[ply][:n]`` for ordering; :func:`_pick` then takes them best first.

    TT move, then threats made and stopped, then killers and history. A threat is
    worth what the evaluation gives its cell, our own weighed ``own_weight``
    hundredths of the opponent's (see .params).
    """
    me = pos.info[I_SIDE] - 1
    own_weight = pos.info[_OWN_WEIGHT]  # hundredths of the opponent's
    # into the range where history and killers still tell moves apart
    shrink = 5 * (own_weight + 100)
    moves = pos.move_buf[ply]
    scores = pos.score_buf[ply]
    k0 = pos.killers[ply, 0]
    k1 = pos.killers[ply, 1]
    for i in range(n):
        m = moves[unsigned(i)]
        if m == tt_move:
            s = 1 << 29
        else:
            cell = unsigned(m)
            s = (
                pos.combo_table[unsigned(pos.combo[unsigned(me), cell]), T_EVAL_MOVER] * own_weight
                + pos.combo_table[unsigned(pos.combo[unsigned(1 - me), cell]), T_EVAL_MOVER] * 100
            ) // shrink
            if _makes_three(pos, me, m):
                s = s * 64 + pos.history[unsigned(HISTORY_ATTACK + me), cell] // 8
            else:
                s = s * 64 + pos.history[unsigned(HISTORY_QUIET + me), cell] // 16
            if m in (k0, k1):
                s += 300
        scores[unsigned(i)] = s


@inlined
def _pick(pos, ply, i, n):
    """Swap the best-scored of moves i..n-1 to index i and return it (lazy selection sort)."""
    moves = pos.move_buf[ply]
    scores = pos.score_buf[ply]
    best = i
    best_score = scores[unsigned(i)]
    for j in range(i + 1, n):
        if scores[unsigned(j)] > best_score:
            best = j
            best_score = scores[unsigned(j)]
    if best != i:
        moves[i], moves[best] = moves[best], moves[i]
        scores[i], scores[best] = scores[best], scores[i]
    return np.int64(moves[i])


# ---------------------------------------------------------------------------
# Transposition table: buckets of two slots, each key ^ entry, then the entry:
# move | score << 16 | depth << 32 | flag << 40 | age << 42.
# Storing the key xor the entry makes a half-written slot (a search process killed
# mid-store, the table being shared) fail the key check instead of being misread.
# The age (stones at the root) lets a search overwrite deep entries of earlier
# moves, which a kept table otherwise fills up with.


@inlined
def _tt_bucket(pos, key):
    """The first of the two slots where ``key`` may be stored."""
    return key & (pos.tt.shape[0] - 2)


@inlined
def _tt_slot(pos, key):
    """The slot holding ``key``, or -1 when its bucket has none."""
    first = _tt_bucket(pos, key)
    for i in range(first, first + 2):
        entry = pos.tt[i, 1]
        if pos.tt[i, 0] ^ entry == key and entry != 0:
            return i
    return -1


@inlined
def _tt_entry(pos, key):
    """The stored entry of ``key``, or -1 when the table has none."""
    i = _tt_slot(pos, key)
    return pos.tt[i, 1] if i >= 0 else np.int64(-1)


@inlined
def _entry_depth(entry):
    return ((entry >> 32) & 255) - 128


@inlined
def _entry_score(entry):
    """The score as stored: a win or loss counts its plies from the storing node."""
    return ((entry >> 16) & 0xFFFF) - 32768


@inlined
def _entry_flag(entry):
    return (entry >> 40) & 3


@inlined
def _entry_is_current(pos, entry):
    """Whether an entry was stored by a search from the current root (its age)."""
    return (entry >> 42) & 255 == pos.info[I_AGE] & 255


@inlined
def _tt_worth(pos, entry):
    """How much a slot's entry is worth keeping: its depth, far more if of this search."""
    if entry == 0:
        return -1
    return _entry_depth(entry) + (256 if _entry_is_current(pos, entry) else 0)


@inlined
def _tt_store(pos, key, depth, score, flag, move, ply):
    i = _tt_slot(pos, key)
    if i >= 0:
        old = pos.tt[i, 1]
        if flag != EXACT and _entry_is_current(pos, old) and depth < _entry_depth(old):
            return
    else:
        i = _tt_bucket(pos, key)
        if _tt_worth(pos, pos.tt[i + 1, 1]) < _tt_worth(pos, pos.tt[i, 1]):
            i += 1
    if score >= MATE_BOUND:
        score += ply
    elif score <= -MATE_BOUND:
        score -= ply
    entry = (
        (move & 0xFFFF)
        | ((score + 32768) & 0xFFFF) << 16
        | ((depth + 128) & 255) << 32
        | flag << 40
        | (pos.info[I_AGE] & 255) << 42
    )
    pos.tt[i, 0] = key ^ entry
    pos.tt[i, 1] = entry


# ---------------------------------------------------------------------------
# Alpha-beta


@inlined
def _copy_pv(pos, ply, move):
    """The principal variation at ``ply``: ``move`` and then the child's."""
    child_len = pos.pv[ply + 1, 0]
    pos.pv[ply, 1] = move
    for j in range(child_len):
        pos.pv[ply, j + 2] = pos.pv[ply + 1, j + 1]
    pos.pv[ply, 0] = child_len + 1


@inlined
def _distance(pos, move, back):
    """King-move distance from ``move`` to the stone played ``back`` plies ago; -1 if none."""
    n = pos.info[I_COUNT] - back
    if n < 0:
        return -1
    stride = pos.info[I_STRIDE]
    other = np.int64(pos.stack[n, 0])
    return max(abs(move % stride - other % stride), abs(move // stride - other // stride))


@inlined
def _late_move_reduction(pos, ply, me, move, depth, searched, pv_node, forced, quiet,
                         improving, table_attacks):
    """Plies by which a late move is searched less deep: more with depth and move
    number, a ply less on the principal variation, a ply more off it where our
    static value has not risen since our previous move (not under renju), a ply
    less for a move whose quiet history says it often cuts off and a ply more if
    it often failed; then a ply less for a move that makes or stops a three.
    Where the opponent threatens, a move that stops none of its fours gets up to
    three plies more the farther it lies from the last two stones (as Rapfi);
    elsewhere an attack that follows our previous one gets a ply less. Last, a
    quiet move gets a ply more where the table's move makes a three or more
    (``table_attacks``, as Stockfish reduces more after a capture from its table;
    the caller sets it in freestyle alone: under standard and renju it measured
    worse, under caro it was not tried)."""
    reduction = 0
    if depth >= 2 and searched >= 2:
        reduction = int((pos.info[_LMR_BASE] + pos.info[_LMR_SCALE] * _LOG[depth]
                         * _LOG[searched]) / 100)
        if pv_node and reduction > 0:
            reduction -= 1
        elif (not pv_node and not improving and reduction > 1
              and pos.info[I_RULE] != RENJU_CODE):
            reduction += 1  # as Rapfi; under renju it measured worse
        history = pos.history[HISTORY_QUIET + me - 1, move]
        if history > pos.info[_HISTORY_CUT]:
            reduction -= 1
        elif history < -pos.info[_HISTORY_CUT]:
            reduction += 1
        reduction = max(reduction, 0)
        if not quiet and reduction > 0:
            reduction -= 1
    made = pos.made[ply]
    if forced:
        if _class_at(pos, 2 - me, move) < C_BLOCK4:
            if _distance(pos, move, np.int64(1)) > 4:
                reduction += 2
            if _distance(pos, move, np.int64(2)) > 4:
                reduction += 1
    elif reduction > 0 and ply >= 2 and pos.made[ply - 2] >= C_FLEX3 and (
            made >= C_FLEX3
            or (made >= C_FLEX2_2X and 0 <= _distance(pos, move, np.int64(2)) <= 4)):
        reduction -= 1
    if table_attacks and quiet and searched >= 2:
        reduction += 1
    return reduction


@inlined
def _singular_extension(at, entry, depth, beta, ply):
    """Plies to add to the table's move (as Stockfish and Rapfi), and a score at which
    the node cuts off (-INF if none). 1 where every other move, searched half as
    deep, stays below the table's score less a margin; where they reach beta
    themselves, a cutoff; else -1 where the table's score holds beta anyway."""
    pos = at[0]
    flag = _entry_flag(entry)
    score = _entry_score(entry)
    if (flag == UPPER or _entry_depth(entry) < depth - 2
            or score >= MATE_BOUND or score <= -MATE_BOUND):
        return 0, -INF
    singular_beta = score - pos.info[_SINGULAR_MARGIN] * depth
    pos.info[I_EXCLUDED] = (ply << 16) | (entry & 0xFFFF)
    value = _negamax(at, singular_beta - 1, singular_beta, depth // 2, ply)
    pos.info[I_EXCLUDED] = 0
    if pos.info[I_ABORT] != 0:
        return 0, -INF
    if value < singular_beta:
        return 1, -INF
    if singular_beta >= beta:
        return 0, singular_beta
    return (-1 if score >= beta else 0), -INF


def _negamax_body(at, alpha, beta, depth, ply):
    pos = at[0]
    info = pos.info
    me = info[I_SIDE]
    opp = 3 - me
    pv_node = beta - alpha > 1
    # the move left out where this node is searched for a singular table move
    skip = np.int64(-1)
    if info[I_EXCLUDED] != 0 and info[I_EXCLUDED] >> 16 == ply:
        skip = info[I_EXCLUDED] & 0xFFFF
    pos.pv[ply, 0] = 0
    if ply > info[I_SELDEPTH]:
        info[I_SELDEPTH] = ply
    if pos.class_count[me - 1, C_FIVE] > 0:
        return MATE - ply - 1
    if _out_of_budget(pos):
        return 0
    if info[I_COUNT] >= info[I_WIDTH] * info[I_HEIGHT]:
        return 0
    if ply >= MAX_PLY - 8:
        return _evaluate(at)
    alpha = max(alpha, -(MATE - ply))
    beta = min(beta, MATE - ply - 1)
    if alpha >= beta:
        return alpha

    moves = pos.move_buf[ply]
    forced = False
    staged = False  # the table's move stands alone in move_buf until it fails to cut off
    tt_move = -1
    table_attacks = False  # the table's move makes a three or more (freestyle only)
    static = 0  # evaluated below unless a five must be blocked (then no move is quiet)
    tt_extension = 0  # plies added to the table's move by the singular search
    key = info[I_HASH]
    if pos.class_count[opp - 1, C_FIVE] > 0:
        # Only blocks help. Two fives cannot both be blocked, except under caro
        # where one block may leave the other five blocked at both ends.
        if pos.class_count[opp - 1, C_FIVE] > 1 and info[I_CARO] == 0:
            return -(MATE - ply - 2)
        n = _five_defences(pos, opp, moves)
        pos.score_buf[ply, :n] = 0
        forced = True
        pos.statics[ply] = -INF  # no static value: the next but one node counts as improving
        improving = ply < 2
    else:
        if _legal_flex4(at, me) >= 0:
            return MATE - ply - 3
        if depth <= 0:
            # quiescence: the static value, or a win by continuous fours when that
            # value does not already reach beta (a win would only fail high too)
            static = _evaluate(at)
            if static < beta and _has_four_move(pos, me):
                saved_limit = info[I_VCF_LIMIT]
                cap = info[I_NODES] + QUIESCENCE_VCF_NODES
                if saved_limit == 0 or cap < saved_limit:
                    info[I_VCF_LIMIT] = cap
                plies = _vcf(at, ply, np.int64(QUIESCENCE_VCF_DEPTH), me, np.int64(0))
                info[I_VCF_LIMIT] = saved_limit
                if plies > 0:
                    return MATE - ply - plies
            return static
        entry = _tt_entry(pos, key) if skip < 0 else -1
        if entry >= 0:
            tt_move = entry & 0xFFFF
            if not pv_node and _entry_depth(entry) >= depth:
                score = _entry_score(entry)
                if score >= MATE_BOUND:
                    score -= ply
                elif score <= -MATE_BOUND:
                    score += ply
                flag = _entry_flag(entry)
                if (
                    flag == EXACT
                    or (flag == LOWER and score >= beta)
                    or (flag == UPPER and score <= alpha)
                ):
                    return score
        static = _evaluate(at)
        pos.statics[ply] = static
        # whether our static value has risen since our previous move
        improving = ply < 2 or static > pos.statics[ply - 2]
        if not pv_node and -MATE_BOUND < beta < MATE_BOUND and _no_winning_shape(pos, opp):
            # the opponent has no threat that a tempo would turn into a win
            if (depth <= info[_REVERSE_FUTILITY_DEPTH]
                    and static - info[_FUTILITY_MARGIN] * (depth - int(improving)) >= beta):
                # reverse futility: far above beta near the leaves, a margin of a
                # depth less where the static value has risen
                return static
            if depth >= 3 and static >= beta and info[I_NULL] == 0 and skip < 0:
                # null move: if beta holds even when we pass, a real move holds it too
                info[I_SIDE] = opp
                info[I_HASH] ^= NULL_MOVE_KEY
                info[I_NULL] = 1
                reduction = (info[_NULL_BASE] + info[_NULL_PER_PLY] * depth) // 100
                score = -_negamax(at, -beta, -beta + 1, depth - reduction, ply + 1)
                info[I_NULL] = 0
                info[I_HASH] ^= NULL_MOVE_KEY
                info[I_SIDE] = me
                if info[I_ABORT] != 0:
                    return 0
                if beta <= score < MATE_BOUND:
                    return score
        table_empty = 0 <= tt_move < pos.cells.shape[0] and pos.cells[tt_move] == 0
        table_attacks = (table_empty and info[I_RULE] == FREESTYLE_CODE
                         and _makes_three(pos, me - 1, np.int64(tt_move)))
        # The table's move is searched before the others are generated: where it cuts
        # off, as it mostly does, generating and ordering them is saved. Only where
        # every candidate is generated (the opponent threatens no open four).
        staged = (
            table_empty
            and pos.near[tt_move] > 0
            and pos.class_count[opp - 1, C_FLEX4] == 0
            and not _is_forbidden(at, me, np.int64(tt_move))
        )
        if (staged and 0 < info[_SINGULAR_DEPTH] <= depth and ply <= 2 * depth
                and info[I_EXCLUDED] == 0):
            tt_extension, cutoff = _singular_extension(at, entry, depth, beta, ply)
            if cutoff > -INF:
                return cutoff  # the moves besides the table's hold beta too
            pos.statics[ply] = static
            pos.pv[ply, 0] = 0
        if staged:
            moves[0] = tt_move
            n = 1
        else:
            n, forced = _generate(at, ply)
            if n == 0:
                return -(MATE - ply - 2) if forced else _evaluate(at)
            _order(pos, ply, n, np.int64(tt_move))

    # Move-count pruning: once a move that does not lose is in hand, moves past a
    # count that grows with depth are skipped; half as many where our static value
    # has not risen since our previous move.
    move_count_limit = (_MOVE_COUNT[max(depth, 0)] * info[_MOVE_COUNT_SCALE] // 100
                        // (2 - int(improving)))
    # late quiet moves near the leaves: pruned by count (3, 4, 7, 10 and 15 moves
    # searched at depths 1 to 5 at scale 100) and by static margin
    late_count_limit = (3 + depth * depth) * info[_LATE_COUNT_SCALE] // 200 + 1
    original_alpha = alpha
    best = -INF
    best_move = np.int64(-1)
    searched = 0
    i = -1
    while True:
        i += 1
        if i >= n:
            if not staged:
                break
            # the table's move did not cut off: generate the others, that one first
            staged = False
            n, forced = _generate(at, ply)
            _order(pos, ply, n, np.int64(tt_move))
            i = 0
            if _pick(pos, ply, np.int64(0), n) == tt_move:
                pos.score_buf[ply, 0] = SEARCHED
                i = 1
            if i >= n:
                break
        if searched >= move_count_limit and best > -MATE_BOUND:
            break  # move-count pruning: no later move need be picked
        move = _pick(pos, ply, np.int64(i), n)
        if move == skip or _is_forbidden(at, me, move):
            continue
        made = _class_at(pos, me - 1, move)
        quiet = not forced and _is_quiet(pos, me, move, made)
        new_depth = depth - 1
        if n == 1 and not staged:
            new_depth = depth  # a single forced reply costs no depth
        elif move == tt_move:
            new_depth += tt_extension
        if quiet and searched > 0 and not pv_node and best > -MATE_BOUND:
            if depth <= 5 and searched >= late_count_limit:
                continue
            if depth <= info[_FUTILITY_DEPTH] and static + info[_FUTILITY_MARGIN] * depth <= alpha:
                continue
        pos.score_buf[ply, i] = SEARCHED
        pos.made[ply] = made
        # The first move in the full window; the others in a null window, reduced,
        # then unreduced if they beat alpha, and in the full window if they still do.
        if searched == 0:
            _make(at, move)
            score = -_negamax(at, -beta, -alpha, new_depth, ply + 1)
        else:
            reduction = _late_move_reduction(pos, ply, me, move, depth, searched, pv_node,
                                             forced, quiet, improving, table_attacks)
            _make(at, move)
            score = -_negamax(at, -alpha - 1, -alpha, new_depth - reduction, ply + 1)
            if score > alpha and reduction > 0:
                # a ply deeper where the reduced search beat alpha by far, a ply
                # shallower where it barely beat the best so far (as Rapfi)
                reduced_depth = new_depth - reduction
                if score > alpha + info[_DEEPER_MARGIN] + info[_DEEPER_PER_PLY] * reduction:
                    new_depth += 1
                elif score < best + new_depth:
                    new_depth -= 1
                if not pv_node and reduced_depth < new_depth:
                    score = -_negamax(at, -alpha - 1, -alpha, new_depth, ply + 1)
            if pv_node and score > alpha:
                score = -_negamax(at, -beta, -alpha, new_depth, ply + 1)
        _unmake(at)
        searched += 1
        if info[I_ABORT] != 0:
            return 0
        if score > best:
            best = score
            best_move = move
            if score > alpha:
                alpha = score
                _copy_pv(pos, ply, move)
                if alpha >= beta:
                    if quiet and pos.killers[ply, 0] != move:
                        pos.killers[ply, 1] = pos.killers[ply, 0]
                        pos.killers[ply, 0] = move
                    _reward_cutoff(pos, ply, me, np.int64(i), depth, forced)
                    break
    if searched == 0:
        if skip >= 0:
            return alpha  # the left-out move was the only one
        return -(MATE - ply - 2)  # every candidate is forbidden
    if skip >= 0:
        return best  # a search without one move is not stored
    if best >= beta:
        flag = LOWER
    elif best > original_alpha:
        flag = EXACT
    else:
        flag = UPPER
    _tt_store(pos, key, depth, best, flag, best_move, ply)
    return best


@inlined
def _root_threat_search(at, vcf_depth, vct_depth):
    """Plies to a win for the side to move by continuous fours, else by fours and
    threes; 0 if neither is found. The winning first move is left in
    ``info[I_VCF_MOVE]``."""
    pos = at[0]
    me = pos.info[I_SIDE]
    plies = _vcf(at, np.int64(0), vcf_depth, me, np.int64(1))
    if plies == 0 and pos.info[I_ABORT] == 0:
        plies = _vct(at, np.int64(0), vct_depth, me)
    return plies


@inlined
def _prepare_root(at):
    """Fill the root move list (legal candidates, best-looking first); returns its length.

    Returns -1 if the side to move has a five to play (then it is the first root move).
    """
    pos = at[0]
    info = pos.info
    info[I_AGE] = info[I_COUNT]
    me = info[I_SIDE]
    opp = 3 - me
    if pos.class_count[me - 1, C_FIVE] > 0:
        pos.root[0, 0] = _five_cell(pos, me)
        info[I_ROOT_COUNT] = 1
        return -1
    if pos.class_count[opp - 1, C_FIVE] > 0:
        n = _five_defences(pos, opp, pos.move_buf[0])
    else:
        n, _ = _generate(at, np.int64(0))
    _order(pos, np.int64(0), n, np.int64(-1))
    count = 0
    for i in range(n):
        move = _pick(pos, np.int64(0), np.int64(i), n)
        if not _is_forbidden(at, me, move):
            pos.root[0, count] = move
            pos.root[1, count] = -INF
            count += 1
    info[I_ROOT_COUNT] = count
    return count


@inlined
def _search_root(at, depth, alpha, beta, skip):
    """Search the root moves from index ``skip`` on; the best one is moved to index ``skip``.

    Returns the best score (moves before ``skip`` are the earlier multi-PV lines).
    """
    pos = at[0]
    info = pos.info
    n = info[I_ROOT_COUNT]
    best = -INF
    best_i = -1
    pos.pv[0, 0] = 0
    info[I_ROOT_BEST] = -1
    pos.statics[0] = _evaluate(at)
    me = info[I_SIDE]
    for i in range(skip, n):
        move = np.int64(pos.root[0, i])
        # every root move is searched to the full depth: late quiet ones reduced
        # as on any principal variation measured weaker in self-play
        pos.made[0] = _class_at(pos, me - 1, move)
        _make(at, move)
        one = np.int64(1)
        if i == skip:
            score = -_negamax(at, -beta, -alpha, depth - 1, one)
        else:
            score = -_negamax(at, -alpha - 1, -alpha, depth - 1, one)
            if alpha < score < beta:
                score = -_negamax(at, -beta, -alpha, depth - 1, one)
        _unmake(at)
        if info[I_ABORT] != 0:
            break
        pos.root[1, i] = score
        if score > best:
            best = score
            best_i = i
            if score > alpha:
                alpha = score
                info[I_ROOT_BEST] = move
                info[I_ROOT_BEST_SCORE] = score
                _copy_pv(pos, np.int64(0), move)
                if alpha >= beta:
                    break
    if best_i > skip:
        move = pos.root[0, best_i]
        score = pos.root[1, best_i]
        for j in range(best_i, skip, -1):
            pos.root[0, j] = pos.root[0, j - 1]
            pos.root[1, j] = pos.root[1, j - 1]
        pos.root[0, skip] = move
        pos.root[1, skip] = score
    return best


@inlined
def _opponent_wins(at, opp, vcf_depth, vct_depth, budget):
    """Whether ``opp``, to move one ply down, has a win by continuous fours, or by
    fours and threes, that the solvers find within ``budget`` nodes."""
    info = at[0].info
    one = np.int64(1)
    info[I_VCF_LIMIT] = info[I_NODES] + budget
    if _vcf(at, one, vcf_depth, opp, one) > 0:
        return True
    return info[I_ABORT] == 0 and _vct(at, one, vct_depth, opp) > 0


@inlined
def _refuted(at, move, vcf_depth, vct_depth, budget):
    """1 if the opponent has a win by threats after the side to move plays ``move``
    (found within ``budget`` nodes), else 0."""
    pos = at[0]
    _make(at, move)
    loses = _opponent_wins(at, pos.info[I_SIDE], vcf_depth, vct_depth, budget)
    _unmake(at)
    pos.info[I_VCF_LIMIT] = 0
    return 1 if loses else 0


@inlined
def _drop_losing_root_moves(at, vcf_depth, vct_depth, budget):
    """If the opponent threatens a win by threats, drop the root moves that leave it standing.

    Only moves after which a win is actually found are dropped (such a find is a
    proven loss); if every move loses, all are kept. Returns the number of root
    moves left, or 0 when there is nothing to answer: no threat, or none that
    any move stops.
    """
    pos = at[0]
    info = pos.info
    me = info[I_SIDE]
    opp = 3 - me
    n = info[I_ROOT_COUNT]
    if n <= 1:
        return n
    info[I_SIDE] = opp  # as if we passed
    threat = _opponent_wins(at, opp, vcf_depth, vct_depth, budget)
    info[I_SIDE] = me
    if not threat or info[I_ABORT] != 0:
        info[I_VCF_LIMIT] = 0
        return 0
    per_move = max(budget // n, 200)
    kept = 0
    for i in range(n):
        move = np.int64(pos.root[0, i])
        loses = _refuted(at, move, vcf_depth, vct_depth, per_move) == 1
        if info[I_ABORT] != 0:
            break
        if not loses:
            pos.root[1, kept] = move  # scratch until the end
            kept += 1
    info[I_VCF_LIMIT] = 0
    if info[I_ABORT] != 0:
        return n
    if kept == 0:
        return 0
    for i in range(kept):
        pos.root[0, i] = pos.root[1, i]
        pos.root[1, i] = -INF
    info[I_ROOT_COUNT] = kept
    return kept


# The tasks Python asks for, all through one kernel, which calls the entry points.
_PREPARE_ROOT, _ROOT_THREATS, _DROP_LOSING, _SEARCH_ROOT, _VCF, _VCT, _REFUTED = range(7)
# The entry points, in the order of their addresses in info[I_ENTRIES:].
_ENTRIES = {"negamax": _negamax_body, "vcf": _vcf_body, "vct": _vct_body, "make": _make_body,
            "unmake": _unmake_body, "generate": _generate_body, "forbidden": _forbidden_body,
            "evaluate": _evaluate_body}


@kernel
def _root_task(pos, task, a, b, c, d):
    at = address_of(pos)
    if task == _SEARCH_ROOT:
        return _search_root(at, a, b, c, d)
    if task == _PREPARE_ROOT:
        return _prepare_root(at)
    if task == _ROOT_THREATS:
        return _root_threat_search(at, a, b)
    if task == _VCF:
        return _vcf(at, a, b, c, d)
    if task == _VCT:
        return _vct(at, a, b, c)
    if task == _REFUTED:
        return _refuted(at, a, b, c, d)
    return _drop_losing_root_moves(at, a, b, c)


def load_entry_points(*names: str) -> None:
    """Compile (or load from the cache) the named entry points ahead of use."""
    for name in names:
        entry_address(_ENTRIES[name])


def load_root_task() -> None:
    """Compile (or load from the cache) the kernel of the tasks below, without running it."""
    _root_task.compile((POSITION_TYPE, *[types.int64] * 5))


def _run(pos: Position, task: int, a: int = 0, b: int = 0, c: int = 0, d: int = 0) -> int:
    for slot, body in enumerate(_ENTRIES.values()):
        pos.info[I_ENTRIES + slot] = entry_address(body)
    return int(_root_task(pos, task, a, b, c, d))


def vcf(pos: Position, ply: int, depth_left: int, attacker: int, every_four: int) -> int:
    """Plies to the attacker's five by continuous fours, or 0 if none is found.

    ``attacker`` is the side to move, or the side that has just made a four (then the
    defender must block it). At ply 0 the winning first move is left in
    ``info[I_VCF_MOVE]``. With ``every_four`` 0 (the fast leaf search) fours that make
    nothing on another line are skipped.
    """
    return _run(pos, _VCF, ply, depth_left, attacker, every_four)


def vct(pos: Position, ply: int, depth_left: int, attacker: int) -> int:
    """Plies to the attacker's five by fours and threes, or 0 if none is found (at ply 0
    the winning first move is left in ``info[I_VCF_MOVE]``)."""
    return _run(pos, _VCT, ply, depth_left, attacker)


def prepare_root(pos: Position) -> int:
    """Fill the root move list (legal candidates, best-looking first); returns its length.

    Returns -1 if the side to move has a five to play (then it is the first root move).
    """
    return _run(pos, _PREPARE_ROOT)


def root_threat_search(pos: Position, vcf_depth: int, vct_depth: int) -> int:
    """Plies to a win for the side to move by continuous fours, else by fours and
    threes; 0 if neither is found. The winning first move is left in
    ``info[I_VCF_MOVE]``."""
    return _run(pos, _ROOT_THREATS, vcf_depth, vct_depth)


def search_root(pos: Position, depth: int, alpha: int, beta: int, skip: int) -> int:
    """Search the root moves from index ``skip`` on; the best one is moved to index ``skip``.

    Returns the best score (moves before ``skip`` are the earlier multi-PV lines).
    """
    return _run(pos, _SEARCH_ROOT, depth, alpha, beta, skip)


def drop_losing_root_moves(pos: Position, vcf_depth: int, vct_depth: int, budget: int) -> int:
    """If the opponent threatens a win by threats, drop the root moves that leave it standing.

    Only moves after which a win is actually found are dropped (such a find is a
    proven loss); if every move loses, all are kept. Returns the number of root
    moves left, or 0 when there is nothing to answer: no threat, or none that
    any move stops.
    """
    return _run(pos, _DROP_LOSING, vcf_depth, vct_depth, budget)


def refuted(pos: Position, move: int, vcf_depth: int, vct_depth: int, budget: int) -> bool:
    """Whether the opponent has a win by threats after the side to move plays ``move``
    (a cell index), found within ``budget`` nodes."""
    return _run(pos, _REFUTED, move, vcf_depth, vct_depth, budget) == 1
