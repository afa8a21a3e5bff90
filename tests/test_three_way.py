"""Three ranges on the flop, turn or river, exact (``kernels.three_way``): every pair of
the two narrower ranges on every board, the widest counted against each pair at once."""
import importlib
import math
from itertools import combinations

import numpy as np
import pytest

from evaluator import Range, RangeError, equity, format_cards, parse_cards
from evaluator import game as evaluator_game

from reference import SHORT_DECK, hand_strength

ranged = importlib.import_module("evaluator.engine.ranged")
boards = importlib.import_module("evaluator.engine.boards")

SWEPT = "the third counted against each pair at once"


def brute_force_counts(game, texts, board, dead=""):
    """``hi_full`` and the deal weight by listing every tuple of combos and every runout,
    with the reference's strengths (weights as the ranges give them, largest 1)."""
    out = parse_cards(board + dead).tolist() if board + dead else []
    ranges = [Range(t, game).live(out) for t in texts]
    deck = SHORT_DECK if game == "short_deck" else range(52)
    live = [c for c in deck if c not in out]
    known = parse_cards(board).tolist()
    hi_full = np.zeros((3, 4))
    total = 0.0
    for runout in combinations(live, 5 - len(known)):
        full = known + list(runout)
        strengths = [{tuple(c): hand_strength(game, tuple(c), full)
                      for c in r.combos.tolist() if not set(c) & set(runout)} for r in ranges]
        for (a, wa) in zip(ranges[0].combos.tolist(), ranges[0].weights):
            if tuple(a) not in strengths[0]:
                continue
            for (b, wb) in zip(ranges[1].combos.tolist(), ranges[1].weights):
                if tuple(b) not in strengths[1] or set(a) & set(b):
                    continue
                for (c, wc) in zip(ranges[2].combos.tolist(), ranges[2].weights):
                    if tuple(c) not in strengths[2] or set(c) & (set(a) | set(b)):
                        continue
                    values = [strengths[0][tuple(a)], strengths[1][tuple(b)],
                              strengths[2][tuple(c)]]
                    winners = [p for p in range(3) if values[p] == max(values)]
                    w = wa * wb * wc
                    total += w
                    for p in winners:
                        hi_full[p, len(winners)] += w
    return hi_full, total


@pytest.mark.parametrize("game, texts, board, dead", [
    ("holdem", ["AA,KK:0.5,AKs", "QQ,JJ,AQs", "TT+,AJs+:0.25,KQs"], "2c7d9hKs4h", ""),
    ("holdem", ["AhKh,QQ", "JJ+:0.5", "AsKs,7c7h,9d8d,Th9h"], "2c7d9hKs", "Qc"),
    ("holdem", ["AA", "KK,QQ", "AK,AQs"], "Ac7h2d", "Kd"),
    ("short_deck", ["AA,KK:0.5", "QQ,AKs", "JJ+,AQs"], "6c7d9hKsTh", ""),
])
def test_three_ranges_match_brute_force(game, texts, board, dead):
    r = equity(game, texts, board, dead=dead)
    assert r.exact and SWEPT in r.method
    hi_full, total = brute_force_counts(game, texts, board, dead)
    assert r.counts["boards"] == pytest.approx(total, rel=1e-12)
    np.testing.assert_allclose(np.array(r.counts["hi_full"], float), hi_full, rtol=1e-12)


@pytest.mark.parametrize("game, texts, board, dead", [
    ("holdem", ["QQ+,AKs", "22+,A2s+", "KQs,QJs,JTs"], "2c7d9h", ""),
    ("holdem", ["AA,KK", "QQ,AKs", "JJ+,AQs+"], "2c7d9hTs", "Ad"),
    ("holdem", ["AA,KK:0.3,AJs", "22+:0.5,A2s+", "KQo,AsKd"], "2c7d9h", "Qc"),
    ("holdem", ["AsKs", "QhQd", "JcTc,9c9d:0.75"], "2c7d9h", ""),
    ("holdem", ["As?", "KK,QQ", "JJ,TT"], "2c7d9hTs", ""),
    ("short_deck", ["AA,KK", "QQ,AKs", "JJ+,AQs+"], "6c7d9h", ""),
    ("pineapple", ["AA,KK", "QQ,AKs", "JJ+,AQs+"], "2c7d9h", ""),
    ("crazy_pineapple", ["AA,KK:0.5", "QQ,AKs", "T9s,98s"], "2c7d9hTs", ""),
])
def test_three_ranges_match_the_listed_tuples(game, texts, board, dead, monkeypatch):
    swept = equity(game, texts, board, dead=dead, exact=True)
    assert swept.exact and SWEPT in swept.method
    # the other exact path: every tuple of combos listed, grouped by suit symmetry
    monkeypatch.setattr(boards, "three_way_seconds", lambda *args: math.inf)
    listed = equity(game, texts, board, dead=dead)
    assert listed.exact and "combo tuples" in listed.method
    assert swept.counts["weighted"] == listed.counts["weighted"]
    if swept.counts["weighted"]:
        assert swept.counts["boards"] == pytest.approx(listed.counts["boards"], rel=1e-12)
        np.testing.assert_allclose(swept.counts["hi_full"], listed.counts["hi_full"],
                                   rtol=1e-12)
    else:
        assert swept.counts == listed.counts
        assert swept.fractions == listed.fractions
    for a, b in zip(swept.players, listed.players):
        assert a.hand == b.hand


def test_three_ranges_on_a_flop_against_two_random_hands():
    r = equity("holdem", ["QQ+,AKs", "random", "random"], "2c7d9h", threads=2)
    assert r.exact and SWEPT in r.method
    # every deal once: 22 combos, then two hands and the turn and river from the rest
    assert r.counts["boards"] == 22 * math.comb(47, 2) * math.comb(45, 2) * math.comb(43, 2)
    assert r.counts["hi_full"][1] == r.counts["hi_full"][2]      # the two random hands
    assert sum(r.fractions) == 1
    one = equity("holdem", ["QQ+,AKs", "random", "random"], "2c7d9h", threads=1)
    assert one.counts == r.counts
    sampled = equity("holdem", ["QQ+,AKs", "random", "random"], "2c7d9h", trials=400_000,
                     seed=3)
    for e, s in zip(r.players, sampled.players):
        assert abs(e.equity - s.equity) < 4 * s.stderr


def test_float_weights_add_up_the_same_on_any_thread_count():
    hands = ["AA,KK:0.3,AJs", "22+:0.7,A2s+", "random"]
    one = equity("holdem", hands, "2c7d9h", exact=True, threads=1)
    two = equity("holdem", hands, "2c7d9h", exact=True, threads=2)
    assert one.counts["weighted"] and one.counts == two.counts


def test_player_order_does_not_matter():
    hands = ["random", "QQ+,AKs:0.5", "JJ,TT"]
    r = equity("holdem", hands, "2c7d9hTs")
    for perm in ((1, 2, 0), (2, 0, 1), (1, 0, 2)):
        other = equity("holdem", [hands[p] for p in perm], "2c7d9hTs")
        assert [other.players[perm.index(p)].equity for p in range(3)] == pytest.approx(
            [p.equity for p in r.players], abs=1e-15)


def test_ranges_that_never_fit_together_are_refused():
    with pytest.raises(RangeError, match="no deal fits"):
        equity("holdem", ["AA", "AA", "AA"], "2c7d9h")
    with pytest.raises(RangeError, match="no deal fits"):
        equity("holdem", ["AsKs", "AsQs,KsQs", "AA"], "2c7d9hTh", exact=True)


def test_non_dyadic_weights_that_never_fit_are_refused():
    # the swept weights are summed as integers: nothing fits, nothing is counted
    with pytest.raises(RangeError, match="no deal fits"):
        equity("holdem", ["AsAh,KsKh:0.3", "AsAd,KsKd:0.3", "AhAd,KhKd:0.3"], "2c7d9h")


@pytest.mark.parametrize("texts, board, dead", [
    (["AA:0.3,KK", "AA:0.7,JJ", "AA,TT,AKs:0.1"], "2c7d9h", "8c"),
    (["AA,KK:0.3", "QQ,JJ:0.7,AKs", "random"], "2c7d9hTs", ""),
    (["AA,KK", "QQ,JJ:0.3", "22+:1e-20,AKs"], "2c7d9hTs", ""),      # the widest too uneven
])
def test_float_weights_match_the_listed_tuples_and_never_go_negative(texts, board, dead,
                                                                      monkeypatch):
    swept = equity("holdem", texts, board, dead=dead, exact=True)
    assert SWEPT in swept.method and swept.counts["weighted"]
    assert min(min(row) for row in swept.counts["hi_full"]) >= 0
    monkeypatch.setattr(ranged, "three_way_by_boards", lambda *args: None)   # never walked
    listed = equity("holdem", texts, board, dead=dead, exact=True)
    assert "combo tuples" in listed.method
    np.testing.assert_allclose(swept.counts["hi_full"], listed.counts["hi_full"],
                               rtol=1e-12, atol=1e-12 * listed.counts["boards"])
    for a, b in zip(swept.players, listed.players):
        assert a.equity == pytest.approx(b.equity, abs=1e-13)


@pytest.mark.parametrize("texts, expect", [
    (["AhAd,KK:1e-20", "AhAd,QQ:1e-20", "AhAd,JJ:1e-20"], [1 / 3, 1 / 3, 1 / 3]),
    (["AhAd,KK:1e-17", "AhAd,QQ:1e-17", "AhAd,32o:1e-17"], [0.375, 0.375, 0.25]),
])
def test_weights_too_far_apart_to_sum_exactly_are_listed(texts, expect):
    """Every range's weights span more than 2**44: the walk declines them (its sums would
    round), and the listed tuples answer (one ace pair at most: the tiny combos decide)."""
    r = equity("holdem", texts, "2c7d9hTs4s")
    assert r.exact and "combo tuples" in r.method
    assert [p.equity for p in r.players] == pytest.approx(expect, abs=1e-12)


@pytest.mark.parametrize("texts, alone", [
    # the one tuple that fits weighs 1e-600 of the largest: no float, so the walk counts
    # nothing
    (["AsAh,KsKh:1e-300", "AsAd,KdKc:1e-300", "AhAd"], ["KsKh", "KdKc", "AhAd"]),
    # the one deal that fits weighs 1e-324 of the largest: a subnormal float, a few bits
    # of precision
    (["AsAh,KhQh:1e-162", "AsAd,JsTs:1e-162", "AhAd"], ["KhQh", "JsTs", "AhAd"]),
])
def test_deal_weights_below_full_float_precision_are_listed(texts, alone):
    """The walk hands such spots to the listed tuples, which rescale the weights: the
    answer is the one deal's."""
    r = equity("holdem", texts, "2c7d9h")
    only = equity("holdem", alone, "2c7d9h")
    assert "combo tuples" in r.method
    assert [p.equity for p in r.players] == pytest.approx([p.equity for p in only.players],
                                                          abs=1e-12)


def test_exact_none_estimates_the_ranges_actually_paired():
    # every hand, 32 at 1e-9: too uneven to sweep, so the two wide ranges are the pair and
    # QQ+ is swept, over a million pairs a board (13 s of work): sampled by default
    every = "22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32:1e-9"
    assert not equity("holdem", [every, every, "QQ+"], "2c7d9h", threads=1).exact
    assert boards.three_way_seconds([1176, 1176, 18], 1176) > 10


def test_exact_none_samples_three_random_hands_on_a_flop_on_any_thread_count():
    # about 13 s of work on one core: sampled unless asked for, however many threads
    for threads in (1, 8):
        r = equity("holdem", ["random"] * 3, "2c7d9h", threads=threads, trials=20_000, seed=1)
        assert not r.exact
        r = equity("holdem", ["random"] * 3, "2c7d9h", threads=threads)
        assert not r.exact


