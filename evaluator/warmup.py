"""Compile (or load from Numba's on-disk cache) every kernel the package uses.

``evaluator warmup`` runs it once after installing, so that no first query of a game pays
the seconds its kernels take to compile; the tests run it once per session.  The queries
are derived from the game registry (every game, every board size, every kind of hand and
range, exact and sampled), so a new game is warmed without a line here; a slow test runs
a wider batch after it and counts the kernels that still compile (none).
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from .cards import parse_cards
from .engine import equity
from .evaluate import evaluate_batch
from .families import family as _family
from .games import GAMES, Game
from .games import game as _game
from .kernels.markers import STRAIGHT_DEALT

__all__ = ["warmup", "warmed"]


def _evaluate_game(name: str) -> None:
    g = _game(name)
    for width in g.row_sizes():
        hands = np.array(g.deck[:width], np.uint8).reshape(1, width)
        evaluate_batch(g, hands)
        evaluate_batch(g, hands, validate=False)     # the kernel that checks nothing
        if g.pot == "hilo":
            evaluate_batch(g, hands, low=True)


# hands by hole size, from cards every game's deck holds (sixes and up), and boards that
# share no card with them
_KNOWN = {2: ("AsKs", "QhQd", "JcTc"), 3: ("AsKsQs", "JhJdTc", "9c9d9h"),
          4: ("AsAhKsKh", "QdQcJdTc", "9c9d9hTh"), 5: ("AsAhKsKhQs", "QdQcJdTcJs", "9c9d9hThTs"),
          6: ("AsAhKsKhQsJh", "QdQcJdTcJsKd", "9c9d9hThTsAc")}
_BOARD, _SHORT_BOARD = "2c3d4h5s2h", "6c6d7h7s8c"
# dead cards that no hand or board above holds: the same kernels (a deck's size is no part
# of a kernel's signature) on a deck of 40 cards, where an exact answer against 'random'
# lists a fifth of the deals or fewer
_DEAD = "6c6d6h6s7c7d7h7s8c8d8h8s"
SAMPLED: dict[str, Any] = {"trials": 500, "seed": 1}


def _narrow(g: Game) -> tuple[str, str, str]:
    """Two-combo ranges of the game: of equal weights, of unequal weights that are
    multiples of 1/1024 (exact answers sum them as integers), and of weights that are
    not (summed as floats)."""
    first, second = _KNOWN[g.hole][0], _KNOWN[g.hole][1]
    # the same ranks in other suits: the suit-swapped twins of the first two hands
    swap = str.maketrans("shdc", "dchs")
    return (f"{first},{first.translate(swap)}", f"{second},{second.translate(swap)}:0.5",
            f"{first},{first.translate(swap)}:0.3")


def _equity_steps() -> list[tuple[str, list[str], str, dict[str, Any]]]:
    """Small queries that reach every equity kernel, derived from the game registry: for
    each game and each of its board sizes, known hands (heads-up and three-way), a hand
    with an unknown card, 'random', narrow ranges of equal and unequal weights (and of
    weights that are not multiples of 1/1024, exact) and a wide one, each exact (as the
    planner chooses) and sampled; exact against 'random' only in the first game of each
    family, hole and deck size; hold'em-like games with 12 dead cards; a range against
    'random' in the first stream (``version=1``); ranges against one to five players dealt
    with the board, sampled, on the first street.  (game, hands, board, options)."""
    steps: list[tuple[str, list[str], str, dict[str, Any]]] = []
    firsts = _first_games(by_shape=True)
    for name in GAMES:
        g = _game(name)
        a, b, c = _KNOWN[g.hole]
        equal, unequal, uneven = _narrow(g)
        wide = "5%"
        partly = b[:-2] + "?"
        cards = _SHORT_BOARD if g.lowest_rank else _BOARD
        for street in g.streets:
            board = cards[:2 * street]
            # (not in Omaha, whose answers against 'random' are swept over every opponent
            # hand of a full deck, quicker than listing them on a short one)
            dead = {} if g.lowest_rank or g.hole > 3 else {"dead": _DEAD}
            for hands in ([a, b], [a, b, c], [a, "random"], [a, partly], [equal, b],
                          [unequal, a], [equal, "random"], [unequal, "random"],
                          [equal, unequal, c]):
                # exact against 'random' (the costliest answers, 20 s of warmup's 24):
                # the same kernels in every game of a family with one hole and deck size
                # (the planner's choices depend on them), so the first such game's only
                if "random" not in hands or name in firsts:
                    steps.append((name, hands, board, dead))
                steps.append((name, hands, board, {**SAMPLED, **dead}))
            # weights that are not multiples of 1/1024: the exact kernels' float sums
            # (the sampler draws them as any other weights)
            steps.append((name, [uneven, unequal], board, dead))
            steps.append((name, [uneven, unequal, c], board, dead))
            if _family(g).hole_only:          # three ranges swept at once (no board)
                steps.append((name, [equal, unequal, equal], board, dead))
            for hands in ([wide, "random"], [wide, b], [wide, unequal, c]):
                steps.append((name, hands, board, {**SAMPLED, **dead}))
            if name in firsts:
                # the heads-up sampler's first stream (``version=1``, kept for one release;
                # the second's draw, too, where a deal's combos and board take more of a
                # step than ``markers.combo_marker`` allows, such as two random hands
                # pre-flop): one kernel for each count of board cards, in every game
                steps.append((name, [equal, "random"], board, {**SAMPLED, "version": 1}))
            if street == g.streets[0]:
                # the multiway range sampler's dealers: the straight one is a kernel per
                # count of players dealt two cards (none, with ranges only, above; one to
                # ``STRAIGHT_DEALT`` here), the unit one serves a player holding a card
                # already (the count of board cards is read at run time: one street does)
                multiway = [[equal, unequal, "random"], [equal, partly, "random"]]
                multiway += [[equal] + ["random"] * dealt
                             for dealt in range(2, STRAIGHT_DEALT + 1)]
                for hands in multiway:
                    steps.append((name, hands, board, SAMPLED))
    return steps


def _study_steps() -> list[tuple[str, Callable[[], object]]]:
    """The studies' own kernels: the rank-multiset batches of the distributions, on every
    street of hold'em."""
    from .studies import equity_distribution
    return [(f"distribution on {board or 'no board'}",
             partial(equity_distribution, "AsKs,QQ", "JJ:0.5", board, progress=False,
                     threads=1))
            for board in ("", "2c3d4h", "2c3d4h5s", "2c3d4h5s2h")]


