"""Equity on unusual but legal input: many players, extreme weights, ranges that rarely
fit together, unknown hands, and results that must stay serialisable.

Each test stands for a defect that once hung, crashed or answered wrongly.
"""
import json
import subprocess
import sys

import pytest

from evaluator import (
    ArgumentTypeError,
    RangeError,
    equity,
    equity_by_street,
    hand_vs_range,
    preflop_matrix,
)

from conftest import interrupt_when, sigint_default


def _within(sampled, exact, sigmas=4.0):
    for s, e in zip(sampled.players, exact.players):
        assert abs(s.equity - e.equity) <= sigmas * s.stderr + 1e-12, (s, e)


def test_many_random_hands_are_dealt_not_redealt():
    # 23 players: redealing whole deals until no two hands collide took hours and ignored
    # Ctrl-C; unknown hands are dealt from the cards left.  A subprocess bounds a regression.
    code = ("import evaluator; r = evaluator.equity('holdem', ['AsKs'] + ['random'] * 22, "
            "trials=20000, seed=3); print(sum(p.equity for p in r.players))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert float(done.stdout) == pytest.approx(1.0)


def test_many_random_hands_agree_with_fewer_players_law():
    # the dealt hands are uniform: every "random" player has the same equity, in law
    r = equity("holdem", ["AsKs"] + ["random"] * 8, trials=200_000, seed=5)
    others = [p.equity for p in r.players[1:]]
    spread = max(others) - min(others)
    assert spread < 8 * max(p.stderr for p in r.players[1:])
    assert [p.hand for p in r.players[1:]] == ["random"] * 8


def test_heavy_weights_on_a_blocked_combo_do_not_hang():
    # AsAh carries almost all the weight and always collides with AsKd
    hands = ["AsAh:1000000,KsKh:0.000001", "AsKd"]
    sampled = equity("holdem", hands, trials=20_000, seed=1)
    exact = equity("holdem", hands, exact=True)
    _within(sampled, exact)


def test_ranges_that_rarely_fit_are_dealt_from_their_listed_tuples():
    # each range puts its weight on combos that collide with the other's: redealing would
    # take ~1e12 draws a deal; the compatible tuples are listed and dealt by weight
    hands = ["AsAh:1000000,KsKh:0.000001", "As2c:1000000,3c3d:0.000001", "JJ"]
    one = equity("holdem", hands, trials=300_000, seed=7, threads=1)
    two = equity("holdem", hands, trials=300_000, seed=7, threads=2)
    assert one.players == two.players                          # the same, bit for bit
    assert "listed" in one.method
    _within(one, equity("holdem", hands, exact=True))


def test_random_and_any_are_the_same_hand():
    a = equity("holdem", ["AsKs", "random"], exact=True)
    b = equity("holdem", ["AsKs", "any"], exact=True)
    assert a.players == b.players
    assert a.players[1].hand == "random"


@pytest.mark.parametrize("game, hero", [("omaha", "AsAhKsKh"), ("omaha8", "AsAh2s3h"),
                                        ("omaha6", "AsAhKsKh2c3c"), ("teen_patti", "AsKsQs"),
                                        ("tahoe", "AsKsQs"), ("holdem", "AsKs")])
def test_random_has_a_name(game, hero):
    r = equity(game, [hero, "random"], trials=2000, seed=1)
    assert r.players[1].hand == "random"


def test_weighted_exact_result_serialises():
    r = equity("holdem", ["AA:0.5,KK", "QQ"], exact=True)
    assert r.fractions is None
    text = json.dumps(r.to_dict(), allow_nan=False)
    assert "equity_fractions" not in text


def test_the_takes_an_empty_board():
    r = equity("the", ["9c9d4s", "AhKhQh"])
    assert r.exact and r.board == ""
    streets = equity_by_street("the", ["9c9d4s", "AhKhQh"], "Ks4d2c7h")
    assert [len(s.board.split()) for s in streets] == [0, 1, 2, 3, 4]
    assert streets[0].players == r.players


def test_hand_vs_range_with_a_blocked_range_is_an_error():
    with pytest.raises(RangeError, match="'AsAh' has no live combos"):
        hand_vs_range("holdem", "AsAh", "AsKdQc", progress=False)


def test_preflop_matrix_names_an_unknown_class():
    with pytest.raises(RangeError, match="'XX' is not one of the 169"):
        preflop_matrix().equity("XX", "AA")
    with pytest.raises(ArgumentTypeError, match="second class"):
        preflop_matrix().equity("AA", 7)


def test_method_states_the_deals_walked():
    r = equity("holdem", ["QQ+,AKs", "random"], "2c4c5h")
    pairs, boards = 23_782, 990
    assert f"{pairs * boards:,} deals ({pairs:,} pairs" in r.method
    assert r.samples == pairs * boards


def test_thread_pools_do_not_pile_up():
    import threading

    import numpy as np

    from evaluator import evaluate_batch
    hands = np.argsort(np.random.default_rng(1).random((1 << 17, 52)), axis=1)[:, :7]
    hands = hands.astype(np.uint8)
    for threads in range(2, 14):
        evaluate_batch("holdem", hands, threads=threads)
        evaluate_batch("holdem", hands, threads=np.int64(threads))
    assert threading.active_count() <= 14 + 2


@pytest.mark.parametrize("command", [
    # minutes of work, below the ten-minute bound on trials (which refuses a trillion)
    ["equity", "holdem", "AsKs", "QhQd", "--trials", "100000000000", "--threads", "1"],
    ["equity", "holdem", "AsKs", "QhQd", "--trials", "100000000000", "--threads", "2"],
    ["equity", "holdem", "AsKs", "random", "random", "--exact", "--threads", "1"],
    ["matrix", "holdem", "--recompute", "--no-progress", "--threads", "2"],
])
@pytest.mark.slow
@pytest.mark.serial
def test_ctrl_c_stops_a_long_computation(command, tmp_path):
    import signal
    import time
    if command[0] == "matrix":
        command = [*command, "--out", str(tmp_path / "m.csv")]
    process = subprocess.Popen([sys.executable, "-m", "evaluator", *command],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=sigint_default)
    time.sleep(4)
    assert process.poll() is None, process.communicate()
    process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("still running 10 s after Ctrl-C")
    assert process.returncode == 130
    assert "interrupted; nothing was written" in err and "Traceback" not in err


@pytest.mark.slow
@pytest.mark.serial
def test_ctrl_c_stops_a_sweep_of_minutes():
    """5-card Omaha's flop, every combo (a minute or more), with weights that do not sum
    exactly: its runouts go to a kernel in chunks, each without a look for Ctrl-C, so the
    chunks are small enough to stop within a second or two (whole weights are walked
    runout by runout from Python, which looks between any two)."""
    against = 'np.random.default_rng(1).random(len(ev.combos("omaha5")))'

    import time
    code = ("import sys, numpy as np, evaluator as ev\n"
            f"v = {against}\n"
            "print('start', file=sys.stderr, flush=True)\n"
            "ev.combo_equity('omaha5', v, '2c7d9h')\n")
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, preexec_fn=sigint_default)
    assert process.stderr is not None
    assert process.stderr.readline() == "start\n"
    sweeping = time.monotonic() + 3                  # three seconds into the sweep
    err, took = interrupt_when(process, lambda: time.monotonic() >= sweeping)
    assert took < 2.5
    assert "KeyboardInterrupt" in err or "Interrupted" in err


