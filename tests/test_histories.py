"""Hand histories: PHH and PokerStars text read, replayed to the chips they record, and
every all-in's EV against a brute force over the cards to come (``reference``)."""
import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

import evaluator as ev
from evaluator.errors import HistoryError
from evaluator.histories import (
    AllinRow,
    Hand,
    HandProblem,
    Problem,
    allin_ev,
    dumps,
    parse_histories,
    read_histories,
    replay,
    summarize,
)

from conftest import interrupt_when, sigint_default
from reference import brute_force_equity

HERE = Path(__file__).parent / "histories"


def ids(text: str) -> list[int]:
    return [int(c) for c in ev.parse_cards(text)]


def rows_of(name: str, **options) -> dict[str, AllinRow]:
    """The rows of the one hand in ``name``, by player."""
    return {r.player: r for r in allin_ev(read_histories(HERE / name), **options)}


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-9)


# --- all-in EV against the brute force ---------------------------------------------

def test_heads_up_flop_allin_ev_is_the_pot_shared_by_exact_equity():
    rows = rows_of("headsup_flop.phh")
    shares, boards = brute_force_equity("holdem", [ids("AsKs"), ids("QhQd")], ids("2c7d9h"),
                                        [], 5)
    assert boards == 990
    ann, bob = rows["Ann"], rows["Bob"]
    assert (ann.net, bob.net) == (150, -150)                  # kings on the turn
    assert close(ann.allin_ev, float(300 * shares[0] - 150))
    assert close(bob.allin_ev, float(300 * shares[1] - 150))
    assert close(ann.allin_equity, float(shares[0])) and ann.allin_street == "flop"
    assert ann.pots == "300:0,1"


def test_three_way_allin_with_a_side_pot():
    """A short stack all in with two bigger ones: the main pot is shared three ways, the
    side pot between the two who cover it, with the short stack's cards out of the deck."""
    rows = rows_of("threeway_sidepots.phh")
    hands = [ids("AhAd"), ids("KcKd"), ids("8s9s")]
    flop = ids("2h7c9d")
    main, _ = brute_force_equity("holdem", hands, flop, [], 5)
    side, _ = brute_force_equity("holdem", hands[1:], flop, hands[0], 5)
    expected = [150 * main[0], 150 * main[1] + 140 * side[0], 150 * main[2] + 140 * side[1]]
    put = [50, 120, 120]
    for p, name in enumerate(["Ann", "Bob", "Cat"]):
        assert close(rows[name].allin_ev, float(expected[p] - put[p])), name
    assert sum(r.allin_ev for r in rows.values()) == pytest.approx(0, abs=1e-9)
    assert [rows[n].net for n in ("Ann", "Bob", "Cat")] == [-50, -120, 170]
    assert rows["Ann"].pots == "150:0,1,2 140:1,2"
    # the weighted share: Bob's chips expected over the pots he could win
    assert close(rows["Bob"].allin_equity, float((150 * main[1] + 140 * side[0]) / 290))


def test_hi_lo_allin_with_a_quartered_low():
    rows = rows_of("omaha8_quartered.phh")
    shares, _ = brute_force_equity("omaha8", [ids("Ac2cJdJs"), ids("Ad2dKcKh")],
                                   ids("3h4h7c"), [], 5)
    assert close(rows["Ann"].allin_ev, float(20 * shares[0] - 10))
    # the river: kings take the high half, the two equal lows a quarter each
    assert (rows["Ann"].net, rows["Bob"].net) == (-5, 5)
    done = replay(next(read_histories(HERE / "omaha8_quartered.phh")))
    assert done.won == [5, 15]


def test_an_unknown_hand_and_a_river_allin_are_not_adjusted():
    hands = list(read_histories(HERE / "unknown_and_river.phhs"))
    assert [h.index for h in hands] == [0, 1]
    unknown, river = (list(allin_ev([h])) for h in hands)
    assert [r.net for r in unknown] == [100, -100]
    assert all(r.allin_ev is None and r.allin_street is None for r in unknown)
    assert [r.net for r in river] == [-100, 100]
    assert all(r.allin_ev is None for r in river)


def test_pokerstars_rake_uncalled_bet_and_a_folded_player():
    rows = list(allin_ev(read_histories(HERE / "stars_holdem.txt")))
    first = {r.player: r for r in rows if r.hand.endswith("#1")}
    second = {r.player: r for r in rows if r.hand.endswith("#2")}
    assert list(first) == ["bob", "carol", "alice"]       # the seat after the button first
    exact = ev.equity("holdem", ["KcKd", "AhAd"], exact=True).players
    kept = 158 / 161                                      # the rake, from the winner's chips
    assert close(first["alice"].allin_ev, 161 * kept * exact[1].equity - 80)
    assert close(first["bob"].allin_ev, 161 * kept * exact[0].equity - 80)
    assert (first["bob"].net, first["alice"].net, first["carol"].net) == (78, -80, -1)
    assert first["carol"].allin_ev == -1                   # folded: her result is fixed
    assert first["alice"].cards == "AhAd" and first["carol"].cards == "????"
    # no all-in: not adjusted; the uncalled raise went back to bob
    assert (second["bob"].net, second["alice"].net, second["carol"].net) == (1.5, -1, -0.5)
    assert all(r.allin_ev is None for r in second.values())


