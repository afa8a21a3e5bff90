import doctest
import json
import os
import subprocess
import sys
from pathlib import Path

import enumeration
import numpy as np
import pytest
from numba import njit

import evaluator
from evaluator import (
    GAMES,
    CardError,
    GameError,
    HandError,
    evaluate,
    evaluate_batch,
    game,
    parse_cards,
)
from evaluator.errors import ArgumentTypeError

from conftest import random_hands


def run_cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "evaluator", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def test_games_registry():
    assert "holdem" in GAMES
    g = game("holdem")
    assert (g.hole, g.boards, g.streets) == (2, (3, 4, 5), (0, 3, 4, 5))
    assert game(g) is g and game("Hold'em") == g
    with pytest.raises(GameError, match="unknown game 'stud'"):
        game("stud")
    with pytest.raises(GameError, match="unknown option 'wild'"):
        game("holdem", wild=True)


def test_evaluate_value_object():
    hand = evaluate(game("holdem"), ["As", "Ks"], [43, 39, 35])
    assert (hand.value >> 12, hand.category, str(hand)) == (9, "straight flush", "royal flush")
    assert hand.to_dict()["best"] == ["As", "Ks", "Qs", "Js", "Ts"]
    assert evaluator.category_of(hand.value) == "straight flush"


@pytest.mark.parametrize("hole, board, error, match", [
    ("AsKsQs", "2c3c4c", HandError, "holdem takes 2 hole cards, got 3"),
    ("As", "2c3c4c", HandError, "takes 2 hole cards, got 1"),
    ("AsKs", "2c3c", HandError, "3, 4 or 5 board cards, got 2"),
    ("AsKs", "2c3c4c5c6c7c", HandError, "got 6"),
    ("AsKs", "", HandError, "got 0"),
    ("AsAs", "2c3c4c", CardError, "duplicate card 'As'"),
    ("AsKs", "As3c4c", CardError, "duplicate card 'As'"),
    ("AsKx", "2c3c4c", CardError, "unknown card 'Kx'"),
])
def test_evaluate_bad_input(hole, board, error, match):
    with pytest.raises(error, match=match):
        evaluate("holdem", hole, board)


def test_batch_bad_input():
    good = random_hands(np.random.default_rng(1), 10, 7)
    # a wrong type or dtype is a TypeError (was a HandError): nothing is converted silently
    with pytest.raises(ArgumentTypeError, match="hands must have dtype uint8, got int64"):
        evaluate_batch("holdem", good.astype(np.int64))
    with pytest.raises(HandError, match="shape"):
        evaluate_batch("holdem", good[:, :4])
    with pytest.raises(HandError, match="shape"):
        evaluate_batch("holdem", good[0])
    with pytest.raises(ArgumentTypeError, match="hands must be a NumPy uint8 array"):
        evaluate_batch("holdem", good.tolist())
    bad = good.copy()
    bad[3, 5] = 60
    with pytest.raises(CardError, match=r"hands\[3, 5\] = 60"):
        evaluate_batch("holdem", bad)
    bad = good.copy()
    bad[4, 6] = bad[4, 0]
    with pytest.raises(CardError, match=r"duplicate card .* in hands\[4\]"):
        evaluate_batch("holdem", bad)
    with pytest.raises(HandError, match="out must be"):
        evaluate_batch("holdem", good, out=np.empty(3, np.int32))
    with pytest.raises(ValueError, match="threads"):
        evaluate_batch("holdem", good, threads=0)


@pytest.mark.parametrize("hands", [
    [[51, 50, 49, 48, 47, 46, 45]],                                  # a list, not an array
    np.array([[51, 50, 49, 48, 47, 46, 45]], np.int64),
    np.array([[51, 50, 49, 48, 47, 46, 45]], np.float64),
    np.ones((1, 7), bool),
    np.array([[51, 50, 49, 48, 47, 46, 45]], np.int8),
])
def test_batch_wrong_type_or_dtype_is_a_type_error(hands):
    """A list or a non-uint8 array is a TypeError naming ``hands``, not a ValueError."""
    with pytest.raises(ArgumentTypeError, match="^hands must") as info:
        evaluate_batch("holdem", hands)
    assert not isinstance(info.value, ValueError)