def _vector_steps() -> list[tuple[str, Callable[[], object]]]:
    """The combo vectors of every game that has them (``vector_streets.sweeps``): every combo's
    equity on the first board size they take and on a flop's many runouts (the chunked
    path), showdown values of one and of several reach vectors, the call matrix, a
    runout's hero totals and the flop study's every-flop sweep."""
    from . import flop_vectors, subset_vectors, vectors
    from .kernels import rows as card_rows
    from .ranges import Range
    # the subset sweep's kernels take any game's arrays alike: warmed once, on a few combos
    steps: list[tuple[str, Callable[[], object]]] = [
        ("subset sweep", subset_vectors.warm), ("card rows of large ranges", card_rows.warm)]
    for name in GAMES:
        g = _game(name)
        if vectors.kind(g) not in ("pairs", "omaha") or (vectors.kind(g) == "omaha"
                                                        and g.hole != 4):
            continue        # five-card Omaha runs four-card Omaha's kernels (same types)
        cards = _SHORT_BOARD if g.lowest_rank else _BOARD
        # an Omaha flop runs the turn's chunked kernels on more rivers: the turn warms them
        first = max(min(vectors.boards(g)), 4 if vectors.kind(g) == "omaha" else 0)
        narrow = _narrow(g)[1]
        for street in sorted({first, 5}):
            steps.append((f"{name} combo vectors on {street} cards",
                          partial(vectors.combo_equity, g, narrow, cards[:2 * street],
                                  threads=1)))
        reach = Range(narrow, g).vector()
        for rows in (reach, np.stack([reach, reach])):
            steps.append((f"{name} showdown values", partial(
                vectors.showdown_values, g, rows, cards, threads=1)))
        if vectors.kind(g) == "omaha":
            steps.append((f"{name} runout by runout", partial(
                _runout_totals, g, reach, cards[:8])))
            # a river on two threads: its clear weights and its walk side by side
            steps.append((f"{name} river on two threads", partial(
                vectors.combo_equity, g, narrow, cards, threads=2)))
            steps.append((f"{name} showdown values on two threads", partial(
                vectors.showdown_values, g, reach, cards, threads=2)))
        if vectors.kind(g) == "omaha" and g.hilo:        # the hi-lo tallies' board listing
            steps.append((f"{name} board values", partial(
                subset_vectors.board_values, g, parse_cards(cards).astype(np.uint8), 0, 1)))
        if g.hole != 2:
            continue
        steps.append((f"{name} call matrix", partial(vectors.call_matrix, g, cards)))
        steps.append((f"{name} runout totals", partial(
            vectors.runout_totals, g, _KNOWN[2][0], narrow, cards[:8], threads=1)))
        flops = np.array([parse_cards(cards[:6])], np.uint8)
        steps.append((f"{name} every flop", partial(
            flop_vectors.flop_totals, reach, reach, flops, np.array([[0, 1, 2, 3]]), game=g,
            threads=1)))
    return steps


