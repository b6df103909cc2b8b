"""Exceptions raised by hexcore.

Every error a caller can cause is one of these (or a plain ``ValueError`` /
``TypeError`` for bad constructor arguments and argument types); the Rust core
never panics into Python. The classes are defined once, in the extension
(``rust/py/src/errors.rs``), and re-exported here:

* ``HexcoreError``: base class of hexcore's own errors.
* ``IllegalMoveError(HexcoreError, ValueError)``: a move or action that the
  rules do not allow here. ``IllegalMoveError(message, reason=None)``;
  ``reason`` is a short machine-readable code (``"occupied"``,
  ``"isolation"``, ``"balance"``, ...; every code is listed by
  ``hexcore._core.Reason``; default ``"illegal_action"``). A failed ``play``
  or ``apply_action`` leaves the game unchanged.
* ``NotationError(IllegalMoveError)``: text that does not name a move of this
  game (bad syntax, unknown cell).
* ``GameOverError(IllegalMoveError)``: a move or action after the game has
  ended.
* ``TooManyMovesError(HexcoreError)``: ``legal_moves()`` would be too long to
  list; use ``count_moves()`` (``reason`` ``"too_many_moves"``).
"""
from __future__ import annotations

from ._core import GameOverError, HexcoreError, IllegalMoveError, NotationError, TooManyMovesError

__all__ = ["HexcoreError", "IllegalMoveError", "NotationError", "GameOverError", "TooManyMovesError"]
