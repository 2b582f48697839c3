"""Plain, non-atomic reference counts for the arrays the numba kernels pass around.

Every kernel call takes the engine's position, a tuple of twenty-odd arrays,
and numba counts a reference to each array on entry to and exit from each call
that is not inlined. With numba's atomic counts, those increments took more
than half of the search's time. Plain counts are safe in this process:
numba gives every call from Python fresh counts for its array arguments, and
no kernel hands an array to another thread while it runs.

The switch has to come before numba compiles or loads its first kernel; later
it changes nothing (the counts stay atomic, which is only slower).
"""

from __future__ import annotations

from llvmlite import ir
from numba.core.runtime import nrt, nrtdynmod


def _plain_increment(module: ir.Module, op: str, ordering: str) -> ir.Function:
    """numba's ``nrt_atomic_add``/``nrt_atomic_sub``, as a plain load, add and store
    returning the new count (which numba's decrement checks against zero). numba
    passes ``ordering`` by name; without atomics there is none to keep."""
    word = nrtdynmod._word_type
    function = ir.Function(module, ir.FunctionType(word, [word.as_pointer()]),
                           name=f"nrt_atomic_{op}")
    [count] = function.args
    builder = ir.IRBuilder(function.append_basic_block())
    new = getattr(builder, op)(builder.load(count), ir.Constant(word, 1))
    builder.store(new, count)
    builder.ret(new)
    return function


def use_plain_refcounts() -> bool:
    """Make numba's runtime count references without atomics; false if it is too late."""
    if nrt.rtsys._init:
        return False
    nrtdynmod._define_atomic_inc_dec = _plain_increment
    return True


def refcounts_are_plain() -> bool:
    """Whether the running numba runtime counts references without atomics."""
    from numba import njit

    @njit
    def touch() -> int:  # initialises the runtime if nothing has yet
        return 0

    touch()
    return "atomicrmw" not in nrt.rtsys.library.get_llvm_str()
