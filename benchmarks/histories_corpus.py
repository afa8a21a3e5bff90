"""A corpus of no-limit hold'em hand histories in PHH, played at random by pokerkit (the
PHH reference), for the hand-history benchmarks: 2 to 6 players, stacks of 40 to 200 big
blinds, folds, calls, raises and all-ins, every showdown shown.

    python benchmarks/histories_corpus.py OUT_FOLDER --hands 20000 --per-file 1000
    python benchmarks/histories_corpus.py TREE --copies 50 --from OUT_FOLDER

The second makes a folder tree of distinct hands from a corpus: each copy of its files
(``site0/month0/`` ...) with the cards of every action line relabelled by the copy's own
permutation of the deck (the showdowns change; the replay finds the winners), so that a
million hands hold a million deals, not twenty thousand read fifty times.
"""
from __future__ import annotations

import argparse
import random
from pathlib import Path


def random_hand(rng: random.Random):
    """One hand played to its end by random legal actions: (pokerkit game, state)."""
    import pokerkit
    a = pokerkit.Automation
    automations = (a.ANTE_POSTING, a.BET_COLLECTION, a.BLIND_OR_STRADDLE_POSTING,
                   a.CARD_BURNING, a.HOLE_CARDS_SHOWING_OR_MUCKING, a.HAND_KILLING,
                   a.CHIPS_PUSHING, a.CHIPS_PULLING)
    players = rng.randint(2, 6)
    game = pokerkit.NoLimitTexasHoldem(automations, True, 0, (1, 2), 2)
    stacks = tuple(rng.randint(80, 400) for _ in range(players))
    state = game(stacks, players)
    deck = list(pokerkit.Card.parse("".join(r + s for r in "23456789TJQKA" for s in "cdhs")))
    rng.shuffle(deck)
    for _ in range(players):
        state.deal_hole((deck.pop(), deck.pop()))
    while state.status:
        if state.can_deal_board():
            count = 3 if len(state.board_cards) == 0 else 1
            state.deal_board(tuple(deck.pop() for _ in range(count)))
            continue
        if state.actor_index is None:
            break
        roll = rng.random()
        owed = state.checking_or_calling_amount or 0
        stack = state.stacks[state.actor_index]
        # a big bet to call is mostly folded, a small one mostly called
        fold = 0.25 if owed * 5 < stack else 0.8
        if roll < fold and owed and state.can_fold():
            state.fold()
        elif roll < 0.9 or not state.can_complete_bet_or_raise_to():
            state.check_or_call()
        else:
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            to = high if roll > 0.99 else min(high, low + rng.randint(0, 3) * low)
            state.complete_bet_or_raise_to(to)
    return game, state


def write_corpus(folder: Path, hands: int, per_file: int, seed: int = 1) -> list[Path]:
    """``hands`` hands in files of ``per_file`` (``.phhs``) under ``folder``."""
    import warnings

    import pokerkit
    warnings.simplefilter("ignore")     # pokerkit warns of cards dealt from outside its deck
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for start in range(0, hands, per_file):
        histories = []
        for _ in range(min(per_file, hands - start)):
            game, state = random_hand(rng)
            histories.append(pokerkit.HandHistory.from_game_state(game, state))
        path = folder / f"hands-{start // per_file:04d}.phhs"
        path.write_text(pokerkit.HandHistory.dumps_all(histories))
        paths.append(path)
    return paths


def relabelled_tree(source: Path, out: Path, copies: int, seed: int = 5) -> int:
    """``copies`` copies of ``source``'s ``.phhs`` files under ``out``, cards relabelled;
    the number of files written."""
    import re
    cards = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    token = re.compile(r"[2-9TJQKA][cdhs]")    # no other word of an action looks like one
    rng = random.Random(seed)
    files = sorted(source.glob("*.phhs"))
    for copy in range(copies):
        shuffled = cards[:]
        rng.shuffle(shuffled)
        relabel = dict(zip(cards, shuffled)).__getitem__
        folder = out / f"site{copy // 10}" / f"month{copy % 10}"
        folder.mkdir(parents=True, exist_ok=True)
        for path in files:
            lines = path.read_text().splitlines(keepends=True)
            (folder / path.name).write_text("".join(
                token.sub(lambda m, to=relabel: to(m.group(0)), line) if line.startswith("actions")
                else line for line in lines))
    return copies * len(files)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out")
    p.add_argument("--hands", type=int, default=20_000)
    p.add_argument("--per-file", type=int, default=1_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--copies", type=int, help="a tree of this many relabelled copies of "
                   "--from's files, instead of a new corpus")
    p.add_argument("--from", dest="source", help="the corpus --copies copies")
    args = p.parse_args()
    if args.copies:
        if not args.source:
            p.error("--copies needs --from FOLDER")
        written = relabelled_tree(Path(args.source), Path(args.out), args.copies)
        print(f"{written:,} files under {args.out}")
        raise SystemExit(0)
    made = write_corpus(Path(args.out), args.hands, args.per_file, args.seed)
    print(f"{args.hands:,} hands in {len(made)} files under {args.out}")
