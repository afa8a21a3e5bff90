"""One calling convention for the public API (CONTRIBUTING.md, "Calling convention"):
the game first, then the hands or range, the board and the dead cards; progress off;
resume and overwrite alike; and the forms of release 0.1.0 answering for one release
with one DeprecationWarning that shows the new form."""
from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

import evaluator as ev
from evaluator.errors import HandError

ORDER = ("game", "hands", "hole", "hero", "against", "reach", "board", "dead")


def _public_functions():
    for name in ev.__all__:
        value = getattr(ev, name)
        if inspect.isfunction(value) or (callable(value) and not isinstance(value, type)
                                         and hasattr(value, "__wrapped__")):
            yield name, value


def test_the_game_comes_first_then_hands_board_and_dead():
    seen = []
    for name, function in _public_functions():
        params = list(inspect.signature(function).parameters)
        if "game" not in params:
            continue
        seen.append(name)
        assert params[0] == "game", name
        mine = [p for p in params if p in ORDER]
        assert mine == sorted(mine, key=ORDER.index), (name, mine)
    assert {"equity", "flop_study", "runout_study", "combo_equity", "showdown_values",
            "call_matrix", "range_breakdown", "equity_distribution", "combo_index",
            "hand_vs_range"} <= set(seen)


def test_the_switches_mean_one_thing_everywhere():
    for name, function in _public_functions():
        params = inspect.signature(function).parameters
        for switch in ("progress", "resume", "overwrite"):
            if switch in params:
                assert params[switch].default is False, (name, switch)
                assert params[switch].kind is inspect.Parameter.KEYWORD_ONLY, (name, switch)
        if "resume" in params:
            assert "overwrite" in params and "out" in params, name


RIVER = "2c7d9hKsAd"
OLD_AND_NEW = [   # (the 0.1.0 call, the same call in the one form)
    (lambda: ev.combo_index("AhAd"), lambda: ev.combo_index("holdem", "AhAd")),
    (lambda: ev.combo_index("AhAdKcQc", "omaha"), lambda: ev.combo_index("omaha", "AhAdKcQc")),
    (lambda: ev.combos(), lambda: ev.combos("holdem")),
    (lambda: ev.combo_equity("QQ+", RIVER), lambda: ev.combo_equity("holdem", "QQ+", RIVER)),
    (lambda: ev.combo_equity("QQ+", "6c7d9h", game="short_deck", dead="As"),
     lambda: ev.combo_equity("short_deck", "QQ+", "6c7d9h", "As")),
    (lambda: ev.call_matrix(RIVER), lambda: ev.call_matrix("holdem", RIVER)),
    (lambda: ev.showdown_values(RIVER, ev.Range("KK").vector()),
     lambda: ev.showdown_values("holdem", ev.Range("KK").vector(), RIVER)),
    (lambda: ev.runout_study(["QQ+", "22+"], "2c7d9h", progress=False).rows,
     lambda: ev.runout_study("holdem", ["QQ+", "22+"], "2c7d9h").rows),
    (lambda: ev.equity_distribution("QQ+", "22+", "2c7d9h").mean,
     lambda: ev.equity_distribution("holdem", "QQ+", "22+", "2c7d9h").mean),
    (lambda: ev.range_breakdown("QQ+,AKs", "Ah7d2c", "holdem").rows,
     lambda: ev.range_breakdown("holdem", "QQ+,AKs", "Ah7d2c").rows),
    (lambda: ev.hand_vs_range("QQ+", "2c7d9h")["AA"],
     lambda: ev.hand_vs_range("holdem", "QQ+", "2c7d9h")["AA"]),
    (lambda: ev.flop_study(["AA", "KK"]).equity(),
     lambda: ev.flop_study("holdem", ["AA", "KK"]).equity()),
]


@pytest.mark.parametrize("old, new", OLD_AND_NEW)
def test_an_old_form_answers_as_the_new_one_and_warns_once(old, new):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        want = new()
        assert not caught                                   # the new form never warns
        got = old()
    assert len(caught) == 1 and caught[0].category is DeprecationWarning
    text = str(caught[0].message)
    assert "will be removed in the next release" in text and "(game" in text
    assert caught[0].filename == __file__                   # it points at the caller
    if isinstance(want, np.ndarray):
        assert np.array_equal(got, want, equal_nan=True)
    else:
        assert got == want


def test_keywords_read_the_same_in_both_forms():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = ev.combo_equity(against="QQ+", board=RIVER, game="holdem")
    assert np.array_equal(a, ev.combo_equity("holdem", "QQ+", RIVER), equal_nan=True)


def test_equity_takes_the_batch_files_vs_text():
    want = ev.equity("holdem", ["AsKs", "QhQd"], "2c7d9h")
    for text in ("AsKs vs QhQd", "AsKs VS QhQd", "AsKs vs. QhQd", "AsKs | QhQd"):
        got = ev.equity("holdem", text, "2c7d9h")
        assert got.fractions == want.fractions, text
    r = ev.equity("holdem", "QQ+,AKs vs random", trials=20_000, seed=1)
    assert [p.hand for p in r.players] == ["QQ+,AKs", "random"]
    with pytest.raises(HandError, match="separates them with ' vs '"):
        ev.equity("holdem", "AsKs")


def test_progress_is_off_unless_asked(capsys):
    ev.flop_study("holdem", ["AA", "KK"])
    ev.runout_study("holdem", ["QQ+", "22+"], "2c7d9h")
    ev.batch_equity([{"hands": "AsKs vs QhQd"}])
    assert capsys.readouterr().err == ""
