"""Exact range against range through the combo vectors (``engine/vector_equity.py``): the
same answer as the walk of every pair of combos, where both can run, and an answer where
the walk would be refused (PLO ranges on a turn or a river)."""
import numpy as np
import pytest

import evaluator as ev
from evaluator.engine import ranged

SPOTS = [
    ("omaha", ["AsAhKsKh,AdAcQdQc,JT98", "JJ**"], "2c7d9hKs"),
    pytest.param("omaha", ["AsAhKsKh,AdAcQdQc:0.5,JT98", "JJ**,T9**:0.25"], "2c7d9h",
                 marks=pytest.mark.slow),                 # a flop: 1,176 runouts swept
    ("omaha", ["AsAhQsQh,AdAcQdQc:0.5", "JJ**:0.3,T9**"], "2c7d9hKsAh"[:8] + "3h"),
    ("tahoe", ["AAK,KKQ", "QQ*"], "2c7d9hKs"),
    ("courchevel", ["AsAhKdKcQc,AdAcKhQhQd:0.5", "JJ***"], "2c7d9hTs3s"),
    ("omaha5", ["AsAhKdKcQc,AdAcKhQhQd", "JJT9*"], "2c7d9hKs3s"),
    # a turn runout by runout, as 5-card flops are (hole-pair sweeps read for the first)
    ("omaha5", ["AsAhKdKcQc,AdAcKhQhQd:0.5", "JJT9*"], "2c7d9hKs"),
    # hi-lo: scoops, halves and quarters tallied by a high and low sweep together
    ("omaha8", ["AA2*", "KK**:0.5,A3**"], "2c7d9hKsAd"),
    ("omaha8", ["A2**", "QQ**"], "2c3d9hKs"),
    ("omaha8", ["A2**", "QQ**"], "2c8d9hKsQs"),                 # no low can be made
    ("omaha8", ["A23*,A24*", "A2**:0.5,345*"], "2c3d4h8s"),   # quartered lows
    ("omaha5_8", ["AA2**", "KKQ**"], "2c7d4hKsAd"),
    ("courchevel8", ["AA2**", "KKQ**,A3***:0.5"], "2c7d4hKsAd"),
]


@pytest.mark.parametrize("game, hands, board", SPOTS)
def test_the_vectors_answer_as_the_walk_of_every_pair(game, hands, board, monkeypatch):
    walk = ev.equity(game, hands, board, exact=True)
    assert "combo tuples" in walk.method or "pairs of combos" in walk.method
    monkeypatch.setattr(ranged, "RANGE_TUPLE_LIMIT", 1)        # too many to walk: swept
    swept = ev.equity(game, hands, board, exact=True)
    assert "every combo swept" in swept.method
    assert swept.samples == pytest.approx(walk.samples, rel=1e-12)
    for a, b in zip(walk.players, swept.players):
        assert (a.equity, a.win, a.tie) == pytest.approx((b.equity, b.win, b.tie), abs=1e-12)
        assert (a.scoop, a.hi, a.lo) == pytest.approx((b.scoop, b.hi, b.lo), abs=1e-12)
    assert swept.counts.keys() == walk.counts.keys()
    for key, value in walk.counts.items():          # scoops, halves, squared shares
        if key != "weighted":
            np.testing.assert_allclose(swept.counts[key], value, rtol=1e-12, err_msg=key)
    if walk.fractions is not None:
        assert swept.fractions == walk.fractions


@pytest.mark.parametrize("game, board", [("omaha", "2c7d9hKsAd"), ("omaha", "2c7d9hKs"),
                                         ("tahoe", "2c7d9hKsAd"), ("courchevel", "2c7d9hKsAd"),
                                         ("omaha8", "2c7d9hKsAd")])
def test_wide_ranges_the_walk_refused_are_answered(game, board):
    """PLO 10% against 40% on a river was refused: 2,112,595,992 combo tuples."""
    r = ev.equity(game, ["10%", "40%"], board, exact=True)
    assert "every combo swept" in r.method
    assert r.players[0].equity + r.players[1].equity == pytest.approx(1.0)
    assert r.fractions is not None                              # unweighted: exact counts


@pytest.mark.slow
@pytest.mark.parametrize("game, hands", [
    ("omaha", ["AsAhKsKh", "JcJd8c6d", "Tc9c8d3s", "2d2h7c7h"]),
    ("omaha8", ["As2h3sKh", "JcJd8c6d", "Ac3c4d5s", "2d2h7c7h"]),    # lows, counterfeits
])
def test_omaha_combo_vectors_on_a_flop_are_equity(game, hands):
    """Every PLO (PLO8) hand against a range on a flop (1,176 runouts swept; hi-lo up to
    three sweeps a runout): each entry is the hand's exact equity (pot share)."""
    eq = ev.combo_equity(game, "JJ**,T9**:0.5,A2**", "2c7d9h")
    for hand in hands:
        want = ev.equity(game, [hand, "JJ**,T9**:0.5,A2**"], "2c7d9h", exact=True)
        assert eq[ev.combo_index(game, hand)[0]] == pytest.approx(
            want.players[0].equity, rel=1e-12), hand


def test_exact_true_takes_a_sweep_of_minutes_and_refuses_past_ten(monkeypatch):
    """exact=True answers where the sweep takes minutes (the estimate is under ten) and
    refuses at once, with both estimates, past that: 5-card hi-lo on a flop, about four
    minutes (answered), refused under a limit of two."""
    from evaluator.engine import ranged
    from evaluator.engine.vector_equity import sweep_seconds, vectors_serve
    assert vectors_serve(ev.game("omaha8"), 3, 600.0)        # about 8 s: exact=True answers
    assert not vectors_serve(ev.game("omaha8"), 3)           # exact=None samples instead
    assert vectors_serve(ev.game("omaha5_8"), 3, 600.0)
    assert 120 < sweep_seconds(ev.game("omaha5_8"), 3) < 600
    monkeypatch.setattr(ranged, "EXACT_SECONDS_MAX", 120.0)
    with pytest.raises(ev.EvaluatorError, match=r"combo tuples \(at least about \d+ days\).*"
                       r"the combo sweep would take about \d+ minutes"):
        ev.equity("omaha5_8", ["10%", "40%"], "2c7d9h", exact=True)
