"""Short deck (36 cards), Big O (5-card Omaha hi-lo) and 6-card Omaha hi-lo, through every
layer, against the slow reference of ``tests/reference.py``."""
from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest

import evaluator
from evaluator import Range, equity, evaluate, evaluate_batch, game
from evaluator.cards import parse_cards
from evaluator.errors import CardError, HandError, RangeError

import reference

SHORT = reference.SHORT_DECK

# every 5-card and 7-card short-deck hand by category: the package's counts, checked
# against the reference (its own evaluator for 5 cards, a direct classification from rank
# and suit counts for 7); the 5-card ones also follow from counting by hand, e.g. flushes
# C(9, 5) * 4 - 24 = 480, straights 6 * 4**5 - 24 = 6,120
SHORT_FIVE = Counter({"high card": 122_400, "pair": 193_536, "two pair": 36_288,
                      "three of a kind": 16_128, "straight": 6_120, "full house": 1_728,
                      "flush": 480, "four of a kind": 288, "straight flush": 24})
SEVEN_CARD_COUNTS = Counter({"high card": 233_100, "pair": 2_316_600, "two pair": 3_157_056,
                             "three of a kind": 607_200, "straight": 1_169_940,
                             "full house": 633_024, "flush": 175_560, "four of a kind": 44_640,
                             "straight flush": 10_560})


def _all_hands(k: int) -> np.ndarray:
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(SHORT, k)),
                       np.uint8)
    return flat.reshape(-1, k)


@pytest.fixture(scope="module")
def five_card_hands() -> np.ndarray:
    return _all_hands(5)


@pytest.mark.parametrize("trips", [False, True])
@pytest.mark.slow
def test_every_five_card_hand_orders_as_the_reference(five_card_hands, trips):
    """All 376,992 hands: the same category, and values in the reference's order."""
    g = game("short_deck", trips_beat_straight=trips)
    values = evaluate_batch(g, five_card_hands)
    strengths = [reference.short_five_card_strength(h, trips) for h in five_card_hands.tolist()]
    names = [g.categories[v >> 12] for v in values.tolist()]
    assert names == [reference.short_deck_category(s, trips) for s in strengths]
    # one value per strength, and the same order
    pairs = sorted(set(zip(values.tolist(), strengths)))
    assert [s for _, s in pairs] == sorted(s for _, s in pairs)
    assert len({v for v, _ in pairs}) == len({s for _, s in pairs}) == len(pairs)
    counts = Counter(names)
    assert sum(counts.values()) == 376_992
    if not trips:
        assert counts == SHORT_FIVE, counts


@pytest.mark.slow
def test_every_seven_card_hand_by_category():
    """All 8,347,680 seven-card hands: the package's categories against the reference's
    direct classification."""
    hands = _all_hands(7)
    g = game("short_deck")
    values = evaluate_batch(g, hands)
    ours = Counter(dict(zip(g.categories,
                            np.bincount(values >> 12, minlength=len(g.categories)).tolist())))
    del ours["invalid"]
    ours = +ours
    theirs = reference.short_deck_categories_7(hands)
    assert ours == theirs
    assert sum(ours.values()) == 8_347_680
    assert ours == SEVEN_CARD_COUNTS, ours



@pytest.mark.parametrize("hole, board, name", [
    ("As6d", "7c8h9s", "straight, nine high"),                 # A-6-7-8-9, the lowest straight
    ("Ah6h", "7h8h9h", "straight flush, nine high"),
    ("AsKs", "QsJsTs", "royal flush"),
    ("6s6d", "6hAsAd", "full house, sixes full of aces"),
    ("AsKs", "Qs9s6s", "flush, ace high"),
])
def test_hand_names(hole, board, name):
    assert evaluate("short_deck", hole, board).name == name


