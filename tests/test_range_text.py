"""Range.to_text: range text for other tools that reads back to the same range."""
import json
import subprocess
import sys

import numpy as np
import pytest

from evaluator.classes import CLASS_NAMES, class_combos
from evaluator.combo_order import combos
from evaluator.errors import ArgumentTypeError, EvaluatorError, RangeError
from evaluator.ranges import Range

STYLES = ("pio", "gtoplus", "pokerstove")

TEXTS = ["15%", "random", "QQ+,AKs", "AA,KK:0.5,AhKh:0.25", "22+,A2s+,KTo+", "AA",
         "AhKh", "77-55,A5s-A2s:0.3,KJo", "T9s,98s,87s,AKs,KQs,QJs", "5%-10%",
         "QQ+:0.5,AKs:1e-300,AsKs:0.125,22", "0.7(JJ-88),A2+:0.2,K9o", "KK!KsKh,AQs!AcQc:0.5"]


def same(text, original, game="holdem"):
    back = Range(text, game)
    assert np.array_equal(back.combos, original.combos), text
    expected = original.weights / original.weights.max()
    assert np.allclose(back.weights, expected, rtol=1e-12, atol=0), text
    return back


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("text", TEXTS)
def test_text_reads_back_to_the_same_range(text, style):
    original = Range(text)
    back = same(original.to_text(style), original)
    assert back == original                         # weights of 1 or written with repr


def random_vectors(seed, n=20):
    """Weight vectors over hold'em's combos: per combo, per class (so whole classes and
    runs of classes share weights), and a few distinct weights over random classes."""
    rng = np.random.default_rng(seed)
    every = combos("holdem")
    index = {tuple(map(int, row)): k for k, row in enumerate(every)}
    classes = [[index[tuple(sorted(c))] for c in class_combos(name)] for name in CLASS_NAMES]
    for trial in range(n):
        kind = trial % 3
        v = np.zeros(len(every))
        if kind == 0:
            v = rng.random(len(every)) * (rng.random(len(every)) < rng.random())
        else:
            levels = rng.random(4) if kind == 1 else np.array([1.0, 0.5, 0.25, 0.0])
            for members in classes:
                v[members] = levels[rng.integers(len(levels))]
            if kind == 1:            # break a few classes into combos
                v[rng.integers(len(v), size=20)] = rng.random(20)
        v[rng.integers(len(v))] = 1.0                # never empty
        yield v


@pytest.mark.parametrize("style", STYLES)
def test_ranges_from_random_vectors_read_back(style):
    for v in random_vectors(20261201):
        original = Range.from_vector(v)
        back = same(original.to_text(style), original)
        assert np.allclose(back.vector(), v / v.max(), rtol=1e-12, atol=0)


def test_pio_writes_whole_classes_by_name_and_partial_ones_as_combos():
    assert Range("AA,KK:0.5,AhKh:0.25").to_text() == "AA,KK:0.5,AhKh:0.25"
    assert Range("QQ+,AKs").to_text("pio") == "AA,KK,QQ,AKs"
    assert Range("AKo").to_text() == "AKo"
    # a class of mixed weights is written combo by combo
    text = Range("AKs:0.5,AhKh").to_text()
    assert text.split(",") == ["AsKs:0.5", "AhKh", "AdKd:0.5", "AcKc:0.5"]
    # weights written with repr read back exactly
    assert Range("AA,KK:0.1").to_text() == "AA,KK:0.1"
    assert Range("AA:3,KK:1").to_text() == f"AA,KK:{1 / 3!r}"


def test_gtoplus_is_the_pio_text():
    for text in TEXTS:
        r = Range(text)
        assert r.to_text("gtoplus") == r.to_text("pio")


def test_pokerstove_text_is_compact():
    text = Range("22+,A2s+,KTo+").to_text("pokerstove")
    assert text == "22+,A2s+,KTo+"
    assert Range("77-55").to_text("pokerstove") == "77-55"
    assert Range("QJs-Q9s").to_text("pokerstove") == "Q9s+"
    assert Range("Q8s-Q5s").to_text("pokerstove") == "Q8s-Q5s"
    assert Range("T9s-65s").to_text("pokerstove") == "T9s-65s"
    assert Range("TT+:0.5,AKs").to_text("pokerstove") == "TT+:0.5,AKs"
    assert Range("QQ+,AKs:0.5,AhKd").to_text("pokerstove") == "QQ+,AKs:0.5,AhKd"
    assert len(Range("random").to_text("pokerstove")) < len(Range("random").to_text("pio"))


def test_ranges_without_their_weight_one_combos_are_written_relative():
    r = Range("AA,KK:0.5,QQ:0.25").live("AsAhAdAc")
    assert r.weights.max() == 0.5
    for style in STYLES:
        text = r.to_text(style)
        assert text.startswith("KK,QQ:0.5")
        same(text, r)


def test_short_deck_reads_back():
    original = Range("random", "short_deck")
    for style in STYLES:
        same(original.to_text(style), original, "short_deck")
    assert original.to_text("pokerstove").startswith("66+,A6s+")


@pytest.mark.parametrize("style", STYLES)
def test_omaha_writes_combos_one_by_one(style):
    original = Range("AA$ds:0.5,KK$ds,QQ**!QQQ:0.25", "omaha")
    text = original.to_text(style)
    assert len(text.split(",")) == len(original)
    assert "AsAh9s8h:0.5" in text.split(",")
    back = same(text, original, "omaha")
    assert back == original


def test_bad_style_is_refused_naming_it():
    with pytest.raises(RangeError, match="unknown range text style 'equilab'"):
        Range("AA").to_text("equilab")
    with pytest.raises(EvaluatorError, match="'pio', 'gtoplus', 'pokerstove'"):
        Range("AA", "omaha").to_text("PIO ")
    with pytest.raises(ArgumentTypeError):
        Range("AA").to_text(1)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "evaluator", *args], capture_output=True,
                          text=True, timeout=300)


def ok(*args):
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_cli_range_format():
    text = "22+,A2s+,KTo+,AhKh:0.25"
    r = Range(text)
    for style in STYLES:
        printed = ok("range", text, "--format", style).strip()
        assert printed == r.to_text(style)
        shown = json.loads(ok("range", text, "--format", style, "--json"))
        assert shown == {"range": text, "game": "holdem", "format": style,
                         "text": r.to_text(style)}
    assert ok("range", "22+,A2s+,KTo+", "--format", "pokerstove").strip() == "22+,A2s+,KTo+"
    lines = ok("range", "AA,KK:0.5", "--format", "vector").split()
    vector = Range("AA,KK:0.5").vector()
    assert len(lines) == 1326 and np.array_equal(np.array(lines, float), vector)
    shown = json.loads(ok("range", "AA,KK:0.5", "--format", "vector", "--json"))
    assert shown["format"] == "vector" and np.array_equal(shown["vector"], vector)
    omaha = ok("range", "AA$ds", "--game", "omaha", "--format", "pio").strip()
    assert omaha == Range("AA$ds", "omaha").to_text()
    dead = ok("range", "AA,KK:0.5", "--dead", "As", "--format", "pio").strip()
    assert dead == Range("AA,KK:0.5").live("As").to_text()
    # without --format the output is as before
    assert "combos" in ok("range", "QQ+,AKs").splitlines()[0]
    done = run_cli("range", "AA", "--format", "equilab")
    assert done.returncode != 0 and "equilab" in done.stderr
