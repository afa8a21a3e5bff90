"""The batch evaluator's vector paths (AVX-512, AVX2) against the scalar kernel.

Every path this CPU runs gives every row the scalar kernel's value (all 133,784,560
seven-card hands: ``test_exhaustive.py``): random rows of 5, 6 and 7 cards, rows that
all make a flush, rows of one rank pattern in every suit, batch sizes around the 16- and
8-row groups, and garbage (ids past 51, duplicates) under ``validate=False``.
"""
import itertools
import os

import numpy as np
import pytest

from evaluator import EvaluatorError, _tables, evaluate_batch
from evaluator.kernels import vector

from conftest import random_hands

PATHS = vector.supported_paths()
VECTOR_PATHS = [p for p in PATHS if p != "scalar"]


def values(hands, simd, tables=None):
    """``hands`` evaluated on path ``simd`` with the high-hand ``tables`` (default: the
    ones ``evaluate_batch`` takes for the width)."""
    k = hands.shape[1]
    if tables is None:
        tables = _tables.high5() if k == 5 else _tables.high()
    kernel, lead, args = vector.rows_kernel(k, tuple(tables), simd)
    out = np.full(hands.shape[0], -1, np.int32)
    kernel(np.ascontiguousarray(hands), *lead, out, *args)
    return out


def test_the_machine_runs_the_scalar_path_and_picks_the_fastest():
    assert PATHS[-1] == "scalar"
    assert vector.path() == PATHS[0]


def _flush_rows(rng, n, k):
    """Rows of k cards, five or more of them (up to all k) of one suit."""
    rows = np.empty((n, k), np.uint8)
    for i in range(n):
        suit = rng.integers(4)
        suited = 4 * rng.choice(13, size=min(k, 5 + rng.integers(0, k - 4)), replace=False) + suit
        others = np.setdiff1d(np.arange(52), suited)
        rows[i] = rng.permutation(np.concatenate(
            [suited, rng.choice(others, size=k - suited.size, replace=False)]))
    return rows


def _one_rank_pattern(k):
    """The rank pattern 2 2 3 3 3 ... with every assignment of suits that keeps the cards
    distinct, rows in order."""
    ranks = [0, 0, 1, 1, 1, 2, 3][:k]
    rows = []
    for code in range(4 ** k):
        suits = [(code >> 2 * j) & 3 for j in range(k)]
        cards = [4 * r + s for r, s in zip(ranks, suits)]
        if len(set(cards)) == k:
            rows.append(cards)
    return np.array(rows, np.uint8)


@pytest.mark.parametrize("simd", VECTOR_PATHS)
@pytest.mark.parametrize("k", [5, 6, 7])
def test_random_and_adversarial_rows(simd, k, rng):
    suited = np.array([[4 * r + s for r in ranks] for s in range(4)
                       for ranks in ([12, 11, 10, 9, 8, 7, 6], [3, 2, 1, 0, 12, 5, 4])],
                      np.uint8)[:, :k]
    for hands in (random_hands(rng, 100_003, k), _flush_rows(rng, 2_000, k), suited,
                  _one_rank_pattern(k), random_hands(rng, 16 * 7 + 5, k)):
        assert np.array_equal(values(hands, simd), values(hands, "scalar"))


@pytest.mark.parametrize("simd", VECTOR_PATHS)
@pytest.mark.parametrize("k", [5, 6, 7])
def test_garbage_rows_get_the_scalar_value(simd, k, rng):
    """validate=False: ids past 51 and duplicates give the scalar kernel's (meaningless)
    value on every path, wherever the bad row sits in a group."""
    garbage = rng.integers(0, 256, size=(4_001, k), dtype=np.uint8)
    duplicates = rng.integers(0, 52, size=(4_001, k), dtype=np.uint8)
    mixed = random_hands(rng, 4_001, k)
    mixed[rng.integers(0, 4_001, 50), rng.integers(0, k, 50)] = 255
    same_card = np.full((37, k), 51, np.uint8)
    for hands in (garbage, duplicates, mixed, same_card):
        assert np.array_equal(values(hands, simd), values(hands, "scalar"))