def test_ranges_that_fit_one_draw_in_a_hundred_still_sample():
    # two players need the same aces and kings, six more are dealt from the rest
    hands = ["AA**", "AA**", "KK**", "KK**"] + ["random"] * 6
    one = equity("omaha", hands, trials=20_000, seed=2, threads=1)
    two = equity("omaha", hands, trials=20_000, seed=2, threads=2)
    assert one.players == two.players
    assert sum(p.equity for p in one.players) == pytest.approx(1.0)


def test_the_deck_serves_the_discards_too():
    from evaluator import HandError
    with pytest.raises(HandError, match='20 players need 65 cards in "pineapple"'):
        equity("pineapple", ["random"] * 20, trials=10)


def test_a_tiny_target_stderr_is_refused_at_once():
    from evaluator import EvaluatorError
    with pytest.raises(EvaluatorError, match="target_stderr 1e-300 is below"):
        equity("holdem", ["AsKs", "QhQd"], target_stderr=1e-300)


def test_weights_whose_products_underflow():
    # every tuple that fits multiplies two weights of 1e-200 (relative to the largest)
    hands = ["AsAh:1e200,KK", "AsAd:1e200,QQ", "AhAd:1e200,JJ"]
    exact = equity("holdem", hands, exact=True)
    assert sum(p.equity for p in exact.players) == pytest.approx(1.0)
    _within(equity("holdem", hands, trials=100_000, seed=4), exact)


def test_a_hand_of_stars_is_a_random_hand():
    a = equity("holdem", ["AsKs", "*"], exact=True)
    assert a.players == equity("holdem", ["AsKs", "random"], exact=True).players
    assert equity("omaha", ["AsAhKsKh", "****"], trials=1000, seed=1).players[1].hand == \
        "random"


def test_a_game_of_the_wrong_type():
    with pytest.raises(ArgumentTypeError, match="game must be a name"):
        equity(None, ["AsKs", "QhQd"])


