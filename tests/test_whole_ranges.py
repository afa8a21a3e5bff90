"""Wide ranges that the generic sampler deals (Omaha, Tahoe, The) are drawn whole, a combo
holding a board, dead or known card dealt again (``RangeSampler.whole``), instead of their
live combos listed again for every query: the same law (checked against exact answers),
the same deals where nothing is out, the same answer on any number of threads, the listed
path where whole draws would fit too rarely, and the refusals of ranges with no live combo.
Also the flop study's suit symmetries, found by testing few renamings, against testing all.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from evaluator import Range, equity
from evaluator.cards import parse_cards
from evaluator.engine.sampler import WHOLE_COMBOS, RangeSampler
from evaluator.errors import NoDeal
from evaluator.listing import card_masks
from evaluator.studies.flops import _symmetries


@pytest.mark.parametrize("name, hands, board, dead", [
    ("omaha", ["10%", "40%"], "2c7d9hKsAd", ""),
    ("omaha", ["AhAdQdJd", "40%"], "2c7d9hKs8s", "3c"),       # a known hand beside
    ("omaha8", ["10%", "40%"], "2c7d9hKs4d", ""),
    ("tahoe", ["40%", "40%"], "2c7d9hKsAd", ""),
    ("omaha", ["AA**,KK**", "40%"], "AsAdKhKs2c", ""),       # most of the first hit the board
    ("omaha", ["AA**:0.5,KK**,QQ**:0.25", "40%"], "2c7d9hKs8s", "3c4d"),   # weights, dead
])
def test_whole_draws_land_on_the_exact_answer(name, hands, board, dead):
    exact = equity(name, hands, board, dead, exact=True)
    sampled = equity(name, hands, board, dead, trials=400_000, seed=5, threads=2)
    assert sampled.version == 2 and "deals from the ranges" in sampled.method
    for e, s in zip(exact.players, sampled.players):
        assert abs(s.equity - e.equity) < 4 * s.stderr + 1e-9, (e.equity, s.equity, s.stderr)


def test_three_hands_drawn_whole_land_near_the_listed_path():
    """Three players, one dealt with the board: the whole draws against the first
    stream's live lists (independent seeds), within four standard errors of the two."""
    hands = ["10%", "40%", "random"]
    whole = equity("omaha", hands, "2c7d9hKs", trials=1_000_000, seed=21, threads=2)
    listed = equity("omaha", hands, "2c7d9hKs", trials=1_000_000, seed=22, threads=2,
                    version=1)
    for a, b in zip(whole.players, listed.players):
        assert abs(a.equity - b.equity) < 4 * np.hypot(a.stderr, b.stderr)


def test_with_nothing_out_whole_draws_are_the_listed_draws():
    """Pre-flop every combo is live: the whole arrays are the listed ones, so the second
    stream deals what the first does, deal for deal."""
    for name in ("omaha", "omaha5"):
        two = equity(name, ["10%", "40%"], trials=50_000, seed=9)
        one = equity(name, ["10%", "40%"], trials=50_000, seed=9, version=1)
        assert two.counts == one.counts


def test_a_seed_deals_the_same_however_the_query_came_to_sample():
    """exact=False (the default deals) and trials= of as many deals: one seed, one answer,
    both drawn whole."""
    implied = equity("omaha", ["10%", "40%"], "2c7d9h", exact=False, seed=3)
    given = equity("omaha", ["10%", "40%"], "2c7d9h", trials=implied.samples, seed=3)
    assert implied.counts == given.counts


def test_a_range_clear_of_the_board_but_not_of_a_partial_hand_is_refused_by_name():
    """No known hand, but a hand dealt with the board holds the As, which every combo of
    the range holds."""
    with pytest.raises(NoDeal, match=r"hand 2 \('AsAh\*\*,AsAd\*\*'\) has no live combos "
                       "beside"):
        equity("omaha", ["40%", "AsAh**,AsAd**", "As???"], "2c7d9h", trials=10_000, seed=1)


