"""Progress off a terminal: plain lines on stderr, every few seconds, and one at the end."""
from types import SimpleNamespace

from evaluator import progress


def _clock(monkeypatch, *times):
    ticks = iter(times)
    monkeypatch.setattr(progress, "time", SimpleNamespace(monotonic=lambda: next(ticks)))


def test_plain_lines_every_few_seconds_and_one_at_the_end(monkeypatch, capsys):
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: False, raising=False)
    _clock(monkeypatch, 0.0, 1.0, 3.0, 4.0, 9.0, 9.5)
    bar = progress.progress_bar(4, "every flop", True)
    bar.advance(bar.task)                  # 1 s: still quiet
    bar.advance(bar.task)                  # 3 s: past the quiet seconds, a line
    bar.advance(bar.task)                  # 4 s: the next line is not due
    bar.advance(bar.task)                  # 9 s: due again
    bar.stop()                             # 9.5 s: 4/4 said already: not again
    assert capsys.readouterr().err.splitlines() == ["every flop: 2/4 (50%), 3 s",
                                                    "every flop: 4/4 (100%), 9 s"]


def test_the_end_says_what_the_last_line_did_not(monkeypatch, capsys):
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: False, raising=False)
    _clock(monkeypatch, 0.0, 3.0, 4.0, 5.0)
    bar = progress.progress_bar(2, "every flop", True)
    bar.advance(bar.task)                  # 3 s: a line
    bar.advance(bar.task)                  # 4 s: not due
    bar.stop()                             # 5 s: 2/2 was not said: a line
    assert capsys.readouterr().err.splitlines() == ["every flop: 1/2 (50%), 3 s",
                                                    "every flop: 2/2 (100%), 5 s"]


def test_quiet_work_prints_nothing(monkeypatch, capsys):
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: False, raising=False)
    _clock(monkeypatch, 0.0, 0.5, 1.0)
    bar = progress.progress_bar(1, "every flop", True)
    bar.advance(bar.task)
    bar.stop()
    assert capsys.readouterr().err == ""


def test_a_long_equity_call_reports_its_deals(monkeypatch, capsys):
    """``equity(progress=True)``: once past the quiet seconds (none here) the sampler's deals
    are reported as its chunks finish, on any thread count, and the answer is the one
    without progress."""
    from evaluator import equity
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: False, raising=False)
    monkeypatch.setattr(progress, "QUIET_SECONDS", 0.0)
    monkeypatch.setattr(progress, "LINE_EVERY", 0.0)
    quiet = equity("holdem", ["QQ+,AKs", "random"], trials=600_000, seed=4)
    assert capsys.readouterr().err == ""
    for threads in (1, 2):
        shown = equity("holdem", ["QQ+,AKs", "random"], trials=600_000, seed=4,
                       threads=threads, progress=True)
        assert shown.counts == quiet.counts
        lines = capsys.readouterr().err.splitlines()
        # the first chunk to finish: the first on one thread; on two, whichever does first
        # (the short last chunk may: the workers hold chunks queued ahead)
        first = ["deals sampled: 262,144/600,000 (44%)"]
        if threads > 1:
            first.append("deals sampled: 75,712/600,000 (13%)")
        assert any(lines[0].startswith(text) for text in first), lines[0]
        assert lines[-1].startswith("deals sampled: 600,000/600,000 (100%)")


def test_exact_walks_report_their_parts(monkeypatch, capsys):
    from evaluator import equity
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: False, raising=False)
    monkeypatch.setattr(progress, "QUIET_SECONDS", 0.0)
    equity("holdem", ["QQ+,AKs", "random", "random"], "2c7d9h", progress=True)
    lines = capsys.readouterr().err.splitlines()
    assert lines and lines[-1].startswith("parts of the boards walked: ")
    assert "(100%)" in lines[-1]
    # outside a call that asked for it, the engine's reports go nowhere
    progress.planned(10, "nothing")
    progress.advanced(5)
    assert capsys.readouterr().err == ""


def test_a_combo_sweep_reports_its_runouts(monkeypatch, capsys):
    """``combo_equity(progress=True)``: an Omaha flop's chunks of runouts reported as each
    is added, on one thread and two, and the same bits as without progress."""
    import numpy as np

    from evaluator import combo_equity
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: False, raising=False)
    monkeypatch.setattr(progress, "QUIET_SECONDS", 0.0)
    monkeypatch.setattr(progress, "LINE_EVERY", 0.0)
    dead = "2s3s4s5s6s8s2h3h4h5h6h8h"           # 37 cards left: 666 runouts
    quiet = combo_equity("omaha", "AA**,KK**", "Ah7d2c", dead)
    assert capsys.readouterr().err == ""
    for threads in (1, 2):
        shown = combo_equity("omaha", "AA**,KK**", "Ah7d2c", dead, threads=threads,
                             progress=True)
        np.testing.assert_array_equal(shown, quiet)
        lines = capsys.readouterr().err.splitlines()
        assert lines[-1].startswith("omaha: every combo on 666 runouts: ")
        assert "(100%)" in lines[-1]


def test_a_call_reports_from_its_start_and_with_the_totals_planned_later(monkeypatch, capsys):
    """The first line comes once the work (not the line printer) has lasted the quiet
    seconds, its time counted from the work's start; work planned once the lines have
    begun raises their total."""
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: False, raising=False)
    monkeypatch.setattr(progress, "LINE_EVERY", 0.0)
    _clock(monkeypatch, 0.0, 1.0, 2.5, 2.5, 3.0, 3.0)
    with progress.reporting(True):           # 0 s: the work starts
        progress.planned(100, "deals")
        progress.advanced(40)                # 1 s: quiet
        progress.advanced(40)                # 2.5 s: a line, 2 s after the start
        progress.planned(100, "deals")       # more work: the total is 200
        progress.advanced(20)                # 3 s
    assert capsys.readouterr().err.splitlines() == ["deals: 80/100 (80%), 2 s",
                                                    "deals: 100/200 (50%), 3 s"]


def test_the_terminal_bar_is_drawn_on_stderr(monkeypatch):
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: True, raising=False)
    bar = progress.progress_bar(10, "deals", True)
    try:
        assert bar.console.stderr          # stdout carries the answers (--json, --csv)
    finally:
        bar.stop()
