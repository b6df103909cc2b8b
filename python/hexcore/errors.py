"""Exceptions raised by hexcore.

Every error a caller can cause is one of these (or a plain ``ValueError`` /
``TypeError`` for bad constructor arguments and argument types); the Rust core
never panics into Python.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from ._core import Reason


class HexcoreError(Exception):
    """Base class of hexcore's own errors."""


class IllegalMoveError(HexcoreError, ValueError):
    """A move or action that the rules do not allow here.

    ``reason`` is a short machine-readable code (``"occupied"``,
    ``"isolation"``, ``"balance"``, ...; every code is listed by
    ``hexcore._core.Reason``); the message says it in words. A failed
    ``play`` or ``apply_action`` leaves the game unchanged.
    """

    reason: Reason

    def __init__(self, message: str, reason: Optional[Reason] = None) -> None:
        super().__init__(message)
        self.reason = reason or "illegal_action"


class NotationError(IllegalMoveError):
    """Text that does not name a move of this game (bad syntax, unknown cell)."""


class GameOverError(IllegalMoveError):
    """A move or action after the game has ended."""


class TooManyMovesError(HexcoreError):
    """``legal_moves()`` would be too long to list; use ``count_moves()``."""

    def __init__(self, message: str, reason: Optional[str] = None) -> None:
        super().__init__(message)
        self.reason = reason or "too_many_moves"


__all__ = ["HexcoreError", "IllegalMoveError", "NotationError", "GameOverError", "TooManyMovesError"]