def test_edge_cases_of_the_ranking():
    g, trips = game("short_deck"), game("short_deck", trips_beat_straight=True)

    def v(h, b, game_=g):
        return evaluate(game_, h, b).value
    assert v("As6d", "7c8h9s") > v("AsAd", "AhKsQd")               # a straight beats trips
    assert v("As6d", "7c8h9s", trips) < v("AsAd", "AhKsQd", trips)  # unless the option
    assert v("As6d", "7c8h9s") < v("6s7d", "8c9hTs")                # A-6-7-8-9 below 6-T
    assert v("AsKs", "Qs9s6s") > v("6s6d", "6hAsAd")                # flush over full house
    assert v("Ah6h", "7h8h9h") > v("AsAd", "AhAcKd")                # the low straight flush
    # the board plays: both hands make the board's straight
    assert v("AsAd", "6c7d8h9sTc") == v("KsKd", "6c7d8h9sTc")


def test_cards_below_six_are_errors_naming_the_card():
    with pytest.raises(CardError, match="'5h' in the hole cards is not in the short_deck"):
        evaluate("short_deck", "As5h", "7c8h9s")
    hands = np.stack([parse_cards("AsKsQsJsTs9s8s"), parse_cards("AsKsQsJsTs9s2c")])
    with pytest.raises(CardError, match=r"'2c' in hands\[1\]"):
        evaluate_batch("short_deck", hands)
    with pytest.raises(CardError, match="'4d' in the board"):
        equity("short_deck", ["AsKs", "QhQd"], "4d7c8h")
    with pytest.raises(HandError, match="the deck has 36"):
        equity("short_deck", ["random"] * 17)


def test_short_deck_ranges():
    assert len(Range("random", "short_deck")) == 630
    assert len(Range("AKs,QQ+", "short_deck")) == 22
    with pytest.raises(RangeError, match="no hand in the short_deck deck"):
        Range("22-55", "short_deck")
    top = Range("15%", "short_deck")
    assert abs(len(top) / 630 - 0.15) < 0.03
    assert {"".join(sorted(h[0] + h[2])) for h, _ in top} >= {"AA", "KK"}


def _brute(game_name, hands, board, dead):
    hs = [parse_cards(h).tolist() for h in hands]
    return reference.brute_force_equity(game_name, hs, parse_cards(board).tolist(),
                                        parse_cards(dead).tolist(), 5)


@pytest.mark.parametrize("game_name, hands, board, dead", [
    ("short_deck", ["AsKs", "QhQd"], "6c7d9h", ""),
    ("short_deck", ["AsKs", "QhQd", "JcTc"], "6c7d9h", "8s"),
    ("short_deck", ["As6s", "7h7d"], "8s9sTd", ""),              # straights and flushes
    ("short_deck", ["AhKh", "6c6d"], "6hQh2s"[:4] + "Jh", ""),
    ("omaha5_8", ["As2s3dKcQh", "AdKdQcJc4h"], "7c8h9s", ""),
    ("omaha5_8", ["As2s3dKcQh", "Ac2c3hKdQd", "5s4s8h8d9c"], "7c6hTd", ""),   # quartering
    ("omaha5_8", ["AhKhQsJsTs", "AdKdQcJc9h"], "9c9dTh", "2c"),                # no low
    ("omaha6_8", ["As2s3dKcQh5c", "AdKdQcJc4h6d"], "7c8h9sTd", ""),
    ("omaha6_8", ["As2s3dKcQh5c", "Ac2c3hKdQd4d", "6s7s8h8d9cTc"], "JcJd2h", "3s"),
])
@pytest.mark.slow
def test_exact_equity_against_the_brute_force(game_name, hands, board, dead):
    shares, boards = _brute(game_name, hands, board, dead)
    result = equity(game_name, hands, board, dead)
    assert result.exact and result.samples == boards
    assert result.fractions == tuple(shares)


def test_big_o_reports_scoops_and_halves():
    r = equity("omaha5_8", ["As2s3dKcQh", "Ac2c3hKdQd"], "7c6hTd")
    for p in r.players:
        assert p.scoop is not None and p.hi + p.lo == pytest.approx(p.equity)
    assert sum(p.equity for p in r.players) == pytest.approx(1.0)


