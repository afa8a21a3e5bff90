"""The command line's arguments: the parser class whose errors are one line, the number
flags, the flags the API's messages are translated to, and the checks of any command."""
from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable

from ..errors import EvaluatorError

__all__ = ["UsageError", "Parser", "whole", "seed_flag", "real", "add_method", "flags",
           "check_out", "pct", "check_numbers"]



# The API's argument names in its messages, and the flags that set them here.  Anchored
# rules apply to every command; the others not to ``batch``, whose query files use the
# API's names as fields.
_FLAG_NAMES = [(re.compile(r"^threads must"), "--threads must"),
               (re.compile(r"^seed must"), "--seed must"),
               (re.compile(r"^version must"), "--stream-version must"),
               (re.compile(r"^trials must"), "--trials must"),
               (re.compile(r"^target_stderr must"), "--stderr must"),
               (re.compile(r"^target_stderr (?=[\d.])"), "--stderr "),
               (re.compile(r"^trials (?=\d)"), "--trials "),
               (re.compile(r"^exact=True cannot be combined with trials or target_stderr"),
                "--exact cannot be combined with --trials or --stderr")]
_FLAG_WORDS = [(re.compile(r"\btrials= or target_stderr="), "--trials or --stderr"),
               (re.compile(r"\bexact=True\b"), "--exact"),
               (re.compile(r"\btrials="), "--trials"),
               (re.compile(r"\btarget_stderr="), "--stderr"),
               (re.compile(r"\bthreads="), "--threads"),
               (re.compile(r"\bseed="), "--seed"),
               (re.compile(r"\bdiscard_equity\b"), "'evaluator discard'")]


def flags(message: str, command: str | None) -> str:
    """An API error message in the command line's words (``trials=`` -> ``--trials``)."""
    for pattern, flag in _FLAG_NAMES + (_FLAG_WORDS if command != "batch" else []):
        message = pattern.sub(flag, message)
    return message


def check_out(path: str | None, suffixes: tuple[str, ...], option: str, *,
              overwrite: bool = False, resume: bool = False, resumable: bool = False) -> None:
    """Refuse an output path that cannot be written, or a file there that the command
    did not ask to replace (``--overwrite``) or finish (``--resume``), before any work."""
    if path is not None:
        from ..export import check_fresh, check_output
        check_output(path, suffixes, option)
        check_fresh(path, option, resume=resume, overwrite=overwrite, resumable=resumable,
                    words=("--resume", "--overwrite"))


def pct(x: float | None) -> str:
    return "" if x is None else f"{x:.2%}"



class UsageError(Exception):
    """A command line argparse refuses; ``main`` prints it as one line and exits 2."""


# argparse's messages, in the words of the rest of the command line's errors
_USAGE: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    (re.compile(r"^argument (\S+): not allowed with argument (\S+)$"),
     r"\1 cannot be combined with \2"),
    (re.compile(r"^argument (\S+): (must .*)$"), r"\1 \2"),
    (re.compile(r"^argument (\S+): expected one argument$"), r"\1 needs a value"),
    (re.compile(r"^argument (\S+): invalid choice: (\S+) \(choose from (.*)\)$"),
     lambda m: f"unknown {m[1].lower()} {m[2]} (choose from {m[3]})"),
    (re.compile(r"^argument (\S+): "), r"\1: ")]


class Parser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line naming the command's ``--help``
    (subparsers are made of this class too), raised as ``UsageError``."""

    def error(self, message: str):               # type: ignore[override]
        for pattern, replacement in _USAGE:
            message, found = pattern.subn(replacement, message)
            if found:
                break
        raise UsageError(f"{message} (see {self.prog} --help)")

    def parse_args(self, args=None, namespace=None):  # type: ignore[override]
        # stray arguments are found by the top parser: name the command they follow
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            command = getattr(parsed, "command", None)
            prog = f"{self.prog} {command}" if command else self.prog
            raise UsageError(f"unrecognized arguments: {' '.join(extras)} (see {prog} --help)")
        return parsed


def whole(text: str) -> int:
    """A whole-number flag: ``1000000``, ``1_000_000``, ``1e6`` or ``1000000.0``, read
    exactly (``1e30`` is 10**30, never a float's rounding of it); ``1.5`` is refused."""
    try:
        return int(text)
    except ValueError:
        pass
    from decimal import Decimal, InvalidOperation
    try:
        number = Decimal(text.replace("_", "") if "__" not in text else "x")
    except InvalidOperation:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if not number.is_finite() or number != number.to_integral_value() \
            or number.adjusted() > 308:              # past a float's range, as before
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}")
    return int(number)


def seed_flag(text: str) -> int:
    """A ``--seed``: a whole number (``whole``), or a seed as results files write it,
    ``0x`` and hex digits (a sampled row's ``seed`` cell, copied as it is)."""
    from ..errors import seed_of_text
    number = seed_of_text(text)
    return number if number is not None else whole(text)


def real(text: str) -> float:
    """A number flag: finite, or refused here."""
    try:
        number = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
    return number


def add_method(p: argparse.ArgumentParser) -> None:
    method = p.add_mutually_exclusive_group()
    method.add_argument("--exact", action="store_true", help="enumerate every deal")
    method.add_argument("--trials", type=whole, help="Monte Carlo deals (1000000 or 1e6)")
    method.add_argument("--stderr", type=real, help="sample until this standard error")
    p.add_argument("--seed", type=seed_flag,
                   help="Monte Carlo seed (same seed, same answer): 42, or 0x2a as a "
                        "results file writes it")
    p.add_argument("--stream-version", type=whole, metavar="N",
                   help="the Monte Carlo stream a seed deals: 2 (default), or 1 for the "
                        "answers of release 0.1.0")
    p.add_argument("--threads", type=whole, help="threads (default: all cores)")



def check_numbers(args: argparse.Namespace) -> None:
    """Flags argparse reads as integers but that must not be negative."""
    seed = getattr(args, "seed", None)
    if seed is not None and seed < 0:
        raise EvaluatorError(f"--seed must be a non-negative integer, got {seed}", seed)
    for flag in ("threads", "trials", "repeat"):
        value = getattr(args, flag, None)
        if value is not None and value < 1:
            raise EvaluatorError(f"--{flag} must be a positive integer, got {value}", value)
