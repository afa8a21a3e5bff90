"""Find and read hand-history files: paths, folders (every file below them, in name
order), ``-`` for standard input; each file's text decoded (UTF-8, with or without its
byte-order mark, else Latin-1) and its format told from its first line (PokerStars
text starts with "PokerStars"; anything else is read as PHH).  A file that is empty,
binary or unreadable is one ``HandProblem``; the rest are read."""
from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from .hand import Hand, HandProblem

__all__ = ["read_histories", "parse_histories", "read_file", "history_files", "decode"]

SUFFIXES = (".phh", ".phhs", ".txt", ".toml")


def history_files(paths: Iterable[str | os.PathLike]) -> Iterator[str]:
    """Each file named, and every file with a history's suffix (``.phh``, ``.phhs``,
    ``.toml``, and ``.txt`` that starts as a PokerStars history) below each folder named,
    in name order; each file once, however often named; ``-`` once, as it is."""
    stdin = False
    seen: set[str] = set()                         # a file named twice, or in two folders
    for found in _files(paths):
        if found == "-":
            if not stdin:                          # standard input is read once
                yield found
            stdin = True
            continue
        real = os.path.realpath(found)
        if real not in seen:
            seen.add(real)
            yield found


def _files(paths: Iterable[str | os.PathLike]) -> Iterator[str]:
    for path in paths:
        text = os.fspath(path)
        if text == "-":
            yield text
            continue
        p = Path(text)
        if p.is_dir():
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for name in sorted(files):
                    found = Path(root) / name
                    if name.lower().endswith(SUFFIXES) and (
                            not name.lower().endswith(".txt") or _stars(found)):
                        yield str(found)
        else:
            yield text


def _stars(path: Path) -> bool:
    """Whether a ``.txt`` file found in a folder is a PokerStars history (its first
    characters say so); other text files there (a README) are not histories."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(64)
    except OSError:
        return True                                # named: the reader says what is wrong
    return b"PokerStars" in head[:32] or head.startswith((b"\xff\xfe", b"\xfe\xff"))


def decode(data: bytes) -> str:
    """A history file's text: UTF-8 (a byte-order mark dropped), UTF-16 with its mark,
    else Windows-1252 (Latin-1 with the euro sign, which some clients write), else
    Latin-1.  Raises ``ValueError`` for binary data."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise ValueError("a file marked UTF-16 that is not") from None
    if b"\x00" in data[:4096]:
        raise ValueError("a binary file, not a hand history")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def read_histories(paths: str | os.PathLike | Iterable[str | os.PathLike]
                   ) -> Iterator[Hand | HandProblem]:
    """Every hand of the files at ``paths`` (a path, a folder, ``-``, or a list of them),
    read one file at a time (memory flat in the number of files), as ``Hand`` records; a
    hand or file that cannot be read is yielded as its ``HandProblem``.

    >>> from evaluator.histories import read_histories
    >>> hands = list(read_histories("my_hands/"))            # doctest: +SKIP
    """
    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    for source in history_files(paths):
        text = read_file(source)
        if isinstance(text, HandProblem):
            yield text
        else:
            yield from parse_histories(text, source)


def read_file(source: str) -> str | HandProblem:
    """A history file's text (``-``: standard input), or the ``HandProblem`` of a file
    that cannot be read or is binary."""
    try:
        data = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    except OSError as error:
        return HandProblem(f"cannot read the file: {error.strerror or error}", source)
    try:
        return decode(data)
    except ValueError as error:
        return HandProblem(str(error), source)


def parse_histories(text: str, source: str = "<text>") -> Iterator[Hand | HandProblem]:
    """The hands of one history's ``text`` (PHH, or PokerStars text where it starts with
    "PokerStars"); ``source`` names it in rows and problems."""
    from .phh import read_phh
    from .pokerstars import read_pokerstars
    if not text.strip():
        yield HandProblem("an empty file", source)
    elif text.lstrip("\ufeff \t\r\n").startswith("PokerStars"):
        yield from read_pokerstars(text, source)
    else:
        yield from read_phh(text, source)
