"""``python -m evalkit``: the same command line as the ``evalkit`` console script."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
