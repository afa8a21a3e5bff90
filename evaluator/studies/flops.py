"""The flop study: two or more hands or ranges on every flop, one row per suit class of flops.

``flop_study(["QQ+,AKs", "random"])`` lists the flops the deck allows, groups those that a
renaming of suits maps onto each other while leaving every hand, range and dead card as it
is (1,755 classes in hold'em with nothing fixed), and asks one equity query per class
through ``batch_equity`` (so it runs on every local core, or on a Dask cluster with
``scheduler=``, with identical rows either way, and can stream and resume its rows).
Two hands or ranges of hold'em or short deck, exactly and without a cluster, take the
vectors instead (``vectors.flop_totals``): every complete board is swept once for all
the flops it holds, and boards a renaming of suits maps onto each other once in all,
so the 1,755 flop classes of ``QQ+,AKs`` against ``random`` take a second or two
where a query per flop took ten; the rows are the same.

Each row has the class's first flop (``flop``, as ``2c4c5h``), the number of flops it stands
for (``flops``), the weight of the deals it stands for (``weight``: the flops times the
weighted number of deals on one of them), and the batch's columns (``p1_equity``,
``p1_win``, ``p1_tie``, ...; hi-lo: ``p1_scoop``, ``p1_hi``, ``p1_lo``).  The
weight-weighted mean of a column over the rows is its pre-flop value; with exact rows and
unweighted ranges, ``fractions()`` gives the pre-flop equities exactly.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from .._calling import old_form
from .._suits import stabilizer
from ..batch import batch_equity
from ..batch.rows import DIGEST, columns, error_row, row_digest
from ..cards import format_cards, parse_cards
from ..engine.spots import check_options, check_trials_time, parse_hands, resolve_version
from ..errors import EvaluatorError, HandError, NoDeal, flags
from ..export import ROW_SUFFIXES, RowsExport, check_fresh, check_output, write_rows
from ..games import Game
from ..games import game as _game
from ..ranges import Range, card_masks
from ..vectors import two_cards
from .flop_weights import check_weighable, deal_weights

__all__ = ["FlopStudy", "flop_study", "texture"]

RANKS = "23456789TJQKA"
# the messages of a flop that no deal fits (the flop study leaves such flops out)
# a batch row's error that says no deal fits its flop (NoDeal's messages)
_NO_DEAL = ("no deal is left", "no deal fits", "no live combos",
            "every combination of them shares a card")


def texture(flop: Sequence[int]) -> dict[str, str]:
    """The flop's texture as players name it: suits (``rainbow``, ``two-tone``,
    ``monotone``), pairing (``unpaired``, ``paired``, ``trips``), ``connected`` (all three
    ranks within five consecutive ranks, the ace also low: a straight can use all three) or
    ``disconnected``, and the high card's rank."""
    ranks = sorted({c >> 2 for c in flop})
    suits = len({c & 3 for c in flop})
    windows = [ranks, sorted(-1 if r == 12 else r for r in ranks)]
    connected = len(ranks) == 3 and any(w[-1] - w[0] <= 4 for w in windows)
    return {"suits": {1: "monotone", 2: "two-tone", 3: "rainbow"}[suits],
            "pairing": {3: "unpaired", 2: "paired", 1: "trips"}[len(ranks)],
            "connectedness": "connected" if connected else "disconnected",
            "high card": RANKS[max(c >> 2 for c in flop)]}


