"""The range breakdown against the slow classifier of tests/reference.py."""
from __future__ import annotations

import random

import numpy as np
import pytest

import evaluator as ev
from evaluator import game
from evaluator.cards import format_cards, parse_cards
from evaluator.studies.breakdown import range_breakdown

import reference


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.slow
def test_every_class_against_the_reference_on_random_boards(seed):
    rng = random.Random(seed)
    board = rng.sample(range(52), rng.choice([3, 3, 4, 5]))
    b = range_breakdown("holdem", "random", board)
    for row in b.rows:
        if row["kind"] == "category":
            continue
        members = {tuple(parse_cards(c).tolist()) for c in b.combos(row["class"])}
        for combo in rng.sample(sorted(members), min(25, len(members))):
            if row["kind"] == "made":
                assert reference.breakdown_made_class(combo, board) == row["class"], combo
            else:
                assert row["class"] in reference.breakdown_draws(combo, board), combo
    # and the other way: random combos land where the reference puts them
    live = [c for c in range(52) if c not in board]
    for _ in range(40):
        combo = tuple(sorted(rng.sample(live, 2)))
        text = format_cards(combo[::-1], sep="")         # as combos() names it: high first
        made = [r["class"] for r in b.rows
                if r["kind"] == "made" and text in b.combos(r["class"])]
        assert made == [reference.breakdown_made_class(combo, board)]
        draws = {r["class"] for r in b.rows
                 if r["kind"] == "draw" and text in b.combos(r["class"])}
        assert draws == reference.breakdown_draws(combo, board)


def test_shares_sum_to_one_and_weights_count():
    b = range_breakdown("holdem", "QQ+:0.5,AKs,T9s", "Ts9h2s")
    for kind in ("category", "made"):
        assert sum(r["share"] for r in b.rows if r["kind"] == kind) == pytest.approx(1.0)
    categories = {r["class"] for r in b.rows if r["kind"] == "category"}
    assert categories == set(game("holdem").categories[1:])          # every one, even if 0
    made = {r["class"]: r for r in b.rows if r["kind"] == "made"}
    assert made["overpair"]["combos"] == 18 and made["overpair"]["weight"] == 9.0
    assert made["two pair"]["combos"] == 2


def test_omaha_breakdown_and_errors():
    b = range_breakdown("omaha", "AA$ds", "Ts9h2s")
    assert sum(r["share"] for r in b.rows if r["kind"] == "made") == pytest.approx(1.0)
    assert any(r["class"] == "nut flush draw" for r in b.rows)
    with pytest.raises(Exception, match="breakdown is for games with a board"):
        range_breakdown("teen_patti", "AsKsQs", "2c7d9h")
    with pytest.raises(Exception, match="no class"):
        b.combos("royal")


def _classes(b, combo):
    return {r["class"] for r in b.rows if r["kind"] != "category" and combo in b.combos(r["class"])}


@pytest.mark.parametrize("game_name, board, combo, made, draws", [
    # "The": three hole cards, any of them played; a board of two to four cards
    ("the", "2c7d", "7s7h7c", "four of a kind", set()),
    ("the", "2c7d9h", "AhAd3s", "overpair", set()),
    ("the", "2c7d9h", "9c8c3s", "top pair, weak kicker", set()),
    ("the", "2c7d9h", "Ah5h3h", "high card",                          # a 4 makes A-5
     {"flush draw", "nut flush draw", "gutshot", "combo draw"}),
    ("the", "2c7d", "Kh5h3h", "high card", {"backdoor flush"}),       # two cards to come
    # Tahoe: at most two of three hole cards
    ("tahoe", "2c7d9hKsAd", "AhKh3c", "two pair", set()),
    ("tahoe", "2c7d9hKsAd", "QcQd3s", "underpair", set()),
    ("tahoe", "2c7d9h", "Ah5h3h", "high card", {"backdoor flush"}),  # two hearts play, not 3
    ("tahoe", "2c7d9h", "8c6s3d", "high card", {"open-ended"}),
])
def test_tahoe_and_the_by_the_cards_their_best_hand_plays(game_name, board, combo, made,
                                                          draws):
    b = range_breakdown(game_name, "random", board)
    assert sum(r["share"] for r in b.rows if r["kind"] == "made") == pytest.approx(1.0)
    text = format_cards(sorted(parse_cards(combo).tolist(), reverse=True), sep="")
    assert _classes(b, text) == {made} | draws


@pytest.mark.parametrize("game_name, board, fewest, most", [
    ("the", "", 2, 4), ("the", "As", 2, 4), ("courchevel", "As", 3, 5), ("tahoe", "", 3, 5),
    ("omaha", "", 3, 5)])
def test_a_board_too_short_for_a_hand_is_refused_with_the_sizes(game_name, board, fewest,
                                                                 most):
    with pytest.raises(Exception, match=f"takes a board of {fewest} to {most} cards"):
        range_breakdown(game_name, "random" if game_name != "courchevel" else "AAKK*", board)


@pytest.mark.parametrize("game_name, board, dead", [
    ("omaha", "Ts9h2s", ""), ("omaha", "Ts9h2sJs", "Ah"), ("omaha", "Ts9h2sJsQd", ""),
    ("omaha5", "7h6h2c", "Kd"), ("omaha6", "AsKs5d", ""), ("omaha6", "8c7c6dTc", ""),
    ("omaha8", "2c3c9dKh", ""), ("courchevel", "5s5d5h", "")])
def test_omaha_classes_from_hole_pairs_are_the_classes_one_by_one(game_name, board, dead):
    """Omaha's breakdown reads each hole pair once (``_by_pairs``); every combo's category,
    made class and draws are those of the combo classified by itself (``_one_by_one``,
    which evaluates each combo and each next card with it)."""
    from evaluator.studies import breakdown as bd
    g = ev.game(game_name)
    board_ids, dead_ids = parse_cards(board), parse_cards(dead)
    live = ev.Range("random" if g.hole < 6 else "AA****,KK****,T9****,8765**",
                    game_name).live(np.concatenate([board_ids, dead_ids])).combos
    combos = live[np.random.default_rng(len(board)).choice(len(live), 3000, replace=False)]
    got = bd._by_pairs(g, combos, board_ids, dead_ids, None)
    want = bd._one_by_one(g, combos, board_ids, dead_ids, None)
    for mine, theirs, what in zip(got, want, ("category", "made class", "draws")):
        wrong = np.flatnonzero(mine != theirs)
        assert not len(wrong), (what, format_cards(combos[wrong[0]]), mine[wrong[0]],
                                theirs[wrong[0]])
