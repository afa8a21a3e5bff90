"""Seeds in results files read back exactly: written as text ("0x" and hex digits) that
pandas and spreadsheets keep as text, where a number of 19 digits in a column with empty
cells (the exact rows') is read as a float, rounded to another seed."""
import csv
import json

import pytest

from evaluator import ArgumentTypeError, EvaluatorError, batch_equity, equity
from evaluator.batch.rows import row_digest
from evaluator.cli import main

pd = pytest.importorskip("pandas")

MIXED = [{"hands": "AsKs vs QhQd", "board": "2c7d9h"},                 # exact: no seed
         {"hands": "AsKs vs QhQd", "trials": 3000},
         {"hands": "QQ+,AKs vs random", "board": "2c7d9hTs"},          # exact
         {"hands": "JJ vs random", "board": "2c7d9h", "trials": 2000}]


def _redeal(row) -> None:
    """The sampled row's figures, dealt again from the seed as pandas read it."""
    hands = row["hands"].split(" vs ")
    again = equity("holdem", hands, row["board"] if isinstance(row["board"], str) else "",
                   trials=int(row["samples"]), seed=row["seed"])
    assert again.players[0].equity == row["p1_equity"]
    assert again.players[1].equity == row["p2_equity"]


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_sampled_row_is_dealt_again_from_its_seed_as_pandas_reads_it(tmp_path, suffix):
    pytest.importorskip("pyarrow")
    out = tmp_path / f"results{suffix}"
    rows = batch_equity(MIXED, out=out, progress=False, seed=11)
    frame = pd.read_csv(out) if suffix == ".csv" else pd.read_parquet(out)
    # the batch's own seeds pass 2**53 (a float's exact integers): read as numbers, they round
    assert max(int(r["seed"], 16) for r in rows if r["seed"]) > 2 ** 53
    for k in (1, 3):
        assert frame["seed"][k] == rows[k]["seed"]
        _redeal(frame.iloc[k])
    _redeal(pd.DataFrame(rows).iloc[3])


def test_json_and_jsonl_outputs_keep_the_seed_as_text(tmp_path):
    for name in ("r.json", "r.jsonl"):
        rows = batch_equity(MIXED, out=tmp_path / name, progress=False, seed=11)
        frame = pd.read_json(tmp_path / name, lines=name.endswith("l"))
        assert list(frame["seed"][[1, 3]]) == [rows[1]["seed"], rows[3]["seed"]]


def test_the_seed_text_is_taken_back_everywhere(tmp_path, capsys):
    plain = equity("holdem", ["AsKs", "QhQd"], trials=2000, seed=42)
    assert plain.to_dict()["seed"] == "0x2a"
    assert equity("holdem", ["AsKs", "QhQd"], trials=2000, seed="0x2a") == plain
    row = batch_equity([{"hands": "AsKs vs QhQd", "trials": 2000, "seed": "0x2A"}],
                       progress=False)[0]
    assert row["seed"] == "0x2a" and row["p1_equity"] == plain.players[0].equity
    assert main(["equity", "holdem", "AsKs", "QhQd", "--trials", "2000", "--seed", "0x2a",
                 "--csv", "--no-progress"]) == 0
    lines = list(csv.DictReader(capsys.readouterr().out.splitlines()))
    assert lines[0]["seed"] == "0x2a" and float(lines[0]["equity"]) == plain.players[0].equity
    with pytest.raises(ArgumentTypeError, match="seed must be an integer, or its text"):
        equity("holdem", ["AsKs", "QhQd"], trials=100, seed="0xzz")
    with pytest.raises(EvaluatorError, match="query 1: seed must be"):
        batch_equity([{"hands": "AsKs vs QhQd", "trials": 100, "seed": "0x"}], progress=False)


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_a_file_written_with_integer_seeds_still_resumes(tmp_path, suffix):
    """Files written before seeds were text hold their digits: they resume, and the rows
    given back hold the seed as text."""
    out = tmp_path / f"old{suffix}"
    whole = batch_equity(MIXED, out=out, progress=False, seed=11)
    old = []
    for row in whole[:2]:
        row = {**row, "seed": None if row["seed"] is None else int(row["seed"], 16)}
        old.append({**row, "digest": row_digest(row)})
    if suffix == ".csv":
        header = out.read_text().splitlines()[0].split(",")
        with out.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, header, lineterminator="\n")
            writer.writeheader()
            writer.writerows({k: "" if v is None else v for k, v in r.items()} for r in old)
    else:
        out.write_text("".join(json.dumps(r) + "\n" for r in old))
    again = batch_equity(MIXED, out=out, progress=False, seed=11, resume=True)
    assert again.resumed == 2 and list(again) == list(whole)
