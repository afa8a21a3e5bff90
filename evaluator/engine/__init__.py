"""The equity engine: exact enumeration and Monte Carlo over each game's dealing rules.

Files, in the order they import each other:

- ``results.py``: ``PlayerEquity``, ``EquityResult`` and ``Counts``, the one counting layout.
- ``spots.py``: hands, board, dead cards and options checked into a spot (``check_query``).
- ``plan.py``: the cost model that chooses between enumerating and sampling.
- ``exact.py``: exact counts for known hands and for hands with unknown cards.
- ``sample.py``: the Monte Carlo driver, seeded per chunk.
- ``sampler.py``: ``RangeSampler``, which deals combos of ranges by weight (wide ranges drawn
  whole, from arrays prepared once).
- ``ranged.py``: equity where some hands are ranges (exact by suit classes, or sampled).
- ``api.py``: ``equity``, ``equity_by_street``, ``discard_equity``.

Where each game is computed: best-five games (hold'em, Pineapple, "The") and Tahoe use the
rank-multiset kernels (``kernels.multisets``) or walk their boards (``kernels.walks``);
Omaha and its hi-lo games use ``kernels.multisets.omaha_exact`` and
``kernels.walks.omaha_walk``; Teen Patti and other spots with unknown cards list their
deals and evaluate them with ``dispatch.batch_kernel``.  Sampling is in
``kernels.sampling``, ``kernels.walks.omaha_sample``, ``kernels.ranges`` and
``kernels.range_sampling``.
"""
from .api import discard_equity, equity, equity_by_street
from .results import EquityResult, PlayerEquity
from .spots import check_query

__all__ = ["equity", "equity_by_street", "discard_equity", "EquityResult", "PlayerEquity",
           "check_query"]
