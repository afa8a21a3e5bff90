"""The fused multiway range sampler deals what the generic range sampler deals and counts
what ``tally_best5_deals`` counts on those deals, deal for deal (same state, same counts,
same state after), for ranged players, players dealt their unknown cards with the board,
weights, boards, dead cards, and player counts on both sides of the winners-by-mask limit."""
import numpy as np
import pytest

from evaluator import _tables, equity, parse_cards
from evaluator.engine.ranged import RangeSampler
from evaluator.errors import ArgumentTypeError, EvaluatorError
from evaluator.games import game
from evaluator.kernels import range_sampling
from evaluator.kernels import ranges as range_kernels
from evaluator.kernels.markers import dealer_marker, ndim_marker
from evaluator.ranges import Range

# each player: a range text, or ("known cards", cards dealt with the board)
SPOTS = [
    ("holdem", ["QQ+,AKs", ("", 2), ("", 2)], "", ""),
    ("holdem", ["QQ+,AKs", "22+,A2s+:0.5", ("", 2)], "2c7d9h", ""),
    ("holdem", [("As", 1), "QQ+", "AKs,AQs:0.3"], "2c7d9hTs", "Ad"),
    ("holdem", [("", 2), "JJ+", ("Kh", 1), "A2s+,KQo:0.25"], "", "2c"),
    ("short_deck", ["AA,KK", ("", 2), ("", 2), ("", 2)], "", ""),
    ("holdem", ["QQ+,AKs"] + [("", 2)] * 8, "", ""),            # nine-handed: counted by mask
    ("holdem", ["QQ+"] + [("", 2)] * 12, "", ""),               # thirteen: counted per player
    ("holdem", ["AA,KK", "AA,KK,QQ", "AKs"], "", ""),           # redeals
    ("holdem", [("As", 1), "QQ+", ("", 2)], "2c7d9hTs3h", ""),  # a river: no board card
    ("the", ["AAK,KKQ", ("", 3), ("Qs", 2)], "2c", "9h"),       # three hole cards
    ("holdem", ["AA,KK", "QQ+", "T9s,AQs"], "2c7d9hTs3h", ""),  # nothing to deal
    ("holdem", ["QQ+,AKs", ("", 2), ("AsKd", 0), ("", 2)], "2c7d9h", ""),  # a known hand
]


def _setup(name, players, board, dead):
    g = game(name)
    board_ids = np.array(parse_cards(board), np.uint8)
    dead_ids = np.array(parse_cards(dead), np.uint8)
    out = board_ids.tolist() + dead_ids.tolist()          # Python ints
    ranged = [p for p, spec in enumerate(players) if isinstance(spec, str)]
    dealt = [p for p in range(len(players)) if p not in ranged]
    out += [c for c in range(52) if c not in set(g.deck)]   # short deck: 2s to 5s out
    taken = 0
    for c in out:
        taken |= 1 << c
    fixed = {p: [int(c) for c in parse_cards(players[p][0])] for p in dealt}
    for cards in fixed.values():
        for c in cards:
            taken |= 1 << c
    rows, weights = [], []
    for p in ranged:
        alive = Range(players[p], game=name).live(np.array(out + [c for cs in fixed.values()
                                                                 for c in cs], np.uint8))
        rows.append(alive.combos)
        weights.append(alive.weights / alive.weights.max())
    sampler = RangeSampler(rows, weights, taken, [players[p] for p in ranged], seed=5)
    return g, board_ids, ranged, dealt, fixed, taken, sampler