@pytest.mark.parametrize("game_name, hands", [
    ("short_deck", ["AsKs", "QhQd"]), ("omaha5_8", ["As2s3dKcQh", "AdKdQcJc4h"]),
    ("omaha6_8", ["As2s3dKcQh5c", "AdKdQcJc4h6d"]), ("short_deck", ["AKs", "random"])])
def test_monte_carlo_lands_near_exact_and_ignores_threads(game_name, hands):
    exact = equity(game_name, hands, exact=True if game_name == "short_deck" else None,
                   **({} if game_name == "short_deck" else {"board": ""}))
    one = equity(game_name, hands, trials=200_000, seed=5, threads=1)
    two = equity(game_name, hands, trials=200_000, seed=5, threads=2)
    assert [p.equity for p in one.players] == [p.equity for p in two.players]
    for e, s in zip(exact.players, one.players):
        assert abs(e.equity - s.equity) < 4 * s.stderr + 1e-9


def test_the_new_games_are_listed_and_have_ranges():
    for name in ("short_deck", "omaha5_8", "omaha6_8"):
        assert name in evaluator.GAMES
    assert game("big_o").name == "omaha5_8"
    assert len(Range("AA$ds", "omaha5_8")) == len(Range("AA$ds", "omaha5"))
    assert len(Range("10%", "omaha6_8")) > 0
    rng = random.Random(3)
    cards = rng.sample(range(52), 11)
    hand = evaluate("omaha6_8", cards[:6], cards[6:])
    assert hand.low is None or hand.low.value > 0


def test_short_deck_table_with_antes_and_a_button_blind():
    from evaluator.play import HoldemTable, replay
    t = HoldemTable(["a", "b", "c"], game="short_deck", ante=1, button_blind=2, seed=3)
    assert len(t.deck) == 36 and min(t.deck) == 16                 # sixes to aces
    assert t.pot == 5 and t.to_act == 1                            # left of the button
    assert [a["kind"] for a in t.legal_actions()] == ["fold", "call", "raise"]
    while not t.finished:
        kinds = [a["kind"] for a in t.legal_actions()]
        t.act("call" if "call" in kinds else "check")
    assert sum(t.result()["put_in"].values()) == t.pot == 9
    assert replay(t.history()).result() == t.result()
    with pytest.raises(evaluator.EvaluatorError, match="leaves out"):
        HoldemTable(["a", "b"], game="short_deck",
                    deck=[c for c in range(52) if c >= 17] + [0])
    with pytest.raises(evaluator.EvaluatorError, match="button blind"):
        HoldemTable(["a", "b"], game="short_deck", button_blind=2, kill=0)


def test_big_o_session_kills_after_a_scoop():
    from evaluator.play import HoldemSession
    session = HoldemSession(["a", "b", "c"], game="omaha5_8", seed=4)
    for _ in range(40):
        table = session.new_hand()
        assert all(len(s.cards) == 5 for s in table.seats)
        while not table.finished:
            kinds = [a["kind"] for a in table.legal_actions()]
            table.act("call" if "call" in kinds else "check")
        scooped = len(table.winners) == 1 and (
            not table.low_winners or table.low_winners == table.winners)
        session.finish_hand(table)
        assert (session.kill is not None) == scooped


def test_review_findings_stay_fixed():
    from evaluator import hand_vs_range
    from evaluator.play import HoldemTable, replay
    t = HoldemTable(["a", "b"], game=game("short_deck", trips_beat_straight=True), seed=2)
    while not t.finished:
        kinds = [a["kind"] for a in t.legal_actions()]
        t.act("call" if "call" in kinds else "check")
    assert replay(t.history()).rules.values == "short_trips"          # the option is kept
    assert HoldemTable(["a", "b"], game="short_deck", button_blind=5).small_bet == 5
    with pytest.raises(HandError, match="for hold'em"):
        hand_vs_range("short_deck", "QQ")                        # not dealt from 52
    assert Range("AA:0.5,22", "short_deck").weights.max() == 1.0      # scaled in the deck
    assert len(Range([np.array([0, 1])])) == 1
    with pytest.raises(RangeError, match="matches no hand"):
        Range("50%-50.001%", "omaha")
