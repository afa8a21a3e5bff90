"""Low-level helpers Numba does not offer: an unaligned 8-byte load.

A 7-card row of a C-contiguous ``uint8`` array is read with one 64-bit load
instead of seven byte loads; the kernels take the bytes apart with shifts,
which the CPU does on its ALUs while the load ports serve the table lookups.
"""
import numpy as np
from llvmlite import ir
from numba.core import config, types
from numba.extending import intrinsic


@intrinsic
def load_u64(typingctx, array, offset):
    """The 8 bytes of a C-contiguous uint8 array starting at ``offset`` (little-endian).

    The caller guarantees ``offset + 8 <= array.size``.
    """
    signature = types.uint64(array, types.intp)

    def codegen(context, builder, sig, args):
        data = context.make_array(sig.args[0])(context, builder, args[0]).data
        pointer = builder.bitcast(builder.gep(data, [args[1]]), ir.IntType(64).as_pointer())
        return builder.load(pointer, align=1, typ=ir.IntType(64))

    return signature, codegen


if config.DISABLE_JIT:  # plain-Python run of the kernels (debugging, tests)
    def load_u64(array, offset):  # noqa: F811
        flat = array.reshape(-1)
        return np.uint64(int.from_bytes(flat[offset:offset + 8].tobytes(), "little"))
