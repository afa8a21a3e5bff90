import numpy as np
import pytest

from evaluator import CardError, card_id, card_str, format_cards, parse_cards


@pytest.mark.parametrize("text", ["AsKd", "As Kd", "as,kd", "AS, KD", " as  kd ", "As;Kd"])
def test_parse_forms(text):
    assert parse_cards(text).tolist() == [51, 45]


def test_ten_alias_and_lists():
    assert parse_cards("10h").tolist() == parse_cards("Th").tolist() == [34]
    assert parse_cards(["As", "Kd"]).tolist() == [51, 45]
    assert parse_cards(["AsKd", "2c"]).tolist() == [51, 45, 0]
    assert parse_cards([51, 45]).tolist() == [51, 45]
    assert parse_cards(np.array([0, 1], np.uint8)).dtype == np.uint8


def test_encoding_is_four_rank_plus_suit():
    assert card_id("2c") == 0 and card_id("2s") == 3 and card_id("Ac") == 48
    assert [card_str(i) for i in (0, 1, 2, 3, 51)] == ["2c", "2d", "2h", "2s", "As"]
    assert format_cards(range(52)).split() == [r + s for r in "23456789TJQKA" for s in "cdhs"]


def test_round_trip_all_cards():
    text = format_cards(range(52))
    assert parse_cards(text).tolist() == list(range(52))


@pytest.mark.parametrize("text, token", [("AsKx", "Kx"), ("As 1h", "1h"), ("Zz", "Zz"),
                                          ("As Kd 11c", "11"), ("AsK", "K")])
def test_unknown_card_names_token(text, token):
    with pytest.raises(CardError) as info:
        parse_cards(text)
    assert info.value.token == token
    assert repr(token) in str(info.value)


def test_duplicate_and_count_errors():
    with pytest.raises(CardError, match="duplicate card 'As'"):
        parse_cards("As Kd as")
    with pytest.raises(CardError, match="need 2 cards, got 3"):
        parse_cards("AsKdQh", count=2)
    with pytest.raises(CardError, match="out of range"):
        parse_cards([52])
    with pytest.raises(CardError):
        parse_cards([True])
    assert isinstance(CardError("x"), ValueError)


def test_long_texts_are_not_cached():
    """Only short texts (hands, boards) are cached, so long ones don't pin memory."""
    from evaluator import cards

    before = cards._text_ids.cache_info().currsize
    assert len(parse_cards("As " * 20_000, allow_duplicates=True)) == 20_000
    assert cards._text_ids.cache_info().currsize == before
    assert cards._text_ids.cache_info().maxsize * cards.CACHED_TEXT_LENGTH <= 2_000_000


@pytest.mark.parametrize("value", [None, 5, 1.5, b"AsKd", object()])
def test_wrong_types_name_the_argument(value):
    from evaluator.errors import ArgumentTypeError
    with pytest.raises(ArgumentTypeError, match="hole cards"):
        parse_cards(value, what="hole cards")
    with pytest.raises(TypeError, match="card"):
        card_id(value)


@pytest.mark.parametrize("text", ["\u212ad", "A\u017f", "K\u212a"])   # Kelvin sign, long s
def test_unicode_case_folds_are_not_cards(text):
    with pytest.raises(CardError):
        parse_cards(text)


@pytest.mark.parametrize("value", [1.0, True, False, "As", None, b"\x01", np.float64(3.0),
                                   np.bool_(True), [1]])
def test_card_str_wrong_types_name_the_argument(value):
    """``card_str(1.0)`` and ``card_str(True)`` were '2d', ``card_str('As')`` an int() error."""
    from evaluator.errors import ArgumentTypeError
    with pytest.raises(ArgumentTypeError, match="^card_id must be an integer card id"):
        card_str(value)


def test_card_str_takes_python_and_numpy_ints():
    assert card_str(51) == card_str(np.int64(51)) == card_str(np.uint8(51)) == "As"
    for bad in (52, -1, np.int64(60)):
        with pytest.raises(CardError, match="out of range 0..51"):
            card_str(bad)


@pytest.mark.parametrize("value", [
    np.array([1.5, 2.0]), np.array([1.0, 2.0]), np.array([True, False]),
    np.array(["As", "Kd"]), np.array([1, 2], dtype=object),
    "AsKs", "", b"AsKs", None, 5, 1.5, [1.5, 2], [True], [1, None], ["As"], [np.float32(1)],
])
def test_format_cards_wrong_types_name_the_argument(value):
    """Float and bool arrays were formatted as ids ('2d 2h'), text raised an int() error and
    ``None`` a builtin TypeError; each is now an ``ArgumentTypeError`` naming ``ids``."""
    from evaluator.errors import ArgumentTypeError
    with pytest.raises(ArgumentTypeError, match="^ids must be card ids"):
        format_cards(value)


def test_format_cards_takes_ints_and_integer_arrays():
    assert format_cards([51, 45]) == format_cards(np.array([51, 45], np.int64)) == "As Kd"
    assert format_cards((np.uint8(51), np.int32(45)), sep="") == "AsKd"
    assert format_cards(np.array([[0, 1], [2, 3]], np.uint8)) == "2c 2d 2h 2s"
    assert format_cards(iter([0])) == "2c" and format_cards([]) == ""
    for bad in ([52], np.array([60], np.uint8), np.array([-1], np.int8)):
        with pytest.raises(CardError, match="out of range 0..51"):
            format_cards(bad)
    from evaluator.errors import ArgumentTypeError
    with pytest.raises(ArgumentTypeError, match="sep"):
        format_cards([0], sep=None)


def test_count_message_reads_right_for_any_name():
    with pytest.raises(CardError, match="^the deck: need 52 cards, got 1: As$"):
        parse_cards("As", count=52, what="the deck")
    with pytest.raises(CardError, match="^cards: need 1 card, got 2"):
        parse_cards("AsKs", count=1)
