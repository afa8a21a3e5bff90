"""Courchevel and Courchevel hi-lo: five hole cards, Omaha's rule (exactly two hole and three
board cards, the low chosen apart), the first flop card shown before the first betting
round.  Exact equity against a brute force over the flop's unseen cards, the streets
equity takes, ranges, and the table engine dealing a whole hand by the rules."""
from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

import evaluator as ev
from evaluator.cards import parse_cards
from evaluator.errors import CardError, HandError
from evaluator.play import HoldemTable

import reference as ref


def _brute_force(hands, board, dead, hilo):
    """Each player's pot share over every completion of the board, from the reference's
    Omaha high and low (exactly two hole and three board cards, each half apart)."""
    holes = [parse_cards(h).tolist() for h in hands]
    known = set(sum(holes, [])) | set(board) | set(dead)
    live = [c for c in range(52) if c not in known]
    shares = [Fraction(0)] * len(holes)
    boards = 0
    for rest in itertools.combinations(live, 5 - len(board)):
        full = list(board) + list(rest)
        highs = [ref.omaha_high(h, full) for h in holes]
        lows = [ref.omaha_low(h, full) for h in holes] if hilo else [None] * len(holes)
        top = max(highs)
        high = [p for p, v in enumerate(highs) if v == top]
        qualified = [v for v in lows if v is not None]
        low = [p for p, v in enumerate(lows) if v is not None and v == min(qualified)] \
            if qualified else []
        for p in high:
            shares[p] += Fraction(1 if not low else Fraction(1, 2), len(high))
        for p in low:
            shares[p] += Fraction(1, 2 * len(low))
        boards += 1
    return [s / boards for s in shares]


@pytest.mark.parametrize("game, hands", [
    ("courchevel", ["AsKsQd2c7h", "JhJdTc9c8c"]),
    ("courchevel8", ["As2s3dKc7h", "JhJdTc9c4c"]),
    ("courchevel", ["AsKsQd2c7h", "JhJdTc9c8c", "5d5h6s6c3h"]),
])
def test_exact_equity_with_the_shown_card_is_the_brute_force(game, hands):
    """The first flop card known: every way the other two flop cards, the turn and the
    river can fall (the deck thinned by dead cards, so the reference walks it quickly)."""
    rng = np.random.default_rng(len(hands))
    board = parse_cards("Ah").tolist()
    used = set(board) | {c for h in hands for c in parse_cards(h).tolist()}
    dead = sorted(rng.choice([c for c in range(52) if c not in used],
                             52 - len(used) - 11, replace=False).tolist())
    got = ev.equity(game, hands, board, dead, exact=True)
    assert got.exact and got.samples == 330                      # C(11, 4) boards
    want = _brute_force(hands, board, dead, hilo=game.endswith("8"))
    assert list(got.fractions) == want


@pytest.mark.parametrize("board", ["", "Ah", "Ah7d3c", "Ah7d3c9s", "Ah7d3c9sTs"])
def test_every_street_equity_takes_and_omaha5_agrees_past_the_flop(board):
    hands = ["AsKsQd2c7h", "JhJdTc9c8c"]
    r = ev.equity("courchevel", hands, board)
    assert r.exact
    if len(board) >= 6:                     # the same hands and rule on a complete flop
        assert r.fractions == ev.equity("omaha5", hands, board).fractions
    hilo = ev.equity("courchevel8", hands, board)
    assert hilo.players[0].hi + hilo.players[0].lo == pytest.approx(hilo.players[0].equity)


def test_the_shown_card_gives_the_two_card_boards_no_street():
    with pytest.raises((CardError, HandError), match="2"):
        ev.equity("courchevel", ["AsKsQd2c7h", "JhJdTc9c8c"], "Ah7d")
    g = ev.game("courchevel")
    assert g.streets == (0, 1, 3, 4, 5) and g.rounds == (1, 3, 4, 5) and g.hole == 5
    assert ev.game("courchevel_hi_lo") is ev.game("courchevel8")


def test_sampled_equity_lands_on_the_exact_one():
    hands = ["AsKsQd2c7h", "JhJdTc9c8c"]
    exact = ev.equity("courchevel", hands, "Ah").players[0].equity
    sampled = ev.equity("courchevel", hands, "Ah", trials=200_000, seed=3).players[0]
    assert abs(sampled.equity - exact) < 4 * sampled.stderr


def test_ranges_read_the_hands_of_five_card_omaha():
    assert len(ev.Range("15%", "courchevel")) == len(ev.Range("15%", "omaha5"))
    assert len(ev.Range("AA$ds", "courchevel8")) == len(ev.Range("AA$ds", "omaha5_8"))


def _deck(hole, board, burns):
    """A deck that deals ``hole`` (one list per seat, the deal starting left of the
    button), then the burns and board cards in the order Courchevel deals them."""
    seats = [parse_cards(h).tolist() for h in hole]
    order = [seat[k] for k in range(5) for seat in seats]
    b = parse_cards(board).tolist()
    x = parse_cards(burns).tolist()
    dealt = order + [x[0], b[0], x[1], b[1], b[2], x[2], b[3], x[3], b[4]]
    return dealt + [c for c in range(52) if c not in dealt]


def test_the_table_deals_a_courchevel_hand_by_the_rules():
    """One flop card face up before the first betting round, then the other two, the turn
    and the river, each with a round; showdown by Omaha's rule, the low apart."""
    hole = ["AhKhQd2c3s", "JsJdTc9c8d"]
    t = HoldemTable(["a", "b"], game="courchevel8", dealer=1, seed=None,     # a dealt first
                    deck=_deck(hole, "4h 5h 9s Ks 7c", "2d 3d 4d 5d"))
    assert len(t.board) == 1 and t.board == parse_cards("4h").tolist()
    assert [len(s.cards) for s in t.seats] == [5, 5]
    assert t.cards_needed(2) == 2 * 5 + 5 + 4 and "4 burns" in t.deals()
    sizes = []
    while not t.finished:
        sizes.append(len(t.board))
        kinds = {a["kind"] for a in t.legal_actions()}
        t.act("check" if "check" in kinds else "call")
    assert sorted(set(sizes)) == [1, 3, 4, 5]
    assert t.board == parse_cards("4h 5h 9s Ks 7c").tolist()
    # a: A-2 with 4-5-7 of the board make a low (7-5-4-2-A); b holds one low card: none
    assert t.low_winners == [0]
    high = [ev.evaluate("courchevel8", h, t.board).value for h in hole]
    assert t.high_winners == [int(np.argmax(high))]
