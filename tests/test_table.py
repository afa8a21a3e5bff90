"""The table engines, each rule tied to the sentence of the source it checks.

Sources: the Teen Patti rules as pagat.com gives them, the home game "The" as its two
source documents describe it, and hold'em rules in the Caro & Cooke style; the README's
"Rules this project decides" states the choices made where they differ.
"""
import json

import pytest

from evaluator import equity, parse_cards
from evaluator.play import (
    HoldemSession,
    HoldemTable,
    IllegalAction,
    TeenPattiTable,
    TheTable,
    replay,
    simulate,
)


def deck(*cards):
    """A deck that deals ``cards`` first, then every other card in id order."""
    first = parse_cards(" ".join(cards)).tolist()
    return first + [c for c in range(52) if c not in first]


def teen_patti(hands, dealer=0, boot=1):
    """Seat i gets hands[i]; cards go one at a time from the dealer's left."""
    n = len(hands)
    cards = [parse_cards(h).tolist() for h in hands]
    order = []
    for k in range(3):
        for step in range(1, n + 1):
            order.append(cards[(dealer + step) % n][k])
    names = [f"p{i}" for i in range(n)]
    return TeenPattiTable(names, dealer=dealer, boot=boot,
                          deck=order + [c for c in range(52) if c not in order])


# --- Teen Patti ------------------------------------------------------------------

def test_boot_and_first_speaker():
    """'Everyone places this minimum stake in the Pot' and 'The betting starts with the
    player to the left of the dealer'."""
    t = teen_patti(["AsKsQs", "2c7d9h", "3c3d3h"], dealer=1, boot=5)
    assert t.pot == 15 and t.stake == 5 and t.to_act == 2
    assert t.seats[2].cards == parse_cards("3c3d3h").tolist()


def test_blind_and_seen_stakes():
    """'If you are a blind player ... at least the current stake and not more than twice
    the current stake. The current stake for the next player is then the amount that you
    put in.' 'If you are a seen player you must bet at least twice the current stake and not
    more than four times the current stake. The current stake for the next player becomes
    half the amount that you bet.'"""
    t = teen_patti(["AsKsQs", "2c7d9h", "3c3d3h"])
    with pytest.raises(IllegalAction, match="bet 1 to 2"):
        t.act("bet", 3)
    t.act("bet", 2)
    assert t.stake == 2 and t.to_act == 2
    t.act("look")                                   # 'you may choose to look ... at your turn'
    assert t.seats[2].seen and t.to_act == 2
    with pytest.raises(IllegalAction, match="bet 4 to 8"):
        t.act("bet", 3)
    t.act("bet", 6)
    assert t.stake == 3 and t.to_act == 0
    with pytest.raises(IllegalAction):
        t.act("bet", 7)                              # p0 is blind: 3 to 6
    assert t.pot == 3 + 2 + 6 and t.stake == 3 and t.to_act == 0


def test_illegal_actions_leave_the_table_unchanged():
    t = teen_patti(["AsKsQs", "2c7d9h", "3c3d3h"])
    before = json.dumps(t.history())
    for kind, amount in (("show", None), ("side_show", None), ("accept", None),
                         ("bet", 99), ("raise", 2)):
        with pytest.raises(IllegalAction):
            t.act(kind, amount)
    assert json.dumps(t.history()) == before and t.pot == 3 and t.to_act == 1


def test_packing_forfeits_and_last_player_wins():
    """'When you pack you drop out of that deal and forfeit any money you have already put
    into the pot' and 'the last surviving player wins all the money in the pot, irrespective
    of the cards held.'"""
    t = teen_patti(["2c3d5h", "AsAhAd", "KsKhKd"])
    t.act("bet", 2)                                  # p1
    t.act("pack")                                    # p2 forfeits the boot
    assert t.to_act == 0
    t.act("pack")                                    # p0 packs: p1 is alone
    assert t.finished and t.winners == [1] and t.seats[1].won == 5
    assert t.seats[2].put_in == 1 and t.seats[2].won == 0
    again = replay(t.to_json())                      # the history as JSON text
    assert again.winners == [1] and again.pot == t.pot and again.history() == t.history()