def test_run_it_twice_takes_ev_from_the_one_deal_and_chips_from_the_runs():
    rows = rows_of("stars_plo_twice.txt")
    exact = ev.equity("omaha", ["TcTs6h6d", "AsAhKdQd"], exact=True).players
    assert close(rows["erin"].allin_ev, 197 * exact[1].equity - 100)
    assert rows["erin"].net == rows["fred"].net == -1.5     # one run each, less the rake
    assert rows["erin"].board == "2c7d9hKs3s"               # the first run's board


def test_summary_totals_chips_and_big_blinds():
    rows = list(allin_ev(read_histories(HERE), on_error="record"))
    players, problems = summarize(rows)
    assert problems == []
    ann = next(s for s in players if s.player == "Ann")
    mine = [r for r in rows if r.player == "Ann"]
    assert ann.hands == len(mine)
    assert ann.won == sum(r.net for r in mine)
    assert ann.allin_ev == pytest.approx(sum(r.allin_ev if r.allin_ev is not None else r.net
                                             for r in mine))
    assert ann.luck == pytest.approx(ann.won - ann.allin_ev)
    assert ann.won_bb == pytest.approx(sum(r.net / r.big_blind for r in mine))


def test_every_hand_replays_to_the_chips_it_records():
    for hand in read_histories(HERE):
        done = replay(hand)
        assert sum(done.won) + done.rake == pytest.approx(sum(p.amount for p in done.pots))
        assert sum(p.amount for p in done.pots) == pytest.approx(sum(done.contributed))


# --- PHH through pokerkit, both ways --------------------------------------------------

def test_our_phh_replays_in_pokerkit_to_the_same_stacks():
    pokerkit = pytest.importorskip("pokerkit")
    for name in ("headsup_flop.phh", "threeway_sidepots.phh", "omaha8_quartered.phh",
                 "unknown_and_river.phhs"):
        for hand in read_histories(HERE / name):
            *_, state = pokerkit.HandHistory.loads(dumps(hand))     # the last state
            assert [float(s) for s in state.stacks] == hand.finishing_stacks, hand.where


def test_pokerkits_phh_is_read_and_replayed():
    pokerkit = pytest.importorskip("pokerkit")
    a = pokerkit.Automation
    automations = (a.ANTE_POSTING, a.BET_COLLECTION, a.BLIND_OR_STRADDLE_POSTING,
                   a.CARD_BURNING, a.HOLE_CARDS_SHOWING_OR_MUCKING, a.HAND_KILLING,
                   a.CHIPS_PUSHING, a.CHIPS_PULLING)
    game = pokerkit.NoLimitTexasHoldem(automations, True, 0, (1, 2), 2)
    state = game((100, 80, 60), 3)
    state.deal_hole("AsAh")
    state.deal_hole("KdKc")
    state.deal_hole("7c2d")
    state.complete_bet_or_raise_to(6)          # the button
    state.fold()
    state.complete_bet_or_raise_to(80)         # the big blind, all in
    state.check_or_call()
    state.deal_board("Qs9h4d")
    state.deal_board("3c")
    state.deal_board("8s")
    text = pokerkit.HandHistory.from_game_state(game, state).dumps()
    (hand,) = parse_histories(text, "pokerkit")
    done = replay(hand)
    stacks = [s - c + w for s, c, w in zip(hand.starting_stacks, done.contributed, done.won)]
    assert stacks == [float(s) for s in state.stacks]
    # the big blind's kings all in against the button's last 60: a main pot of 121 and
    # 20 back to the kings; the small blind's aces folded, out of the deck
    rows = list(allin_ev([hand]))
    assert rows[1].pots == "121:1,2 20:1" and rows[0].allin_ev == rows[0].net == -1
    exact = ev.equity("holdem", ["KdKc", "7c2d"], dead="AsAh", exact=True).players
    assert close(rows[1].allin_ev, 121 * exact[0].equity + 20 - 80)
    assert close(rows[2].allin_ev, 121 * exact[1].equity - 60)


# --- bad input: one record naming the file, line and problem ---------------------------

NT = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = [
{}
]
"""


def nt(stacks: list[int], blinds: list[int], actions: str) -> str:
    """A no-limit hold'em hand in PHH: no antes, a min bet of 2, ``actions`` the inside of
    its list (quoted actions, commas)."""
    return (f'variant = "NT"\nantes = {[0] * len(stacks)}\nblinds_or_straddles = {blinds}\n'
            f"min_bet = 2\nstarting_stacks = {stacks}\nactions = [{actions}]\n")


def problem(actions: str) -> HandProblem:
    (got,) = list(parse_histories(NT.format(actions), "bad.phh"))
    if isinstance(got, HandProblem):
        return got
    with pytest.raises(HandProblem) as caught:
        replay(got)
    return caught.value


@pytest.mark.parametrize("actions, words, line", [
    ('"d dh p1 AsKs", "d dh p2 QhQd", "d dh p3 2c2d", "p1 cc"', "p1 acts out of turn: p3",
     7),
    ('"d dh p1 AsKs", "d dh p2 AsQd", "d dh p3 2c2d"', "card As dealt twice", 7),
    ('"d dh p1 AsKs", "d dh p2 QhQd", "d dh p3 2c2d", "p3 cbr 500"',
     "p3 bets to 500 with 100 in front", 7),
    ('"d dh p1 AsKs", "d dh p2 QhQd", "d dh p3 2c2d", "p3 cc", "d db 2h3h4h"',
     "the board is dealt while p1 is to act", 7),
    ('"d dh p1 AsKs", "d dh p2 QhQd", "d dh p3 2c2d", "p3 cc", "p1 cc", "p2 cc"',
     "the hand ends before its showdown", 7),
    ('"d dh p1 AsKs", "d dh p2 QhQd", "d dh p3 2c2d", "p3 cbr 3"',
     "raises to 3, below the least raise (to 4)", 7),
    ('"d dh p1 AsKx"', "unknown card 'Kx'", 7),
    ('"p4 cc"', "p4 in 'p4 cc': the hand has 3 players", 7),
    ('"d dh p1 AsKs", "p1 jumps"', "unknown action 'p1 jumps'", 7),
])
def test_a_bad_hand_is_one_problem_naming_its_line(actions, words, line):
    found = problem(actions)
    assert words in found.reason
    assert found.source == "bad.phh" and found.line == line
    assert isinstance(found, HistoryError) and str(found).startswith("bad.phh:7: ")



def test_an_action_read_before_is_checked_again_against_the_seats_of_each_hand():
    # the reader keeps each action text it has read: one read in a hand of six players
    # names a seat that a hand of three does not have
    six = nt([100] * 6, [1, 2, 0, 0, 0, 0], '"d dh p5 AsKs", "p5 cc", "p5 sm AsKs"')
    (hand,) = parse_histories(six, "six.phh")
    assert isinstance(hand, Hand) and [a.actor for a in hand.actions] == [4, 4, 4]
    for action, words in [('"d dh p5 AsKs"', "p5 in 'd dh p5 AsKs'"),
                          ('"p5 cc"', "p5 in 'p5 cc': the hand has 3 players"),
                          ('"p5 sm AsKs"', "the hand has 3 players")]:
        assert words in problem(action).reason, action

def test_actions_on_lines_of_their_own_are_named_by_their_line():
    text = NT.format('  "d dh p1 AsKs",\n  "d dh p2 QhQd",\n  "d dh p3 2c2d",\n'
                     '  "p1 cc",')
    (hand,) = parse_histories(text, "bad.phh")
    with pytest.raises(HandProblem, match=r"^bad\.phh:10: p1 acts out of turn"):
        replay(hand)


def test_chips_that_do_not_add_up_are_refused():
    text = (HERE / "headsup_flop.phh").read_text()
    (hand,) = parse_histories(text.replace("finishing_stacks = [350, 0]",
                                           "finishing_stacks = [340, 10]"), "edited.phh")
    with pytest.raises(HandProblem, match=r"p2 \(Bob\) takes 10 chips in the file, 0 by "
                                          "the replay"):
        replay(hand)
    (hand,) = parse_histories(text.replace("finishing_stacks = [350, 0]",
                                           "finishing_stacks = [360, 0]"), "edited.phh")
    with pytest.raises(HandProblem, match="the file's chips hold 10 more than the pots"):
        replay(hand)
    # less for the winner alone is a rake, as online histories record it
    (hand,) = parse_histories(text.replace("finishing_stacks = [350, 0]",
                                           "finishing_stacks = [347, 0]"), "raked.phh")
    assert replay(hand).rake == 3


def test_a_folder_with_broken_files_analyses_the_rest(tmp_path):
    (tmp_path / "a.phh").write_text((HERE / "headsup_flop.phh").read_text())
    (tmp_path / "b.phh").write_text("variant = \n")                     # TOML error
    (tmp_path / "c.phh").write_bytes(b"\x00\x01binary")
    (tmp_path / "d.phh").write_text("")
    (tmp_path / "e.phh").write_text('variant = "F7S"\nantes = [1, 1]\nbring_in = 1\n'
                                    'small_bet = 2\nbig_bet = 4\nstarting_stacks = [50, 50]\n'
                                    'actions = []\n')
    rows = list(allin_ev(read_histories(tmp_path), on_error="record"))
    problems = {Path(r.source).name: r for r in rows if isinstance(r, Problem)}
    assert sorted(problems) == ["b.phh", "c.phh", "d.phh", "e.phh"]
    assert "TOML" in problems["b.phh"].reason and problems["b.phh"].line == 1
    assert "binary" in problems["c.phh"].reason
    assert "empty" in problems["d.phh"].reason
    assert "'F7S' is read but not replayed" in problems["e.phh"].reason
    assert [r.player for r in rows if isinstance(r, AllinRow)] == ["Ann", "Bob"]
    with pytest.raises(HandProblem, match="TOML"):
        list(allin_ev(read_histories(tmp_path)))          # on_error="stop": the first


def test_encodings_latin1_and_byte_order_mark(tmp_path):
    text = (HERE / "stars_holdem.txt").read_text().replace("carol", "Jos\u00e9")
    (tmp_path / "latin1.txt").write_bytes(text.encode("latin-1"))
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    for name in ("latin1.txt", "bom.txt"):
        rows = list(allin_ev(read_histories(tmp_path / name)))
        assert "Jos\u00e9" in {r.player for r in rows}, name


def test_a_truncated_pokerstars_hand_is_a_problem_and_the_next_is_read(tmp_path):
    lines = (HERE / "stars_holdem.txt").read_text().splitlines()
    cut = lines.index("alice: calls $77")
    second = lines.index("", cut)
    (tmp_path / "cut.txt").write_text("\n".join(lines[:cut] + lines[second:]))
    rows = list(allin_ev(read_histories(tmp_path / "cut.txt"), on_error="record"))
    assert isinstance(rows[0], Problem) and "truncated" in rows[0].reason
    assert [r.hand[-2:] for r in rows[1:]] == ["#2"] * 3


# --- the command line ---------------------------------------------------------------------

def test_cli_history_rows_summary_and_resume(tmp_path, capsys):
    import gc

    from evaluator.cli import main
    out = tmp_path / "ev.csv"
    collector = (gc.get_threshold(), gc.get_freeze_count())
    assert main(["history", str(HERE), "--out", str(out), "--json", "--no-progress"]) == 0
    # the run collects less (its objects set aside), and leaves the collector as it was
    assert (gc.get_threshold(), gc.get_freeze_count()) == collector
    summary = json.loads(capsys.readouterr().out)
    assert summary["hands"] == 8 and summary["problems"] == []
    lines = out.read_text().splitlines()
    assert lines[0].startswith("hand,player,seat,game,net,allin_ev")
    full = out.read_text()
    # cut the file inside the fourth hand: --resume computes the rest, the same rows
    kept = [ln for ln in lines[1:] if not ln.startswith(str(HERE / "stars_holdem.txt"))]
    out.write_text("\n".join([lines[0], *kept]) + "\n" + lines[-1][:10])
    assert main(["history", str(HERE), "--out", str(out), "--resume", "--json",
                 "--no-progress"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert sorted(out.read_text().splitlines()) == sorted(full.splitlines())
    assert again["players"] == summary["players"]


def test_resume_of_one_players_json_lines_read_a_row_at_a_time(tmp_path, capsys):
    # the hands of others are skipped, not written: a file's later hand says they are done
    from evaluator.cli import main
    out = tmp_path / "ev.jsonl"
    command = ["history", str(HERE), "--player", "Ann", "--out", str(out), "--json",
               "--no-progress"]
    assert main(command) == 0
    whole = out.read_text()
    summary = json.loads(capsys.readouterr().out)
    lines = whole.splitlines(keepends=True)
    assert len(lines) >= 3
    out.write_text("".join(lines[:2]) + lines[2][:7])      # cut inside the third row
    assert main([*command, "--resume"]) == 0
    assert out.read_text() == whole
    assert json.loads(capsys.readouterr().out) == summary


def test_cli_history_refuses_a_plot_without_a_player(tmp_path, capsys):
    from evaluator.cli import main
    assert main(["history", str(HERE), "--plot", str(tmp_path / "ev.png")]) == 2
    assert "--player" in capsys.readouterr().err


def test_cli_history_plot(tmp_path):
    pytest.importorskip("matplotlib")
    from evaluator.cli import main
    plot = tmp_path / "ev.png"
    assert main(["history", str(HERE), "--player", "Ann", "--plot", str(plot),
                 "--no-progress"]) == 0
    assert plot.stat().st_size > 1000


def test_weights_of_a_hand_sum_to_the_chips_in_play():
    """Each adjusted hand's EVs sum to minus the rake (chips are only moved)."""
    rows = [r for r in allin_ev(read_histories(HERE)) if r.allin_ev is not None]
    by_hand: dict[str, list[AllinRow]] = {}
    for r in rows:
        by_hand.setdefault(r.hand, []).append(r)
    for hand, mine in by_hand.items():
        total = sum(Fraction(r.allin_ev).limit_denominator(10 ** 9) for r in mine)
        rake = -sum(Fraction(r.net).limit_denominator(10 ** 9) for r in mine)
        assert float(total) == pytest.approx(float(-rake), abs=1e-6), hand