def _listed_counts(game, texts, board, dead):
    """``hi_full`` and the deal weight by broadcasting every tuple of combos on every
    runout, with values from ``evaluate_batch`` (checked exhaustively elsewhere)."""
    from evaluator import evaluate_batch
    g = evaluator_game(game)
    out = parse_cards(board + dead).tolist()
    ranges = [Range(t, game).live(out) for t in texts]
    known = parse_cards(board).tolist()
    live = [c for c in g.deck if c not in out]
    masks = [(np.uint64(1) << r.combos.astype(np.uint64)).sum(axis=1) for r in ranges]
    hi_full, total = np.zeros((3, 4)), 0.0
    for runout in combinations(live, 5 - len(known)):
        full = known + list(runout)
        values = []
        for r in ranges:
            holds = np.isin(r.combos, runout).any(axis=1)           # sits this runout out
            rows = np.hstack([r.combos[~holds],
                              np.tile(np.array(full, np.uint8), (int((~holds).sum()), 1))])
            v = np.full(len(r.combos), -1, np.int64)
            v[~holds] = evaluate_batch(game, rows)
            values.append(v)
        va, vb, vc = values[0][:, None, None], values[1][None, :, None], values[2][None, None]
        ma, mb, mc = masks[0][:, None, None], masks[1][None, :, None], masks[2][None, None]
        fits = ((ma & mb) == 0) & ((ma & mc) == 0) & ((mb & mc) == 0) \
            & (va >= 0) & (vb >= 0) & (vc >= 0)
        w = (ranges[0].weights[:, None, None] * ranges[1].weights[None, :, None]
             * ranges[2].weights[None, None]) * fits
        best = np.maximum(np.maximum(va, vb), vc)
        winners = (va == best).astype(int) + (vb == best) + (vc == best)
        for p, v in enumerate((va, vb, vc)):
            for k in (1, 2, 3):
                hi_full[p, k] += float((w * ((v == best) & (winners == k))).sum())
        total += float(w.sum())
    return hi_full, total


def test_random_overlapping_spots_match_every_tuple():
    """Forty seeded spots: three ranges drawn from a pool of 6-9 cards (so that combos share
    cards and tie often), weights of 1, dyadic or not, a turn or river, dead cards."""
    rng = np.random.default_rng(2026)
    checked = 0
    for _ in range(40):
        game = str(rng.choice(["holdem", "holdem", "short_deck", "pineapple"]))
        deck = list(evaluator_game(game).deck)
        street = int(rng.choice([4, 5, 5]))
        cards = [deck[i] for i in rng.permutation(len(deck))[:street + int(rng.integers(0, 3))]]
        board, dead = format_cards(cards[:street]), format_cards(cards[street:])
        rest = [c for c in deck if c not in cards]
        pool = sorted(rest[i] for i in rng.permutation(len(rest))[:int(rng.integers(6, 10))])
        pairs = list(combinations(pool, 2))
        weights = [[1.0], [1.0, 0.5, 0.25], [1.0, 0.3, 0.7, 0.05]][int(rng.integers(0, 3))]
        texts = []
        for _ in range(3):
            chosen = rng.permutation(len(pairs))[:int(rng.integers(1, 13))]
            texts.append(",".join(f"{format_cards(pairs[i])}:{rng.choice(weights)}"
                                  for i in chosen))
        try:
            r = equity(game, texts, board, dead=dead, exact=True)
        except RangeError as error:
            assert "no deal fits" in str(error) or "no live combos" in str(error)
            hi_full, total = _listed_counts(game, texts, board, dead) if "fits" in str(
                error) else (None, 0.0)
            assert total == 0
            continue
        assert SWEPT in r.method
        hi_full, total = _listed_counts(game, texts, board, dead)
        assert r.counts["boards"] == pytest.approx(total, rel=1e-12)
        np.testing.assert_allclose(np.array(r.counts["hi_full"], float), hi_full, rtol=1e-12,
                                   atol=1e-12 * total)
        checked += 1
    assert checked >= 25
