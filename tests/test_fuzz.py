"""Whatever text is given to card, hand, board or range parsing, it parses or raises one
of the package's ``ValueError`` subclasses (``EvaluatorError``) naming what is wrong; any
other exception (IndexError, KeyError, OverflowError, ZeroDivisionError, a bare
ValueError from ``float``, ...) is a bug.  Wrong Python types raise ``ArgumentTypeError``
naming the argument.

The examples are derandomized and no database is kept, so every run tries the same ones.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from evaluator import GAMES, EvaluatorError, Range, evaluate, parse_cards
from evaluator.errors import ArgumentTypeError

FUZZ = settings(max_examples=500, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))

# the characters and words of the card and range grammars, and a few that look like them
PIECES = (list("23456789TJQKAtjqka") + list("cdhsCDHS") + list("wxyzWXYZ") + list("so")
          + list("+-,:@()*?%.") + list("0123456789") + [" ", "\t", "\n", "10", "e", "E"]
          + ["\u0661", "\u0663", "\u00bd", "\u212a", "\u017f", "\u00a0", "\u2028"]
          + ["random", "any", "RANDOM", " Any ", "1e308", "1e-300", "1e400", "inf", "nan",
             "-0", "0x1", "1_0", "AKs", "QQ+", "22-55", "AhKh", "AA**", "AxAyxy", "15%"])
grammar = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)
texts = st.one_of(st.text(max_size=40), grammar)
# long strings: a piece of grammar (or any text) repeated up to 100,000 characters
long_texts = st.builds(lambda piece, n: (piece * n)[:100_000],
                       st.one_of(grammar, st.text(min_size=1, max_size=8)),
                       st.integers(1, 20_000))


def _parses_or_refuses(call, *args):
    try:
        call(*args)
    except EvaluatorError:
        pass


@FUZZ
@given(texts)
def test_parse_cards_parses_or_raises_a_card_error(text):
    _parses_or_refuses(parse_cards, text)
    _parses_or_refuses(lambda t: parse_cards(t, count=2, allow_duplicates=True), text)


@FUZZ
@given(st.sampled_from(GAMES), texts, texts)
def test_evaluate_parses_or_raises_an_evaluator_error(game, hole, board):
    _parses_or_refuses(evaluate, game, hole, board)


# six-card Omaha's percentages list millions of hands a text (up to 30 s for 100 texts):
# fewer texts there, through the same reader
BIG = [g for g in GAMES if g.startswith("omaha6")]


def _found_before(test):
    """The texts that failed once: the Kelvin sign and the long s case-fold to K and s,
    and '1.2.3%' or '.%' reached float()."""
    for text in ("\u212a", "AK\u017f", "AhK\u017f", "1.2.3%", ".%"):
        test = example(text=text).via("discovered failure")(test)
    return test


def _range_texts(games: list[str], texts_a_game: int):
    """A test that every text ``Range`` reads in each of ``games`` parses or raises a
    ``RangeError`` (``texts_a_game`` random texts, and those that failed once)."""
    @pytest.mark.parametrize("game", games)
    @settings(FUZZ, max_examples=texts_a_game)
    @given(text=texts)
    @_found_before
    @pytest.mark.slow
    def test(game, text):
        _parses_or_refuses(Range, text, game)
    return test


test_ranges_parse_or_raise_a_range_error = _range_texts([g for g in GAMES if g not in BIG],
                                                        100)
test_six_card_ranges_parse_or_raise_a_range_error = _range_texts(BIG, 20)


@settings(FUZZ, max_examples=60)
@given(st.sampled_from(["holdem", "omaha", "omaha6"]), long_texts)
def test_long_texts_parse_or_raise_at_once(game, text):
    _parses_or_refuses(Range, text, game)
    _parses_or_refuses(parse_cards, text)


@FUZZ
@given(st.lists(st.sampled_from(["AA", "KK", "AKs", "QQ+", "random", "AhKh", "72o", "5%"]),
                min_size=1, max_size=6),
       st.lists(st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                          st.sampled_from([0.0, 1e308, 1e-308, 5e-324, 1e-300])),
                min_size=6, max_size=6))
@pytest.mark.slow
def test_weighted_ranges_keep_finite_weights_with_the_largest_one(parts, weights):
    text = ",".join(f"{p}:{w!r}" for p, w in zip(parts, weights))
    try:
        r = Range(text)
    except EvaluatorError:
        return
    assert r.weights.max() == 1.0 and (r.weights > 0).all()
    assert np.isfinite(r.total_weight)


WRONG_TYPES = [None, 5, 1.5, b"AsKd", object()]


@pytest.mark.parametrize("value", WRONG_TYPES, ids=lambda v: type(v).__name__)
def test_wrong_types_raise_argument_type_errors(value):
    with pytest.raises(ArgumentTypeError, match="hole cards"):
        evaluate("holdem", value, "2c3d4h")
    with pytest.raises(ArgumentTypeError, match="the board"):
        evaluate("holdem", "AsKs", value)
    with pytest.raises(ArgumentTypeError, match="range"):
        Range(value)
    with pytest.raises(ArgumentTypeError, match="range"):
        Range(["AsKs", value])


def test_card_ids_stay_accepted_where_cards_are():
    assert str(evaluate("holdem", [51, 47], [43, 39, 35])) == "royal flush"     # As Ks Qs Js Ts
    assert parse_cards([51, 47]).tolist() == [51, 47]
    assert len(Range([[51, 47], "QQ"])) == 7
    with pytest.raises(ArgumentTypeError, match="each hand of a range list"):
        Range([51, 47])                                  # a hand is a list of ids, not an id