# --- PHH's part of TOML, read fast: the standard's answer or none -----------------------

def _toml_documents():
    from hypothesis import strategies as st
    scalar = st.one_of(
        st.text(alphabet="abc d#,]['\"\\:=", max_size=8).map(lambda t: '"' + t + '"'),
        st.text(alphabet="abc d#,][\"", max_size=8).map(lambda t: "'" + t + "'"),
        st.integers(-1000, 1000).map(str), st.sampled_from(["1.5", "-0.25", "inf", "1e3",
                                                            "true", "false", "007", "1_0",
                                                            "12:30:00", ".5"]))
    sep = st.sampled_from([", ", ",", " , ", ",\n  ", ", # note\n  ", "\n", " "])
    array = st.tuples(st.lists(st.tuples(scalar, sep), max_size=4),
                      st.sampled_from(["", ",", ",\n", "\n", " # c\n"])).map(
        lambda parts: "[" + "".join(v + s for v, s in parts[0]).rstrip(", \n#c") + parts[1]
        + "]")
    value = st.one_of(scalar, array)
    line = st.one_of(st.tuples(st.sampled_from(["variant", "antes", "actions", "a-b", "x"]),
                               value).map(lambda kv: f"{kv[0]} = {kv[1]}"),
                     st.sampled_from(["", "# comment", "[1]", "[2]", "['3']", "[a.b]"]))
    return st.lists(line, max_size=8).map("\n".join)