def test_heavily_colliding_wide_ranges_are_refused_without_listing_them():
    # three players who nearly always want AsKs: about 1e-18 of draws fit, and the
    # compatible tuples (2e9) are far too many to list: refused, not a 16 GB allocation
    with pytest.raises(RangeError, match="fit together too rarely"):
        equity("holdem", ["random:1e-9,AsKs"] * 3, trials=10_000)


def test_weighted_exact_is_the_same_on_any_number_of_threads():
    hands = ["AA:0.3,KK,AKs:0.77", "QQ:0.55,JJ,AQs:0.1", "TT:0.9,99"]
    one = equity("holdem", hands, exact=True, threads=1)
    two = equity("holdem", hands, exact=True, threads=2)
    assert one.players == two.players


def test_the_pool_serves_concurrent_calls_that_grow_it():
    import threading

    from evaluator._parallel import map_items
    failures = []

    def call(k):
        try:
            assert map_items(lambda x: x * x, range(300), 2 + k) == [x * x for x in range(300)]
        except Exception as error:            # noqa: BLE001 - collected for the assert
            failures.append(error)
    threads = [threading.Thread(target=call, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


def test_a_call_runs_at_most_its_threads_in_a_larger_pool():
    """Items are queued ahead of the workers (``LOOKAHEAD``), yet a call for two threads
    runs at most two at once after another call grew the shared pool to six workers."""
    import threading
    import time

    from evaluator._parallel import map_items
    map_items(lambda x: x, range(12), 6)                # the pool: six workers now
    lock = threading.Lock()
    running = [0, 0]                                    # now, most at once

    def item(x):
        with lock:
            running[0] += 1
            running[1] = max(running[1], running[0])
        time.sleep(0.01)
        with lock:
            running[0] -= 1
        return x

    assert map_items(item, range(24), 2) == list(range(24))
    assert running[1] == 2


@pytest.mark.slow
def test_a_short_call_is_not_queued_behind_a_long_one():
    import threading
    import time

    from evaluator._parallel import map_items
    long_call = threading.Thread(target=map_items,
                                 args=(lambda x: time.sleep(0.25), range(40), 2))
    long_call.start()
    time.sleep(0.3)
    still_running = []

    def short():
        map_items(lambda x: x, range(4), 2)
        still_running.append(long_call.is_alive())
    thread = threading.Thread(target=short)
    thread.start()
    thread.join()
    long_call.join()
    # the long call keeps at most four items in the pool (two a worker): the short call's
    # items run between them, long before the long call's 40 items (5 s) are done
    assert still_running == [True]


def test_hand_vs_range_on_the_river():
    values = hand_vs_range("holdem", "QQ+", "2c3d4h5s9c", progress=False)
    assert values["A6s"] == 1.0          # the six-high straight beats the aces' wheel
    # against the 13 combos left: AA's wheel beats the 12 kings and queens and ties the last
    # AA; QQ loses to all but the last QQ, which it ties
    assert values["AA"] == pytest.approx(12.5 / 13)
    assert values["QQ"] == pytest.approx(0.5 / 13)


def test_discard_equity_counts_the_discard_once():
    from evaluator import discard_equity
    keeps = discard_equity("pineapple", "AsKsQd", ["random"] * 14, dead="2c3c", trials=200)
    assert len(keeps) == 3


def test_absurd_trials_are_refused_at_once():
    from evaluator import EvaluatorError
    with pytest.raises(EvaluatorError, match="more than 1e\\+15"):
        equity("holdem", ["AsKs", "QhQd"], trials=2 ** 70)


def test_by_street_needs_no_board():
    assert len(equity_by_street("teen_patti", ["AsKsQs", "QhQdQc"])) == 1


def test_preflop_matrix_checks_threads():
    from evaluator import EvaluatorError
    with pytest.raises(EvaluatorError, match="threads"):
        preflop_matrix(threads=0)


@pytest.mark.parametrize("game,cards,missing", [
    ("holdem", (), 2), ("holdem", (17,), 1), ("omaha", (0, 51), 2), ("omaha", (), 4),
    ("teen_patti", (8,), 2), ("short_deck", (), 2), ("omaha5", (3, 9, 30, 44), 1),
    ("holdem", (3, 7), 0)])
def test_a_hands_completions_are_every_choice_of_its_missing_cards_in_order(game, cards,
                                                                            missing):
    import itertools

    import numpy as np

    from evaluator.engine.ranged import completion_range
    from evaluator.games import game as get_game
    rest = [c for c in range(52) if c not in cards]
    listed = [sorted(cards + extra) for extra in itertools.combinations(rest, missing)]
    got = completion_range(get_game(game), cards, missing)
    assert got.combos.tolist() == listed
    assert np.all(got.weights == 1.0)