@pytest.mark.parametrize("name, players, board, dead", SPOTS)
def test_the_fused_sampler_counts_what_the_generic_one_counts(name, players, board, dead):
    g, board_ids, ranged, dealt, fixed, taken, sampler = _setup(name, players, board, dead)
    assert not sampler.tuples
    P = len(players)
    hidden = np.array([players[p][1] if p in dealt else 0 for p in range(P)], np.int64)
    need = 5 - len(board_ids)
    tables = _tables.high(g.values)
    size = 3000                                   # about three blocks, the last one short
    seed_state = np.random.SeedSequence([7, 1]).generate_state(2, np.uint64)

    # generic: the cards dealt into arrays, the hands put together, then counted
    state = seed_state.copy()
    holes, new = sampler.deal(size, int(hidden.sum()) + need, state)
    hands = []
    column = 0
    for p in range(P):
        if p in ranged:
            hands.append(holes[ranged.index(p)])
            continue
        hand = np.empty((size, g.hole), np.uint8)
        known = len(fixed[p])
        hand[:, :known] = fixed[p]
        hand[:, known:] = new[:, column:column + hidden[p]]
        column += hidden[p]
        hands.append(hand)
    expected = np.zeros((P, P + 1), np.int64)
    range_kernels.tally_best5_deals(np.stack(hands), np.ascontiguousarray(new[:, column:]),
                                    board_ids, *tables, expected)

    # fused
    seats = np.full(P, -1, np.int64)
    for j, p in enumerate(ranged):
        seats[p] = j
    fixed_keys = np.zeros(P, np.uint64)
    fixed_masks = np.zeros(P, np.uint64)
    for p in dealt:
        for c in fixed[p]:
            fixed_keys[p] += tables.card_keys[c]
            fixed_masks[p] |= np.uint64(1 << c)
    fused_state = seed_state.copy()
    counts = np.zeros((P, P + 1), np.int64)
    done = range_sampling.best5_sample_ranges(
        sampler.combos, sampler.starts, sampler.cumulative, sampler.uniform, sampler.masks,
        sampler.taken, sampler.max_tries(size), fused_state, seats, fixed_keys, fixed_masks,
        hidden, dealer_marker(hidden), board_ids, need, size, *tables, counts)
    assert done >= 0
    np.testing.assert_array_equal(counts, expected)
    np.testing.assert_array_equal(fused_state, state)
    assert (counts[:, 1:].sum(axis=1) > 0).all()           # every player wins some deals
    # every deal has at least one winner, counted once per winner
    winners = np.arange(P + 1)
    assert (counts * 1.0 / np.maximum(winners, 1)).sum() == pytest.approx(size)


# the straight dealer's shapes: dealt players of two cards (0 to 5 of them: a unit of two,
# or a step's last card and the next step's first), boards of 5, 2, 1 or no cards
STRAIGHT_SPOTS = [
    ("holdem", ["AA,KK", "AA,KK,QQ", "AKs"], "", ""),
    ("holdem", ["QQ+,AKs", "22+,A2s+:0.5", ("", 2)], "", "3s"),
    ("holdem", ["QQ+,AKs", ("", 2), ("", 2)], "2c7d9h", ""),
    ("short_deck", ["AA,KK", ("", 2), ("", 2), ("", 2)], "", ""),
    ("holdem", ["JJ+", ("", 2), "AKs,KQo:0.25", ("", 2), ("", 2)], "2c7d9hTs", ""),
    ("holdem", ["QQ+,AKs", ("", 2), ("AsKd", 0), ("", 2)], "2c7d9hTs3h", ""),
]