@pytest.mark.filterwarnings("ignore")
def test_the_fast_toml_reader_agrees_with_tomllib():
    import tomllib

    from hypothesis import given, settings

    from evaluator.histories import toml_lines

    @settings(max_examples=400, deadline=None)
    @given(_toml_documents())
    def check(text):
        fast = toml_lines.loads(text)
        try:
            standard = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            assert fast is None, text
            return
        assert fast is None or fast.data == standard, text
    check()
    for path in HERE.glob("*.phh*"):
        text = path.read_text()
        assert toml_lines.loads(text).data == tomllib.loads(text)


# --- the table engine's hands as PHH ----------------------------------------------------

@pytest.mark.parametrize("game, seats", [("holdem", 4), ("omaha8", 3), ("omaha", 2)])
def test_play_hands_are_written_as_phh_that_replays_here_and_in_pokerkit(game, seats):
    from evaluator.histories import play_hand
    from evaluator.play import simulate
    pokerkit = pytest.importorskip("pokerkit")
    played = simulate(game, ["ann", "bob", "cat", "dan"][:seats], hands=40, seed=5)
    kills = 0
    for index, history in enumerate(played["histories"]):
        hand = play_hand(history, "simulated", index)
        done = replay(hand)                    # the file's stacks: checked by the replay
        net = [s - c + w for s, c, w in zip(hand.starting_stacks, done.contributed,
                                            done.won)]
        assert net == hand.finishing_stacks
        assert sorted(hand.players) == sorted(history["seats"])
        if history["config"].get("kill") is not None:
            kills += 1                         # a kill blind acts as the table orders it
            continue
        if hand.variant in ("FT", "FO/8"):
            *_, state = pokerkit.HandHistory.loads(dumps(hand))
            assert [float(s) for s in state.stacks] == hand.finishing_stacks, index
    assert game == "holdem" or kills > 0


def test_a_play_hand_phh_has_no_form_for_is_refused():
    from evaluator.histories import play_hand
    from evaluator.play import HoldemTable
    table = HoldemTable(["ann", "bob"], game="pineapple", seed=1)
    with pytest.raises(ev.EvaluatorError, match="PHH has no code for the table's game"):
        play_hand(table.history())
    table = HoldemTable(["ann", "bob"], seed=1)
    with pytest.raises(ev.EvaluatorError, match="not finished"):
        play_hand(table.history())


def test_equity_by_street_of_the_hands_whose_cards_are_known():
    from evaluator.histories import hand_equities
    rows = list(hand_equities(read_histories(HERE / "threeway_sidepots.phh")))
    assert [r.street for r in rows] == ["preflop", "flop", "turn", "river"]
    hands = [ids("AhAd"), ids("KcKd"), ids("8s9s")]
    flop, _ = brute_force_equity("holdem", hands, ids("2h7c9d"), [], 5)
    assert all(close(a, float(b)) for a, b in zip(rows[1].equity, flop))
    turn, _ = brute_force_equity("holdem", hands, ids("2h7c9dTs"), [], 5)
    assert all(close(a, float(b)) for a, b in zip(rows[2].equity, turn))
    assert rows[3].equity == (0.0, 0.0, 1.0)                  # the straight on the river
    # a folded hand leaves the street after; an unknown one leaves the hand out
    rows = list(hand_equities(read_histories(HERE / "stars_holdem.txt")))
    assert [(r.hand[-2:], r.street, r.players) for r in rows] == [
        ("#1", "flop", ("bob", "alice")), ("#1", "turn", ("bob", "alice")),
        ("#1", "river", ("bob", "alice"))]



# --- what a sweep of bad input found (each a HandProblem, never a traceback) ---------------

HEADS_UP = """variant = "{variant}"
antes = [0, 0]
blinds_or_straddles = [1, 2]
{limits}
starting_stacks = {stacks}
actions = [{actions}]
{extra}"""
SHOWDOWN = '"d db 2c7d9h", "d db Kh", "d db 3c", "p1 sm AsKs", "p2 sm QhQd"'


def heads_up(actions: str, variant: str = "NT", stacks: str = "[100, 100]", extra: str = "",
             limits: str = "min_bet = 2", hole: str = '"d dh p1 AsKs", "d dh p2 QhQd", '):
    return HEADS_UP.format(variant=variant, limits=limits, stacks=stacks,
                           actions=hole + actions, extra=extra)


