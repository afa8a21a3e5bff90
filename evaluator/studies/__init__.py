"""The studies: many equity questions about one spot, each answered exactly where it can be.

============================  ==========================================================
``preflop_matrix``            the exact 169 x 169 hold'em matrix (``preflop.py``)
``hand_vs_range``             every class against a range (``preflop.py``)
``equity_distribution``       each combo's equity against a range (``distribution.py``)
``flop_study``                every flop, one row per suit class (``flops.py``)
``range_breakdown``           a range's made hands and draws on a board (``breakdown.py``)
``runout_study``              every card the next street can bring (``runouts.py``)
============================  ==========================================================
"""
from .breakdown import RangeBreakdown, range_breakdown
from .distribution import EquityDistribution, check_distribution, equity_distribution
from .flops import FlopStudy, flop_study, texture
from .preflop import PreflopMatrix, hand_vs_range, preflop_matrix
from .runouts import RunoutStudy, runout_study

__all__ = ["PreflopMatrix", "preflop_matrix", "hand_vs_range", "EquityDistribution",
           "equity_distribution", "check_distribution", "FlopStudy", "flop_study", "texture",
           "RangeBreakdown", "range_breakdown", "RunoutStudy", "runout_study"]
