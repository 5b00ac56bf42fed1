"""The desktop bundle's entry point: the same `memvault` command as the wheel's console script."""

import sys

from memvault.desktop.cli import main

if __name__ == "__main__":
    sys.exit(main())