@pytest.mark.parametrize("text, words", [
    (heads_up('"p2 cc", "p1 cc"', variant="FT", limits='small_bet = "x"\nbig_bet = 4'),
     "'small_bet' must be a list of numbers"),
    (heads_up('"p2 cc", "p1 cc"', variant="FT", limits="small_bet = 2"),
     "needs 'small_bet' and 'big_bet'"),
    (heads_up('"p2 cc", "p1 cc"', limits=""), "needs 'min_bet'"),
    (heads_up('"p2 cc", "p1 cc"', extra="players = 5"), "'players' must be a list of names"),
    (heads_up('"p2 cc", "p1 cc"', extra='players = ["A", "A"]'), "'A' is named twice"),
    (heads_up('"p2 cc", "p1 cc"', stacks="[1" + "1" * 5000 + ", 100]"), "not a PHH file"),
    (heads_up('"p2 cc", "p1 cc"', stacks="[1e308, 1e308]"), "lose whole chips"),
    (heads_up('"p2 cc", "p1 cc"', hole='"d dh p1 AsAs", "d dh p2 QhQd", '),
     "card As twice in 'AsAs'"),
    (heads_up('"p2 cc", "p1 cc", "d db 2c7d9h", "p1 cc", "p2 cc", "d db 2c"'),
     "card 2c dealt twice (the board and the board)"),
    (heads_up('"p2 cc", "p1 cc"', variant="NS", hole='"d dh p1 As2d", "d dh p2 QhQd", '),
     "card 2d is not in the deck of NS"),
    (heads_up('"p2 cbr 1000", "p1 cc"', variant="FT", stacks="[1000, 1000]",
              limits="small_bet = 2\nbig_bet = 4"), "the fixed limit raises to 4"),
    (heads_up('"p2 cbr 100", "p1 cc", ' + SHOWDOWN, extra="finishing_stacks = [0, 0]"),
     "more than a rake"),
])
def test_bad_hands_found_by_the_sweep(text, words):
    found = problem_of(text)
    assert words in found.reason, found.reason


def problem_of(text: str) -> HandProblem:
    (got,) = list(parse_histories(text, "bad.phh"))
    if isinstance(got, HandProblem):
        return got
    with pytest.raises(HandProblem) as caught:
        list(allin_ev([got]))
    return caught.value


def test_an_allin_made_by_the_blinds_alone_is_adjusted():
    (hand,) = parse_histories(heads_up(SHOWDOWN, stacks="[2, 1]",
                                       extra="finishing_stacks = [3, 0]"), "blinds.phh")
    rows = list(allin_ev([hand]))
    exact = ev.equity("holdem", ["AsKs", "QhQd"], exact=True).players
    # p2 (the button) posts its whole stack of 1; p1's big blind of 2 covers it
    assert rows[0].allin_street == "preflop" and rows[0].pots == "2:0,1 1:0"
    assert close(rows[0].allin_ev, 2 * exact[0].equity + 1 - 2)


def test_the_rake_comes_out_of_the_contested_pots_only():
    """A bet given back is not raked: only the 200 called pays the rake of 10."""
    (hand,) = parse_histories(heads_up('"p2 cbr 200", "p1 cc", ' + SHOWDOWN,
                                       stacks="[100, 200]",
                                       extra="finishing_stacks = [190, 100]"), "raked.phh")
    rows = list(allin_ev([hand]))
    exact = ev.equity("holdem", ["AsKs", "QhQd"], exact=True).players
    assert close(rows[0].allin_ev, 190 * exact[0].equity - 100)
    assert close(rows[1].allin_ev, 190 * exact[1].equity + 100 - 200)


def test_a_pathological_array_is_read_in_linear_time():
    import time

    from evaluator.histories import toml_lines
    start = time.perf_counter()
    assert toml_lines.loads("antes = [0" + " " * 200_000 + "x]\n") is None
    assert time.perf_counter() - start < 2


def test_pokerstars_in_windows_1252_with_euros_and_players_sitting_out(tmp_path):
    text = (HERE / "stars_holdem.txt").read_text().replace("$", "\u20ac").replace(
        "carol", "caf\u00e9")
    (tmp_path / "euro.txt").write_bytes(text.encode("cp1252"))
    rows = list(allin_ev(read_histories(tmp_path / "euro.txt")))
    assert {r.player for r in rows} == {"bob", "caf\u00e9", "alice"}
    # a tournament player sitting out is dealt in: posts the ante and folds
    lines = (HERE / "stars_holdem.txt").read_text().split("\n\n\n\n")[0].splitlines()
    lines[lines.index("Seat 6: dave ($60 in chips) is sitting out") + 1:0] = []
    at = lines.index("bob: posts small blind $0.50")
    lines[at:at] = [f"{n}: posts the ante $0.10" for n in ("alice", "bob", "carol", "dave")]
    lines.insert(lines.index("carol: folds") + 1, "dave: folds")
    lines = [ln.replace("raises $77 to $80", "raises $76.90 to $79.90").replace(
        "calls $77", "calls $76.90").replace("$158", "$158.20") for ln in lines]
    (tmp_path / "antes.txt").write_text("\n".join(lines))
    rows = list(allin_ev(read_histories(tmp_path / "antes.txt")))
    assert [r.player for r in rows] == ["bob", "carol", "dave", "alice"]
    assert rows[2].net == -0.10