@dataclass
class FlopStudy(RowsExport):
    """What ``flop_study`` returns: one row per suit class of flops.

    Attributes
    ----------
    game : str
        The game's name.
    hands : list of str
        The hands or ranges, as given.
    rows : list of dict
        One row per class of flops: its first flop (``flop``, as ``2c4c5h``), the flops
        it stands for (``flops``), the weight of the deals it stands for (``weight``) and
        ``batch_equity``'s columns (``p1_equity``, ``p1_win``, ``p1_tie``, ...).
    exact : bool
        Whether every row was enumerated.
    players : int
        The number of hands or ranges.

    Examples
    --------
    >>> from evaluator import flop_study
    >>> study = flop_study(game="holdem", hands=["AsKs", "QhQd"])
    >>> len(study.rows), study.rows[0]["flop"], round(study.rows[0]["p1_equity"], 4)
    (9804, '2c2d2h', 0.2763)
    >>> [round(e, 4) for e in study.equity()]                 # the pre-flop equity
    [0.4621, 0.5379]
    >>> study.fractions()[0]
    Fraction(197833, 428076)
    >>> monotone = next(t for t in study.by_texture() if t["texture"] == "monotone")
    >>> monotone["flops"], round(monotone["p1_equity"], 4)
    (891, 0.4702)

    ``study.to_frame()`` is a pandas DataFrame of the rows and ``study.write(path)``
    writes them (``.csv``, ``.jsonl``, ``.json`` or ``.parquet``).
    """
    game: str
    hands: list[str]
    rows: list[dict[str, Any]]
    exact: bool
    players: int = field(init=False)

    def __post_init__(self) -> None:
        self.players = len(self.hands)

    def _column(self, name: str) -> np.ndarray:
        return np.array([row[name] for row in self.rows], np.float64)

    def stderr(self) -> list[float] | None:
        """The standard error of each ``equity()`` from sampled rows (None when exact)."""
        if self.exact:
            return None
        w = self._column("weight")
        share = (w / w.sum()) ** 2
        return [float(np.sqrt(share @ self._column(f"p{p}_stderr") ** 2))
                for p in range(1, self.players + 1)]

    def equity(self) -> list[float]:
        """Each player's pre-flop equity: the weighted mean of ``pN_equity`` over the rows."""
        w = self._column("weight")
        return [float(self._column(f"p{p}_equity") @ w / w.sum())
                for p in range(1, self.players + 1)]

    def fractions(self) -> tuple[Fraction, ...] | None:
        """The pre-flop equities as exact fractions (exact rows of unweighted hands only).

        A row's pot won, equity times deals, is a multiple of 1 / lcm(1..2P); it is read
        back from the row's float, which is exact to far better than that step."""
        if not self.exact or any(isinstance(r["samples"], float) for r in self.rows):
            return None
        step = math.lcm(*range(1, 2 * self.players + 1))
        total = sum(r["samples"] * r["flops"] for r in self.rows)
        out = []
        for p in range(1, self.players + 1):
            won = Fraction(0)
            for r in self.rows:
                scaled = r[f"p{p}_equity"] * r["samples"] * step
                if abs(scaled - round(scaled)) > 1e-3:
                    return None
                won += Fraction(round(scaled), step) * r["flops"]
            out.append(won / total)
        return tuple(out)

    def by_texture(self) -> list[dict[str, Any]]:
        """The rows grouped by each texture (``texture``): one dict per (aspect, value)
        with the flops, the share of the deals and each player's weighted mean equity."""
        w = self._column("weight")
        equities = [self._column(f"p{p}_equity") for p in range(1, self.players + 1)]
        kinds = [texture(parse_cards(r["flop"]).tolist()) for r in self.rows]
        out = []
        for aspect in ("suits", "pairing", "connectedness", "high card"):
            values = sorted({k[aspect] for k in kinds},
                            key=lambda v: RANKS.index(v) if aspect == "high card" else v)
            for value in values:
                mask = np.array([k[aspect] == value for k in kinds])
                row: dict[str, Any] = {
                    "aspect": aspect, "texture": value,
                    "flops": int(sum(r["flops"] for r, m in zip(self.rows, mask) if m)),
                    "share": float(w[mask].sum() / w.sum())}
                for p, e in enumerate(equities, start=1):
                    row[f"p{p}_equity"] = float(e[mask] @ w[mask] / w[mask].sum())
                out.append(row)
        return out

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{k}</th>" for k in self.rows[0])
        body = "".join("<tr>" + "".join(f"<td>{_cell(v)}</td>" for v in r.values()) + "</tr>"
                       for r in self.rows[:20])
        more = f"<p>{len(self.rows) - 20:,} more rows</p>" if len(self.rows) > 20 else ""
        return f"<table><tr>{head}</tr>{body}</table>{more}"


def _cell(value: object) -> str:
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def _hand_text(hand: object) -> str:
    if isinstance(hand, Range):
        return hand.text
    if isinstance(hand, str):
        return hand
    return format_cards(parse_cards(hand, what="a hand"), sep="")   # type: ignore[arg-type]