def test_show_needs_two_players_and_costs():
    """'A show cannot occur until all but two players have dropped out.' 'If you are a blind
    player, the cost of a show is the current stake ... irrespective of whether the other
    player is blind or seen.'"""
    t = teen_patti(["AsKsQs", "2c7d9h", "3c3d3h"])
    with pytest.raises(IllegalAction, match="exactly two players"):
        t.act("show")
    t.act("pack")                                    # p1
    t.act("look")                                    # p2 is seen now
    t.act("bet", 2)                                  # stake 1
    pot = t.pot
    t.act("show")                                    # p0 blind: pays the stake (1)
    assert t.pot == pot + 1 and t.finished and t.winners == [2]     # trail beats pure sequence


def test_seen_player_may_not_demand_a_show_from_a_blind_one():
    """'If you are a seen player and the other player is blind, you are not allowed to demand
    a show. The seen player can only continue betting or drop out.'"""
    t = teen_patti(["AsKsQs", "2c7d9h", "3c3d3h"])
    t.act("pack")                                    # p1
    t.act("look")                                    # p2 seen; p0 blind
    with pytest.raises(IllegalAction, match="may not demand a show from a blind one"):
        t.act("show")
    kinds = {a["kind"] for a in t.legal_actions()}
    assert kinds == {"bet", "pack"}
    t.act("bet", 2)
    assert t.to_act == 0 and not t.finished


def test_seen_show_costs_twice_the_stake_and_a_tie_goes_to_who_did_not_pay():
    """'If both players are seen, either player in turn may pay twice the current stake for a
    show.' 'If the hands are equal, the player who did not pay for the show wins the pot.'"""
    t = teen_patti(["AsKdQc", "9h8h2c", "AhKcQd"])    # p0 and p2 hold equal hands
    t.act("pack")                                    # p1
    t.act("look")
    t.act("bet", 2)                                  # p2 seen bets 2: stake 1
    t.act("look")
    pot = t.pot
    t.act("show")                                    # p0 pays 2 x 1
    assert t.pot == pot + 2
    assert t.winners == [2] and t.seats[2].won == t.pot


def test_side_show_rules():
    """'If all the players are seen, then at your turn, immediately after betting the minimum
    amount (twice the current stake), you can ask the player who bet immediately before you
    for ... a side show.' 'If the compromise is accepted ... the player with the lower ranking
    cards must immediately fold. If they are equal, the player who asked for the compromise
    must fold.' 'If the compromise is refused, the betting continues as usual with the player
    after the one who asked for the compromise.'"""
    t = teen_patti(["AsKdQc", "AhKcQd", "2c2d2h", "5s6s7s"])
    with pytest.raises(IllegalAction, match="every remaining player to be seen"):
        t.act("side_show")
    for _ in range(4):                               # everyone looks and bets the minimum
        t.act("look")
        t.act("bet", 2 * t.stake)
    assert t.to_act == 1
    # refused: betting goes on after the asker
    t.act("side_show")                               # p1 asks p0, who bet just before
    assert t.to_act == 0 and {a["kind"] for a in t.legal_actions()} == {"accept", "refuse"}
    t.act("refuse")
    assert t.to_act == 2 and all(s.active for s in t.seats)
    t.act("bet", 2 * t.stake)                        # p2
    t.act("bet", 2 * t.stake)                        # p3
    t.act("bet", 2 * t.stake)                        # p0
    # accepted with equal hands: the asker (p1) folds
    t.act("side_show")
    t.act("accept")
    assert not t.seats[1].active and t.seats[0].active and t.to_act == 2
    # accepted, lower hand folds: p2 (trail) asks p1? p1 is out; p2 asks p0 (last bettor)
    t.act("side_show")
    t.act("accept")
    assert not t.seats[0].active and t.seats[2].active and t.to_act == 3


# --- The ----------------------------------------------------------------------------

def test_the_deal_order():
    """'Starting with the player to the dealer's left and ending with the dealer, each player
    receives one card face down, and then one card is dealt face down to the board. This is
    repeated twice more ... The next card is dealt face up to the board'."""
    t = TheTable(["a", "b", "c"], dealer=2, deck=deck("2c 3c 4c 5c", "2d 3d 4d 5d",
                                                      "2h 3h 4h 5h", "As"))
    assert [t.seats[i].cards for i in (0, 1, 2)] == [parse_cards(x).tolist() for x in
                                                    ("2c 2d 2h", "3c 3d 3h", "4c 4d 4h")]
    assert t.face_down == parse_cards("5c 5d 5h").tolist()
    assert t.board == parse_cards("As").tolist()          # round 1: one card face up
    assert t.pot == 3 and t.to_act == 0                    # ante; the dealer's left opens