@pytest.mark.parametrize("out, error, match", [
    ([0], ArgumentTypeError, "out must be a NumPy int32 array of shape \\(1,\\), got list"),
    (np.zeros(1, np.int64), ArgumentTypeError, "out must have dtype int32, got int64"),
    (np.zeros(1, np.float32), ArgumentTypeError, "out must have dtype int32"),
    (np.zeros(2, np.int32), HandError, "out must be .* shape \\(1,\\), got shape \\(2,\\)"),
    (np.zeros((1, 1), np.int32), HandError, "out must be"),
])
def test_batch_bad_out(out, error, match):
    """``out=[0]`` was an AttributeError; now a type error or a shape error naming ``out``."""
    hands = np.array([[51, 50, 49, 48, 47, 46, 45]], np.uint8)
    with pytest.raises(error, match=match):
        evaluate_batch("holdem", hands, out=out)


def test_batch_strided_out_is_refused():
    hands = np.array([[51, 50, 49, 48, 47, 46, 45]] * 2, np.uint8)
    with pytest.raises(HandError, match="contiguous"):
        evaluate_batch("holdem", hands, out=np.zeros(4, np.int32)[::2])


def test_batch_read_only_out_is_refused():
    hands = np.array([[51, 50, 49, 48, 47, 46, 45]], np.uint8)
    out = np.zeros(1, np.int32)
    out.flags.writeable = False
    with pytest.raises(HandError, match="writeable"):
        evaluate_batch("holdem", hands, out=out)
    good = np.zeros(1, np.int32)
    assert evaluate_batch("holdem", hands, out=good) is good and good[0] > 0


def test_no_board_message():
    with pytest.raises(HandError, match="^Teen Patti has no board: got 1 board card$"):
        evaluate("teen_patti", "AsKsQs", "2c")
    with pytest.raises(HandError, match="^Teen Patti has no board: got 2 board cards$"):
        evaluate("teen_patti", "AsKsQs", "2c3c")


def test_batch_matches_single_and_threads(rng):
    for k in (5, 6, 7):
        hands = random_hands(rng, 300_001, k)
        one = evaluate_batch("holdem", hands, threads=1)
        two = evaluate_batch("holdem", hands, threads=2)
        assert np.array_equal(one, two)
        for i in (0, 1, 150_000, 300_000):
            row = hands[i].tolist()
            assert one[i] == evaluate("holdem", row[:2], row[2:]).value


def test_batch_tiny_and_strided(rng):
    hands = random_hands(rng, 40, 7)
    full = evaluate_batch("holdem", hands)
    for n in range(4):
        assert np.array_equal(evaluate_batch("holdem", hands[:n].copy()), full[:n])
    assert np.array_equal(evaluate_batch("holdem", hands[::2]), full[::2])
    fortran = np.asfortranarray(hands)
    assert np.array_equal(evaluate_batch("holdem", fortran), full)


def test_kernels_callable_from_user_njit(high_tables):

    @njit
    def best_of(hands, tables):
        best = 0
        for i in range(hands.shape[0]):
            best = max(best, enumeration.evaluate_one(hands[i], *tables))
        return best

    hands = np.stack([parse_cards("AsKsQsJsTs2c3d"), parse_cards("2c3d4h5s7c8dTh")])
    assert best_of(hands, tuple(high_tables)) == evaluate("holdem", "AsKs", "QsJsTs").value


