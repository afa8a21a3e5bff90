"""The table engines refuse what they cannot play, before anything changes: too many seats
for the deck, wrong types, bad values, tampered histories, and hands that never end."""
import json
import time

import numpy as np
import pytest

from evaluator import EvaluatorError
from evaluator.errors import ArgumentTypeError
from evaluator.play import (
    HistoryError,
    HoldemSession,
    HoldemTable,
    IllegalAction,
    TeenPattiTable,
    TheTable,
    replay,
    simulate,
)

HOLDEM_LIMITS = {"holdem": 10, "omaha": 10, "omaha5": 8, "omaha6": 7, "omaha8": 10,
                 "pineapple": 10, "crazy_pineapple": 10, "tahoe": 10}


def names(n):
    return [f"p{i}" for i in range(n)]


def make(game, n, **options):
    if game == "teen_patti":
        return TeenPattiTable(names(n), **options)
    if game == "the":
        return TheTable(names(n), **options)
    return HoldemTable(names(n), game=game, **options)


def play_out(t):
    """Check or call (Teen Patti: show when two are left, else pack) to the end."""
    while not t.finished:
        kinds = {a["kind"] for a in t.legal_actions()}
        if "discard" in kinds:
            t.act("discard", card=[t.seats[t.to_act].cards[0]])
        else:
            t.act(next(k for k in ("check", "call", "show", "pack") if k in kinds))


# --- seats: every card dealt must come out of one deck ---------------------------------

@pytest.mark.parametrize("game, limit", [*HOLDEM_LIMITS.items(), ("teen_patti", 17),
                                         ("the", 12)])
def test_a_full_table_deals_every_card_it_needs(game, limit):
    """At the seat limit a whole hand deals from the deck; one seat more is refused up front
    with the count and the limit (6-card Omaha used to run out of cards on the turn)."""
    t = make(game, limit, seed=1)
    play_out(t)
    assert t.finished and sum(s.won for s in t.seats) == t.pot
    with pytest.raises(EvaluatorError, match=f"seats 2 to {limit} players.*got {limit + 1}"):
        make(game, limit + 1, seed=1)


def test_omaha6_with_8_seats_names_the_deck():
    with pytest.raises(EvaluatorError, match=r"omaha6 seats 2 to 7 players \(6 hole cards "
                                             r"each, 5 board cards and 3 burns .*got 8"):
        HoldemTable(names(8), game="omaha6", seed=0)
    for game, n in (("omaha6", 10), ("omaha5", 9)):
        with pytest.raises(EvaluatorError, match=f"got {n}"):
            simulate(game, names(n), hands=1)
        with pytest.raises(EvaluatorError, match=f"got {n}"):
            HoldemSession(names(n), game=game)


# --- types and values ---------------------------------------------------------------------

@pytest.mark.parametrize("build, argument", [
    (lambda: TeenPattiTable(names(3), dealer=1.5), "dealer"),
    (lambda: TeenPattiTable("abc"), "names"),
    (lambda: TeenPattiTable([1, 2, 3]), "names"),
    (lambda: TeenPattiTable(names(3), boot="1"), "boot"),
    (lambda: TeenPattiTable(names(3), pot_limit=2.5), "pot_limit"),
    (lambda: TheTable(names(3), ante=None), "ante"),
    (lambda: TheTable(names(3), seed="7"), "seed"),
    (lambda: HoldemTable(names(3), small_blind=0.5), "small_blind"),
    (lambda: HoldemTable(names(3), big_blind="2"), "big_blind"),
    (lambda: HoldemTable(names(3), kill=True), "kill"),
    (lambda: HoldemTable(names(3), game=4), "game"),
    (lambda: HoldemTable(names(3), deck=52), "deck"),
    (lambda: HoldemSession(names(3), seed=None), "seed"),
    (lambda: simulate("holdem", names(3), hands="2"), "hands"),
    (lambda: simulate("holdem", names(3), policies=["passive"]), "policies"),
    (lambda: simulate("teen_patti", names(3), boot="2"), "boot"),
    (lambda: simulate(None, names(3)), "game"),
])
def test_wrong_types_raise_argument_type_error_naming_the_argument(build, argument):
    with pytest.raises(ArgumentTypeError, match=argument):
        build()


