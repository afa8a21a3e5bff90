import json
import runpy

import numpy as np
import pytest

from evaluator import _layout, _tables


def test_tables_match_manifest_hashes():
    assert _tables.verify() == []


def test_tables_are_read_only_and_small():
    """Every shipped table and the derived Omaha table, together under 64 MB in memory
    and on disk."""
    arrays = [_tables.load(name) for name in _tables.manifest()["tables"]]
    arrays.append(_tables.omaha_direct())
    total = 0
    for array in arrays:
        assert not array.flags.writeable
        total += array.nbytes
    assert total < 64 * 2**20
    on_disk = sum(p.stat().st_size for p in _tables.tables_dir().glob("*.npy"))
    assert on_disk < 64 * 2**20


@pytest.mark.parametrize("offsets, values", [("rank_offsets", "rank_values"),
                                             ("rank_offsets5", "rank_values5"),
                                             ("rank_offsets5", "omaha_board_index"),
                                             ("omaha_hole_offsets", "omaha_hole_index")])
def test_every_key_indexes_inside_the_value_table(offsets, values):
    """Any 25-bit key, even one no real hand makes, reads inside the hash's table:
    garbage rows with validate=False get a wrong value, never a read past the array."""
    offsets = _tables.load(offsets).astype(np.int64) << _layout.OFFSET_SHIFT
    values = _tables.load(values)
    assert offsets.size << _layout.ROW_SHIFT == _layout.KEY_MASK + 1
    assert offsets.max() + _layout.COL_MASK < values.size


def test_garbage_omaha_rows_read_real_table_entries():
    """Board and hole indices of any key, used or not, name a row and column of
    ``omaha_pairs`` and ``omaha_direct``."""
    assert int(_tables.load("omaha_board_index").max()) < _tables.load("omaha_pairs").shape[0]
    assert int(_tables.load("omaha_hole_index").max()) < _tables.omaha_direct().shape[1]


def hash_slot(offsets, key):
    h = key & _layout.KEY_MASK
    return (int(_tables.load(offsets)[h >> _layout.ROW_SHIFT]) << _layout.OFFSET_SHIFT) + (
        h & _layout.COL_MASK)


def test_omaha_hole_hash_and_direct_table():
    """Every four-card hole rank multiset gets its own column of ``omaha_direct``, whose
    entries are the best of the six ``omaha_pairs`` entries of the hole's card pairs."""
    from itertools import combinations, combinations_with_replacement

    keys = _tables.load("card_keys")[0:52:4]                 # one card per rank
    index = _tables.load("omaha_hole_index")
    columns = _tables.load("omaha_hole_pairs")
    pairs = _tables.load("omaha_pairs")
    direct = _tables.omaha_direct()
    assert direct.shape == (6175, 1820) and not direct.flags.writeable
    rng = np.random.default_rng(5)
    boards = rng.integers(0, 6175, 50)
    seen = set()
    for ranks in combinations_with_replacement(range(13), 4):
        j = int(index[hash_slot("omaha_hole_offsets", int(keys[list(ranks)].sum()))])
        seen.add(j)
        expected = sorted(13 * a + b for a, b in combinations(ranks, 2))
        assert sorted(columns[j].tolist()) == expected, ranks
        assert np.array_equal(direct[boards, j], pairs[boards][:, expected].max(axis=1))
    assert seen == set(range(1820))


def test_five_card_hash_agrees_with_the_general_one():
    """``rank_values5`` holds the same value as ``rank_values`` for every five-card multiset."""
    from itertools import combinations_with_replacement

    keys = _tables.load("card_keys")[0:52:4] & np.uint64(_layout.KEY_MASK)   # one card per rank
    seen = 0
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        h = int(keys[list(ranks)].sum()) & _layout.KEY_MASK
        values = []
        for suffix in ("", "5"):
            offsets = _tables.load("rank_offsets" + suffix)
            slot = (int(offsets[h >> _layout.ROW_SHIFT]) << _layout.OFFSET_SHIFT) + (
                h & _layout.COL_MASK)
            values.append(int(_tables.load("rank_values" + suffix)[slot]))
        assert values[0] == values[1] > 0, ranks
        seen += 1
    assert seen == 6175


@pytest.mark.slow
def test_regenerating_gives_identical_tables(tmp_path):
    generate = runpy.run_path(str(_tables.tables_dir() / "generate.py"))
    assert generate["main"](["--out", str(tmp_path)]) == 0
    fresh = json.loads((tmp_path / "MANIFEST.json").read_text())
    assert fresh == json.loads((_tables.tables_dir() / "MANIFEST.json").read_text())
    for name in fresh["tables"]:
        assert np.array_equal(np.load(tmp_path / f"{name}.npy"), _tables.load(name))


def test_corrupt_table_is_reported(tmp_path, monkeypatch):
    for path in _tables.tables_dir().iterdir():
        if path.suffix in (".npy", ".json"):
            (tmp_path / path.name).write_bytes(path.read_bytes())
    data = bytearray((tmp_path / "flush_values.npy").read_bytes())
    data[-1] ^= 1
    (tmp_path / "flush_values.npy").write_bytes(bytes(data))
    monkeypatch.setenv("EVALUATOR_TABLES", str(tmp_path))
    _tables.reset()
    try:
        [problem] = _tables.verify()
        assert problem.startswith(f"table 'flush_values': {tmp_path / 'flush_values.npy'} is "
                                  "corrupt (its sha256 differs from MANIFEST.json)")
    finally:
        monkeypatch.delenv("EVALUATOR_TABLES")
        _tables.reset()


def test_preflop_matrix_is_consistent_and_matches_fresh_equities():
    from fractions import Fraction

    from evaluator import equity
    from evaluator.ranges import CLASS_NAMES
    from evaluator.studies import preflop_matrix
    shares = _tables.load("preflop_holdem")
    won, deals = shares[..., 0], shares[..., 1]
    assert (deals == deals.T).all() and (won + won.T == deals).all()   # shares add up to 1
    assert deals.sum() == 2 * 1326 * 1225 * 1_712_304
    m = preflop_matrix()
    for a, b in [("AA", "KK"), ("AKs", "QQ"), ("72o", "32o"), ("T9s", "AKo"), ("55", "55")]:
        i, j = CLASS_NAMES.index(a), CLASS_NAMES.index(b)
        fresh = equity("holdem", [a, b], exact=True)
        assert Fraction(int(won[i, j]), int(deals[i, j])) == fresh.fractions[0], (a, b)
        assert m.equity(a, b) == pytest.approx(fresh.players[0].equity)
    vs_random = m.vs_random()
    assert vs_random[CLASS_NAMES.index("AA")] == pytest.approx(0.8520, abs=1e-4)
    assert vs_random[CLASS_NAMES.index("32o")] == pytest.approx(0.3230, abs=1e-4)
