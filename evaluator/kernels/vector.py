"""The batch evaluator for 5, 6 and 7 cards on vector registers (AVX-512 or AVX2).

The scalar kernel (``high.evaluate_rows``) spends its time on loads: seven card keys, the
row offset and the value for every hand.  Here ``LANES`` hands go through each step
together, and the card keys come from registers instead of memory:

* the rows of ``LANES`` hands are read with two vector loads and regrouped with byte
  shuffles, so that card ``j`` of every hand fills one 32-bit lane (its byte four times);
* a card's rank key is an in-register permute (``vpermd``) of the 13 rank bases, indexed
  by ``card >> 2``; its suit counter, ``1 << 4 * suit``, is a permute of a 16-entry table
  indexed by the card's low four bits (the rank part of the index is ignored);
* the two hash lookups (row offset, value) are scalar loads, a group's keys looked up
  while the next group's vector work runs (with two gathers a group instead, 7-card rows
  in L2 ran at 549 against 966 M rows/s on the project's Zen 5 machine).

The rank sum is the low 32 bits of the scalar kernel's key (its rank bases add without
touching the suit counters), so the lookups read the same slots.  Rows that make a flush
are listed, as in the scalar kernel, and mended after each block from their card mask and
the suit the vector stage found; a group of rows holding any byte past 51 (garbage under
``validate=False``) and the rows short of a group take the scalar kernel's own
arithmetic (``high.row_value``), so every path gives every row the same answer.

The instructions are reached through LLVM intrinsics (``@intrinsic`` below): each group
of rows is one inlined piece of IR in the kernel's loop.  The AVX-512 path uses
``vpermd`` over 16 lanes and a ``vpcompressd`` to list the flush rows; the AVX2 path
uses two 8-entry permutes and a blend for the rank bases.  ``path()`` picks one from
the CPU's features; the environment variable ``EVALUATOR_SIMD`` (``avx512``, ``avx2``,
``scalar``) forces one.
"""
from __future__ import annotations

import os
from functools import cache
from typing import Any

import numpy as np
from llvmlite import ir
from numba.core import config, types
from numba.core.errors import TypingError

from .. import _layout
from .._jit import kernel
from ..errors import EvaluatorError, TableError
from ._intrinsics import intrinsic, popcount, prefetch, suit_mask, target_features
from .high import (
    BLOCK,
    COL_MASK,
    OFFSET_SHIFT,
    ONE,
    ROW_SHIFT,
    U64,
    row_value,
)
from .markers import ndim_marker

__all__ = ["PATHS", "path", "supported_paths", "rank_bases", "rows_kernel", "SIMD_ENV"]

SIMD_ENV = "EVALUATOR_SIMD"
PATHS = ("avx512", "avx2", "scalar")
LANES = {"avx512": 16, "avx2": 8}
# what each path needs of the CPU (LLVM's feature names)
NEEDS = {"avx512": ("avx512f", "avx512bw", "avx512vl"), "avx2": ("avx2",), "scalar": ()}

_I8, _I16, _I32, _I64 = ir.IntType(8), ir.IntType(16), ir.IntType(32), ir.IntType(64)
_I1 = ir.IntType(1)
WHOLE_BIT = U64(30)
WHOLE = ONE << WHOLE_BIT        # a listed row the scalar code redoes whole (not just a flush)
AHEAD = U64(1024)               # rows between the group read and the group prefetched


@cache
def _host_features() -> frozenset[str]:
    """What Numba compiles for (``target_features``): a CPU with AVX-512 under
    ``NUMBA_ENABLE_AVX=0`` runs the scalar path."""
    return target_features()


def supported_paths() -> tuple[str, ...]:
    """The paths this CPU runs, fastest first (always ending with ``"scalar"``, the only
    one under ``NUMBA_DISABLE_JIT=1``)."""
    if config.DISABLE_JIT:  # type: ignore[attr-defined]  # set through globals()
        return ("scalar",)
    return _supported(_host_features())


@cache
def _supported(have: frozenset[str]) -> tuple[str, ...]:
    """The paths CPU features ``have`` run, found once (every small batch asks)."""
    return tuple(p for p in PATHS if all(f in have for f in NEEDS[p]))


