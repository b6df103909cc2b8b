"""``python -m hexcore.reference PATH``: check a solver certificate with the
pure-Python reference games (see :mod:`hexcore.reference.certificate`)."""
import sys

from .certificate import main

if __name__ == "__main__":
    sys.exit(main())
