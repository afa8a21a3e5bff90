"""Charts: the 13 x 13 starting-hand grid and equity by street (matplotlib, optional).

    pip install matplotlib        # or the "plot" extra: pip install ".[plot]" in a clone

The grid follows the usual layout: pairs on the diagonal, suited hands above
it, offsuit below, aces top left.  Images are written headless (Agg), as PNG
or SVG by the file's extension.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from .classes import CLASS_NAMES
from .errors import EvaluatorError
from .export import check_output

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .engine import EquityResult
    from .studies import EquityDistribution, FlopStudy, RangeBreakdown, RunoutStudy

__all__ = ["grid", "streets", "pyplot", "save", "distributions", "flop_textures", "breakdown",
           "runouts", "winnings"]


def pyplot() -> ModuleType:
    """``matplotlib.pyplot``, drawing headless (Agg); an error naming the extra if missing."""
    try:
        import matplotlib
    except ImportError:
        raise EvaluatorError('plots need matplotlib (the "plot" extra): pip install matplotlib',
                             "matplotlib") from None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt
    return plt


def save(fig: Figure, path: str | Path) -> Path:
    """Write ``fig`` to ``path`` as PNG, SVG or PDF by its extension; returns the path.
    A folder that cannot be written is an ``EvaluatorError`` naming it, never a bare
    ``OSError``."""
    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise EvaluatorError(f"unknown image type {path.suffix or path.name!r}: use .png, "
                             ".svg or .pdf", str(path))
    check_output(path, (".png", ".svg", ".pdf"), "path")
    try:
        fig.savefig(path, dpi=150, bbox_inches="tight")
    except OSError as error:
        raise EvaluatorError(f"cannot write {str(path)!r}: {error.strerror or error}",
                             str(path)) from None
    return path


def grid(values: dict[str, float], path: str | Path, *, title: str = "",
         label: str = "equity", percent: bool = True) -> Path:
    """A 13 x 13 grid of the hold'em classes coloured by ``values`` (0..1; nan: blank).
    Equities run red to green; a range's composition (``label="share"``) runs light to
    dark blue, and the classes it does not hold (share 0) stay blank grey."""
    plt = pyplot()
    cells = np.array([values.get(name, math.nan) for name in CLASS_NAMES]).reshape(13, 13)
    composition = label == "share"
    if composition:
        cells = np.where(cells == 0, math.nan, cells)      # not in the range: no colour
    fig, ax = plt.subplots(figsize=(8.4, 7.6))
    ax.set_facecolor("#e6e6e6")                            # blank cells: neutral grey
    shown = np.ma.masked_invalid(cells)
    image = ax.imshow(shown, cmap="Blues" if composition else "RdYlGn", vmin=0.0, vmax=1.0)
    for k, name in enumerate(CLASS_NAMES):
        i, j = divmod(k, 13)
        value = cells[i, j]
        text = name if math.isnan(value) else (
            f"{name}\n{value:.0%}" if percent else f"{name}\n{value:.2f}")
        dark = not math.isnan(value) and (value > 0.6 if composition
                                          else value < 0.2 or value > 0.85)
        ax.text(j, i, text, ha="center", va="center", fontsize=6.5,
                color="white" if dark else "black")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(title)
    bar = fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    bar.set_label(label)
    try:
        return save(fig, path)
    finally:
        plt.close(fig)


def streets(results: Sequence[EquityResult], path: str | Path, *, title: str = "") -> Path:
    """Each player's equity after each street (``equity_by_street`` results), as lines."""
    plt = pyplot()
    boards = [r.board.split() for r in results]
    labels = []
    for k, board in enumerate(boards):
        new = board[len(boards[k - 1]):] if k else board
        name = (f"{len(board)} board cards" if results[0].game == "the"
                else _street_name(len(board)))
        labels.append(f"{name}\n{''.join(new)}" if new else name)   # the cards that fell
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for p, player in enumerate(results[0].players):
        ax.plot(labels, [r.players[p].equity for r in results], marker="o",
                label=player.hand)
    ax.set_ylim(0, 1)
    ax.set_ylabel("equity")
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title(title or f"{results[0].game}: equity by street")
    try:
        return save(fig, path)
    finally:
        plt.close(fig)


def _street_name(cards: int) -> str:
    return {0: "pre-flop", 3: "flop", 4: "turn", 5: "river"}.get(cards, f"{cards} cards")