def test_the_openers():
    """'In each later round, the player who made the last bet or raise in the previous round
    begins the betting. If there was no bet in the previous round, the turn to begin passes
    one place to the left of the player who began that round.'"""
    t = TheTable(["a", "b", "c", "d"], dealer=0, seed=3)
    assert t.to_act == 1
    t.act("check")
    t.act("bet")                                           # c bets
    t.act("call")
    t.act("raise")                                         # a raises: the last raiser
    t.act("call")
    t.act("call")
    t.act("call")
    assert t.round == 2 and t.to_act == 0 and len(t.board) == 2      # a opens round 2
    for _ in range(4):
        t.act("check")                                     # nobody bets in round 2
    assert t.round == 3 and t.to_act == 1 and len(t.board) == 3      # one left of a
    for _ in range(4):
        t.act("check")
    assert t.round == 4 and t.to_act == 2 and len(t.board) == 4      # one left of b
    assert t.openers == [1, 0, 1, 2]


def test_the_showdown_picks_nines_full_and_splits_identical_hands():
    """'The best five-card hand from a player's three cards and the four board cards wins.'
    'Identical hands split the pot.'"""
    t = TheTable(["a", "b", "c"], dealer=2,
                 deck=deck("9c 8s 8h Kh", "9d 7s 7h 9s", "4s 2c 2d 4d", "4c"))
    for _ in range(4):
        for _ in range(3):
            t.act("check")
    assert t.finished and t.winners == [0]                 # 9c9d4s: nines full of fours
    t = TheTable(["a", "b"], dealer=1, deck=deck("2c 2d Ah", "3c 3d Kh", "5c 5d Qh", "Jh"))
    for _ in range(8):
        t.act("check")
    assert t.winners == [0, 1] and t.seats[0].won == t.seats[1].won == 1   # board plays


# --- hold'em family -----------------------------------------------------------------

def test_blinds_order_burns_and_limits():
    """'the blind posted by the player immediately to the left of the dealer button and a
    full small bet by the player two to the left' - 'The first round of betting begins with
    the player to the left of the last player to post a blind bet' - 'On subsequent rounds,
    the first active player clockwise from the button acts first' - 'The dealer then burns a
    card and deals three cards' - 'In limit games the stakes generally double on the turn.'"""
    t = HoldemTable(["a", "b", "c", "d"], dealer=0, small_blind=1, big_blind=2, seed=4)
    assert (t.sb_seat, t.bb_seat, t.to_act, t.pot) == (1, 2, 3, 3)
    assert [len(s.cards) for s in t.seats] == [2, 2, 2, 2]
    assert t.seats[1].cards[0] == t.deck[0] and t.seats[0].cards[0] == t.deck[3]
    t.act("call")                                          # d
    t.act("fold")                                          # a (button)
    t.act("call")                                          # b
    t.act("check")                                         # c, the big blind's option
    assert t.street == 1 and t.board == t.deck[9:12] and t.burned == [t.deck[8]]
    assert t.to_act == 1                                   # first active left of the button
    t.act("bet")
    assert t.current == 2                                  # flop: the small bet
    for _ in range(2):
        t.act("call")
    assert t.street == 2 and t.to_act == 1
    t.act("bet")
    assert t.current == 4                                  # the turn doubles it


def test_heads_up_button_posts_the_small_blind():
    t = HoldemTable(["a", "b"], dealer=0, seed=1)
    assert t.sb_seat == 0 and t.bb_seat == 1 and t.to_act == 0


def test_pineapple_discards_before_the_flop_and_crazy_pineapple_after():
    """Pineapple: 'After the initial betting round, but before the Dealer burns and turns
    the flop, each player must discard one card'. Crazy Pineapple: 'Players discard their
    third hole card after the dealer has burned and turned the flop, but before commencement
    of the second betting round.'"""
    t = HoldemTable(["a", "b", "c"], game="pineapple", dealer=0, seed=2)
    assert all(len(s.cards) == 3 for s in t.seats)
    for _ in range(2):
        t.act("call")
    t.act("check")
    assert t.board == [] and t.legal_actions()[0]["kind"] == "discard"
    with pytest.raises(IllegalAction, match="does not hold"):
        t.act("discard", card="As" if "As" not in str(t.seats[t.to_act].cards) else "Ks")
    for _ in range(3):
        t.act("discard", card=parse_cards([t.seats[t.to_act].cards[0]]).tolist()[0:1])
    assert len(t.board) == 3 and all(len(s.cards) == 2 for s in t.seats)
    crazy = HoldemTable(["a", "b", "c"], game="crazy_pineapple", dealer=0, seed=2)
    for _ in range(2):
        crazy.act("call")
    crazy.act("check")
    assert len(crazy.board) == 3 and crazy.legal_actions()[0]["kind"] == "discard"
    with pytest.raises(IllegalAction):
        crazy.act("check")                                 # discard first
    for _ in range(3):
        crazy.act("discard", card=[crazy.seats[crazy.to_act].cards[-1]])
    assert {a["kind"] for a in crazy.legal_actions()} >= {"check", "bet"}


