"""Low-level helpers Numba does not offer: an unaligned 8-byte load, bit selection
and extraction, and a 64 x 64 -> 128-bit product.

A 7-card row of a C-contiguous ``uint8`` array is read with one 64-bit load
instead of seven byte loads; the kernels take the bytes apart with shifts,
which the CPU does on its ALUs while the load ports serve the table lookups.
"""
from collections.abc import Callable
from typing import Any

import numpy as np
from llvmlite import binding, ir
from numba.core import config, types
from numba.extending import intrinsic as _numba_intrinsic

from .._jit import kernel

# Each intrinsic is typed ``Any``, like the ``@kernel`` functions: what calls it is Numba's
# typing, and under NUMBA_DISABLE_JIT=1 a plain-Python stand-in takes its name (below).
intrinsic: Callable[[Callable[..., Any]], Any] = _numba_intrinsic

def target_features() -> frozenset[str]:
    """The CPU features Numba compiles for: its target machine's, which follow the host
    unless ``NUMBA_CPU_NAME``, ``NUMBA_CPU_FEATURES`` or ``NUMBA_ENABLE_AVX=0`` say
    otherwise (an instruction outside them would stop LLVM, and the process, at compile
    time).  Empty when unknown: every kernel then takes its portable code."""
    try:
        from numba.core.registry import cpu_target
        text = cpu_target.target_context.codegen()._tm_features
    except Exception:  # noqa: BLE001 - another Numba's internals: ask LLVM for the host's
        try:
            return frozenset(f for f, on in binding.get_host_cpu_features().items() if on)
        except Exception:  # noqa: BLE001 - an unknown host
            return frozenset()
    return frozenset(f[1:] for f in str(text).split(",") if f.startswith("+"))


HAVE_PDEP = "bmi2" in target_features()


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