@pytest.mark.parametrize("simd", VECTOR_PATHS)
@pytest.mark.parametrize("k", [5, 6, 7])
def test_the_checked_kernel_finds_every_bad_row(simd, k, rng):
    """The checked kernel (``evaluate_batch``'s default call) compares every pair of a
    row's cards (the group's bytes against themselves 1 .. k - 1 bytes on): sound rows
    count 0 and get the unchecked values; a
    repeat or an id past 51 anywhere (in a group or in the rows short of one) counts."""
    kernel, lead, args = vector.rows_kernel(k, tuple(_tables.high5() if k == 5 else
                                                     _tables.high()), simd, checked=True)

    def suspect(hands):
        out = np.full(len(hands), -1, np.int32)
        found = kernel(np.ascontiguousarray(hands), *lead, out, *args)
        return found, out

    for n in (1, 15, 16, 17, 4096 + 16 * 3 + 5):
        hands = random_hands(rng, n, k)
        found, out = suspect(hands)
        assert found == 0 and np.array_equal(out, values(hands, simd))
        for row in {0, n // 2, n - 1}:
            for j, m in itertools.combinations(range(k), 2):
                bad = hands.copy()
                bad[row, j] = bad[row, m]                       # every pair of columns
                assert suspect(bad)[0] > 0, (n, row, j, m)
            for card in (52, 63, 64, 128, 255):
                bad = hands.copy()
                bad[row, rng.integers(k)] = card
                assert suspect(bad)[0] > 0, (n, row, card)
    with pytest.raises(ValueError, match="scalar"):
        vector.rows_kernel(7, tuple(_tables.high()), "scalar", checked=True)



@pytest.mark.parametrize("simd", VECTOR_PATHS)
@pytest.mark.parametrize("k", [5, 6, 7])
def test_the_check_pairs_only_a_row_s_own_cards_in_every_lane(simd, k):
    """The checked kernel compares a group's bytes with the same bytes 1 .. k - 1 on, as
    they lie in memory, and keeps only the pairs inside one row: rows whose bytes equal
    the bytes d on across every row boundary (for each d in turn) count 0; a repeat in
    any lane of a group, for every pair of columns, counts."""
    kernel, lead, args = vector.rows_kernel(k, tuple(_tables.high5() if k == 5 else
                                                     _tables.high()), simd, checked=True)
    lanes = vector.LANES[simd]
    cards = np.array([0, 5, 10, 15, 20, 25, 30, 35][:k + 1], np.uint8)
    n = 4 * lanes
    out = np.empty(n, np.int32)
    for d in range(1, k):
        # each row the set rotated by k - d: a row's first cards repeat, d bytes on, the
        # last ones of the row before
        hands = np.stack([np.roll(cards, -r * (k - d))[:k] for r in range(n)])
        flat = hands.ravel()
        across = [b for b in range(len(flat) - d)
                  if b % k + d >= k and flat[b] == flat[b + d]]
        assert len(across) >= n - 1                     # the test means what it says
        assert kernel(hands, *lead, out, *args) == 0, d
        assert np.array_equal(out, values(hands, simd))
    for lane in range(lanes):
        for j, m in itertools.combinations(range(k), 2):
            bad = hands.copy()
            bad[lanes + lane, j] = bad[lanes + lane, m]
            assert kernel(bad, *lead, out, *args) == 1, (lane, j, m)


@pytest.mark.parametrize("threads", [1, 2])
def test_the_default_call_names_the_first_bad_row_on_any_thread_count(threads, rng):
    from evaluator import CardError
    hands = random_hands(rng, 100_000, 7)
    for rows in ([99_999], [70_000, 5], [16 * 100 + 3, 80_000]):
        bad = hands.copy()
        for row in rows:
            bad[row, 6] = bad[row, 2]
        first = min(rows)
        name = "duplicate card"
        with pytest.raises(CardError, match=rf"{name} .* in hands\[{first}\]"):
            evaluate_batch("holdem", bad, threads=threads)
    bad = hands.copy()
    bad[12_345, 3] = 77
    with pytest.raises(CardError, match=r"hands\[12345, 3\] = 77"):
        evaluate_batch("holdem", bad, threads=threads)


@pytest.mark.parametrize("simd", VECTOR_PATHS)
def test_every_ranking_and_batch_size(simd, rng):
    """Short deck rankings and the five-card hash; sizes around the groups and blocks."""
    for name in _tables.VALUE_TABLES:
        hands = random_hands(rng, 5_000, 7)
        tables = _tables.high(name)
        assert np.array_equal(values(hands, simd, tables), values(hands, "scalar", tables))
    for n in (1, 2, 7, 8, 15, 16, 17, 33, 4095, 4096, 4097, 4096 + 16 * 3 + 1):
        for k in (5, 6, 7):
            hands = random_hands(rng, n, k)
            assert np.array_equal(values(hands, simd), values(hands, "scalar"))


@pytest.mark.parametrize("simd", PATHS)
def test_forced_path_through_evaluate_batch(simd, monkeypatch, rng):
    hands = random_hands(rng, 50_000, 7)
    expected = values(hands, "scalar")
    monkeypatch.setenv(vector.SIMD_ENV, simd)
    assert vector.path() == simd
    assert np.array_equal(evaluate_batch("holdem", hands, threads=2), expected)
    garbage = rng.integers(0, 256, size=(50_001, 7), dtype=np.uint8)
    # the answer on garbage does not depend on the path or on how the rows are split
    one = evaluate_batch("holdem", garbage, validate=False, threads=1)
    assert np.array_equal(one, evaluate_batch("holdem", garbage, validate=False, threads=2))
    assert np.array_equal(one, values(garbage, "scalar"))


def test_a_bad_or_unsupported_path_is_refused(monkeypatch, rng):
    hands = random_hands(rng, 10, 7)
    monkeypatch.setenv(vector.SIMD_ENV, "avx9")
    with pytest.raises(EvaluatorError, match="EVALUATOR_SIMD='avx9' is not a path"):
        evaluate_batch("holdem", hands)
    monkeypatch.setenv(vector.SIMD_ENV, "avx512")
    monkeypatch.setattr(vector, "_host_features", lambda: frozenset({"avx2"}))
    with pytest.raises(EvaluatorError, match="this CPU lacks avx512f"):
        evaluate_batch("holdem", hands)
    monkeypatch.setenv(vector.SIMD_ENV, " Scalar ")
    assert vector.path() == "scalar"
    monkeypatch.delenv(vector.SIMD_ENV)
    assert vector.path() == "avx2"


def test_numba_s_target_decides_the_path(monkeypatch):
    """The features Numba compiles for, not the host's: NUMBA_ENABLE_AVX=0 (or a
    NUMBA_CPU_NAME without AVX) on an AVX-512 host runs the scalar path instead of
    stopping LLVM, and the process, on the first batch (before: exit 134)."""
    import subprocess
    import sys
    code = ("import numpy as np, evaluator\n"
            "from evaluator.kernels import vector\n"
            "h = np.array([evaluator.parse_cards('AsKsQsJsTs2d3c')] * 40, np.uint8)\n"
            "print(vector.path(), evaluator.evaluate_batch('holdem', h, threads=1)[0])")
    env = {k: v for k, v in os.environ.items()
           if k not in (vector.SIMD_ENV, "NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES")}
    env["NUMBA_ENABLE_AVX"] = "0"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["scalar", "36874"]


def test_no_jit_means_the_scalar_path(monkeypatch):
    from numba.core import config
    monkeypatch.setattr(config, "DISABLE_JIT", True, raising=False)
    assert vector.supported_paths() == ("scalar",) and vector.path() == "scalar"
    monkeypatch.setenv(vector.SIMD_ENV, "avx512")
    assert vector.path() == "scalar"


@pytest.mark.parametrize("simd", VECTOR_PATHS)
def test_the_vector_kernel_refuses_arrays_it_would_misread(simd, rng):
    """It addresses rows and outputs as flat memory: a strided ``out`` or a column slice
    of a wider array is refused at typing (evaluate_batch copies or checks them first)."""
    from numba.core.errors import TypingError
    wide = random_hands(rng, 64, 9)
    kernel, lead, args = vector.rows_kernel(7, tuple(_tables.high()), simd)
    with pytest.raises(TypingError, match="C-contiguous"):
        kernel(wide[:, :7], *lead, np.empty(64, np.int32), *args)
    with pytest.raises(TypingError, match="C-contiguous"):
        kernel(np.ascontiguousarray(wide[:, :7]), *lead, np.empty(128, np.int32)[::2], *args)
    assert np.array_equal(evaluate_batch("holdem", wide[:, :7], threads=1),
                          values(np.ascontiguousarray(wide[:, :7]), "scalar"))
