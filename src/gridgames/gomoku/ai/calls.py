"""Calls between the search's kernels through their addresses.

numba types a function again for every recursive call it finds, in every round of
its type inference, and optimises each kernel again inside every kernel that calls
it. For ``negamax``, ``vcf`` and ``vct``, which call themselves and each other,
and for the costly kernels they all call (``make``, ``unmake``, move generation,
the renju foul check, and the evaluation, which the search calls from five
places), that was most of the compile. So each of them is an entry
point: compiled once, on its own, as a C callable (``numba.cfunc``, kept in
numba's cache like any kernel), and called by the kernels through the addresses
kept in the position's info array
(:data:`~gridgames.gomoku.ai.position.I_ENTRIES`): the callee is a value at run
time, not code to type and optimise again.

Every entry point has the signature :data:`ENTRY_SIGNATURE`: a pointer to the
position and four integers, returning an integer. Passing the position's
twenty-two arrays by value would copy them at every call; an entry point reads
them through the pointer and hands the same pointer on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, cast

from llvmlite import ir
from numba import cfunc, types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic

from gridgames.gomoku.ai.position import POSITION_TYPE

POSITION_POINTER = types.CPointer(POSITION_TYPE)
ENTRY_SIGNATURE = types.int64(POSITION_POINTER, types.int64, types.int64, types.int64,
                              types.int64)
_ENTRY_OPTIONS: dict[str, Any] = {"cache": True, "error_model": "numpy", "_nrt": False}
_compiled: dict[Callable[..., int], Any] = {}
_lock = threading.Lock()


def entry_address(body: Callable[..., int]) -> int:
    """The address of ``body`` compiled as an entry point (compiled, or loaded from the
    cache, on first use)."""
    compiled = _compiled.get(body)
    if compiled is None:
        with _lock:
            compiled = _compiled.get(body)
            if compiled is None:
                compiled = _compiled[body] = cfunc(ENTRY_SIGNATURE, **_ENTRY_OPTIONS)(body)
    return cast(int, compiled.address)


@intrinsic
def _address_of(typingctx: Any, pos: types.Type) -> Any:
    if pos != POSITION_TYPE:
        raise TypingError(f"entry points take a position of type {POSITION_TYPE}, "
                          f"not {pos}")

    def codegen(context: Any, builder: ir.IRBuilder, sig: Any, args: Any) -> Any:
        slot = cgutils.alloca_once(builder, args[0].type)
        builder.store(args[0], slot)
        return builder.bitcast(slot, context.get_value_type(POSITION_POINTER))

    return POSITION_POINTER(pos), codegen


@intrinsic
def _call_at(typingctx: Any, address: types.Type, at: types.Type, a: types.Type,
             b: types.Type, c: types.Type, d: types.Type) -> Any:
    if at != POSITION_POINTER:
        raise TypingError(f"entry points take a pointer to a position, not {at}")
    for arg in (address, a, b, c, d):
        if not isinstance(arg, (types.Integer, types.Boolean)):
            raise TypingError(f"entry points take integers, not {arg}")
    signature = types.int64(types.int64, *ENTRY_SIGNATURE.args)

    def codegen(context: Any, builder: ir.IRBuilder, sig: Any, args: Any) -> Any:
        address, *arguments = args
        function = ir.FunctionType(context.get_value_type(types.int64),
                                   [argument.type for argument in arguments])
        callee = builder.inttoptr(address, function.as_pointer())
        return builder.call(callee, arguments)

    return signature, codegen


@intrinsic
def _prefetch_row(typingctx: Any, array: types.Type, row: types.Type) -> Any:
    if not (isinstance(array, types.Array) and array.ndim == 2 and array.layout == "C"
            and isinstance(row, types.Integer)):
        raise TypingError(f"prefetch_row takes a C-contiguous 2-d array and a row, "
                          f"not {array} and {row}")

    def codegen(context: Any, builder: ir.IRBuilder, sig: Any, args: Any) -> Any:
        array_type = sig.args[0]
        data = context.make_array(array_type)(context, builder, args[0])
        zero = ir.Constant(args[1].type, 0)
        item = cgutils.get_item_pointer(context, builder, array_type, data, [args[1], zero],
                                        wraparound=False)
        i8, i32 = ir.IntType(8), ir.IntType(32)
        pointer = builder.bitcast(item, i8.as_pointer())
        # the intrinsic is named after its pointer type: opaque (ptr) in newer LLVMs
        name = "llvm.prefetch.p0" if str(pointer.type) == "ptr" else "llvm.prefetch.p0i8"
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [pointer.type, i32, i32, i32]), name)
        # a read, kept in every cache level, of data
        builder.call(function, [pointer, ir.Constant(i32, 0), ir.Constant(i32, 3),
                                ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(array, row), codegen


#: ``prefetch_row(array, row)`` in a kernel: ask the processor to start loading a row of a
#: large table that is read soon after, so that the load overlaps other work.
prefetch_row: Callable[..., None] = _prefetch_row
#: ``address_of(pos)`` in a kernel: a pointer to the kernel's position, for entry points
#: (the position is copied once, to the kernel's stack).
address_of: Callable[..., Any] = _address_of
#: ``call_at(address, at, a, b, c, d)`` in a kernel: call the entry point at ``address``
#: with the pointer to the position and four integers.
call_at: Callable[..., int] = _call_at
