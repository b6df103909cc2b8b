"""The exception every reference game raises for a move it does not accept."""
from __future__ import annotations


class IllegalMove(ValueError):
    """A move that is malformed or not legal in the position.

    ``IllegalMove(message, reason)``: ``str(e)`` is the human-readable
    ``message``; ``e.reason`` is a short machine-readable tag (``"occupied"``,
    ``"game_over"``, ``"syntax"``, ...), like ``hexcore.IllegalMoveError.reason``.
    """

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason
