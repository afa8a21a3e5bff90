"""Pure Numba kernels over uint8 card arrays: no validation, no Python objects.

Each kernel takes its lookup tables as arguments and writes into an output
array the caller allocates.  They can be called from users' own ``@njit`` code.
"""
