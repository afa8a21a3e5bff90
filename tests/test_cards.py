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