def _runout_totals(g: Game, reach: np.ndarray, board: str) -> object:
    """A runout study's and a flop's exact equity kernels: each river of a turn swept
    for one range's totals (``runout_vectors.hero_totals``)."""
    from .runout_vectors import hero_totals
    ids = parse_cards(board)
    left = np.array([c for c in g.deck if c not in set(ids.tolist())], np.uint8)
    return hero_totals(g, reach, reach, ids.astype(np.uint8),
                       sum(1 << int(c) for c in ids.tolist()), left[:, None], 1)


# what the compiled code depends on besides the sources: a record written under other
# settings does not count
_SETTINGS = ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES", "NUMBA_OPT", "NUMBA_DISABLE_JIT",
             "NUMBA_ENABLE_AVX", "EVALUATOR_SIMD")


def _record_path() -> Path | None:
    """Where warmup records that it ran: beside Numba's index files of the kernels."""
    from ._cache_dirs import cache_dir_for
    from ._compile_note import KERNEL_DIR
    folder = cache_dir_for(KERNEL_DIR / "high.py")
    tag = f"py{sys.version_info[0]}{sys.version_info[1]}"
    return None if folder is None else Path(folder) / f"evaluator-warmup.{tag}.json"


def _fingerprint() -> dict[str, object]:
    """The kernel sources (their digests), the Numba version and the settings that decide
    what warmup compiled."""
    from ._compile_note import KERNEL_DIR, numba_version
    sources = {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
               for p in sorted(KERNEL_DIR.glob("*.py"))}
    return {"numba": numba_version(), "sources": sources,
            "settings": {k: os.environ.get(k) for k in _SETTINGS}}


def warmed() -> bool:
    """Whether a complete warmup ran with these kernel sources, this Numba and these
    settings, and Numba's cache still holds every kernel module (then nothing of what
    warmup covers compiles)."""
    from ._compile_note import uncached
    from .families import FAMILIES
    path = _record_path()
    try:
        if path is None or json.loads(path.read_text()) != _fingerprint():
            return False
    except (OSError, ValueError):
        return False
    return not uncached({m for f in FAMILIES.values() for m in f.kernel_modules})


def _work() -> list[tuple[str, str, Callable[[], object]]]:
    """Every step of a warmup: (group, label, call).  A group is one game's steps, the
    studies', or one game's combo vectors: steps of a group share most of their kernels,
    so a group runs in one process."""
    work: list[tuple[str, str, Callable[[], object]]] = [
        (name, f"evaluate {name}", partial(_evaluate_game, name)) for name in GAMES]
    for game, hands, board, options in _equity_steps():
        sampled = "trials" in options
        label = (f"{game} {' vs '.join(hands)}" + (f" on {board}" if board else "")
                 + (", sampled" if sampled else ""))
        work.append((f"{game} sampled" if sampled else game, label,
                     partial(equity, game, hands, board, threads=1, **options)))
    from .batch import known
    work += [(name, f"{name} batch of known hands", partial(_known_batch, name))
             for name in known.GAMES]
    work += [("studies", label, run) for label, run in _study_steps()]
    work += [(f"{label.split()[0]} vectors", label, run) for label, run in _vector_steps()]
    return work


def _known_batch(name: str) -> None:
    """A batch's plain known-hand queries, answered in bulk (``batch.known``): one kernel
    a family for every street and number of players."""
    from .batch import batch_equity
    g = _game(name)
    a, b, c = _KNOWN[g.hole]
    cards = _SHORT_BOARD if g.lowest_rank else _BOARD
    batch_equity([{"game": name, "hands": [a, b, c], "board": cards[:2 * street]}
                  for street in g.streets], threads=1, progress=False)


def _serve() -> None:
    """A warmup worker: run the group named on each line of stdin, then print its name."""
    work = _work()
    for line in sys.stdin:
        group = line.strip()
        for name, _, run in work:
            if name == group:
                run()
        print(group, flush=True)


def _processes(requested: int | None) -> int:
    if requested is not None:
        return max(1, int(requested))
    return max(1, min(os.cpu_count() or 1, 4))


def warmup(report: Callable[[int, int, str], None] | None = None, *,
           force: bool = False, processes: int | None = None) -> bool:
    """Compile or load every kernel: each game's evaluators, then each equity path, then
    the studies and the combo vectors.  Returns False without doing anything when a
    complete warmup already ran with these sources and settings (``warmed()``), unless
    ``force``; True otherwise.

    ``processes`` (default: the cores, at most 4) compile groups of steps side by side,
    each in a process of its own, into the one on-disk cache (its index writes are
    locked, see ``_jit``); 1 runs every step here.  ``report(step, steps, label)``, when
    given, is called before each step (one process) or as each group finishes.
    """
    if not force and warmed():
        return False
    from ._jit import quiet
    work = _work()
    workers = _processes(processes)
    if workers <= 1:
        with quiet():
            for step, (_, label, run) in enumerate(work):
                if report is not None:
                    report(step, len(work), label)
                run()
    else:
        _in_processes(work, workers, report)
    path = _record_path()
    if path is not None:
        try:
            path.write_text(json.dumps(_fingerprint()))
        except OSError:                  # a read-only cache: warmup runs again next time
            pass
    return True