@pytest.mark.parametrize("name, players, board, dead", STRAIGHT_SPOTS)
def test_the_straight_dealer_deals_what_the_unit_dealer_deals(name, players, board, dead):
    """The two dealers of the multiway sampler, on the same state: the same counts, the
    same state after, for every count of dealt players the straight one serves that a test
    compiles (each count is a kernel of its own: 0 to 3 here, 5 in the slow suite)."""
    g, board_ids, ranged, dealt, fixed, taken, sampler = _setup(name, players, board, dead)
    P = len(players)
    seats = np.full(P, -1, np.int64)
    for j, p in enumerate(ranged):
        seats[p] = j
    fixed_keys = np.zeros(P, np.uint64)
    fixed_masks = np.zeros(P, np.uint64)
    tables = _tables.high(g.values)
    for p in dealt:
        for c in fixed[p]:
            fixed_keys[p] += tables.card_keys[c]
            fixed_masks[p] |= np.uint64(1 << c)
    hidden = np.array([players[p][1] if p in dealt else 0 for p in range(P)], np.int64)
    straight = dealer_marker(hidden)
    assert straight.ndim == 2 + int((hidden > 0).sum())
    start = np.random.SeedSequence([9, 4]).generate_state(2, np.uint64)
    answers = []
    for dealer in (straight, ndim_marker(1)):
        state = start.copy()
        counts = np.zeros((P, P + 1), np.int64)
        done = range_sampling.best5_sample_ranges(
            sampler.combos, sampler.starts, sampler.cumulative, sampler.uniform,
            sampler.masks, sampler.taken, sampler.max_tries(5000), state, seats, fixed_keys,
            fixed_masks, hidden, dealer, board_ids, 5 - len(board_ids), 5000, *tables, counts)
        answers.append((done, counts, state))
    assert answers[0][0] == answers[1][0] >= 0
    np.testing.assert_array_equal(answers[0][1], answers[1][1])
    np.testing.assert_array_equal(answers[0][2], answers[1][2])
    assert (answers[0][1][:, 1:].sum(axis=1) > 0).all()


@pytest.mark.slow
@pytest.mark.parametrize("dealt", [4, 5])
def test_the_straight_dealer_serves_five_and_six_handed_tables(dealt):
    """Four and five dealt players (five the most the straight dealer takes; six are the
    unit dealer's): the same counts from both, through ``equity``."""
    from evaluator.kernels import markers
    hands = ["QQ+,AKs"] + ["random"] * dealt
    assert dealer_marker([0] + [2] * markers.STRAIGHT_DEALT).ndim > 1
    assert dealer_marker([0] + [2] * (markers.STRAIGHT_DEALT + 1)).ndim == 1
    straight = equity("holdem", hands, trials=100_000, seed=5, threads=1)
    original = markers.STRAIGHT_DEALT
    try:
        markers.STRAIGHT_DEALT = 0
        units = equity("holdem", hands, trials=100_000, seed=5, threads=1)
    finally:
        markers.STRAIGHT_DEALT = original
    assert straight.counts["hi_full"] == units.counts["hi_full"]


def test_the_dealer_marker_matches_the_hands():
    """A straight dealer marker for another count of dealt players, or for dealt players of
    one card, and more board cards than a board has are refused by the kernel, not dealt
    wrong (or, for a board count in the millions, looped on)."""
    g, board_ids, ranged, dealt, fixed, taken, sampler = _setup(
        "holdem", ["QQ+", ("", 2), ("", 2)], "", "")
    tables = _tables.high(g.values)
    seats = np.array([0, -1, -1], np.int64)
    zeros = np.zeros(3, np.uint64)
    for hidden, dealer in (([0, 2, 2], ndim_marker(3)), ([0, 1, 2], ndim_marker(4))):
        with pytest.raises(ValueError, match="straight dealer|dealer marker"):
            range_sampling.best5_sample_ranges(
                sampler.combos, sampler.starts, sampler.cumulative, sampler.uniform,
                sampler.masks, sampler.taken, 100, np.ones(2, np.uint64), seats, zeros, zeros,
                np.array(hidden, np.int64), dealer, board_ids, 5, 10, *tables,
                np.zeros((3, 4), np.int64))
    with pytest.raises(ValueError, match="board cards to deal outside"):
        range_sampling.best5_sample_ranges(
            sampler.combos, sampler.starts, sampler.cumulative, sampler.uniform, sampler.masks,
            sampler.taken, 100, np.ones(2, np.uint64), seats, zeros, zeros,
            np.array([0, 2, 2], np.int64), ndim_marker(4), board_ids, 1_000_000, 10, *tables,
            np.zeros((3, 4), np.int64))
    assert dealer_marker([0, 1, 2]).ndim == 1             # one card: the unit dealer
    assert dealer_marker([0, 3, 3]).ndim == 1             # three cards: the unit dealer
    assert dealer_marker([0, 2, 0]).ndim == 3             # a known hand is not dealt