def _symmetries(parsed: list[np.ndarray], ranges: list[Range | None],
                dead: np.ndarray) -> np.ndarray:
    """The suit renamings (uint8 (k, 52) card maps) that leave every known hand and the dead
    cards as they are (``stabilizer``) and map every range onto itself, weights included.

    Those renamings are a group, so few are tested: one that passes brings every product
    with those that passed (a range symmetric in all suits, as "10%" is, takes two or three
    tests of the 23), and one that fails rules out its products with them."""
    perms = stabilizer(*[h for h, r in zip(parsed, ranges) if r is None], dead)
    listed = []
    for r in ranges:
        if r is not None:
            masks = card_masks(r.combos)
            order = np.argsort(masks)
            listed.append((r.combos, r.weights, masks[order], r.weights[order]))

    def keeps(perm: np.ndarray) -> bool:
        for combos, weights, masks, sorted_weights in listed:
            # the image of combo k weighs what combo k weighs: sorted by the images'
            # masks, the weights must be those of the range sorted by its masks
            image = card_masks(perm[combos])
            order = np.argsort(image)
            if not (np.array_equal(image[order], masks)
                    and np.array_equal(weights[order], sorted_weights)):
                return False
        return True

    key = {bytes(p): p for p in perms}
    inside = {bytes(np.arange(52, dtype=np.uint8))}
    outside: set[bytes] = set()
    for perm in perms:
        name = bytes(perm)
        if name in inside or name in outside:
            continue
        if keeps(perm):
            # the group the kept renamings generate: products until none is new
            grown = True
            inside.add(name)
            while grown:
                grown = False
                for a in list(inside):
                    for b in list(inside):
                        made = bytes(key[a][key[b]])
                        if made not in inside:
                            inside.add(made)
                            grown = True
        else:
            for h in inside:
                outside.add(bytes(perm[key[h]]))
                outside.add(bytes(key[h][perm]))
    return np.array([p for p in perms if bytes(p) in inside], np.uint8)


def _flop_classes(live: list[int], perms: np.ndarray) -> list[tuple[tuple[int, ...], int]]:
    """Each class of flops from ``live`` under ``perms``: (its first flop, its size)."""
    flops = np.array(list(itertools.combinations(live, 3)), np.int64)
    images = np.sort(perms.astype(np.int64)[:, flops], axis=2)          # (k, n, 3)
    keys = (images[..., 0] << 12) | (images[..., 1] << 6) | images[..., 2]
    names = keys.min(axis=0)
    order = np.argsort(names, kind="stable")
    names = names[order]
    starts = np.flatnonzero(np.concatenate(([True], names[1:] != names[:-1])))
    sizes = np.diff(np.append(starts, len(names)))
    return [(((int(n) >> 12) & 63, (int(n) >> 6) & 63, int(n) & 63), int(size))
            for n, size in zip(names[starts], sizes)]


def _sweep_pays(g: Game, parsed: list[np.ndarray], ranges: list[Range | None],
                randoms: list[bool], symmetries: int) -> bool:
    """Whether the vectors beat a query per flop: they sweep every class of complete
    boards (fewer, the more renamings of suits leave the spot as it is), while a query
    per flop costs about in proportion to the pairs of combos; two known hands, or a
    hand against a handful of combos with few symmetries, are quicker query by query."""
    sizes = [math.comb(len(g.deck) - 2, g.hole) if rnd else len(r) if r is not None else 1
             for r, rnd in zip(ranges, randoms)]
    return sizes[0] * sizes[1] >= 100 or symmetries >= 6