@pytest.mark.parametrize("line, words", [
    ("*** FLOP *** [1c 7d 9h]", "unknown card '1c'"),
    ("bob: shows [Kc Kd", "cannot read 'bob: shows [Kc Kd'"),
])
def test_a_malformed_pokerstars_line_is_a_problem_naming_it(tmp_path, line, words):
    text = (HERE / "stars_holdem.txt").read_text()
    old = "*** FLOP *** [2c 7d 9h]" if line.startswith("***") else \
        "bob: shows [Kc Kd] (three of a kind, Kings)"
    (tmp_path / "bad.txt").write_text(text.replace(old, line, 1))
    rows = list(allin_ev(read_histories(tmp_path / "bad.txt"), on_error="record"))
    assert isinstance(rows[0], Problem) and words in rows[0].reason, rows[0]
    assert rows[0].line == text.splitlines().index(old) + 1
    assert [r.hand[-2:] for r in rows[1:]] == ["#2"] * 3


@pytest.mark.parametrize("content", [b"\xff\xfe\n", b"[1]\n[2]\n", b'{"x": 1}\n{"y": 2}\n',
                                     b"a,b\n1,2\n3,4", b"a,b",        # not one whole line
                                     b'{"x": 1}'])
def test_resume_refuses_a_file_it_did_not_write_and_leaves_it_as_it_was(tmp_path, content):
    from evaluator.cli import main
    out = tmp_path / ("ev.csv" if content.startswith(b"a,b") else "ev.jsonl")
    out.write_bytes(content)
    assert main(["history", str(HERE), "--out", str(out), "--resume", "--no-progress"]) == 2
    assert out.read_bytes() == content


@pytest.mark.parametrize("name, cut", [("ev.csv", b"hand,player,se"),
                                       ("ev.jsonl", b'{"hand": "')])
def test_a_run_cut_inside_its_first_line_is_resumed(tmp_path, name, cut, capsys):
    from evaluator.cli import main
    out, whole = tmp_path / name, tmp_path / ("whole" + name[2:])
    out.write_bytes(cut)
    assert main(["history", str(HERE), "--out", str(out), "--resume", "--no-progress"]) == 0
    assert main(["history", str(HERE), "--out", str(whole), "--no-progress"]) == 0
    assert out.read_bytes() == whole.read_bytes()