def test_the_fused_sampler_stops_where_the_generic_one_does():
    """Past its budget of redeals, each returns -1 after the same number of steps."""
    g, board_ids, ranged, dealt, fixed, taken, sampler = _setup(
        "holdem", ["AA", "AA", ("", 2)], "", "")
    tables = _tables.high(g.values)
    start = np.random.SeedSequence([3]).generate_state(2, np.uint64)
    state = start.copy()
    holes = np.empty((2, 400, 2), np.uint8)
    new = np.empty((400, 7), np.uint8)
    generic = range_kernels.sample_range_deals(sampler.combos, sampler.starts,
                                               sampler.cumulative, sampler.uniform,
                                               sampler.masks, sampler.taken, 20, state, holes,
                                               new)
    fused_state = start.copy()
    counts = np.zeros((3, 4), np.int64)
    fused = range_sampling.best5_sample_ranges(
        sampler.combos, sampler.starts, sampler.cumulative, sampler.uniform, sampler.masks,
        sampler.taken, 20, fused_state, np.array([0, 1, -1], np.int64),
        np.zeros(3, np.uint64), np.zeros(3, np.uint64), np.array([0, 0, 2], np.int64),
        dealer_marker([0, 0, 2]), board_ids, 5, 400, *tables, counts)
    assert generic == fused == -1
    np.testing.assert_array_equal(fused_state, state)
    assert not counts.any()                     # nothing counted from a refused call


ENGINE_SPOTS = [("holdem", ["QQ+,AKs", "random", "random"], "", ""),
                ("holdem", ["AA,KK:0.3,AJs", "22+,A2s+:0.5", "KQo", "random"], "2c7d9h", ""),
                ("holdem", ["Ah?", "QQ+", "random", "T9s"], "2c7d9hTs", ""),
                ("short_deck", ["AA,KK", "random", "random"], "", ""),
                ("the", ["AAK,KKQ", "Qs??", "Jd??"], "2c", ""),    # two cards dealt of three
                # weights and dead cards beside four random hands (the straight dealer)
                ("holdem", ["AA,KK:0.3,AJs", "random", "random", "TT+:0.5", "random",
                            "random"], "", "Ah2d")]


@pytest.mark.parametrize("name, hands, board, dead", ENGINE_SPOTS)
def test_equity_through_the_fused_sampler_is_what_the_generic_path_gives(name, hands, board,
                                                                         dead, monkeypatch):
    """The engine's side of the fused sampler (which hands are ranged, which are dealt and
    with what): ``equity`` as it runs, and with the game's family told that it has no fused
    range kernels (the generic sampler deals the same cards, and the game's own tally, not
    ``tally_best5_deals``, counts them), give the same counts.  (Spots where no hand has a
    range of its own, such as "As?" against "random", go elsewhere without the fused
    kernels: ``test_range_monte_carlo_answers_are_unchanged`` holds one.)"""
    from evaluator import families
    fused = equity(name, hands, board, dead, trials=150_000, seed=3, threads=2)
    monkeypatch.setattr(type(families.family(game(name))), "ranged", lambda self, g: False)
    generic = equity(name, hands, board, dead, trials=150_000, seed=3, threads=2)
    assert fused.counts["hi_full"] == generic.counts["hi_full"]
    assert fused.samples == generic.samples == 150_000


def test_range_monte_carlo_answers_are_unchanged():
    """Seed 7's counts, recorded before boards were dealt two cards at a time and before the
    multiway sampler was fused (2026-12-04, 45969e1), on one thread and on two: the
    heads-up range kernel (its first stream, ``version=1``), the fused multiway one with
    ranges, dealt hands and a board (the same in both streams)."""
    recorded = {
        ("holdem", ("QQ+,AKs", "random"), "", 300_000): [[0, 238138, 2295], [0, 59567, 2295]],
        ("holdem", ("QQ+,AKs", "random", "random"), "", 200_000): [
            [0, 130760, 964, 674], [0, 33258, 1523, 674], [0, 33330, 1469, 674]],
        ("holdem", ("AA,KK:0.3,AJs", "22+,A2s+:0.5", "KQo"), "2c7d9h", 200_000): [
            [0, 112207, 2934, 0], [0, 67642, 2934, 0], [0, 17217, 0, 0]],
        ("holdem", ("As?", "Kd?", "random"), "", 200_000): [
            [0, 83001, 3630, 777], [0, 62158, 2119, 777], [0, 49190, 3999, 777]],
        ("short_deck", ("AA,KK", "random", "random"), "", 200_000): [
            [0, 105009, 1868, 1900], [0, 43845, 4377, 1900], [0, 43949, 4349, 1900]]}
    for (name, hands, board, trials), hi_full in recorded.items():
        for threads in (1, 2):
            result = equity(name, list(hands), board, trials=trials, seed=7, threads=threads,
                            version=1)
            assert result.counts["hi_full"] == hi_full, (name, hands, threads)
            if len(hands) > 2:
                result = equity(name, list(hands), board, trials=trials, seed=7,
                                threads=threads)
                assert result.counts["hi_full"] == hi_full, (name, hands, threads)


def test_heads_up_range_answers_are_unchanged():
    """Seed 7's counts from the heads-up range kernel's first stream (``version=1``),
    recorded before its deal table (2026-12-05, 3a52064), on one thread and on two:
    weights, a flop, a turn with a dead card, three hole cards, short deck and Pineapple."""
    recorded = {
        ("holdem", ("AA,KK:0.3,AJs", "22+,A2s+:0.5"), "2c7d9h", "", 200_000):
            [[0, 120272, 3190], [0, 76538, 3190]],
        ("holdem", ("QQ+,AKs", "random"), "2c7d9hTs", "Ad", 200_000):
            [[0, 146264, 314], [0, 53422, 314]],
        ("holdem", ("JJ+,AQs+", "random"), "2c7d9h", "", 200_000):
            [[0, 150646, 716], [0, 48638, 716]],
        ("the", ("AAK,KKQ", "random"), "2c7d", "", 100_000): [[0, 78087, 23], [0, 21890, 23]],
        ("short_deck", ("AA,KK", "random"), "", "", 200_000):
            [[0, 140144, 3604], [0, 56252, 3604]],
        ("pineapple", ("QQ+,AKs", "random"), "", "", 100_000): [[0, 79400, 738], [0, 19862, 738]]}
    assert_heads_up_counts(recorded, version=1)


def assert_heads_up_counts(recorded, version=None):
    """Each recorded spot's counts for seed 7 on one thread and on two, in the stream
    ``version`` (None: the default, which the result then names)."""
    for (name, hands, board, dead, trials), hi_full in recorded.items():
        for threads in (1, 2):
            result = equity(name, list(hands), board, dead, trials=trials, seed=7,
                            threads=threads, version=version)
            assert "deals from the ranges" in result.method
            assert result.counts["hi_full"] == hi_full, (name, hands, threads)
            assert result.version == (version or 2) and result.seed == 7


def test_heads_up_second_stream_answers():
    """Seed 7's counts from the heads-up range kernel's second stream (the default,
    ``version=2``: equal weights draw a deal's combos from what the deal before left of its
    board's step), recorded when it came (2026-12-05), on one thread and on two; where
    weights differ, or the combos and the board take more than ``CARRIED_BITS`` of a step
    (two random hands), the deals are the first stream's."""
    recorded = {
        ("holdem", ("QQ+,AKs", "random"), "", "", 300_000):
            [[0, 237696, 2290], [0, 60014, 2290]],
        ("holdem", ("QQ+,AKs", "random"), "2c7d9hTs", "Ad", 200_000):
            [[0, 146468, 350], [0, 53182, 350]],
        ("holdem", ("JJ+,AQs+", "random"), "2c7d9h", "", 200_000):
            [[0, 150688, 744], [0, 48568, 744]],
        ("holdem", ("AsKs", "random"), "", "", 200_000): [[0, 132373, 3279], [0, 64348, 3279]],
        ("the", ("AAK,KKQ", "random"), "2c7d", "", 100_000): [[0, 78052, 20], [0, 21928, 20]],
        ("short_deck", ("AA,KK", "random"), "", "", 200_000):
            [[0, 140132, 3622], [0, 56246, 3622]],
        ("pineapple", ("QQ+,AKs", "random"), "", "", 100_000): [[0, 79493, 724], [0, 19783, 724]],
        # the first stream's deals
        ("holdem", ("AA,KK:0.3,AJs", "22+,A2s+:0.5"), "2c7d9h", "", 200_000):
            [[0, 120272, 3190], [0, 76538, 3190]],
        ("holdem", ("random", "random"), "", "", 200_000): [[0, 95953, 8022], [0, 96025, 8022]],
        ("the", ("random", "random"), "", "", 100_000): [[0, 49310, 1105], [0, 49585, 1105]]}
    assert_heads_up_counts(recorded)


def test_which_draw_the_heads_up_sampler_compiles():
    """``combo_marker``: unequal weights search their cumulative weights (ndim 2); equal
    ones draw from the fraction the deal before left (3) in the second stream where the
    combos' and the board's outcomes fit in ``CARRIED_BITS`` bits, else from a step of
    their own (1), as the first stream always does."""
    from evaluator.kernels.markers import CARRIED_BITS, combo_marker
    assert combo_marker(False, [22, 1326], 48, 5, 2).ndim == 2
    assert combo_marker(True, [22, 1326], 48, 5, 2).ndim == 3       # 2**42.5 outcomes
    assert combo_marker(True, [22, 1326], 48, 5, 1).ndim == 1
    assert combo_marker(True, [1326, 1326], 48, 5, 2).ndim == 1     # 2**48.4
    assert combo_marker(True, [1326, 1326], 45, 2, 2).ndim == 3     # the flop: 2**31.7
    # the bound itself: 2**46 outcomes carried, one more not
    assert combo_marker(True, [1 << 40, 1], 64, 1, 2).ndim == 3
    assert combo_marker(True, [(1 << 40) + 1, 1], 64, 1, 2).ndim == 1
    assert CARRIED_BITS <= 46          # each outcome within 2**-18 of its share


@pytest.mark.parametrize("name, hands, board, dead", [
    ("holdem", ["QQ+,AKs", "random"], "", ""),
    ("holdem", ["T9s", "AA,KK"], "", ""),
    ("holdem", ["KQs,AJo", "77"], "Kd8s2c", ""),
    ("holdem", ["QQ+,AKs", "random"], "2c7d9hTs", "Ad"),
    ("short_deck", ["AA,KK", "random"], "", ""),
    ("the", ["AAK,KKQ", "random"], "2c7d", ""),
])
def test_the_second_stream_lands_on_the_exact_answer(name, hands, board, dead):
    """The second stream's heads-up deals, against the exact enumeration: every player
    within four standard errors."""
    exact = equity(name, hands, board, dead, exact=True)
    sampled = equity(name, hands, board, dead, trials=1_000_000, seed=12, threads=2)
    assert "deals from the ranges" in sampled.method and sampled.version == 2
    for e, s in zip(exact.players, sampled.players):
        assert abs(s.equity - e.equity) < 4 * s.stderr + 1e-9, (e.equity, s.equity, s.stderr)


@pytest.mark.parametrize("version", [0, 3, -1])
def test_a_stream_version_that_does_not_exist_is_refused(version):
    with pytest.raises(EvaluatorError, match=rf"version must be 1 or 2 .*got {version}"):
        equity("holdem", ["QQ+,AKs", "random"], trials=1000, seed=1, version=version)


