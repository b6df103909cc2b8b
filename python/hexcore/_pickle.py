"""Pickles made before the reconstructor moved into the extension name
``hexcore._pickle.restore``: it is the extension's ``_restore`` (games are
rebuilt from the spec, the set-up position, if any, and the actions)."""
from __future__ import annotations

from ._core import _restore as restore

__all__ = ["restore"]
