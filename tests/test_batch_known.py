"""A batch's plain known-hand queries, answered in bulk (``evaluator.batch.known``): the rows
are ``run_query``'s bit for bit, and every query that is not plain, or is wrong, goes the
general way (its error unchanged)."""
import random

import pytest

import evaluator as ev
from evaluator import batch_equity
from evaluator.batch import known, run_query
from evaluator.batch.queries import _normalise, validate
from evaluator.errors import ArgumentTypeError, EvaluatorError

HOLDEM = ("holdem", "short_deck")
OMAHA = ("omaha", "omaha5", "omaha6", "courchevel")


def _queries(seed: int, count: int, games=HOLDEM) -> list[dict]:
    """Known-hand queries of quick games: 2 to 6 players (Omaha: 2 to 4), every street,
    dead cards, boards with and without spaces, hands as a list or one text, ``exact``
    unset, True or a file's text; a few pre-flop (milliseconds each)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = rng.choice(games)
        g = ev.game(game)
        deck = [r + s for r in "23456789TJQKA"[g.lowest_rank:] for s in "cdhs"]
        hole = g.hole
        players = rng.choice([2, 2, 3, 4, 6] if hole == 2 else [2, 2, 3, 4][:8 - hole])
        shown = rng.choice(g.streets)
        if shown < 3 and rng.random() < 0.8:
            continue
        dead = rng.choice([0, 0, 1, 3])
        held = hole * players
        cards = rng.sample(deck, held + shown + dead)
        hands = ["".join(cards[hole * p:hole * (p + 1)]) for p in range(players)]
        query = {"game": game, "hands": hands if rng.random() < 0.7 else " vs ".join(hands),
                 "board": rng.choice(["", " "]).join(cards[held:held + shown]),
                 "dead": "".join(cards[held + shown:])}
        query["exact"] = rng.choice([None, None, True, "", "true"])
        out.append(query)
    return out


def _general(queries: list[dict]) -> list[dict]:
    return [run_query(_normalise(q, i, 0)) for i, q in enumerate(queries)]


@pytest.mark.parametrize("seed, games", [(1, HOLDEM), (2, HOLDEM), (3, OMAHA)])
def test_quick_rows_are_the_general_paths_rows(seed, games):
    queries = _queries(seed, 400 if games == HOLDEM else 150, games)
    items = validate([(None, q) for q in queries], 0, False)
    assert all(known.KEY in item for item in items)          # every one read as quick
    assert known.rows(items, 1) == _general(queries)
    assert [dict(r) for r in batch_equity(queries, threads=2, progress=False)] == \
        _general(queries)


def test_a_spot_the_kernel_leaves_to_a_walk_goes_the_general_way(monkeypatch):
    """``best5_exact`` gives -1 where two suits can both flush (never for two-card hands
    on a full deck, which cannot reach that many suited cards: kept for safety); the
    batch then answers that query the general way."""
    from evaluator.kernels import multisets
    real = multisets.best5_exact_spots

    def first_walked(holes, boards, deads, *rest):
        real(holes, boards, deads, *rest)
        rest[-1][0] = -1
    monkeypatch.setattr(multisets, "best5_exact_spots", first_walked)
    queries = [{"hands": ["AsKs", "QhJh"], "board": "2s3h7c"},
               {"hands": ["AsKs", "QhQd"], "board": "2s3h7c"}]
    items = validate([(None, q) for q in queries], 0, False)
    quick = known.rows(items, 1)
    assert quick[0] is None and quick[1] == _general(queries)[1]
    assert [dict(r) for r in batch_equity(queries, threads=1, progress=False)] == \
        _general(queries)


@pytest.mark.parametrize("query", [
    {"hands": ["asks", "QhQd"], "board": "2c7d9h"},            # not canonical
    {"hands": ["As Ks", "QhQd"], "board": "2c7d9h"},
    {"hands": ["AsKs", "QhQd"], "board": "2c7d9h", "trials": 1000, "seed": 3},
    {"hands": ["AsKs", "QhQd"], "board": "2c7d9h", "exact": False},
    {"hands": ["AsKs", "QQ+"], "board": "2c7d9h"},
    {"game": "omaha8", "hands": ["AsKsQhQd", "JcTc9c8c"], "board": "2c7d9h"},   # hi-lo
    {"game": "short_deck", "hands": ["AsKs", "QhQd"], "board": "2c7d9h"},   # not its deck
])
def test_queries_that_are_not_plain_go_the_general_way(query):
    items = validate([(None, query)], 0, True)
    assert known.KEY not in items[0]
    assert known.rows(items, 1) == [None]


@pytest.mark.parametrize("query, token", [
    ({"hands": ["AsKs", "QhQd"], "board": None}, None),          # JSON null: not a text
    ({"game": None, "hands": ["AsKs", "QhQd"]}, None),
    ({"hands": ["AsKs", "AsQd"], "board": "2c7d9h"}, "As"),
    ({"hands": ["AsKs", "QhQd"], "board": "2c7d"}, None),
    ({"hands": ["AsKs", "QhQd"], "board": "2c7d9h", "dead": "2c"}, "2c"),
    ({"hands": ["AsKs"] + [f"{r}c{r}d" for r in "23456789TJQK"] + ["QhQs", "JhJs", "ThTs",
                                                                    "9h9s", "8h8s", "7h7s",
                                                                    "6h6s", "5h5s", "4h4s",
                                                                    "3h3s", "2h2s", "Ah"]},
     None),
])
def test_a_wrong_plain_query_gets_the_general_paths_error(query, token):
    with pytest.raises((EvaluatorError, ArgumentTypeError)) as caught:
        batch_equity([query], progress=False)
    with pytest.raises((EvaluatorError, ArgumentTypeError)) as general:
        _normalise_and_check(query)
    assert str(caught.value).split(": ", 1)[1] == str(general.value)
    if token is not None:
        assert token in str(caught.value)


def _normalise_and_check(query: dict) -> None:
    from evaluator.engine import check_query
    item = _normalise(query, 0, 0)
    check_query(item["game"], item["hands"], item["board"], item["dead"], exact=item["exact"])


def test_rows_are_the_same_on_one_thread_and_two():
    queries = _queries(3, 300)
    items = validate([(None, q) for q in queries], 0, False)
    assert known.rows(items, 1) == known.rows(items, 2)


@pytest.mark.parametrize("threads", [1, 2])
def test_windows_of_quick_and_general_queries_keep_their_order(monkeypatch, threads):
    """Many windows (each window's kernels counted while the one before builds its rows),
    quick queries among ranges and sampled ones: the rows of the general path, in order."""
    import evaluator.batch as batch
    monkeypatch.setattr(batch, "WINDOW", 40)
    queries = _queries(4, 150)
    for k in range(0, 150, 7):
        queries[k] = {"hands": ["AsKs", "QQ+"], "board": "2c7d9h"}
    for k in range(3, 150, 11):
        queries[k] = {"hands": ["AsKs", "QhQd"], "board": "2c7d9h", "trials": 500, "seed": k}
    rows = batch_equity(queries, threads=threads, progress=False)
    assert [dict(r) for r in rows] == _general(queries)


def test_a_sampled_row_resumed_for_a_plain_query_is_kept_as_the_general_way_keeps_it(
        tmp_path):
    """A row sampled under the seed the batch derives (``exact=False``, no seed) and resumed
    by the same query without ``exact``: the general path kept it (the same derived seed);
    so does a plain query, whose seed is derived when its row is checked."""
    out = tmp_path / "r.csv"
    queries = [{"id": f"q{k}", "hands": ["AsKs", "QhQd"], "board": "2c7d9h", "exact": False}
               for k in range(2)]
    written = batch_equity(queries, out=out, progress=False)
    again = [{"id": q["id"], "hands": q["hands"], "board": q["board"]} for q in queries]
    assert batch_equity(again, out=out, resume=True, progress=False) == written


def test_a_batch_stopped_early_leaves_no_window_counting(monkeypatch):
    import evaluator.batch as batch
    monkeypatch.setattr(batch, "WINDOW", 30)
    launched = []
    real = known.launch

    def launch(items, threads):
        launched.append(real(items, threads))
        return launched[-1]
    monkeypatch.setattr(known, "launch", launch)
    items = validate([(None, q) for q in _queries(5, 90)], 0, False)
    rows = batch._local(items, 2, False, lambda: None)
    next(rows)
    rows.close()                       # a failure, or Ctrl-C, ends the batch here
    assert len(launched) == 2 and launched[-1].halt.is_set()


def test_a_failure_of_the_bulk_path_leaves_each_query_to_the_general_way(monkeypatch):
    def broken(self, halt):
        raise RuntimeError("kernel broke")
    monkeypatch.setattr(known._Shape, "count", broken)
    queries = _queries(6, 20)
    for threads in (1, 2):
        assert [dict(r) for r in batch_equity(queries, threads=threads, progress=False)] \
            == _general(queries)


def test_the_threads_of_the_general_queries_are_chosen_once(monkeypatch):
    """Small general queries timed in the first window with enough of them: one thread,
    then in every later window without timing again."""
    import evaluator._parallel as parallel
    import evaluator.batch as batch
    monkeypatch.setattr(batch, "WINDOW", 40)
    monkeypatch.setattr(batch, "SMALL_QUERY_SECONDS", 10.0)      # every query is small
    calls = []
    real = parallel.imap_unordered

    def spy(function, items, threads, **options):
        calls.append((len(items), threads))
        return real(function, items, threads, **options)
    monkeypatch.setattr(parallel, "imap_unordered", spy)
    queries = [{"hands": ["AsKs", "QQ"], "board": "2c7d9h" + t} for t in
               ["Tc", "Jd", "Qc", "Kh", "3c", "4d", "5h", "6s", "8c", "8d"] * 12]
    batch_equity(queries, threads=None, progress=False)
    assert calls == [(32, 1), (8, 1), (40, 1), (40, 1)]


def test_the_fields_a_quick_query_may_hold_are_a_querys_fields():
    from evaluator.batch import queries
    assert known.KNOWN_FIELDS == queries.KNOWN_FIELDS
