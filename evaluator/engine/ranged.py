"""Equity where some hands are ranges: every player becomes a weighted list of combos.

Exact: every tuple of combos without a shared card, grouped by suit symmetry, each group
counted once (``exact.weighted_exact``); two or three ranges on the flop or turn, the few
boards are walked instead (``boards``).  Sampled: ``RangeSampler`` deals combos by weight.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from .. import _tables
from .._parallel import even_spans, map_items, resolve_threads
from ..cards import format_cards
from ..combo_order import lex_subsets
from ..errors import EvaluatorError, NoDeal
from ..families import family
from ..games import Game
from ..kernels.markers import (  # NumPy only: no Numba import
    combo_marker,
    deal_marker,
    dealer_marker,
)
from ..listing import any_clear
from ..progress import item_done, planned
from ..ranges import Range, card_masks
from .boards import heads_up_by_boards, three_way_by_boards
from .exact import complete_deals, tally_chunk, weighted_exact
from .plan import (
    CLASSES_PER_CALL,
    EXACT_SECONDS,
    EXACT_SECONDS_MAX,
    LISTED_COMPLETIONS,
    RANGE_TUPLE_LIMIT,
    SPAN_SECONDS,
    class_seconds,
    duration,
)
from .results import Counts, EquityResult, make_result
from .sample import sample_until
from .sampler import WHOLE_COMBOS, RangeSampler, combo_tuples
from .showdown import hole_showdown, showdown_applies, three_range_seconds
from .spots import STREAM_VERSION, completion_text, resolve_seed
from .vector_equity import heads_up_by_vectors, sweep_seconds, vectors_serve


def range_equity(g: Game, parsed, unknown, ranges, board_ids, dead_ids, exact, trials,
                  target_stderr, seed, threads, version: int = STREAM_VERSION) -> EquityResult:
    """Equity where some hands are ranges: every player becomes a weighted range.
    ``version``: the Monte Carlo stream (see ``equity``)."""
    from .._suits import canonical_classes, stabilizer
    from ..kernels import range_sampling
    from ..kernels import ranges as range_kernels
    players = len(parsed)
    out = np.concatenate([board_ids, dead_ids])
    # hands with unknown cards and no range of their own ("random", "As?") become the range
    # of their completions; where that is long (Omaha's "random" alone is 270,725 combos,
    # 20 M in 6-card Omaha) it is listed only if exact enumeration needs it, and the Monte
    # Carlo sampler deals the cards instead
    names: list[str] = []
    # a player's combos and weights, or None while not listed (see list_completions)
    rows: list[Any] = []
    weights: list[Any] = []
    masks_of: list[Any] = []          # each listed player's card masks (the range's own)
    sizes: list[int] = []
    # each range's live weights are scaled so that the largest is 1 (products of small
    # weights then stay representable); ``scale`` is the product of the factors, which the
    # result multiplies back so that its deal weight is in the ranges' own weights
    scale = 1.0
    sampling = trials is not None or target_stderr is not None
    # wide ranges that the generic sampler deals (Omaha, Tahoe, The, Teen Patti) are drawn
    # whole, a combo holding a board, dead or known card dealt again
    # (``RangeSampler.whole``), however the query came to sample (the same deals for a
    # seed with trials= or without): not listed live again for every board (a flop study
    # asks 1,755); where it surely samples, not listed at all.  The first stream keeps the
    # live lists
    draw_whole = (version >= 2 and not family(g).ranged(g)
                  and sum(len(r) for r in ranges if r is not None) >= WHOLE_COMBOS)
    whole = draw_whole and (sampling or exact is False)
    out_bits = sum(1 << int(c) for c in out.tolist())
    for i, (cards, missing, rng) in enumerate(zip(parsed, unknown, ranges), start=1):
        completions = math.comb(52 - len(out) - len(cards), missing)
        if rng is None and completions > LISTED_COMPLETIONS:
            names.append(completion_text(cards, missing))
            rows.append(None)
            weights.append(None)
            masks_of.append(None)
            sizes.append(completions)
            continue
        if rng is None:
            rng = partial_range(g, cards, missing)
        names.append(rng.text if ranges[i - 1] is not None or missing else format_cards(cards))
        if whole and ranges[i - 1] is not None:
            if not any_clear(rng.masks(), out_bits):
                raise NoDeal(f"the range of hand {i} ({rng.text!r}) has no live combos once "
                              "the board and dead cards are out", rng.text)
            rows.append(rng.combos)
            masks_of.append(rng.masks())
            weights.append(rng.weights)
            sizes.append(len(rng))
            continue
        alive = rng.live(out)
        if not len(alive):
            raise NoDeal(f"the range of hand {i} ({rng.text!r}) has no live combos once "
                          "the board and dead cards are out", rng.text)
        top = float(alive.weights.max())
        scale *= top
        rows.append(alive.combos)
        masks_of.append(alive.masks())
        weights.append(alive.weights if top == 1.0 else alive.weights / top)
        sizes.append(len(alive))

    def list_completions() -> None:
        for p, (cards, missing) in enumerate(zip(parsed, unknown)):
            if rows[p] is None:
                alive = partial_range(g, cards, missing).live(out)
                rows[p], weights[p] = alive.combos, alive.weights
                masks_of[p] = alive.masks()

    need = max(g.streets) - len(board_ids)
    left = 52 - len(out) - players * g.hole
    boards = math.comb(left, need)
    threads = resolve_threads(threads, 1 << 30)
    used_seed = None
    unswept = ""                              # why a sweep that could answer declined
    if exact is not False and not sampling and showdown_applies(g, rows, need):
        budget = EXACT_SECONDS_MAX if exact else EXACT_SECONDS
        shown = hole_showdown(g, names, rows, weights, board_ids, dead_ids, scale, threads,
                              budget)
        if shown is not None:
            return shown
        sweep_for = three_range_seconds(rows)
        unswept = (f"; the sweep of three ranges would take {duration(sweep_for)}"
                   if sweep_for > budget else
                   "; the sweep of three ranges that answers it exactly declined their "
                   "weights, which sum exactly only as whole multiples of one power of two "
                   "(1, 0.5, 0.25 ...)")
    if (players == 2 and family(g).ranged(g) and need <= 2
            and exact is not False and not sampling):
        list_completions()
        if _swept_sooner(g, len(rows[0]) * len(rows[1]), len(board_ids), boards):
            swept = heads_up_by_vectors(g, names, rows, weights, board_ids, dead_ids, scale,
                                        threads)
            if swept is not None:
                return swept
        return heads_up_by_boards(g, names, rows, weights, board_ids, dead_ids, need, scale)
    if (players == 3 and g.hole == 2 and family(g).ranged(g) and need <= 2
            and exact is not False and not sampling):
        list_completions()
        # at most about 13 s on one core (three random hands on a flop): exact=True always
        # walks the boards, exact=None when that is quick; the walk declines weights too far
        # apart to sum exactly, which the tuples then serve
        walked = three_way_by_boards(g, names, rows, weights, board_ids, dead_ids, need,
                                     scale, threads, None if exact else EXACT_SECONDS)
        if walked is not None:
            return walked
    # how many combo tuples could be dealt, before listing them
    upper = 0 if whole else _tuple_bound(parsed, unknown, ranges, masks_of, sizes, len(out),
                                         g.hole)          # whole: sampled, listed never
    if (players == 2 and exact is not False and not sampling and upper > RANGE_TUPLE_LIMIT
            and vectors_serve(g, len(board_ids), EXACT_SECONDS_MAX if exact else None)):
        # too many pairs to walk: every combo swept once a board instead, as exactly
        list_completions()
        swept = heads_up_by_vectors(g, names, rows, weights, board_ids, dead_ids, scale,
                                    threads)
        if swept is not None:
            return swept
        declined = ("; the combo sweep that answers it exactly declined the second range's "
                    "weights, which sum exactly only as whole multiples of one power of two "
                    "(1, 0.5, 0.25 ...)")
    else:
        swept_seconds = sweep_seconds(g, len(board_ids)) if players == 2 else 0.0
        declined = (f"; the combo sweep would take {duration(swept_seconds)}"
                    if math.isfinite(swept_seconds) and swept_seconds > EXACT_SECONDS_MAX
                    else unswept)
    tuples: np.ndarray | None = None
    group = stabilizer(board_ids, dead_ids)
    # at least this many suit classes: half the tuples (the rest may share cards), each class
    # at most as large as the group of suit renamings
    at_least = upper / 2 / len(group) * class_seconds(g, need, left)
    if exact and upper > RANGE_TUPLE_LIMIT * 4:
        took = f" (at least {duration(at_least)})" if duration(at_least) else ""
        raise EvaluatorError(f"exact=True would enumerate up to {upper:,} combo tuples"
                             f"{took}, too many to finish in reasonable "
                             f"time{declined}; use trials= or target_stderr= to sample", upper)
    if exact is None and at_least > EXACT_SECONDS:
        exact = False                              # clearly too long: sample, list nothing
    if exact or (exact is None and not sampling and upper <= RANGE_TUPLE_LIMIT * 4):
        list_completions()
        masks = [m if m is not None else card_masks(r) for r, m in zip(rows, masks_of)]
        tuples, tuple_weights, shift = combo_tuples(
            rows, weights, masks, RANGE_TUPLE_LIMIT if exact is None else None)
        scale *= shift
        if tuples is not None and not len(tuples):
            raise NoDeal("no deal fits the ranges: every combination of them shares a "
                          "card", names)
    if tuples is not None:
        reps, classes = canonical_classes(tuples, players, group)
        per_class = class_seconds(g, need, left)
        estimate = len(reps) * per_class
        if exact is None:
            exact = estimate <= EXACT_SECONDS
        elif estimate > EXACT_SECONDS_MAX:
            raise EvaluatorError(f"exact=True would enumerate {len(tuples):,} combo tuples "
                                 f"({len(reps):,} after suit symmetry) on {boards:,} boards "
                                 "each, too many to finish in reasonable time; use trials= or "
                                 "target_stderr= to sample", len(tuples))
    elif exact:
        raise EvaluatorError(f"exact=True would enumerate up to {upper:,} combo tuples, too "
                             "many to finish in reasonable time; use trials= or "
                             "target_stderr= to sample", upper)
    else:
        exact = False
    if exact:
        assert tuples is not None              # exact is decided only once they are listed
        weight = np.bincount(classes, weights=tuple_weights)
        integral = bool(np.all(tuple_weights == 1))
        if integral:
            weight = np.rint(weight).astype(np.int64)
        holes = tuples[reps].reshape(len(reps), players, g.hole)
        counts = Counts(players, weighted=not integral)
        # spans set by the spot alone, not by the thread count (weighted sums then add up in
        # the same order on any number of threads), each about SPAN_SECONDS of work (so that
        # Ctrl-C stops the work within one of them)
        size = min(CLASSES_PER_CALL, max(1, int(SPAN_SECONDS / per_class)))
        spans = even_spans(len(reps), -(-len(reps) // size))
        planned(len(spans), "parts of the combo tuples enumerated")
        for part in map_items(lambda span: weighted_exact(g, holes[span[0]:span[1]],
                                                      weight[span[0]:span[1]], board_ids,
                                                      dead_ids, need, not integral),
                         spans, threads, done=item_done):
            counts.add(part)
        method = (f"exact enumeration of {len(tuples):,} combo tuples "
                  f"({len(reps):,} up to suit symmetry) x {boards:,} boards")
        return make_result(g, names, board_ids, dead_ids, counts, True, method, None,
                           weight_scale=scale)
    # Monte Carlo over weighted combos
    used_seed = resolve_seed(seed)
    fused = family(g).ranged(g)
    heads_up_kernel = fused and players == 2
    if heads_up_kernel:
        list_completions()
    else:
        # hands without a range of their own are dealt their missing cards with the board,
        # from the cards the ranges leave: the same deals, in law, as a uniform range of their
        # completions (every tuple of range combos leaves as many ways to complete them), and
        # never redealt, however many players there are
        for p in range(players):
            if ranges[p] is None and unknown[p]:
                rows[p] = weights[p] = masks_of[p] = None
    ranged = [p for p in range(players) if rows[p] is not None]
    dealt = [p for p in range(players) if rows[p] is None]
    hidden = sum(unknown[p] for p in dealt)
    taken = 0
    for c in out.tolist() + [c for p in dealt for c in parsed[p].tolist()]:
        taken |= 1 << c
    sampler = None
    if draw_whole:
        # the known hands' cards are taken too; the ranges' combos holding them are redealt
        drawn = [ranges[p] if ranges[p] is not None else partial_range(g, parsed[p], 0)
                 for p in ranged]
        known_bits = taken
        for p in ranged:
            if ranges[p] is None:
                known_bits |= int(np.bitwise_or.reduce(masks_of[p]))
        for p in ranged if known_bits != out_bits else ():      # other hands' cards
            if ranges[p] is not None and not any_clear(masks_of[p], known_bits):
                raise NoDeal(f"the range of hand {p + 1} ({names[p]!r}) has no live combos "
                              "beside the other hands' cards", names[p])
        sampler = RangeSampler.whole(drawn, taken, used_seed)
        if sampler is None and whole:  # they fit too rarely: the live combos, listed
            for p in ranged:
                if ranges[p] is not None:
                    alive = ranges[p].live(out)
                    rows[p], masks_of[p] = alive.combos, alive.masks()
                    weights[p] = alive.weights / float(alive.weights.max())
    # a combo that holds a card of a known hand is never dealt: drop it now, not redeal it
    for p in ranged if sampler is None else ():
        if masks_of[p] is None:
            masks_of[p] = card_masks(rows[p])
    known = {p: int(np.bitwise_or.reduce(masks_of[p])) for p in ranged
             if ranges[p] is None and len(rows[p]) == 1}
    for p in ranged if sampler is None else ():
        others = taken
        for q, mask in known.items():
            if q != p:
                others |= mask
        if others:
            keep = (masks_of[p] & np.uint64(others)) == 0
            if not keep.any():
                raise NoDeal(f"the range of hand {p + 1} ({names[p]!r}) has no live combos "
                              "beside the other hands' cards", names[p])
            if not keep.all():
                rows[p], weights[p] = rows[p][keep], weights[p][keep]
                masks_of[p] = masks_of[p][keep]
    if sampler is None:
        sampler = RangeSampler([rows[p] for p in ranged], [weights[p] for p in ranged],
                                taken, [names[p] for p in ranged], used_seed,
                                [masks_of[p] for p in ranged])
    if sampler.tuples or sampler.fit < sampler.FAST_ENOUGH:
        # listed tuples go to the generic sampler, and ranges that fit rarely to the fused
        # one (best-five games) or the generic one, whose redeals are bounded; the
        # heads-up kernel's are not (see its docstring)
        heads_up_kernel = False

    # the fused sampler for any number of players: the generic sampler's deals (the same
    # counts), evaluated as they are dealt instead of through arrays of cards
    fused_any = fused and not heads_up_kernel and not sampler.tuples
    if fused_any:
        seats = np.full(players, -1, np.int64)
        for j, p in enumerate(ranged):
            seats[p] = j
        fixed_keys = np.zeros(players, np.uint64)
        fixed_masks = np.zeros(players, np.uint64)
        card_keys = _tables.high(g.values).card_keys
        for p in dealt:
            for c in parsed[p].tolist():
                fixed_keys[p] += card_keys[c]
                fixed_masks[p] |= np.uint64(1 << c)
        hidden_cards = np.array([unknown[p] if p in dealt else 0 for p in range(players)],
                                np.int64)
        dealer = dealer_marker(hidden_cards)
    if heads_up_kernel:
        # where the combos are drawn from: the stream asked for, and what fits in a step
        left = 52 - bin(taken).count("1") - 2 * sampler.hole
        combo_draw = combo_marker(bool(sampler.uniform.all()), np.diff(sampler.starts), left,
                                  need, version)

    def run(index: int, size: int) -> Counts:
        state = np.random.SeedSequence([used_seed, index]).generate_state(2, np.uint64)
        if fused_any:
            part = Counts(players)
            done = range_sampling.best5_sample_ranges(
                sampler.combos, sampler.starts, sampler.cumulative, sampler.uniform,
                sampler.masks, sampler.taken, sampler.max_tries(size), state, seats,
                fixed_keys, fixed_masks, hidden_cards, dealer, board_ids, need, size,
                *_tables.high(g.values), part.hi_full)
            sampler.check(done)
            part.boards = size
            return part
        if heads_up_kernel:
            part = Counts(players)
            range_sampling.best5_sample_ranges_hu(
                sampler.combos, sampler.starts, sampler.cumulative, sampler.uniform,
                combo_draw, np.uint64(taken), board_ids, deal_marker(need), size,
                state, *_tables.high(g.values), part.hi_full)
            part.boards = size
            return part
        holes, new = sampler.deal(size, hidden + need, state)
        given = [holes[ranged.index(p)] if p in ranged else parsed[p] for p in range(players)]
        missing = [0 if p in ranged else unknown[p] for p in range(players)]
        hands, boards = complete_deals(g, given, missing, board_ids, new)
        if fused:
            # the whole boards as the dealt cards, beside no known ones: the same hands
            part = Counts(players)
            range_kernels.tally_best5_deals(np.stack(hands) if dealt else holes, boards,
                                            np.empty(0, np.uint8), *_tables.high(g.values),
                                            part.hi_full)
            part.boards = size
            return part
        return tally_chunk(g, hands, boards)

    counts = sample_until(run, players, trials, target_stderr, threads, version)
    how = " (compatible combo tuples listed, dealt by weight)" if sampler.tuples else ""
    method = f"Monte Carlo, {counts.boards:,} deals from the ranges{how}"
    return make_result(g, names, board_ids, dead_ids, counts, False, method, used_seed)


def _tuple_bound(parsed, unknown, ranges, masks, sizes: list[int], out: int,
                 hole: int) -> int:
    """How many combo tuples the exact walk could list: at most each range's combos that
    hold no other hand's known card, times the completions of each hand with unknown cards
    and no range (``random``, ``As?``) from the cards that the board, the dead cards, every
    hand's known cards, the ranges and the hands before it leave (exact for those: every
    tuple of the ranges leaves as many).  The product of the lists' sizes counted each
    unknown hand's completions from the whole deck, tuples sharing cards included: three
    random Teen Patti hands beside a known one, 10.8 T where the walk has 3.45 T deals."""
    known = [card_masks(cards[None, :])[0] if len(cards) else np.uint64(0)
             for cards in parsed]
    left = 52 - out - sum(len(cards) for cards in parsed)
    bound = 1
    completing = [ranges[p] is None and missing > 0 for p, missing in enumerate(unknown)]
    for p, cards in enumerate(parsed):
        if completing[p]:
            continue
        others = np.uint64(0)
        for q, mask in enumerate(known):
            if q != p:
                others |= mask
        bound *= int(((masks[p] & others) == 0).sum()) if others else sizes[p]
        left -= hole - len(cards)               # the cards its combos add
    for p, missing in enumerate(unknown):
        if completing[p]:
            bound *= math.comb(max(left, 0), missing)
            left -= missing
    return bound


WALK_SECONDS = 2e-10
"""Seconds ``heads_up_by_boards`` takes a pair of combos and a board ("The" 10% against
40%: 19.5 million pairs on a flop's 946 boards, 4 s)."""


def _swept_sooner(g: Game, pairs: int, board_cards: int, boards: int) -> bool:
    """Whether the combo sweep answers two ranges of ``pairs`` pairs of combos sooner than
    walking every pair on each board: games of more than two cards a hand (two-card
    games have their own walks), where the ranges are wide ("The" 10% against 40% on a
    flop: 1.6 s, the walk 4 s)."""
    from ..vectors import kind
    return (kind(g) == "subsets" and vectors_serve(g, board_cards)
            and sweep_seconds(g, board_cards) < pairs * boards * WALK_SECONDS)


def partial_range(g: Game, cards: np.ndarray, missing: int) -> Range:
    """A hand with ``missing`` unknown cards as the range of its completions."""
    return completion_range(g, tuple(cards.tolist()), missing)


@lru_cache(maxsize=64)
def completion_range(g: Game, cards: tuple[int, ...], missing: int) -> Range:
    # cached: listing the 1,326 hold'em hands of "random" in Python costs more than a
    # short Monte Carlo run; the arrays are read-only since every caller shares them
    rest = np.array([c for c in range(52) if c not in set(cards)], np.uint8)
    # every choice of the missing cards, in lexicographic order (as itertools lists them;
    # 6-card Omaha's "random", 20 million hands: about 2 s, where a Python list took 23 s)
    extra = rest[lex_subsets(len(rest), missing)]
    combos = np.concatenate([np.broadcast_to(np.array(cards, np.uint8), (len(extra),
                                                                         len(cards))),
                             extra], axis=1)
    text = completion_text(cards, missing)
    out = Range._from_combos(g, text, combos)
    out.combos.setflags(write=False)
    out.weights.setflags(write=False)
    return out
