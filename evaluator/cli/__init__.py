"""Command line: argparse -> public API -> printed tables, JSON or CSV; nothing else.

    evaluator equity holdem AsKs QhQd
    evaluator eval holdem AsKs "Qs Js Ts 2d 3c"
    evaluator tables verify

Exit codes: 0 on success, 2 on a usage error or bad input (one line on
stderr naming the problem, output paths checked before any work), 1 when
``tables verify`` finds a problem, a batch query fails or ``bench`` finds a
wrong answer, 130 on Ctrl-C, 141 when stdout is closed early (``| head``).
"""
from __future__ import annotations

import os
import sys

from .._terminal import IMAGE_SUFFIXES, SHOWN  # noqa: F401  (what tests and plots read)
from ..errors import ArgumentTypeError, EvaluatorError
from .args import UsageError, check_numbers, flags
from .parser import parser

__all__ = ["main", "parser"]


def main(argv: list[str] | None = None) -> int:
    """Run one command; errors are one line on stderr, never a traceback."""
    args = None
    try:
        try:
            args = parser().parse_args(argv)
        except SystemExit:                       # --help, --version: written out now
            sys.stdout.flush()
            raise
        check_numbers(args)
        code = args.run(args)
        sys.stdout.flush()                       # a closed pipe shows here, not at exit
        return code
    except UsageError as error:
        print(f"evaluator: error: {error}", file=sys.stderr)
        return 2
    except (EvaluatorError, ArgumentTypeError) as error:
        command = args.command if args is not None else None
        print(f"evaluator: error: {flags(str(error), command)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # a batch says what it kept itself (BatchInterrupted); every other command answers
        # whole or not at all
        print("evaluator: interrupted; nothing was written", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # stdout closed early (``| head``): say nothing, and keep the interpreter's final
        # flush from failing again
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
