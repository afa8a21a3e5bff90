"""Bit layout of the high-hand keys, as written by ``tables/generate.py``.

The loader checks these numbers against the ``layout`` section of the tables'
MANIFEST.json, so kernels and tables cannot drift apart.  Plain ints here;
the kernels convert them to the unsigned types they compute in.

Numba freezes these numbers into the compiled kernels and its cache is keyed
on the kernels' own source files: after changing them, delete the cached
``*.nbi``/``*.nbc`` files under ``evaluator/kernels/__pycache__``.
"""
CATEGORY_SHIFT = 12
KEY_MASK = (1 << 25) - 1
ROW_SHIFT = 12
OFFSET_SHIFT = 1
COL_MASK = (1 << ROW_SHIFT) - 1
SUIT_SHIFT = 32
HAND_INIT = 0x3333 << SUIT_SHIFT
FLUSH_BITS = 0x8888 << SUIT_SHIFT

LAYOUT = {
    "category_shift": CATEGORY_SHIFT,
    "key_mask": KEY_MASK,
    "row_shift": ROW_SHIFT,
    "offset_shift": OFFSET_SHIFT,
    "col_mask": COL_MASK,
    "suit_shift": SUIT_SHIFT,
    "hand_init": HAND_INIT,
    "flush_bits": FLUSH_BITS,
}

CATEGORIES = ("invalid", "high card", "pair", "two pair", "three of a kind", "straight",
              "flush", "full house", "four of a kind", "straight flush")

SHORT_DECK_CATEGORIES = ("invalid", "high card", "pair", "two pair", "three of a kind",
                         "straight", "full house", "flush", "four of a kind", "straight flush")

SHORT_DECK_TRIPS_CATEGORIES = ("invalid", "high card", "pair", "two pair", "straight",
                               "three of a kind", "full house", "flush", "four of a kind",
                               "straight flush")

TEEN_PATTI_CATEGORIES = ("invalid", "high card", "pair", "colour", "sequence", "pure sequence",
                         "trail")
