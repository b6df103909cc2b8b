"""The types the public functions are annotated with, declared once.

``Game`` is any hexcore game: ``hc.Churn``, ``hc.Wunchunk``, ``hc.Quintun``,
``hc.Hex``, ``hc.Havannah`` and ``hc.Y`` all derive from the extension's
``_Game`` (``hexcore.Game``). ``Evaluator`` is the network callback of the
batched search and the agents: ``evaluator(observations, masks) -> (priors,
values)``, float32 ``(L, C, H, W)`` and bool ``(L, A)`` in, ``(L, A)`` and
``(L, num_players)`` out.
"""
from __future__ import annotations

from typing import Any, Callable, Tuple

import numpy as np
import numpy.typing as npt

from ._core import _Game

__all__ = ["Game", "Evaluator"]

Game = _Game

Evaluator = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], Tuple[Any, Any]]
