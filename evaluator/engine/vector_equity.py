"""Exact range against range, heads-up, through the combo vectors: one sort and sweep of
every combo a board (``subset_vectors``) instead of a walk of every pair of combos.

On a board the sweep covers, every combo of the second range is swept once; each combo of
the first then reads its wins and ties against the whole second range (in hi-lo games its
high and low outcomes together: scoops, halves and quarters), and the first range's
weights add them up.  So PLO ranges on a river (two billion pairs of combos)
take a sort of 270,725 hands, and the answer is exact: integer counts for unweighted
ranges, as a walk of the pairs gives.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from ..combo_order import MAX_COMBOS, combo_index, combos
from ..families import family
from ..games import Game
from .results import Counts, EquityResult, make_result

__all__ = ["vectors_serve", "sweep_seconds", "heads_up_by_vectors"]


def vectors_serve(g: Game, board_cards: int, longest: float | None = None) -> bool:
    """Whether the vectors answer a heads-up spot of ``g`` with ``board_cards`` known
    within their bound, or (``longest``: exact=True's limit) within ``longest`` seconds
    (hold'em's own walks serve the two-card games)."""
    fam = family(g)
    if fam.vector_kind(g) == "omaha" and not g.hilo and fam.vectors(g, board_cards):
        return True                                # Omaha's own sweep of its hole pairs
    # the subset sweep, and the hi-lo tallies (high and low outcomes together), within
    # the subset sweep's bound
    if fam.vector_kind(g) in ("omaha", "subsets") and fam.subset_fits(g, board_cards):
        return True
    return longest is not None and fam.vector_kind(g) in ("omaha", "subsets") \
        and sweep_seconds(g, board_cards) <= longest


def sweep_seconds(g: Game, board_cards: int) -> float:
    """About how long the vectors take an exact heads-up spot (``Family.exact_seconds``);
    infinite for a game whose hands no combo order lists (6-card Omaha)."""
    if math.comb(len(g.deck), g.hole) > MAX_COMBOS:
        return math.inf
    return family(g).exact_seconds(g, board_cards)


def _vector(g: Game, rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
    n = len(combos(g))
    w = np.bincount(combo_index(g, rows), weights, minlength=n) if len(rows) else np.zeros(n)
    w.flags.writeable = False
    return w


def heads_up_by_vectors(g: Game, names: list[str], rows: list[np.ndarray],
                        weights: list[np.ndarray], board_ids: np.ndarray,
                        dead_ids: np.ndarray, scale: float, threads: int | None
                        ) -> EquityResult | None:
    """The exact result of the two ranges ``rows`` / ``weights`` (live combos, weights
    scaled to a largest of 1, ``scale`` the product of the factors); None where the sweep
    declines the second range's weights: too concentrated to sum pair by pair within its
    bound, or (hi-lo tallies, Omaha flops, which sum nothing pair by pair) not whole
    multiples of one power of two."""

    from ..kernels.sweep import OK
    from ..subset_vectors import runout_sums
    from ..vector_weights import exact_share, weighted_sum
    hero, against = _vector(g, rows[0], weights[0]), _vector(g, rows[1], weights[1])
    known = set(board_ids.tolist()) | set(dead_ids.tolist())
    out_bits = sum(1 << c for c in known)
    left = [c for c in g.deck if c not in known]
    need = max(g.streets) - len(board_ids)
    listed = list(itertools.combinations(left, need))
    runouts = np.array(listed, np.uint8).reshape(len(listed), need)
    integral = bool(np.all(weights[0] == 1) and np.all(weights[1] == 1))
    pairs = int(np.count_nonzero(hero)) * int(np.count_nonzero(against))
    method = (f"exact, every combo swept on each of {len(runouts):,} board"
              f"{'s' * (len(runouts) != 1)} ({pairs:,} pairs of combos listed once a board)")
    if g.hilo:
        counts = _hilo_counts(g, board_ids, out_bits, runouts, against, hero, integral,
                              threads)
        if counts is None:
            return None
        return make_result(g, names, board_ids, dead_ids, counts, True, method, None,
                           weight_scale=scale)
    if _every_combo(g, len(board_ids), against, runouts):
        tied = np.zeros(len(hero))
        status, num, met = runout_sums(g, board_ids.astype(np.uint8), out_bits, runouts,
                                       against, exact_share(against, len(runouts)), threads,
                                       tied)
        if status != OK:
            return None
        factor = math.comb(len(left) - 2 * g.hole, need)
        live = hero > 0
        h = hero[live]
        won = weighted_sum(h, num[live] - tied[live]) / 2
        tie = weighted_sum(h, tied[live])
        deals = weighted_sum(h, met[live]) * factor
    else:              # an earlier street: a runout at a time, only the first's read
        from ..runout_vectors import hero_totals
        totals = hero_totals(g, hero, against, board_ids.astype(np.uint8), out_bits,
                             runouts, threads, summed=True)
        if totals is None:
            return None
        share, tie, deals = (float(x) for x in totals)
        won = share - tie / 2
    counts = Counts(2, weighted=not integral)
    lost = deals - won - tie
    if integral:                                   # whole numbers of deals, exactly
        won, tie, lost, deals = round(won), round(tie), round(lost), round(deals)
    counts.hi_full[0, 1], counts.hi_full[0, 2] = won, tie
    counts.hi_full[1, 1], counts.hi_full[1, 2] = lost, tie
    counts.boards = deals
    return make_result(g, names, board_ids, dead_ids, counts, True, method, None,
                       weight_scale=scale)


def _every_combo(g: Game, board_cards: int, against: np.ndarray, runouts: np.ndarray
                 ) -> bool:
    """Whether every combo's sums are taken (``runout_sums``): on a river, or where the
    weights do not sum exactly (summed pair by pair where close); an earlier street
    otherwise reads only the first range's combos, a runout at a time (``hero_totals``:
    Tahoe 10% against 40% on a flop 1.4 s, every combo's sums 2.6 s)."""
    from ..vector_weights import exact_share
    return family(g).subset_fits(g, board_cards) and (
        not runouts.shape[1] or bool(exact_share(against, len(runouts))))


LOSE, WIN, TIE = 0, 1, 2
MIRROR = (WIN, LOSE, TIE)      # the opponent's outcome of a half, heads-up


def _hilo_counts(g: Game, board_ids: np.ndarray, out_bits: int, runouts: np.ndarray,
                 against: np.ndarray, hero: np.ndarray, integral: bool,
                 threads: int | None) -> Counts | None:
    """Both players' hi-lo tallies from the first's outcomes (``hilo_tallies``): each
    half the second loses where the first wins it, and the reverse; None where the
    weights would not sum exactly."""
    from ..subset_vectors import hilo_tallies
    from ..vector_weights import exact_share
    if exact_share(against, len(runouts)):
        return None
    cells = hilo_tallies(g, board_ids.astype(np.uint8), out_bits, runouts, against, hero,
                         threads)
    if integral:                                   # whole numbers of deals, exactly
        cells = np.round(cells)
    counts = Counts(2, weighted=not integral, hilo=True)
    won, tied, lost = cells[9:].tolist()
    counts.hi_full[0, 1], counts.hi_full[0, 2] = won, tied
    counts.hi_full[1, 1], counts.hi_full[1, 2] = lost, tied
    joint = counts.joint
    assert joint is not None
    for a in (LOSE, WIN, TIE):
        for b in (LOSE, WIN, TIE):
            deals = cells[3 * a + b]
            if (a, b) != (LOSE, LOSE):
                joint[0, a, b] = deals
            if (MIRROR[a], MIRROR[b]) != (LOSE, LOSE):
                joint[1, MIRROR[a], MIRROR[b]] = deals
    counts.boards = int(cells.sum()) if integral else float(cells.sum())
    return counts