@pytest.mark.parametrize("build, what", [
    (lambda: TeenPattiTable(names(3), dealer=3), "dealer"),
    (lambda: TeenPattiTable(["a", "a", "b"]), "names"),
    (lambda: TeenPattiTable(names(3), boot=0), "boot"),
    (lambda: TeenPattiTable(names(3), pot_limit=3), "pot_limit"),
    (lambda: TheTable(names(3), bet=0), "bet"),
    (lambda: HoldemTable(names(3), small_blind=3, big_blind=2), "small_blind"),
    (lambda: HoldemTable(names(3), small_bet=0), "small_bet"),
    (lambda: HoldemTable(names(3), kill=3), "kill"),
    (lambda: HoldemTable(names(3), deck=list(range(51))), "deck"),
    (lambda: HoldemTable(names(3), deck=[0] * 52), "duplicate"),
    (lambda: HoldemTable(names(3), deck=[c + 0.5 for c in range(52)]), "unknown card"),
    (lambda: HoldemSession(names(3), dealer=1), "dealer"),
    (lambda: simulate("holdem", names(3), policies={"zed": "random"}), "zed"),
    (lambda: simulate("holdem", names(3), boot=2), "boot"),
    (lambda: simulate("teen_patti", names(3), max_actions=0), "max_actions"),
])
def test_bad_values_raise_a_value_error_naming_it(build, what):
    with pytest.raises(EvaluatorError, match=what):
        build()


@pytest.mark.parametrize("table, fold", [
    (lambda: TeenPattiTable(names(3), seed=2), "pack"),
    (lambda: TheTable(names(3), seed=2), "fold"),
    (lambda: HoldemTable(names(3), game="pineapple", seed=2), "fold"),
])
@pytest.mark.parametrize("args, error, argument", [
    (("bet", "2"), ArgumentTypeError, "amount"),
    (("bet", 2.0), ArgumentTypeError, "amount"),
    ((["bet"],), ArgumentTypeError, "kind"),
    (("bet", None, 3.5), ArgumentTypeError, "card"),
    (("fly",), IllegalAction, "fly"),
    (("FOLD", None, "Zz"), EvaluatorError, "Zz"),
    (("FOLD", None, "As"), IllegalAction, "only a discard"),
    (("FOLD", 3), IllegalAction, "takes no amount"),
])
def test_a_refused_action_names_its_argument_and_changes_nothing(table, fold, args, error,
                                                                  argument):
    t = table()
    before = json.dumps(t.history())
    with pytest.raises(error, match=argument):
        t.act(*(fold if a == "FOLD" else a for a in args))
    assert json.dumps(t.history()) == before


def test_seat_arguments_are_checked():
    t = HoldemTable(names(3), seed=2)
    with pytest.raises(ArgumentTypeError, match="seat"):
        t.equity("0")
    with pytest.raises(EvaluatorError, match="seat must be 0 to 2"):
        t.visible(3)
    assert t.visible(np.int64(0))["hands"][1] == "random"
    session = HoldemSession(names(3), game="holdem")
    with pytest.raises(ArgumentTypeError, match="table"):
        session.finish_hand("hand 1")
    with pytest.raises(EvaluatorError, match="not this session's latest hand"):
        session.finish_hand(t)
    hand = session.new_hand()
    play_out(hand)
    session.finish_hand(hand)
    with pytest.raises(EvaluatorError, match="already passed to finish_hand"):
        session.finish_hand(hand)                  # would move the button twice
    assert session.dealer == 1


def test_a_discard_names_its_card_as_text_or_id():
    t = HoldemTable(names(2), game="pineapple", dealer=0, seed=2)
    t.act("call")
    t.act("check")
    t.act("discard", card=t.seats[t.to_act].cards[0])          # an id
    t.act("discard", card=np.array(t.seats[t.to_act].cards[:1]))
    assert len(t.board) == 3 and all(e.get("card", "As")[0] in "23456789TJQKA"
                                     for e in t.log)


def test_an_error_inside_an_action_restores_the_table(monkeypatch):
    """Whatever goes wrong while an action runs, the table is left as it was."""
    t = TeenPattiTable(names(2), seed=3)
    before = json.dumps(t.history())

    def broken(seat):
        raise RuntimeError("evaluator down")
    monkeypatch.setattr(t, "value", broken)
    with pytest.raises(RuntimeError):
        t.act("show")
    assert json.dumps(t.history()) == before and not t.finished and t.to_act == 1


# --- histories -------------------------------------------------------------------------------

