"""Shared fixtures.  Kernels compile on first use, each once (and load from Numba's
on-disk cache in later sessions): a test compiles only what it uses.  ``warm`` compiles
every kernel, for the few tests that need the whole cache warm."""
import os

import numpy as np
import pytest

import evaluator


def pytest_collection_modifyitems(items):
    """The longest checks first, so that with two workers (``pytest -m slow``) the
    last test to finish is a short one, not a three-minute one started at the end."""
    items.sort(key=lambda item: item.get_closest_marker("longest") is None)


@pytest.fixture(scope="session", autouse=True)
def outside_the_checkout(tmp_path_factory):
    """Run from a folder of our own: ``python -m evaluator`` in a subprocess then imports
    the installed package, as the in-process tests do, never the checkout in the
    working directory."""
    previous = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("cwd"))
    yield
    os.chdir(previous)


@pytest.fixture(scope="session")
def warm(outside_the_checkout):
    """Every kernel compiled (``evaluator warmup``; at once when it already ran)."""
    evaluator.warmup()


@pytest.fixture(scope="session")
def high_tables():
    from evaluator import _tables
    return _tables.high()


@pytest.fixture
def rng():
    return np.random.default_rng(20261129)


def random_hands(rng, n, k):
    """n rows of k distinct card ids, uint8."""
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


@pytest.fixture
def sigint_handled():
    """SIGINT raises KeyboardInterrupt in this process for the test, even where the suite
    was started with SIGINT ignored (a background job without job control)."""
    import signal
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def interrupt_when(proc, ready, wait: float = 120.0) -> tuple[str, float]:
    """Send Ctrl-C to ``proc`` (started with ``preexec_fn=sigint_default`` and its stderr
    piped) once ``ready()`` is true, and let it stop: ``(its stderr, seconds it took to
    stop)``.  Fails if it ends on its own first or ``ready`` takes ``wait`` seconds; the
    process is killed whatever happens."""
    import signal
    import time
    try:
        deadline = time.monotonic() + wait
        while not ready():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.02)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=30)
        return stderr, time.monotonic() - sent
    finally:
        proc.kill()


def sigint_default():
    """``preexec_fn`` for children sent SIGINT: the default disposition, not an inherited
    'ignore', so that Python installs its KeyboardInterrupt handler."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)