def _swept_rows(g: Game, texts: list[str], parsed: list[np.ndarray],
                ranges: list[Range | None], randoms: list[bool],
                classes: list[tuple[tuple[int, ...], int]], perms: np.ndarray,
                dead: np.ndarray, threads: int | None, progress: bool
                ) -> tuple[FlopStudy, list[dict[str, Any]]] | None:
    """The heads-up exact study on the vectors: the study, and the per-flop rows the batch
    would have streamed; None where a hero combo meets so little of the other range's
    weight that the sums would cancel (the engine then compares pairs)."""
    from ..batch import result_row
    from ..engine.results import Counts, make_result
    from ..flop_vectors import flop_totals
    from ..progress import progress_bar
    whole = [Range("random", g) if rnd else Range([h], g) if r is None else r
             for h, r, rnd in zip(parsed, ranges, randoms)]
    hero, against = (r.vector() for r in whole)
    flops = np.array([f for f, _ in classes], np.uint8)
    suit_maps = (perms[:, :4].astype(np.int64) & 3)
    bar = progress_bar(len(classes), f"{' vs '.join(texts)[:60]}, every flop", progress)
    try:
        totals = flop_totals(hero, against, flops, suit_maps, game=g, dead=dead,
                             threads=threads)
    finally:
        if bar is not None:
            bar.advance(bar.task, len(classes))
            bar.stop()
    if totals.careful.any():
        return None
    weighted = bool(((hero != 0) & (hero != 1)).any() or ((against != 0)
                                                          & (against != 1)).any())
    names = [format_cards(h) if r is None and not rnd else t
             for h, r, rnd, t in zip(parsed, ranges, randoms, texts)]
    study_rows, batch_rows = [], []
    dead_text = format_cards(dead, sep="")
    for k, ((flop, size), deals) in enumerate(zip(classes, totals.deals)):
        if not deals > 0:                         # no deal fits this flop: as the batch
            batch_rows.append(error_row(          # records it, so that resuming keeps it
                {"id": k + 1, "game": g.name, "hands": texts, "board": format_cards(flop, sep=""),
                 "dead": dead_text}, "no deal fits this flop: every pair of combos shares "
                "a card with it or with each other"))
            continue
        counts = Counts(2, weighted=weighted)
        won, tied = totals.won[k], totals.tied[k]
        lost = deals - won - tied
        if weighted:
            counts.hi_full[0, 1], counts.hi_full[0, 2] = won, tied
            counts.hi_full[1, 1], counts.hi_full[1, 2] = lost, tied
            counts.boards = float(deals)
        else:                                     # whole numbers of deals, exactly
            counts.hi_full[0, 1], counts.hi_full[0, 2] = round(won), round(tied)
            counts.hi_full[1, 1], counts.hi_full[1, 2] = round(lost), round(tied)
            counts.boards = round(deals)
        pairs = int(totals.pairs[k])
        method = (f"exact enumeration of {pairs * totals.per_pair:,} deals ({pairs:,} pairs "
                  f"of combos without a shared card x {totals.per_pair:,} boards)"
                  + (", weighted" if weighted else ""))
        board = parse_cards(format_cards(flop, sep=""))
        result = make_result(g, names, board, dead, counts, True, method, None)
        row = result_row(result, k + 1, texts)      # the batch's ids: positions from 1
        batch_rows.append(row)
        study_rows.append({"flop": format_cards(flop, sep=""), "flops": size,
                           "weight": row["samples"] * size,
                           **{key: v for key, v in row.items()
                              if key not in ("id", "game", "hands", "board", "dead")}})
    if not study_rows:
        raise NoDeal("no deal fits the hands on any flop: they and the dead cards "
                      "collide", " vs ".join(texts))
    return FlopStudy(g.name, texts, study_rows, True), batch_rows


STUDY_SECONDS = 600.0
"""A flop study estimated past this (one flop's query timed, times the flops, over the
cores) is refused before the rest runs; on a cluster (``scheduler=``) it is not."""