@intrinsic
def prefetch(typingctx, array, index):
    """Hint the cache line holding ``array.flat[index]`` into the cache (no effect on results)."""
    signature = types.void(array, types.uint64)

    def codegen(context, builder, sig, args):
        data = context.make_array(sig.args[0])(context, builder, args[0]).data
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        pointer = builder.bitcast(builder.gep(data, [args[1]]), i8p)
        function = _llvm_function(builder, "llvm.prefetch.p0i8", ir.VoidType(),
                                  [i8p, i32, i32, i32])
        builder.call(function, [pointer, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return signature, codegen


def _llvm_function(builder, name, result, arguments):
    return builder.module.globals.get(name) or ir.Function(
        builder.module, ir.FunctionType(result, arguments), name)


def _bmi2(operation):
    """An intrinsic for the BMI2 instruction ``operation`` ("pdep" or "pext") on two uint64."""
    def typer(typingctx, source, mask):
        signature = types.uint64(types.uint64, types.uint64)

        def codegen(context, builder, sig, args):
            i64 = ir.IntType(64)
            name = f"llvm.x86.bmi.{operation}.64"
            return builder.call(_llvm_function(builder, name, i64, [i64, i64]), args)

        return signature, codegen

    typer.__name__ = typer.__qualname__ = f"_{operation}"
    return intrinsic(typer)


_pdep = _bmi2("pdep")       # deposit the low bits of source at the set bits of mask
_pext = _bmi2("pext")       # gather the bits of source at the set bits of mask


def _zeros(count):
    """An intrinsic counting the zero bits of a non-zero uint64 below its lowest set bit
    (``count`` "cttz") or above its highest (``count`` "ctlz")."""
    def typer(typingctx, x):
        signature = types.uint64(types.uint64)

        def codegen(context, builder, sig, args):
            i64, i1 = ir.IntType(64), ir.IntType(1)
            return builder.call(_llvm_function(builder, f"llvm.{count}.i64", i64, [i64, i1]),
                                [args[0], i1(1)])      # 1: a zero input is undefined

        return signature, codegen

    typer.__name__ = typer.__qualname__ = f"_{count}"
    return intrinsic(typer)


# the index of the lowest set bit of a non-zero uint64
trailing_zeros = _zeros("cttz")
# 63 minus the index of its highest set bit: with ``trailing_zeros``, both cards of a
# two-card mask without clearing one
leading_zeros = _zeros("ctlz")


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a uint64."""
    signature = types.uint64(types.uint64)

    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        return builder.call(_llvm_function(builder, "llvm.ctpop.i64", i64, [i64]), args)

    return signature, codegen


@intrinsic
def mul_wide(typingctx, x, m):
    """The 128-bit product of two uint64 as (high 64 bits, low 64 bits).

    With ``x`` a uniform 64-bit fraction, the high part is a uniform position
    in 0 .. m - 1 and the low part is the fraction left over for the next
    draw: one generator step serves several small draws (each consumes about
    log2(m) bits; after five draws from a deck over 36 bits remain, so the
    bias stays below 1e-9).
    """
    signature = types.UniTuple(types.uint64, 2)(types.uint64, types.uint64)

    def codegen(context, builder, sig, args):
        i64, i128 = ir.IntType(64), ir.IntType(128)
        product = builder.mul(builder.zext(args[0], i128), builder.zext(args[1], i128))
        high = builder.trunc(builder.lshr(product, i128(64)), i64)
        low = builder.trunc(product, i64)
        return context.make_tuple(builder, sig.return_type, (high, low))

    return signature, codegen


RANK_LANE = np.uint64(0x1111111111111)      # bit 4 * rank of a 52-bit card mask


@kernel
def suit_mask_loop(cards, suit):
    """13-bit rank mask of suit ``suit`` in a 52-bit card mask (any CPU)."""
    mask = np.uint64(0)
    for rank in range(13):
        bit = np.uint64(4 * rank) + np.uint64(suit)      # all unsigned: no float promotion
        mask |= ((cards >> bit) & np.uint64(1)) << np.uint64(rank)
    return mask


@kernel
def suit_mask_pext(cards, suit):
    """``suit_mask_loop`` in one BMI2 ``pext`` (x86 with BMI2 only)."""
    return _pext(cards >> np.uint64(suit), RANK_LANE)


@kernel
def select_bit_loop(mask, k):
    """The k-th lowest set bit of ``mask`` (k from 0), as a one-bit mask (any CPU)."""
    for _ in range(k):
        mask &= mask - np.uint64(1)
    return mask & (~mask + np.uint64(1))


@kernel
def select_bit_pdep(mask, k):
    """``select_bit_loop`` in one BMI2 ``pdep`` (x86 with BMI2 only)."""
    return _pdep(np.uint64(1) << np.uint64(k), mask)


@kernel
def deposit_loop(source, mask):
    """The low bits of ``source`` placed, in order, at the set bits of ``mask`` (any CPU):
    bit i of ``source`` goes to the i-th lowest set bit of ``mask``."""
    out = np.uint64(0)
    while source:
        k = source & (~source + np.uint64(1))         # lowest set bit of source
        out |= select_bit_loop(mask, trailing_zeros(k))
        source ^= k
    return out


@kernel
def deposit_pdep(source, mask):
    """``deposit_loop`` in one BMI2 ``pdep`` (x86 with BMI2 only)."""
    return _pdep(source, mask)


# Drawing a card uniformly from a 52-bit mask of the cards left then needs no
# redraws and no branches.
select_bit = select_bit_pdep if HAVE_PDEP else select_bit_loop
deposit = deposit_pdep if HAVE_PDEP else deposit_loop
suit_mask = suit_mask_pext if HAVE_PDEP else suit_mask_loop


# DISABLE_JIT is set through globals() in numba.core.config, unseen by its annotations
if config.DISABLE_JIT:  # type: ignore[attr-defined]  # plain-Python run of the kernels
    def select_bit(mask, k):  # noqa: F811
        bits = [b for b in range(64) if (int(mask) >> b) & 1]
        return np.uint64(1 << bits[int(k)])

    def deposit(source, mask):  # noqa: F811
        bits = [b for b in range(64) if (int(mask) >> b) & 1]
        return np.uint64(sum(1 << bits[i] for i in range(64) if (int(source) >> i) & 1))

    def trailing_zeros(x):  # noqa: F811
        x = int(x)
        return np.uint64((x & -x).bit_length() - 1)

    def leading_zeros(x):  # noqa: F811
        return np.uint64(64 - int(x).bit_length())

    def mul_wide(x, m):  # noqa: F811
        product = int(x) * int(m)
        return np.uint64(product >> 64), np.uint64(product & ((1 << 64) - 1))

    suit_mask = suit_mask_loop  # noqa: F811

    def prefetch(array, index):  # noqa: F811
        return None

    def popcount(x):  # noqa: F811
        return np.uint64(bin(int(x)).count("1"))

    def load_u64(array, offset):  # noqa: F811
        flat = array.reshape(-1)
        return np.uint64(int.from_bytes(flat[offset:offset + 8].tobytes(), "little"))