def distributions(items: Sequence[tuple[str, EquityDistribution]], path: str | Path, *,
                  title: str = "") -> Path:
    """Equity distribution curves, one per (label, distribution): each range's deals sorted
    by equity, the share of deals along the bottom and the equity up the side."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for label, d in items:
        share = np.cumsum(d.weights) / d.weights.sum()
        ax.step(np.concatenate(([0.0], share)), np.concatenate(([d.equities[0]], d.equities)),
                where="pre", label=f"{label} (mean {d.mean:.1%})")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("share of the range's deals, weakest first")
    ax.set_ylabel("equity")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title(title or "equity distribution")
    try:
        return save(fig, path)
    finally:
        plt.close(fig)


def flop_textures(study: FlopStudy, path: str | Path, *, title: str = "") -> Path:
    """The first player's equity on each flop texture (``FlopStudy.by_texture``) as bars,
    the pre-flop equity as a line; the bars' labels give each texture's share of deals."""
    plt = pyplot()
    rows = study.by_texture()
    fig, ax = plt.subplots(figsize=(11, 5))
    colours = {"suits": "tab:blue", "pairing": "tab:orange", "connectedness": "tab:green",
               "high card": "tab:purple"}
    x = np.arange(len(rows))
    for aspect, colour in colours.items():
        at = [k for k, r in enumerate(rows) if r["aspect"] == aspect]
        ax.bar(x[at], [rows[k]["p1_equity"] for k in at], color=colour, label=aspect)
    ax.axhline(study.equity()[0], color="black", linewidth=1, linestyle="--",
               label=f"pre-flop {study.equity()[0]:.1%}")
    names = [f"high {r['texture']}" if r["aspect"] == "high card" else r["texture"]
             for r in rows]
    ax.set_xticks(x, [f"{n} ({r['share']:.0%})" for n, r in zip(names, rows)], fontsize=8,
                  rotation=55, ha="right")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.set_ylabel(f"equity of {study.hands[0]}")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, ncol=5, loc="upper left")
    ax.set_title(title or f"{' vs '.join(study.hands)}: equity by flop texture")
    try:
        return save(fig, path)
    finally:
        plt.close(fig)


def breakdown(b: RangeBreakdown, path: str | Path, *, title: str = "") -> Path:
    """The breakdown's made classes and draws as horizontal bars of their shares."""
    plt = pyplot()
    rows = [r for r in b.rows if r["kind"] != "category" and r["combos"]]
    fig, ax = plt.subplots(figsize=(7.5, 0.35 * len(rows) + 1.2))
    y = np.arange(len(rows))[::-1]
    ax.barh(y, [r["share"] for r in rows],
            color=["tab:blue" if r["kind"] == "made" else "tab:orange" for r in rows])
    ax.set_yticks(y, [r["class"] for r in rows], fontsize=8)
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.set_xlabel("share of the range (blue: made hands, orange: draws)")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(title or f"breakdown on {b.board}")
    try:
        return save(fig, path)
    finally:
        plt.close(fig)


def runouts(study: RunoutStudy, path: str | Path, *, title: str = "") -> Path:
    """A 13 x 4 grid of the cards (aces on top, suits c d h s across), each coloured by
    the first player's equity once it falls; cards that cannot fall stay blank grey, and
    the equity on the board itself is the colour bar's mark."""
    plt = pyplot()
    ranks, suits = "AKQJT98765432", "cdhs"
    cells = np.full((13, 4), math.nan)
    for row in study.rows:
        cells[ranks.index(row["rank"]), suits.index(row["suit"])] = row["p1_equity"]
    fig, ax = plt.subplots(figsize=(4.6, 8.2))
    ax.set_facecolor("#e6e6e6")
    image = ax.imshow(np.ma.masked_invalid(cells), cmap="RdYlGn", vmin=0.0, vmax=1.0,
                      aspect="auto")
    symbols = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
    for i, r in enumerate(ranks):
        for j, s in enumerate(suits):
            value = cells[i, j]
            text = f"{r}{symbols[s]}" if math.isnan(value) else f"{r}{symbols[s]}\n{value:.0%}"
            dark = not math.isnan(value) and (value < 0.2 or value > 0.85)
            ax.text(j, i, text, ha="center", va="center", fontsize=8,
                    color="white" if dark else "black")
    ax.set_xticks([])
    ax.set_yticks([])
    whole = study.equity()[0]
    ax.set_title(title or f"{study.hands[0]} vs {' vs '.join(study.hands[1:])}\n"
                          f"on {study.board}: {whole:.1%}, by the next card", fontsize=9)
    bar = fig.colorbar(image, ax=ax, fraction=0.08, pad=0.04)
    bar.set_label(f"equity of {study.hands[0]}")
    bar.ax.axhline(whole, color="black", linewidth=2)
    try:
        return save(fig, path)
    finally:
        plt.close(fig)


def winnings(rows: Sequence, path: str | Path, *, title: str = "",
             big_blinds: bool = False) -> Path:
    """The graph of all-in EV: one player's cumulative chips won, and with every all-in
    paid by equity, over the hands (``histories.AllinRow`` rows of that player, in
    order; a hand without a result left out).  ``big_blinds``: in big blinds."""
    plt = pyplot()
    won, ev = [0.0], [0.0]
    for row in rows:
        if row.net is None:
            continue
        unit = row.big_blind if big_blinds and row.big_blind > 0 else 1.0
        won.append(won[-1] + row.net / unit)
        ev.append(ev[-1] + (row.allin_ev if row.allin_ev is not None else row.net) / unit)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(range(len(won)), won, label="won", color="tab:green")
    ax.plot(range(len(ev)), ev, label="all-in EV", color="tab:orange")
    ax.axhline(0, color="grey", linewidth=0.6)
    ax.set_xlabel("hands")
    ax.set_ylabel("big blinds" if big_blinds else "chips")
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title(title or "won and all-in EV")
    try:
        return save(fig, path)
    finally:
        plt.close(fig)