def _check_study_time(g: Game, texts: list[str], queries: list[dict[str, Any]],
                      dead: str, exact: bool | None, trials: int | None,
                      threads: int | None) -> None:
    """Time two flops' queries and refuse the study if all of them would take past
    ``STUDY_SECONDS`` at the faster one's pace (the first may also load or compile
    kernels: 70 ms for an Omaha flop the study then answers in about 1 ms)."""
    import time

    from .._parallel import resolve_threads
    from ..engine import equity
    workers = resolve_threads(threads, 1 << 30)
    seconds = math.inf
    for probe in (queries[len(queries) // 2], queries[len(queries) // 3]):
        start = time.perf_counter()
        try:
            equity(g, texts, probe["board"], dead, exact=exact, trials=trials, seed=0,
                   threads=1)
        except NoDeal:
            return                             # this flop fits no deal: the batch says so
        seconds = min(seconds, time.perf_counter() - start)
    total = seconds * len(queries) / workers
    if total > STUDY_SECONDS:
        how = ("fewer --trials" if trials is not None else
               "sampling (trials=) or narrower ranges")
        raise EvaluatorError(
            f"this flop study would take about {total / 60:,.0f} minutes ({len(queries):,} "
            f"flops at {seconds:.2f} s each on {workers} core{'s' * (workers > 1)}); use "
            f"{how}, or a Dask cluster (scheduler=)", " vs ".join(texts))


def _write_batch_rows(rows: list[dict[str, Any]], out: Path, g: Game, texts: list[str],
                      exact: bool | None) -> None:
    """The swept flops' rows written as ``batch_equity`` writes them (a CSV in the batch's
    columns, each row ending in its digest), so that ``resume=True`` keeps them all."""
    if out.suffix.lower() == ".csv":
        header = columns([{"game": g.name, "hands": texts, "exact": exact}])
        rows = [{name: row.get(name) for name in header[:-1]} for row in rows]
    write_rows([{**row, DIGEST: row_digest(row)} for row in rows], out)


def _old_flop_study(hands, game="holdem", *, dead="", exact=True, trials=None, seed=None,
                    scheduler=None, threads=None, progress=False, out=None, resume=False,
                    overwrite=False, vectors=None, version=None):
    """The 0.1.0 form of ``flop_study``, kept for one release."""


@old_form(_old_flop_study, "flop_study(hands, game=...)", "flop_study(game, hands, ...)")
def flop_study(game: str | Game, hands: Sequence[object], *, dead: str = "",
               exact: bool | None = True, trials: int | None = None, seed: int | None = None,
               scheduler=None, threads: int | None = None, progress: bool = False,
               out: str | Path | None = None, resume: bool = False, overwrite: bool = False,
               vectors: bool | None = None, version: int | None = None) -> FlopStudy:
    """Every flop of a spot, one row per suit class (see the module doc).

    Parameters
    ----------
    game : str or Game
        A game with a flop.
    hands : list
        Two or more whole hands or ranges, one per player.
    dead : cards
        Cards out of the deck.
    exact, trials, seed, version
        As ``equity``'s, for each flop.
    scheduler, threads, progress
        As ``batch_equity``'s.
    out : path, optional
        Stream the per-flop rows there (``.jsonl``, ``.csv``, ``.json``, ``.parquet``).
    resume, overwrite : bool
        Finish or replace an existing ``out`` (one that holds rows is refused otherwise).
    vectors : bool, optional
        True: the sort and sweep; False: a query per flop; None: whichever is quicker.

    Returns
    -------
    FlopStudy

    Examples
    --------
    >>> study = flop_study("holdem", ["AA", "KK"])
    >>> len(study.rows), study.rows[0]["flop"], [round(e, 4) for e in study.equity()]
    (1753, '2c2d2h', [0.8195, 0.1805])

    Notes
    -----
    ``exact`` and ``trials`` are those of ``equity`` for each flop (give ``trials`` for
    Omaha ranges, where exact is too slow: then ``exact`` is not asked for); ``seed``
    seeds the batch, which gives each flop its own stream, in Monte Carlo stream
    ``version`` (``equity``'s); ``scheduler``, ``threads``,
    ``progress``, ``out``, ``resume`` and ``overwrite`` are those of ``batch_equity``
    (``out`` streams the per-flop batch rows, so that ``resume=True`` computes only the
    flops it lacks, none on a finished study; an existing ``out`` is refused unless
    ``resume`` or ``overwrite`` is given; ``FlopStudy.write`` writes the study's rows).
    ``vectors``: True takes the vectors (two hands or ranges of hold'em or short deck, exact, no
    scheduler; refused otherwise), False a query per flop, None (the default) whichever
    should be quicker; the rows are the same either way.
    """
    flags(progress=progress, resume=resume, overwrite=overwrite,
          **({} if vectors is None else {'vectors': vectors}))
    g = _game(game)
    if isinstance(hands, (str, Range)) or not isinstance(hands, Sequence):
        raise HandError("hands must be a list with one entry per player, like "
                        "['QQ+,AKs', 'random']", str(hands)[:40])
    if resume and out is None:
        raise EvaluatorError("resume=True needs out= (the rows file to continue)", "resume")
    if out is not None:
        check_output(out, ROW_SUFFIXES, "out")
        check_fresh(out, "out", resume=resume, overwrite=overwrite)
    if 3 not in g.streets:
        raise HandError(f"{g.name} has no flop (its board sizes: "
                        f"{', '.join(map(str, g.streets))})", g.name)
    texts = [_hand_text(h) for h in hands]
    if len(texts) < 2:
        raise HandError(f"a flop study takes two or more hands or ranges, got {len(texts)}",
                        len(texts))
    parsed, unknown, ranges = parse_hands(g, texts)
    for k, missing in enumerate(unknown):
        if missing and missing < g.hole:
            raise HandError("a flop study takes whole hands or ranges, not partly known "
                            f"ones: {texts[k]!r}", texts[k])
    # 'random' stays unlisted (None, like a known hand): every renaming of suits maps it
    # onto itself, the engine deals it, and the deal weights count it
    randoms = [bool(missing) for missing in unknown]
    dead_ids = parse_cards(dead, what="the dead cards")
    fixed = [h for h, r, rnd in zip(parsed, ranges, randoms) if r is None and not rnd]
    used = np.concatenate([*fixed, dead_ids]).astype(np.int64) if fixed or len(dead_ids) \
        else np.empty(0, np.int64)
    live = [c for c in g.deck if c not in set(used.tolist())]
    if trials is not None and exact is True:          # the default: trials ask for sampling
        exact = None
    sampled = trials is not None or exact is False
    resolve_version(version)                # refused on every path, the exact sweep's too
    as_ranges: list[Range | None] = [
        None if rnd else Range([h], g) if r is None else r
        for h, r, rnd in zip(parsed, ranges, randoms)]
    if sampled:
        check_weighable(g, as_ranges, texts, STUDY_SECONDS)
    perms = _symmetries(parsed, ranges, dead_ids)
    classes = _flop_classes(live, perms)
    if trials is not None:                          # every flop samples its trials
        check_options(exact if exact is not True else None, trials, None, seed)
        check_trials_time(g, trials * len(classes), threads)
    dead_text = format_cards(dead_ids, sep="")
    can_sweep = (len(texts) == 2 and not sampled and scheduler is None and two_cards(g))
    if vectors and not can_sweep:
        raise EvaluatorError("vectors=True takes two hands or ranges of holdem or short_deck, "
                             "exact, without a scheduler", " vs ".join(texts))
    # resuming goes through the batch, which keeps every finished row and computes none
    resuming = resume and Path(out).is_file()                 # type: ignore[arg-type]
    if not resuming and (vectors or (vectors is None and can_sweep
                                     and _sweep_pays(g, parsed, ranges, randoms, len(perms)))):
        swept = _swept_rows(g, texts, parsed, ranges, randoms, classes, perms, dead_ids,
                            threads, progress)
        if swept is not None:
            if out is not None:                   # the per-flop rows, as the batch writes
                _write_batch_rows(swept[1], Path(out), g, texts, exact)
            return swept[0]
    queries = [{"game": g.name, "hands": texts, "board": format_cards(flop, sep=""),
                "dead": dead_text, "exact": exact, "trials": trials} for flop, _ in classes]
    if scheduler is None and len(queries) > 1 and not resume:
        _check_study_time(g, texts, queries, dead_text, exact, trials, threads)
    # no seed in the queries: the batch seeds each from ``seed`` and its position, so the
    # flops' samples are independent (one seed for all made their errors add up)
    # a flop no deal fits (every pair of combos collides with it or each other) is left
    # out: its queries are recorded, not raised, and any other failure is raised
    rows: list[dict[str, Any]] = batch_equity(
        queries, scheduler=scheduler, threads=threads, progress=progress,
        seed=0 if seed is None else seed, out=out, resume=resume, overwrite=overwrite,
        on_error="record", version=version)
    kept = []
    for cls, row in zip(classes, rows):
        error = row.get("error")
        if not error:
            kept.append((cls, row))
        elif not any(why in error for why in _NO_DEAL):
            raise EvaluatorError(f"the flop {row['board']} failed: {error}", row["board"])
    if not kept:
        raise NoDeal("no deal fits the hands on any flop: they and the dead cards "
                      "collide", " vs ".join(texts))
    classes = [c for c, _ in kept]
    rows = [r for _, r in kept]
    sampled = any(not r["exact"] for r in rows)
    weights = None
    if sampled:
        check_weighable(g, as_ranges, texts, STUDY_SECONDS)           # exact=None may have sampled
        weights = deal_weights(g, as_ranges, [f for f, _ in classes], dead_ids, threads)
    study_rows = []
    for k, ((flop, size), row) in enumerate(zip(classes, rows)):
        deals = weights[k] if weights is not None else row["samples"]
        study_rows.append({"flop": format_cards(flop, sep=""), "flops": size,
                           "weight": deals * size,
                           **{key: v for key, v in row.items()
                              if key not in ("id", "game", "hands", "board", "dead",
                                             "error")}})
    return FlopStudy(g.name, texts, study_rows, not sampled)
