"""Refusals in the package's words, naming the argument and what is wrong with it, where
Python's or NumPy's own messages leaked ("'NoneType' object is not iterable", a count cut
at its first comma, a list of suffixes without one that works, ...)."""
import math

import numpy as np
import pytest

import evaluator as ev
from evaluator import ArgumentTypeError, CardError, EvaluatorError, RangeError
from evaluator.cli import main


@pytest.mark.parametrize("hands", [None, 5, 3.5, {"As": 1}, b"AsKd"])
def test_combo_index_names_the_argument(hands):
    with pytest.raises(ArgumentTypeError, match="^hands must be one hand"):
        ev.combo_index("holdem", hands)


def test_combo_index_reads_numbers_as_one_hands_card_ids():
    with pytest.raises(CardError, match="unknown card 5.0"):
        ev.combo_index("holdem", [12, 5.0])
    with pytest.raises(CardError, match="unknown card True"):
        ev.combo_index("holdem", [12, True])


def test_every_out_suffix_that_works_is_listed(tmp_path):
    with pytest.raises(EvaluatorError, match=r"use \.csv, \.jsonl, \.ndjson, \.json, \.parquet"):
        ev.batch_equity([{"hands": "AA vs KK"}], out=tmp_path / "x.txt", progress=False)


@pytest.mark.parametrize("out", [5, ["x.csv"], b"x.csv"])
def test_an_out_that_is_no_path_is_named(out):
    with pytest.raises(ArgumentTypeError, match="^out must be a path"):
        ev.batch_equity([{"hands": "AA vs KK"}], out=out, progress=False)


@pytest.mark.parametrize("queries", [None, 5, True])
def test_queries_that_are_no_queries_are_named(queries):
    with pytest.raises(ArgumentTypeError, match="^queries must be"):
        ev.batch_equity(queries, progress=False)


def test_threads_as_an_array_is_named():
    with pytest.raises(ArgumentTypeError, match="^threads must be"):
        ev.equity("holdem", ["AsKs", "QhQd"], threads=np.array([1, 2]))


def test_a_query_field_given_an_array_is_named():
    with pytest.raises(EvaluatorError, match="trials"):
        ev.batch_equity([{"hands": "AA vs KK", "trials": np.zeros(2)}], progress=False)
    with pytest.raises(EvaluatorError, match="on_error must be"):
        ev.batch_equity([{"hands": "AA vs KK"}], on_error=np.zeros(2), progress=False)


def test_a_json_integer_too_long_to_read_is_said_in_our_words(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_text('{"hands": "AA vs KK", "seed": ' + "7" * 5000 + "}\n")
    with pytest.raises(EvaluatorError, match="an integer of more than 4,300 digits") as info:
        ev.batch_equity(path, progress=False)
    assert "set_int_max_str_digits" not in str(info.value)


def test_a_dead_card_given_twice_is_refused_by_every_command(capsys):
    assert main(["range", "QQ+", "--dead", "AhAh"]) == 2
    assert "duplicate card 'Ah' in the dead cards" in capsys.readouterr().err
    assert main(["range", "QQ+", "--game", "short_deck", "--dead", "2c"]) == 2
    assert "not in the short_deck deck" in capsys.readouterr().err
    with pytest.raises(CardError, match="duplicate card 'Ah' in the dead cards"):
        ev.Range("QQ+").live("AhAh")


def test_plot_grid_refuses_a_card_on_the_board_and_dead(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "g.png"
    assert main(["plot", "grid", "--range", "QQ+", "--board", "Ah7d2c", "--dead", "Ah",
                 "--out", str(out)]) == 2
    assert "duplicate card 'Ah' in the board and the dead cards" in capsys.readouterr().err
    assert not out.exists()


def test_teen_patti_exact_is_refused_by_the_deals_it_would_walk():
    """Four random hands beside a known one (three are swept exactly): 18,424 x 15,180 x
    12,341 x 9,880 deals, not 22,100 to the fourth (each hand's completions counted from
    the whole deck)."""
    deals = math.comb(49, 3) * math.comb(46, 3) * math.comb(43, 3) * math.comb(40, 3)
    with pytest.raises(EvaluatorError, match=f"up to {deals:,} combo tuples"):
        ev.equity("teen_patti", ["AsKsQs"] + ["random"] * 4, exact=True)


def test_category_of_names_a_value_that_is_no_hand_value():
    assert ev.category_of(ev.evaluate("holdem", "AsKs", "QsJsTs").value) == "straight flush"
    with pytest.raises(EvaluatorError, match="value must be a hand value"):
        ev.category_of(-1)
    with pytest.raises(ArgumentTypeError, match="value must be a hand value"):
        ev.category_of("x")


def test_a_breakdown_class_that_is_no_name_is_named():
    b = ev.range_breakdown("holdem", "QQ+", "2c7d9h", progress=False)
    with pytest.raises(RangeError, match=r"no class \[\]"):
        b.combos([])
