"""Exhaustive checks: every 5-card and every 7-card hand."""
from itertools import combinations

import enumeration
import numpy as np
import pytest
from numba import njit

from evaluator import evaluate_batch
from evaluator.kernels import vector

from reference import five_card_strength

SEVEN_CARD_COUNTS = {  # category index -> hands, out of 133,784,560
    9: 41_584, 8: 224_848, 7: 3_473_184, 6: 4_047_644, 5: 6_180_020,
    4: 6_461_620, 3: 31_433_400, 2: 58_627_800, 1: 23_294_460,
}
FIVE_CARD_COUNTS = {  # category index -> (hands, distinct values)
    9: (40, 10), 8: (624, 156), 7: (3_744, 156), 6: (5_108, 1_277), 5: (10_200, 10),
    4: (54_912, 858), 3: (123_552, 858), 2: (1_098_240, 2_860), 1: (1_302_540, 1_277),
}


@pytest.fixture(scope="module")
def all_fives():
    hands = np.array(list(combinations(range(52), 5)), np.uint8)
    return hands, evaluate_batch("holdem", hands)


def test_five_card_counts(all_fives):
    hands, values = all_fives
    assert len(hands) == 2_598_960
    assert np.unique(values).size == 7_462
    for category, (count, distinct) in FIVE_CARD_COUNTS.items():
        in_category = values[(values >> 12) == category]
        assert (in_category.size, np.unique(in_category).size) == (count, distinct)


@pytest.mark.slow
@pytest.mark.longest
def test_five_card_order_matches_reference(all_fives):
    """Every 5-card hand: equal values <=> equal reference strengths, same order."""
    hands, values = all_fives
    strength_of_value = {}
    for hand, value in zip(hands.tolist(), values.tolist()):
        strength = five_card_strength(hand)
        assert strength_of_value.setdefault(value, strength) == strength
    ordered = [strength_of_value[v] for v in sorted(strength_of_value)]
    assert ordered == sorted(ordered) and len(set(ordered)) == len(ordered)
    assert all(v >> 12 == s[0] + 1 for v, s in strength_of_value.items())


def test_seven_card_enumeration_counts(high_tables):
    hist = np.zeros((4, 10 << 12), np.int64)
    checksum = enumeration.enumerate7(hist, *high_tables)
    hist = hist.sum(axis=0)
    assert hist.sum() == 133_784_560
    assert checksum == int(hist @ np.arange(hist.size))
    assert enumeration.enumerate7(np.zeros((0, 10 << 12), np.int64), *high_tables) == checksum
    assert np.count_nonzero(hist) == 4_824
    for category, count in SEVEN_CARD_COUNTS.items():
        assert hist[category << 12:(category + 1) << 12].sum() == count


@njit(cache=True)
def _hands_starting_with(c0, out):
    """All 7-card hands whose lowest card is c0, in lexicographic order."""
    n = 0
    for c1 in range(c0 + 1, 47):
        for c2 in range(c1 + 1, 48):
            for c3 in range(c2 + 1, 49):
                for c4 in range(c3 + 1, 50):
                    for c5 in range(c4 + 1, 51):
                        for c6 in range(c5 + 1, 52):
                            out[n, 0] = c0
                            out[n, 1] = c1
                            out[n, 2] = c2
                            out[n, 3] = c3
                            out[n, 4] = c4
                            out[n, 5] = c5
                            out[n, 6] = c6
                            n += 1
    return n


@pytest.mark.slow
def test_seven_card_batch_paths_match_enumeration(high_tables):
    """All 133,784,560 hands through the array path: on every path this CPU runs
    (AVX-512, AVX2, scalar) each row gets the scalar kernel's value, and the values give
    the enumeration's histogram."""
    hist = np.zeros((4, 10 << 12), np.int64)
    enumeration.enumerate7(hist, *high_tables)
    expected = hist.sum(axis=0)
    buffer = np.empty((18_009_460, 7), np.uint8)    # C(51, 6) hands start with card 0
    kernels = {simd: vector.rows_kernel(7, tuple(high_tables), simd)
               for simd in vector.supported_paths()}
    values = {simd: np.empty(len(buffer), np.int32) for simd in kernels}
    counts = np.zeros_like(expected)
    for c0 in range(46):
        n = _hands_starting_with(c0, buffer)
        for simd, (kernel, lead, tables) in kernels.items():
            kernel(buffer[:n], *lead, values[simd][:n], *tables)
        scalar = values["scalar"][:n]
        for simd in kernels:
            assert np.array_equal(values[simd][:n], scalar), (simd, c0)
        counts += np.bincount(scalar, minlength=len(counts))
    assert np.array_equal(counts, expected)
    # the public call, on the path it picks
    assert np.array_equal(evaluate_batch("holdem", buffer[:n], validate=False), scalar)