def test_whole_draws_do_not_depend_on_threads():
    runs = [equity("omaha5", ["10%", "40%"], "2c7d9h", "Ks", trials=600_000, seed=4,
                   threads=t) for t in (1, 2)]
    assert runs[0].counts == runs[1].counts


def test_ranges_that_rarely_fit_whole_are_listed_live():
    """Almost every combo of AA**,KK** holds a card of the board: drawn whole, about one
    draw in ten would fit, so the sampler lists the live combos instead."""
    first, second = Range("AA**,KK**", "omaha"), Range("40%", "omaha")
    assert len(first) + len(second) >= WHOLE_COMBOS
    taken = int(card_masks(parse_cards("AsAdKhKs2c")[None, :])[0])
    assert RangeSampler.whole([first, second], taken, 1) is None
    assert RangeSampler.whole([second, second], taken, 1) is not None


@pytest.mark.parametrize("hands, board, says", [
    (["AA**", "40%"], "AsAdAh7c2d", "hand 1 ('AA**') has no live combos once the board"),
    (["40%", "AsAh**,AsAd**"], "2c7d9h", None),
])
def test_a_range_with_no_live_combo_is_refused_by_name(hands, board, says):
    if says is None:          # every combo holds the As, which a known hand holds
        with pytest.raises(NoDeal, match=r"hand 3 \('AsAh\*\*,AsAd\*\*'\) has no live "
                           "combos beside"):
            equity("omaha", [*hands[:1], "AsKdQcJc", hands[1]], board, trials=10_000,
                   seed=1)
        return
    with pytest.raises(NoDeal, match=says.replace("(", r"\(").replace(")", r"\)")
                       .replace("*", r"\*")):
        equity("omaha", hands, board, trials=10_000, seed=1)


def _every_symmetry(parsed, ranges, dead):
    """The renamings that keep every known hand, the dead cards and every range (weights
    included), each of the 24 tested."""
    keep = []
    for perm in itertools.permutations(range(4)):
        cards = np.array([4 * (c >> 2) + perm[c & 3] for c in range(52)], np.uint8)
        fixed = [h for h, r in zip(parsed, ranges) if r is None] + [dead]
        if any(set(cards[f].tolist()) != set(np.asarray(f).tolist()) for f in fixed):
            continue
        if all({frozenset(c): w for c, w in zip(r.combos.tolist(), r.weights.tolist())}
               == {frozenset(cards[c].tolist()): w
                   for c, w in zip(r.combos.tolist(), r.weights.tolist())}
               for r in ranges if r is not None):
            keep.append(bytes(cards))
    return sorted(keep)


@pytest.mark.parametrize("game, hands, dead", [
    ("holdem", ["AsKs", "QQ+"], ""),
    ("holdem", ["AKs", "KQs,AhAd"], ""),
    ("holdem", ["AA:0.5,KK", "random"], "2c"),
    ("holdem", ["AhKh,AdKd,AsKs,AcKc:0.5", "22"], ""),
    ("holdem", ["AhKh,AsKs", "QcQd,QhQs"], ""),
    ("omaha", ["AsKs**", "AA**"], ""),
    ("omaha", ["AcAd**,AhAs**", "KK**"], ""),
    ("omaha", ["AA**", "KhKd**,QQ**"], "2s"),
])
def test_the_symmetries_found_are_those_of_testing_every_renaming(game, hands, dead):
    parsed, ranges = [], []
    for h in hands:
        cards = None if "*" in h or "," in h or "+" in h or len(h) < 4 or h == "random" \
            else parse_cards(h)
        parsed.append(cards if cards is not None else np.empty(0, np.uint8))
        ranges.append(None if cards is not None or h == "random" else Range(h, game))
    dead_ids = parse_cards(dead)
    found = sorted(bytes(p) for p in _symmetries(parsed, ranges, dead_ids))
    assert found == _every_symmetry(parsed, ranges, dead_ids)