def test_python_path_without_jit(rng):
    """The kernels' logic, run as plain Python (NUMBA_DISABLE_JIT=1), agrees."""
    hands = random_hands(rng, 300, 7)
    expected = evaluate_batch("holdem", hands)
    code = ("import sys, json, numpy as np, evaluator;"
            "h = np.array(json.loads(sys.stdin.read()), np.uint8);"
            "print(json.dumps(evaluator.evaluate_batch('holdem', h).tolist()))")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run([sys.executable, "-c", code], input=json.dumps(hands.tolist()),
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected.tolist()


def test_import_and_single_evaluation_skip_numba():
    code = ("import sys, evaluator; a = 'numba' in sys.modules;"
            "evaluator.evaluate('holdem', 'AsKs', 'QsJsTs'); print(a, 'numba' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.split() == ["False", "False"], done.stderr


def test_cli_eval_and_json():
    done = run_cli("eval", "holdem", "9c9d", "4s Kh 9s 4d 4c", "--json")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    hand = evaluate("holdem", "9c9d", "4s Kh 9s 4d 4c")
    assert payload["value"] == hand.value and payload["name"] == str(hand)
    done = run_cli("eval", "holdem", "AsKs", "QsJsTs")
    assert done.returncode == 0 and done.stdout.startswith("royal flush")


@pytest.mark.parametrize("args, message", [
    (("eval", "stud", "AsKs", "QsJsTs"), "unknown game 'stud'"),
    (("eval", "holdem", "AsKx", "QsJsTs"), "unknown card 'Kx'"),
    (("eval", "holdem", "AsAs", "QsJsTs"), "duplicate card 'As'"),
    (("eval", "holdem", "AsKsQd", "QsJsTs"), "takes 2 hole cards"),
])
def test_cli_bad_input_is_one_line(args, message):
    done = run_cli(*args)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_cli_tables_verify():
    done = run_cli("tables", "verify")
    assert done.returncode == 0 and "match" in done.stdout


def _modules_with_examples() -> list[str]:
    """Every module of the package whose docstrings hold a ``>>>`` example."""
    root = Path(evaluator.__file__).parent
    names = []
    for path in sorted(root.rglob("*.py")):
        if ">>>" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(root.parent).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


@pytest.mark.parametrize("module", _modules_with_examples())
def test_docstring_examples(module):
    __import__(module)
    result = doctest.testmod(sys.modules[module], optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.slow
def test_cli_equity_json_matches_api():
    done = run_cli("equity", "omaha8", "Ah2h3sKs", "AdKdQcJc", "--board", "4c5d9s", "--json")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    api = evaluator.equity("omaha8", ["Ah2h3sKs", "AdKdQcJc"], "4c5d9s").to_dict()
    assert payload == json.loads(json.dumps(api))
    done = run_cli("equity", "holdem", "AsKs", "QhQd", "--board", "2c7d9h", "--trials", "5000",
                   "--seed", "3", "--csv")
    assert done.returncode == 0 and done.stdout.count("\n") == 3
    header, first, _ = done.stdout.splitlines()
    assert header.endswith(",method,seed,version") and first.endswith(",0x3,2")
    done = run_cli("equity", "holdem", "AsKs", "QhQd")
    assert done.returncode == 0 and "46.21%" in done.stdout


@pytest.mark.parametrize("args, message", [
    (("equity", "holdem", "AsKs", "AsQd"), "duplicate card 'As'"),
    (("equity", "holdem", "AsKs", "QdJd", "--board", "2c3c"), "not a street"),
    (("equity", "stud", "AsKs", "QdJd"), "unknown game"),
    (("equity", "holdem", "AsKs", "QdJd", "--threads", "0"), "threads must be"),
    (("equity", "holdem", "AsKs", "QdJd", "--trials", "-5"), "trials must be"),
])
def test_cli_equity_bad_input(args, message):
    done = run_cli(*args)
    assert done.returncode == 2 and message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_bit_selection_paths_agree():
    """The pdep path and the portable loop pick the same card."""
    import numpy as np
    from numba import njit

    from evaluator.kernels import _intrinsics as bits

    @njit
    def both(mask, k):
        return bits.select_bit_loop(mask, k), bits.trailing_zeros(bits.select_bit_loop(mask, k))

    rng = np.random.default_rng(4)
    for _ in range(200):
        mask = np.uint64(int(rng.integers(1, 1 << 52)))
        count = bin(int(mask)).count("1")
        k = int(rng.integers(count))
        expected = sorted(b for b in range(52) if (int(mask) >> b) & 1)[k]
        loop_bit, index = both(mask, k)
        assert int(loop_bit) == 1 << expected and int(index) == expected
        if bits.HAVE_PDEP:
            assert int(njit(lambda m, j: bits.select_bit_pdep(m, j))(mask, k)) == 1 << expected


def test_suit_mask_paths_agree_and_wide_product():
    """pext and the portable loop give the same rank mask of a suit; mul_wide is the
    exact 128-bit product, and chained draws from it stay in range."""
    import numpy as np
    from numba import njit

    from evaluator.kernels import _intrinsics as bits

    loop = njit(lambda cards, suit: bits.suit_mask_loop(cards, suit))
    fast = njit(lambda cards, suit: bits.suit_mask(cards, suit))
    wide = njit(lambda x, m: bits.mul_wide(x, m))
    rng = np.random.default_rng(5)
    for _ in range(200):
        cards = int(rng.integers(0, 1 << 52))
        suit = int(rng.integers(4))
        expected = sum(1 << r for r in range(13) if (cards >> (4 * r + suit)) & 1)
        assert int(loop(np.uint64(cards), suit)) == expected
        assert int(fast(np.uint64(cards), suit)) == expected
        x, m = int(rng.integers(0, 1 << 63)) * 2 + 1, int(rng.integers(1, 1 << 63))
        high, low = wide(np.uint64(x), np.uint64(m))
        assert (int(high) << 64) | int(low) == x * m
    # five positions from one 64-bit fraction: each below its range, and uniform in the
    # first draw to within the sampling error
    @njit
    def chained(fractions, out):
        for i in range(fractions.shape[0]):
            r = fractions[i]
            for j in range(5):
                pos, r = bits.mul_wide(r, np.uint64(48 - j))
                out[i, j] = pos

    positions = np.empty((48_000, 5), np.uint64)
    chained(rng.integers(0, 1 << 64, 48_000, dtype=np.uint64), positions)
    assert (positions < np.arange(48, 43, -1, dtype=np.uint64)).all()
    for j in range(5):
        counts = np.bincount(positions[:, j].astype(np.int64), minlength=48 - j)
        expected = 48_000 / (48 - j)
        assert abs(counts - expected).max() < 5 * expected ** 0.5


def test_two_cards_at_a_time_deal_what_one_at_a_time_deals():
    """``draw_two`` (one product, one deposit through ``pair_positions`` in the deal
    table) gives the same two cards, fraction and mask left as two ``draw_card`` calls,
    for every count of cards left, and its deposit agrees with the portable loop; a whole
    board by ``deal_board`` is the cards, keys, mask and fraction of ``need`` single
    draws: the Monte Carlo streams are the ones they were before pairs and the table."""
    from collections import Counter

    from numba import njit

    from evaluator import _tables
    from evaluator.kernels import _intrinsics as bits
    from evaluator.kernels import dealing

    card_keys = _tables.high().card_keys

    @njit
    def one_at_a_time(r, free, left):
        a, r, free, left = dealing.draw_card(r, free, left)
        b, r, free, left = dealing.draw_card(r, free, left)
        return (np.uint64(1) << a) | (np.uint64(1) << b), r, free

    @njit
    def two_at_a_time(r, free, table, count):
        return dealing.draw_two(r, free, table, dealing.TAB_FIRST, count)

    @njit
    def board_one_at_a_time(r, free, left, need, card_keys):
        key = np.uint64(0)
        for _ in range(need):
            c, r, free, left = dealing.draw_card(r, free, left)
            key += card_keys[c]
        return key, free, r

    @njit
    def board_by_table(r, free, need, table, first_count, second_count, last_left):
        return dealing.deal_board(r, free, need, table, first_count, second_count, last_left)

    loop = njit(lambda source, mask: bits.deposit_loop(source, mask))
    rng = np.random.default_rng(29)
    for left in range(2, 53):
        positions = dealing.pair_positions(left)
        assert positions.shape == (left * (left - 1),)
        assert all(bin(int(p)).count("1") == 2 and int(p) < 1 << left for p in positions)
        # every pair of positions twice (drawn in either order), so pairs are uniform
        assert set(Counter(positions.tolist()).values()) == {2}
        table, first_count, second_count = dealing.deal_table(card_keys, left, 0)
        assert first_count == len(positions)
        assert table[dealing.TAB_FIRST:dealing.TAB_FIRST + first_count].tolist() == \
            positions.tolist()
        for _ in range(40):
            cards = rng.permutation(52)[:left]
            free = np.uint64(sum(1 << int(c) for c in cards))
            r = np.uint64(int(rng.integers(0, 1 << 64, dtype=np.uint64)))
            assert two_at_a_time(r, free, table, first_count) == \
                one_at_a_time(r, free, np.uint64(left))
            for need in range(1, min(left, 5) + 1):
                last_left = np.uint64(left + 1 - need)
                assert board_by_table(r, free, need, table, first_count, second_count,
                                      last_left) == \
                    board_one_at_a_time(r, free, np.uint64(left), need, card_keys)
            source = np.uint64(int(rng.integers(0, 1 << left)))
            assert int(loop(source, free)) == int(bits.deposit(source, free))
    # the largest fractions too, where a product's carry would show
    table, first_count, _ = dealing.deal_table(card_keys, 48, 0)
    free = np.uint64((1 << 52) - 1 - 0xF0F)
    for r in (0, 1, (1 << 64) - 1, (1 << 63), (1 << 64) - 48 * 47):
        r = np.uint64(r)
        assert two_at_a_time(r, free, table, first_count) == \
            one_at_a_time(r, free, np.uint64(48))


def test_leading_zeros_finds_the_highest_card():
    """``leading_zeros`` (the higher card of a pair in ``pair_key``) against Python's
    ``bit_length`` on every single bit and random masks."""
    from numba import njit

    from evaluator.kernels import _intrinsics as bits

    count = njit(lambda x: bits.leading_zeros(x))
    rng = np.random.default_rng(7)
    masks = [1 << b for b in range(64)] + [int(x) | 1 for x in
                                           rng.integers(0, 1 << 63, 200, dtype=np.uint64)]
    for m in masks:
        assert int(count(np.uint64(m))) == 64 - m.bit_length()


@pytest.mark.parametrize("k", [3, 5, 7, 8, 9, 11])
def test_check_rows_finds_the_first_bad_row(k):
    """The block-wise check (one or two word loads per row) reports the same first bad
    card as a card-by-card search, for bad ids and duplicates anywhere in a row."""
    from evaluator.kernels import high
    from evaluator.kernels.markers import ndim_marker
    rng = np.random.default_rng(k)
    n = 9000                                   # more than two blocks
    hands = np.stack([rng.permutation(52)[:k] for _ in range(n)]).astype(np.uint8)
    width = ndim_marker(k)
    assert high.check_rows(hands, width) == (-1, -1)
    for trial in range(40):
        bad = hands.copy()
        row, col = int(rng.integers(n)), int(rng.integers(k))
        if trial % 2:
            bad[row, col] = bad[row, (col + 1 + int(rng.integers(k - 1))) % k]
        else:
            bad[row, col] = rng.choice([52, 63, 64, 127, 128, 255])
        assert high.check_rows(bad, width) == high._first_bad(bad, 0, n)
        assert high.check_rows(bad, width)[0] == row


def test_a_spot_a_batch_checked_is_handed_to_its_computing_once():
    """A batch checks every query, then computes it: the spot of known cards parsed and
    checked once is kept (``keep_spot``) and handed over once (``kept_spot``); a plain
    ``equity()`` keeps nothing; a bad spot is refused as before."""
    from evaluator.engine import spots
    g = evaluator.game("holdem")
    spots._KEPT.clear()                      # what earlier tests' batches left unasked
    assert spots.kept_spot(g, ["AsKs", "QhQd"], "2c7d9h", "") is None
    assert spots.keep_spot(g, ["AsKs", "QhQd"], "2c7d9h", "")
    got = spots.kept_spot(g, ["AsKs", "QhQd"], "2c7d9h", "")
    assert got[0][0].tolist() == [51, 47] and got[2].tolist() == [0, 21, 30]
    assert spots.kept_spot(g, ["AsKs", "QhQd"], "2c7d9h", "") is None   # handed over once
    assert not spots.keep_spot(g, ["QQ+", "random"], "", "")            # ranges: not kept
    with pytest.raises(evaluator.CardError, match="duplicate card 'As'"):
        spots.keep_spot(g, ["AsKs", "AsQd"], "", "")
    evaluator.equity("holdem", ["AsKs", "QhQd"], "2c7d9h")
    assert (g, ("AsKs", "QhQd"), "2c7d9h", "") not in spots._KEPT
    a = evaluator.equity("holdem", ["AsKs", "QhQd"], "2c7d9h")
    b = evaluator.batch_equity([{"hands": ["AsKs", "QhQd"], "board": "2c7d9h"}])[0]
    assert b["p1_equity"] == a.players[0].equity
    assert (g, ("AsKs", "QhQd"), "2c7d9h", "") not in spots._KEPT
