"""The one place that sets Numba options.

Kernels are compiled lazily, cached on disk (``cache=True``) and release the
GIL (``nogil=True``) so the public API can run chunks on several threads.
No ``fastmath``: the kernels are integer code.
"""
from functools import partial

import numba

kernel = partial(numba.njit, cache=True, nogil=True)

# Small helpers called from hot loops.  Numba compiles each njit function
# separately and calls it through its full array-struct ABI; inlining at the
# Numba IR level turns the helper into a few instructions in the caller's loop.
inline = partial(numba.njit, cache=True, nogil=True, inline="always")

__all__ = ["kernel", "inline", "numba"]
