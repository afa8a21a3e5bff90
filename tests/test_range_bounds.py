"""What a range text may cost: patterns of many variables list in seconds (numpy over
the bindings, no Python loop per binding), a long ':' / '!' chain costs one pass per
distinct term, and a text of 100,000 characters works or is refused, saying why, in
seconds.  Each case runs under a deadline (SIGALRM), so a regression fails instead of
hanging the suite."""
from __future__ import annotations

import itertools
import random
import signal
import time
from contextlib import contextmanager

import numpy as np
import pytest

from evaluator import Range, format_cards
from evaluator.errors import RangeError
from evaluator.ranges import card_masks

import reference

SECONDS = 20          # generous: every case here takes well under two seconds on one core


@contextmanager
def deadline(seconds: float = SECONDS):
    """Fail (TimeoutError) once ``seconds`` have passed, and check the time taken."""
    def expired(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    start = time.perf_counter()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert time.perf_counter() - start < seconds


def _suit_shapes(r: Range) -> np.ndarray:
    """Each combo's cards per suit, sorted: (n, 4)."""
    return np.sort(np.stack([(r.combos & 3 == s).sum(axis=1) for s in range(4)], axis=1),
                   axis=1)


# --- 1. patterns of many variables ------------------------------------------------------------

@pytest.mark.parametrize("text, game, count, shape", [
    # 5 different ranks in 4 suits, B and F sharing one: C(13,5) * 5!/2! * 4 = 308,880
    # (1,853,280 bindings, 2 min 18 s when each was a Python loop)
    ("BwCxDyEzFw", "omaha5", 308_880, [1, 1, 1, 2]),
    ("BxCyDzEwFx", "omaha5", 308_880, [1, 1, 1, 2]),
    # 6 ranks, two suits twice each: C(13,6) * 6!/(2!2!) * C(4,2) = 1,853,280 hands
    # (7,413,120 bindings: 10 min and 1.47 GB before)
    ("BwCxDyEzFwGx", "omaha6", 1_853_280, [1, 1, 2, 2]),
    ("BwCxDyEz", "omaha", 17_160, [1, 1, 1, 1]),            # 715 rank sets, 24 suit orders
])
@pytest.mark.slow
def test_many_variables_list_in_seconds(text, game, count, shape):
    with deadline():
        r = Range(text, game)
    assert len(r) == count
    ranks = np.sort(r.combos >> 2, axis=1)
    assert (np.diff(ranks.astype(np.int64), axis=1) > 0).all()       # every rank different
    assert (_suit_shapes(r) == shape).all()


@pytest.mark.parametrize("text, game, hole", [
    ("BwCxDyEzFw", "omaha5", 5), ("BCxDxEyF", "omaha5", 5), ("BxCxDyEyF", "omaha5", 5),
    ("BxCxDyEyz", "omaha5", 5), ("xBxCyDyE", "omaha5", 5), ("BwCxDyEzFwGw", "omaha6", 6),
    ("BwCxDyEz", "omaha", 4), ("[A-9]xB[A-9]xC", "omaha", 4),
])
@pytest.mark.slow
def test_many_variables_list_the_hands_the_brute_force_matches(text, game, hole):
    """Membership of random hands, and of listed ones, against tests/reference.py."""
    with deadline():
        combos = Range(text, game).combos
    listed = np.sort(card_masks(combos))                     # rows in order, masks too
    elements, macros = reference.parse_range_pattern(text, hole)
    rng = random.Random(hole * 7919 + len(text))
    sample = [sorted(rng.sample(range(52), hole)) for _ in range(300)]
    sample += [combos[i].tolist() for i in rng.sample(range(len(combos)), 200)]
    masks = card_masks(np.array(sample))
    inside = listed[np.minimum(np.searchsorted(listed, masks), len(listed) - 1)] == masks
    for hand, found in zip(sample, inside.tolist()):
        assert found == reference.pattern_matches(elements, macros, hand), hand


SWEEP = {
    "omaha": ["BCDE", "BwCxDyEz", "[K-T]B[K-T]C", "BxCx**", "*w*x*y*z", "[A-2]B[A-2]C",
              "BCxDxEy", "BwBxByBz"],
    "omaha5": ["BwCxDyEzFw", "BCDEF", "BwCxDyEz*", "[K-2]wBxCyDz*", "BBCCD", "xyzw*",
               "BwCw[A-2]xDx*", "RRO**", "BCD**", "BwCxDy**", "[A-T][A-T]***"],
    "omaha6": ["BwCxDyEzFwGx", "BCDEFG", "BwCxDyEzFwGw", "BwCxDyEz**", "[K-T]wBxCyDzEwFx",
               "BxCyDxEy**", "RROOSS", "xyzwxy", "BC****", "BwCxDyEzF*", "AK****",
               "[A-9]x[A-9]x[A-9]y[A-9]y**"],
    "teen_patti": ["BCD", "BwCxDy", "xyz"],
}


@pytest.mark.parametrize("game, text", [(g, t) for g, ts in SWEEP.items() for t in ts])
@pytest.mark.slow
def test_every_pattern_lists_in_seconds_or_is_refused_at_once(game, text):
    """Many rank variables, many suit variables, spans with variables, 4- to 6-card
    games: each lists within the deadline, or is refused for too many hands, sooner."""
    with deadline():
        try:
            r = Range(text, game)
        except RangeError as error:
            assert "too many hands" in str(error) and "narrow it" in str(error)
        else:
            assert 0 < len(r) <= 21_000_000


# --- 2. long chains of ':' and '!' -----------------------------------------------------------

@pytest.mark.parametrize("text, game, same_as, seconds", [
    # a pass over the hands per term before: 2 s here, 80 s on two shared cores
    ("AA" + "!KK" * 20_000, "omaha", "AA!KK", 1),
    ("AA" + ":AA**" * 20_000, "omaha", "AA", 1),
    ("AA" + ":$ds" * 20_000, "omaha", "AA$ds", 1),
    ("AA" + " ! KK :$ss" * 10_000 + ":0.5", "omaha", "AA!KK:$ss", 1),
    ("AA" + "!KK" * 2_000, "omaha6", "AA!KK", 10),           # 51 s before
    ("AA" + "!KK" * 20_000, "holdem", "AA", 1),
])
def test_long_chains_cost_one_pass_per_distinct_term(text, game, same_as, seconds):
    """A term given again with the same operator changes nothing, and is skipped."""
    with deadline(seconds):
        r = Range(text, game)
    expect = Range(same_as, game)
    assert np.array_equal(r.combos, expect.combos)


def _many_parts(term: str, room: int = 100_000) -> str:
    return ",".join([term] * (room // (len(term) + 1)))


HUNDRED_THOUSAND = [
    # (text, game, what it gives: a count, or the start of the refusal)
    ("AA" + " " * 100_000 + "!KK", "omaha", 6_925),                 # spaces beside '!'
    ("AA:" + "1" * 100_000 + "x", "omaha", "bad weight"),           # digits: read once
    ("1" * 100_000 + "(AA", "omaha", "bad range part"),
    ("AA:" + "1" * 50_000 + "e" + "1" * 50_000 + "x", "omaha", "bad weight"),
    ("AA" + " " * 100_000 + "x", "omaha", "a space inside the hand"),
    ("AA" + " @" * 50_000, "omaha", "bad weight"),
    ("AA" + "!KK" * 33_000, "omaha6", 1_201_596),
    ("AA" + "".join(f"!{a}{b}{c}" for a in "AKQJT98765432" for b in "AKQJT98765432"
                    for c in "AKQJT98765432") * 11, "omaha", "matches no hand"),
    (_many_parts("AA:KK"), "omaha6", "lists more than 42,000,000 hands"),
    (_many_parts("AA!KK"), "omaha6", "lists more than 42,000,000 hands"),
    (_many_parts("AK****:$ds"), "omaha6", "lists more than 42,000,000 hands"),
    (lambda: "AsAh****" + "".join("!AsAh" + format_cards(more, sep="")     # 7,000 hands
                                  for more in itertools.islice(
                                      itertools.combinations(range(50), 4), 7_000)),
     "omaha6", "tests more than 84,000,000 hands"),
]


@pytest.mark.slow
@pytest.mark.serial                  # a deadline: timed alone, never beside other tests
@pytest.mark.parametrize("text, game, outcome", HUNDRED_THOUSAND)
def test_texts_of_100000_characters_work_or_are_refused_in_seconds(text, game, outcome):
    text = text() if callable(text) else text
    assert len(text) >= 50_000
    with deadline(5):
        if isinstance(outcome, int):
            assert len(Range(text, game)) == outcome
            return
        with pytest.raises(RangeError, match=outcome) as info:
            Range(text, game)
    assert len(str(info.value)) < 400 and "\n" not in str(info.value)


def test_the_terms_of_a_range_are_counted_whatever_was_listed_before():
    """What the ':' and '!' terms cost is counted from the text alone: a term listed
    before (cached) costs the same, so a range is refused, or not, the same each time."""
    from evaluator import ranges

    assert len(Range("AA:KK,AA!QQ,AA:JJ", "omaha6"))     # AA and each other pair: 7.4M
    refused = ",".join(["AA:KK"] * 35)                    # AA and KK listed 35 times: 87M
    for _ in range(2):
        with pytest.raises(RangeError, match="more than"):
            Range(refused, "omaha6")
    assert ranges.TERM_LIMIT == 84_000_000 and ranges.WORK_LIMIT == 42_000_000