def test_resume_finds_its_hands_however_their_paths_are_written(tmp_path, monkeypatch, capsys):
    from evaluator.cli import main
    monkeypatch.chdir(HERE.parent)
    out = tmp_path / "ev.csv"
    names = ["histories/headsup_flop.phh", "histories/threeway_sidepots.phh"]
    assert main(["history", *names, "--out", str(out), "--no-progress", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(["history", *[str(HERE.parent / n) for n in names], "--out", str(out),
                 "--resume", "--no-progress", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["players"] == first["players"]


def test_phh_written_for_run_it_twice_and_a_dead_blind_reads_back():
    for name in ("stars_plo_twice.txt",):
        (hand,) = read_histories(HERE / name)
        (back,) = parse_histories(dumps(hand), "again.phh")
        assert back.runs == 2
        assert [r.net for r in allin_ev([back])] == [r.net for r in allin_ev([hand])]


# --- many files: here, in a process pool, on Dask: the same rows -----------------------

@pytest.mark.slow
def test_files_analysed_in_a_pool_and_on_dask_give_the_rows_of_one_process(tmp_path):
    from evaluator.histories.run import analyse
    files = sorted(str(p) for p in HERE.iterdir())
    here = list(analyse(files))
    assert list(analyse(files, processes=2)) == here
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        assert list(analyse(files, scheduler=cluster.scheduler_address)) == here
        with distributed.Client(cluster.scheduler_address) as client:
            assert list(analyse(files, scheduler=client)) == here
        from evaluator.cli import main
        assert main(["history", str(HERE), "--scheduler", cluster.scheduler_address,
                     "--out", str(tmp_path / "dask.csv"), "--no-progress"]) == 0
        assert main(["history", str(HERE), "--processes", "1", "--out",
                     str(tmp_path / "here.csv"), "--no-progress"]) == 0
        assert (tmp_path / "dask.csv").read_text() == (tmp_path / "here.csv").read_text()


@pytest.mark.slow
@pytest.mark.serial
def test_ctrl_c_keeps_finished_hands_and_resume_matches_an_uninterrupted_run(tmp_path):
    import subprocess
    import sys
    one = (HERE / "threeway_sidepots.phh").read_text()
    folder = tmp_path / "hands"
    folder.mkdir()
    for f in range(12):
        (folder / f"{f:02d}.phhs").write_text(
            "\n".join(f"[{i + 1}]\n{one}" for i in range(400)))
    out = tmp_path / "ev.csv"

    def lines() -> int:
        return out.read_bytes().count(b"\n") if out.exists() else 0
    command = [sys.executable, "-m", "evaluator", "history", str(folder), "--out", str(out),
               "--processes", "1", "--no-progress"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=sigint_default)
    stderr, took = interrupt_when(proc, lambda: lines() >= 300)
    assert proc.returncode == 130, stderr
    assert took < 2.0, f"took {took:.2f} s to stop"
    assert "interrupted" in stderr and "--resume" in stderr
    kept = lines()
    assert 300 <= kept < 14_401
    again = subprocess.run([*command, "--resume"], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    whole = tmp_path / "whole.csv"
    done = subprocess.run([*command[:6], str(whole), *command[7:]], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert out.read_text() == whole.read_text()          # every row, in order, once


def test_rows_to_parquet_written_at_the_end_and_resumed(tmp_path, capsys):
    pq = pytest.importorskip("pyarrow.parquet")
    from evaluator.cli import main
    out = tmp_path / "ev.parquet"
    assert main(["history", str(HERE), "--out", str(out), "--no-progress", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    rows = pq.read_table(out).to_pylist()
    assert len(rows) == 19 and not (tmp_path / "ev.parquet.rows.jsonl").exists()
    assert rows[0]["hand"].endswith("headsup_flop.phh#1") and rows[0]["net"] == 150
    # resumed: every hand is in the file; the summary is the same, the rows too
    assert main(["history", str(HERE), "--out", str(out), "--resume", "--no-progress",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == first["players"]
    assert pq.read_table(out).to_pylist() == rows


# --- what a review of the diff found -------------------------------------------------------

def test_a_pot_won_uncalled_after_the_flop_may_be_raked():
    text = NT.format('"d dh p1 AsKs", "d dh p2 QhQd", "d dh p3 2c2d", "p3 cc", "p1 cc", '
                     '"p2 cc", "d db 2h7c9d", "p1 cbr 6", "p2 f", "p3 f"') + \
        "finishing_stacks = [103.7, 98, 98]\n"
    (hand,) = parse_histories(text, "raked.phh")
    done = replay(hand)                     # 6 back to p1, a rake of 0.3 from the 6 played
    assert done.rake == pytest.approx(0.3) and done.won[0] == pytest.approx(11.7)


def test_a_straddle_is_the_least_raise_before_the_flop_and_min_bet_after():
    deal = '"d dh p1 AsKs", "d dh p2 QhQd", "d dh p3 2c2d", "d dh p4 7h6h", '

    def straddled(actions: str) -> str:
        return nt([100] * 4, [1, 2, 4, 0], deal + actions)
    (hand,) = parse_histories(straddled(
        '"p4 cc", "p1 cc", "p2 cc", "p3 cc", "d db 2h7c9d", "p1 cbr 2", "p2 f", "p3 f", '
        '"p4 f"'), "s.phh")
    assert replay(hand).won[0] == 18 and hand.big_blind == 2
    (hand,) = parse_histories(straddled('"p4 cbr 6"'), "s.phh")
    with pytest.raises(HandProblem, match="below the least raise"):
        replay(hand)


def test_pokerstars_notes_of_a_player_sitting_out_do_not_seat_them(tmp_path):
    text = (HERE / "stars_holdem.txt").read_text()
    text = text.replace("*** HOLE CARDS ***", "dave: is sitting out\n*** HOLE CARDS ***", 1)
    (tmp_path / "notes.txt").write_text(text)
    rows = list(allin_ev(read_histories(tmp_path / "notes.txt")))
    assert "dave" not in {r.player for r in rows} and len(rows) == 6
    assert rows[0].big_blind == 1.0                     # the stakes' big blind


def test_a_file_named_twice_is_read_once():
    rows = list(allin_ev(read_histories([HERE, HERE / "headsup_flop.phh"])))
    assert len(rows) == 19


def test_an_allin_short_of_a_full_raise_does_not_reopen_the_raising():
    def four(actions: str) -> str:
        return nt([1000, 130, 1000, 1000], [1, 2, 0, 0],
                  '"d dh p1 AsKs", "d dh p2 QhQd", "d dh p3 2c2d", "d dh p4 7h6h", '
                  '"p3 cbr 100", "p4 cc", "p1 f", "p2 cbr 130", ' + actions)
    # p3 raised to 100, p2's all-in to 130 is 30 more, short of the 98 of a full raise:
    # p3 and p4 may call it, not raise again
    (hand,) = parse_histories(four('"p3 cbr 400"'), "short.phh")
    with pytest.raises(HandProblem, match="p3 raises again though no full raise came"):
        replay(hand)
    (hand,) = parse_histories(four(
        '"p3 cc", "p4 cc", "d db 2h7c9d", "p3 cbr 100", "p4 cbr 300", "p3 cc", '
        '"d db Kd", "p3 cc", "p4 cc", "d db 3s", "p3 cc", "p4 cc"'), "short.phh")
    assert replay(hand).contributed == [1, 130, 430, 430]


@pytest.mark.parametrize("flags, words", [
    (["--big-blinds"], "--big-blinds sets --plot's unit"),
    (["--processes", "2", "--scheduler", "tcp://scheduler:8786"], "give one"),
    (["--resume"], "--resume continues an --out file"),
])
def test_cli_history_refuses_options_it_would_not_honour(flags, words, capsys):
    from evaluator.cli import main
    assert main(["history", str(HERE), *flags]) == 2
    assert words in capsys.readouterr().err
