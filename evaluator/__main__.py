"""``python -m evaluator``: the command line, as the ``evaluator`` script runs it."""
import sys

try:
    from .cli import main
except KeyboardInterrupt:                  # Ctrl-C while the command line loads
    print("evaluator: interrupted", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