def _family_of(group: str) -> str:
    """The family whose kernels a group compiles (the studies: hold'em's)."""
    game = group.split(" ")[0]
    return _game(game).family if game in GAMES else _game("holdem").family


def _first_games(by_shape: bool = False) -> set[str]:
    """The first game of each family in the registry (``by_shape``: of each family, hole
    size and deck size)."""
    firsts: dict[tuple[str, int, int], str] = {}
    for name in GAMES:
        g = _game(name)
        firsts.setdefault((g.family, *((g.hole, len(g.deck)) if by_shape else (0, 0))), name)
    return set(firsts.values())


def _rank(group: str) -> int:
    """The order a worker takes its groups in: those that compile the most first, so that
    the small ones fill in at the end.  The first game of each family, exact then sampled
    (they compile the family's kernels, which its other games then load); the combo
    vectors (few steps, many kernels of their own); the rest."""
    game, _, kind = group.partition(" ")
    if game in _first_games():
        return {"": 0, "sampled": 1}.get(kind, 2)
    return 2 if kind == "vectors" else 3


def _next_group(waiting: list[str], worker: int, workers: int) -> str:
    """The group worker ``worker`` takes next: the first waiting one of a family that is
    its own (the families dealt out in turn), else the first of any.  Two processes that
    compiled the same kernels at once would each pay for them (in a trial, 157 s of CPU
    between two processes against 100 s in one): kept to its families, a worker loads
    from the cache what its own earlier groups compiled."""
    from .families import FAMILIES
    mine = {name for k, name in enumerate(FAMILIES) if k % workers == worker}
    for k, group in enumerate(waiting):
        if _family_of(group) in mine:
            return waiting.pop(k)
    return waiting.pop(0)


def _worker_code() -> str:
    """What a warmup worker runs: ``_serve`` of this very copy of the package.  ``python -c``
    puts the working directory first on ``sys.path``, so from a clone of the repository a
    worker imported the clone's sources while the caller ran the installed package:
    Numba caches kernels per source file, so the warmup compiled the clone's and the
    caller's next query compiled its own again (4-6 s)."""
    root = str(Path(__file__).resolve().parent.parent)
    return f"import sys; sys.path[0] = {root!r}; from evaluator.warmup import _serve; _serve()"


def _in_processes(work: list[tuple[str, str, Callable[[], object]]], workers: int,
                  report: Callable[[int, int, str], None] | None) -> None:
    """The groups of ``work`` on ``workers`` Python processes, those that compile the most
    first (``_rank``), each handed the next group of its own families as it finishes one
    (``_next_group``; a process keeps what it compiled for the groups after).  Plain
    subprocesses, not ``multiprocessing``: nothing of the caller's script runs again in
    them, whether or not it guards ``__main__``."""
    import selectors
    import subprocess
    sizes: dict[str, int] = {}
    for group, _, _ in work:
        sizes[group] = sizes.get(group, 0) + 1
    waiting = sorted(sizes, key=lambda g: (_rank(g), -sizes[g]))
    env = {**os.environ, "EVALUATOR_WARMUP_WORKER": "1"}
    code = _worker_code()
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
             for _ in range(min(workers, len(waiting)))]
    number = {proc: k for k, proc in enumerate(procs)}
    selector = selectors.DefaultSelector()
    done = 0
    try:
        for proc in procs:
            assert proc.stdin is not None and proc.stdout is not None
            selector.register(proc.stdout, selectors.EVENT_READ, proc)
            proc.stdin.write(_next_group(waiting, number[proc], len(procs)) + "\n")
            proc.stdin.flush()
        busy = len(procs)
        while busy:
            for key, _ in selector.select():
                proc = key.data
                line = proc.stdout.readline()
                if not line:                        # the worker died: say why
                    error = proc.stderr.read().strip().splitlines()
                    raise RuntimeError("a warmup process failed: "
                                       + (error[-1] if error else f"exit {proc.wait()}"))
                group = line.strip()
                done += sizes[group]
                if report is not None:
                    report(done - 1, len(work), f"{group}: {sizes[group]} steps")
                if waiting:
                    proc.stdin.write(_next_group(waiting, number[proc], len(procs)) + "\n")
                    proc.stdin.flush()
                else:
                    selector.unregister(proc.stdout)
                    proc.stdin.close()
                    busy -= 1
        for proc in procs:
            proc.wait()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