def path() -> str:
    """The path the batch evaluator takes: ``EVALUATOR_SIMD`` when set, else the fastest
    this CPU supports (always ``"scalar"`` under ``NUMBA_DISABLE_JIT=1``)."""
    forced = os.environ.get(SIMD_ENV, "").strip().lower()
    if forced and forced not in PATHS:
        raise EvaluatorError(f"{SIMD_ENV}={forced!r} is not a path: expected one of "
                             f"{', '.join(PATHS)}", SIMD_ENV)
    if config.DISABLE_JIT:  # type: ignore[attr-defined]  # set through globals()
        return "scalar"
    if not forced:
        return supported_paths()[0]
    if forced not in supported_paths():
        lacking = ", ".join(f for f in NEEDS[forced] if f not in _host_features())
        raise EvaluatorError(f"{SIMD_ENV}={forced}: this CPU lacks {lacking} (it runs "
                             f"{', '.join(supported_paths())})", SIMD_ENV)
    return forced


_RANK_BASES: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def rank_bases(card_keys: np.ndarray) -> np.ndarray:
    """The 16-entry uint32 table of rank bases the vector kernels permute (13 ranks, then
    zeros): the low 32 bits of each rank's card key (kept per ``card_keys`` array)."""
    kept = _RANK_BASES.get(id(card_keys))
    if kept is not None and kept[0] is card_keys:
        return kept[1]
    table = np.zeros(16, np.uint32)
    table[:13] = (card_keys[0:52:4] & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    low = (card_keys[:52] & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    if not np.array_equal(low, table[np.arange(52) >> 2]):
        raise TableError("card_keys: the low 32 bits of a card's key depend on more than its "
                         "rank, which the vector kernels assume; rebuild the tables", "card_keys")
    table.setflags(write=False)
    _RANK_BASES[id(card_keys)] = (card_keys, table)
    return table


def rows_kernel(width: int, tables: tuple[np.ndarray, ...], simd: str | None = None,
                checked: bool = False) -> tuple[Any, tuple[Any, ...], tuple[np.ndarray, ...]]:
    """(kernel, leading arguments, table arguments) evaluating rows of ``width`` (5 to 7)
    cards with the high-hand ``tables``, on ``simd`` (default ``path()``).

    ``checked`` (vector paths only): the kernel also compares every pair of a row's cards
    (the group's bytes against themselves 1 .. width - 1 bytes on, as loaded for the
    evaluation) and returns how many groups of rows hold a repeated
    card or an id past 51 (0: every row is sound), so that a checked call needs no pass
    of its own over the rows (``high.check_rows`` then names the first bad one)."""
    from .high import evaluate_rows
    simd = path() if simd is None else simd
    if simd == "scalar":
        if checked:
            raise ValueError("the scalar path does not check its rows")
        return evaluate_rows, (ndim_marker(width),), tuple(tables)
    return (evaluate_rows_simd, (ndim_marker(width), ndim_marker(LANES[simd]),
                                 ndim_marker(2 if checked else 1)),
            (*tables, rank_bases(tables[0])))


def _function(builder, name, result, arguments):
    return builder.module.globals.get(name) or ir.Function(
        builder.module, ir.FunctionType(result, arguments), name)


def _splat(value, lanes, width=_I32):
    return ir.Constant(ir.VectorType(width, lanes), [value] * lanes)


def _data(context, builder, array_type, value):
    return context.make_array(array_type)(context, builder, value).data


def _group_codegen(lanes, k, check):
    """The IR of ``group_keys`` for ``lanes`` rows of ``k`` cards (``check``: a repeated
    card in a row flags the group as a byte past 51 does)."""
    span = lanes * k                        # bytes of the group's rows
    width = 4 * lanes                       # bytes of one vector register
    second = span - width                   # the second load, overlapping the first
    # the check reads from ``second - (k - 1)``: inside the group for 5 to 7 cards
    assert second >= k - 1 and 2 * width >= span, (lanes, k)
    vec = ir.VectorType(_I32, lanes)
    bytes_vec = ir.VectorType(_I8, width)

    def source(b):
        """Index of byte ``b`` of the rows in the two loaded vectors, concatenated."""
        return b if b < width else width + b - second

    def codegen(context, builder, sig, args):
        hands_t, _, _, _, _, out_t, suits_t, _, ranks_t = sig.args
        hands, row, _, _, _, out, suits, at, ranks = args
        data = _data(context, builder, hands_t, hands)
        start = builder.gep(data, [builder.mul(row, ir.Constant(_I64, k))])
        loads = []
        for offset in (0, second):
            pointer = builder.bitcast(builder.gep(start, [ir.Constant(_I64, offset)]),
                                      bytes_vec.as_pointer())
            loads.append(builder.load(pointer, align=1))
        # a byte past 51 anywhere in the group: every row is flagged for the scalar code
        garbage = builder.icmp_unsigned(">=", builder.select(
            builder.icmp_unsigned(">", loads[0], loads[1]), loads[0], loads[1]),
            ir.Constant(bytes_vec, [52] * width))
        garbage = builder.icmp_unsigned("!=", builder.bitcast(garbage, ir.IntType(width)),
                                        ir.Constant(ir.IntType(width), 0))

        rank_table = builder.load(builder.bitcast(_data(context, builder, ranks_t, ranks),
                                                  ir.VectorType(_I32, 16).as_pointer()), align=4)
        if lanes == 16:
            permute = _function(builder, "llvm.x86.avx512.permvar.si.512", vec, [vec, vec])

            def rank_key(index):
                return builder.call(permute, [rank_table, index])
        else:
            permute = _function(builder, "llvm.x86.avx2.permd", vec, [vec, vec])
            low8, high8 = (builder.shuffle_vector(rank_table, rank_table,
                                                  ir.Constant(vec, list(range(lo, lo + 8))))
                           for lo in (0, 8))

            def rank_key(index):
                upper = builder.icmp_unsigned("!=", builder.and_(index, _splat(8, lanes)),
                                              _splat(0, lanes))
                return builder.select(upper, builder.call(permute, [high8, index]),
                                      builder.call(permute, [low8, index]))
        # a card's suit counter, indexed by its low bits (the permute reads 4 or 3 of them)
        suit_table = ir.Constant(vec, [1 << 4 * (t & 3) for t in range(lanes)])

        rank_sum = _splat(0, lanes)
        suit_sum = _splat(0x3333, lanes)      # bit 3 of a counter sets at five cards
        cards = []
        for j in range(k):
            mask = [source(i * k + j) for i in range(lanes) for _ in range(4)]
            card = builder.bitcast(builder.shuffle_vector(
                loads[0], loads[1], ir.Constant(ir.VectorType(_I32, width), mask)), vec)
            cards.append(card)
            rank_sum = builder.add(rank_sum, rank_key(builder.lshr(card, _splat(2, lanes))))
            suit_sum = builder.add(suit_sum, builder.call(permute, [suit_table, card]))
        if check:
            # every pair of a row's cards compared in the bytes as they lie in memory: the
            # group's bytes against the same bytes ``d`` on, for d = 1 .. k - 1, a compare
            # of a register with an unaligned load for each of the two loads, the
            # positions where both bytes are one row's kept (12 compares for 7 cards,
            # where comparing the lanes of each pair of cards took 21 and mask ORs: a
            # checked call cost 1.25x an unchecked one on a Zen 4 against 1.54x)
            wide = ir.IntType(width)
            seen = ir.Constant(wide, 0)
            for d in range(1, k):
                # lane i pairs byte lower + i with byte lower + d + i: the first load's
                # bytes with those loaded d on, and the second load's with those d before
                for lower, begin, held in ((0, d, loads[0]),
                                           (second - d, second - d, loads[1])):
                    other = builder.load(builder.bitcast(builder.gep(
                        start, [ir.Constant(_I64, begin)]), bytes_vec.as_pointer()), align=1)
                    keep = sum(1 << i for i in range(width) if (lower + i) % k + d < k)
                    equal = builder.bitcast(builder.icmp_unsigned("==", held, other), wide)
                    seen = builder.or_(seen, builder.and_(equal, ir.Constant(wide, keep)))
            repeated = builder.icmp_unsigned("!=", seen, ir.Constant(wide, 0))
            garbage = builder.or_(garbage, repeated)
        h = builder.and_(rank_sum, _splat(_layout.KEY_MASK, lanes))
        target = builder.gep(_data(context, builder, out_t, out), [row])
        builder.store(h, builder.bitcast(target, vec.as_pointer()), align=4)
        # the flush suit of each row (one counter at most reaches five in seven cards):
        # bit 4 * suit of t, times 0x123, holds the suit in bits 12..13
        t = builder.lshr(builder.and_(suit_sum, _splat(0x8888, lanes)), _splat(3, lanes))
        suit = builder.and_(builder.lshr(builder.mul(t, _splat(0x123, lanes)),
                                         _splat(12, lanes)), _splat(3, lanes))
        target = builder.gep(_data(context, builder, suits_t, suits), [at])
        builder.store(suit, builder.bitcast(target, vec.as_pointer()), align=4)
        flush = builder.icmp_unsigned("!=", t, _splat(0, lanes))
        flushes = builder.zext(builder.bitcast(flush, ir.IntType(lanes)), _I64)
        return builder.select(garbage, _I64((1 << 32) | ((1 << lanes) - 1)), flushes)

    return codegen


def _contiguous(*arrays):
    """Refuse, at typing, arrays the IR would read or write past: it addresses them as
    flat C-contiguous memory."""
    for array in arrays:
        if not isinstance(array, types.Array) or array.layout != "C":
            raise TypingError(f"the vector kernels take C-contiguous arrays, not {array}")


@intrinsic
def group_keys(typingctx, hands, row, width, lanes, check, out, suits, at, ranks):
    """Rows ``row .. row + L`` of ``hands`` (``L = lanes.ndim``, 16 or 8; ``width.ndim``
    cards each): write each row's non-flush hash key (its rank sum, masked) to ``out``
    and its flush suit to ``suits[at ..]``; return a bit per row that makes a flush, or,
    when a byte of the group is past 51 (or, ``check.ndim == 2``, a row repeats a card),
    every row's bit and bit 32 (the rows are then redone by the scalar code).  ``ranks``
    is ``rank_bases(card_keys)``."""
    _contiguous(hands, out, suits, ranks)
    signature = types.uint64(hands, types.uint64, width, lanes, check, out, suits,
                             types.uint64, ranks)
    return signature, _group_codegen(lanes.ndim, width.ndim, check.ndim == 2)


@intrinsic
def list_rows(typingctx, listed, count, first, bits, lanes):
    """Append ``first + i`` for each set bit ``i`` of ``bits`` (``lanes.ndim`` bits) to
    ``listed`` (int32, with ``lanes.ndim`` entries of room past ``count``), in order, and
    return the new count: no branches (AVX-512 ``vpcompressd``; for 8 lanes a table of
    the 256 bit patterns' lane lists)."""
    _contiguous(listed)
    signature = types.uint64(listed, types.uint64, types.uint64, types.uint64, lanes)
    count_lanes = lanes.ndim
    vec = ir.VectorType(_I32, count_lanes)

    def codegen(context, builder, sig, args):
        array, count, first, bits, _ = args
        narrow = builder.trunc(bits, ir.IntType(count_lanes))
        one = builder.insert_element(ir.Constant(vec, None), builder.trunc(first, _I32), _I32(0))
        base = builder.shuffle_vector(one, one, ir.Constant(vec, [0] * count_lanes))
        if count_lanes == 16:
            numbers = builder.add(base, ir.Constant(vec, list(range(16))))
            compress = _function(builder, "llvm.x86.avx512.mask.compress.v16i32", vec,
                                 [vec, vec, ir.VectorType(_I1, 16)])
            packed = builder.call(compress, [numbers, ir.Constant(vec, [0] * 16),
                                             builder.bitcast(narrow, ir.VectorType(_I1, 16))])
        else:
            patterns = ir.ArrayType(_I64, 256)
            name = "evaluator_lane_lists8"
            table = builder.module.globals.get(name)
            if table is None:
                table = ir.GlobalVariable(builder.module, patterns, name)
                table.linkage = "internal"
                table.global_constant = True
                table.initializer = ir.Constant(patterns, [_lane_list(b) for b in range(256)])
            entry = builder.load(builder.gep(table, [_I32(0), builder.zext(narrow, _I64)]))
            lists = builder.zext(builder.bitcast(entry, ir.VectorType(_I8, 8)), vec)
            packed = builder.add(base, lists)
        target = builder.gep(_data(context, builder, sig.args[0], array), [count])
        builder.store(packed, builder.bitcast(target, vec.as_pointer()), align=4)
        ctpop = _function(builder, "llvm.ctpop.i64", _I64, [_I64])
        return builder.add(count, builder.call(ctpop, [bits]))

    return signature, codegen


@intrinsic
def prefetch_write(typingctx, array, offset):
    """Hint the cache line at byte ``offset`` of ``array`` into the cache, to be written."""
    signature = types.void(array, types.uint64)

    def codegen(context, builder, sig, args):
        data = builder.bitcast(_data(context, builder, sig.args[0], args[0]), _I8.as_pointer())
        function = _function(builder, "llvm.prefetch.p0i8", ir.VoidType(),
                             [_I8.as_pointer(), _I32, _I32, _I32])
        builder.call(function, [builder.gep(data, [args[1]]), _I32(1), _I32(3), _I32(1)])
        return context.get_dummy_value()

    return signature, codegen


def _lane_list(bits):
    """The set bits of the 8-bit ``bits``, lowest first, one per byte (little-endian)."""
    lanes = [i for i in range(8) if bits >> i & 1]
    return sum(lane << 8 * at for at, lane in enumerate(lanes))


@kernel
def evaluate_rows_simd(hands, width, lanes, check, out, card_keys, rank_offsets, rank_values,
                       flush_values, ranks):
    """``high.evaluate_rows`` on vector registers: ``lanes`` is ``ndim_marker(16)`` (AVX-512)
    or ``ndim_marker(8)`` (AVX2), ``ranks`` is ``rank_bases(card_keys)``.  Returns how many
    groups of rows (and rows short of a group) hold an id past 51 or, where ``check`` is
    ``ndim_marker(2)``, a repeated card (``check`` ``ndim_marker(1)``: repeats unchecked).

    Each block of rows goes through three steps: ``group_keys`` writes every row's hash
    key to ``out`` and lists the rows the scalar code must mend; a group's keys become
    values by scalar loads while the next group's vector work runs (two gathers a group
    measured 0.57x of that); the listed rows (flushes, groups holding garbage, the last
    rows short of a group) are then mended one by one.  Two cache lines of rows and one
    of ``out`` are prefetched ``AHEAD`` rows on (805 -> 1,080 M rows/s from memory).
    """
    k = width.ndim
    L = U64(lanes.ndim)
    n = U64(hands.shape[0])
    groups = n - n % L
    suspect = U64(0)
    listed = np.empty(BLOCK + 16, np.int32)        # rows to mend, from the block's start
    suits = np.empty(BLOCK, np.int32)              # each row's flush suit
    for start in range(U64(0), n, U64(BLOCK)):
        stop = min(n, start + U64(BLOCK))
        grouped = min(stop, groups)
        count = U64(0)
        for row in range(start, grouped, L):
            # the rows AHEAD groups on, both cache lines of a 7-card group: the hardware
            # prefetcher alone left a fifth of the time to waiting on memory
            ahead = (row + AHEAD) * U64(k)
            prefetch(hands, ahead)
            prefetch(hands, ahead + U64(64))
            prefetch_write(out, (row + AHEAD) * U64(4))
            bits = group_keys(hands, row, width, lanes, check, out, suits, row - start, ranks)
            suspect += bits >> U64(32)
            count = list_rows(listed, count, (row - start) | (bits >> U64(32) << WHOLE_BIT),
                              bits & U64(0xFFFFFFFF), lanes)
            # the previous group's keys to values: its loads overlap this group's vector work
            if row != start:
                for i in range(row - L, row):
                    h = U64(out[i])
                    out[i] = rank_values[(U64(rank_offsets[h >> ROW_SHIFT]) << OFFSET_SHIFT)
                                         + (h & COL_MASK)]
        if grouped > start:
            for i in range(grouped - L, grouped):
                h = U64(out[i])
                out[i] = rank_values[(U64(rank_offsets[h >> ROW_SHIFT]) << OFFSET_SHIFT)
                                     + (h & COL_MASK)]
        for i in range(grouped, stop):
            listed[count] = (i - start) | WHOLE
            count += ONE
            if check.ndim == 2:
                seen = U64(0)
                for j in range(k):
                    seen |= ONE << U64(hands[i, j] & 63)
                    suspect += U64(hands[i, j] >= 52)
                suspect += U64(popcount(seen) != U64(k))
        whole = U64(0)
        for f in range(count):
            entry = U64(listed[f])
            i = start + (entry & (WHOLE - ONE))
            if entry & WHOLE:
                listed[whole] = entry           # redone below (entries f >= whole are read)
                whole += ONE
                continue
            # a flush: the suit's ranks out of the row's card mask
            cards = U64(0)
            for j in range(k):
                cards |= ONE << U64(hands[i, j])
            out[i] = flush_values[suit_mask(cards, U64(suits[entry]))]
        # garbage and the last rows short of a group, in a loop of their own: sharing the
        # flush loop, the helper's reference counting cost that loop a fifth of its speed
        for f in range(whole):
            i = start + (U64(listed[f]) & (WHOLE - ONE))
            out[i] = row_value(hands, i, k, card_keys, rank_offsets, rank_values, flush_values)
    return suspect