@pytest.mark.parametrize("version", ["2", 2.0, True])
def test_a_stream_version_must_be_an_integer(version):
    with pytest.raises(ArgumentTypeError, match="version must be an integer"):
        equity("holdem", ["QQ+,AKs", "random"], trials=1000, seed=1, version=version)


def test_an_exact_answer_has_no_stream_version():
    assert equity("holdem", ["AsKs", "QhQd"], "2c7d9h").version is None
    assert equity("holdem", ["AsKs", "QhQd"], "2c7d9h", version=1).version is None
    sampled = equity("holdem", ["AsKs", "QhQd"], trials=1000, seed=3)
    assert sampled.version == 2 and sampled.to_dict()["version"] == 2


@pytest.mark.parametrize("hands, board, dead", [
    (["AA,KK:0.3,AJs", "QQ,JJ:0.5,T9s", "AKs,KQo:0.25"], "2c7d9h", "Ah"),
    (["AA,KK:0.3", "random", "QQ:0.5,76s"], "2c7d9hTs", "3d"),
])
def test_the_fused_sampler_lands_on_the_exact_answer(hands, board, dead):
    """Weighted ranges with dead cards, three-way, sampled through the fused kernel: every
    player within four standard errors of the exact enumeration."""
    exact = equity("holdem", hands, board, dead, exact=True)
    sampled = equity("holdem", hands, board, dead, trials=400_000, seed=11, threads=2)
    assert "deals from the ranges" in sampled.method
    for e, s in zip(exact.players, sampled.players):
        assert abs(s.equity - e.equity) < 4 * s.stderr + 1e-9, (e.equity, s.equity, s.stderr)


def test_generic_range_sampling_answers_are_unchanged():
    """Seed 11's counts on the generic range path (the sampler's arrays, then the game's
    tally, or ``tally_best5_deals`` for listed tuples), recorded before its hands and boards
    were put together by the row copier (2026-12-05, 9724a69), on one thread and on two:
    listed tuples beside a dealt hand with a board and a dead card, Omaha against a random
    hand and with a partial hand, and Tahoe."""
    recorded = {
        ("holdem", ("AsAh:1000000,KsKh:0.000001", "As2c:1000000,3c3d:0.000001", "random"),
         "2d7h9c", "Tc"): [[0, 72266, 90, 0], [0, 13473, 106, 0], [0, 14065, 196, 0]],
        ("omaha", ("AA**", "random"), "", ""): [[0, 65357, 677], [0, 33966, 677]],
        ("omaha", ("AA**:$ds", "KK**,QQ**", "Jh???", "random"), "2c7d9h", "3s"): [
            [0, 35025, 818, 12, 0], [0, 14565, 597, 13, 0], [0, 23571, 1620, 21, 0],
            [0, 24440, 1719, 20, 0]],
        ("tahoe", ("AAK", "random", "Qs??"), "", ""): [
            [0, 56511, 439, 181], [0, 21102, 1074, 181], [0, 20996, 907, 181]]}
    for (name, hands, board, dead), hi_full in recorded.items():
        for threads in (1, 2):
            result = equity(name, list(hands), board, dead, trials=100_000, seed=11,
                            threads=threads)
            assert "deals from the ranges" in result.method
            assert result.counts["hi_full"] == hi_full, (name, hands, threads)


@pytest.mark.parametrize("option, says", [
    ("version", "version must be 1 or 2 (the Monte Carlo stream), got a 5,001-digit number"),
    ("trials", "trials a 5,001-digit number is more than 1e+15"),
    ("threads", "threads must be between 1 and 1024, got a 5,001-digit number"),
])
def test_an_integer_too_long_to_print_is_refused_by_its_length(option, says):
    """Python refuses to write an int of more than 4,300 digits: the message says how many
    it has instead of failing to say it."""
    with pytest.raises(EvaluatorError) as refused:
        equity("holdem", ["QQ+,AKs", "random"], **{option: 10 ** 5000})
    assert str(refused.value).startswith(says)