def finished_history(game="holdem"):
    return simulate(game, names(3), hands=1, seed=4,
                    policies={"p0": "random", "p1": "random"})["histories"][0]


def test_a_tampered_deck_does_not_replay_to_other_winners():
    record = simulate("holdem", names(3), hands=1, seed=4)["histories"][0]    # a showdown
    assert replay(record).history() == record
    [winner] = record["result"]["winners"]
    tampered = json.loads(json.dumps(record))
    deck = tampered["deck"]
    w, o = (int(winner[1:]) - 1) % 3, int(winner[1:]) % 3      # deal positions: p1 first
    deck[w], deck[o], deck[w + 3], deck[o + 3] = deck[o], deck[w], deck[o + 3], deck[w + 3]
    with pytest.raises(HistoryError, match="does not replay to its recorded result: winners"):
        replay(tampered)
    tampered["result"]["won"] = {}
    del tampered["result"]["winners"]
    with pytest.raises(HistoryError, match="recorded result: won"):
        replay(tampered)
    partial = json.loads(json.dumps(record))                 # the deck intact, no winners
    del partial["result"]["winners"]
    with pytest.raises(HistoryError, match="result has no 'winners'"):
        replay(partial)
    # deleting the result no longer hides the changed deck: a finished hand must record one
    del tampered["result"]
    with pytest.raises(HistoryError, match="records no 'result', but its actions finish"):
        replay(tampered)


@pytest.mark.parametrize("change, message", [
    (lambda h: h["deck"].pop(),                 # was "a deck need 52 cards"
     "^the history.s table cannot be set up: the deck: need 52 cards, got 51"),
    (lambda h: h["deck"].__setitem__(0, h["deck"][1]), "duplicate card"),
    (lambda h: h["deck"].__setitem__(0, "Xx"), "unknown card 'Xx'"),
    (lambda h: h.__setitem__("deck", "As Kd"), "'deck' is a str"),
    (lambda h: h.__setitem__("actions", {}), "'actions' is a dict"),
    (lambda h: h["config"].__setitem__("rake", 1), "unknown option 'rake'"),
    (lambda h: h.__setitem__("dealer", 9), "dealer must be 0 to 2"),
    (lambda h: h["actions"].insert(0, "fold"), "action 1 of the history is not an action"),
    (lambda h: h["actions"].insert(0, {"kind": "bet", "amount": "2"}),
     "action 1 .* cannot be replayed: amount must be an integer"),
    (lambda h: h["actions"].append({"kind": "fold"}), "cannot be replayed: the hand is over"),
])
def test_a_damaged_history_is_refused_with_what_is_wrong(change, message):
    record = finished_history()
    change(record)
    with pytest.raises(HistoryError, match=message):
        replay(record)
    with pytest.raises(ArgumentTypeError, match="history"):
        replay(["not", "a", "history"])


# --- hands that must end --------------------------------------------------------------------

def test_teen_patti_strength_players_end_at_the_pot_limit():
    """Seen players betting the minimum never end a hand by the source's rules; the
    simulator plays with a pot limit of 100 boots, at which everyone still in shows."""
    start = time.perf_counter()
    run = simulate("teen_patti", names(4), hands=3, seed=1,
                   policies={n: "strength" for n in names(4)})
    assert time.perf_counter() - start < 60
    assert sum(run["net"].values()) == 0
    for record in run["histories"]:
        assert record["config"]["pot_limit"] == 100 and record["result"]["finished"]
        assert replay(record).history() == record
    assert any(record["result"]["pot"] >= 100 for record in run["histories"])


def test_the_pot_limit_forces_a_show_of_everyone_still_in():
    deck = [48, 0, 12, 49, 5, 17, 50, 10, 27]          # from the dealer's left: p1 p2 p0
    deck += [c for c in range(52) if c not in deck]
    t = TeenPattiTable(names(3), dealer=0, pot_limit=6, deck=deck)
    t.act("bet", 1)                                    # p1: pot 4
    t.act("bet", 1)                                    # p2: pot 5
    assert not t.finished
    t.act("bet", 1)                                    # p0: pot 6, the limit
    assert t.finished and t.winners == [1] and t.seats[1].won == 6       # AcAdAh
    assert "limit of 6" in t.events[-2]
    assert replay(t.history()).history() == t.history()
    with pytest.raises(EvaluatorError, match="more than 50 actions"):
        simulate("teen_patti", names(3), hands=1, pot_limit=None, max_actions=50)