def _play_to_showdown(t):
    while not t.finished:
        kinds = {a["kind"] for a in t.legal_actions()}
        t.act("check" if "check" in kinds else "call")


def _omaha_deck():
    # seats 0, 1, 2 with the button on 2: the deal starts with seat 0
    a, b, c = parse_cards("Ah 2h 7c 7d").tolist(), parse_cards("Ks Kd Qc Jc").tolist(), \
        parse_cards("9s 9h 5c 5d").tolist()
    order = [x for k in range(4) for x in (a[k], b[k], c[k])]
    board = parse_cards("2c 3d 4s Kh 8c").tolist()
    burns = parse_cards("Tc Td Th").tolist()
    dealt = order + [burns[0]] + board[:3] + [burns[1], board[3], burns[2], board[4]]
    return dealt + [x for x in range(52) if x not in dealt]


def test_hi_lo_split_is_exact():
    """'the pot is divided equally between the best possible high hand and the best possible
    low hand'; the odd chip of an odd pot goes to the high half (the README's rules)."""
    t = HoldemTable(["a", "b", "c"], game="omaha8", dealer=2, small_blind=1, big_blind=2,
                    deck=_omaha_deck())
    t.act("call")                                          # a (the button's left is a: SB)
    _play_to_showdown(t)
    # a: A-2 makes the wheel low; b: set of kings is the best high
    assert t.low_winners == [0] and t.high_winners == [1]
    assert t.seats[1].won == t.pot - t.pot // 2 and t.seats[0].won == t.pot // 2


def test_omaha_kill_after_two_pots_in_a_row():
    """'a player who wins two pots in a row must kill the subsequent pot' (hi-lo: 'a player who
    scoops by winning both the high and low parts of the pot in a single hand')."""
    session = HoldemSession(["a", "b", "c"], game="omaha", seed=0)
    kills = []
    for _ in range(12):
        t = session.new_hand()
        kills.append(t.kill)
        if t.kill is not None:
            assert t.seats[t.kill].put_in >= 2 * t.big_blind and t.size == 2 * t.small_bet
        while not t.finished:                              # everyone folds to the big blind
            kinds = {a["kind"] for a in t.legal_actions()}
            t.act("fold" if "fold" in kinds and t.to_act != t.bb_seat else
                  ("check" if "check" in kinds else "call"))
        session.finish_hand(t)
    # the big blind wins every pot, but the big blind moves: no one wins twice in a row
    assert kills == [None] * 12
    session = HoldemSession(["a", "b"], game="omaha", seed=0)
    winners, kills = [], []
    for _ in range(4):
        t = session.new_hand()
        kills.append(t.kill)
        while not t.finished:                              # seat 0 always wins by a fold
            t.act("fold" if t.to_act == 1 else
                  ("check" if "check" in {a["kind"] for a in t.legal_actions()} else "call"))
        winners.append(t.winners)
        session.finish_hand(t)
    assert winners[:2] == [[0], [0]] and kills[2] == 0


# --- histories, replay, equity, simulation --------------------------------------------

@pytest.mark.parametrize("game", ["teen_patti", "the", "holdem", "omaha8", "pineapple",
                                  "crazy_pineapple", "tahoe"])
def test_histories_replay_to_the_same_pots_and_winners(game, tmp_path):
    run = simulate(game, ["a", "b", "c"], hands=5, seed=11,
                   policies={"a": "random", "b": "random"})
    for record in run["histories"]:
        path = tmp_path / "hand.json"
        path.write_text(json.dumps(record))
        again = replay(path.read_text())
        assert again.finished
        assert again.history() == record                  # same pots, winners, everything
    assert sum(run["net"].values()) == 0                   # chips are conserved


def test_equity_from_what_a_player_sees():
    t = TeenPattiTable(["a", "b", "c"], seed=5)
    assert t.equity(1, trials=50_000) == pytest.approx(1 / 3, abs=0.01)    # still blind
    h = HoldemTable(["a", "b"], dealer=0, seed=8)
    h.act("call")
    h.act("check")
    view = h.visible(0)
    assert sorted(parse_cards(view["hands"][0]).tolist()) == sorted(h.seats[0].cards)
    assert view["hands"][1] == "random" and len(view["board"]) == 6     # the flop, as text
    direct = equity("holdem", view["hands"], view["board"], exact=True)
    assert h.equity(0, trials=None) == direct.players[0].equity
    for version in (1, 2):                  # the seed and stream, as equity() takes them
        sampled = equity("holdem", view["hands"], view["board"], trials=20_000, seed=4,
                         version=version)
        assert h.equity(0, trials=20_000, seed=4, version=version) == sampled.players[0].equity


def test_simulator_reports_results():
    run = simulate("holdem", ["a", "b", "c", "d"], hands=30, seed=3,
                   policies={"a": "strength", "b": "random"})
    assert run["hands"] == 30 and sum(run["wins"].values()) >= 30
    assert sum(run["net"].values()) == 0
    with pytest.raises(ValueError, match="unknown policy"):
        simulate("holdem", ["a", "b"], hands=1, policies={"a": "bluff"})


def test_replay_rejects_what_is_not_a_history():
    from evaluator import EvaluatorError
    with pytest.raises(EvaluatorError, match="not a hand history"):
        replay("not json")
    with pytest.raises(EvaluatorError, match="no 'game'"):
        replay("{}")


# --- long histories ---------------------------------------------------------------------------

def long_teen_patti(bets=3_000):
    """A hand of ``bets`` blind bets of one boot round three players (no pot limit: the
    source's hand can go on for ever), then a look, a pack and a show: each action
    appends to the log, the events and the bettors."""
    t = TeenPattiTable(["a", "b", "c"], dealer=0, boot=1, seed=12)
    for _ in range(bets):
        t.act("bet", 1)
    t.act("pack")
    t.act("look")
    t.act("bet", 2)
    t.act("show")
    assert t.finished and len(t.log) == bets + 4
    return t


def test_long_histories_replay_in_linear_time():
    """replay() copied the whole table, log included, before every action: 2,000 actions
    took 5.2 s.  Now each action costs the same however long the history."""
    import time
    t = long_teen_patti()
    record = t.history()
    start = time.perf_counter()
    again = replay(record)
    seconds = time.perf_counter() - start
    assert seconds < 0.5 * len(record["actions"]) / 1000, seconds     # per thousand actions
    assert again.history() == record and again.result() == t.result()
    assert again.events == t.events and again.bettors == t.bettors
    assert replay(json.dumps(record)).history() == record


def test_a_refused_action_after_many_still_leaves_the_table_as_it_was():
    t = TeenPattiTable(["a", "b", "c"], dealer=0, boot=1, seed=12)
    for _ in range(500):
        t.act("bet", 1)
    before, events, bettors = json.dumps(t.history()), list(t.events), list(t.bettors)
    for kind, amount in (("bet", 99), ("show", None), ("accept", None), ("bet", None)):
        with pytest.raises(IllegalAction):
            t.act(kind, amount)
    assert json.dumps(t.history()) == before
    assert t.events == events and t.bettors == bettors and len(t.log) == 500
    t.act("bet", 1)                                  # and play goes on from there
    assert len(t.log) == 501 and len(t.bettors) == 501 and t.pot == 504


def test_a_long_history_is_checked_against_its_result_as_soon_as_it_can_be():
    """A result that cannot be right is refused before the replay (its keys) or at the
    action whose pot passes the recorded one, not after thousands more actions."""
    from evaluator.play import HistoryError
    record = long_teen_patti().history()
    passed = json.loads(json.dumps(record))
    passed["result"]["pot"] = 100                    # 3 boots, then 1 a bet: 101 at action 98
    with pytest.raises(HistoryError, match="recorded result: pot 100 recorded, 101 on replay "
                                           "already after action 98 of 3004"):
        replay(passed)
    strange = json.loads(json.dumps(record))
    strange["result"]["rake"] = 0
    strange["actions"][-1] = {"kind": "dance"}       # the result's key is checked first
    with pytest.raises(HistoryError, match="unknown key 'rake'"):
        replay(strange)
    strange["result"] = None
    with pytest.raises(HistoryError, match="'result' is a NoneType"):
        replay(strange)
